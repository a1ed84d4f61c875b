// @ts-check
// Floor rulings on the screens: what the server keeps of them (state.rulings, folded by
// fold.js; the players penalised more than once in the staff facts: staff.repeats), rendered.
//
// - The floor phone (RulingsPhone): a ruling recorded at a table (the players, the rule found
//   in the rulebook, a penalty, a short note, when it was made), with the named players'
//   earlier rulings and penalties beside it; the sit-outs running and those just over.
// - The wall and any table screen (sitOutsPanel): who sits out, until when or for how many
//   hands, read from five metres.
// - The director's console (renderRulings): the day's rulings, the sit-outs, the repeats.
//
// Nothing is decided here: the penalties, the sit-outs' ends and the repeats are the server's
// (floor/engine/rulings.py). A sit-out of minutes counts down here between events; its end is
// written by the server's clock.

import { RulebookClient, citeText } from "./rulebook.js";
import { Drafts, keptNote, sentSinceNotice } from "./drafts.js";
import * as fmt from "./format.js";
import { getLang, onLang, t } from "./i18n.js";
import { mount } from "./mount.js";
import { debounce, every, explainError, fill, h, playerName, saidAs } from "./ui.js";
import { heldState } from "./conn.js";
/** @import { Conn } from "./types.js" */
/** @import { Send } from "./types.js" */

// The styles of this module, in a file of their own (every screen that mounts a part of it).
if (!document.querySelector('link[data-rulings]')) {
  document.head.append(h("link", { rel: "stylesheet", href: "/static/css/rulings.css", "data-rulings": "" }));
}

// The rulebook in the reader's language: its titles in every language, its texts in English
// and Czech (the server's config/rulebook/titles).
const lang2 = () => getLang();

// What the server keeps ---------------------------------------------------------------------

/** A sit-out as the screens show it: where the player sits and how long is left.
 * @typedef {{ player: string, name: string, ruling: number, table: number | null, seat: number | null,
 *   endsAt: number | null, handsLeft: number | null, left: number | null }} SitOutShown */

/** A ruling being written on the phone (kept as a draft while it is).
 * @typedef {object} RulingForm
 * @property {number} table
 * @property {string[]} players
 * @property {string | null} rule
 * @property {string} query the rule search typed
 * @property {"none" | "warning" | "sit_out" | "disqualification"} penalty
 * @property {string | null} target the player penalised
 * @property {"minutes" | "hands" | "rounds"} unit
 * @property {string} amount
 * @property {string} chips
 * @property {string} note
 * @property {boolean} earlier made earlier than now, at `time`
 * @property {string} time
 * @property {boolean} confirm a disqualification asked to be confirmed
 * @property {string | null} error
 */

/** The day's rulings, oldest first.
 * @param {Conn} conn
 * @returns {import("./protocol.js").Ruling[]} */
export function rulingsOf(conn) {
  return conn.state?.rulings?.made || [];
}

/** The sit-outs running, with where the player sits and how long is left:
 * [{player, name, ruling, table, seat, endsAt, handsLeft, left}] (`left`: seconds, minutes
 * only; 0 once over, until the server's clock writes the end).
 * @param {Conn} conn
 * @returns {SitOutShown[]} */
export function sitOutsOf(conn) {
  const now = conn.now() / 1000;
  return (conn.state?.rulings?.sit_outs || []).map((/** @type {import("./protocol.js").SitOut} */ x) => {
    const p = heldState(conn).players?.[x.player];
    return {
      player: x.player, name: playerName(conn, x.player), ruling: x.ruling, table: p?.table ?? null,
      seat: p?.seat ?? null, endsAt: x.ends_at, handsLeft: x.hands_left,
      left: x.ends_at != null ? Math.max(0, x.ends_at - now) : null,
    };
  });
}

/** The rulings that name `player`, newest first.
 * @param {Conn} conn
 * @param {string} player
 */
export function rulingsNaming(conn, player) {
  return rulingsOf(conn).filter((r) => r.players.includes(player)).reverse();
}

/** The players penalised more than once today (the server's list): {player: repeat}.
 * @param {Conn} conn
 */
function repeatsOf(conn) {
  return Object.fromEntries((conn.staff?.repeats || []).map((/** @type {import("./protocol.js").Repeat} */ r) => [r.player, r]));
}

/** A penalty in words: "warning", "sit-out, 10 minutes", "disqualified (place 47)".
 * @param {import("./protocol.js").PenaltyGiven | import("./protocol.js").Penalty | null | undefined} p
 */
