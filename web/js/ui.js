// Small shared pieces of every screen: building DOM safely (names are never parsed as HTML),
// the connection indicator, the language switch, HTTP helpers and short notices.

import { getLang, onLang, setLang, t } from "./i18n.js";
import { errorOf } from "./commands.js";
import { errorText, withNames } from "./errors.js";
import { finishBanner } from "./finished.js";
import { timeOfDay } from "./format.js";

export { withNames };

/** Build an element: h("button", {class: "big", onclick: fn}, "text", child, ...). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value == null || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key === "style" && typeof value === "object") Object.assign(el.style, value);
    else if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (value === true) el.setAttribute(key, "");
    else el.setAttribute(key, String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child == null || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** A symbol beside a label, hidden from screen readers (the label names the button). */
export function icon(symbol) {
  return h("span", { class: "icon", "aria-hidden": "true" }, symbol);
}

/** A control's content as it is read and as it is shown: `said` is its accessible name (for
 * screen readers only), `shown` what the eye reads (hidden from screen readers). A seat's
 * "3 · Jana" reads "Seat 3: Jana Nováková" without an aria-label the text on screen is
 * not part of (WCAG 2.5.3, label in name). */
export function saidAs(said, ...shown) {
  const parts = shown.flat().filter((x) => x != null && x !== false);
  for (const el of parts) if (el instanceof Element) el.setAttribute("aria-hidden", "true");
  return [h("span", { class: "sr-only" }, said), ...parts];
}

/** Replace an element's children. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

export const $ = (sel, root = document) => root.querySelector(sel);

// Connection indicator ---------------------------------------------------------------------

const STATUS_ICON = { live: "●", connecting: "◌", reconnecting: "◌", offline: "✕", missing: "?" };

/** A live region showing the connection state in words and a shape, not colour alone. */
export function connIndicator(conn, extra) {
  const el = h("div", { class: "conn", role: "status", "aria-live": "polite" });
  const render = () => {
    const st = conn.status;
    el.dataset.status = st;
    const since = st !== "live" && conn.lastLive
      ? ` · ${t("conn.since", { time: timeOfDay(conn.lastLive / 1000) })}`
      : "";
    const more = extra ? extra() : "";
    fill(el, h("span", { class: "conn-icon", "aria-hidden": "true" }, STATUS_ICON[st] || "●"),
      h("span", { class: "conn-text" }, t(`conn.${st}`)), since ? h("span", { class: "conn-since" }, since) : null,
      more ? h("span", { class: "conn-extra" }, more) : null);
    document.body.classList.toggle("is-offline", st !== "live");
  };
  conn.on("status", render);
  onLang(render);
  render();
  el.refresh = render;
  return el;
}

// Language switch ----------------------------------------------------------------------------

export function langSwitch() {
  const group = h("div", { class: "lang", role: "group", "aria-label": t("lang.label") });
  const render = () => {
    group.setAttribute("aria-label", t("lang.label"));
    fill(
      group,
      ["en", "cs"].map((code) =>
        h("button", {
          type: "button",
          lang: code,
          "aria-pressed": String(getLang() === code),
          title: code === "en" ? "English" : "Čeština",
          onclick: () => setLang(code),
        }, code.toUpperCase()),
      ),
    );
  };
  onLang(render);
  render();
  return group;
}

// HTTP -----------------------------------------------------------------------------------------

export class HttpError extends Error {
  constructor(status, error) {
    super(errorText(error));
    this.status = status;
    this.code = error.code;
    this.field = error.field;
    this.reason = error.reason;
    this.params = error.params;
  }
}

export async function api(path, { method = "GET", body, timeout = 10000 } = {}) {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), timeout);
  let response;
  try {
    response = await fetch(path, {
      method,
      credentials: "same-origin",
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: abort.signal,
    });
  } catch (err) {
    throw new HttpError(0, { code: "network", message: t("error.network") });
  } finally {
    clearTimeout(timer);
  }
  let data = null;
  try {
    data = await response.json();
  } catch (err) {
    data = null;
  }
  if (!response.ok) throw new HttpError(response.status, errorOf(data, response.status));
  return data;
}

