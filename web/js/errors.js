// @ts-check
// The server's refusals and the pot calculator's notes in the reader's language. The server
// sends each as a code with parameters ({reason, params} in an error body, {code, params} per
// clause of a pot's note); the templates are in lang/errors-<code>.js (read by i18n.js). A
// code with no template here (a newer server) is shown as the server's English sentence.

import { ERRORS, getLang } from "./i18n.js";
/** @import { Conn } from "./types.js" */
import { venueLocale } from "./venue.js";

/** A template: a sentence, or its plural forms picked by the number (or list) `count` names.
 * @typedef {string | { count: string, [form: string]: string }} Template */
/** A language's templates: the refusals and notes by code, the shared phrases, the words a
 * parameter's value is said as.
 * @typedef {{ reasons: Record<string, Template>, formats: Record<string, any>, values?: Record<string, Record<string, string>> }} ErrorTexts */

/** @type {Record<string, ErrorTexts>} */
const LANGS = ERRORS;
/** @type {Record<string, string>} */
const LOCALES = { en: "en-GB", cs: "cs-CZ", de: "de-DE", pl: "pl-PL", es: "es-ES", "pt-br": "pt-BR", fr: "fr-FR", it: "it-IT" };
// Parameters that hold a player id: shown as the player's name where the screen knows it.
const PLAYERS = new Set(["player", "holder"]);

/** @type {Record<string, Intl.PluralRules>} */
const plurals = {};

/** @returns {ErrorTexts} */
function dict() {
  return LANGS[getLang()] || LANGS.en;
}

/** @param {Template | undefined} template @param {Record<string, any>} params */
function pluralForm(template, params) {
  if (!template || typeof template !== "object") return template;
  const value = params[template.count];
  const n = Array.isArray(value) ? value.length : Number(value ?? 0);
  const lang = getLang();
  plurals[lang] ||= new Intl.PluralRules(LOCALES[lang] || lang);
  return template[plurals[lang].select(n)] ?? template.other;
}

/** @param {number} n */
function number(n) {
  return new Intl.NumberFormat(venueLocale, { maximumFractionDigits: 2 }).format(n);
}

/** @param {string} id @param {Conn | null} conn */
function playerName(id, conn) {
  const players = conn?.state?.players;
  const p = players && Object.prototype.hasOwnProperty.call(players, id) ? players[id] : null;
  return p && p.name ? p.name : id;
}

/** @param {string} name @param {unknown} v @param {string | undefined} format @param {Conn | null} conn */
function value(name, v, format, conn) {
  const d = dict();
  if (v === null || v === undefined) return "–";
  if (Array.isArray(v)) {
    const items = v.map((x) => (typeof x === "number" ? number(x) : String(x)));
    if (format === "seats") {
      const list = new Intl.ListFormat(LOCALES[getLang()] || "en-GB", { type: "conjunction" }).format(items);
      return /** @type {string} */ (pluralForm({ count: "list", ...d.formats.seats }, { list: v })).replace("{list}", list);
    }
    return items.join(", ");
  }
  const word = d.values?.[name]?.[String(v)];
  if (word !== undefined) return word;
  if (typeof v === "number") return number(v);
  if (PLAYERS.has(name)) return playerName(String(v), conn);
  return String(v);
}

/** `code` with `params` in the reader's language, or null when there is no template for it.
 * @param {string} code @param {Record<string, any> | null} [params] @param {Conn | null} [conn] */
export function render(code, params = {}, conn = null) {
  const template = pluralForm(dict().reasons[code] ?? LANGS.en.reasons[code], params || {});
  if (typeof template !== "string") return null;
  return template.replace(/\{(\w+)(?::(\w+))?\}/g, (/** @type {string} */ m, /** @type {string} */ name, /** @type {string | undefined} */ format) =>
    (params && name in params ? value(name, params[name], format, conn) : m));
}

/** The server's refusal ({code, reason, params, message}) as a sentence for the reader.
 * @param {any} error @param {Conn | null} [conn] */
export function errorText(error, conn = null) {
  if (!error) return "";
  const said = error.reason ? render(error.reason, error.params, conn) : null;
  return said ?? withNames(error.message, conn);
}

/** A pot's note in the reader's language: the pot's name, then its clauses (the English note
 * the server sent when a clause has no template).
 * @param {any} pot a pot of POST /api/pots's answer */
export function potNote(pot) {
  const clauses = (pot.why || []).map((/** @type {{ code: string, params: Record<string, any> }} */ c) => render(c.code, c.params));
  if (!clauses.length || clauses.includes(null)) return pot.note;
  const text = clauses.join("; ");
  if (pot.kind === "uncalled") return text;
  const formats = dict().formats;
  const name = pot.kind === "side" ? formats.side_pot.replace("{n}", number(pot.number)) : formats.main_pot;
  return `${name}: ${text}`;
}

/** `text` with the player ids it names said as the players' names, where the screen's copy of
 * the state knows them (for a sentence the server sent without a known code).
 * @param {string} text @param {Conn | null} conn */
export function withNames(text, conn) {
  const players = conn?.state?.players;
  if (!players || !text) return text;
  return String(text).replace(/[\p{L}\p{N}_-]+/gu, (word) => {
    // Numbers are levels, seats and chips, never taken for a player.
    const p = !/^\d+$/.test(word) && Object.prototype.hasOwnProperty.call(players, word) ? players[word] : null;
    return p && p.name && p.name !== word ? p.name : word;
  });
}
