// The rulebook on the floor phone: the tournament's rule set (state.rules.rulebook), searched
// in English or Czech without diacritics (GET /api/rulebook?set=&q=&lang=), and one rule opened
// in full (GET /api/rulebook/{rule}). Every "why" on the floor links here. The whole set is
// kept once it was read, so a rule can still be opened and searched offline.

import { getLang, t } from "./i18n.js";
import { api, debounce, fill, foldText, h } from "./ui.js";

const fold = (x) => foldText(String(x || ""));

/** Whether a word of the folded `text` starts with `prefix`. */
function startsAWord(text, prefix) {
  let i = text.indexOf(prefix);
  while (i !== -1) {
    // A word starts here: the text's start, or anything but a letter or digit before it.
    if (i === 0 || !/[\p{L}\p{N}]/u.test(text[i - 1])) return true;
    i = text.indexOf(prefix, i + 1);
  }
  return false;
}

function score(word, title, tags, body) {
  if (startsAWord(title, word)) return 6;
  if (startsAWord(tags, word)) return 4;
  return startsAWord(body, word) ? 2 : 0;
}

/** The rules of `book` for the query `q`, best first: the server's search
 * (floor/engine/rulebook.py `search`) done the same way on the copy read earlier, for a
 * phone that has lost the server. Every word must start a word of the rule, diacritics
 * ignored; titles rank above keywords above the text; a word of 5 letters or more also
 * matches by its stem (all but its last two letters, at least four) at half the score. */
export function searchBook(book, q, limit = 50) {
  const words = fold(q).trim().split(/[\s,.;:!?]+/).filter(Boolean);
  if (!words.length) return book.rules.slice(0, limit);
  const scored = [];
  book.rules.forEach((r, order) => {
    const title = fold(`${r.title_en} ${r.title_cs}`);
    const tags = fold([...(r.keywords || []), r.id, r.number, r.cite].join(" "));
    const body = fold(`${r.text_en} ${r.text_cs}`);
    let total = 0;
    for (const w of words) {
      let hit = score(w, title, tags, body);
      if (w.length >= 5) hit = Math.max(hit, Math.floor(score(w.slice(0, Math.max(4, w.length - 2)), title, tags, body) / 2));
      if (!hit) return;
      total += hit;
    }
    scored.push([total, order, r]);
  });
  return scored.sort((a, b) => b[0] - a[0] || a[1] - b[1]).slice(0, limit).map((x) => x[2]);
}

/** A rule's citation as the server gives it ("TDA 2024 rule 11A", "House procedure",
 * "House rule"), in the reader's language. */
export function citeText(cite) {
  const c = String(cite || "");
  if (c === "House procedure") return t("rules.cite_house_procedure");
  if (c === "House rule") return t("rules.cite_house_rule");
  const m = /^(.*?)\brule (\S+)$/.exec(c);
  return m ? `${m[1]}${t("rules.cite_rule", { n: m[2] })}` : c;
}

export class RulebookClient {
  constructor() {
    this.books = new Map();
    this.rules = new Map();
  }

  /** The whole set in `lang` ({set, title, rules, links}); cached. */
  async book(set, lang) {
    const key = `${set}/${lang}`;
    if (!this.books.has(key)) {
      const p = api(`/api/rulebook?set=${encodeURIComponent(set)}&lang=${lang}`);
      this.books.set(key, p);
      p.catch(() => this.books.delete(key));
    }
    return this.books.get(key);
  }

  /** The rules matching `q` (the server's search; the same search in the copy read earlier
   * when the server cannot be reached). */
  async search(set, q, lang) {
    try {
      return await api(`/api/rulebook?set=${encodeURIComponent(set)}&lang=${lang}&q=${encodeURIComponent(q)}`);
    } catch (err) {
      const book = await this.book(set, lang);
      const rules = searchBook(book, q);
      return { ...book, query: q, count: rules.length, rules };
    }
  }

  /** One rule in `lang`; cached. */
  async rule(set, id, lang) {
    const key = `${set}/${id}/${lang}`;
    if (!this.rules.has(key)) {
      const p = api(`/api/rulebook/${encodeURIComponent(id)}?set=${encodeURIComponent(set)}&lang=${lang}`)
        .catch(async (err) => {
          const book = await this.book(set, lang).catch(() => null);
          const found = book?.rules.find((r) => r.id === id);
          if (found) return found;
          throw err;
        });
      this.rules.set(key, p);
      p.catch(() => this.rules.delete(key));
    }
    return this.rules.get(key);
  }
}

/** The rulebook tool: a search box, the matching rules, one rule opened. */
export class RulebookView {
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
    this.lang = null;
    this.set = null;
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
      rules.length ? h("ul", { class: "rule-list" }, rules.map((r) => h("li", {},
        h("button", { type: "button", class: "rule-item", onclick: () => this.open(r.id) },
          h("span", { class: "rule-cite" }, citeText(r.cite)),
          h("span", { class: "rule-title" }, r.title),
          r.house ? h("span", { class: "badge badge-house" }, t("rules.house")) : null))))
        : h("p", { class: "empty" }, t("rules.none", { q: this.query })));
  }

  /** Open rule `id` of the tournament's set in full. */
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

  _showRule(rule) {
    fill(this.detailEl,
      this._back(),
      h("p", { class: "rule-cite" }, citeText(rule.cite), rule.house ? h("span", { class: "badge badge-house" }, t("rules.house")) : null),
      h("h3", { class: "rule-heading" }, rule.title),
      h("div", { class: "rule-text" }, rule.text),
      this.lang === "cs" && rule.title_en ? h("p", { class: "muted small" }, `EN: ${rule.title_en}`) : null,
      this.lang === "en" && rule.title_cs ? h("p", { class: "muted small", lang: "cs" }, `CS: ${rule.title_cs}`) : null);
    this.detailEl.focus({ preventScroll: true });
  }
}

function lang2() {
  return getLang() === "cs" ? "cs" : "en";
}
