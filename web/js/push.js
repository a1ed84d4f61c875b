// @ts-check
// Phone alerts by Web Push: one tap on the player screen (following one's own name) or on the
// floor phone (a floorperson's section), and one to stop. The service worker (/sw.js) shows
// each alert, in the language the phone opted in with, also with the page closed.
//
// Where a phone cannot be woken (a browser without push, an iPhone's page not added to the
// Home Screen, no https, a server that sends no pushes) the card says why: the page's own
// alerts stay (player.js), as do the table screens.

import { getLang, onLang, t } from "./i18n.js";
import { fill, h } from "./ui.js";

/** @typedef {{ status?: number, code?: string, message?: string }} Failure */

/** The server's VAPID key, once per page: `{key, enabled}`. */
let keyAsked = /** @type {Promise<{key: string | null, enabled: boolean}> | null} */ (null);

function serverKey() {
  keyAsked ||= fetch("/api/push/key", { cache: "no-store" })
    .then((r) => (r.ok ? r.json() : { key: null, enabled: false }))
    .catch(() => {
      keyAsked = null;
      return { key: null, enabled: false };
    });
  return keyAsked;
}

/** Why this phone cannot be woken with the page closed: a text key, or null when it can. */
export function unsupported() {
  if (!window.isSecureContext) return "push.insecure";
  const ios = /iPhone|iPad|iPod/.test(navigator.userAgent);
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    return ios ? "push.ios" : "push.unsupported";
  }
  if (Notification.permission === "denied") return "push.denied";
  return null;
}

function bytes(/** @type {string} */ b64) {
  const text = atob((b64 + "=".repeat((4 - (b64.length % 4)) % 4)).replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

/** This browser's push subscription, made with the server's key if there is none yet. */
async function subscription() {
  const asked = await serverKey();
  if (!asked.enabled || !asked.key) throw Object.assign(new Error("no push"), { code: "no_server" });
  const registration = await navigator.serviceWorker.ready;
  const held = await registration.pushManager.getSubscription();
  if (held) return held;
  return registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: bytes(asked.key) });
}

