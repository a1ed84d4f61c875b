// @ts-check
// The prize pool and the results (GET /api/t/{tid}/prizes), for the wall's results page and
// the director console. Read again a moment after anything that changes them (a bust-out, an
// undo, an entry, a rebuy or an add-on) and once a minute besides.

import * as fmt from "./format.js";
import { t } from "./i18n.js";
import { venueLocale } from "./venue.js";
/** @import { Conn } from "./types.js" */

// Everything the pool, the payouts or the results follow from: the field and what it bought,
// the money's settings (a console's "Money saved"), Day 2's field carried from the flights.
const CHANGES = new Set(["player_busted", "bust_undone", "player_registered", "player_unregistered", "rebuy_made",
  "add_on_made", "prize_changed", "structure_changed", "field_carried", "deal_made", "seat_awarded"]);

export class Prizes {
  /** @param {Conn} conn */
  constructor(conn) {
    this.conn = conn;
    this.data = null;
    this.failed = false;
    /** @type {((prizes: Prizes) => void)[]} */
    this._listeners = [];
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this._timer = undefined;
    this._busy = false;
    this._again = false;
    conn.on("snapshot", () => this.refresh());
    conn.on("events", (/** @type {any[]} */ events) => {
      if (events.some((/** @type {any} */ e) => CHANGES.has(e.type))) this.soon();
    });
    setInterval(() => {
      if (document.visibilityState !== "hidden") this.refresh();
    }, 60000);
  }

  /** @param {(prizes: Prizes) => void} fn */
  onChange(fn) {
    this._listeners.push(fn);
  }

  soon(ms = 800) {
    clearTimeout(this._timer);
    this._timer = setTimeout(() => this.refresh(), ms);
  }

  async refresh() {
    if (this._busy) {
      this._again = true;
      return;
    }
    this._busy = true;
    try {
      const r = await fetch(`/api/t/${encodeURIComponent(this.conn.tid)}/prizes`, { credentials: "same-origin" });
      if (r.ok) {
        this.data = await r.json();
        this.failed = false;
      } else this.failed = true;
    } catch (err) {
      this.failed = true;
    } finally {
      this._busy = false;
    }
    for (const fn of this._listeners) fn(this);
    if (this._again) {
      this._again = false;
      this.refresh();
    }
  }
}

/** "5th", or "18th–19th" for a place shared by two.
 * @param {number} place
 * @param {number} tied
 */
export function placeText(place, tied = 1) {
  return tied > 1 ? `${fmt.ordinal(place)}–${fmt.ordinal(place + tied - 1)}` : fmt.ordinal(place);
}

/** The payout table with neighbouring places of equal prize together: 10th–18th €540.
 * @param {any} pool
 */
export function payoutRows(pool) {
  const rows = [];
  for (const p of pool?.places || []) {
    const last = rows[rows.length - 1];
    // The final table's places are always shown one by one.
    if (last && last.prize === p.prize && p.place > 9 && last.from > 9) last.to = p.place;
    else rows.push({ from: p.place, to: p.place, prize: p.prize, percent: p.percent });
  }
  return rows;
}

/** The results as groups: one row per place, players who share it together.
 * @param {any[] | null | undefined} results
 */
export function finisherGroups(results) {
  const groups = [];
  for (const r of results || []) {
    const last = groups[groups.length - 1];
    if (last && last.place === r.place) last.players.push(r);
    else groups.push({ place: r.place, tied: r.tied, prize: r.prize, players: [r] });
  }
  return groups;
}

/**
 * @param {number} from
 * @param {number} to
 */
export function placesText(from, to) {
  return from === to ? fmt.ordinal(from) : `${fmt.ordinal(from)}–${fmt.ordinal(to)}`;
}

/** A payout's percentage as the payout table gives it, never rounded to a different share:
 * 20, 12.5, 0.35 (0,35 in Czech).
 * @param {number | null | undefined} percent
 */
export function percentText(percent) {
  if (percent == null) return "–";
  return new Intl.NumberFormat(venueLocale, { maximumFractionDigits: 3 }).format(percent);
}

/** The pool in a line: "€30,000 · 300 entries · 27 places paid".
 * @param {any} pool
 */
export function poolFacts(pool) {
  if (!pool) return [];
  const facts = [
    [t("prizes.pool"), fmt.money(pool.pool, pool.currency)],
    [t("prizes.entries"), fmt.number(pool.entries)],
  ];
  if (pool.rebuys) facts.push([t("prizes.rebuys"), fmt.number(pool.rebuys)]);
  if (pool.add_ons) facts.push([t("prizes.add_ons"), fmt.number(pool.add_ons)]);
  facts.push([t("prizes.places_paid"), fmt.number((pool.places || []).length)]);
  if (pool.guarantee) facts.push([t("prizes.guarantee"), fmt.money(pool.guarantee, pool.currency)]);
  if (pool.overlay) facts.push([t("prizes.overlay"), fmt.money(pool.overlay, pool.currency)]);
  // A bounty tournament: the bounty pool, kept apart from the prize pool.
  if (pool.bounties) facts.push([t("bounty.pool"), fmt.money(pool.bounties, pool.currency)]);
  return facts;
}