export function penaltyText(p) {
  if (!p) return t("ruling.penalty.none");
  if (p.kind === "warning") return t("ruling.penalty.warning");
  if (p.kind === "disqualification") {
    const place = "place" in p ? p.place : null;
    return place ? t("ruling.penalty.disqualified_place", { place }) : t("ruling.penalty.disqualified");
  }
  if (p.rounds != null) return t("ruling.penalty.sit_out_rounds", { n: p.rounds, hands: p.hands });
  return p.hands != null ? t("ruling.penalty.sit_out_hands", { n: p.hands }) : t("ruling.penalty.sit_out_minutes", { n: p.minutes });
}

/** The sit-out lengths a ruling gives and the number each starts at. */
/** @type {Record<string, string>} */
const UNITS = { minutes: "10", hands: "3", rounds: "1" };
/** @type {Record<string, number>} */
const MAX = { minutes: 600, hands: 100, rounds: 10 };

/** How long a sit-out still runs, in words: "back at 21:34 · 9:12" or "2 more hands".
 * @param {SitOutShown} x
 */
export function sitOutLeft(x) {
  if (x.endsAt != null) {
    return (x.left ?? 0) > 0 ? t("sitout.until", { time: fmt.timeOfDay(x.endsAt), left: fmt.clock(x.left) }) : t("sitout.over");
  }
  return (x.handsLeft ?? 0) > 0 ? t("sitout.hands_left", { n: x.handsLeft }) : t("sitout.last_hand");
}

/** A rule's citation and title from a rulebook copy ({id: rule}), or its id.
 * @param {Map<string, import("./rulebook.js").Rule> | null} rules
 * @param {string | null} id
 */
function ruleLabel(rules, id) {
  if (!id) return "";
  const r = rules?.get(id);
  return r ? `${citeText(r.cite)} · ${r.title}` : id;
}

/** The rulebook of the tournament, read once per set and language: {id: rule}. */
class RuleNames {
  /**
   * @param {RulebookClient} client
   * @param {() => string} getSet
   * @param {() => void} onRead
   */
  constructor(client, getSet, onRead) {
    this.client = client;
    this.getSet = getSet;
    this.onRead = onRead;
    /** @type {string | null} the set and language read */
    this.key = null;
    /** @type {Map<string, import("./rulebook.js").Rule> | null} */
    this.rules = null;
  }

  get() {
    const key = `${this.getSet()}/${lang2()}`;
    if (key !== this.key) {
      this.key = key;
      this.client.book(this.getSet(), lang2()).then((book) => {
        if (this.key !== key) return;
        this.rules = new Map(book.rules.map((r) => [r.id, r]));
        this.onRead();
      }).catch(() => {});
    }
    return this.rules;
  }
}

// The wall and a table's screen ------------------------------------------------------------

/** @typedef {HTMLElement & { whole: boolean, refit: () => void }} SitOuts */

/** Who sits out, in large type: an element that keeps itself up to date (hidden when nobody
 * does). `table`: only that table's players. `fit`: the rows that do not fit the box its page
 * gives it are counted on a last line, never cut (the wall: a called move keeps its room);
 * `el.refit()` after that room changed, `el.whole` whether every row is shown.
 * @param {any} conn
 * @param {{ table?: number | null, fit?: boolean }} [options]
 * @returns {SitOuts} */
export function sitOutsPanel(conn, { table = null, fit = false } = {}) {
  /** @type {SitOuts} */
  const el = Object.assign(h("aside", { class: "sit-outs", "aria-live": "polite", hidden: true }), { whole: true, refit: () => {} });
  let last = "";
  el.whole = true;
  const draw = () => {
    const list = sitOutsOf(conn).filter((x) => table == null || x.table === table);
    const key = list.map((x) => `${x.player}.${x.table}.${x.seat}.${sitOutLeft(x)}`).join("|") + getLang();
    if (key === last) return;
    last = key;
    el.hidden = !list.length;
    el.setAttribute("aria-label", t("sitout.title"));
    const ul = h("ul", { class: "so-list" }, list.map((x) =>
      h("li", { class: `so-row${x.left === 0 ? " over" : ""}`, dataset: { player: x.player } },
        h("span", { class: "so-name" }, x.name),
        h("span", { class: "so-where" }, fmt.spot(x.table, x.seat)),
        h("span", { class: "so-left" }, sitOutLeft(x)))));
    fill(el, h("h2", { class: "so-title" }, t("sitout.title")), ul);
    el.whole = true;
    if (fit && list.length) {
      const more = h("li", { class: "so-more" });
      const overflows = () => el.scrollHeight > el.clientHeight + 1;
      while (overflows() && ul.querySelector(".so-row")) {
        [...ul.querySelectorAll(".so-row")].pop()?.remove();
        more.textContent = t("sitout.more", { n: list.length - ul.querySelectorAll(".so-row").length });
        if (!more.isConnected) ul.append(more);
        el.whole = false;
      }
    }
  };
  el.refit = () => {
    last = "";
    draw();
  };
  mount(el, conn, draw);
  every(1000, draw);
  return el;
}

