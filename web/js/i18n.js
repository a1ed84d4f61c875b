// @ts-check
// The screens' texts in the reader's language. t("key", {params}) looks the key up in the
// chosen language, then in English; `{name}` placeholders are filled in; a value that is an
// object picks the plural form for `n` (Intl.PluralRules' categories of that language). The
// choice is remembered in localStorage and sets the document's `lang`. Elements with
// data-i18n="key" (text) or data-i18n-attr="attr:key;attr:key" are translated by applyI18n().
//
// English is always here (every other language falls back to it); another language's files
// are fetched only when it is chosen, so that a phone does not download every language of the
// field. The languages shipped are those the server lists on the page (`<html data-langs>`,
// floor/server/languages.py); each is a set of part files, lang/<part>-<code>.js, with the
// same keys as English (tests/unit/test_translations.py).

import { en } from "./lang/en.js";
import { paperEn } from "./lang/paper-en.js";
import { rulingsEn } from "./lang/rulings-en.js";
import { tableEn } from "./lang/table-en.js";
import { flightsEn } from "./lang/flights-en.js";
import { dealersEn } from "./lang/dealers-en.js";
import { forecastEn } from "./lang/forecast-en.js";
import { deskEn } from "./lang/desk-en.js";
import { bountyEn } from "./lang/bounty-en.js";
import { mysteryEn } from "./lang/mystery-en.js";
import { announceEn } from "./lang/announce-en.js";
import { ticketsEn } from "./lang/tickets-en.js";
import { errorsEn } from "./lang/errors-en.js";
import { alternatesEn } from "./lang/alternates-en.js";
import { speakEn } from "./lang/speak-en.js";
import { seatcardEn } from "./lang/seatcard-en.js";
import { milestoneEn } from "./lang/milestone-en.js";
// Notifications: read by the service worker too, so they set a global (lang/push-en.js).
import "./lang/push-en.js";

/** Each language in its own name, in the picker's order. */
export const LANGUAGE_NAMES = {
  en: "English", cs: "Čeština", de: "Deutsch", pl: "Polski", es: "Español",
  "pt-br": "Português (Brasil)", fr: "Français", it: "Italiano",
};
/** The part files of a language besides lang/<code>.js: their texts share one dictionary.
 * Another team's part is added here (and as lang/<part>-<code>.js for every language). */
const PARTS = ["paper", "rulings", "table", "flights", "dealers", "forecast", "alternates", "announce", "tickets",
  "bounty", "desk", "mystery", "speak", "seatcard", "milestone"];

/** The languages this server ships (web/js/lang/<code>.js present), English first. */
export const LANGUAGES = (document.documentElement.dataset.langs || "en cs").split(/\s+/)
  .filter((code) => Object.prototype.hasOwnProperty.call(LANGUAGE_NAMES, code));
if (!LANGUAGES.includes("en")) LANGUAGES.unshift("en");

/** A text, or its plural forms by Intl.PluralRules' category; `why` holds the rule citations.
 * @typedef {string | Record<string, string>} Text */
/** @type {Record<string, Record<string, any>>} */
const DICTS = {
  en: { ...en, ...paperEn, ...rulingsEn, ...tableEn, ...flightsEn, ...dealersEn, ...forecastEn,
    ...alternatesEn, ...announceEn, ...ticketsEn, ...bountyEn, ...deskEn, ...mysteryEn, ...speakEn,
    ...seatcardEn, ...milestoneEn,
    .../** @type {any} */ (globalThis).floorPushTexts.en },
};
/** The refusals' templates by language (lang/errors-<code>.js, rendered by errors.js).
 * @type {Record<string, any>} */
export const ERRORS = { en: errorsEn };
const KEY = "floor.lang";
/** @type {((code: string) => void)[]} */
const listeners = [];

/** The first export of a language file (`paperDe`, `de`). @param {Record<string, any>} mod */
const first = (mod) => Object.values(mod)[0];

