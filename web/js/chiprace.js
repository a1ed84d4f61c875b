// @ts-check
// The chip race at a colour-up break, on the floor phone (PFP 20, TDA 24).
//
// Pick the table, count each seat's chips of the leaving denomination on a number pad, send
// `chip_race`; the server exchanges what it can, deals the cards for the odd chips from its
// own random source and answers with the race (`chips_raced`), which is shown here as the
// table sees it: the exchange, every seat's cards, who won a chip, who was kept in, the new
// stacks. Past races come from `state.chip_races`. Each seat's stack is its last count (the count
// sheet, a single count, an earlier race): a seat nobody counted says so, and races on the stack
// the player was given without that becoming a count. Which chips leave at the break the clock is
// at, and which chip replaces each, are the server's clock facts (facts.js).

import { cards } from "./cards.js";
import { tableViews } from "./conn.js";
import { Drafts, keptNote, sentSinceNotice } from "./drafts.js";
import * as fmt from "./format.js";
import { t } from "./i18n.js";
import { explainError, fill, h, playerName, saidAs } from "./ui.js";
/** @import { Conn } from "./types.js" */
/** @import { Send } from "./types.js" */

/** The colour-up now, as the server's clock facts say: the chips leaving at this break, the
 * chips that can be raced off now (`options`) and the chip replacing each. */
/** @typedef {{ going: number[], options: number[], replaces: Map<number, number | null>, atBreak: boolean }} ColourUp */

/** @param {Conn} conn @returns {ColourUp | null} */
export function colourUp(conn) {
  const f = conn.facts?.clock;
  if (!conn.state?.structure || !f) return null;
  const going = [...f.color_up];
  /** @type {{ leaving: number, next_up: number | null }[]} */
  const race = f.race;
  return { going, options: race.map((r) => r.leaving), replaces: new Map(race.map((r) => [r.leaving, r.next_up])),
    atBreak: going.length > 0 };
}

/** The chip that replaces `leaving` (none when no larger chip stays in play).
 * @param {ColourUp | null} setup
 * @param {number | null} leaving
 */
export function nextUp(setup, leaving) {
  return leaving == null ? null : setup?.replaces.get(leaving) ?? null;
}

/** The most chips of one denomination a seat may hold in a race (the server's bound:
 * `RaceCount.chips`, 0 to 10,000). */
export const MAX_RACE_CHIPS = 10_000;

/** Why a typed count cannot be sent (a row's own message), or null.
 * @param {string | undefined} typed
 */
export function countProblem(typed) {
  if (typed === undefined || typed === "") return null;
  if (!/^\d+$/.test(typed)) return t("race.count_bad");
  if (Number(typed) > MAX_RACE_CHIPS) return t("race.count_too_big", { max: fmt.chips(MAX_RACE_CHIPS) });
  return null;
}

/** Why a typed stack cannot be sent, or null.
 * @param {string | undefined} typed
 */
function stackProblem(typed) {
  if (typed === undefined || typed === "") return null;
  if (!/^\d+$/.test(typed) || Number(typed) <= 0) return t("race.stack_bad");
  return null;
}

export class ChipRaceTool {
  /** @param {{ conn: Conn, send: Send, rerender: () => void, openRule: (id: string) => void, canRace: () => boolean }} options */
  constructor({ conn, send, rerender, openRule, canRace }) {
    this.conn = conn;
    this.send = send;
    this.rerender = rerender;
    this.openRule = openRule;
    this.canRace = canRace;
    /** @type {number | null} */
    this.table = null;
    /** @type {number | null} */
    this.leaving = null;
    /** @type {Record<number, string>} each seat's leaving chips as typed */
    this.counts = {};
    /** @type {Record<number, string>} each seat's stack as typed (where none is on record) */
    this.stacks = {};
    /** @type {{ seat: number, field: "chips" | "stack" } | null} what the pad types into */
    this.sel = null;
    this.confirming = false;
    this.sending = false;
    /** @type {{ field?: string | null, message: string, seats?: number[] } | null} the server's refusal, or a row's */
    this.error = null;
    /** @type {{ table: number, leaving: number } | null} the result on screen */
    this.shown = null;
    this.openPast = new Set();
    // The counts typed stay on the phone until sent or discarded (drafts.js).
    this.drafts = new Drafts(conn, "race");
  }

