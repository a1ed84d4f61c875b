// @ts-check
// The protocol these modules speak, and the reload when the server speaks another.
//
// Walls and phones stay open for days, across an upgrade: a page whose modules were written
// for other messages than the server now sends would show a wrong room, or none. The server
// says its version in `hello` (floor/protocol.py PROTOCOL_VERSION); a page of another one
// loads itself again and so takes the new modules (served with `no-cache`: revalidated).
// A page that already reloaded for that version within a minute waits for a later hello
// rather than reload in a loop (a proxy still serving the old modules, a server of the old
// version during a rolling upgrade).

/** @import { Hello } from "./protocol.js" */

/** Checked by tsc against the server's, written into protocol.d.ts by
 * scripts/protocol_types.py: change both together.
 * @type {import("./protocol.js").ProtocolVersion} */
export const PROTOCOL_VERSION = 1;

const KEY = "floor.reloaded-for";
const AGAIN_AFTER_MS = 60_000;

/**
 * @typedef {object} ReloadOptions
 * @property {Pick<Storage, "getItem" | "setItem" | "removeItem">} [storage]
 * @property {() => void} [reload]
 * @property {() => number} [now]
 */

/**
 * Reload the page when the server greets it with another protocol version.
 * @param {{ on(kind: "hello", fn: (msg: Hello) => void): unknown }} conn
 * @param {ReloadOptions} [options]
 */
export function reloadOnUpgrade(conn, options = {}) {
  const storage = options.storage ?? window.sessionStorage;
  const reload = options.reload ?? (() => window.location.reload());
  const now = options.now ?? Date.now;
  conn.on("hello", (msg) => {
    // A server older than versions sends none: nothing to compare, nothing to reload.
    if (typeof msg.version !== "number") return;
    if (msg.version === PROTOCOL_VERSION) {
      storage.removeItem(KEY);
      return;
    }
    const last = lastReload(storage.getItem(KEY));
    if (last && last.version === msg.version && now() - last.at < AGAIN_AFTER_MS) return;
    storage.setItem(KEY, JSON.stringify({ version: msg.version, at: now() }));
    reload();
  });
}

/**
 * @param {string | null} text
 * @returns {{ version: number, at: number } | null}
 */
function lastReload(text) {
  if (!text) return null;
  try {
    const value = JSON.parse(text);
    return typeof value?.version === "number" && typeof value?.at === "number" ? value : null;
  } catch {
    return null;
  }
}
