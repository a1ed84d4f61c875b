// @ts-check
// The board of seat changes players read to find their new seat: the moves carried out, a
// called move called again to another seat or called off, sit-outs, tables breaking and the
// final table, newest first. The server folds it (floor/engine/board.py) and keeps it in the
// state: a screen that holds the room reads `state.board`, kept by the batches' patches; a
// connection that follows one player reads the lines it is sent (`conn.board`).
//
// Players are shown a move only once the floor has called it (the server sends the room no
// other): `calledMoves` is what a screen lists as "go now", on a staff browser too.

/** @import { BoardEntry, PlannedMove } from "./protocol.js" */
/** @import { Conn } from "./types.js" */

/** A board line as a screen lists it: every key present, `at` in ms, `live` when it came
 * after this screen joined.
 * @typedef {Required<BoardEntry> & { live: boolean }} Line
 */

/** The moves of the plan the floor has called, in the plan's order.
 * @param {Conn} conn
 */
export function calledMoves(conn) {
  return (conn.plan.moves || []).filter((m) => m.called > 0);
}

/** A planned move's state as the staff see it: "planned", "called" or "called_again".
 * @param {PlannedMove} m
 */
export function moveState(m) {
  if (!m.called) return "planned";
  return m.called > 1 ? "called_again" : "called";
}

/** The name a board line is shown with: the player's name as the state holds it now, else
 * as the line has it (a follower holds no other player), else their id.
 * @param {Conn} conn
 * @param {{ player?: string | null, name?: string | null }} entry
 */
export function entryName(conn, entry) {
  if (entry.player == null) return "";
  return conn.state?.players?.[entry.player]?.name ?? entry.name ?? conn.names?.[entry.player] ?? entry.player;
}

/** A line of the server's board as the screens read one: absent keys null, `at` in ms,
 * `live` when it came after this screen joined.
 * @param {BoardEntry} line
 * @param {boolean} live
 * @returns {Line}
 */
function entry(line, live) {
  return {
    player: null, name: null, from: null, to: null, reason: null, table: null, seat: null,
    ...line, at: line.at != null ? line.at * 1000 : null, live,
  };
}

/** The board as a screen lists it: `entries`, newest first, at most `limit`; `onChange`. */
export class Board {
  /**
   * @param {Conn} conn
   * @param {{ limit?: number }} [options]
   */
  constructor(conn, { limit = 80 } = {}) {
    this.conn = conn;
    this.limit = limit;
    /** @type {Line[]} */
    this.entries = [];
    /** @type {((board: Board) => void)[]} */
    this._listeners = [];
    // The lines the screen found when it joined: those are not news.
    /** @type {Set<string>} */
    this._old = new Set();
    /** @type {string | null} */
    this._shown = null;
    conn.on("snapshot", () => {
      this._old = new Set(this._lines().map((l) => l.key));
      this._refresh(true);
    });
    conn.on("change", () => this._refresh(false));
  }

  /** @param {(board: Board) => void} fn */
  onChange(fn) {
    this._listeners.push(fn);
  }

  /** The server's lines, oldest first.
   * @returns {BoardEntry[]}
   */
  _lines() {
    if (this.conn.following != null) return [...(this.conn.board || [])].reverse();
    return this.conn.state?.board?.lines || [];
  }

  /** @param {boolean} force */
  _refresh(force) {
    const lines = this._lines();
    const newest = lines.length ? lines[lines.length - 1].key : null;
    const shown = `${newest}/${lines.length}`;
    if (!force && shown === this._shown) return;
    this._shown = shown;
    this.entries = lines.slice(-this.limit).reverse().map((l) => entry(l, !this._old.has(l.key)));
    for (const fn of this._listeners) fn(this);
  }
}