  /** Start counting at `table` (from the table view, a break card): the counts kept for it
   * on this phone, if any.
   * @param {number} table
   */
  start(table) {
    const draft = this.drafts.load(table)?.data;
    this.table = table;
    this.counts = { ...(draft?.counts || {}) };
    this.stacks = { ...(draft?.stacks || {}) };
    if (draft?.leaving != null) this.leaving = draft.leaving;
    this.sel = null;
    this.error = null;
    this.confirming = false;
    this.shown = null;
    if (!draft) this.drafts.begin(table);
    const seats = this._seats();
    if (seats.length) this.sel = { seat: seats[0].seat, field: "chips" };
  }

  _keep() {
    if (this.table != null) this.drafts.save(this.table, { counts: this.counts, stacks: this.stacks, leaving: this.leaving });
  }

  /** The counts typed at the table thrown away: it starts again from nothing. */
  discard() {
    const table = this.table;
    if (table == null) return;
    this.drafts.clear(table);
    this.start(table);
  }

  /** What the tool shows of the tournament: it is drawn again only when this changes. */
  stateKey() {
    const s = this._state();
    if (!s) return "";
    const tb = this.table != null ? s.tables[this.table] : null;
    const seated = tb ? Object.entries(tb.occupants).map(([seat, pid]) => [seat, pid, s.players[pid]?.stack, s.players[pid]?.counted]) : null;
    const tables = this.table == null ? tableViews(this.conn).map((v) => [v.table, v.players, v.status]) : null;
    return JSON.stringify([s.clock.level, (s.chip_races || []).length, seated, tables, this.canRace(),
      document.documentElement.lang]);
  }

  /** @returns {import("./protocol.js").TournamentState | null} */
  _state() {
    return this.conn.state;
  }

  /** @param {ColourUp} setup */
  _leaving(setup) {
    if (this.leaving != null && setup.options.includes(this.leaving)) {
      return this.leaving;
    }
    return setup.going.length === 1 ? setup.going[0] : null;
  }

  /**
   * @param {number} table
   * @param {number} leaving
   */
  _raced(table, leaving) {
    const races = this._state()?.chip_races || [];
    for (let i = races.length - 1; i >= 0; i -= 1) {
      if (races[i].table === table && races[i].result.leaving === leaving) return races[i];
    }
    return null;
  }

  _seats() {
    const tb = this.table == null ? null : this._state()?.tables?.[this.table];
    if (!tb) return [];
    return Object.entries(tb.occupants).map(([seat, pid]) => ({ seat: Number(seat), pid }))
      .sort((a, b) => a.seat - b.seat);
  }

  render() {
    const s = this._state();
    if (!s) return h("p", { class: "empty" }, t("clock.waiting"));
    const setup = colourUp(this.conn);
    if (!setup) return h("div", {}, h("h2", {}, t("race.title")), h("p", { class: "empty" }, t("clock.no_structure")));
    const leaving = this._leaving(setup);
    const next = nextUp(setup, leaving);
    const body = [];
    body.push(h("div", { class: "race-head" },
      h("h2", {}, t("race.title"), this.table != null ? ` · ${t("spot.table_only", { table: this.table })}` : ""),
      h("button", { type: "button", class: "link-button", onclick: () => this.openRule("chip-race") }, t("race.rule"))));
    body.push(this._leavingBlock(setup, leaving, next));
    if (this.shown) body.push(this._resultBlock());
    else if (leaving != null && this.table == null) body.push(this._picker(leaving));
    else if (leaving != null) body.push(this._counter(leaving, next));
    body.push(this._past());
    return h("div", { class: "race-tool" }, body);
  }

  /**
   * @param {ColourUp} setup
   * @param {number | null} leaving
   * @param {number | null} next
   */
  _leavingBlock(setup, leaving, next) {
    const parts = [];
    if (!setup.atBreak) {
      parts.push(h("p", { class: "notice" }, t("race.not_at_break")));
    }
    const options = setup.going.length ? setup.going : setup.options;
    if (options.length > 1 || !setup.atBreak) {
      parts.push(h("div", { class: "field" },
        h("span", { class: "label", id: "race-leaving-label" }, t("race.pick_leaving")),
        h("div", { class: "segmented", role: "group", "aria-labelledby": "race-leaving-label" }, options.map((/** @type {number} */ d) => h("button", {
          type: "button", "aria-pressed": String(d === leaving),
          onclick: () => { this.leaving = d; this.error = null; this.rerender(); },
        }, fmt.chips(d))))));
    }
    if (leaving != null) {
      parts.push(h("p", { class: "race-leaving" },
        h("span", { class: "chip chip-leaving" }, fmt.chips(leaving)),
        next != null ? [h("span", { class: "arrow", "aria-hidden": "true" }, "→"), h("span", { class: "chip" }, fmt.chips(next))] : null,
        h("span", { class: "race-leaving-text" }, next != null ? t("race.leaving_for", { chip: fmt.chips(leaving), next: fmt.chips(next) })
          : t("race.leaving_only", { chip: fmt.chips(leaving) }))));
    }
    if (this.error?.field === "leaving") parts.push(h("p", { class: "error-text", role: "alert" }, this.error.message));
    return h("div", { class: "race-leaving-box" }, parts);
  }

