// @ts-check
// Small shared pieces of every screen: building DOM safely (names are never parsed as HTML),
// the connection indicator, the language switch, HTTP helpers and short notices.

import { getLang, LANGUAGE_NAMES, LANGUAGES, onLang, setLang, t } from "./i18n.js";
import { errorOf } from "./commands.js";
import { errorText, withNames } from "./errors.js";
import { finishBanner } from "./finished.js";
import { timeOfDay } from "./format.js";

export { withNames };

/** What `h` and `fill` take as children: nodes, text, numbers, nothing, and lists of them.
 * @typedef {Node | string | number | boolean | null | undefined | Child[]} Child */

/** An element's attributes for `h`: a class, a dataset, a style, `on…` listeners, the rest
 * set as attributes (null and false leave one out, true sets it empty).
 * @typedef {Record<string, any>} Attrs */

/** Build an element: h("button", {class: "big", onclick: fn}, "text", child, ...).
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs | null} [attrs]
 * @param {...Child} children
 * @returns {HTMLElementTagNameMap[K]} */
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

/** @param {Element} el @param {Child[]} children */
function append(el, children) {
  for (const child of children) {
    if (child == null || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** A symbol beside a label, hidden from screen readers (the label names the button).
 * @param {string} symbol */
export function icon(symbol) {
  return h("span", { class: "icon", "aria-hidden": "true" }, symbol);
}

/** A control's content as it is read and as it is shown: `said` is its accessible name (for
 * screen readers only), `shown` what the eye reads (hidden from screen readers). A seat's
 * "3 · Jana" reads "Seat 3: Jana Nováková" without an aria-label the text on screen is
 * not part of (WCAG 2.5.3, label in name).
 * @param {string} said
 * @param {...Child} shown */
export function saidAs(said, ...shown) {
  const parts = shown.flat().filter((x) => x != null && x !== false);
  for (const el of parts) if (el instanceof Element) el.setAttribute("aria-hidden", "true");
  return [h("span", { class: "sr-only" }, said), ...parts];
}

/** Replace an element's children.
 * @template {Element} E
 * @param {E} el
 * @param {...Child} children
 * @returns {E} */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** The element `sel` names, which the page's HTML holds.
 * @param {string} sel
 * @param {ParentNode} [root] */
export const $ = (sel, root = document) => /** @type {HTMLElement} */ (root.querySelector(sel));

// Connection indicator ---------------------------------------------------------------------

/** @type {Record<string, string>} */
const STATUS_ICON = { live: "●", connecting: "◌", reconnecting: "◌", offline: "✕", missing: "?" };

/** The connection indicator: `refresh` draws it again (the outbox changed what it says).
 * @typedef {HTMLDivElement & { refresh?: () => void }} Indicator */

/** A live region showing the connection state in words and a shape, not colour alone.
 * @param {any} conn conn.js Connection
 * @param {(() => string) | undefined} extra more to say (commands waiting to be sent) */
export function connIndicator(conn, extra) {
  /** @type {Indicator} */
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
    fill(group, LANGUAGES.length > 2
      // More than two languages do not fit as buttons on a phone's header: a list, each in its own name.
      ? h("select", {
        "aria-label": t("lang.label"),
        onchange: (/** @type {Event} */ e) => setLang(/** @type {HTMLSelectElement} */ (e.target).value),
      }, LANGUAGES.map((code) => h("option", {
        value: code, lang: code, selected: getLang() === code || null,
      }, /** @type {Record<string, string>} */ (LANGUAGE_NAMES)[code])))
      : LANGUAGES.map((code) =>
        h("button", {
          type: "button",
          lang: code,
          "aria-pressed": String(getLang() === code),
          title: /** @type {Record<string, string>} */ (LANGUAGE_NAMES)[code],
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

/** The server's refusal (or the network's failure, status 0): the code, the field it names,
 * the reason and its parameters. */
export class HttpError extends Error {
  /** @param {number} status @param {any} error the body's `error` (commands.js errorOf) */
  constructor(status, error) {
    super(errorText(error));
    this.status = status;
    this.code = error.code;
    this.field = error.field;
    this.reason = error.reason;
    this.params = error.params;
  }
}

/**
 * @typedef {object} ApiOptions
 * @property {string} [method]
 * @property {unknown} [body] sent as JSON
 * @property {number} [timeout] milliseconds
 */

/** JSON from the API; a refusal throws an HttpError.
 * @param {string} path
 * @param {ApiOptions} [options]
 * @returns {Promise<any>} */
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

/** Who this browser is signed in as (GET /api/me): a paired table screen says its device,
 * tournament and table.
 * @typedef {{ username: string | null, role: string, table: number | null, device?: string | null, tournament?: string | null }} Principal */

/** Who this browser is signed in as (the public when nobody).
 * @returns {Promise<Principal>} */
export async function me() {
  try {
    return await api("/api/me");
  } catch (err) {
    return { username: null, role: "public", table: null };
  }
}

/** The server's refusal in the reader's language: its kind, then what it is (rendered from
 * its reason and parameters, or its own words for a reason this page has no template for).
 * @param {any} error
 * @param {any} [conn] names players by their ids */
export function explainError(error, conn = null) {
  if (!error) return "";
  const known = t(`code.${error.code}`, {}, "");
  const message = errorText(error, conn);
  return known ? `${known}: ${message}` : message;
}

// Notices --------------------------------------------------------------------------------------

/** @type {HTMLElement | null} */
let toastBox = null;

/** A short notice at the bottom of the screen.
 * @param {string} message @param {string} [kind] info, ok, error @param {number} [ms] */
export function toast(message, kind = "info", ms = 4000) {
  if (!toastBox) {
    toastBox = h("div", { class: "toasts", role: "status", "aria-live": "polite" });
    document.body.append(toastBox);
  }
  const el = h("div", { class: `toast toast-${kind}` }, message);
  toastBox.append(el);
  setTimeout(() => el.remove(), ms);
}

/** Tick `fn` every `ms` while the page is visible (clocks count locally between events).
 * @param {number} ms @param {() => void} fn */
export function every(ms, fn) {
  fn();
  return setInterval(() => {
    if (document.visibilityState !== "hidden") fn();
  }, ms);
}

/** Debounce for search boxes.
 * @template {any[]} A
 * @param {(...args: A) => unknown} fn @param {number} [ms]
 * @returns {(...args: A) => void} */
export function debounce(fn, ms = 200) {
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  return (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), ms);
  };
}

/** A player's name by their id (the id itself when the screen does not know them).
 * @template {string | null | undefined} I
 * @param {any} conn @param {I} id
 * @returns {I extends string ? string : null} */
export function playerName(conn, id) {
  if (id == null) return /** @type {any} */ (null);
  // Following one player, the state holds them alone: the chip leaders' names come apart.
  return conn.state?.players?.[id]?.name ?? conn.names?.[id] ?? id;
}

/** Standard page heading: the title, the connection, the language; under them, once the
 * tournament has its winner, a banner saying so (finished.js).
 * @param {string} title
 * @param {any} conn conn.js Connection, or null (no tournament chosen)
 * @param {{ extra?: () => string, right?: Child }} [options]
 * @returns {Bar} */
export function topbar(title, conn, { extra, right } = {}) {
  const titleEl = h("h1", { class: "title" }, title);
  const header = h("header", { class: "topbar" }, titleEl, h("div", { class: "topbar-right" },
    right || null, conn ? connIndicator(conn, extra) : null, langSwitch()), conn ? finishBanner(conn) : null);
  return Object.assign(header, {
    /** @param {string} text */
    setTitle: (text) => {
      titleEl.textContent = text;
    },
  });
}

// Search -------------------------------------------------------------------------------------------

/** @typedef {HTMLElement & { setTitle: (text: string) => void }} Bar */

// Letters Unicode does not decompose into a base and a mark (as floor/engine/rulebook.py folds).
/** @type {Record<string, string>} */
const PLAIN = { ł: "l", Ł: "l", ø: "o", Ø: "o", đ: "d", Đ: "d", ð: "d", Ð: "d", æ: "ae", Æ: "ae",
  œ: "oe", Œ: "oe", þ: "th", Þ: "th", ı: "i", ħ: "h", Ħ: "h", ŧ: "t", Ŧ: "t" };

const PLAIN_LETTERS = new RegExp(`[${Object.keys(PLAIN).join("")}]`, "g");

// Where the server's case folding (Python's str.casefold) differs from lower case: "Weiß"
// is searched as "weiss" there, so a typed "weiß" must be too.
/** @type {Record<string, string>} */
const CASEFOLD = { ß: "ss", ς: "σ", "\u1c80": "в", "\u1c81": "д", "\u1c82": "о", "\u1c83": "с",
  "\u1c84": "т", "\u1c85": "т", "\u1c86": "ъ", "\u1c87": "ѣ", "\u1c88": "ꙋ" };
const CASEFOLD_LETTERS = /[ßς\u1c80-\u1c88\u13f8-\u13fd\uab70-\uabbf]/g;

/** @param {string} c */
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
/** @param {string} x */
export function foldText(x) {
  return x.replace(PLAIN_LETTERS, (c) => PLAIN[c]).normalize("NFKD")
    .replace(/\p{M}/gu, "").toLowerCase().replace(CASEFOLD_LETTERS, casefold);
}
