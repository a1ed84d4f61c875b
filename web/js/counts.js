// @ts-check
// Chip counts: the count sheet of a table and single counts on the floor phone, and the chip
// leaders the wall and the player screen show.
//
// A count sheet lists every seat of one table at once, with the time of the count (when the
// sheet was opened; "now" starts it again): a field left empty is a stack not counted, and is
// not sent. One `count_table` carries the sheet, each stack named by its player, so a sheet
// sent late from the outbox never counts whoever sits in the seat by then; the server refuses
// a count older than the stack's last one. The leaders and their average are the server's
// chip facts (floor/engine/counts.py), of counted stacks only.

import { countAge } from "./countage.js";
import * as fmt from "./format.js";
import { Drafts, keptNote, sentSinceNotice } from "./drafts.js";
import { t } from "./i18n.js";
import { mount } from "./mount.js";
import { explainError, fill, h, playerName } from "./ui.js";
/** @import { Conn, Send } from "./types.js" */
/** @import { Player } from "./protocol.js" */

/** The most a stack may hold (the server's bound, and what a double holds exactly). */
const MAX_STACK = Number.MAX_SAFE_INTEGER;

/** A typed stack as a number: separators (spaces, commas, dots) are allowed; "" is none.
 * @param {unknown} typed
 * @returns {{ empty?: true, problem?: string, stack?: number }}
 */
