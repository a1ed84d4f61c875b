// @ts-check
// Half-typed sheets kept on the device: the count sheet, the bag-and-tag sheet, several out in
// one hand, a chip race and a ruling keep what was typed in localStorage, keyed by tournament,
// table and sheet, until the sheet is sent or discarded; a reload (a browser killed in a
// pocket, a phone restarted) gives it back. Signing out clears every draft on the device.
//
// A draft remembers the server's last record of that table's sheet when it began (the count,
// the bags, the race, the bust-outs, the rulings at the table: `SHEETS[sheet].last`). When the
// server's record is newer, another phone sent that table's sheet meanwhile: the draft says so,
// with the time, until the floorperson keeps the draft or discards it. The server decides what
// a late sheet may still change (a count older than the stack's last one is refused); this
// only says what happened.

import * as fmt from "./format.js";
import { t } from "./i18n.js";
import { h } from "./ui.js";
/** @import { Conn } from "./types.js" */

const PREFIX = "floor.draft.";

/** A record of a sheet the server has: `v` orders them, `at` (epoch seconds) is said, `by` who sent it.
 * @typedef {{ v: number, at: number, by?: string | null }} Mark */
/** What is typed on a sheet, kept on the phone: the server's record when it began (`since`),
 * when it began and was last saved, and what was typed (the sheet's own).
 * @typedef {{ table: number, sheet: string, since: Mark | null, began: number, saved: number, data: any }} Draft */

/** The newest of `items`.
 * @param {(Mark | null | undefined)[]} items
 * @returns {Mark | null} */
const latest = (items) => items.reduce((/** @type {Mark | null} */ best, x) => (x && (!best || x.v > best.v) ? x : best), null);

/** The server's last record of each sheet at a table, as {v: comparable, at: epoch} or null.
 * @type {Record<string, (s: import("./protocol.js").TournamentState, table: number) => Mark | null>} */
export const SHEETS = {
  count: (s, table) => latest(Object.values(s.tables?.[table]?.occupants || {})
    .map((pid) => s.players[pid]?.counted_at).filter((at) => at != null).map((at) => ({ v: at, at }))),
  bag: (s, table) => {
    const sheet = s.bags?.[table];
    return sheet ? { v: sheet.at, at: sheet.at } : null;
  },
  race: (s, table) => latest((s.chip_races || []).filter((r) => r.table === table).map((r) => ({ v: r.at, at: r.at }))),
  same: (s, table) => latest(Object.values(s.players || {}).filter((p) => p.busted && p.bust?.table === table)
    .map((p) => ({ v: p.bust?.at ?? 0, at: p.bust?.at ?? 0 }))),
  ruling: (s, table) => latest((s.rulings?.made || []).filter((r) => r.table === table).map((r) => ({ v: r.number, at: r.at }))),
};

function storage() {
  try {
    return window.localStorage;
  } catch (err) {
    return null;
  }
}

/**
 * @param {string} tid
 * @param {number} table
 * @param {string} sheet
 */
export function draftKey(tid, table, sheet) {
  return `${PREFIX}${tid}.${table}.${sheet}`;
}

/** One sheet's drafts in one tournament, by table. */
export class Drafts {
  /** `sheet`: a name of SHEETS.
   * @param {Conn} conn
   * @param {string} sheet
   */
  constructor(conn, sheet) {
    this.conn = conn;
    this.sheet = sheet;
    this.began = new Map(); // table -> the server's last record when the sheet was opened
  }

  /** The server's last record of this sheet at `table` now.
   * @param {number} table
   */
  last(table) {
    return this.conn.state ? SHEETS[this.sheet](this.conn.state, table) : null;
  }

  /** A sheet opened at `table` with nothing typed yet: what the server had then.
   * @param {number} table
   */
  begin(table) {
    this.began.set(table, this.last(table));
  }

