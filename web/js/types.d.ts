// Types the screens' modules share, beside the protocol's (protocol.d.ts, generated).

import type { Command } from "./protocol";

/** conn.js's Connection, as the panels read it (its state, plan, facts and views, `on`,
 * `off`): its own types come with conn.js once the server-side fold has landed there. */
export type Conn = any;

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
