// @ts-check
// Several players out in the same hand, on the floor phone (TDA: the bigger starting stack
// finishes higher; equal stacks share the place and its prizes).
//
// The floorperson taps every seat out in the hand, at one table or, hand-for-hand, at several
// (the picks stay while the phone goes to another table), gives the stacks they started the
// hand with (filled in from the last counts), and sees the places and prizes the server will
// give before confirming: the preview is the server's own decision on a copy
// (`POST /api/t/{tid}/preview`), so the page never ranks stacks itself. One
// `bust_same_hand` records them all.

import * as fmt from "./format.js";
import { t } from "./i18n.js";
import { placeText } from "./prizes.js";
import { countedText, parseStack } from "./counts.js";
import { Drafts, keptNote, sentSinceNotice } from "./drafts.js";
import { api, debounce, explainError, fill, h, playerName } from "./ui.js";
import { heldState } from "./conn.js";
import { bountyOf, winnerPicker } from "./bounty_pick.js";
/** @import { Command, Conn, Send } from "./types.js" */

export class SameHand {
  /** @param {{ conn: Conn, tid: string, send: Send, rerender: () => void }} options */
  constructor({ conn, tid, send, rerender }) {
    this.conn = conn;
    this.tid = tid;
    this.send = send;
    this.rerender = rerender;
    this.active = false;
    // The table the sheet was begun at (its draft's key; the picks may span tables).
    this.table = null;
    this.drafts = new Drafts(conn, "same");
    // A bust-out at the table from another phone meanwhile is said in place.
    this.noticeEl = h("div", { class: "draft-notice" });
    conn.on("change", () => this._drawNotice());
    this.picked = new Map(); // player id -> typed stack (a string)
    /** In a bounty tournament, who won each picked player's pot (bounty_pick.js).
     * @type {Map<string, Set<string>>} */
    this.winners = new Map();
    this.confirming = false;
    this.sending = false;
    /** @type {any} */
    this.preview = null; // {key, finishes, left, currency} | {key, error}
    this.asked = 0;
    /** @type {string | null} */
    this.askedKey = null;
    // Filled in place: the preview answers while a stack is being typed, and the phone
    // never redraws under the floorperson's fingers.
    this.previewEl = h("div", { class: "same-preview", "aria-live": "polite" });
    this.confirmBtn = null;
    this.canBust = false;
    this._ask = debounce(() => this._fetch(), 250);
  }

  /** Begin at `table`: the draft kept for it, if any, else nobody picked.
   * @param {number} table
   */
  start(table) {
    const draft = this.drafts.load(table);
    this.active = true;
    this.table = table;
    this.picked = new Map(draft?.data?.picked || []);
    this.winners = new Map((draft?.data?.winners || []).map((/** @type {[string, string[]]} */ [k, v]) => [k, new Set(v)]));
    this.confirming = false;
    this.preview = null;
    if (!draft) this.drafts.begin(table);
  }

  /** Cancelled, or sent: the draft goes too. */
  stop() {
    if (this.table != null) this.drafts.clear(this.table);
    this.active = false;
    this.table = null;
    this.picked.clear();
    this.winners.clear();
    this.confirming = false;
    this.preview = null;
  }

  _keep() {
    if (this.table == null) return;
    const first = !this.drafts.load(this.table);
    this.drafts.save(this.table, { picked: [...this.picked], winners: [...this.winners].map(([k, v]) => [k, [...v]]) });
    if (first) this._drawNotice();
  }

  _drawNotice() {
    // The notice is about this table: its buttons act on it.
    const table = this.table;
    const notice = this.active && table != null ? sentSinceNotice(this.drafts, table, {
      onKeep: () => { this.drafts.keep(table); this._drawNotice(); },
      onDiscard: () => { this.stop(); this.start(table); this.rerender(); },
    }) : null;
    const kept = this.active && this.table != null ? keptNote(this.drafts, this.table) : null;
    fill(this.noticeEl, notice, kept);
  }

  /** @param {string} pid */
  isPicked(pid) {
    return this.picked.has(pid);
  }

  /** Pick or drop a seat's player; the stack is filled in from their last count.
   * @param {string} pid
   */
  toggle(pid) {
    if (this.picked.has(pid)) this.picked.delete(pid);
    else {
      const p = this.conn.state?.players?.[pid];
      this.picked.set(pid, p && fmt.stackCounted(p) ? String(p.stack) : "");
    }
    this.confirming = false;
    this._keep();
  }