// The floor phone ---------------------------------------------------------------------------

/** @type {RulingForm["penalty"][]} */
const PENALTIES = ["none", "warning", "sit_out", "disqualification"];

export class RulingsPhone {
  /** The form's parts, made with it (none before).
   * @type {Record<"players" | "history" | "rule" | "results" | "penalty" | "when" | "error" | "actions" | "stale" | "kept", HTMLElement>} */
  els;

  /** `send(command, label)` the outbox's; `rulebook` the phone's RulebookClient; `ruleSet()`
   * the tournament's rule set; `openRule(id)` opens a rule; `canRule()` whether this reader
   * may record one (floor and director).
   * @param {{ conn: Conn, send: Send, rulebook?: RulebookClient, ruleSet: () => string, openRule: (id: string) => void, canRule: () => boolean }} options
   */
  constructor({ conn, send, rulebook, ruleSet, openRule, canRule }) {
    this.conn = conn;
    this.send = send;
    this.rulebook = rulebook || new RulebookClient();
    this.ruleSet = ruleSet;
    this.openRule = openRule;
    this.canRule = canRule;
    this.names = new RuleNames(this.rulebook, ruleSet, () => this._refresh());
    /** @type {RulingForm | null} the ruling being written */
    this.form = null;
    // What is written stays on the phone until recorded or cancelled (drafts.js).
    this.drafts = new Drafts(conn, "ruling");
    /** @type {{ player: string, ruling: number, how: string }[]} sit-outs just over, until the floor has seen them */
    this.back = [];
    this.strip = h("section", { class: "sit-out-strip", "aria-live": "polite", hidden: true });
    this.tableEl = h("div", { class: "rulings-at-table" });
    /** @type {string | null} what the strip was drawn for */
    this._stripKey = null;
    /** @type {HTMLFormElement | null} */
    this.formEl = null;

    conn.on("events", (/** @type {any[]} */ events) => {
      for (const e of events) {
        if (e.type === "sit_out_ended" && e.how !== "floor") this.back.push({ player: e.player, ruling: e.ruling, how: e.how });
      }
    });
    conn.on("change", () => this._refresh());
    onLang(() => { this.formEl = null; this._refresh(); });
    every(1000, () => this._tick());
  }

  /** A change on the server: the strip, and the parts of the form it can change (never the
   * inputs under a finger). */
  _refresh() {
    this._drawStrip();
    if (this.formEl && this.form) {
      this._drawPlayers();
      this._drawHistory();
      this._drawRulePicked();
      this._drawDraft();
    }
  }

  _tick() {
    this._drawStrip();
  }

  /** The sit-outs running and those just over, above every tab. */
  _drawStrip() {
    const running = sitOutsOf(this.conn);
    const back = this.back.filter((b) => this.conn.state?.players?.[b.player] && !running.some((x) => x.player === b.player));
    this.back = back;
    const key = JSON.stringify([running.map((x) => [x.player, x.table, x.seat, sitOutLeft(x)]), back, getLang()]);
    if (key === this._stripKey) return;
    this._stripKey = key;
    this.strip.hidden = !running.length && !back.length;
    fill(this.strip,
      back.map((b) => h("div", { class: "so-back", role: "alert" },
        h("strong", {}, t("sitout.back", { name: playerName(this.conn, b.player) })), " ",
        h("span", {}, fmt.spot(heldState(this.conn).players[b.player].table, heldState(this.conn).players[b.player].seat)),
        h("button", { type: "button", class: "small", onclick: () => {
          this.back = this.back.filter((x) => x !== b);
          this._stripKey = null;
          this._drawStrip();
        } }, t("sitout.seen")))),
      running.length ? h("div", { class: "so-running" }, h("span", { class: "so-label" }, t("sitout.title")),
        h("ul", {}, running.map((x) => h("li", { class: "so-item" }, h("strong", {}, x.name), " ",
          h("span", { class: "so-where" }, fmt.spot(x.table, x.seat)), " ", h("span", { class: "so-left" }, sitOutLeft(x)))))) : null);
  }

