// @ts-check
// The rulebook on the floor phone: the tournament's rule set (state.rules.rulebook), searched
// in English or Czech without diacritics (GET /api/rulebook?set=&q=&lang=), and one rule opened
// in full (GET /api/rulebook/{rule}). Every "why" on the floor links here. The whole set is
// kept once it was read, so a rule can still be opened and searched offline.

import { getLang, t } from "./i18n.js";
import { api, debounce, fill, foldText, h } from "./ui.js";

const fold = (/** @type {unknown} */ x) => foldText(String(x || ""));

// The words of a query, as floor/engine/search_terms.py reads them -----------------------------

/** Endings stripped (Czech case and number), longest first, each only from a word longer
 * than the number given: the server's `_ENDINGS`. */
/** @type {[number, string[]][]} */
const ENDINGS = [
  [7, ["atech"]],
  [6, ["etem", "atum"]],
  [5, ["ech", "ich", "eho", "emi", "emu", "ete", "eti", "iho", "imi", "imu"]],
  [5, ["ach", "ata", "aty", "ych", "ama", "ami", "ove", "ovi", "ymi"]],
  [4, ["em", "es", "im", "um", "at", "am", "os", "us", "ym", "mi", "ou"]],
  [3, ["a", "e", "i", "o", "u", "y"]],
];
const VOWELS = new Set("aeiouy");
/** Words this long or longer are also found with one typo. */
const TYPO_LENGTH = 5;
const MOST_WORDS = 12;
// How much a word counts: where it is found in a rule, times how (floor/engine/rulebook.py).
/** @type {Record<string, number>} */
const TIER = { synonyms: 1, body: 2, tags: 4, title: 6 };
const TYPED = 4;
const STEM = 2;
const TYPO = 1;

/** A folded word without its Czech case or number ending; a number stays as it is.
 * @param {string} word
 */
export function stem(word) {
  if (!/^[a-z]+$/.test(word)) return word;
  for (const [moreThan, endings] of ENDINGS) {
    if (word.length > moreThan) {
      for (const ending of endings) if (word.endsWith(ending)) return word.slice(0, -ending.length);
    }
  }
  return word;
}

/** The stem, and with "o" for the "u" before a final consonant ("stul": "stol").
 * @param {string} word
 */
export function stems(word) {
  const s = stem(word);
  const last = s[s.length - 1];
  if (s.length >= 3 && s[s.length - 2] === "u" && /[a-z]/.test(last) && !VOWELS.has(last)) {
    return [s, `${s.slice(0, -2)}o${last}`];
  }
  return [s];
}

/** Every string one edit from `word` over `letters` (a letter out, in, changed, or two
 * neighbours swapped).
 * @param {string} word
 * @param {string} letters
 */
function oneEdit(word, letters) {
  const out = new Set();
  const n = word.length;
  for (let i = 0; i < n; i += 1) out.add(word.slice(0, i) + word.slice(i + 1));
  for (let i = 0; i + 1 < n; i += 1) {
    if (word[i] !== word[i + 1]) out.add(word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2));
  }
  for (let i = 0; i < n; i += 1) {
    for (const c of letters) if (c !== word[i]) out.add(word.slice(0, i) + c + word.slice(i + 1));
  }
  for (let i = 0; i <= n; i += 1) for (const c of letters) out.add(word.slice(0, i) + c + word.slice(i));
  out.delete(word);
  return out;
}

/** The words of a query: folded, hyphens and punctuation apart.
 * @param {string} q
 */
export function queryWords(q) {
  return (fold(q).match(/[a-z0-9]+/g) || []).slice(0, MOST_WORDS);
}

// The index of a book: built once per copy ---------------------------------------------------

/** A rule as GET /api/rulebook sends it: its words for the search (`terms`, by where they
 * are found) and its citation; the notes and sources per language.
 * @typedef {{ id: string, title: string, text: string, cite: string, terms?: Record<string, string[]>, [more: string]: any }} Rule */
/** A rule set in one language, read whole (the copy searched offline).
 * @typedef {{ set: string, title: string, rules: Rule[], links?: Record<string, string> }} Book */
/** The words of a book sorted, each word's rules with their weight, the letters used.
 * @typedef {{ words: string[], postings: Map<number, number>[], letters: string }} Index */

/** @type {WeakMap<Book, Index>} */
const indexes = new WeakMap();

