// @ts-check
// Flights of an event: the director's flights panel, the phone's bag-and-tag sheet, and the
// night's counts the wall and the player screen publish.
//
// The rules are the server's: whether the day is over (floor/engine/flights.py), whether a
// sheet is whole and a correction says why (floor/engine/bagging.py), the total-chips check
// and what explains it (GET /api/t/{id}/bags), and Day 2's merge and redraw (POST /api/day2),
// which a flight whose check failed joins only on the director's word with a reason
// (floor/engine/day2.py), kept in Day 2's log and shown on its console and its sheets.
// This file renders them and sends the commands.

import * as fmt from "./format.js";
import { t } from "./i18n.js";
import { parseStack } from "./counts.js";
import { Drafts, keptNote, sentSinceNotice } from "./drafts.js";
import { api, explainError, fill, h, playerName, toast } from "./ui.js";
import { heldState } from "./conn.js";
import { mount } from "./mount.js";
/** @import { Conn, Send } from "./types.js" */
/** @import { TournamentState } from "./protocol.js" */

// The director's panel -----------------------------------------------------------------------

/** The panel's parts, kept while the section is not built again.
 * @type {{ built: Element | null, status: HTMLElement | null, check: HTMLElement | null, fetchedAt: number,
 *   fetchedFor: string | null, day2: HTMLElement | null, ack: { ask(checks: any[]): void } | null }} */
const panel = { built: null, status: null, check: null, fetchedAt: 0, fetchedFor: null, day2: null, ack: null };

/** The flights section of the director console: the flight's settings, the end of the day,
 * the total-chips check once the bags come in, and Day 2 from this and the other flights.
 * @param {{ section: HTMLElement, conn: Conn | null, tid: string, send: Send }} options
 */
export function renderFlights({ section, conn, tid, send }) {
  if (!section) return;
  const s = conn?.state;
  if (!s) {
    fill(section, h("h2", { id: "h-flights" }, t("director.flights")));
    panel.built = null;
    return;
  }
  if (panel.built !== section.firstChild || !section.contains(panel.status)) {
    panel.status = h("div", { class: "flight-status", "aria-live": "polite" });
    panel.check = h("div", { class: "flight-check" });
    panel.day2 = h("div", { class: "flight-day2-result" });
    const heading = h("h2", { id: "h-flights" }, t("director.flights"));
    fill(section, heading, panel.status, setupForm(conn, send), endDayBox(conn, send), panel.check, day2Form(tid));
    panel.built = heading;
  }
  fill(/** @type {HTMLElement} */ (panel.status), statusText(s), carriedChecks(s));
  if (s.day_ended) refreshCheck(tid, s);
  else fill(/** @type {HTMLElement} */ (panel.check));
}

/** @param {TournamentState} s */
function statusText(s) {
  const f = s.flight;
  const parts = [];
  parts.push(f ? t("flights.is_flight", { event: f.event, order: f.order }) : t("flights.not_flight"));
  if (s.day_ended) {
    parts.push(t(`flights.ended_by.${s.day_ended.by}`, { level: s.day_ended.level }));
    const bagged = Object.values(s.bags || {}).reduce((n, sheet) => n + sheet.bags.length, 0);
    parts.push(t("flights.bagged", { n: bagged }));
  } else if (f?.rules) {
    if (f.rules.last_level) parts.push(t("flights.ends_at_level", { level: f.rules.last_level }));
    if (f.rules.end_share) parts.push(t("flights.ends_at_share", { share: Math.round(f.rules.end_share * 100) }));
  }
  return h("p", { class: "flight-facts" }, parts.join(" · "));
}

/**
 * @param {string} id
 * @param {string} label
 * @param {HTMLElement} input
 */
function field(id, label, input) {
  return h("div", { class: "field" }, h("label", { for: id }, label), input);
}

/**
 * @param {Conn} conn
 * @param {Send} send
 */