  /** @param {number} leaving */
  _picker(leaving) {
    const views = tableViews(this.conn).filter((v) => v.status !== "broken" && v.players > 0);
    const done = views.filter((v) => this._raced(v.table, leaving)).length;
    return h("div", { class: "race-pick" },
      h("p", { class: "hint" }, t("race.pick_table", { done, n: views.length })),
      h("div", { class: "table-pick" }, views.map((v) => {
        const raced = !!this._raced(v.table, leaving);
        return h("button", {
          type: "button", class: `table-btn${raced ? " raced" : ""}`,
          onclick: () => {
            if (raced) {
              this.table = v.table;
              this.shown = { table: v.table, leaving };
            } else this.start(v.table);
            this.rerender();
          },
        }, saidAs(`${t("spot.table_only", { table: v.table })}${raced ? `: ${t("race.raced")}` : ""}`,
          h("span", { class: "table-no" }, v.table), h("span", { class: "table-sub" }, raced ? `✓ ${t("race.raced")}` : t("race.players", { n: v.players }))));
      })));
  }

  /**
   * @param {number} leaving
   * @param {number | null} next
   */
  _counter(leaving, next) {
    const seats = this._seats();
    if (!seats.length) {
      return h("div", {}, h("p", { class: "empty" }, t("race.no_players")), this._backButton());
    }
    // Counted at one table: the counter is drawn only once one is picked.
    const table = /** @type {number} */ (this.table);
    const raced = this._raced(table, leaving);
    // Raced from another phone while counts were kept here: said once, then they go.
    const notice = sentSinceNotice(this.drafts, table, {
      onKeep: () => { this.drafts.keep(table); this.rerender(); },
      onDiscard: () => { this.discard(); this.rerender(); },
    });
    if (raced && notice) return h("div", {}, notice, this._backButton());
    if (raced) {
      return h("div", {}, h("p", { class: "notice" }, t("race.already", { table: this.table, chip: fmt.chips(leaving) })),
        h("div", { class: "actions" },
          h("button", { type: "button", class: "big", onclick: () => { this.shown = { table, leaving }; this.rerender(); } }, t("race.show_result")),
          this._backButton()));
    }
    // The counter is drawn from a state (render() draws nothing before one).
    const s = /** @type {import("./protocol.js").TournamentState} */ (this._state());
    /** @type {Record<number, { field: string, message: string }>} */
    const errorAt = {};
    if (this.error) {
      const m = /^(?:command\.)?seats\[(\d+)\]\.(\w+)$/.exec(this.error.field || "");
      if (m && this.error.seats?.[Number(m[1])] != null) errorAt[this.error.seats[Number(m[1])]] = { field: m[2], message: this.error.message };
    }
    const rows = seats.map(({ seat, pid }) => {
      const p = s.players[pid];
      const count = this.counts[seat] ?? "";
      const stackTyped = this.stacks[seat];
      const stack = stackTyped !== undefined ? stackTyped : p?.stack != null ? String(p.stack) : "";
      // A stack nobody counted is not shown as a count (the server would take the stack it
      // assumed at registration).
      const uncounted = stackTyped === undefined && !fmt.stackCounted(p);
      const selChips = this.sel?.seat === seat && this.sel.field === "chips";
      const selStack = this.sel?.seat === seat && this.sel.field === "stack";
      const problem = countProblem(this.counts[seat]) || stackProblem(stackTyped);
      const err = problem ? { message: problem } : errorAt[seat];
      return h("li", { class: `race-row${selChips || selStack ? " selected" : ""}` },
        h("span", { class: "race-seat" }, h("span", { class: "seat-no" }, seat), h("span", { class: "seat-name" }, p?.name ?? pid)),
        h("button", {
          type: "button", class: `race-count${selChips ? " selected" : ""}`, "aria-pressed": String(selChips),
          onclick: () => { this.sel = { seat, field: "chips" }; this.rerender(); },
        }, saidAs(t("race.count_label", { seat, name: p?.name ?? pid, chip: fmt.chips(leaving), n: count || "0" }),
          h("span", { class: "race-count-n" }, count || "0"), h("span", { class: "race-count-x" }, `× ${fmt.chips(leaving)}`))),
        h("button", {
          type: "button", class: `race-stack${selStack ? " selected" : ""}${stack && !uncounted ? "" : " missing"}`, "aria-pressed": String(selStack),
          onclick: () => { this.sel = { seat, field: "stack" }; this.rerender(); },
        }, saidAs(t("race.stack_label", { seat, stack: uncounted ? t("race.not_counted") : stack ? fmt.chips(Number(stack)) : t("race.unknown") }),
          h("span", { class: "race-stack-label" }, t("race.stack")),
          h("span", { class: uncounted ? "race-stack-uncounted" : "" }, uncounted ? t("race.not_counted") : stack ? fmt.chips(Number(stack)) : "?"))),
        err ? h("p", { class: "error-text race-error", role: "alert" }, err.message) : null);
    });
    const general = this.error && !Object.keys(errorAt).length && this.error.field !== "leaving"
      ? h("p", { class: "error-text", role: "alert" }, this.error.message) : null;
    const kept = keptNote(this.drafts, table);
    return h("div", { class: "race-count-box" },
      notice,
      h("p", { class: "hint" }, t("race.count_hint", { chip: fmt.chips(leaving) })),
      kept ? h("div", { class: "draft-line" }, kept,
        h("button", { type: "button", class: "link-button", onclick: () => { this.discard(); this.rerender(); } }, t("draft.discard"))) : null,
      h("ul", { class: "race-rows" }, rows),
      this._pad(seats),
      general,
      this.confirming
        ? h("div", { class: "confirm-box", role: "alertdialog", "aria-label": t("race.confirm_title") },
          h("p", {}, t("race.confirm", { table: this.table, chip: fmt.chips(leaving), n: this._total(seats) })),
          h("div", { class: "actions" },
            h("button", { type: "button", class: "primary big", disabled: this.sending, onclick: () => this._send(leaving, seats) }, t("race.race_now")),
            h("button", { type: "button", class: "big", onclick: () => { this.confirming = false; this.rerender(); } }, t("common.no"))))
        : h("div", { class: "actions" },
          h("button", { type: "button", class: "primary big", disabled: !this.canRace() || this.sending,
            onclick: () => {
              const bad = seats.find(({ seat }) => countProblem(this.counts[seat]) || stackProblem(this.stacks[seat]));
              if (bad) {
                this.sel = { seat: bad.seat, field: countProblem(this.counts[bad.seat]) ? "chips" : "stack" };
                this.rerender();
                reveal(".race-row.selected", "center");
                return;
              }
              this.confirming = true; this.error = null; this.rerender();
            } }, t("race.send")),
          this._backButton()));
  }