/** @param {Book} book */
function indexOf(book) {
  let index = indexes.get(book);
  if (index) return index;
  /** @type {Map<string, Map<number, number>>} */
  const best = new Map();
  book.rules.forEach((r, order) => {
    const terms = r.terms || {};
    for (const part of ["synonyms", "body", "tags", "title"]) {
      for (const word of terms[part] || []) {
        const postings = best.get(word) ?? new Map();
        best.set(word, postings);
        postings.set(order, TIER[part]);
      }
    }
  });
  const words = [...best.keys()].sort();
  const letters = [...new Set(words.join(""))].sort().join("");
  index = { words, postings: words.map((w) => /** @type {Map<number, number>} */ (best.get(w))), letters };
  indexes.set(book, index);
  return index;
}

/**
 * @param {string[]} words
 * @param {string} prefix
 */
function lowerBound(words, prefix) {
  let lo = 0;
  let hi = words.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (words[mid] < prefix) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * @param {Index} index
 * @param {Map<number, number>} found
 * @param {string} prefix
 * @param {number} kind
 */
function addHits(index, found, prefix, kind) {
  const { words, postings } = index;
  for (let i = lowerBound(words, prefix); i < words.length && words[i].startsWith(prefix); i += 1) {
    for (const [order, weight] of postings[i]) {
      const score = weight * kind;
      if (score > (found.get(order) || 0)) found.set(order, score);
    }
  }
}

/** @param {Index} index @param {string} word */
function hits(index, word) {
  /** @type {Map<number, number>} */
  const found = new Map();
  addHits(index, found, word, TYPED);
  for (const s of stems(word)) if (s !== word) addHits(index, found, s, STEM);
  if (word.length >= TYPO_LENGTH) for (const typo of oneEdit(word, index.letters)) addHits(index, found, typo, TYPO);
  return found;
}

/** The rules of `book` for the query `q`, best first: the server's search
 * (floor/engine/rulebook.py `search`) done the same way on the copy read earlier, for a
 * phone that has lost the server. Every word must begin a word of the rule (as typed, by its
 * Czech stem, with one typo from five letters, or a synonym); the rules' words come with
 * them from the server.
 * @param {Book} book
 * @param {string} q
 * @param {number} limit
 */
export function searchBook(book, q, limit = 50) {
  const typed = queryWords(q);
  if (!typed.length) return book.rules.slice();
  const index = indexOf(book);
  /** @type {Map<number, number> | null} */
  let totals = null;
  for (const word of typed) {
    const found = hits(index, word);
    if (totals === null) totals = found;
    else {
      /** @type {Map<number, number>} */
      const next = new Map();
      for (const [order, score] of totals) {
        const more = found.get(order);
        if (more !== undefined) next.set(order, score + more);
      }
      totals = next;
    }
    if (!totals.size) return [];
  }
  return [.../** @type {Map<number, number>} */ (totals)].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, limit).map(([order]) => book.rules[order]);
}

/** A rule's citation as the server gives it ("TDA 2024 rule 11A", "House procedure",
 * "House rule"), in the reader's language.
 * @param {unknown} cite
 */
export function citeText(cite) {
  const c = String(cite || "");
  if (c === "House procedure") return t("rules.cite_house_procedure");
  if (c === "House rule") return t("rules.cite_house_rule");
  const m = /^(.*?)\brule (\S+)$/.exec(c);
  return m ? `${m[1]}${t("rules.cite_rule", { n: m[2] })}` : c;
}

export class RulebookClient {
  constructor() {
    /** @type {Map<string, Promise<Book>>} */
    this.books = new Map();
    /** @type {Map<string, Promise<Rule>>} */
    this.rules = new Map();
  }

  /** The whole set in `lang` ({set, title, rules, links}); cached.
   * @param {string} set
   * @param {string} lang
   * @returns {Promise<Book>}
   */
  async book(set, lang) {
    const key = `${set}/${lang}`;
    if (!this.books.has(key)) {
      const p = api(`/api/rulebook?set=${encodeURIComponent(set)}&lang=${lang}`);
      this.books.set(key, p);
      p.catch(() => this.books.delete(key));
    }
    return /** @type {Promise<Book>} */ (this.books.get(key));
  }

