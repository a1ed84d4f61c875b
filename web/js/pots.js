// @ts-check
// The pot calculator on the floor phone (POST /api/pots): what each seat put in, who folded,
// how the hands still in ranked (and the low for high-low, the high card for a stud tie); the
// answer is every pot, side pots first, with what each seat takes and why. The server splits;
// this form only collects. A 422 names the field at fault, and the message is shown next to
// that field.
//
// The form is built once (and again for another language): typing is never lost to a redraw.

import { t } from "./i18n.js";
import { potNote } from "./errors.js";
import * as fmt from "./format.js";
import { api, explainError, fill, h } from "./ui.js";

const GAMES = ["flop", "stud", "flop_hilo", "stud_hilo"];

/** @param {string} text */
function digits(text) {
  const v = String(text ?? "").replace(/[\s,._']/g, "");
  if (!v) return null;
  return /^\d+$/.test(v) ? Number(v) : NaN;
}

/** @typedef {{ amount: HTMLInputElement, folded: HTMLInputElement, rank: HTMLInputElement, low: HTMLInputElement, card: HTMLInputElement, error: HTMLElement }} SeatRow */

export class PotsTool {
  // Built with the form (_build), before anything reads them.
  /** @type {{ game: HTMLSelectElement, unit: HTMLInputElement, button: HTMLInputElement, total: HTMLInputElement }} */
  inputs;
  /** @type {Record<"game" | "unit" | "button" | "total" | "seats" | "general", HTMLElement>} */
  errors;
  /** @type {HTMLElement} */
  resultEl;
  /** @type {HTMLButtonElement} */
  submit;
  /** @type {HTMLFormElement} */
  form;

  /**
   * `defaults()` → {game, unit, seats} from the tournament (the game dealt, the smallest chip
   * in play, seats per table); `openRule(id)` opens a rule of the rulebook.
   * @param {{ defaults: () => { game: string, unit: number | string, seats: number }, openRule: (id: string) => void }} options
   */
  constructor({ defaults, openRule }) {
    this.defaults = defaults;
    this.openRule = openRule;
    this.el = h("div", { class: "pots-tool" });
    /** @type {string | null} */
    this.lang = null;
    this.result = null;
    this.seatsShown = 0;
    /** @type {Map<number, SeatRow>} */
    this.rows = new Map();
  }

  /** The tool's element, built for the current language (kept while the language stays). */
  render() {
    const lang = document.documentElement.lang;
    const d = this.defaults();
    if (this.lang !== lang || this.seatsShown !== d.seats) {
      const before = this.lang ? this._values() : null;
      this.lang = lang;
      this._build(d, before);
    }
    return this.el;
  }

  /**
   * @param {{ game: string, unit: number | string, seats: number }} d
   * @param {any} before
   */
  _build(d, before) {
    const game = h("select", { id: "pots-game", onchange: () => this._gameChanged() },
      GAMES.map((g) => h("option", { value: g }, t(`pots.game.${g}`))));
    game.value = before?.game || d.game;
    const unit = h("input", { id: "pots-unit", inputmode: "numeric", autocomplete: "off", value: before?.unit ?? (d.unit || "") });
    const button = h("input", { id: "pots-button", inputmode: "numeric", autocomplete: "off", value: before?.button ?? "" });
    const total = h("input", { id: "pots-total", inputmode: "numeric", autocomplete: "off", value: before?.total ?? "" });
    this.inputs = { game, unit, button, total };
    this.rows = new Map();
    this.seatsShown = d.seats;
    const rows = [];
    for (let seat = 1; seat <= d.seats; seat += 1) {
      const old = before?.rows?.get(seat) || {};
      const row = {
        amount: h("input", { class: "pot-amount", inputmode: "numeric", autocomplete: "off", value: old.amount ?? "",
          "aria-label": t("pots.put_in_seat", { seat }) }),
        folded: h("input", { type: "checkbox", class: "pot-folded", "aria-label": t("pots.folded_seat", { seat }) }),
        rank: h("input", { class: "pot-rank", inputmode: "numeric", autocomplete: "off", value: old.rank ?? "",
          "aria-label": t("pots.rank_seat", { seat }) }),
        low: h("input", { class: "pot-low", inputmode: "numeric", autocomplete: "off", value: old.low ?? "",
          "aria-label": t("pots.low_seat", { seat }) }),
        card: h("input", { class: "pot-card", autocomplete: "off", autocapitalize: "none", spellcheck: "false", maxlength: 3,
          value: old.card ?? "", "aria-label": t("pots.card_seat", { seat }) }),
        error: h("p", { class: "field-error", id: `pots-err-seat-${seat}`, role: "alert" }),
      };
      row.folded.checked = !!old.folded;
      this.rows.set(seat, row);
      rows.push(h("div", { class: "pot-row", dataset: { seat } },
        h("span", { class: "pot-seat", "aria-hidden": "true" }, seat),
        h("span", { class: "pot-cell" }, row.amount),
        h("span", { class: "pot-cell pot-fold" }, row.folded),
        h("span", { class: "pot-cell" }, row.rank),
        h("span", { class: "pot-cell lo-only" }, row.low),
        h("span", { class: "pot-cell stud-only" }, row.card),
        row.error));
    }
    this.errors = {
      game: h("p", { class: "field-error", id: "pots-err-game", role: "alert" }),
      unit: h("p", { class: "field-error", id: "pots-err-unit", role: "alert" }),
      button: h("p", { class: "field-error", id: "pots-err-button", role: "alert" }),
      total: h("p", { class: "field-error", id: "pots-err-total", role: "alert" }),
      seats: h("p", { class: "field-error", id: "pots-err-seats", role: "alert" }),
      general: h("p", { class: "field-error", id: "pots-err-general", role: "alert" }),
    };
    this.resultEl = h("section", { class: "pots-result", "aria-live": "polite" });
    this.submit = h("button", { type: "submit", class: "primary big" }, t("pots.split"));
    this.form = h("form", { class: "pots-form", novalidate: true, onsubmit: (/** @type {SubmitEvent} */ ev) => { ev.preventDefault(); this._send(); } },
      h("div", { class: "row" },
        h("div", { class: "field" }, h("label", { for: "pots-game" }, t("pots.game")), game, this.errors.game),
        h("div", { class: "field" }, h("label", { for: "pots-unit" }, t("pots.unit")), unit, this.errors.unit),
        h("div", { class: "field flop-only" }, h("label", { for: "pots-button" }, t("pots.button")), button, this.errors.button)),
      h("fieldset", { class: "pot-seats" },
        h("legend", {}, t("pots.seats_title")),
        h("p", { class: "hint" }, t("pots.seats_hint")),
        h("div", { class: "pot-row pot-head", "aria-hidden": "true" },
          h("span", { class: "pot-seat" }, t("pots.col_seat")), h("span", { class: "pot-cell" }, t("pots.col_put_in")),
          h("span", { class: "pot-cell pot-fold" }, t("pots.col_folded")), h("span", { class: "pot-cell" }, t("pots.col_rank")),
          h("span", { class: "pot-cell lo-only" }, t("pots.col_low")), h("span", { class: "pot-cell stud-only" }, t("pots.col_card"))),
        rows, this.errors.seats),
      h("div", { class: "field" }, h("label", { for: "pots-total" }, t("pots.total")), total,
        h("p", { class: "hint" }, t("pots.total_hint")), this.errors.total),
      this.errors.general,
      h("div", { class: "actions" }, this.submit,
        h("button", { type: "button", class: "ghost big", onclick: () => this._clear() }, t("pots.clear"))));
    fill(this.el, h("h2", {}, t("pots.title")), this.form, this.resultEl);
    this._gameChanged();
    if (this.result) this._showResult(this.result);
  }

  _values() {
    const rows = new Map();
    for (const [seat, r] of this.rows) {
      rows.set(seat, { amount: r.amount.value, folded: r.folded.checked, rank: r.rank.value, low: r.low.value, card: r.card.value });
    }
    return { game: this.inputs.game.value, unit: this.inputs.unit.value, button: this.inputs.button.value,
      total: this.inputs.total.value, rows };
  }

  _gameChanged() {
    const game = this.inputs.game.value;
    this.form.classList.toggle("game-hilo", game.endsWith("_hilo"));
    this.form.classList.toggle("game-stud", game.startsWith("stud"));
  }

  _clear() {
    for (const r of this.rows.values()) {
      r.amount.value = "";
      r.folded.checked = false;
      r.rank.value = "";
      r.low.value = "";
      r.card.value = "";
    }
    this.inputs.total.value = "";
    this.inputs.button.value = "";
    this.result = null;
    this._clearErrors();
    fill(this.resultEl);
    this.rows.get(1)?.amount.focus();
  }

  _clearErrors() {
    for (const el of Object.values(this.errors)) el.textContent = "";
    for (const r of this.rows.values()) r.error.textContent = "";
    for (const el of this.form.querySelectorAll("[aria-invalid]")) {
      el.removeAttribute("aria-invalid");
      el.removeAttribute("aria-describedby");
    }
  }

  /** Show `message` next to `input` (or in `box` when no single input is at fault). */
  /** @param {HTMLElement | null | undefined} input @param {HTMLElement} box @param {string} message */
  _error(input, box, message) {
    box.textContent = message;
    if (input) {
      input.setAttribute("aria-invalid", "true");
      input.setAttribute("aria-describedby", box.id);
    }
    return input || box;
  }

  /** The request, or null after showing what is missing or wrong next to the field. */
  _request() {
    const game = this.inputs.game.value;
    const hilo = game.endsWith("_hilo");
    const stud = game.startsWith("stud");
    const problems = [];
    const unit = digits(this.inputs.unit.value);
    if (!unit) problems.push(this._error(this.inputs.unit, this.errors.unit, t("pots.need_unit")));
    /** @type {number | null} */
    let button = null;
    if (!stud) {
      button = digits(this.inputs.button.value);
      if (!button) problems.push(this._error(this.inputs.button, this.errors.button, t("pots.need_button")));
    }
    const total = digits(this.inputs.total.value);
    if (Number.isNaN(total)) problems.push(this._error(this.inputs.total, this.errors.total, t("pots.not_a_number")));
    const contributions = [];
    /** @type {Map<number, number[]>} seats by rank */
    const high = new Map();
    /** @type {Map<number, number[]>} */
    const low = new Map();
    /** @type {Record<number, string>} */
    const cards = {};
    for (const [seat, r] of this.rows) {
      const amount = digits(r.amount.value);
      if (amount == null || amount === 0) continue;
      if (Number.isNaN(amount)) {
        problems.push(this._error(r.amount, r.error, t("pots.not_a_number")));
        continue;
      }
      const folded = r.folded.checked;
      contributions.push({ seat, contributed: amount, folded });
      if (folded) continue;
      const rank = digits(r.rank.value);
      if (rank == null || Number.isNaN(rank) || rank < 1) {
        problems.push(this._error(r.rank, r.error, t("pots.need_rank", { seat })));
      } else {
        const same = high.get(rank) ?? [];
        high.set(rank, [...same, seat]);
      }
      if (hilo) {
        const lowRank = digits(r.low.value);
        if (Number.isNaN(lowRank)) problems.push(this._error(r.low, r.error, t("pots.not_a_number")));
        else if (lowRank) {
          const same = low.get(lowRank) ?? [];
          low.set(lowRank, [...same, seat]);
        }
      }
      if (stud && r.card.value.trim()) {
        const raw = r.card.value.trim();
        // "as", "AS", "10s" all mean the ace or the ten of spades as the server writes them.
        const code = raw.length === 3 && raw.startsWith("10") ? `T${raw[2].toLowerCase()}` : `${raw[0].toUpperCase()}${raw.slice(1).toLowerCase()}`;
        cards[seat] = code;
      }
    }
    if (!contributions.length) problems.push(this._error(this.rows.get(1)?.amount, this.errors.seats, t("pots.need_contributions")));
    if (problems.length) {
      problems[0].focus?.();
      return null;
    }
    const grouped = (/** @type {Map<number, number[]>} */ m) => [...m.keys()].sort((a, b) => a - b).map((k) => m.get(k));
    /** @type {Record<string, any>} the body of POST /api/pots */
    const body = { game, odd_chip_unit: unit, contributions, high: grouped(high) };
    if (hilo) body.low = grouped(low);
    if (!stud) body.button = button;
    if (stud && Object.keys(cards).length) body.high_cards = cards;
    if (total != null) body.total = total;
    return body;
  }

  async _send() {
    this._clearErrors();
    const body = this._request();
    if (!body) return;
    this.submit.disabled = true;
    try {
      const answer = await api("/api/pots", { method: "POST", body });
      this.result = { answer, body };
      this._showResult(this.result);
      this.resultEl.scrollIntoView?.({ block: "start" });
    } catch (err) {
      this.result = null;
      fill(this.resultEl);
      this._serverError(err, body);
    } finally {
      this.submit.disabled = false;
    }
  }

  /** A 422 names the field: put its message next to that input.
   * @param {any} err
   * @param {Record<string, any>} body
   */
  _serverError(err, body) {
    const field = err.field || "";
    const message = err.status === 0 ? t("error.network") : err.message || explainError(err);
    let m;
    /** @type {HTMLElement | null} */
    let target = null;
    if ((m = field.match(/^contributions\[(\d+)\]\.(\w+)$/))) {
      const seat = body.contributions[Number(m[1])]?.seat;
      const row = this.rows.get(seat);
      if (row) target = this._error(m[2] === "folded" ? row.folded : row.amount, row.error, message);
    } else if ((m = field.match(/^(high|low)\[(\d+)\]\[(\d+)\]$/))) {
      const seat = body[m[1]]?.[Number(m[2])]?.[Number(m[3])];
      const row = this.rows.get(seat);
      if (row) target = this._error(m[1] === "high" ? row.rank : row.low, row.error, message);
    } else if ((m = field.match(/^high_cards\[(\d+)\]$/))) {
      const row = this.rows.get(Number(m[1]));
      if (row) target = this._error(row.card, row.error, message);
    } else if (field === "button") {
      target = this._error(this.inputs.button, this.errors.button, message);
    } else if (field === "total") {
      target = this._error(this.inputs.total, this.errors.total, message);
    } else if (field === "odd_chip_unit") {
      target = this._error(this.inputs.unit, this.errors.unit, message);
    } else if (field === "game") {
      target = this._error(this.inputs.game, this.errors.game, message);
    } else if (/^(contributions|high|low|high_cards)/.test(field)) {
      target = this._error(null, this.errors.seats, message);
    }
    if (!target) target = this._error(null, this.errors.general, field ? `${field}: ${message}` : message);
    target.focus?.();
  }

  /** @param {{ answer: any }} result */
  _showResult({ answer }) {
    const seatList = (/** @type {number[]} */ seats) => seats.map((/** @type {number} */ s) => t("pots.seat_n", { seat: s })).join(", ");
    fill(this.resultEl,
      h("h3", {}, t("pots.result_title")),
      h("ol", { class: "pot-list" }, answer.pots.map((/** @type {any} */ p) => h("li", { class: `pot pot-${p.kind}` },
        h("div", { class: "pot-name" }, h("strong", {}, potName(p)), " ", h("span", { class: "pot-amount-total" }, fmt.chips(p.amount))),
        h("div", { class: "muted small" }, t("pots.eligible", { seats: seatList(p.eligible) })),
        h("ul", { class: "awards" }, p.awards.map((/** @type {any} */ a) => h("li", {},
          h("span", {}, t("pots.seat_n", { seat: a.seat })), h("strong", {}, fmt.chips(a.amount))))),
        p.note ? h("p", { class: "pot-note" }, potNote(p)) : null))),
      h("h3", {}, t("pots.totals")),
      h("ul", { class: "awards totals" }, answer.totals.map((/** @type {any} */ a) => h("li", { class: a.amount ? "" : "muted" },
        h("span", {}, t("pots.seat_n", { seat: a.seat })), h("strong", {}, fmt.chips(a.amount))))),
      answer.rules?.length ? h("p", { class: "rule-links" }, t("rules.see"), " ",
        answer.rules.map((/** @type {string} */ id) => h("button", { type: "button", class: "link-button", onclick: () => this.openRule(id) }, t(`rules.link.${id}`, {}, id)))) : null);
  }
}

/** @param {any} p */
function potName(p) {
  if (p.kind === "side") return t("pots.side_pot", { n: p.number });
  if (p.kind === "main") return t("pots.main_pot");
  if (p.kind === "uncalled") return t("pots.uncalled");
  return p.name;
}