  /** @param {{ seat: number, pid: string }[]} seats */
  _total(seats) {
    return seats.reduce((n, { seat }) => n + Number(this.counts[seat] || 0), 0);
  }

  _backButton() {
    return h("button", { type: "button", class: "ghost big", onclick: () => { this.table = null; this.shown = null; this.error = null; this.confirming = false; this.rerender(); } },
      t("race.other_table"));
  }

  /** @param {{ seat: number, pid: string }[]} seats */
  _pad(seats) {
    const press = (/** @type {string} */ k) => {
      if (!this.sel) return;
      const { seat, field } = this.sel;
      const store = field === "chips" ? this.counts : this.stacks;
      let v = store[seat] ?? (field === "stack" ? "" : "");
      if (k === "del") v = v.slice(0, -1);
      else if (k === "next") {
        const i = seats.findIndex((x) => x.seat === seat);
        const nextSeat = seats[(i + 1) % seats.length];
        this.sel = { seat: nextSeat.seat, field: "chips" };
        this.rerender();
        reveal(".race-row.selected", "center");
        return;
      } else if (v.length < (field === "chips" ? 5 : 9)) v = (v === "0" ? "" : v) + k;
      store[seat] = v;
      this._keep();
      this.confirming = false;
      this.rerender();
    };
    const keys = ["1", "2", "3", "4", "5", "del", "6", "7", "8", "9", "0", "next"];
    const target = this.sel
      ? t(this.sel.field === "chips" ? "race.typing_count" : "race.typing_stack", { seat: this.sel.seat })
      : t("race.pick_seat");
    // The row's problem is said by the pad too: the pad may cover the row's own message.
    const problem = this.sel ? (this.sel.field === "chips" ? countProblem(this.counts[this.sel.seat]) : stackProblem(this.stacks[this.sel.seat])) : null;
    return h("div", { class: "race-pad" },
      h("p", { class: `race-pad-target${problem ? " error-text" : ""}`, "aria-live": "polite" }, target, problem ? ` · ${problem}` : ""),
      h("div", { class: "race-pad-keys" }, keys.map((k) => h("button", {
        type: "button", class: `key${k === "next" ? " primary" : ""}`, disabled: !this.sel,
        "aria-label": k === "del" ? t("floor.key_delete") : k === "next" ? t("race.next_seat") : k,
        onclick: () => press(k),
      }, k === "del" ? "⌫" : k === "next" ? t("race.next") : k))));
  }

