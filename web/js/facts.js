// @ts-check
// The facts the server derives from the rules (floor/engine/read/derived.py), as screens read them:
// kept from each snapshot, merged from each batch, looked up here. Nothing is decided here:
// what may be sold, undone, broken, redirected or searched is what the server says.
//
// `conn.facts` (every screen): the clock's step, next level and break, the structure's steps,
// time calls in phases, the search keys of names. `conn.staff` (staff screens only; null
// on public screens): sales and what bars a player, undoable bust-outs, tables that cannot
// break, redirect seats per planned move, the final table's start.

import { render } from "./errors.js";
import { t } from "./i18n.js";
import { foldText } from "./ui.js";
/** @import { Player, Why } from "./protocol.js" */
/** @import { Conn } from "./types.js" */

/** The per-player maps a batch sends only for the players it named (null removes one). */
const PARTIAL = new Set(["search", "search_ids", "bars", "moves"]);

/** `into` with a batch's `patch` merged in (whole facts replace what was there).
 * @template {{ full: boolean }} F
 * @param {F | null} into
 * @param {F | null | undefined} patch
 * @returns {F | null}
 */
export function merge(into, patch) {
  if (patch == null) return into;
  if (into == null || patch.full) return patch;
  // Keyed by name: a batch's facts are the same Struct as the ones held.
  const held = /** @type {Record<string, any>} */ (into);
  for (const [key, value] of Object.entries(patch)) {
    if (!PARTIAL.has(key)) {
      held[key] = value;
      continue;
    }
    /** @type {Record<string, unknown>} */
    const map = (held[key] ||= {});
    for (const [id, x] of Object.entries(value)) {
      if (x == null) delete map[id];
      else map[id] = x;
    }
  }
  return into;
}

// Sales --------------------------------------------------------------------------------------

/** @param {Player | null | undefined} p */
function standing(p) {
  if (!p) return null;
  return p.busted ? "out" : p.table != null ? "seated" : null;
}

/** The sales the server offers player `p` now: [{kind, closed, own, price, chips}]:
 * `closed` is why it cannot be sold now (the window, with the player added, or the player's
 * own limit, `own`), null when it can.
 * @param {Conn} conn
 * @param {Player | null | undefined} p
 * @returns {{ kind: string, closed: Why | null, own: boolean, price: number | null, chips: number | null }[]}
 */
export function offers(conn, p) {
  const staff = conn.staff;
  const where = standing(p);
  if (!staff || !where || !p) return [];
  /** @type {Record<string, Why>} */
  const bars = staff.bars?.[p.id] || {};
  return Object.entries(staff.sales?.[where] || {}).map(([kind, sale]) => {
    const window = sale.closed ? { ...sale.closed, params: { player: p.id, ...sale.closed.params } } : null;
    const closed = window || bars[kind] || null;
    return { kind, closed, own: !window && !!closed, price: sale.price, chips: sale.chips };
  });
}

/** How the floor's screens say the reasons the facts give ([key, params from the reason's]),
 * shorter than the refusals; any other reason is said as the server's refusal would be.
 * @type {Record<string, (p: Record<string, any>) => [string, Record<string, any>]>}
 */
const WHY = {
  re_entry_late_closed: (p) => ["sale.closed.registration", { level: p.until }],
  re_entry_closed: (p) => ["sale.closed.re_entry", { level: p.until }],
  re_entry_limit: (p) => ["sale.closed.re_entry_limit", { n: p.made }],
  rebuys_closed: (p) => ["sale.closed.rebuy", { level: p.until }],
  rebuy_limit: (p) => ["sale.closed.rebuy_limit", { n: p.made }],
  rebuy_stack_unknown: (p) => ["sale.closed.rebuy_stack_unknown", { most: p.most }],
  rebuy_stack_too_big: (p) => ["sale.closed.rebuy_stack", { stack: p.stack, most: p.most }],
  add_on_at_break_only: (p) => ["sale.closed.add_on_break", { level: p.offered }],
  add_on_during_level: (p) => ["sale.closed.add_on_level", { level: p.offered }],
  add_on_limit: (p) => ["sale.closed.add_on_limit", { n: p.taken }],
  stack_limit: () => ["sale.closed.stack_limit", {}],
  break_no_room: (p) => ["director.break_no_room", { free: p.room, n: p.players }],
  last_table: () => ["director.break_last", {}],
  final_formed: (p) => ["director.final_at", { table: p.table }],
  final_too_few: () => ["director.final_too_few", {}],
  final_too_many: (p) => ["director.final_too_many", { n: p.players, size: p.size }],
};

/** A reason of the facts ({reason, params}) in the reader's language, players by name.
 * @param {Why | null | undefined} why
 * @param {Conn | null} [conn]
 * @param {(n: any) => string | number} [format]
 */
export function whyText(why, conn, format = (n) => n) {
  if (!why) return "";
  const say = WHY[why.reason];
  const params = why.params || {};
  if (!say) return render(why.reason, params, conn) ?? why.reason;
  const [key, values] = say(params);
  // Chip counts in the reader's format; levels, seats and counts as numbers.
  const shown = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, k === "stack" || k === "most" ? format(v) : v]));
  const who = params.player;
  const name = typeof who === "string" && who ? conn?.state?.players?.[who]?.name ?? who : "";
  return t(key, { name, ...shown });
}

// Bust-outs, tables, moves -----------------------------------------------------------------------