  /** What the table view shows: the button that starts a ruling, the table's sit-outs, and
   * the ruling being written there. The same element each time (what is typed stays).
   * @param {number} table
   */
  forTable(table) {
    if (this.form && this.form.table !== table) this.close();
    const here = sitOutsOf(this.conn).filter((x) => x.table === table);
    const head = h("div", { class: "rulings-head" },
      this.canRule() && !this.form ? h("button", { type: "button", class: "big ruling-open", onclick: () => this.start(table) },
        h("span", { "aria-hidden": "true" }, "⚖ "), t("ruling.open")) : null,
      here.length ? h("ul", { class: "so-table" }, here.map((x) => h("li", {},
        h("strong", {}, x.name), ` (${t("floor.seat", { seat: x.seat })}) `, h("span", { class: "so-left" }, sitOutLeft(x)),
        this.canRule() ? h("button", { type: "button", class: "small ghost", onclick: () => this.send({ type: "end_sit_out", player: x.player },
          t("sitout.end_label", { name: x.name })) }, t("sitout.end")) : null))) : null);
    fill(this.tableEl, head, this.form ? this._formElement() : null);
    return this.tableEl;
  }

  /** Begin a ruling at `table`: the one kept on this phone for it, if any.
   * @param {number} table
   */
  start(table) {
    const draft = this.drafts.load(table)?.data;
    this.form = {
      table, players: [], rule: null, query: "", penalty: "none", target: null, unit: "minutes",
      amount: "10", chips: "", note: "", earlier: false, time: "", ...(draft || {}), confirm: false, error: null,
    };
    if (!draft) this.drafts.begin(table);
    this.formEl = null;
    this.forTable(table);
    /** @type {HTMLElement | null} */ (this.tableEl.querySelector(".ruling-form"))?.focus({ preventScroll: false });
  }

  /** Put away (another table opened): the draft stays. */
  close() {
    this.form = null;
    this.formEl = null;
  }

  /** Cancelled: the draft goes too. */
  discard() {
    if (this.form) this.drafts.clear(this.form.table);
    this.close();
  }

  /** The ruling as written so far, kept once anything is given. */
  _keep() {
    const f = this.form;
    if (!f) return;
    const { table, players, rule, penalty, target, unit, amount, chips, note, earlier, time } = f;
    if (!players.length && !rule && !note && penalty === "none") return;
    this.drafts.save(table, { players, rule, penalty, target, unit, amount, chips, note, earlier, time });
  }

  /** The form, built once per ruling: inputs keep what is typed, the parts that follow the
   * choices are redrawn (`_drawDynamic`). */
  _formElement() {
    if (this.formEl) {
      this._refresh();
      return this.formEl;
    }
    const f = /** @type {RulingForm} */ (this.form); // drawn and sent with a form open
    const note = h("input", { id: "ruling-note", type: "text", maxlength: 500, autocomplete: "off", value: f.note,
      placeholder: t("ruling.note_hint") });
    note.addEventListener("input", () => { f.note = note.value; this._keep(); });
    const query = h("input", { id: "ruling-rule", type: "search", autocomplete: "off", spellcheck: "false",
      enterkeyhint: "search", placeholder: t("ruling.rule_hint") });
    const find = debounce(() => this._findRule(), 200);
    query.addEventListener("input", () => { f.query = query.value.trim(); find(); });
    this.els = {
      players: h("div", { class: "seat-grid ruling-players", role: "group", "aria-label": t("ruling.players") }),
      history: h("div", { class: "ruling-history" }),
      rule: h("div", { class: "ruling-rule-picked" }),
      results: h("ul", { class: "ruling-rule-results" }),
      penalty: h("div", { class: "ruling-penalty" }),
      when: h("div", { class: "ruling-when" }),
      error: h("p", { class: "error-text", role: "alert", hidden: true }),
      actions: h("div", { class: "actions ruling-actions" }),
      stale: h("div", {}),
      kept: h("div", {}),
    };
    this.formEl = h("form", { class: "ruling-form card", tabindex: "-1", "aria-label": t("ruling.title", { table: f.table }),
      onsubmit: (/** @type {SubmitEvent} */ ev) => { ev.preventDefault(); this._submit(); } },
      h("h3", {}, t("ruling.title", { table: f.table })),
      h("p", { class: "hint" }, t("ruling.players_hint")),
      this.els.stale, this.els.kept, this.els.players, this.els.history,
      h("div", { class: "field" }, h("label", { for: "ruling-rule" }, t("ruling.rule")), this.els.rule, query, this.els.results),
      this.els.penalty,
      h("div", { class: "field" }, h("label", { for: "ruling-note" }, t("ruling.note")), note),
      this.els.when, this.els.error, this.els.actions);
    this._drawDynamic();
    return this.formEl;
  }

