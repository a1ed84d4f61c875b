// @ts-check
// English and Czech. t("key", {params}) looks the key up in the chosen language, then in
// English; `{name}` placeholders are filled in; a value that is an object picks the plural
// form for `n` ({one, few, many, other}). The choice is remembered in localStorage and sets
// the document's `lang`. Elements with data-i18n="key" (text) or data-i18n-attr=
// "attr:key;attr:key" are translated by applyI18n().

import { en } from "./lang/en.js";
import { cs } from "./lang/cs.js";
import { paperEn } from "./lang/paper-en.js";
import { paperCs } from "./lang/paper-cs.js";
import { rulingsEn } from "./lang/rulings-en.js";
import { rulingsCs } from "./lang/rulings-cs.js";
import { tableEn } from "./lang/table-en.js";
import { tableCs } from "./lang/table-cs.js";
import { flightsEn } from "./lang/flights-en.js";
import { flightsCs } from "./lang/flights-cs.js";
import { dealersEn } from "./lang/dealers-en.js";
import { dealersCs } from "./lang/dealers-cs.js";
import { forecastEn } from "./lang/forecast-en.js";
import { forecastCs } from "./lang/forecast-cs.js";
import { bountyEn } from "./lang/bounty-en.js";
import { bountyCs } from "./lang/bounty-cs.js";
// Notifications: read by the service worker too, so they set a global (lang/push-en.js).
import "./lang/push-en.js";
import "./lang/push-cs.js";

const pushTexts = /** @type {any} */ (globalThis).floorPushTexts;

// The paper and files texts, the rulings' and the table screen's are kept in files of their own
// (lang/paper-*.js, lang/rulings-*.js, lang/table-*.js).
/** A text, or its plural forms by Intl.PluralRules' category; `why` holds the rule citations.
 * @typedef {string | Record<string, string>} Text */
/** @type {Record<string, Record<string, any>>} */
const DICTS = {
  en: { ...en, ...paperEn, ...rulingsEn, ...tableEn, ...flightsEn, ...dealersEn, ...forecastEn, ...bountyEn, ...pushTexts.en },
  cs: { ...cs, ...paperCs, ...rulingsCs, ...tableCs, ...flightsCs, ...dealersCs, ...forecastCs, ...bountyCs, ...pushTexts.cs },
};
const KEY = "floor.lang";
/** @type {((code: string) => void)[]} */
const listeners = [];

function initial() {
  const asked = new URLSearchParams(location.search).get("lang");
  if (asked && DICTS[asked]) return asked;
  const saved = localStorage.getItem(KEY);
  if (saved && DICTS[saved]) return saved;
  return (navigator.language || "").toLowerCase().startsWith("cs") ? "cs" : "en";
}

let lang = initial();
document.documentElement.lang = lang;

export function getLang() {
  return lang;
}

/** @param {string} code */
export function setLang(code) {
  if (!DICTS[code] || code === lang) return;
  lang = code;
  localStorage.setItem(KEY, code);
  document.documentElement.lang = code;
  applyI18n();
  for (const fn of [...listeners]) fn(code);
}

/** Call `fn` whenever the language changes; returns what stops it.
 * @param {(code: string) => void} fn */
export function onLang(fn) {
  listeners.push(fn);
  return () => {
    const at = listeners.indexOf(fn);
    if (at >= 0) listeners.splice(at, 1);
  };
}

/** @type {Record<string, Intl.PluralRules>} */
const rules = {};

/** @param {Text} value @param {Record<string, any>} params @returns {string} */
function pick(value, params) {
  if (value && typeof value === "object") {
    const n = Number(params?.n ?? 0);
    rules[lang] ||= new Intl.PluralRules(lang);
    return value[rules[lang].select(n)] ?? value.other;
  }
  return value;
}

/** `key` in the reader's language (else in English, else `fallback`, else the key), its
 * `{name}` placeholders filled from `params` and its plural form picked by `params.n`.
 * @param {string} key @param {Record<string, any>} [params] @param {string} [fallback]
 * @returns {string} */
export function t(key, params = {}, fallback) {
  let value = DICTS[lang][key];
  if (value === undefined) value = DICTS.en[key];
  if (value === undefined) return fallback !== undefined ? fallback : key;
  const text = pick(value, params);
  return text.replace(/\{(\w+)\}/g, (/** @type {string} */ m, /** @type {string} */ name) => (params[name] !== undefined ? String(params[name]) : m));
}

/** @param {string} key */
export function has(key) {
  return DICTS[lang][key] !== undefined || DICTS.en[key] !== undefined;
}

/** The texts of the page's own HTML, by their `data-i18n` and `data-i18n-attr` keys.
 * @param {ParentNode} [root] */
export function applyI18n(root = document) {
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll("[data-i18n]"))) el.textContent = t(el.dataset.i18n ?? "");
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll("[data-i18n-attr]"))) {
    for (const pair of (el.dataset.i18nAttr ?? "").split(";")) {
      const [attr, key] = pair.split(":");
      if (attr && key) el.setAttribute(attr.trim(), t(key.trim()));
    }
  }
}

/**
 * The rule a move or halt follows, in the reader's language. The server sends the English
 * citation (`why`, from floor/engine/reasons.py); known citations have a Czech text here, and
 * anything else is shown as sent.
 * @param {string} text
 */
export function why(text) {
  if (!text || lang === "en") return text;
  return DICTS[lang].why?.[text] ?? text;
}