/** Bust-outs at `table` the floor may still undo (until the table deals its next hand, the
 * level changes, or the instant `until` the server set passes).
 * @param {Conn} conn
 * @param {number} table
 */
export function undoable(conn, table) {
  const now = conn.now() / 1000;
  return (conn.staff?.undo || []).filter((u) => u.table === table && (u.until == null || u.until > now));
}

/** How many planned moves player `id` has carried out today (the staff's facts).
 * @param {Conn} conn
 * @param {string} id
 */
export function movesToday(conn, id) {
  return conn.staff?.moves?.[id] ?? 0;
}

/** The free seats elsewhere when table `n` cannot be broken now; null when it can.
 * @param {Conn} conn
 * @param {number} n
 */
export function breakRoom(conn, n) {
  const room = conn.staff?.unbreakable?.[n];
  return room == null ? null : room;
}

/** The seats planned move number `i` may be redirected to, for `mover`: [{seat, reserved}],
 * a reserved seat disabled unless the server lists the mover as needing one.
 * @param {Conn} conn
 * @param {number} i
 * @param {string | null} mover
 */
export function redirectSeats(conn, i, mover) {
  const staff = conn.staff;
  const choice = staff?.seats?.[i];
  if (!staff || !choice) return [];
  const may = mover != null && (staff.needs_reserved || []).includes(mover);
  return [
    ...choice.free.map((seat) => ({ seat, reserved: false })),
    ...choice.reserved.map((seat) => ({ seat, reserved: !may })),
  ].sort((a, b) => a.seat - b.seat);
}

// The clock and time calls -------------------------------------------------------------------

/** The level number of step `i` (null for a break), as the server counts.
 * @param {Conn} conn
 * @param {number} i
 */
export function levelNumber(conn, i) {
  return conn.facts?.steps?.[i]?.[0] ?? null;
}

/** The big blind in force at step `i`.
 * @param {Conn} conn
 * @param {number} i
 */
export function bigBlindAt(conn, i) {
  return conn.facts?.steps?.[i]?.[1] ?? null;
}

/** Time calls as shown at `now`: each with the phase it is in and the seconds left of it.
 * @param {Conn} conn
 * @param {number} now
 */
export function timeCalls(conn, now) {
  const s = conn.state;
  return (conn.facts?.time_calls || []).map((c) => {
    const at = c.phases.find(([, until]) => now < until);
    return {
      table: c.table, seat: c.seat, player: c.player,
      name: c.player ? s?.players?.[c.player]?.name ?? null : null,
      phase: at ? at[0] : "over",
      left: at ? at[1] - now : 0,
    };
  });
}

// Search ---------------------------------------------------------------------------------------

/** A name's search key: its words' keys, each the server's folding of the word where it
 * sent one, the word in lower case (plain ASCII) where it did not.
 * @param {Conn} conn
 * @param {Player} p
 */
export function searchKey(conn, p) {
  const words = conn.facts?.search || {};
  return p.name.split(" ").map((w) => words[w] ?? w.toLowerCase()).join(" ");
}

/**
 * @param {Conn} conn
 * @param {Player} p
 */
function idKey(conn, p) {
  return conn.facts?.search_ids?.[p.id] ?? p.id.toLowerCase();
}

/** The players whose name holds every typed word (or whose id is one), best first: the
 * server's search (floor/server/views.py search_players) on the copy here, for a phone that
 * has lost the server, and for the console, which holds the whole field. `{total, players}`:
 * how many match in all, and the first `limit` of them.
 * @param {Conn} conn
 * @param {string} q
 * @param {number} [limit]
 */
export function searchPlayers(conn, q, limit = 20) {
  const words = foldText(q).split(/\s+/).filter(Boolean);
  if (!words.length || !conn.state) return { query: q, total: 0, players: [] };
  const typed = words.join(" ");
  /** @type {[number, number, string, Player][]} */
  const hits = [];
  for (const p of Object.values(conn.state.players)) {
    const name = searchKey(conn, p);
    const id = idKey(conn, p);
    if (!words.every((w) => name.includes(w) || w === id)) continue;
    const parts = name.split(/\s+/);
    // The name exactly as typed, then a word of it starting with the first word, then the rest.
    const kind = parts.join(" ") === typed ? 0 : parts.some((part) => part.startsWith(words[0])) ? 1 : 2;
    hits.push([kind, p.busted ? 1 : 0, name, p]);
  }
  hits.sort((a, b) => a[0] - b[0] || a[1] - b[1] || (a[2] < b[2] ? -1 : a[2] > b[2] ? 1 : 0));
  /** @type {Map<string, import("./protocol.js").Place>} */
  const moves = new Map();
  for (const m of conn.plan?.moves || []) if (m.player && !moves.has(m.player)) moves.set(m.player, m.to);
  const players = hits.slice(0, limit).map(([, , , p]) => {
    const to = moves.get(p.id);
    return {
      id: p.id, name: p.name, table: p.table, seat: p.seat, busted: p.busted,
      place: p.bust?.place ?? null, moving_to: to ? { table: to.table, seat: to.seat } : null,
    };
  });
  return { query: q, total: hits.length, players };
}

/** The first `limit` players `searchPlayers` finds.
 * @param {Conn} conn
 * @param {string} q
 * @param {number} [limit]
 */
export function findPlayers(conn, q, limit = 20) {
  return searchPlayers(conn, q, limit).players;
}
