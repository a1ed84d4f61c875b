// @ts-check
// The connection to one tournament: the websocket protocol of docs/protocol.md.
//
// A screen starts from the packed snapshot over HTTP (`GET /api/t/{id}/snapshot`, gzipped:
// 120 KB at 10,000 players, where the websocket's full snapshot is 2.6 MB), then opens the
// websocket with `?since=<its seq>`, which brings it to the current version from the batches
// the server holds. On the websocket:
// hello (server time) → (snapshot →) events batches. Each batch carries what its events
// changed in the state, as a JSON Patch for this screen's role (patch.js): the screen applies
// it and folds no event (the events stay for sounds and alerts). On a gap it asks for
// `resync`; a batch whose patch does not apply means its copy is no longer the server's: it
// asks for a fresh snapshot and applies nothing until it comes; it reconnects by itself with
// exponential backoff and `?since=<seq>`; three heartbeats of silence count as a dead
// connection. The status is exposed for the indicator every screen shows ("live",
// "connecting", "reconnecting", "offline", "missing").
//
// Follow mode (`new Connection(tid, { follow: pid })`, or `follow(pid)` in place): a phone that
// follows one player is not sent the room. No snapshot over HTTP: the websocket
// `/ws/t/{id}/follow/{pid}` sends `hello`, then `follow` messages, each with whole parts
// (`static`, `room`, `me`; floor/engine/read/follow.py) that replace the ones held. They are put
// together into the fields every screen reads (`state` shaped as a state holding that player
// and their table alone, `plan` with their called move, `stats`, `facts`, `views`), with the
// server's board (`board`) and the chip leaders' names (`names`). Each message is whole, so
// there is no gap to mend: `resync()` asks for every part again. "follow" is emitted with the
// `me` held before and the one now, for a page to tell that the player has been moved.

import { merge } from "./facts.js";
import { applyPatch } from "./patch.js";
/** @import { BoardEntry, Facts, FieldStats, FollowMe, Plan, Player, SnapshotOut, StaffFacts, TableView, TournamentState } from "./protocol.js" */
/** @import { ConnEvents, ConnStatus, FollowMessage, FollowParts, Listener, PackedSnapshot, Received } from "./types.js" */

const decoder = new TextDecoder();

export class Connection {
  /**
   * @param {string} tid
   * @param {{ path?: string, api?: string, follow?: string | null }} [options]
   */
  constructor(tid, { path = "/ws/t/", api = "/api/t/", follow = null } = {}) {
    this.tid = tid;
    this.path = path;
    this.api = api;
    // The player followed (follow mode), null: the whole room.
    /** @type {string | null} */
    this.following = follow ?? null;
    // Follow mode: the parts last sent ({static, room, me}), the board and the leaders' names.
    /** @type {FollowParts} */
    this._parts = {};
    /** @type {FollowMe | null} */
    this.me = null;
    /** @type {BoardEntry[] | null} */
    this.board = null;
    /** @type {Record<string, string>} */
    this.names = {};
    this._fresh = false;
    /** @type {TournamentState | null} */
    this.state = null;
    /** @type {Plan} */
    this.plan = { moves: [], halted: [], final_table: null };
    /** @type {FieldStats | null} */
    this.stats = null;
    // What the server derives from the rules (facts.js): for every screen, and for the staff.
    /** @type {Facts | null} */
    this.facts = null;
    /** @type {StaffFacts | null} */
    this.staff = null;
    /** @type {TableView[]} */
    this.tables = [];
    // The server's view of each table (status, next big blind, waiting players), by number:
    // all of them from a snapshot, then those each batch touched.
    /** @type {Map<number, TableView>} */
    this.views = new Map();
    this.seq = -1;
    this.offsetMs = 0;
    this.role = "public";
    /** @type {string | null} */
    this.username = null;
    /** @type {number | null} */
    this.table = null;
    /** @type {ConnStatus} */
    this.status = "connecting";
    /** @type {number | null} */
    this.lastLive = null;
    this.lastHeard = 0;
    this.heartbeatMs = 10000;
    this._heartbeatTold = false;
    /** @type {number[]} */
    this._beats = [];
    /** @type {Record<string, Listener[]>} */
    this._listeners = {};
    /** @type {WebSocket | null} */
    this._ws = null;
    this._openedAt = 0;
    this._attempt = 0;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this._timer = undefined;
    /** The snapshot being read over HTTP (a read started since makes it stale).
     * @type {object | null} */
    this._fetching = null;
    this._resyncAt = 0;
    // Set while a fresh snapshot is awaited: batches are not applied meanwhile.
    /** @type {ReturnType<typeof setTimeout> | null} */
    this._stale = null;
    this._stopped = false;
    /** @type {ReturnType<typeof setInterval> | null} */
    this._watchdog = null;
  }