function setupForm(conn, send) {
  const f = heldState(conn).flight;
  const rules = f?.rules || {};
  const eventIn = h("input", { id: "flight-event", value: f?.event || "", required: true, pattern: "[A-Za-z0-9_\\-]+", autocapitalize: "none" });
  const orderIn = h("input", { id: "flight-order", type: "number", min: 1, max: 100, value: f?.order || 1, inputmode: "numeric" });
  const forward = h("select", { id: "flight-forward" },
    ["best", "first", "no_flight_after_bag"].map((v) => h("option", { value: v, selected: rules.stack_forward === v }, t(`flights.forward.${v}`))));
  const lastIn = h("input", { id: "flight-last", type: "number", min: 1, value: rules.last_level ?? "", inputmode: "numeric" });
  const shareIn = h("input", { id: "flight-share", type: "number", min: 1, max: 99, value: rules.end_share ? Math.round(rules.end_share * 100) : "", inputmode: "numeric" });
  const tolIn = h("input", { id: "flight-tolerance", type: "number", min: 0, value: rules.chip_tolerance ?? 0, inputmode: "numeric" });
  return h("form", { class: "flight-setup", onsubmit: (/** @type {SubmitEvent} */ ev) => {
    ev.preventDefault();
    /** @type {import("./protocol.js").FlightRules} */
    const r = { stack_forward: /** @type {import("./protocol.js").FlightRules["stack_forward"]} */ (forward.value), chip_tolerance: Number(tolIn.value || 0) };
    if (lastIn.value) r.last_level = Number(lastIn.value);
    if (shareIn.value) r.end_share = Number(shareIn.value) / 100;
    send({ type: "set_flight", event: eventIn.value.trim(), order: Number(orderIn.value || 1), rules: r },
      t("flights.set_label", { event: eventIn.value.trim() }));
  } },
  h("h3", {}, t("flights.setup")),
  h("div", { class: "row wrap" },
    field("flight-event", t("flights.event"), eventIn),
    field("flight-order", t("flights.order"), orderIn),
    field("flight-forward", t("flights.forward"), forward),
    field("flight-last", t("flights.last_level"), lastIn),
    field("flight-share", t("flights.share"), shareIn),
    field("flight-tolerance", t("flights.tolerance"), tolIn)),
  h("button", { type: "submit" }, t("flights.save")));
}

/**
 * @param {Conn} conn
 * @param {Send} send
 */
function endDayBox(conn, send) {
  return h("div", { class: "actions flight-end" },
    h("button", { type: "button", class: "warn", onclick: () => {
      if (heldState(conn).day_ended) return;
      if (!confirm(t("flights.end_confirm"))) return;
      send({ type: "end_day", now: true }, t("flights.end_label"));
    } }, t("flights.end_day")));
}

/**
 * @param {string} tid
 * @param {TournamentState} s
 */
async function refreshCheck(tid, s) {
  const key = `${Object.keys(s.bags || {}).length}:${JSON.stringify(Object.values(s.bags || {}).map((b) => b.at))}`;
  if (panel.fetchedFor === key && Date.now() - panel.fetchedAt < 30000) return;
  panel.fetchedFor = key;
  panel.fetchedAt = Date.now();
  let data;
  try {
    data = await api(`/api/t/${encodeURIComponent(tid)}/bags`);
  } catch (err) {
    if (panel.check) fill(panel.check, h("p", { class: "error-text" }, explainError(err)));
    return;
  }
  if (panel.check) fill(panel.check, checkView(data.check));
  // This flight's own check failed: Day 2 from it needs the director's reason, asked at once.
  if (data.check.flagged) panel.ack?.ask([{ flight: tid, difference: data.check.difference, tolerance: data.check.tolerance }]);
}

/** Day 2 made from flights whose chip check failed: each check, and the director's reason.
 * @param {{ carried?: { checks: any[], acknowledged?: string | null, by?: string | null } | null }} s the state, or what
 *   the Day 2 answer says of it
 */
export function carriedChecks(s) {
  const c = s?.carried;
  if (!c?.checks?.length) return null;
  return h("div", { class: "notice carried-checks" },
    h("p", {}, h("strong", {}, t("flights.made_from_failed"))),
    h("ul", {}, c.checks.map((/** @type {any} */ x) => h("li", {}, t("flights.failed_line", {
      flight: x.flight, counted: fmt.chips(x.counted), expected: fmt.chips(x.expected),
      difference: signed(x.difference), tolerance: fmt.chips(x.tolerance),
    })))),
    h("p", {}, c.by ? t("flights.acknowledged_by", { by: c.by, reason: c.acknowledged ?? "" })
      : t("flights.acknowledged", { reason: c.acknowledged ?? "" })));
}

