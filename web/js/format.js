// @ts-check
// Numbers, times and the structure as screens show them. Display only: which level comes
// next, when the break begins and which chips leave are the server's clock facts (facts.js).
// Numbers and times are written as the venue writes them (venue.js: 1 250 000 and 21:07 in
// Prague, 1,250,000 and 21:07 in London), whatever language the screen speaks.

import { getLang, t } from "./i18n.js";
/** @import { Conn } from "./types.js" */
/** @import { Player, Structure } from "./protocol.js" */
/** @import { Step } from "./types.js" */
import { venueLocale } from "./venue.js";

const locale = () => venueLocale;

/** Chips with thousands separators: 1,250,000 (en-GB) or 1 250 000 (cs-CZ).
 * @param {number | null | undefined} n
 */
export function chips(n) {
  if (n == null || Number.isNaN(n)) return "–";
  return new Intl.NumberFormat(locale(), { maximumFractionDigits: 0 }).format(n);
}

/** Money in the tournament's currency: €30,000 (en) or 30 000 € (cs); no decimals.
 * @param {number | null | undefined} n
 * @param {string | null | undefined} currency
 */
export function money(n, currency) {
  if (n == null) return "–";
  try {
    if (currency) {
      return new Intl.NumberFormat(locale(), { style: "currency", currency, maximumFractionDigits: 0,
        minimumFractionDigits: 0 }).format(n);
    }
  } catch (err) {
    /* not an ISO currency code: the number and the code */
  }
  return currency ? `${chips(n)} ${currency}` : chips(n);
}

/** Short chips for tight places: 1.25M, 25K (cs: 1,25 mil., 25 tis.).
 * @param {number | null | undefined} n
 */
export function chipsShort(n) {
  if (n == null) return "–";
  if (Math.abs(n) < 100000) return chips(n);
  return new Intl.NumberFormat(locale(), { notation: "compact", maximumFractionDigits: 2 }).format(n);
}

/**
 * @param {number | null | undefined} n
 * @param {number} digits
 */
export function number(n, digits = 0) {
  if (n == null || Number.isNaN(n)) return "–";
  return new Intl.NumberFormat(locale(), {
    minimumFractionDigits: digits, maximumFractionDigits: digits,
  }).format(n);
}

/** Big blinds: one decimal below 10, whole above.
 * @param {number | null | undefined} n
 */
export function bb(n) {
  if (n == null || !Number.isFinite(n)) return "–";
  return `${number(n, n < 10 ? 1 : 0)} BB`;
}

/** mm:ss, or h:mm:ss from an hour up; counts whole seconds up (0:01 until it is over).
 * @param {number | null | undefined} seconds
 */
export function clock(seconds) {
  if (seconds == null || !Number.isFinite(seconds)) return "–:––";
  const s = Math.max(0, Math.ceil(seconds - 1e-6));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
}

/** Local wall-clock time of an epoch second, as the venue writes it: 21:07 (a 24-hour
 * clock wherever the venue keeps one, en-GB and cs-CZ among them).
 * @param {number | null | undefined} epochSeconds
 * @param {boolean} seconds
 */
export function timeOfDay(epochSeconds, seconds = false) {
  if (!epochSeconds) return "";
  return new Intl.DateTimeFormat(locale(), { hour: "2-digit", minute: "2-digit",
    second: seconds ? "2-digit" : undefined }).format(new Date(epochSeconds * 1000));
}

/** @param {number} n */
export function ordinal(n) {
  if (getLang() !== "en") return t("format.ordinal", { n });
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${{ 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th"}`;
}

/** "T12 S4" (a seat), "T12" when the seat is not known yet.
 * @param {number | null | undefined} table
 * @param {number | null | undefined} seat
 */
export function spot(table, seat) {
  if (table == null) return "–";
  return seat == null ? t("spot.table_only", { table }) : t("spot.short", { table, seat });
}

// The structure --------------------------------------------------------------------------------

/**
 * @param {Structure | null | undefined} structure
 * @param {number | null | undefined} index
 */
export function step(structure, index) {
  return index == null ? null : structure?.levels?.[index] ?? null;
}

/** Seconds left until `until` (a server instant) at `nowSec`, or `fixed` while the clock
 * stands (`until` null).
 * @param {number | null | undefined} until
 * @param {number} fixed
 * @param {number} nowSec
 */
export function countdown(until, fixed, nowSec) {
  return until != null ? Math.max(0, until - nowSec) : fixed;
}

/** "200 / 400", with the bring-in or the ante named separately by the caller.
 * @param {Step | null | undefined} level
 */
export function blinds(level) {
  if (!level || level.type === "break") return "";
  return `${chips(level.small_blind)} / ${chips(level.big_blind)}`;
}

/** @param {Step | null | undefined} level */
export function anteText(level) {
  if (!level || level.type === "break") return "";
  const parts = [];
  if (level.ante) {
    parts.push(level.big_blind_ante ? t("clock.bb_ante", { ante: chips(level.ante) })
      : t("clock.ante", { ante: chips(level.ante) }));
  }
  if (level.bring_in) parts.push(t("clock.bring_in", { amount: chips(level.bring_in) }));
  return parts.join(" · ");
}

/** @param {string | null | undefined} game */
export function gameName(game) {
  return game ? t(`game.${game}`) : "";
}

/** The clock as a screen shows it now: the server's clock facts (facts.js) with the time
 * left counted down here.
 * @param {Conn} conn
 */
export function clockModel(conn) {
  const s = conn.state;
  const f = conn.facts?.clock;
  if (!s || !s.structure || !f) return null;
  const structure = s.structure;
  const c = s.clock;
  const nowSec = conn.nowSec();
  const current = step(structure, f.step);
  const next = f.next == null ? null : {
    index: f.next, step: step(structure, f.next), number: conn.facts?.steps?.[f.next]?.[0] ?? null,
    breakFirst: f.break_first == null ? null : { index: f.break_first, step: step(structure, f.break_first) },
  };
  const avg = conn.stats?.average_stack ?? null;
  return {
    structure,
    clock: c,
    index: f.step,
    current,
    onBreak: f.on_break,
    number: f.number,
    next,
    left: countdown(c.running ? c.ends_at : null, c.remaining, nowSec),
    toBreak: f.break_at == null && f.break_in == null ? null : countdown(f.break_at, f.break_in ?? 0, nowSec),
    started: c.started,
    running: c.running,
    last: f.last,
    bigBlind: f.big_blind,
    averageStack: avg,
    averageBB: avg != null && f.big_blind ? avg / f.big_blind : null,
    colorUp: f.color_up,
    chipsAfter: f.on_break ? f.chips_in_play : null,
    game: f.game,
  };
}

/** Whether the stack on record was counted at the table (set by the floor or by a chip race):
 * until then it is only what the player was given (the state's `counted`).
 * @param {Player | null | undefined} p
 */
export function stackCounted(p) {
  return !!p && p.stack != null && p.counted === true;
}