  _drawDynamic() {
    const f = this.form;
    if (!f || !this.els) return;
    this._keep();
    this._drawDraft();
    this._drawPlayers();
    this._drawHistory();
    this._drawRulePicked();
    this._drawPenalty();
    this._drawWhen();
    this.els.error.hidden = !f.error;
    this.els.error.textContent = f.error || "";
    const target = f.penalty === "none" ? null : f.target;
    const dq = f.penalty === "disqualification";
    fill(this.els.actions, dq && f.confirm
      ? [h("p", { class: "confirm-text" }, t("ruling.dq_confirm", { name: playerName(this.conn, target) })),
        h("button", { type: "submit", class: "danger big" }, t("ruling.dq_yes")),
        h("button", { type: "button", class: "big", onclick: () => { f.confirm = false; this._drawDynamic(); } }, t("common.no"))]
      : [h("button", { type: "submit", class: dq ? "danger big" : "primary big" }, t(dq ? "ruling.record_dq" : "ruling.record")),
        h("button", { type: "button", class: "big ghost", onclick: () => { this.discard(); this.forTable(f.table); } }, t("ruling.cancel"))]);
  }

  /** A ruling recorded at the table from another phone since this one was begun; and that
   * this one is kept on the phone. */
  _drawDraft() {
    const f = /** @type {RulingForm} */ (this.form); // drawn and sent with a form open
    fill(this.els.stale, sentSinceNotice(this.drafts, f.table, {
      onKeep: () => { this.drafts.keep(f.table); this._drawDraft(); },
      onDiscard: () => { this.discard(); this.start(f.table); },
    }));
    fill(this.els.kept, keptNote(this.drafts, f.table));
  }

  /** The table's seats to name players by (and those named who have moved away since). */
  _drawPlayers() {
    const f = /** @type {RulingForm} */ (this.form); // drawn and sent with a form open
    const conn = this.conn;
    const tb = conn.state?.tables?.[f.table];
    const seats = Object.entries(tb?.occupants || {})
      .map(([seat, pid]) => /** @type {[number, string]} */ ([Number(seat), pid])).sort((a, b) => a[0] - b[0]);
    const others = f.players.filter((pid) => !seats.some(([, x]) => x === pid));
    const button = (/** @type {number | null} */ seat, /** @type {string} */ pid) => {
      const on = f.players.includes(pid);
      return h("button", { type: "button", class: `seat-btn${on ? " picked-ruling" : ""}`, "aria-pressed": String(on),
        onclick: () => this._toggle(pid) },
      saidAs(`${seat == null ? "" : `${t("floor.seat", { seat })}: `}${playerName(conn, pid)}`,
        h("span", { class: "seat-no" }, seat ?? "–"), h("span", { class: "seat-name" }, playerName(conn, pid))));
    };
    fill(this.els.players, seats.map(([seat, pid]) => button(seat, pid)), others.map((pid) => button(null, pid)));
  }

  _drawRulePicked() {
    const f = /** @type {RulingForm} */ (this.form); // drawn and sent with a form open
    const rules = this.names.get();
    const picked = f.rule;
    fill(this.els.rule, picked ? h("p", { class: "picked" }, h("strong", {}, ruleLabel(rules, picked) || picked), " ",
      h("button", { type: "button", class: "link-button", onclick: () => this.openRule(picked) }, t("ruling.read_rule")), " ",
      h("button", { type: "button", class: "link-button", onclick: () => { f.rule = null; this._drawDynamic(); } }, t("ruling.change_rule")))
      : null);
  }

  /** @param {string} pid */
  _toggle(pid) {
    const f = /** @type {RulingForm} */ (this.form); // drawn and sent with a form open
    f.players = f.players.includes(pid) ? f.players.filter((x) => x !== pid) : [...f.players, pid];
    if (f.target == null || !f.players.includes(f.target)) f.target = f.players[0] ?? null;
    f.confirm = false;
    this._drawDynamic();
  }