/** The total-chips check as the server made it: the room's figures, each table, and why.
 * @param {any} c
 */
export function checkView(c) {
  const rows = c.tables.map((/** @type {any} */ tc) => h("tr", { class: tc.flagged ? "flagged" : null },
    h("td", {}, tc.table), h("td", { class: "num" }, tc.bags), h("td", { class: "num" }, fmt.chips(tc.counted)),
    h("td", { class: "num" }, tc.chips_on_table == null ? "–" : fmt.chips(tc.chips_on_table)),
    h("td", { class: "num" }, tc.difference == null ? "–" : signed(tc.difference)),
    h("td", {}, tc.flagged ? h("span", { class: "badge badge-breaking" }, t("flights.flagged")) : "")));
  const table = h("table", { class: "check-tables" },
    h("thead", {}, h("tr", {}, ["table", "bags", "counted", "on_table", "difference", "flag"].map((k) => h("th", {}, t(`flights.col.${k}`))))),
    h("tbody", {}, rows));
  // A narrow screen scrolls the table, not the page.
  const scroll = h("div", { class: "check-scroll" }, table);
  scroll.style.overflowX = "auto";
  return h("div", { class: `chip-check${c.flagged ? " flagged" : ""}` },
    h("h3", {}, t("flights.check")),
    h("p", { class: c.flagged ? "error-text" : "ok-text", role: c.flagged ? "alert" : null },
      t("flights.check_line", {
        expected: fmt.chips(c.expected), counted: fmt.chips(c.counted), difference: signed(c.difference),
        tolerance: fmt.chips(c.tolerance),
      })),
    c.why.length ? h("ul", { class: "check-why" }, c.why.map((/** @type {any} */ w) => h("li", {}, flagText(w)))) : null,
    scroll);
}

/** @param {number} n */
function signed(n) {
  return n > 0 ? `+${fmt.chips(n)}` : n < 0 ? `−${fmt.chips(-n)}` : "0";
}

/** @param {any} w */
function flagText(w) {
  return t(`flights.why.${w.kind}`, { table: w.table, chips: w.chips == null ? "" : signed(w.chips), n: w.players ?? 0 });
}

/** @param {string} tid */
function day2Form(tid) {
  const idIn = h("input", { id: "day2-id", required: true, pattern: "[A-Za-z0-9][A-Za-z0-9_\\-]{0,39}", autocapitalize: "none" });
  const nameIn = h("input", { id: "day2-name", required: true, value: "Day 2" });
  const flightsIn = h("input", { id: "day2-flights", required: true, value: tid, autocapitalize: "none" });
  const submit = h("button", { type: "submit", class: "primary" }, t("flights.day2_make"));
  // A flight's failed chip check: said, and Day 2 made only with the director's reason.
  const reasonIn = h("textarea", { id: "day2-reason", rows: 2, maxlength: 500, "aria-describedby": "day2-ack-failed" });
  const failedEl = h("ul", { id: "day2-ack-failed", class: "ack-failed" });
  const reasonError = h("p", { class: "error-text", role: "alert" });
  const ackBox = h("fieldset", { class: "day2-ack notice", hidden: true },
    h("legend", {}, t("flights.ack_title")), failedEl,
    field("day2-reason", t("flights.ack_reason"), reasonIn), reasonError);
  const failed = new Map();
  panel.ack = {
    ask(checks) {
      for (const c of checks) failed.set(c.flight, c);
      fill(failedEl, [...failed.values()].map((c) => h("li", {}, t("flights.ack_failed", {
        flight: c.flight, difference: signed(c.difference), tolerance: fmt.chips(c.tolerance) }))));
      ackBox.hidden = false;
      submit.textContent = t("flights.day2_make_anyway");
      submit.className = "warn";
    },
  };
  return h("form", { class: "flight-day2", onsubmit: async (/** @type {SubmitEvent} */ ev) => {
    ev.preventDefault();
    const flights = flightsIn.value.split(/[\s,]+/).filter(Boolean);
    /** @type {Record<string, any>} the body of POST /api/day2 */
    const body = { id: idIn.value.trim(), name: nameIn.value.trim(), flights };
    reasonError.textContent = "";
    if (!ackBox.hidden) {
      const reason = reasonIn.value.trim();
      if (!reason) {
        reasonError.textContent = t("flights.ack_missing");
        reasonIn.focus();
        return;
      }
      // Each failed check the director was shown, by name: the word covers those alone.
      body.acknowledge = { reason, flights: [...failed.keys()] };
    }
    try {
      const made = await api("/api/day2", { method: "POST", body });
      toast(`✓ ${t("flights.day2_made", { n: made.players, tables: made.tables })}`, "ok");
      if (panel.day2) fill(panel.day2, day2Result(idIn.value.trim(), made));
    } catch (err) {
      if (err.reason === "day2_check_failed") {
        // Said where the reason is asked for, not only in a toast that goes.
        panel.ack?.ask([err.params]);
        reasonIn.focus();
      } else toast(`✗ ${explainError(err)}`, "error", 8000);
    }
  } },
  h("h3", {}, t("flights.day2")),
  h("p", { class: "hint" }, t("flights.day2_hint")),
  h("div", { class: "row wrap" },
    field("day2-id", t("flights.day2_id"), idIn),
    field("day2-name", t("flights.day2_name"), nameIn),
    field("day2-flights", t("flights.day2_flights"), flightsIn)),
  ackBox,
  submit,
  panel.day2);
}