  /**
   * @template {keyof ConnEvents} K
   * @param {K} kind
   * @param {(...args: ConnEvents[K]) => void} fn
   */
  on(kind, fn) {
    (this._listeners[kind] ||= []).push(fn);
    return this;
  }

  /** Stop calling `fn` for `kind` (a panel taken off the screen: mount.js).
   * @template {keyof ConnEvents} K
   * @param {K} kind
   * @param {(...args: ConnEvents[K]) => void} fn
   */
  off(kind, fn) {
    const list = this._listeners[kind];
    if (list) this._listeners[kind] = list.filter((f) => f !== fn);
    return this;
  }

  /**
   * @template {keyof ConnEvents} K
   * @param {K} kind
   * @param {ConnEvents[K]} args
   */
  _emit(kind, ...args) {
    for (const fn of this._listeners[kind] || []) {
      try {
        fn(...args);
      } catch (err) {
        console.error(`listener for ${kind} failed`, err);
      }
    }
  }

  /** Milliseconds since the epoch on the server's clock. */
  now() {
    return Date.now() + this.offsetMs;
  }

  nowSec() {
    return this.now() / 1000;
  }

  start() {
    this._stopped = false;
    window.addEventListener("online", () => this.reconnect(true));
    window.addEventListener("offline", () => this._setStatus("offline"));
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible" && this._dead()) this.reconnect(true);
    });
    this._watchdog = setInterval(() => {
      const ws = this._ws;
      if (!ws) return;
      if (ws.readyState === WebSocket.OPEN && this._dead()) this._drop("no heartbeat");
      else if (ws.readyState === WebSocket.CONNECTING && Date.now() - this._openedAt > 15000) {
        this._drop("connecting took too long");
      }
    }, 1000);
    this._open();
    return this;
  }

  stop() {
    this._stopped = true;
    if (this._watchdog != null) clearInterval(this._watchdog);
    this._watchdog = null;
    clearTimeout(this._timer);
    if (this._ws) this._ws.close(1000, "bye");
  }

  /** Close and connect again now (after a sign-in, a network change).
   * @param {boolean} [now]
   */
  reconnect(now = false) {
    if (this._stopped) return;
    if (now) this._attempt = 0;
    clearTimeout(this._timer);
    this._fetching = null;
    if (this._ws) {
      const ws = this._ws;
      this._ws = null;
      ws.onclose = null;
      ws.close(1000, "reconnecting");
    }
    this._open();
  }

  /** Follow player `pid` (follow mode), or the whole room again (null): connects again, the
   * listeners stay. What is held stays on screen until the new connection's first message.
   * @param {string | null | undefined} pid
   */
  follow(pid) {
    const next = pid ?? null;
    if (next === this.following) return;
    this.following = next;
    this._parts = {};
    this.me = null;
    // The room's copy is folded from a snapshot: it starts again from one (a follow copy is
    // no base for the room's batches).
    this.seq = -1;
    if (this._stale != null) clearTimeout(this._stale);
    this._stale = null;
    if (this._watchdog == null) return; // not started: start() connects
    this._setStatus("connecting");
    this.reconnect(true);
  }

  /** Ask for what this screen holds again: every part (follow mode), a snapshot (the room). */
  resync() {
    if (this.following != null) return this.send({ type: "resync" });
    return this.send({ type: "resync", snapshot: true });
  }

  /** @param {import("./protocol.js").ClientMessage} message */
  send(message) {
    if (this._ws && this._ws.readyState === WebSocket.OPEN) {
      this._ws.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  _dead() {
    return Date.now() - this.lastHeard > 3 * this.heartbeatMs + 2000;
  }

  /** @param {ConnStatus} status */
  _setStatus(status) {
    if (status === this.status) return;
    if (this.status === "live") this.lastLive = Date.now();
    this.status = status;
    this._emit("status", status);
  }

  _url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const base = `${scheme}//${location.host}${this.path}${encodeURIComponent(this.tid)}`;
    if (this.following != null) return `${base}/follow/${encodeURIComponent(this.following)}`;
    const since = this.seq >= 0 ? `&since=${this.seq}` : "";
    return `${base}?packed=1${since}`;
  }

  _open() {
    if (!navigator.onLine) this._setStatus("offline");
    else if (this.status !== "connecting" && this.status !== "missing") {
      this._setStatus("reconnecting");
    }
    // Following one player: no room to fetch, every part comes on the socket.
    if (this.following == null && this.seq < 0) this._fetchSnapshot();
    else this._openSocket();
  }

  /** Start from the snapshot over HTTP (gzipped, shared by every screen of our role), then
   * the websocket from its number. Should the read fail, the websocket sends a snapshot (a
   * public edge's says where to read it instead: `fetch_snapshot`). */
  async _fetchSnapshot() {
    const fetching = (this._fetching = {});
    const msg = await this._readSnapshot();
    if (fetching !== this._fetching || this._stopped) return;
    this._fetching = null;
    if (msg === "missing") {
      this._setStatus("missing");
      this._schedule(30000);
      return;
    }
    if (msg && msg.type === "snapshot") this._snapshot(msg, false);
    this._openSocket();
  }

  /** The snapshot over HTTP: the message, "missing" (404), or null when it cannot be read.
   * @returns {Promise<Received | "missing" | null>}
   */
  async _readSnapshot() {
    // A read that hangs (a captive portal, a dying wifi) gives way to the websocket.
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), 15000);
    try {
      const r = await fetch(`${this.api}${encodeURIComponent(this.tid)}/snapshot`, {
        cache: "no-store",
        credentials: "same-origin",
        signal: abort.signal,
      });
      if (r.status === 404) return "missing";
      return r.ok ? await r.json() : null;
    } catch (err) {
      return null;
    } finally {
      clearTimeout(timer);
    }
  }

  /** The server sends no snapshot on this socket (a public edge): read it over HTTP, then
   * ask the socket for what came after it. Unreadable: reconnect later, from the start. */
  async _fetchInPlace() {
    const ws = this._ws;
    const msg = await this._readSnapshot();
    if (ws !== this._ws || this._stopped) return;
    if (msg && msg !== "missing" && msg.type === "snapshot") {
      this._snapshot(msg, true);
      this.send({ type: "resync", since: this.seq });
    } else {
      this.seq = -1;
      this._drop("the snapshot could not be read");
    }
  }

  _openSocket() {
    let ws;
    try {
      ws = new WebSocket(this._url());
    } catch (err) {
      this._schedule();
      return;
    }
    ws.binaryType = "arraybuffer";
    this._ws = ws;
    this._fresh = true;
    this._openedAt = Date.now();
    this.lastHeard = Date.now();
    ws.onmessage = (ev) => {
      if (ws !== this._ws) return;
      this.lastHeard = Date.now();
      /** @type {Received} */
      let msg;
      try {
        msg = JSON.parse(typeof ev.data === "string" ? ev.data : decoder.decode(ev.data));
      } catch (err) {
        console.warn("unreadable frame", err);
        return;
      }
      this._message(msg);
    };
    ws.onclose = (ev) => {
      if (ws !== this._ws) return;
      this._ws = null;
      if (ev.code === 4004) {
        this._setStatus("missing");
        this._schedule(30000);
        // Following: the tournament or the player followed is not there (the reason says).
        this._emit("missing", ev.reason || "", this.following);
        return;
      }
      // Signed out (or the account removed): what staff were shown must not stay on the
      // screen, so the reconnection (as the public) asks for a fresh snapshot.
      if (ev.code === 4001) this.seq = -1;
      this._setStatus(navigator.onLine ? "reconnecting" : "offline");
      this._schedule();
    };
    ws.onerror = () => {
      /* onclose follows */
    };
  }

  /** @param {string} reason */
  _drop(reason) {
    const ws = this._ws;
    this._ws = null;
    if (ws) {
      ws.onclose = null;
      try {
        ws.close(4000, reason);
      } catch (err) {
        /* already closing */
      }
    }
    this._setStatus(navigator.onLine ? "reconnecting" : "offline");
    this._schedule();
  }

  /** @param {number} [fixed] */
  _schedule(fixed) {
    if (this._stopped) return;
    clearTimeout(this._timer);
    const base = Math.min(15000, 500 * 2 ** this._attempt);
    const delay = fixed ?? base * (0.75 + Math.random() * 0.5);
    this._attempt = Math.min(this._attempt + 1, 8);
    this._timer = setTimeout(() => this._open(), delay);
  }

  /** @param {number | undefined} serverTime */
  _heard(serverTime) {
    if (typeof serverTime === "number") this.offsetMs = serverTime * 1000 - Date.now();
  }

  /** @param {Received} msg */
  _message(msg) {
    switch (msg.type) {
      case "hello":
        this._heard(msg.server_time);
        this.role = msg.role;
        this.username = msg.username ?? null;
        this.table = msg.table ?? null;
        // The server says how often it beats; three missed beats mean a dead connection.
        if (typeof msg.heartbeat === "number" && msg.heartbeat > 0) {
          this.heartbeatMs = msg.heartbeat * 1000;
          this._heartbeatTold = true;
        }
        if (msg.role === "public") {
          this.staff = null;
        } else if (this.state && !this.staff) {
          // The copy we hold is the public's (read before signing in, or over HTTP without
          // the session): the staff's facts come with a fresh snapshot, not with the next
          // batch, which may be a long time coming.
          this.resnapshot(`signed in as ${msg.role} on a public snapshot`);
          this._emit("hello", msg);
          break;
        }
        // Reconnected with nothing missed: the server sends no batch, and we are up to date.
        // (Following: every part comes next, and with it the status.)
        if (this.state && this.following == null) this._live();
        this._emit("hello", msg);
        break;
      case "snapshot":
        if (this.following == null) this._snapshot(msg, true);
        break;
      case "fetch_snapshot":
        if (this.following == null) this._fetchInPlace();
        break;
      case "events":
        if (this.following == null) this._events(msg);
        break;
      case "follow":
        if (this.following != null) this._follow(msg);
        break;
      case "heartbeat": {
        this._heard(msg.server_time);
        const now = Date.now();
        this._beats.push(now);
        if (this._beats.length > 4) this._beats.shift();
        if (!this._heartbeatTold && this._beats.length >= 2) {
          const gaps = this._beats.slice(1).map((t, i) => t - this._beats[i]);
          this.heartbeatMs = Math.max(2000, Math.min(60000, Math.max(...gaps)));
        }
        if (this.state && (this.following == null || this.me)) this._live();
        this._emit("heartbeat", msg);
        break;
      }
      case "pong":
        this._heard(msg.server_time);
        break;
      case "result":
        this._emit("result", msg);
        break;
      default:
        break;
    }
  }

  /** Take a snapshot (from the websocket: `live`; over HTTP the websocket is still to come).
   * @param {SnapshotOut | PackedSnapshot} msg
   * @param {boolean} live
   */
  _snapshot(msg, live) {
    this.state = "packed" in msg && msg.packed ? unpack(msg) : msg.state;
    this.plan = msg.plan;
    this.stats = msg.stats;
    this.facts = msg.facts ?? null;
    this.staff = msg.staff ?? null;
    this.tables = msg.tables || [];
    this.views = new Map(this.tables.map((v) => [v.table, v]));
    this.seq = msg.seq;
    this._resyncAt = 0;
    if (this._stale != null) clearTimeout(this._stale);
    this._stale = null;
    if (live) this._live();
    this._emit("snapshot", this);
    this._emit("change", this, []);
  }

  /** A follow message: its parts replace the ones held, and the screens' fields are put
   * together from them.
   * @param {FollowMessage} msg
   */
  _follow(msg) {
    if (msg.tournament != null && msg.tournament !== this.tid) return;
    const before = this._parts.me ?? null;
    if (msg.static) this._parts.static = msg.static;
    if (msg.room) this._parts.room = msg.room;
    if (msg.me) this._parts.me = msg.me;
    const { static: st, room, me } = this._parts;
    // The first message after connecting holds every part: until then nothing is shown.
    if (!st || !room || !me) return;
    this.seq = msg.seq;
    this.me = me;
    this.state = followState(this.tid, st, room, me);
    this.plan = { moves: me.move ? [me.move] : [], halted: me.halt ? [me.halt] : [], final_table: room.final_table };
    this.stats = room.stats;
    this.facts = { ...room.facts, steps: st.steps };
    this.staff = null;
    this.tables = me.view ? [me.view] : [];
    this.views = new Map(this.tables.map((v) => [v.table, v]));
    this.board = room.board || [];
    this.names = room.names || {};
    this._live();
    const fresh = this._fresh;
    this._fresh = false;
    if (fresh) this._emit("snapshot", this);
    if ("me" in msg) this._emit("follow", before, me, this);
    this._emit("change", this, []);
  }

  _live() {
    this._attempt = 0;
    this._setStatus("live");
  }

  /** Our copy no longer matches the server's: ask for a fresh snapshot (over a fresh
   * connection if this one cannot ask, or no snapshot comes).
   * @param {string} why
   */
  resnapshot(why) {
    console.warn("asking for a fresh snapshot:", why);
    if (this.following != null) {
      // Each follow message is whole: every part again is the fresh copy.
      if (!this.resync()) this.reconnect(true);
      return;
    }
    if (this._stale) return;
    this._stale = setTimeout(() => this._startOver(), 10000);
    this._emit("stale", why);
    if (!this.send({ type: "resync", snapshot: true })) this._startOver();
  }

  _startOver() {
    if (this._stale != null) clearTimeout(this._stale);
    this._stale = null;
    this.seq = -1;
    this.reconnect(true);
  }

  /** @param {import("./protocol.js").EventsIn} msg */
  _events(msg) {
    if (!this.state || this._stale || msg.to <= this.seq) return;
    if (msg.from > this.seq + 1) {
      // A gap: ask for what we missed (once in a while, not for every later batch).
      if (Date.now() - this._resyncAt > 5000) {
        this._resyncAt = Date.now();
        this.send({ type: "resync", since: this.seq });
      }
      return;
    }
    if (msg.from <= this.seq || !Array.isArray(msg.patch)) {
      // Part of it held already, or no patch (a tournament's first batch): not ours to mend.
      this.resnapshot(`batch ${msg.from}-${msg.to} cannot be applied to ${this.seq}`);
      return;
    }
    try {
      applyPatch(this.state, msg.patch);
    } catch (err) {
      // Part of the patch may be applied: nothing of it is shown, the snapshot replaces it.
      this.resnapshot(`batch ${msg.from}-${msg.to} does not apply: ${err}`);
      return;
    }
    this.seq = msg.to;
    const applied = msg.events.map((x) => x.event);
    if (msg.plan) this.plan = msg.plan;
    if (msg.stats) this.stats = msg.stats;
    this.facts = merge(this.facts, msg.facts);
    this.staff = merge(this.staff, msg.staff);
    for (const v of msg.tables || []) this.views.set(v.table, v);
    this._resyncAt = 0;
    this._live();
    this._emit("events", applied, this);
    this._emit("change", this, applied);
  }
}