export function parseStack(typed) {
  const text = String(typed ?? "").replace(/[\s,.'’\u00a0\u202f]/g, "");
  if (!text) return { empty: true };
  if (!/^\d+$/.test(text) || Number(text) > MAX_STACK) return { problem: t("count.bad") };
  return { stack: Number(text) };
}

/** The count on record of player `p`: "12,300 · 14:05", or "not counted".
 * @param {Player | null | undefined} p
 */
export function countedText(p) {
  if (!p || !fmt.stackCounted(p)) return t("race.not_counted");
  return p.counted_at ? t("count.at", { stack: fmt.chips(p.stack), time: fmt.timeOfDay(p.counted_at) }) : fmt.chips(p.stack);
}

/**
 * @param {string} id
 * @param {string} value
 * @param {string} label
 * @param {(ev: Event) => void} oninput
 */
function stackInput(id, value, label, oninput) {
  return h("input", {
    id, type: "text", inputmode: "numeric", autocomplete: "off", enterkeyhint: "next", maxlength: 19,
    class: "count-input", value, "aria-label": label, oninput,
  });
}

export class CountSheet {
  /** @param {{ conn: Conn, send: Send, rerender: () => void }} options */
  constructor({ conn, send, rerender }) {
    this.conn = conn;
    this.send = send;
    this.rerender = rerender;
    // What is typed stays on the phone until sent or discarded (drafts.js); a sheet sent
    // from another phone meanwhile is said in place, even under a finger typing.
    this.drafts = new Drafts(conn, "count");
    this.noticeEl = h("div", { class: "draft-notice" });
    conn.on("change", () => this._drawNotice());
    /** @type {number | null} */
    this.table = null;
    /** @type {number | null} */
    this.at = null;
    /** @type {Record<string, string>} what is typed, by player id */
    this.typed = {};
    /** @type {Record<string, string>} by player id: the server's refusal of that row */
    this.errors = {};
    /** @type {string | null} */
    this.error = null;
    this.sending = false;
    /** @type {HTMLButtonElement | null} */
    this.saveBtn = null;
  }

  get active() {
    return this.table != null;
  }

  /** Open the sheet of `table`: the draft kept for it, if any, else a fresh one.
   * @param {number} table
   */
  open(table) {
    const draft = this.drafts.load(table);
    this.table = table;
    this.at = draft?.data?.at ?? this.conn.nowSec();
    this.typed = { ...(draft?.data?.typed || {}) };
    this.errors = {};
    this.error = null;
    if (!draft) this.drafts.begin(table);
  }

  /** Put away (another table opened): the draft stays. */
  close() {
    this.table = null;
    this.typed = {};
    this.errors = {};
    this.error = null;
  }

  /** Discarded: the draft goes too. */
  discard() {
    if (this.table != null) this.drafts.clear(this.table);
    this.close();
  }

  /** What is typed, kept (only while a sheet is open: typing needs one). */
  _keep() {
    if (this.table == null) return;
    const first = !this.drafts.load(this.table);
    this.drafts.save(this.table, { at: this.at, typed: this.typed });
    if (first) this._drawNotice();
  }

  _drawNotice() {
    if (this.table == null) return this.noticeEl.replaceChildren();
    // The notice is about this table: its buttons act on it.
    const table = this.table;
    const notice = sentSinceNotice(this.drafts, table, {
      onKeep: () => { this.drafts.keep(table); this._drawNotice(); },
      onDiscard: () => { this.discard(); this.open(table); this.rerender(); },
    });
    fill(this.noticeEl, notice, keptNote(this.drafts, table));
  }

  _seats() {
    const tb = this.table == null ? null : this.conn.state?.tables?.[this.table];
    if (!tb) return [];
    return Object.entries(tb.occupants).map(([seat, pid]) => ({ seat: Number(seat), pid }))
      .sort((a, b) => a.seat - b.seat);
  }

  /** @param {{ seat: number, pid: string }[]} seats */
  _counts(seats) {
    const out = [];
    /** @type {{ seat: number, pid: string, message: string } | null} */
    let problem = null;
    for (const { seat, pid } of seats) {
      const v = parseStack(this.typed[pid]);
      if (v.problem) problem ||= { seat, pid, message: v.problem };
      else if (!v.empty) out.push({ player: pid, stack: /** @type {number} */ (v.stack) });
    }
    return { stacks: out, problem };
  }

  /** @param {{ seat: number, pid: string }[]} seats */
  _refreshSave(seats) {
    if (!this.saveBtn) return;
    const { stacks, problem } = this._counts(seats);
    this.saveBtn.disabled = this.sending || !stacks.length || !!problem;
    this.saveBtn.textContent = t("count.save", { n: stacks.length });
  }

  render() {
    const s = this.conn.state;
    const tb = this.table == null ? null : s?.tables?.[this.table];
    if (!s || !tb) {
      this.close();
      return null;
    }
    const seats = this._seats();
    const rows = seats.map(({ seat, pid }) => {
      const p = s.players[pid];
      const id = `count-${this.table}-${seat}`;
      const name = playerName(this.conn, pid);
      const own = parseStack(this.typed[pid]).problem;
      const err = own || this.errors[pid];
      const problemEl = h("p", { class: "error-text count-error", role: err ? "alert" : null, id: `${id}-error` }, err || "");
      const input = stackInput(id, this.typed[pid] ?? "", t("count.field", { seat, name }), (/** @type {Event} */ ev) => {
        this.typed[pid] = /** @type {HTMLInputElement} */ (ev.target).value;
        this._keep();
        delete this.errors[pid];
        const problem = parseStack(/** @type {HTMLInputElement} */ (ev.target).value).problem;
        problemEl.textContent = problem || "";
        input.setAttribute("aria-invalid", String(!!problem));
        this._refreshSave(seats);
      });
      input.setAttribute("aria-describedby", `${id}-last ${id}-error`);
      if (err) input.setAttribute("aria-invalid", "true");
      // The keyboard's "next" goes to the next seat; only the button saves the sheet.
      input.addEventListener("keydown", (ev) => {
        if (ev.key !== "Enter") return;
        ev.preventDefault();
        const all = [...(input.form?.querySelectorAll(".count-input") ?? [])];
        const next = all[all.indexOf(input) + 1];
        if (next instanceof HTMLElement) next.focus();
        else input.blur();
      });
      return h("li", { class: `count-row${err ? " has-error" : ""}` },
        h("label", { class: "count-seat", for: id }, h("span", { class: "seat-no" }, seat), h("span", { class: "seat-name" }, name)),
        input,
        h("span", { class: `count-last${fmt.stackCounted(p) ? "" : " muted"}`, id: `${id}-last` }, t("count.last", { count: countedText(p) })),
        problemEl);
    });
    this.saveBtn = h("button", { type: "submit", class: "primary big" });
    this._refreshSave(seats);
    this._drawNotice();
    return h("form", { class: "count-sheet card", "aria-label": t("count.title", { table: this.table }), onsubmit: (/** @type {SubmitEvent} */ ev) => {
      ev.preventDefault();
      this._save(seats);
    } },
    h("h2", {}, t("count.title", { table: this.table })),
    this.noticeEl,
    h("p", { class: "count-time" }, t("count.time", { time: fmt.timeOfDay(this.at) }), " ",
      h("button", { type: "button", class: "link-button", onclick: () => { this.at = this.conn.nowSec(); this._keep(); this.rerender(); } }, t("count.now"))),
    h("p", { class: "hint" }, t("count.hint")),
    seats.length ? h("ol", { class: "count-rows" }, rows) : h("p", { class: "empty" }, t("race.no_players")),
    this.error ? h("p", { class: "error-text", role: "alert" }, this.error) : null,
    h("div", { class: "actions" }, this.saveBtn,
      h("button", { type: "button", class: "ghost big", onclick: () => { this.discard(); this.rerender(); } }, t("count.cancel"))));
  }

  /** @param {{ seat: number, pid: string }[]} seats */
  async _save(seats) {
    const { stacks, problem } = this._counts(seats);
    const table = this.table;
    if (problem || !stacks.length || table == null) return;
    this.sending = true;
    this.error = null;
    this._refreshSave(seats);
    // Sent: no longer a draft (its own batch must not read as another phone's sheet).
    const typed = { at: this.at, typed: { ...this.typed } };
    this.drafts.clear(table);
    const item = await this.send({ type: "count_table", table, stacks, at: this.at },
      t("count.label", { table, n: stacks.length }));
    this.sending = false;
    if (item.status === "refused") this.drafts.save(table, typed);
    if (item.status === "refused") {
      const m = /^(?:command\.)?stacks\[(\d+)\]/.exec(item.error?.field || "");
      const pid = m ? stacks[Number(m[1])]?.player : null;
      const message = explainError(item.error, this.conn);
      if (pid) this.errors = { [pid]: message };
      else this.error = message;
    } else if (item.status === "done" || item.status === "pending") {
      // Sent, or waiting in the outbox (the sent tab shows it): the sheet is done.
      this.close();
    }
    this.rerender();
  }
}

/** One stack counted now, from the seat's actions on the phone.
 * @param {{ conn: Conn, send: Send, pid: string, table: number, seat: number }} options
 */
export function singleCount({ conn, send, pid, table, seat }) {
  const p = conn.state?.players?.[pid];
  const id = `single-count-${seat}`;
  const problemEl = h("p", { class: "error-text count-error", id: `${id}-error` });
  const input = stackInput(id, "", t("count.single_label", { name: playerName(conn, pid) }), () => {
    problemEl.textContent = parseStack(input.value).problem || "";
  });
  input.setAttribute("aria-describedby", `${id}-last ${id}-error`);
  return h("form", { class: "single-count", onsubmit: async (/** @type {SubmitEvent} */ ev) => {
    ev.preventDefault();
    const v = parseStack(input.value);
    if (v.empty || v.problem) {
      problemEl.textContent = v.problem || t("count.type_stack");
      return;
    }
    const name = playerName(conn, pid);
    const item = await send({ type: "count_table", table, stacks: [{ player: pid, stack: /** @type {number} */ (v.stack) }], at: conn.nowSec() },
      t("count.single_sent", { name, stack: fmt.chips(v.stack) }));
    if (item.status === "refused") problemEl.textContent = explainError(item.error, conn);
    else input.value = "";
  } },
  h("label", { for: id }, t("count.single")),
  h("div", { class: "row" }, input, h("button", { type: "submit" }, t("count.single_save"))),
  h("p", { class: "hint", id: `${id}-last` }, t("count.last", { count: countedText(p) })),
  problemEl);
}

// The chip leaders -------------------------------------------------------------------------------

/** The server's chip facts: {counted, average, leaders: [[player, stack, at, old]], last_at}
 * (`old`: why the count is old, countage.js).
 * @param {Conn} conn
 * @returns {import("./protocol.js").ChipFacts | null} */
export function chipFacts(conn) {
  const f = conn.facts?.chips;
  return f && f.counted ? f : null;
}

/** The chip leaders and the average of the counted stacks, for the wall and the player
 * screen; null while nobody is counted. `limit` leaders are shown (the server sends ten).
 * @param {Conn} conn
 * @param {{ limit?: number, cls?: string }} options
 */
export function chipLeaders(conn, { limit = 10, cls = "" } = {}) {
  const f = chipFacts(conn);
  if (!f) return null;
  const bb = conn.facts?.clock?.big_blind;
  const left = conn.stats?.players_left;
  const inBB = (/** @type {number} */ n) => (bb ? ` · ${fmt.bb(n / bb)}` : "");
  return h("section", { class: `chip-leaders ${cls}`.trim(), "aria-label": t("leaders.title") },
    h("h2", {}, t("leaders.title")),
    h("p", { class: "leaders-meta" },
      left != null ? t("leaders.counted_of", { n: fmt.number(f.counted), left: fmt.number(left) }) : t("leaders.counted", { n: f.counted }),
      f.average != null ? ` · ${t("leaders.average", { stack: fmt.chips(f.average) })}${inBB(f.average)}` : "",
      f.last_at ? ` · ${t("leaders.last", { time: fmt.timeOfDay(f.last_at) })}` : ""),
    h("ol", { class: "leaders-list" }, f.leaders.slice(0, limit).map(([pid, stack, at, old], i) => h("li", { class: old ? "old" : "" },
      h("span", { class: "rank" }, `${i + 1}.`),
      h("span", { class: "who" }, playerName(conn, pid)),
      h("span", { class: "stack" }, h("strong", {}, fmt.chips(stack)), h("span", { class: "bb" }, old ? "" : inBB(stack))),
      countAge(at, old, { cls: "at" })))));
}

/** The wall's page of chip counts (wall.js rotates it in while anybody is counted): the
 * leaders, big, with their stacks in big blinds and when they were counted.
 * @param {Conn} conn
 */
export function chipsWallPage(conn) {
  const head = h("div", { class: "page-head" });
  const list = h("ol", { class: "chips-list" });
  const page = h("section", { class: "page page-chips", dataset: { page: "chips" } }, head, list);
  let last = "";
  const draw = () => {
    const f = chipFacts(conn);
    const names = f ? f.leaders.map(([pid]) => playerName(conn, pid)) : [];
    const key = JSON.stringify([f, names, conn.stats?.players_left, conn.facts?.clock?.big_blind, document.documentElement.lang]);
    if (key === last) return;
    last = key;
    const bb = conn.facts?.clock?.big_blind;
    const left = conn.stats?.players_left;
    page.classList.toggle("empty", !f);
    fill(head, h("h2", {}, t("leaders.title")), f ? h("span", { class: "chips-meta" },
      left != null ? t("leaders.counted_of", { n: fmt.number(f.counted), left: fmt.number(left) }) : t("leaders.counted", { n: f.counted }),
      f.average != null ? ` · ${t("leaders.average", { stack: fmt.chips(f.average) })}` : "",
      f.last_at ? ` · ${t("leaders.last", { time: fmt.timeOfDay(f.last_at) })}` : "",
      f.leaders.some((x) => x[3]) ? ` · ${t("leaders.old_legend")}` : "") : null);
    // Every count with its age; an old one (the server's verdict) says so, its big blinds left out.
    list.replaceChildren(...(f ? f.leaders.map(([pid, stack, at, old], i) => h("li", { class: `chips-row${old ? " old" : ""}` },
      h("span", { class: "rank" }, i + 1),
      h("span", { class: "who" }, playerName(conn, pid)),
      h("span", { class: "stack" }, fmt.chips(stack)),
      h("span", { class: "bb" }, bb && !old ? fmt.bb(stack / bb) : ""),
      countAge(at, old, { cls: "at", short: true }) || h("span", { class: "at" })))
      : [h("li", { class: "muted" }, t("leaders.none"))]));
  };
  mount(page, conn, draw);
  return page;
}

/** Keep `el` showing the chip leaders as the facts change (a hook for a screen's layout).
 * @param {HTMLElement} el
 * @param {Conn} conn
 * @param {{ limit?: number, cls?: string }} options
 */
export function mountLeaders(el, conn, options = {}) {
  let last = "";
  const draw = () => {
    const f = chipFacts(conn);
    const names = f ? f.leaders.map(([pid]) => playerName(conn, pid)) : [];
    const key = JSON.stringify([f, names, conn.stats?.players_left, conn.facts?.clock?.big_blind, document.documentElement.lang]);
    if (key === last) return;
    last = key;
    const block = chipLeaders(conn, options);
    el.hidden = !block;
    el.replaceChildren(...(block ? [block] : []));
  };
  mount(el, conn, draw);
  return el;
}