  /**
   * @param {number} leaving
   * @param {{ seat: number, pid: string }[]} seats
   */
  async _send(leaving, seats) {
    const s = this._state();
    const table = this.table;
    if (table == null || !s) return;
    // A count the server would refuse is fixed on its row first: nothing is sent.
    const bad = seats.find(({ seat }) => countProblem(this.counts[seat]) || stackProblem(this.stacks[seat]));
    if (bad) {
      this.sel = { seat: bad.seat, field: countProblem(this.counts[bad.seat]) ? "chips" : "stack" };
      this.confirming = false;
      this.rerender();
      reveal(".race-row.selected", "center");
      return;
    }
    // A stack the floor has not given and the server does not know: ask for it here.
    for (const { seat, pid } of seats) {
      if (this.stacks[seat] === undefined && s.players[pid]?.stack == null) {
        this.sel = { seat, field: "stack" };
        this.confirming = false;
        this.error = { field: `seats[${seats.findIndex((x) => x.seat === seat)}].stack`, message: t("race.need_stack"), seats: seats.map((x) => x.seat) };
        this.rerender();
        return;
      }
    }
    const list = seats.map(({ seat }) => {
      /** @type {import("./protocol.js").RaceCount} */
      const entry = { seat, chips: Number(this.counts[seat] || 0) };
      if (this.stacks[seat] !== undefined && this.stacks[seat] !== "") entry.stack = Number(this.stacks[seat]);
      return entry;
    });
    this.sending = true;
    this.confirming = false;
    this.rerender();
    // Sent: no longer a draft (its own race must not read as another phone's).
    const kept = { counts: { ...this.counts }, stacks: { ...this.stacks }, leaving };
    this.drafts.clear(table);
    const item = await this.send({ type: "chip_race", table, seats: list, leaving },
      t("race.label", { table, chip: fmt.chips(leaving) }));
    this.sending = false;
    if (item.status === "refused") this.drafts.save(table, kept);
    if (item.status === "done") {
      this.error = null;
      this.shown = { table, leaving };
      this.rerender();
      reveal(".race-tool", "start");
      return;
    } else if (item.status === "refused") {
      this.error = { field: item.error?.field, message: explainError(item.error, this.conn), seats: list.map((x) => x.seat) };
    } else if (item.status === "pending") {
      this.error = { message: t("race.queued") };
    }
    this.rerender();
  }

  _resultBlock() {
    const { table, leaving } = /** @type {{ table: number, leaving: number }} */ (this.shown);
    const record = this._raced(table, leaving);
    return h("div", { class: "race-result-box" },
      record ? raceResult(record, this.conn) : h("p", { class: "muted", role: "status" }, t("race.waiting_result")),
      h("div", { class: "actions" }, this._backButton()));
  }