  /** The rules matching `q` (the server's search; the same search in the copy read earlier
   * when the server cannot be reached).
   * @param {string} set
   * @param {string} q
   * @param {string} lang
   */
  async search(set, q, lang) {
    try {
      return await api(`/api/rulebook?set=${encodeURIComponent(set)}&lang=${lang}&q=${encodeURIComponent(q)}`);
    } catch (err) {
      const book = await this.book(set, lang);
      const rules = searchBook(book, q);
      return { ...book, query: q, count: rules.length, rules };
    }
  }

  /** One rule in `lang`; cached.
   * @param {string} set
   * @param {string} id
   * @param {string} lang
   * @returns {Promise<Rule>}
   */
  async rule(set, id, lang) {
    const key = `${set}/${id}/${lang}`;
    if (!this.rules.has(key)) {
      const p = api(`/api/rulebook/${encodeURIComponent(id)}?set=${encodeURIComponent(set)}&lang=${lang}`)
        .catch(async (err) => {
          const book = await this.book(set, lang).catch(() => null);
          const found = book?.rules.find((/** @type {Rule} */ r) => r.id === id);
          if (found) return found;
          throw err;
        });
      this.rules.set(key, p);
      p.catch(() => this.rules.delete(key));
    }
    return /** @type {Promise<Rule>} */ (this.rules.get(key));
  }
}

/** The rulebook tool: a search box, the matching rules, one rule opened. */
export class RulebookView {
  // Built by _build, before anything reads them.
  /** @type {HTMLInputElement} */
  input;
  /** @type {HTMLElement} */
  listEl;
  /** @type {HTMLElement} */
  detailEl;
  /** @type {HTMLElement} */
  searchBox;

  /** @param {{ client: RulebookClient, getSet: () => string, onOpen?: (id: string) => void }} options */
  constructor({ client, getSet, onOpen }) {
    this.client = client;
    this.getSet = getSet;
    this.onOpen = onOpen || (() => {});
    this.el = h("div", { class: "rulebook" });
    this.query = "";
    this.list = null;
    this.openId = null;
    this.openRule = null;
    this.error = null;
    // The language and rule set the view was built for ("": not built yet).
    this.lang = "";
    this.set = "";
    this.searchSeq = 0;
    this._search = debounce(() => this._load(), 200);
  }

  render() {
    const lang = lang2();
    const set = this.getSet();
    if (this.lang !== lang || this.set !== set) {
      this.lang = lang;
      this.set = set;
      this._build();
      this._load();
      if (this.openId) this.open(this.openId);
    }
    return this.el;
  }

  _build() {
    this.input = h("input", { id: "rule-search", type: "search", autocomplete: "off", spellcheck: "false",
      enterkeyhint: "search", value: this.query, "aria-describedby": "rule-search-hint" });
    this.input.addEventListener("input", () => {
      this.query = this.input.value.trim();
      this._search();
    });
    this.titleEl = h("h2", {}, t("rules.title"));
    this.listEl = h("div", { class: "rule-results", "aria-live": "polite" });
    this.detailEl = h("article", { class: "rule-detail card", tabindex: "-1", hidden: true });
    this.searchBox = h("div", { class: "rule-search" },
      h("div", { class: "field" }, h("label", { for: "rule-search" }, t("rules.search")), this.input,
        h("p", { class: "hint", id: "rule-search-hint" }, t("rules.search_hint"))),
      this.listEl);
    fill(this.el, this.titleEl, this.detailEl, this.searchBox);
    this._showList();
  }

  async _load() {
    const seq = (this.searchSeq += 1);
    const set = this.set;
    const lang = this.lang;
    try {
      const answer = this.query ? await this.client.search(set, this.query, lang) : await this.client.book(set, lang);
      if (seq !== this.searchSeq) return;
      this.list = answer;
      this.error = null;
    } catch (err) {
      if (seq !== this.searchSeq) return;
      this.error = err.message || t("error.network");
    }
    this._showList();
  }

  _showList() {
    if (!this.listEl) return;
    if (this.error) return fill(this.listEl, h("p", { class: "error-text" }, this.error));
    if (!this.list) return fill(this.listEl, h("p", { class: "muted" }, t("clock.waiting")));
    const rules = this.list.rules || [];
    fill(this.listEl,
      h("p", { class: "muted small" }, this.query ? t("rules.found", { n: rules.length, q: this.query })
        : t("rules.all", { n: rules.length, set: this.list.title || this.set })),
      rules.length ? h("ul", { class: "rule-list" }, rules.map((/** @type {Rule} */ r) => h("li", {},
        h("button", { type: "button", class: "rule-item", onclick: () => this.open(r.id) },
          h("span", { class: "rule-cite" }, citeText(r.cite)),
          h("span", { class: "rule-title" }, r.title),
          r.house ? h("span", { class: "badge badge-house" }, t("rules.house")) : null,
          uncheckedOf(r, this.lang) ? h("span", { class: "badge badge-unchecked" }, t("rules.unchecked_badge")) : null))))
        : h("p", { class: "empty" }, t("rules.none", { q: this.query })));
  }