/**
 * @param {string} id
 * @param {any} made
 */
function day2Result(id, made) {
  const e = encodeURIComponent(id);
  return h("div", { class: "card" },
    h("p", {}, t("flights.day2_made", { n: made.players, tables: made.tables }), " · ",
      t("flights.day2_field", { n: made.entries, chips: fmt.chips(made.chips) })),
    made.set_aside.length ? h("p", { class: "muted" }, t("flights.set_aside", { n: made.set_aside.length }),
      " ", made.set_aside.map((/** @type {any} */ b) => `${b.name} (${b.flight}: ${fmt.chips(b.stack)})`).join(", ")) : null,
    made.checks?.length ? carriedChecks({ carried: { checks: made.checks, acknowledged: made.acknowledged } }) : null,
    h("p", {}, h("a", { href: `/director?t=${e}` }, t("flights.day2_open")), " · ",
      h("a", { href: `/player/${e}`, target: "_blank", rel: "noopener" }, t("flights.day2_seats"))));
}

// The phone's bag sheet ------------------------------------------------------------------------

/** A table's bag-and-tag sheet on the floor phone: every survivor's stack and bag number,
 * the chips on the table as one total (optional), and the reason for a corrected sheet. */
export class BagSheet {
  /** @param {{ conn: any, send: (command: any, label: string) => Promise<any>, rerender: () => void }} options */
  constructor({ conn, send, rerender }) {
    this.conn = conn;
    this.send = send;
    this.rerender = rerender;
    /** @type {number | null} the table whose sheet is open */
    this.table = null;
    /** @type {Record<string, string>} each survivor's stack as typed, by player */
    this.typed = {};
    /** @type {Record<string, string>} each survivor's bag number, by player */
    this.tags = {};
    this.total = "";
    this.reason = "";
    /** @type {string | null} */
    this.error = null;
    // What is typed stays on the phone until sent or discarded (drafts.js); a sheet sent
    // from another phone meanwhile is said in place, even under a finger typing.
    this.drafts = new Drafts(conn, "bag");
    this.noticeEl = h("div", { class: "draft-notice" });
    conn.on("change", () => this._drawNotice());
  }

  _drawNotice() {
    if (this.table == null) return this.noticeEl.replaceChildren();
    // The notice is about this table: its buttons act on it.
    const table = this.table;
    const notice = sentSinceNotice(this.drafts, table, {
      onKeep: () => { this.drafts.keep(table); this._drawNotice(); },
      onDiscard: () => { this.discard(); this.open(table); this.rerender(); },
    });
    fill(this.noticeEl, notice, keptNote(this.drafts, this.table));
  }

  get active() {
    return this.table != null;
  }

  /** Whether the sheet is offered for this table: the day is over and the table has players.
   * @param {import("./protocol.js").Table} tb
   */
  offered(tb) {
    return !!this.conn.state?.day_ended && Object.keys(tb.occupants).length > 0;
  }

