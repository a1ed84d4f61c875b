// @ts-check
// The installed app (player, floor and table pages): the manifest of this page, the service
// worker (/sw.js: the shell and the last public state for when the wifi drops), and what a
// sign-out leaves on a shared device (nothing of the day: web/sw.js).
//
// Following one player, the page's state comes on the websocket, which a service worker
// cannot see: the follow feed's last message is written where the worker keeps the public
// state (the answer of GET /api/t/{id}/follow/{player}), and read back from there when the
// page loads without a server.

import { getLang, onLang } from "./i18n.js";

const STATE_CACHE = "floor-state";

/** @import { Conn } from "./types.js" */

/** The manifest of this page (`kind`: player, floor or table; `table` for a table screen). */
function manifestHref(/** @type {string} */ kind, /** @type {string} */ tid, /** @type {number | null} */ table) {
  const base = `/app/${kind}/${encodeURIComponent(tid)}${table != null ? `/${table}` : ""}`;
  return `${base}/manifest.webmanifest?lang=${encodeURIComponent(getLang())}`;
}

/**
 * Make this page installable: its manifest, the service worker.
 * @param {string} kind
 * @param {string} tid
 * @param {number | null} [table]
 */
export function installable(kind, tid, table = null) {
  if (!tid) return;
  let link = /** @type {HTMLLinkElement | null} */ (document.querySelector('link[rel="manifest"]'));
  if (!link) {
    link = document.createElement("link");
    link.rel = "manifest";
    document.head.append(link);
  }
  link.href = manifestHref(kind, tid, table);
  onLang(() => {
    if (link) link.href = manifestHref(kind, tid, table);
  });
  if ("serviceWorker" in navigator) {
    // The first visit is read before any worker runs: it is asked to keep this page (and
    // the room's public state, for the player screen) once it does.
    const first = !navigator.serviceWorker.controller;
    // Asked again at every load (the script is served no-cache): a new release installs
    // itself and takes over.
    navigator.serviceWorker.register("/sw.js", { scope: "/" })
      .then(() => navigator.serviceWorker.ready)
      .then((registration) => {
        if (!first) return;
        const state = kind === "player" ? `/api/t/${encodeURIComponent(tid)}/snapshot` : null;
        registration.active?.postMessage({ type: "keep", page: location.pathname, state });
      })
      .catch((err) => console.warn("no service worker", err));
  }
}

/** The cache key of a follow feed's whole message (what its HTTP read answers). */
function followKey(/** @type {string} */ tid, /** @type {string} */ pid) {
  return `/api/t/${encodeURIComponent(tid)}/follow/${encodeURIComponent(pid)}`;
}

/**
 * Keep the follow feed's last state for a reload without the server, and bring it back then.
 * @param {Conn} conn
 */
export function keepFollowed(conn) {
  if (!("caches" in window)) return;
  let writing = false;
  let again = false;
  const save = async () => {
    if (writing) {
      again = true;
      return;
    }
    const pid = conn.following;
    const parts = conn._parts || {};
    if (pid == null || !parts.static || !parts.room || !parts.me) return;
    writing = true;
    try {
      const message = { type: "follow", tournament: conn.tid, seq: conn.seq, ...parts };
      const cache = await caches.open(STATE_CACHE);
      await cache.put(followKey(conn.tid, pid), new Response(JSON.stringify(message), {
        headers: { "Content-Type": "application/json" },
      }));
    } catch (err) {
      /* private mode, storage full: the next message tries again */
    } finally {
      writing = false;
      if (again) {
        again = false;
        save();
      }
    }
  };
  conn.on("follow", save);
  conn.on("change", () => {
    if (conn.following != null) save();
  });
  // Once the socket could not connect (or there is no network), the copy kept is shown.
  let tried = false;
  const maybe = (/** @type {string} */ status) => {
    if (tried || conn.state || (status !== "reconnecting" && status !== "offline")) return;
    tried = true;
    restore(conn);
  };
  conn.on("status", maybe);
  if (!navigator.onLine) maybe("offline");
}

/** No state yet and no server: the last follow message kept, shown as not live. */
async function restore(/** @type {Conn} */ conn) {
  const pid = conn.following;
  if (pid == null) return;
  let kept;
  try {
    // Through the service worker: its copy when the server does not answer.
    const answer = await fetch(followKey(conn.tid, pid), { cache: "no-store" });
    kept = answer.ok ? await answer.json() : null;
  } catch (err) {
    const cache = await caches.open(STATE_CACHE).catch(() => null);
    const answer = cache ? await cache.match(followKey(conn.tid, pid)) : null;
    kept = answer ? await answer.json().catch(() => null) : null;
  }
  if (!kept || kept.type !== "follow" || conn.state || conn.following !== pid) return;
  const status = conn.status;
  conn._message(kept);
  // What was kept is not live: the connection says so until the server answers.
  if (status !== "live") conn._setStatus(navigator.onLine ? "reconnecting" : "offline");
}

/** A sign-out on this device: the day's state goes, and this device's staff alerts stop
 * (before the session ends: stopping them is the staff member's own request). */
export async function forgetOnDevice() {
  try {
    const registration = "serviceWorker" in navigator ? await navigator.serviceWorker.getRegistration("/") : null;
    registration?.active?.postMessage({ type: "forget" });
    if ("caches" in window) await caches.delete(STATE_CACHE);
    const sub = await registration?.pushManager?.getSubscription();
    if (sub && localStorage.getItem("floor.push.staff") === sub.endpoint) {
      localStorage.removeItem("floor.push.staff");
      await fetch("/api/push/staff", {
        method: "DELETE",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ endpoint: sub.endpoint }),
      }).catch(() => undefined);
      // The browser's subscription stays: a player followed on this phone keeps theirs.
    }
  } catch (err) {
    /* nothing kept, or no service worker here */
  }
}
