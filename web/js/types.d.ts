// Types the screens' modules share, beside the protocol's (protocol.d.ts, generated).

import type { Connection } from "./conn.js";
import type {
  Command,
  Event,
  Heartbeat,
  Hello,
  Result,
  FollowMe,
  FollowRoom,
  FollowStatic,
  Player,
  ServerMessage,
  SnapshotOut,
} from "./protocol";

/** The connection to one tournament (conn.js), as every panel reads it. */
export type Conn = import("./conn.js").Connection;

/** What the indicator every screen shows says of the connection. */
export type ConnStatus = "live" | "connecting" | "reconnecting" | "offline" | "missing";

/** A listener of the connection's `on`: each kind is emitted with its own arguments. */
export type Listener = (...args: any[]) => void;

/** What the connection emits, and with what (conn.js `on`). */
export interface ConnEvents {
  /** After a snapshot, a batch applied or a follow message: the events applied (none but
   * a batch's). */
  change: [conn: Connection, events: Event[]];
  events: [events: Event[], conn: Connection];
  snapshot: [conn: Connection];
  status: [status: ConnStatus];
  hello: [msg: Hello];
  heartbeat: [msg: Heartbeat];
  result: [msg: Result];
  /** The tournament (or the player followed) is not there: the server's reason. */
  missing: [reason: string, following: string | null];
  stale: [why: string];
  follow: [before: FollowMe | null, me: FollowMe, conn: Connection];
}

/** A snapshot with its players packed (`?packed=1`, and over HTTP; floor/server/views.py):
 * each player only the fields away from `player_defaults`, no occupant in any table. */
export interface PackedSnapshot extends SnapshotOut {
  packed: true;
  players: (Partial<Player> & { id: string })[];
  player_defaults: Partial<Player>;
}

/** The parts of a follow message (/ws/t/{id}/follow/{player}; floor/server/follow_feed.py),
 * each sent again only when it changed. */
export interface FollowParts {
  static?: FollowStatic;
  room?: FollowRoom;
  me?: FollowMe;
}

/** A follow message: written by hand on the server, its parts typed by the schema. */
export interface FollowMessage extends FollowParts {
  type: "follow";
  tournament: string;
  seq: number;
}

/** What a connection reads from its websocket (or over HTTP, a packed snapshot). */
export type Received = ServerMessage | PackedSnapshot | FollowMessage;

/** A command as the outbox sends it: what the server's schema says a command is. */
export type { Command };

/** One command in the outbox (commands.js), with its fate. */
export interface OutboxItem {
  id: string;
  tid: string;
  command: Command;
  label: string;
  status: "pending" | "done" | "refused" | "signin" | "stale";
  created: number;
  tries: number;
  error: any;
  outcome?: { first: number; last: number; duplicate: boolean };
}

/** What the outbox answers a send with: the entry once answered (or held), or that it was
 * discarded by hand meanwhile. */
export type Sent = OutboxItem | { status: "discarded" };

/** Send a command through the outbox, with what the screen says it is. */
export type Send = (command: Command, label: string) => Promise<Sent>;

/** A step of a structure: a level or a break. */
export type Step = import("./protocol").Level | import("./protocol").Break;