/** A state as the screens read it, from the parts a follower is sent: the tournament, the
 * clock, the followed player and their table alone; what a follower is not sent is empty.
 * @param {string} tid
 * @param {import("./protocol.js").FollowStatic} st
 * @param {import("./protocol.js").FollowRoom} room
 * @param {FollowMe} me
 * @returns {TournamentState}
 */
function followState(tid, st, room, me) {
  /** @type {TournamentState["players"]} */
  const players = {};
  /** @type {TournamentState["tables"]} */
  const tables = {};
  if (me.player) players[me.player.id] = me.player;
  if (me.table) tables[me.table.number] = me.table;
  return {
    id: tid,
    name: st.name,
    rules: st.rules,
    structure: st.structure,
    created_at: 0,
    tables,
    players,
    draws: {},
    calls: {},
    final_table: room.final_table ?? null,
    final_seats: 0,
    final_drawn: false,
    current_game: room.current_game,
    clock: room.clock,
    time_calls: [],
    drawn: true,
    busted: 0,
    entries: room.stats?.entries ?? 0,
    rebuys: room.stats?.rebuys ?? 0,
    add_ons: room.stats?.add_ons ?? 0,
    chips_added: 0,
    chip_races: [],
    field_history: [],
    level_history: [],
    unregistered: 0,
    renamed: 0,
    winner: room.facts?.winner?.player ?? null,
    finished_at: null,
    closed_at: null,
    rulings: { made: [], sit_outs: [], disqualified: {} },
    flight: null,
    // The sheets' times alone: the night's counts are read from the server (flights.js).
    bags: Object.fromEntries(Object.entries(room.bagged || {}).map(([n, at]) => [n, {
      type: "table_bagged", table: Number(n), at, bags: [], chips_on_table: null, reason: null,
    }])),
    day_ended: room.day_ended ?? null,
    announcement: room.announcement ?? null,
    carried: null,
    hand_for_hand: null,
    // A follower's board is the lines it is sent (`conn.board`; board.js reads those).
    board: { lines: [], calls: {}, count: 0 },
    // A deal reaches a follower as their prize (`me.player`), not as the room's offer.
    deal_offer: null,
    deal: null,
    bounties: null,
    // The committed draws are the room's; the followed player's record names their own draw.
    fair: null,
    // The alternates' line is the room's (the wall, the line's own page), not a follower's.
    alternates: { capacity: null, line: [], issued: 0, seated: 0, lapsed: 0, refunded: 0 },
    satellite_end: null,
    seats_issued: null,
    seats_won: 0,
    chips_out: 0,
    seat_awards: 0,
  };
}

