// @ts-check
// A panel of a screen, mounted: drawn now, again on the connection's events and on a change of
// language, and stopped when it is taken off the screen.
//
// `mount(el, conn, draw)` subscribes `draw` to the connection's "change" (or the `on` given)
// and to the language, and returns `stop`, which unsubscribes both. A panel whose element has
// left the document (after being in it) stops by itself at the next event, so a panel that is
// dropped by re-rendering its parent does not go on drawing into nothing. Panels that live as
// long as the page simply never stop.

import { onLang } from "./i18n.js";

/** @typedef {(...args: any[]) => void} Listener */

/**
 * The part of a connection a panel needs: conn.js's `Connection`.
 * @typedef {{ on(kind: string, fn: Listener): unknown, off(kind: string, fn: Listener): unknown }} Source
 */

/**
 * @typedef {object} MountOptions
 * @property {(keyof import("./types.js").ConnEvents)[]} [on] the connection's events that redraw (default: "change")
 * @property {boolean} [lang] redraw when the language changes (default: true)
 * @property {boolean} [now] draw at once (default: true)
 */

/**
 * @param {Element} el the panel's element: it stops once it has left the document
 * @param {Source} conn
 * @param {Listener} draw called with what the event carries
 * @param {MountOptions} [options]
 * @returns {() => void} stop: unsubscribe
 */
export function mount(el, conn, draw, { on = ["change"], lang = true, now = true } = {}) {
  let seen = el.isConnected;
  let stopped = false;
  /** @type {Listener} */
  const listener = (...args) => {
    if (stopped) return;
    if (el.isConnected) seen = true;
    else if (seen) return stop();
    draw(...args);
  };
  const unlang = lang ? onLang(() => listener()) : () => {};
  for (const kind of on) conn.on(kind, listener);
  function stop() {
    if (stopped) return;
    stopped = true;
    for (const kind of on) conn.off(kind, listener);
    unlang();
  }
  if (now) draw();
  return stop;
}