  /** Players out (here or by another phone) since they were picked are dropped. */
  _prune() {
    const players = this.conn.state?.players || {};
    for (const pid of [...this.picked.keys()]) {
      const p = players[pid];
      if (!p || p.busted || p.table == null) this.picked.delete(pid);
    }
  }

  /** The command as it stands, or null while fewer than two are picked or a stack is bad. */
  /** @returns {import("./protocol.js").BustSameHand | null} */
  command() {
    if (this.picked.size < 2) return null;
    /** @type {import("./protocol.js").Busted[]} */
    const players = [];
    const bounties = !!bountyOf(this.conn.state);
    for (const [pid, typed] of this.picked) {
      const v = parseStack(typed);
      if (v.problem) return null;
      // A bounty tournament: every pot's winner named before it can be sent.
      const won = [...(this.winners.get(pid) || [])].filter((w) => w !== pid);
      if (bounties && !won.length) return null;
      // No stack: the server takes the last count, or asks for the stack by name.
      const one = v.empty ? { player: pid } : { player: pid, stack: v.stack };
      players.push(bounties ? { ...one, eliminators: won } : one);
    }
    return { type: "bust_same_hand", players };
  }

  /** @param {Command | null} command */
  _key(command) {
    const s = this.conn.state;
    return JSON.stringify([command, s?.busted, s?.entries, document.documentElement.lang]);
  }

  async _fetch() {
    const command = this.command();
    if (!command || !this.active) return;
    const key = this._key(command);
    if (this.preview?.key === key || this.askedKey === key) return;
    this.asked += 1;
    const asked = this.asked;
    this.askedKey = key;
    let answer;
    try {
      answer = { key, ...(await api(`/api/t/${encodeURIComponent(this.tid)}/preview`, { method: "POST", body: { command } })) };
    } catch (err) {
      answer = { key, error: err };
    }
    if (asked !== this.asked) return;
    this.askedKey = null;
    this.preview = answer;
    this._drawPreview();
  }

  /** Whether the confirm button is off: nothing to send, or the server's preview refuses it
   * (offline, the command may still be sent: the server decides when it gets it).
   * @param {Command | null} command
   */
  _blocked(command) {
    if (!command || this.sending || !this.canBust) return true;
    const p = this.preview;
    return !!(p && p.key === this._key(command) && p.error && !isOffline(p.error));
  }

  _drawPreview() {
    const command = this.command();
    if (this.confirmBtn) this.confirmBtn.disabled = this._blocked(command);
    const el = this.previewEl;
    el.replaceChildren();
    if (!command) {
      el.append(h("p", { class: "hint" }, this.picked.size < 2 ? t("same.pick_more")
        : this._winnersMissing() ? t("bounty.pick_winner") : t("same.fix_stacks")));
      return;
    }
    const p = this.preview;
    if (!p || p.key !== this._key(command)) {
      el.append(h("p", { class: "muted" }, t("same.previewing")));
      this._ask();
      return;
    }
    if (p.error) {
      const offline = isOffline(p.error);
      el.append(h("p", { class: offline ? "muted" : "error-text", role: offline ? "status" : "alert" },
        offline ? t("same.preview_offline") : explainError(p.error, this.conn)));
      return;
    }
    const money = (/** @type {number} */ n) => fmt.money(n, p.currency);
    const best = [...p.finishes].sort((a, b) => a.place - b.place);
    el.append(h("h3", {}, t("same.preview_title")),
      h("ol", { class: "same-places" }, best.map((f) => h("li", { class: f.tied > 1 ? "shared" : "" },
        h("span", { class: "same-place" }, placeText(f.place, f.tied)),
        h("span", { class: "same-name" }, playerName(this.conn, f.player)),
        h("span", { class: "same-stack" }, f.stack != null ? fmt.chips(f.stack) : "–"),
        h("span", { class: `same-prize${f.prize ? "" : " none"}` }, p.currency != null && f.prize ? money(f.prize) : t("same.no_prize"),
          f.tied > 1 ? h("span", { class: "badge badge-shared" }, t("same.shared", { n: f.tied })) : null)))),
      h("p", { class: "muted small" }, t("same.left_after", { n: p.left })));
  }

  /** A bounty tournament with a picked player whose pot has no winner named. */
  _winnersMissing() {
    if (!bountyOf(this.conn.state)) return false;
    return [...this.picked.keys()].some((pid) => !this.winners.get(pid)?.size);
  }

