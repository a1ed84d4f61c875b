// The board of seat changes players read to find their new seat: the moves carried out
// (`players_moved`), a called move called again to another seat or called off, tables breaking
// and the final table, newest first. On joining, the recent past is the server's board
// (GET /api/t/{tid}/board, folded there as here) so a screen switched on mid-day is not empty.
//
// A connection that follows one player (conn.js, follow mode) holds no room to fold: its board
// is the server's (`conn.board`, floor/engine/board.py, the same lines folded there), each
// line with the player's name (`entryName`).
//
// Players are shown a move only once the floor has called it (the server sends the room no
// other): `calledMoves` is what a screen lists as "go now", on a staff browser too.

/** The moves of the plan the floor has called, in the plan's order. */
export function calledMoves(conn) {
  return (conn.plan.moves || []).filter((m) => m.called > 0);
}

/** A planned move's state as the staff see it: "planned", "called" or "called_again". */
export function moveState(m) {
  if (!m.called) return "planned";
  return m.called > 1 ? "called_again" : "called";
}

/** The name a board line is shown with: the player's name as the state holds it now, else
 * as the line has it (a follower holds no other player), else their id. */
export function entryName(conn, entry) {
  if (entry.player == null) return "";
  return conn.state?.players?.[entry.player]?.name ?? entry.name ?? conn.names?.[entry.player] ?? entry.player;
}

/** A line of the server's board as the screens read one: absent keys null, `at` in ms. */
function serverEntry(e) {
  return {
    player: null, name: null, from: null, to: null, reason: null, table: null, seat: null,
    ...e, at: e.at != null ? e.at * 1000 : null, live: true,
  };
}

export class Board {
  constructor(conn, { limit = 80 } = {}) {
    this.conn = conn;
    this.limit = limit;
    this.entries = [];
    this._seen = new Set();
    // The last call of each player's move ({seq, table, seat}): a cancel after it calls it off.
    this._calls = new Map();
    this._listeners = [];
    this._filled = false;
    // The server's board last taken (follow mode), and whether the lines are the server's.
    this._server = null;
    this._followed = false;
    conn.on("change", () => {
      if (conn.following != null) this._take();
    });
    conn.on("snapshot", () => {
      if (conn.following != null) return this._take();
      if (this._followed) {
        // Back to the room: its board is folded here again, from the recent past.
        this._followed = false;
        this._server = null;
        this._reset();
      }
      // A tournament started over (a new log with lower numbers): forget the old board.
      if (this.entries.length && conn.seq < this.entries[0].seq) this._reset();
      this._backfill();
    });
    conn.on("events", (events) => {
      if (conn.following != null) return;
      const at = conn.now();
      // The seq of each event is its position in the batch that was applied.
      const base = conn.seq - events.length + 1;
      events.forEach((e, i) => this._add(e, base + i, at, true));
      if (events.length) this._changed();
    });
  }

  onChange(fn) {
    this._listeners.push(fn);
  }

  _reset() {
    this.entries = [];
    this._seen.clear();
    this._calls.clear();
    this._filled = false;
    this._changed();
  }

  /** Follow mode: the server's board, when it sent another. */
  _take() {
    const lines = this.conn.board;
    if (!lines || lines === this._server) return;
    this._server = lines;
    this._followed = true;
    this._filled = false;
    this._calls.clear();
    this.entries = lines.map(serverEntry);
    this._seen = new Set(this.entries.map((e) => e.key));
    this._changed();
  }

  _changed() {
    this.entries.sort((a, b) => b.seq - a.seq);
    if (this.entries.length > this.limit) {
      for (const e of this.entries.splice(this.limit)) this._seen.delete(e.key);
    }
    for (const fn of this._listeners) fn(this);
  }

  _add(event, seq, at, live) {
    const push = (entry, i = 0) => {
      const key = `${seq}.${i}`;
      if (this._seen.has(key)) return;
      this._seen.add(key);
      // The server's instant when the event has one (moves do), else when it arrived here.
      const when = event.at ? event.at * 1000 : live ? at : null;
      this.entries.push({ ...entry, key, seq, at: when, live });
    };
    switch (event.type) {
      case "players_moved":
        event.moves.forEach((m, i) => {
          this._calls.delete(m.player);
          push({ kind: "move", player: m.player, from: m.from, to: m.to, reason: event.reason }, i);
        });
        break;
      case "player_busted":
        this._calls.delete(event.player);
        break;
      case "moves_called":
        event.calls.forEach((c, i) => {
          this._calls.set(c.player, { seq, table: c.to.table, seat: c.to.seat ?? null });
          // A first call is on the board as a move to make; a second is a change.
          if ((c.count ?? 1) > 1) {
            push({ kind: "recalled", player: c.player, table: c.to.table, seat: c.to.seat ?? null }, i);
          }
        });
        break;
      case "calls_lapsed":
        event.players.forEach((player, i) => this._callOff(player, seq, push, i));
        break;
      case "move_cancelled":
        if (event.player != null) this._callOff(event.player, seq, push);
        break;
      case "ruling_recorded":
        // A sit-out and a disqualification are the room's business (rulings.js).
        event.penalties.filter((p) => p.kind !== "warning").forEach((p, i) => push({
          kind: p.kind === "sit_out" ? "sit_out" : "disqualified", player: p.player, ...this._seatOf(p.player),
        }, i));
        break;
      case "sit_out_ended":
        push({ kind: "sit_out_over", player: event.player, ...this._seatOf(event.player) });
        break;
      case "table_breaking":
        push({ kind: "breaking", table: event.table });
        break;
      case "table_broken":
        push({ kind: "broken", table: event.table });
        break;
      case "final_table_formed":
        push({ kind: "final", table: event.table });
        break;
      default:
        break;
    }
  }

  /** Where `player` sits now ({table, seat}; null once out). */
  _seatOf(player) {
    const p = this.conn.state?.players?.[player];
    return { table: p?.table ?? null, seat: p?.seat ?? null };
  }

  _callOff(player, seq, push, i = 0) {
    const call = this._calls.get(player);
    if (!call || call.seq > seq) return;
    this._calls.delete(player);
    push({ kind: "called_off", player, table: call.table, seat: call.seat }, i);
  }

  async _backfill() {
    if (this._filled) return;
    this._filled = true;
    try {
      // The server's board (floor/engine/board.py), folded there from every event: reading
      // the events back cost every screen that joined a read of the log.
      const r = await fetch(`/api/t/${encodeURIComponent(this.conn.tid)}/board`, { credentials: "same-origin" });
      if (!r.ok) return;
      const answer = await r.json();
      if (this.conn.following != null) return; // switched to following one player meanwhile
      for (const line of answer.board || []) {
        if (this._seen.has(line.key)) continue;
        this._seen.add(line.key);
        this.entries.push({ ...serverEntry(line), live: false });
      }
      // The moves called before this screen joined: a lapse or cancel of one calls it off.
      for (const m of calledMoves(this.conn)) {
        if (m.player && !this._calls.has(m.player)) {
          this._calls.set(m.player, { seq: this.conn.seq, table: m.to.table, seat: m.to.seat ?? null });
        }
      }
      this._changed();
    } catch (err) {
      this._filled = false;
    }
  }
}