/** The state of a packed snapshot (floor/server/views.py), whole: each player is the server's
 * `player_defaults` with the player's own fields over them, and sits in their table's
 * `occupants` (the packed state sends both empty).
 * @param {PackedSnapshot} msg
 * @returns {TournamentState}
 */
export function unpack(msg) {
  const state = msg.state;
  /** @type {Record<string, unknown>} */
  const defaults = msg.player_defaults || {};
  // A default that is an object (none today) must not be one object shared by every player.
  const nested = Object.keys(defaults).filter((k) => defaults[k] !== null && typeof defaults[k] === "object");
  /** @type {Record<string, Player>} */
  const players = {};
  for (const packed of msg.players) {
    const p = /** @type {Player & Record<string, unknown>} */ ({ ...defaults, ...packed });
    for (const key of nested) if (!(key in packed)) p[key] = structuredClone(defaults[key]);
    players[p.id] = p;
    if (p.table != null && p.seat != null) state.tables[p.table].occupants[p.seat] = p.id;
  }
  state.players = players;
  return state;
}

/** The state a panel reads that is drawn once its connection holds one (after the first
 * snapshot or follow message): a panel drawn before is a bug, said as one, not a state to draw.
 * @param {Connection} conn
 * @returns {TournamentState}
 */
export function heldState(conn) {
  if (!conn.state) throw new Error("no state yet: drawn before the connection's first snapshot");
  return conn.state;
}