  /** Open rule `id` of the tournament's set in full.
   * @param {string} id
   */
  async open(id) {
    this.openId = id;
    this.openRule = null;
    this.detailEl.hidden = false;
    this.searchBox.hidden = true;
    fill(this.detailEl, h("p", { class: "muted" }, t("clock.waiting")));
    this.onOpen(id);
    try {
      const rule = await this.client.rule(this.set, id, this.lang);
      if (this.openId !== id) return;
      this.openRule = rule;
      this._showRule(rule);
    } catch (err) {
      if (this.openId !== id) return;
      fill(this.detailEl, this._back(), h("p", { class: "error-text" }, err.message || t("error.network")));
    }
  }

  close() {
    this.openId = null;
    this.openRule = null;
    this.detailEl.hidden = true;
    this.searchBox.hidden = false;
    this.input.focus();
  }

  _back() {
    return h("button", { type: "button", class: "ghost", onclick: () => this.close() }, "← ", t("rules.back"));
  }

  /** @param {Rule} rule */
  _showRule(rule) {
    fill(this.detailEl,
      this._back(),
      h("p", { class: "rule-cite" }, citeText(rule.cite), rule.house ? h("span", { class: "badge badge-house" }, t("rules.house")) : null),
      h("h3", { class: "rule-heading" }, rule.title),
      h("div", { class: "rule-text" }, partsOf(rule.text).map((part) => h("p", {}, part))),
      noteOf(rule, this.lang) ? h("p", { class: "rule-note" }, h("strong", {}, t("rules.note")), " ", noteOf(rule, this.lang)) : null,
      sourceOf(rule, this.lang),
      this.lang === "cs" && rule.title_en ? h("p", { class: "muted small" }, `EN: ${rule.title_en}`) : null,
      this.lang === "en" && rule.title_cs ? h("p", { class: "muted small", lang: "cs" }, `CS: ${rule.title_cs}`) : null);
    this.detailEl.focus({ preventScroll: true });
  }
}

/** How the floor applies a rule where its source leaves room, in `lang` ("" when it does not say).
 * @param {Rule} rule
 * @param {string} lang
 */
export function noteOf(rule, lang) {
  return (lang === "cs" ? rule.note_cs : rule.note_en) || "";
}

/** A rule's text in its lettered parts, each to a paragraph of its own: "(A) ... (B) ..."
 * (a text without them is one part).
 * @param {string} text
 */
export function partsOf(text) {
  return String(text || "").split(/ (?=\([A-H]\) )/);
}

/** What of a rule's source wording could not be checked, in `lang` ("" when all was).
 * @param {Rule} rule
 * @param {string} lang
 */
export function uncheckedOf(rule, lang) {
  return (lang === "cs" ? rule.unchecked_cs : rule.unchecked_en) || "";
}

/** Where a rule's words come from: what could not be checked (or what was checked against),
 * and a link to the official text its source publishes. Nothing when the book says neither.
 * @param {Rule} rule
 * @param {string} lang
 */
function sourceOf(rule, lang) {
  const unchecked = uncheckedOf(rule, lang);
  const checked = (lang === "cs" ? rule.checked_cs : rule.checked_en) || "";
  if (!unchecked && !checked && !rule.link) return null;
  return h("div", { class: `rule-source${unchecked ? " unchecked" : ""}` },
    unchecked ? h("p", {}, h("strong", {}, t("rules.unchecked")), " ", unchecked)
      : checked ? h("p", {}, h("strong", {}, t("rules.checked")), " ", checked) : null,
    rule.link ? h("p", {}, h("a", { href: rule.link, target: "_blank", rel: "noopener noreferrer" },
      t("rules.official", { source: rule.source }))) : null);
}

/** The book's language: English and Czech texts, the rules' titles in every language the
 * screens speak (the server's config/rulebook/titles). */
function lang2() {
  return getLang();
}