  /** What the table screen shows for table `tb`: the sheet while it is open there, else
   * the button that opens it once the day is over; nothing before.
   * @param {import("./protocol.js").Table} tb
   */
  hook(tb) {
    if (this.active && this.table !== tb.number) this.close();
    if (!this.offered(tb)) return null;
    if (this.active) return this.render();
    const bagged = this.conn.state.bags?.[tb.number];
    return h("div", { class: "actions table-tools" },
      h("button", { type: "button", class: bagged ? "big" : "big primary", onclick: () => { this.open(tb.number); this.rerender(); } },
        t("bag.open")),
      bagged ? h("span", { class: "badge badge-open" }, t("flights.bagged", { n: bagged.bags.length })) : null);
  }

  /** Open the sheet of `table`: the draft kept for it, else the table's sheet on record
   * (a correction starts from it), else an empty one.
   * @param {number} table
   */
  open(table) {
    const before = this.conn.state?.bags?.[table];
    const draft = this.drafts.load(table)?.data;
    this.table = table;
    this.typed = {};
    this.tags = {};
    for (const b of before?.bags || []) {
      this.typed[b.player] = String(b.stack);
      if (b.bag) this.tags[b.player] = b.bag;
    }
    this.total = before?.chips_on_table != null ? String(before.chips_on_table) : "";
    this.reason = "";
    if (draft) Object.assign(this, { typed: { ...draft.typed }, tags: { ...draft.tags }, total: draft.total, reason: draft.reason });
    else this.drafts.begin(table);
    this.error = null;
  }

  /** Put away (another table opened): the draft stays. */
  close() {
    this.table = null;
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
    this.drafts.save(this.table, { typed: this.typed, tags: this.tags, total: this.total, reason: this.reason });
    if (first) this._drawNotice();
  }

  render() {
    const s = this.conn.state;
    const tb = this.table == null ? null : s?.tables?.[this.table];
    if (!tb) {
      this.close();
      return null;
    }
    const before = this.table == null ? null : s.bags?.[this.table];
    this._drawNotice();
    const seats = Object.entries(tb.occupants).map(([seat, pid]) => ({ seat: Number(seat), pid })).sort((a, b) => a.seat - b.seat);
    const rows = seats.map(({ seat, pid }) => {
      const id = `bag-${this.table}-${seat}`;
      const name = playerName(this.conn, pid);
      return h("li", { class: "count-row bag-row" },
        h("label", { class: "count-seat", for: id }, h("span", { class: "seat-no" }, seat), h("span", { class: "seat-name" }, name)),
        h("input", { id, class: "count-input", type: "text", inputmode: "numeric", autocomplete: "off", value: this.typed[pid] ?? "",
          "aria-label": t("bag.stack_field", { seat, name }), oninput: (/** @type {Event} */ ev) => { this.typed[pid] = /** @type {HTMLInputElement} */ (ev.target).value; this._keep(); } }),
        h("input", { id: `${id}-tag`, class: "bag-tag", type: "text", autocomplete: "off", maxlength: 20, value: this.tags[pid] ?? "",
          placeholder: t("bag.tag"), "aria-label": t("bag.tag_field", { seat, name }), oninput: (/** @type {Event} */ ev) => { this.tags[pid] = /** @type {HTMLInputElement} */ (ev.target).value; this._keep(); } }));
    });
    const totalIn = h("input", { id: `bag-total-${this.table}`, class: "count-input", type: "text", inputmode: "numeric", value: this.total,
      oninput: (/** @type {Event} */ ev) => { this.total = /** @type {HTMLInputElement} */ (ev.target).value; this._keep(); } });
    const reasonIn = before ? h("input", { id: `bag-reason-${this.table}`, type: "text", maxlength: 500, value: this.reason, required: true,
      oninput: (/** @type {Event} */ ev) => { this.reason = /** @type {HTMLInputElement} */ (ev.target).value; this._keep(); } }) : null;
    return h("form", { class: "count-sheet bag-sheet card", "aria-label": t("bag.title", { table: this.table }), onsubmit: (/** @type {SubmitEvent} */ ev) => {
      ev.preventDefault();
      this._save(seats, !!before);
    } },
    h("h2", {}, t("bag.title", { table: this.table })),
    this.noticeEl,
    h("p", { class: "hint" }, before ? t("bag.correcting") : t("bag.hint")),
    h("ol", { class: "count-rows" }, rows),
    h("div", { class: "field" }, h("label", { for: `bag-total-${this.table}` }, t("bag.on_table")), totalIn),
    reasonIn ? h("div", { class: "field" }, h("label", { for: `bag-reason-${this.table}` }, t("bag.reason")), reasonIn) : null,
    this.error ? h("p", { class: "error-text", role: "alert" }, this.error) : null,
    h("div", { class: "actions" },
      h("button", { type: "submit", class: "primary big" }, t("bag.save", { n: seats.length })),
      h("button", { type: "button", class: "ghost big", onclick: () => { this.discard(); this.rerender(); } }, t("count.cancel"))));
  }

