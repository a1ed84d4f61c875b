#!/usr/bin/env node
// Checks a language's files in web/js/lang against English, part by part: the same keys, the
// same {placeholders} in every form, plural forms as objects holding every category
// Intl.PluralRules has for that language, nothing left over. Exit status 1 with a line per fault.
//
//   node scripts/check_translations.mjs fr it pt-br [--same]
//
// The base file may also hold `why`, the rule citations the server sends in English, with
// the citations cs.js has a text for.
//
// --same also lists the values left equal to English (often right: "Hold'em", "PIN", "{n} %"),
// for a reader to look over; they are not faults.
//
// The files are read as they are, with no build step: each is imported from a data: URL (the
// folder has no package.json saying they are ES modules), and the notifications' file sets a
// global instead of exporting (the service worker reads it with importScripts).

import { readFileSync, existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const LANG = join(dirname(fileURLToPath(import.meta.url)), "..", "web", "js", "lang");
/** The parts, by their file's name before -en.js ("" is en.js itself). */
const PARTS = ["", "paper", "rulings", "table", "flights", "dealers", "forecast", "errors", "push"];
/** The locale Intl knows a code by. */
const LOCALE = { "pt-br": "pt-BR", cs: "cs" };
const PLACEHOLDER = /\{([a-z_]+(?::[a-z]+)?)\}/g;

/** "pt-br" -> "PtBr", "fr" -> "Fr" */
const camel = (/** @type {string} */ code) =>
  code.split("-").map((w) => w[0].toUpperCase() + w.slice(1)).join("");

/** @param {string} part @param {string} code */
function fileOf(part, code) {
  return join(LANG, part ? `${part}-${code}.js` : `${code}.js`);
}

/** The texts a file holds: its export, or for push the global it sets. */
async function load(/** @type {string} */ part, /** @type {string} */ code) {
  const file = fileOf(part, code);
  if (!existsSync(file)) return undefined;
  const source = readFileSync(file, "utf-8");
  const module = await import("data:text/javascript;charset=utf-8," + encodeURIComponent(source));
  if (part === "push") return /** @type {any} */ (globalThis).floorPushTexts?.[code];
  const name = part ? part + camel(code) : code === "pt-br" ? "ptBr" : code;
  return module[name];
}

/** errors-*.js must stay plain JSON between "= {" and the last "};" (a Python test reads it). */
function plainJson(/** @type {string} */ code) {
  const text = readFileSync(fileOf("errors", code), "utf-8");
  try {
    JSON.parse(text.slice(text.indexOf("= {") + 2, text.lastIndexOf("};") + 1));
    return null;
  } catch (e) {
    return `errors-${code}.js is not plain JSON: ${/** @type {Error} */ (e).message}`;
  }
}

const holes = (/** @type {string} */ s) => new Set([...s.matchAll(PLACEHOLDER)].map((m) => m[1]));
const isPlural = (/** @type {unknown} */ v) =>
  typeof v === "object" && v !== null && typeof (/** @type {any} */ (v).other) === "string";

/**
 * Compares one value with its English one; pushes faults. `where` names it.
 * @param {any} en @param {any} tr @param {string} where @param {string[]} categories
 * @param {string[]} faults @param {string[]} same
 */
function compare(en, tr, where, categories, faults, same) {
  if (tr === undefined) return faults.push(`${where}: missing`);
  if (typeof en === "string") {
    if (typeof tr !== "string") return faults.push(`${where}: a text in English, not here`);
    const a = holes(en), b = holes(tr);
    for (const h of a) if (!b.has(h)) faults.push(`${where}: lost {${h}}`);
    for (const h of b) if (!a.has(h)) faults.push(`${where}: {${h}} is not in English`);
    if (en === tr && /[a-z]{3}/i.test(en)) same.push(`${where}: ${en}`);
    return;
  }
  if (isPlural(en)) {
    if (!isPlural(tr)) return faults.push(`${where}: plural forms in English, not here`);
    if (en.count !== tr.count) faults.push(`${where}: counts by "${tr.count}", English by "${en.count}"`);
    const all = new Set(Object.entries(en).filter(([k]) => k !== "count").flatMap(([, v]) => [...holes(v)]));
    for (const c of categories) {
      if (typeof tr[c] !== "string") { faults.push(`${where}: no "${c}" form`); continue; }
      const need = holes(en[c] ?? en.other);
      const got = holes(tr[c]);
      for (const h of need) if (!got.has(h)) faults.push(`${where}.${c}: lost {${h}}`);
      for (const h of got) if (!all.has(h)) faults.push(`${where}.${c}: {${h}} is not in English`);
    }
    for (const k of Object.keys(tr)) {
      if (k !== "count" && !categories.includes(k)) faults.push(`${where}: "${k}" is no plural category here`);
    }
    return;
  }
  if (typeof en === "object" && en !== null) {
    if (typeof tr !== "object" || tr === null) return faults.push(`${where}: a group in English, not here`);
    for (const k of Object.keys(en)) compare(en[k], tr[k], `${where}.${k}`, categories, faults, same);
    for (const k of Object.keys(tr)) if (!(k in en)) faults.push(`${where}.${k}: not in English`);
  }
}

/**
 * `why`: the rule citations the server sends in English (floor/engine/reasons.py), in this
 * language. English has none (the citation is its own text); the Czech file says which
 * citations have a text, and a language that has them has the same ones.
 * @param {any} tr @param {any} cs @param {string} name @param {string[]} faults
 */
function whyFaults(tr, cs, name, faults) {
  for (const k of Object.keys(cs)) {
    if (typeof tr[k] !== "string" || !tr[k].trim()) faults.push(`${name} why: no text for "${k}"`);
  }
  for (const k of Object.keys(tr)) if (!(k in cs)) faults.push(`${name} why: "${k}" is no citation cs.js knows`);
}

async function main() {
  const args = process.argv.slice(2);
  const showSame = args.includes("--same");
  const codes = args.filter((a) => !a.startsWith("--"));
  if (codes.length === 0) {
    console.error("usage: node scripts/check_translations.mjs CODE... [--same]   (e.g. fr it pt-br)");
    process.exit(2);
  }
  let bad = 0;
  for (const code of codes) {
    const locale = LOCALE[/** @type {keyof typeof LOCALE} */ (code)] ?? code;
    const categories = new Intl.PluralRules(locale).resolvedOptions().pluralCategories;
    /** @type {string[]} */ const faults = [];
    /** @type {string[]} */ const same = [];
    let keys = 0;
    for (const part of PARTS) {
      const en = await load(part, "en");
      const tr = await load(part, code);
      const name = part ? `${part}-${code}.js` : `${code}.js`;
      if (tr === undefined) { faults.push(`${name}: missing, or it exports nothing under its name`); continue; }
      if (part === "errors") { const j = plainJson(code); if (j) faults.push(j); }
      for (const k of Object.keys(en)) compare(en[k], tr[k], `${name} ${k}`, categories, faults, same);
      for (const k of Object.keys(tr)) {
        if (part === "" && k === "why") whyFaults(tr.why, (await load("", "cs")).why, name, faults);
        else if (!(k in en)) faults.push(`${name} ${k}: not in English`);
      }
      keys += Object.keys(en).length;
    }
    console.log(`${code}: ${keys} keys checked, plural categories ${categories.join(", ")}: ` +
      `${faults.length} faults, ${same.length} values as in English`);
    for (const f of faults) console.log("  FAULT " + f);
    if (showSame) for (const s of same) console.log("  same  " + s);
    bad += faults.length;
  }
  process.exit(bad ? 1 : 0);
}

await main();