  _past() {
    const races = (this._state()?.chip_races || []).slice().reverse().slice(0, 30);
    if (!races.length) return null;
    return h("section", { class: "race-past" }, h("h3", {}, t("race.past", { n: races.length })),
      races.map((r) => {
        const key = `${r.table}.${r.result.leaving}.${r.at}`;
        const d = h("details", { class: "race-past-item", open: this.openPast.has(key) },
          h("summary", {}, t("spot.table_only", { table: r.table }), " · ",
            `${fmt.chips(r.result.leaving)} → ${fmt.chips(r.result.next_up)}`, " · ",
            t("race.raced_n", { n: r.result.chips_raced }), r.at ? ` · ${fmt.timeOfDay(r.at)}` : ""),
          this.openPast.has(key) ? raceResult(r, this.conn, { compact: true }) : null);
        d.addEventListener("toggle", () => {
          if (d.open === this.openPast.has(key)) return;
          if (d.open) this.openPast.add(key);
          else this.openPast.delete(key);
          this.rerender();
        });
        return d;
      }));
  }
}

/** Scroll the element matching `selector` into view (after a redraw moved things).
 * @param {string} selector
 * @param {ScrollLogicalPosition} block
 */
function reveal(selector, block) {
  const el = document.querySelector(selector);
  if (el && el.scrollIntoView) el.scrollIntoView({ block, behavior: "instant" });
}

/** A race as the table sees it: the exchange, each seat's cards, the winners, the new stacks.
 * @param {import("./protocol.js").RaceRecord} record
 * @param {Conn} conn
 * @param {{ compact?: boolean }} options
 */
export function raceResult(record, conn, { compact = false } = {}) {
  const r = record.result;
  const who = new Map((record.players || []).map((p) => [p.seat, p.player]));
  const occupants = conn.state?.tables?.[record.table]?.occupants || {};
  const name = (/** @type {number} */ seat) => {
    const pid = who.get(seat) ?? (record.players ? null : occupants[seat]);
    return pid ? playerName(conn, pid) : "";
  };
  const before = new Map((record.players || []).map((p) => [p.seat, p.stack]));
  // A seat nobody counted raced on the stack the player was given: no count before or after.
  const uncounted = new Set((record.players || []).filter((p) => p.counted === false).map((p) => p.seat));
  const stackText = (/** @type {any} */ x) => (uncounted.has(x.seat) ? t("race.not_counted_after") : fmt.chips(x.stack));
  return h("div", { class: `race-result${compact ? " compact" : ""}` },
    h("p", { class: "race-summary" },
      h("strong", {}, t("race.summary", {
        odd: fmt.chips(r.odd_chips), chip: fmt.chips(r.leaving), value: fmt.chips(r.odd_value),
        n: r.chips_raced, next: fmt.chips(r.next_up),
      }))),
    h("ol", { class: "race-seats" }, r.seats.map((x) => (!x.exchanged && !x.odd_chips && !x.won && !x.kept_in
      // A seat that had none of the leaving chips: one line.
      ? h("li", { class: "race-seat-result none" },
        h("div", { class: "rs-head" },
          h("span", { class: "rs-seat" }, t("floor.seat", { seat: x.seat })),
          h("span", { class: "rs-name" }, name(x.seat)),
          h("span", { class: "muted small" }, t("race.none_of", { chip: fmt.chips(r.leaving) })),
          h("span", { class: "rs-stack-inline" }, stackText(x))))
      : h("li", { class: `race-seat-result${x.won ? " won" : ""}${x.kept_in ? " kept" : ""}` },
      h("div", { class: "rs-head" },
        h("span", { class: "rs-seat" }, t("floor.seat", { seat: x.seat })),
        h("span", { class: "rs-name" }, name(x.seat)),
        x.won ? h("span", { class: "badge badge-ok" }, t("race.won", { chip: fmt.chips(r.next_up) })) : null,
        x.kept_in ? h("span", { class: "badge badge-paused" }, t("race.kept_in")) : null),
      h("div", { class: "rs-body" },
        h("span", { class: "rs-exchange" }, t("race.exchanged", { n: x.exchanged, chip: fmt.chips(r.next_up) })),
        x.odd_chips ? h("span", { class: "rs-odd" }, t("race.odd", { n: x.odd_chips })) : null),
      x.cards.length ? h("div", { class: "rs-cards" }, h("span", { class: "sr-only" }, `${t("race.cards")}: `), cards(x.cards, { size: compact ? "" : "big" }))
        : h("div", { class: "rs-cards muted small" }, t("race.no_cards")),
      h("div", { class: "rs-stack" }, h("span", { class: "muted" }, t("race.new_stack")), " ",
        h("strong", {}, stackText(x)),
        before.has(x.seat) && !uncounted.has(x.seat)
          ? h("span", { class: "muted small" }, ` (${t("race.was", { stack: fmt.chips(before.get(x.seat)) })})`) : null))))));
}