/** Fetches a language's files once; English where one is missing (a newer page, an older
 * server), so that a screen always has words.
 * @param {string} code @returns {Promise<boolean>} */
async function load(code) {
  if (DICTS[code]) return true;
  if (!LANGUAGES.includes(code)) return false;
  try {
    const [base, errors, ...parts] = await Promise.all([
      import(`./lang/${code}.js`), import(`./lang/errors-${code}.js`),
      ...PARTS.map((part) => import(`./lang/${part}-${code}.js`)), import(`./lang/push-${code}.js`),
    ]);
    const push = /** @type {any} */ (globalThis).floorPushTexts[code] || {};
    DICTS[code] = Object.assign({}, first(base), ...parts.slice(0, PARTS.length).map(first), push);
    ERRORS[code] = first(errors);
    return true;
  } catch (err) {
    console.warn(`floor: the texts of ${code} could not be read`, err);
    return false;
  }
}

/** The language a tag such as "pt-BR" or "de-AT" is shipped as, or "". @param {string} tag */
export function shippedLanguage(tag) {
  const lower = String(tag || "").toLowerCase();
  if (LANGUAGES.includes(lower)) return lower;
  const base = lower.split("-")[0];
  return LANGUAGES.find((code) => code.split("-")[0] === base) || "";
}

function initial() {
  const asked = shippedLanguage(new URLSearchParams(location.search).get("lang") || "");
  if (asked) return asked;
  const saved = shippedLanguage(localStorage.getItem(KEY) || "");
  if (saved) return saved;
  for (const tag of navigator.languages || [navigator.language]) {
    const code = shippedLanguage(tag);
    if (code) return code;
  }
  // The venue's language before English: the field is mostly local.
  return shippedLanguage((document.documentElement.dataset.locale || "").split("-")[0]) || "en";
}

let lang = initial();
// Every module that imports this one waits for the chosen language: nothing is shown in
// English first and then again.
if (!(await load(lang))) lang = "en";
document.documentElement.lang = lang;

export function getLang() {
  return lang;
}

/** Switches to `code` once its texts are here. @param {string} code */
export async function setLang(code) {
  if (code === lang || !(await load(code))) return;
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

/** @param {Text} value @param {Record<string, any>} params @param {string} [code] @returns {string} */
function pick(value, params, code = lang) {
  if (value && typeof value === "object") {
    const n = Number(params?.n ?? 0);
    rules[code] ||= new Intl.PluralRules(code === "pt-br" ? "pt-BR" : code);
    return value[rules[code].select(n)] ?? value.other;
  }
  return value;
}

/** `key` in the reader's language (else in English, else `fallback`, else the key), its
 * `{name}` placeholders filled from `params` and its plural form picked by `params.n`.
 * @param {string} key @param {Record<string, any>} [params] @param {string} [fallback]
 * @returns {string} */
export function t(key, params = {}, fallback) {
  return render(lang, key, params, fallback);
}

/** `key` in the shipped language `code` (its texts fetched once; English when it cannot be),
 * as t() gives it in the reader's: an announcement is said in the languages of the players it
 * concerns, whatever the screen's own (speak.js).
 * @param {string} code @param {string} key @param {Record<string, any>} [params]
 * @returns {Promise<string>} */
export async function tIn(code, key, params = {}) {
  return render((await load(code)) ? code : "en", key, params);
}

/** @param {string} code @param {string} key @param {Record<string, any>} params @param {string} [fallback] */
function render(code, key, params, fallback) {
  let value = DICTS[code][key];
  if (value === undefined) value = DICTS.en[key];
  if (value === undefined) return fallback !== undefined ? fallback : key;
  const text = pick(value, params, code);
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
 * citation (`why`, from floor/engine/reasons.py); known citations have a text in the language
 * files (`why`), and anything else is shown as sent.
 * @param {string} text
 */
export function why(text) {
  if (!text || lang === "en") return text;
  return DICTS[lang].why?.[text] ?? text;
}