export async function me() {
  try {
    return await api("/api/me");
  } catch (err) {
    return { username: null, role: "public", table: null };
  }
}

/** The server's refusal in the reader's language: its kind, then what it is (rendered from
 * its reason and parameters, or its own words for a reason this page has no template for). */
export function explainError(error, conn = null) {
  if (!error) return "";
  const known = t(`code.${error.code}`, {}, "");
  const message = errorText(error, conn);
  return known ? `${known}: ${message}` : message;
}

// Notices --------------------------------------------------------------------------------------

let toastBox = null;

export function toast(message, kind = "info", ms = 4000) {
  if (!toastBox) {
    toastBox = h("div", { class: "toasts", role: "status", "aria-live": "polite" });
    document.body.append(toastBox);
  }
  const el = h("div", { class: `toast toast-${kind}` }, message);
  toastBox.append(el);
  setTimeout(() => el.remove(), ms);
}

/** Tick `fn` every `ms` while the page is visible (clocks count locally between events). */
export function every(ms, fn) {
  fn();
  return setInterval(() => {
    if (document.visibilityState !== "hidden") fn();
  }, ms);
}

/** Debounce for search boxes. */
export function debounce(fn, ms = 200) {
  let timer = null;
  return (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), ms);
  };
}

export function playerName(conn, id) {
  if (id == null) return null;
  // Following one player, the state holds them alone: the chip leaders' names come apart.
  return conn.state?.players?.[id]?.name ?? conn.names?.[id] ?? id;
}

/** Standard page heading: the title, the connection, the language; under them, once the
 * tournament has its winner, a banner saying so (finished.js). */
export function topbar(title, conn, { extra, right } = {}) {
  const titleEl = h("h1", { class: "title" }, title);
  const bar = h("header", { class: "topbar" }, titleEl, h("div", { class: "topbar-right" },
    right || null, conn ? connIndicator(conn, extra) : null, langSwitch()), conn ? finishBanner(conn) : null);
  bar.setTitle = (text) => {
    titleEl.textContent = text;
  };
  return bar;
}

// Search -------------------------------------------------------------------------------------------

// Letters Unicode does not decompose into a base and a mark (as floor/engine/rulebook.py folds).
const PLAIN = { ł: "l", Ł: "l", ø: "o", Ø: "o", đ: "d", Đ: "d", ð: "d", Ð: "d", æ: "ae", Æ: "ae",
  œ: "oe", Œ: "oe", þ: "th", Þ: "th", ı: "i", ħ: "h", Ħ: "h", ŧ: "t", Ŧ: "t" };

const PLAIN_LETTERS = new RegExp(`[${Object.keys(PLAIN).join("")}]`, "g");

// Where the server's case folding (Python's str.casefold) differs from lower case: "Weiß"
// is searched as "weiss" there, so a typed "weiß" must be too.
const CASEFOLD = { ß: "ss", ς: "σ", "\u1c80": "в", "\u1c81": "д", "\u1c82": "о", "\u1c83": "с",
  "\u1c84": "т", "\u1c85": "т", "\u1c86": "ъ", "\u1c87": "ѣ", "\u1c88": "ꙋ" };
const CASEFOLD_LETTERS = /[ßς\u1c80-\u1c88\u13f8-\u13fd\uab70-\uabbf]/g;

function casefold(c) {
  const code = c.charCodeAt(0);
  // Cherokee folds to its capital letters.
  if (code >= 0xab70) return String.fromCharCode(code - 0xab70 + 0x13a0);
  if (code >= 0x13f8 && code <= 0x13fd) return String.fromCharCode(code - 8);
  return CASEFOLD[c];
}

/** Text as the search compares it: no diacritics, no case (`Novak` finds `Novák`), folded
 * as the server folds it. Names are searched by the server's own keys (facts.js); this
 * folds what is typed, and the rulebook copy kept for offline use. */
export function foldText(x) {
  return x.replace(PLAIN_LETTERS, (c) => PLAIN[c]).normalize("NFKD")
    .replace(/\p{M}/gu, "").toLowerCase().replace(CASEFOLD_LETTERS, casefold);
}