  /** Each named player's earlier rulings and penalties, and whether they are a repeat. */
  _drawHistory() {
    const f = /** @type {RulingForm} */ (this.form); // drawn and sent with a form open
    const conn = this.conn;
    const repeats = repeatsOf(conn);
    const rules = this.names.get();
    fill(this.els.history, f.players.map((pid) => {
      const earlier = rulingsNaming(conn, pid);
      const penalties = earlier.flatMap((r) => r.penalties.filter((p) => p.player === pid).map((p) => ({ r, p })));
      const repeat = repeats[pid];
      return h("section", { class: `player-record${penalties.length ? " has-penalties" : ""}`, dataset: { player: pid } },
        h("h4", {}, playerName(conn, pid), " ",
          penalties.length ? h("span", { class: "badge badge-penalty" }, t("ruling.penalties_so_far", { n: penalties.length })) : null,
          repeat ? h("span", { class: "badge badge-repeat" }, t("ruling.repeat")) : null),
        penalties.length ? h("p", { class: "escalate" }, t("ruling.escalate")) : null,
        earlier.length ? h("ul", { class: "record-list" }, earlier.slice(0, 6).map((r) => {
          const mine = r.penalties.find((p) => p.player === pid);
          return h("li", {}, h("span", { class: "muted" }, `#${r.number} ${fmt.timeOfDay(r.at)}`), " ",
            r.rule ? ruleLabel(rules, r.rule) : "", mine ? [" · ", h("strong", {}, penaltyText(mine))] : "",
            r.note ? h("span", { class: "muted" }, ` · ${r.note}`) : null);
        })) : h("p", { class: "muted small" }, t("ruling.no_record")));
    }));
  }

  _drawPenalty() {
    const f = /** @type {RulingForm} */ (this.form); // drawn and sent with a form open
    const conn = this.conn;
    const pick = (/** @type {RulingForm["penalty"]} */ kind) => {
      f.penalty = kind;
      f.confirm = false;
      if (kind !== "none" && !f.target) f.target = f.players[0] ?? null;
      this._drawDynamic();
    };
    const parts = [h("div", { class: "segmented penalty-kind", role: "group", "aria-label": t("ruling.penalty") },
      PENALTIES.map((kind) => h("button", { type: "button", "aria-pressed": String(f.penalty === kind), onclick: () => pick(kind) },
        t(`ruling.kind.${kind}`))))];
    if (f.penalty !== "none") {
      const who = h("select", { id: "ruling-target" }, f.players.length ? f.players.map((pid) => h("option",
        { value: pid, selected: pid === f.target }, playerName(conn, pid))) : h("option", { value: "" }, t("ruling.pick_player")));
      who.addEventListener("change", () => { f.target = who.value || null; f.confirm = false; this._drawDynamic(); });
      parts.push(h("div", { class: "field" }, h("label", { for: "ruling-target" }, t("ruling.penalty_for")), who));
    }
    if (f.penalty === "sit_out") {
      const amount = h("input", { id: "ruling-amount", type: "number", inputmode: "numeric", min: 1,
        max: MAX[f.unit], value: f.amount });
      const rounds = h("p", { class: "hint rounds-hint", "aria-live": "polite" });
      const sayRounds = () => {
        // TDA 2024 rule 71A: a round is a hand per player at the offender's table (the server
        // counts them when the ruling is made; this is what it will count now).
        const table = f.target == null ? undefined : heldState(conn).players?.[f.target]?.table;
        const seated = table == null ? 0 : Object.keys(conn.state?.tables?.[table]?.occupants || {}).length;
        const n = Number(f.amount);
        rounds.textContent = seated && Number.isInteger(n) && n > 0
          ? t("ruling.rounds_hint", { n, players: seated, hands: n * seated }) : t("ruling.rounds_hint_none");
      };
      amount.addEventListener("input", () => {
        f.amount = amount.value;
        this._keep();
        if (f.unit === "rounds") sayRounds();
      });
      parts.push(h("div", { class: "row sit-out-length" },
        h("label", { for: "ruling-amount" }, t("ruling.sit_out_for")), amount,
        h("div", { class: "segmented", role: "group", "aria-label": t("ruling.unit") }, Object.keys(UNITS).map((unit) =>
          h("button", { type: "button", "aria-pressed": String(f.unit === unit), onclick: () => {
            f.unit = /** @type {RulingForm["unit"]} */ (unit);
            f.amount = UNITS[unit];
            this._drawDynamic();
          } }, t(`ruling.unit.${unit}`))))));
      if (f.unit === "hands") parts.push(h("p", { class: "hint" }, t("ruling.hands_hint")));
      if (f.unit === "rounds") {
        sayRounds();
        parts.push(rounds, h("p", { class: "hint" }, t("ruling.hands_hint")));
      }
    }
    if (f.penalty === "disqualification") {
      const p = f.target == null ? undefined : heldState(conn).players?.[f.target];
      const chips = h("input", { id: "ruling-chips", type: "number", inputmode: "numeric", min: 0, value: f.chips,
        placeholder: p?.stack != null ? fmt.chips(p.stack) : "" });
      chips.addEventListener("input", () => { f.chips = chips.value; this._keep(); });
      parts.push(h("div", { class: "field" }, h("label", { for: "ruling-chips" }, t("ruling.chips")), chips,
        h("p", { class: "hint" }, t("ruling.chips_hint"))));
    }
    fill(this.els.penalty, h("fieldset", { class: "penalty-box" }, h("legend", {}, t("ruling.penalty")), parts));
  }