  /** Who won `pid`'s pot: the others at their table, a tap picks or drops one.
   * @param {string} pid
   * @param {any} p */
  _winnersPicker(pid, p) {
    if (!bountyOf(this.conn.state) || p?.table == null) return null;
    const picked = this.winners.get(pid) || new Set();
    return winnerPicker({
      state: heldState(this.conn), table: p.table, busted: [pid], split: true, picked,
      name: (x) => playerName(this.conn, x),
      label: t("bounty.who_won_of", { name: playerName(this.conn, pid) }),
      onToggle: (x) => {
        if (!picked.delete(x)) picked.add(x);
        this.winners.set(pid, picked);
        this._keep();
        this.confirming = false;
        this.rerender();
      },
    });
  }

  _refresh() {
    this._drawPreview();
  }

  /** The panel: the players picked, their starting stacks, the server's places, confirm.
   * @param {boolean} canBust
   */
  render(canBust) {
    this.canBust = canBust;
    this._prune();
    const s = heldState(this.conn);
    const rows = [...this.picked.entries()].map(([pid, typed]) => {
      const p = s.players[pid];
      const id = `same-stack-${pid}`;
      const name = playerName(this.conn, pid);
      const problemEl = h("p", { class: "error-text count-error" }, parseStack(typed).problem || "");
      const input = h("input", {
        id, type: "text", inputmode: "numeric", autocomplete: "off", maxlength: 19, class: "count-input", value: typed,
        "aria-describedby": `${id}-last`,
        oninput: (/** @type {Event} */ ev) => {
          this.picked.set(pid, /** @type {HTMLInputElement} */ (ev.target).value);
          this._keep();
          this.confirming = false;
          problemEl.textContent = parseStack(/** @type {HTMLInputElement} */ (ev.target).value).problem || "";
          this._refresh();
        },
      });
      return h("li", { class: "same-row" },
        h("div", { class: "same-who" }, h("strong", {}, name), " ", h("span", { class: "muted" }, fmt.spot(p.table, p.seat)),
          h("button", { type: "button", class: "link-button same-drop", "aria-label": t("same.drop", { name }),
            onclick: () => { this.picked.delete(pid); this._keep(); this.confirming = false; this.rerender(); } }, t("same.drop_short"))),
        h("label", { for: id }, t("same.stack_label")),
        input,
        h("span", { class: "hint", id: `${id}-last` }, t("count.last", { count: countedText(p) })),
        problemEl,
        this._winnersPicker(pid, p));
    });
    this.confirmBtn = h("button", { type: "button", class: "danger big", disabled: this._blocked(this.command()),
      onclick: () => { this.confirming = true; this.rerender(); } }, t("same.confirm", { n: this.picked.size }));
    const confirmBox = this.confirming && this.command()
      ? h("div", { class: "confirm-box", role: "alertdialog", "aria-label": t("same.confirm_title") },
        h("p", {}, t("same.confirm_text", { n: this.picked.size })),
        h("div", { class: "actions" },
          h("button", { type: "button", class: "danger big", disabled: this.sending, onclick: () => this._send() }, t("same.yes")),
          h("button", { type: "button", class: "big", onclick: () => { this.confirming = false; this.rerender(); } }, t("common.no"))))
      : null;
    const panel = h("section", { class: "same-hand card", "aria-label": t("same.title") },
      h("h3", {}, t("same.title")),
      this.noticeEl,
      h("p", { class: "hint" }, t("same.hint")),
      rows.length ? h("ul", { class: "same-rows" }, rows) : null,
      this.previewEl,
      confirmBox || h("div", { class: "actions" }, this.confirmBtn,
        h("button", { type: "button", class: "ghost big", onclick: () => { this.stop(); this.rerender(); } }, t("same.cancel"))));
    this._drawPreview();
    this._drawNotice();
    return panel;
  }

  async _send() {
    const command = this.command();
    if (!command) return;
    this.sending = true;
    this.rerender();
    const names = command.players.map((x) => playerName(this.conn, x.player)).join(", ");
    // Sent: no longer a draft (its own bust-outs must not read as another phone's).
    const table = this.table;
    if (table != null) this.drafts.clear(table);
    const item = await this.send(command, t("same.label", { names }));
    this.sending = false;
    this.confirming = false;
    if (item.status === "done" || item.status === "pending") this.stop();
    else if (item.status === "refused") {
      this.preview = { key: this._key(command), error: item.error };
      if (this.table === table) this._keep();
    }
    this.rerender();
  }
}

/** @param {any} error */
function isOffline(error) {
  return error.code === "network" || error.status === 0;
}