  /**
   * @param {{ seat: number, pid: string }[]} seats
   * @param {boolean} correcting
   */
  async _save(seats, correcting) {
    const bags = [];
    for (const { seat, pid } of seats) {
      const v = parseStack(this.typed[pid]);
      if (v.problem || v.empty) {
        this.error = t("bag.missing", { seat, name: playerName(this.conn, pid) });
        this.rerender();
        return;
      }
      const tag = (this.tags[pid] || "").trim();
      const stack = /** @type {number} */ (v.stack);
      bags.push(tag ? { player: pid, stack, bag: tag } : { player: pid, stack });
    }
    if (this.table == null) return;
    /** @type {import("./protocol.js").BagTable} */
    const command = { type: "bag_table", table: this.table, bags };
    const total = parseStack(this.total);
    if (total.stack != null) command.chips_on_table = total.stack;
    if (correcting) command.reason = this.reason.trim();
    const table = this.table;
    // Sent: no longer a draft (its own batch must not read as another phone's sheet).
    this.drafts.clear(table);
    const item = await this.send(command, t("bag.label", { table, n: bags.length }));
    if (item.status === "refused") {
      this.error = explainError(item.error, this.conn);
      if (this.table === table) this._keep();
    } else if (item.status === "done" || item.status === "pending") this.close();
    this.rerender();
  }
}

// The night's counts, published -----------------------------------------------------------------

/** @type {{ key: string | null, rows: any[] | null }} */
const published = { key: null, rows: null };

/** The counts of the day's bags, biggest first, for the wall and the player screen: empty
 * until the day has ended and a table is bagged. Fetched again when a sheet comes in.
 * @param {Conn} conn
 * @param {string} tid
 * @param {() => void} rerender
 * @param {number} limit
 */
export function countsBlock(conn, tid, rerender, limit = 20) {
  const s = conn?.state;
  if (!s?.day_ended || !Object.keys(s.bags || {}).length) return null;
  const key = JSON.stringify(Object.values(s.bags).map((b) => b.at));
  if (published.key !== key) {
    published.key = key;
    api(`/api/t/${encodeURIComponent(tid)}/counts`).then((data) => {
      published.rows = data.counts;
      rerender();
    }).catch(() => {});
  }
  const rows = published.rows || [];
  return h("section", { class: "card published-counts", "aria-labelledby": "counts-title" },
    h("h2", { id: "counts-title" }, t("bag.published", { n: rows.length })),
    h("ol", { class: "counts-list" }, rows.slice(0, limit).map((r) => h("li", {},
      h("span", { class: "name" }, r.name), " ", h("span", { class: "num" }, fmt.chips(r.stack)),
      h("span", { class: "muted" }, ` · ${t("spot.table_only", { table: r.table })}${r.bag ? ` · ${t("bag.tag")} ${r.bag}` : ""}`)))),
    h("p", {}, h("a", { href: `/api/t/${encodeURIComponent(tid)}/counts.csv` }, t("bag.file"))));
}

/** `el` kept showing the night's counts (`countsBlock`), hidden until there are any.
 * @param {HTMLElement} el
 * @param {Conn} conn
 * @param {string} tid
 * @param {{ limit?: number }} options
 */
export function mountCounts(el, conn, tid, options = {}) {
  const draw = () => {
    const block = countsBlock(conn, tid, draw, options.limit);
    el.hidden = !block;
    el.replaceChildren(...(block ? [block] : []));
  };
  mount(el, conn, draw);
  return el;
}