  /** When the ruling was made: now, or a time earlier (a sit-out of minutes runs from then). */
  _drawWhen() {
    const f = /** @type {RulingForm} */ (this.form); // drawn with a form open
    if (!f.earlier) {
      fill(this.els.when, h("button", { type: "button", class: "link-button", onclick: () => {
        f.earlier = true;
        f.time = clockTime(this.conn.now() / 1000);
        this._drawDynamic();
      } }, t("ruling.earlier")));
      return;
    }
    const time = h("input", { id: "ruling-time", type: "time", step: 1, value: f.time });
    time.addEventListener("input", () => { f.time = time.value; this._keep(); });
    fill(this.els.when, h("div", { class: "field" }, h("label", { for: "ruling-time" }, t("ruling.made_at")), time,
      h("button", { type: "button", class: "link-button", onclick: () => { f.earlier = false; this._drawDynamic(); } }, t("ruling.now"))));
  }

  async _findRule() {
    const f = this.form;
    if (!f) return;
    const q = f.query;
    if (!q) return fill(this.els.results);
    let answer;
    try {
      answer = await this.rulebook.search(this.ruleSet(), q, lang2());
    } catch (err) {
      return fill(this.els.results, h("li", { class: "error-text" }, err.message || t("error.network")));
    }
    if (this.form !== f || f.query !== q) return;
    const rules = (answer.rules || []).slice(0, 5);
    fill(this.els.results, rules.length ? rules.map((/** @type {import("./rulebook.js").Rule} */ r) => h("li", {}, h("button", { type: "button", class: "rule-item", onclick: () => {
      f.rule = r.id;
      f.query = "";
      const input = this.formEl?.querySelector("#ruling-rule");
      if (input instanceof HTMLInputElement) input.value = "";
      fill(this.els.results);
      this._drawDynamic();
    } }, h("span", { class: "rule-cite" }, citeText(r.cite)), h("span", { class: "rule-title" }, r.title))))
      : h("li", { class: "muted" }, t("rules.none", { q })));
  }

  /** The command the form says, or a reason (in words) why it cannot be sent yet. */
  _command() {
    const f = /** @type {RulingForm} */ (this.form); // drawn and sent with a form open
    /** @type {import("./protocol.js").RecordRuling} */
    const cmd = { type: "record_ruling", table: f.table, players: f.players, note: f.note.trim() };
    if (f.rule) cmd.rule = f.rule;
    if (f.penalty !== "none") {
      if (!f.target) return { why: t("ruling.pick_player") };
      /** @type {import("./protocol.js").Penalty} */
      const penalty = { player: f.target, kind: f.penalty };
      if (f.penalty === "sit_out") {
        const n = Number(f.amount);
        if (!Number.isInteger(n) || n < 1) return { why: t("ruling.amount_needed") };
        penalty[f.unit] = n;
      }
      if (f.penalty === "disqualification" && f.chips !== "") penalty.chips = Number(f.chips);
      cmd.penalties = [penalty];
    }
    if (f.earlier && f.time) cmd.at = pastInstant(f.time, this.conn.now() / 1000);
    else cmd.at = this.conn.now() / 1000;
    return { cmd };
  }

  async _submit() {
    const f = /** @type {RulingForm} */ (this.form); // drawn and sent with a form open
    const { cmd, why } = this._command();
    if (!cmd) {
      f.error = why;
      return this._drawDynamic();
    }
    if (f.penalty === "disqualification" && !f.confirm) {
      f.confirm = true;
      return this._drawDynamic();
    }
    f.error = null;
    const names = f.players.map((pid) => playerName(this.conn, pid)).join(", ");
    // Sent: no longer a draft (its own ruling must not read as another phone's).
    this.drafts.clear(f.table);
    const item = await this.send(cmd, t("ruling.label", { table: f.table, names: names || "–" }));
    if (this.form !== f) return;
    if (item.status === "refused") {
      f.error = explainError(item.error, this.conn);
      f.confirm = false;
      return this._drawDynamic();
    }
    this.close();
    this.forTable(f.table);
  }
}