/** PUT or DELETE an opt-in; the server's refusal thrown with its status and code. */
async function send(/** @type {string} */ method, /** @type {string} */ path, /** @type {object} */ body) {
  const r = await fetch(path, {
    method,
    credentials: "same-origin",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  if (r.ok) return r.json();
  const data = await r.json().catch(() => null);
  throw Object.assign(new Error(data?.error?.message || `HTTP ${r.status}`), { status: r.status, code: data?.error?.code });
}

function failure(/** @type {any} */ err) {
  if (err?.code === "no_server") return t("push.no_server");
  if (err?.status === 409) return t("push.full");
  if (err?.status === 429) return t("push.too_many");
  if (typeof Notification !== "undefined" && Notification.permission === "denied") return t("push.denied");
  return t("push.failed", { error: err?.message || String(err) });
}

/**
 * The opt-in card of the player screen, for the player followed (`followed()`: {id, name}
 * or null). Kept per tournament on the phone: which player, which endpoint.
 * @param {string} tid
 * @param {() => ({id: string, name?: string} | null)} followed
 */
export function playerPush(tid, followed) {
  const key = `floor.push.player.${tid}`;
  const el = h("section", { class: "card push-card", "aria-live": "polite", hidden: true });
  let busy = false;
  let note = "";
  /** @returns {{player: string, endpoint: string} | null} */
  const held = () => {
    try {
      return JSON.parse(localStorage.getItem(key) || "null");
    } catch (err) {
      return null;
    }
  };

  async function on() {
    const who = followed();
    if (!who || busy) return;
    busy = true;
    note = "";
    render();
    try {
      const sub = await subscription();
      await send("PUT", `/api/t/${encodeURIComponent(tid)}/push/${encodeURIComponent(who.id)}`, { ...sub.toJSON(), lang: getLang() });
      const was = held();
      if (was && was.player !== who.id) await stopFor(was);
      localStorage.setItem(key, JSON.stringify({ player: who.id, endpoint: sub.endpoint }));
    } catch (err) {
      note = failure(err);
    } finally {
      busy = false;
      render();
    }
  }

  async function stopFor(/** @type {{player: string, endpoint: string}} */ was) {
    await send("DELETE", `/api/t/${encodeURIComponent(tid)}/push/${encodeURIComponent(was.player)}`, { endpoint: was.endpoint });
  }

  async function off() {
    const was = held();
    if (!was || busy) return;
    busy = true;
    try {
      await stopFor(was);
      localStorage.removeItem(key);
      note = t("push.stopped");
    } catch (err) {
      note = failure(err);
    } finally {
      busy = false;
      render();
    }
  }

  function render() {
    const who = followed();
    el.hidden = !who;
    if (!who) return;
    const was = held();
    const onNow = !!was && was.player === who.id;
    const why = onNow ? null : unsupported();
    fill(el,
      onNow
        ? [h("p", { class: "push-on" }, t("push.on")),
          h("button", { type: "button", class: "ghost", disabled: busy, onclick: off }, t("push.stop"))]
        : why
          ? h("p", { class: "hint" }, t(why))
          : [h("button", { type: "button", class: "primary big", disabled: busy, "aria-busy": String(busy), onclick: on }, t("push.optin")),
            h("p", { class: "hint" }, t("push.optin_hint"))],
      note ? h("p", { class: onNow ? "hint" : "error-text" }, note) : null);
  }

  onLang(render);
  render();
  return Object.assign(el, { refresh: render });
}

/**
 * The floor phone's opt-in: alerts for the tables of the signed-in floorperson's section.
 * @param {string} tid
 * @param {() => ({username?: string | null, role: string})} principal
 */
export function staffPush(tid, principal) {
  const el = h("section", { class: "card push-card staff-push", "aria-live": "polite" });
  let busy = false;
  let note = "";
  /** @type {number[] | null} */
  let section = null;
  const held = () => localStorage.getItem("floor.push.staff");

  async function readSection() {
    const p = principal();
    if (!p.username) return;
    try {
      const r = await fetch(`/api/t/${encodeURIComponent(tid)}/sections`, { credentials: "same-origin", cache: "no-store" });
      section = r.ok ? (await r.json()).sections?.[p.username] ?? [] : null;
    } catch (err) {
      section = null;
    }
    render();
  }

  async function on() {
    if (busy) return;
    busy = true;
    note = "";
    render();
    try {
      const sub = await subscription();
      await send("PUT", "/api/push/staff", { ...sub.toJSON(), lang: getLang() });
      localStorage.setItem("floor.push.staff", sub.endpoint);
    } catch (err) {
      note = failure(err);
    } finally {
      busy = false;
      render();
    }
  }

  async function off() {
    const endpoint = held();
    if (!endpoint || busy) return;
    busy = true;
    try {
      await send("DELETE", "/api/push/staff", { endpoint });
      localStorage.removeItem("floor.push.staff");
      note = "";
    } catch (err) {
      note = failure(err);
    } finally {
      busy = false;
      render();
    }
  }

  function render() {
    const p = principal();
    const staff = p.role === "director" || p.role === "floor";
    el.hidden = !staff;
    if (!staff) return;
    const onNow = !!held();
    const why = onNow ? null : unsupported();
    const hint = section && section.length
      ? t("push.staff_hint_section", { tables: section.join(", ") })
      : t("push.staff_hint_all");
    fill(el,
      h("h2", {}, t("push.staff_optin")),
      h("p", { class: "hint" }, hint),
      onNow
        ? [h("p", { class: "push-on" }, t("push.on")),
          h("button", { type: "button", class: "ghost", disabled: busy, onclick: off }, t("push.stop"))]
        : why
          ? h("p", { class: "hint" }, t(why))
          : h("button", { type: "button", class: "primary", disabled: busy, onclick: on }, t("push.staff_optin")),
      note ? h("p", { class: "error-text" }, note) : null);
  }

  onLang(render);
  render();
  return Object.assign(el, { refresh: () => { readSection(); render(); } });
}
