// Numbers, times and the structure as screens show them. Display arithmetic only: which level
// comes next and how long until the break are read from the structure the server sent.

import { getLang, t } from "./i18n.js";

const locale = () => (getLang() === "cs" ? "cs-CZ" : "en-GB");

/** Chips with thousands separators: 1,250,000 (en) or 1 250 000 (cs). */
export function chips(n) {
  if (n == null || Number.isNaN(n)) return "–";
  return new Intl.NumberFormat(locale(), { maximumFractionDigits: 0 }).format(n);
}

/** Money in the tournament's currency: €30,000 (en) or 30 000 € (cs); no decimals. */
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

/** Short chips for tight places: 1.25M, 25K (cs: 1,25 mil., 25 tis.). */
export function chipsShort(n) {
  if (n == null) return "–";
  if (Math.abs(n) < 100000) return chips(n);
  return new Intl.NumberFormat(locale(), { notation: "compact", maximumFractionDigits: 2 }).format(n);
}

export function number(n, digits = 0) {
  if (n == null || Number.isNaN(n)) return "–";
  return new Intl.NumberFormat(locale(), {
    minimumFractionDigits: digits, maximumFractionDigits: digits,
  }).format(n);
}

/** Big blinds: one decimal below 10, whole above. */
export function bb(n) {
  if (n == null || !Number.isFinite(n)) return "–";
  return `${number(n, n < 10 ? 1 : 0)} BB`;
}

/** mm:ss, or h:mm:ss from an hour up; counts whole seconds up (0:01 until it is over). */
export function clock(seconds) {
  if (seconds == null || !Number.isFinite(seconds)) return "–:––";
  const s = Math.max(0, Math.ceil(seconds - 1e-6));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
}

/** Local wall-clock time of an epoch second: 21:07. */
export function timeOfDay(epochSeconds, seconds = false) {
  if (!epochSeconds) return "";
  return new Intl.DateTimeFormat(locale(), { hour: "2-digit", minute: "2-digit",
    second: seconds ? "2-digit" : undefined }).format(new Date(epochSeconds * 1000));
}

export function ordinal(n) {
  if (getLang() === "cs") return `${n}.`;
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${{ 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th"}`;
}

/** "T12 S4" (a seat), "T12" when the seat is not known yet. */
export function spot(table, seat) {
  if (table == null) return "–";
  return seat == null ? t("spot.table_only", { table }) : t("spot.short", { table, seat });
}

// The structure --------------------------------------------------------------------------------

export function step(structure, index) {
  return structure?.levels?.[index] ?? null;
}

/** The 1-based level number of step `index` (null for a break), as the server counts. */
export function levelNumber(structure, index) {
  const levels = structure?.levels || [];
  if (!levels[index] || levels[index].type === "break") return null;
  let n = 0;
  for (let i = 0; i <= index; i += 1) if (levels[i].type !== "break") n += 1;
  return n;
}

/** The denominations still in play once step `index` has begun. */
export function chipsInPlay(structure, index) {
  const gone = new Set();
  for (const s of (structure?.levels || []).slice(0, index + 1)) {
    if (s.type === "break") for (const d of s.color_up || []) gone.add(d);
  }
  return (structure?.chips || []).filter((c) => !gone.has(c));
}

/** The next playing level after `index` (skipping breaks), and whether a break comes first. */
export function nextLevel(structure, index) {
  const levels = structure?.levels || [];
  let breakFirst = null;
  for (let i = index + 1; i < levels.length; i += 1) {
    if (levels[i].type === "break") {
      breakFirst ||= { index: i, step: levels[i] };
    } else {
      return { index: i, step: levels[i], number: levelNumber(structure, i), breakFirst };
    }
  }
  return null;
}

/** Seconds left in the current step at `nowSec` (the server's clock). */
export function remaining(clockState, nowSec) {
  if (!clockState) return null;
  if (clockState.running && clockState.ends_at != null) return Math.max(0, clockState.ends_at - nowSec);
  return clockState.remaining;
}

/** Seconds until the next break begins; 0 during a break; null with no break ahead. */
export function secondsToBreak(structure, clockState, nowSec) {
  const levels = structure?.levels;
  if (!levels || !clockState) return null;
  const i = clockState.level;
  if (levels[i]?.type === "break") return 0;
  let total = remaining(clockState, nowSec);
  for (const s of levels.slice(i + 1)) {
    if (s.type === "break") return total;
    total += s.minutes * 60;
  }
  return null;
}

/** The big blind in force at step `index` (a break: the level after it, else the one before). */
export function bigBlindAt(structure, index) {
  const levels = structure?.levels || [];
  for (let i = index; i < levels.length; i += 1) if (levels[i].type !== "break") return levels[i].big_blind;
  for (let i = index; i >= 0; i -= 1) if (levels[i]?.type !== "break") return levels[i].big_blind;
  return null;
}

/** "200 / 400", with the bring-in or the ante named separately by the caller. */
export function blinds(level) {
  if (!level || level.type === "break") return "";
  return `${chips(level.small_blind)} / ${chips(level.big_blind)}`;
}

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

export function gameName(game) {
  return game ? t(`game.${game}`) : "";
}

/** The clock as a screen shows it now: everything the clock panels need, computed once. */
export function clockModel(conn) {
  const s = conn.state;
  if (!s || !s.structure) return null;
  const structure = s.structure;
  const c = s.clock;
  const nowSec = conn.nowSec();
  const current = step(structure, c.level);
  const onBreak = current?.type === "break";
  const next = nextLevel(structure, c.level);
  const left = remaining(c, nowSec);
  const toBreak = secondsToBreak(structure, c, nowSec);
  const bigBlind = bigBlindAt(structure, c.level);
  const stats = conn.stats;
  const avg = stats?.average_stack ?? null;
  return {
    structure,
    clock: c,
    index: c.level,
    current,
    onBreak,
    number: levelNumber(structure, c.level),
    next,
    left,
    toBreak,
    started: c.started,
    running: c.running,
    last: c.level >= structure.levels.length - 1,
    bigBlind,
    averageStack: avg,
    averageBB: avg != null && bigBlind ? avg / bigBlind : null,
    colorUp: onBreak ? current.color_up || [] : [],
    chipsAfter: onBreak ? chipsInPlay(structure, c.level) : null,
    game: onBreak ? null : current?.game || s.current_game,
  };
}

/** Whether the stack on record was counted at the table (set by the floor or by a chip race):
 * until then it is only what the player was given (the state's `counted`). */
export function stackCounted(p) {
  return !!p && p.stack != null && p.counted === true;
}