/** "21:34:05" of a server instant, for a time input.
 * @param {number} epoch
 */
function clockTime(epoch) {
  const d = new Date(epoch * 1000);
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((x) => String(x).padStart(2, "0")).join(":");
}

/** The latest instant at or before `now` whose local time of day is `hhmmss` (a ruling made
 * before midnight, recorded after it, was made yesterday).
 * @param {string} hhmmss
 * @param {number} now
 */
function pastInstant(hhmmss, now) {
  const [hh, mm, ss] = hhmmss.split(":").map(Number);
  const d = new Date(now * 1000);
  d.setHours(hh || 0, mm || 0, ss || 0, 0);
  let at = d.getTime() / 1000;
  if (at > now + 60) at -= 24 * 3600;
  return Math.min(at, now);
}

// The director's console --------------------------------------------------------------------

/** @type {RuleNames | null} */
let consoleNames = null;

/** The day's rulings (newest first), the sit-outs running and the players penalised more
 * than once, in `section`.
 * @param {HTMLElement} section
 * @param {Conn | null} conn none before a tournament is picked
 * @param {Send} send
 */
export function renderRulings(section, conn, send) {
  if (!section) return;
  if (!conn?.state) return fill(section, h("h2", { id: "h-rulings" }, t("director.rulings")));
  consoleNames ||= new RuleNames(new RulebookClient(), () => conn.state?.rules?.rulebook || "tda-2024",
    () => renderRulings(section, conn, send));
  const rules = consoleNames.get();
  const made = [...rulingsOf(conn)].reverse();
  const running = sitOutsOf(conn);
  const repeats = conn.staff?.repeats || [];
  const names = (/** @type {string[]} */ ids) => ids.map((pid) => playerName(conn, pid)).join(", ");
  fill(section,
    h("h2", { id: "h-rulings" }, t("director.rulings"), h("span", { class: "muted heading-extra" }, t("ruling.count", { n: made.length }))),
    repeats.length ? h("div", { class: "repeats notice" }, h("h3", {}, t("ruling.repeats")),
      h("ul", {}, repeats.map((/** @type {import("./protocol.js").Repeat} */ r) => h("li", {}, h("strong", {}, playerName(conn, r.player)), " ",
        t("ruling.repeat_line", { n: r.rulings.length, rulings: r.rulings.map((/** @type {number} */ x) => `#${x}`).join(", "),
          heaviest: t(`ruling.heaviest.${r.heaviest}`) }))))) : null,
    running.length ? h("div", { class: "console-sit-outs" }, h("h3", {}, t("sitout.title")),
      h("ul", {}, running.map((x) => h("li", {}, h("strong", {}, x.name), ` ${fmt.spot(x.table, x.seat)} · `, sitOutLeft(x), " ",
        h("button", { type: "button", class: "small ghost", onclick: () => send({ type: "end_sit_out", player: x.player },
          t("sitout.end_label", { name: x.name })) }, t("sitout.end")))))) : null,
    made.length ? h("table", { class: "rulings-table" },
      h("thead", {}, h("tr", {}, ["#", "ruling.col.time", "ruling.col.table", "ruling.col.players", "ruling.col.rule",
        "ruling.col.penalty", "ruling.col.note"].map((k) => h("th", { scope: "col" }, k === "#" ? k : t(k))))),
      h("tbody", {}, made.map((r) => h("tr", { dataset: { ruling: r.number } },
        h("td", { class: "num" }, `#${r.number}`), h("td", { class: "num" }, fmt.timeOfDay(r.at)),
        h("td", { class: "num", "data-label": t("ruling.col.table") }, r.table ?? "–"),
        h("td", { "data-label": t("ruling.col.players") }, names(r.players) || "–"),
        h("td", { "data-label": t("ruling.col.rule") }, ruleLabel(rules, r.rule) || "–"),
        h("td", { "data-label": t("ruling.col.penalty") },
          r.penalties.length ? r.penalties.map((p) => `${playerName(conn, p.player)}: ${penaltyText(p)}`).join("; ") : "–"),
        h("td", { class: "note", "data-label": t("ruling.col.note") }, r.note || ""))))) : h("p", { class: "muted" }, t("ruling.none_today")));
}
