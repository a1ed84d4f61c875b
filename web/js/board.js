// The board of seat changes players read to find their new seat: the moves carried out
// (`players_moved`), tables breaking and the final table, newest first. On joining, the recent
// past is read once from GET /api/t/{tid}/events so a screen switched on mid-day is not empty.

const BACKFILL = 1500;

export class Board {
  constructor(conn, { limit = 80 } = {}) {
    this.conn = conn;
    this.limit = limit;
    this.entries = [];
    this._seen = new Set();
    this._listeners = [];
    this._filled = false;
    conn.on("snapshot", () => {
      // A tournament started over (a new log with lower numbers): forget the old board.
      if (this.entries.length && conn.seq < this.entries[0].seq) {
        this.entries = [];
        this._seen.clear();
        this._filled = false;
        this._changed();
      }
      this._backfill();
    });
    conn.on("events", (events) => {
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
        event.moves.forEach((m, i) =>
          push({ kind: "move", player: m.player, from: m.from, to: m.to, reason: event.reason }, i),
        );
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

  async _backfill() {
    if (this._filled) return;
    this._filled = true;
    const since = Math.max(0, this.conn.seq - BACKFILL);
    try {
      const r = await fetch(
        `/api/t/${encodeURIComponent(this.conn.tid)}/events?since=${since}`,
        { credentials: "same-origin" },
      );
      if (!r.ok) return;
      const batch = await r.json();
      for (const { seq, event } of batch.events || []) this._add(event, seq, null, false);
      this._changed();
    } catch (err) {
      this._filled = false;
    }
  }
}