  /** What was typed at `table` (any JSON value): kept until sent or discarded.
   * @param {number} table
   * @param {unknown} data
   */
  save(table, data) {
    const store = storage();
    if (!store) return;
    const key = draftKey(this.conn.tid, table, this.sheet);
    /** @type {any} */
    let was = null;
    try {
      was = JSON.parse(store.getItem(key) || "null");
    } catch (err) {
      was = null;
    }
    const since = was ? was.since : this.began.has(table) ? this.began.get(table) : this.last(table);
    const draft = { table, sheet: this.sheet, since, began: was?.began ?? this.conn.nowSec(), saved: Date.now(), data };
    try {
      store.setItem(key, JSON.stringify(draft));
    } catch (err) {
      /* a full storage keeps nothing: the sheet still works */
    }
  }

  /** The draft kept for `table`, or null.
   * @param {number} table
   * @returns {Draft | null}
   */
  load(table) {
    const store = storage();
    if (!store) return null;
    try {
      return JSON.parse(store.getItem(draftKey(this.conn.tid, table, this.sheet)) || "null");
    } catch (err) {
      return null;
    }
  }

  /** Sent or discarded: gone.
   * @param {number} table
   */
  clear(table) {
    this.began.delete(table);
    storage()?.removeItem(draftKey(this.conn.tid, table, this.sheet));
  }

  /** The sheet sent for `table` since its draft began (by another phone): {at} or null.
   * @param {number} table
   */
  sentSince(table) {
    const draft = this.load(table);
    if (!draft) return null;
    const now = this.last(table);
    if (!now) return null;
    return !draft.since || now.v > draft.since.v ? now : null;
  }

  /** The floorperson keeps the draft after being told: the server's record now is its base.
   * @param {number} table
   */
  keep(table) {
    const draft = this.load(table);
    if (!draft) return;
    draft.since = this.last(table);
    storage()?.setItem(draftKey(this.conn.tid, table, this.sheet), JSON.stringify(draft));
  }

  /** Every draft of this sheet in the tournament, newest first. */
  all() {
    return allDrafts(this.conn.tid).filter((d) => d.sheet === this.sheet);
  }
}

/** Every draft kept for tournament `tid`, newest first.
 * @param {string} tid
 */
export function allDrafts(tid) {
  const store = storage();
  if (!store) return [];
  const out = [];
  for (let i = 0; i < store.length; i += 1) {
    const key = store.key(i);
    if (!key || !key.startsWith(`${PREFIX}${tid}.`)) continue;
    try {
      const d = JSON.parse(store.getItem(key) ?? "null");
      if (d && d.sheet in SHEETS) out.push(d);
    } catch (err) {
      /* not ours */
    }
  }
  return out.sort((a, b) => b.saved - a.saved);
}

/** Signing out: no draft of any tournament stays on the device. */
export function clearAllDrafts() {
  const store = storage();
  if (!store) return;
  const keys = [];
  for (let i = 0; i < store.length; i += 1) {
    const key = store.key(i);
    if (key && key.startsWith(PREFIX)) keys.push(key);
  }
  for (const key of keys) store.removeItem(key);
}

/** What a sheet shows above itself while its draft is behind the server: who sent what when,
 * and the choice to keep the draft or to discard it. Null when nothing was sent since.
 * @param {Drafts} drafts
 * @param {number} table
 * @param {{ onKeep: () => void, onDiscard: () => void }} actions
 */
export function sentSinceNotice(drafts, table, { onKeep, onDiscard }) {
  const sent = drafts.sentSince(table);
  if (!sent) return null;
  const draft = drafts.load(table);
  return h("div", { class: "notice draft-stale", role: "alert" },
    h("p", {}, t(`draft.sent_since.${drafts.sheet}`, { table, time: fmt.timeOfDay(sent.at), began: fmt.timeOfDay(draft?.began) })),
    h("div", { class: "actions" },
      h("button", { type: "button", onclick: onKeep }, t("draft.keep")),
      h("button", { type: "button", class: "ghost", onclick: onDiscard }, t("draft.discard"))));
}

/** "Kept on this phone" under a sheet whose draft is saved.
 * @param {Drafts} drafts
 * @param {number} table
 */
export function keptNote(drafts, table) {
  const draft = drafts.load(table);
  if (!draft) return null;
  return h("p", { class: "hint draft-kept" }, t("draft.kept", { time: fmt.timeOfDay(draft.began) }));
}