/** The tournament id of a page served at /wall/{tid}, /floor/{tid}, /player/{tid}. */
export function tidFromPath() {
  const parts = location.pathname.split("/").filter(Boolean);
  return decodeURIComponent(parts[1] || new URLSearchParams(location.search).get("t") || "");
}

/** The status of each table as screens show it: halted follows from the plan.
 * @param {Connection} conn
 */
export function tableViews(conn) {
  const s = conn.state;
  if (!s) return [];
  const halted = new Map((conn.plan.halted || []).map((h) => [h.table, h]));
  return Object.values(s.tables)
    .map((t) => {
      /** @type {TableView["status"]} */
      let status = t.status;
      if (status === "open" && halted.has(t.number)) status = "halted";
      const view = conn.views?.get(t.number);
      return {
        nextBigBlind: view?.next_big_blind ?? null,
        // The seat the dealer button sits on now (after a button report: the seat reported).
        button: view?.button ?? null,
        waiting: view?.waiting ?? [],
        // The step the hand in progress still plays (a level change applies from the next).
        oldStep: view?.old_step ?? null,
        // The players whose count is old, and why (floor/engine/count_age.py).
        oldCounts: view?.old_counts ?? {},
        table: t.number,
        seats: t.seats,
        status,
        players: Object.keys(t.occupants).length,
        final: s.final_table === t.number,
        halt: halted.get(t.number) || null,
      };
    })
    .sort((a, b) => a.table - b.table);
}
