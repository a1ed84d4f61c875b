// @ts-check
// The money in the console: buy-in, fee, guarantee, rounding, rebuys, add-ons, re-entries and
// the payout table (percentages to two decimals, a row per field size, or a standard table
// for N entries from GET /api/payouts/standard). Sent as `set_prize`: the server checks it
// as a tournament file is checked (each row adds up to 100, places do not rise, the levels
// exist) and keeps what was sold at its price (floor/engine/amendments.py). The sums shown
// beside each row are a typing aid; the server's answer is the check.

import * as fmt from "./format.js";
import { t } from "./i18n.js";
import { api, h, fill, toast } from "./ui.js";
import { heldState } from "./conn.js";
import { bountyFields } from "./bounty_money.js";
/** @import { Conn, Send } from "./types.js" */

/** @param {HTMLInputElement} input */
function num(input) {
  const v = input.value.trim();
  return v === "" ? null : Number(v);
}

/**
 * @param {string} id
 * @param {string} label
 * @param {HTMLElement} input
 * @param {string} [hint]
 */
function field(id, label, input, hint) {
  return h("div", { class: "field narrow-field" }, h("label", { for: id }, label), input, hint ? h("p", { class: "hint" }, hint) : null);
}

/**
 * @param {string} id
 * @param {number | null | undefined} value
 * @param {Record<string, any>} attrs
 */
function numberInput(id, value, attrs = {}) {
  return h("input", { id, type: "number", min: 0, step: 1, inputmode: "numeric", value: value ?? "", ...attrs });
}

/** "50, 30, 20" or "50 30 20" as numbers; null for a part that is no number.
 * @param {string} text
 */
export function parsePercents(text) {
  const parts = text.split(/[\s,;]+/).filter(Boolean).map((/** @type {string} */ x) => x.replace(",", "."));
  return parts.map((/** @type {string} */ x) => (/^\d+(\.\d{1,2})?$/.test(x) ? Number(x) : null));
}

/** @param {{ conn: Conn, send: Send }} options */
export function moneyPanel({ conn, send }) {
  const prize = heldState(conn).structure?.prize || null;
  const el = h("form", { class: "money-form", id: "money-form" });
  const currency = h("input", { id: "money-currency", maxlength: 8, value: prize?.currency ?? "CZK", autocapitalize: "characters" });
  const buyIn = numberInput("money-buy-in", prize?.buy_in ?? 0);
  const fee = numberInput("money-fee", prize?.fee ?? 0);
  const guarantee = numberInput("money-guarantee", prize?.guarantee ?? 0);
  const roundTo = numberInput("money-round", prize?.round_to ?? 1, { min: 1 });
  const rb = prize?.rebuy;
  const rebuyOn = h("input", { id: "money-rebuy-on", type: "checkbox", checked: !!rb });
  const rebuy = {
    price: numberInput("money-rebuy-price", rb?.price), fee: numberInput("money-rebuy-fee", rb?.fee ?? 0),
    chips: numberInput("money-rebuy-chips", rb?.chips, { min: 1 }), max_per_player: numberInput("money-rebuy-max", rb?.max_per_player, { min: 1 }),
    until_level: numberInput("money-rebuy-until", rb?.until_level, { min: 1 }), max_stack: numberInput("money-rebuy-stack", rb?.max_stack),
  };
  const ao = prize?.add_on;
  const addOnOn = h("input", { id: "money-addon-on", type: "checkbox", checked: !!ao });
  const addOn = {
    price: numberInput("money-addon-price", ao?.price), fee: numberInput("money-addon-fee", ao?.fee ?? 0),
    chips: numberInput("money-addon-chips", ao?.chips, { min: 1 }), max_per_player: numberInput("money-addon-max", ao?.max_per_player ?? 1, { min: 1 }),
    level: numberInput("money-addon-level", ao?.level, { min: 1 }),
  };
  const atBreak = h("input", { id: "money-addon-break", type: "checkbox", checked: ao ? ao.at_break : true });
  const re = prize?.re_entry;
  const reOn = h("input", { id: "money-reentry-on", type: "checkbox", checked: !!re });
  const reEntry = { max_per_player: numberInput("money-reentry-max", re?.max_per_player, { min: 1 }), until_level: numberInput("money-reentry-until", re?.until_level, { min: 1 }) };
  // The bounties (bounty_money.js): kept as they are unless changed here.
  const bounty = bountyFields(prize);
  let rows = (prize?.payouts || [{ entries: 2, percents: [100] }]).map((/** @type {{ entries: number, percents: number[] }} */ r) => ({ entries: r.entries, text: r.percents.join(", ") }));
  const rowsEl = h("div", { class: "payout-rows" });
  const curveEntries = numberInput("money-curve-entries", Math.max(heldState(conn).entries || 0, 100), { min: 2 });
  const curvePaid = numberInput("money-curve-paid", 15, { min: 5, max: 50 });

  function renderRows() {
    fill(rowsEl, rows.map((/** @type {{ entries: number | null, text: string }} */ r, /** @type {number} */ i) => {
      const entries = numberInput(`payout-entries-${i}`, r.entries, { min: 1 });
      const text = h("textarea", { id: `payout-percents-${i}`, rows: 2, value: r.text });
      text.value = r.text;
      const sum = h("span", { class: "payout-sum", id: `payout-sum-${i}` });
      const showSum = () => {
        const ps = parsePercents(text.value);
        const bad = ps.some((/** @type {number | null} */ p) => p == null);
        const total = ps.reduce((/** @type {number} */ a, /** @type {number | null} */ p) => a + (p || 0) * 100, 0) / 100;
        sum.textContent = bad ? t("money.percent_bad") : t("money.row_sum", { n: ps.length, places: ps.length, sum: fmt.number(total, 2) });
        sum.className = `payout-sum ${!bad && Math.round(total * 100) === 10000 ? "ok-text" : "warn-text"}`;
      };
      entries.addEventListener("input", () => { r.entries = num(entries); });
      text.addEventListener("input", () => { r.text = text.value; showSum(); });
      showSum();
      return h("div", { class: "payout-row row" },
        field(`payout-entries-${i}`, t("money.row_entries"), entries),
        h("div", { class: "field grow" }, h("label", { for: `payout-percents-${i}` }, t("money.row_percents")), text, sum),
        h("button", { type: "button", class: "ghost small", "aria-label": t("money.remove_row_n", { n: i + 1 }), onclick: () => { rows.splice(i, 1); renderRows(); } }, "✕"));
    }));
  }

  /**
   * @param {HTMLInputElement} on
   * @param {Record<string, HTMLInputElement>} parts
   * @param {Record<string, any>} extra
   */
  function bought(on, parts, extra = {}) {
    if (!on.checked) return null;
    /** @type {Record<string, any>} */
    const out = { ...extra };
    for (const [k, input] of Object.entries(parts)) {
      const v = num(input);
      if (v != null) out[k] = v;
    }
    return out;
  }

  function value() {
    return {
      currency: currency.value.trim(), buy_in: num(buyIn) ?? 0, fee: num(fee) ?? 0, guarantee: num(guarantee) ?? 0, round_to: num(roundTo) ?? 1,
      rebuy: bought(rebuyOn, rebuy), add_on: bought(addOnOn, addOn, { at_break: atBreak.checked }), re_entry: bought(reOn, reEntry), bounty: bounty.value(),
      payouts: rows.map((/** @type {{ entries: number | null, text: string }} */ r) => ({ entries: r.entries, percents: parsePercents(r.text) })),
    };
  }

  el.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    // As typed: a blank or a wrong field is the server's to refuse, naming it.
    await send({ type: "set_prize", prize: /** @type {any} */ (value()) }, t("money.saved"));
  });
  fill(el,
    h("div", { class: "row" },
      field("money-currency", t("money.currency"), currency), field("money-buy-in", t("money.buy_in"), buyIn),
      field("money-fee", t("money.fee"), fee), field("money-guarantee", t("money.guarantee"), guarantee),
      field("money-round", t("money.round_to"), roundTo, t("money.round_hint"))),
    h("fieldset", {}, h("legend", {}, h("label", { class: "check", for: "money-rebuy-on" }, rebuyOn, t("money.rebuys"))),
      h("div", { class: "row" }, field("money-rebuy-price", t("money.price"), rebuy.price), field("money-rebuy-fee", t("money.fee"), rebuy.fee),
        field("money-rebuy-chips", t("money.chips"), rebuy.chips), field("money-rebuy-max", t("money.max_per_player"), rebuy.max_per_player),
        field("money-rebuy-until", t("money.until_level"), rebuy.until_level), field("money-rebuy-stack", t("money.max_stack"), rebuy.max_stack))),
    h("fieldset", {}, h("legend", {}, h("label", { class: "check", for: "money-addon-on" }, addOnOn, t("money.add_on"))),
      h("div", { class: "row" }, field("money-addon-price", t("money.price"), addOn.price), field("money-addon-fee", t("money.fee"), addOn.fee),
        field("money-addon-chips", t("money.chips"), addOn.chips), field("money-addon-max", t("money.max_per_player"), addOn.max_per_player),
        field("money-addon-level", t("money.level"), addOn.level),
        h("div", { class: "field check-field" }, h("label", { class: "check", for: "money-addon-break" }, atBreak, t("money.at_break"))))),
    h("fieldset", {}, h("legend", {}, h("label", { class: "check", for: "money-reentry-on" }, reOn, t("money.re_entry"))),
      h("div", { class: "row" }, field("money-reentry-max", t("money.max_per_player"), reEntry.max_per_player),
        field("money-reentry-until", t("money.until_level"), reEntry.until_level, t("money.until_hint")))),
    bounty.el,
    h("h3", {}, t("money.payouts")),
    h("p", { class: "hint" }, t("money.payouts_hint")),
    rowsEl,
    h("div", { class: "actions" },
      h("button", { type: "button", class: "small", onclick: () => { rows.push({ entries: (rows.at(-1)?.entries || 1) + 10, text: "" }); renderRows(); } }, t("money.add_row"))),
    h("div", { class: "row curve-row" },
      field("money-curve-entries", t("money.curve_entries"), curveEntries), field("money-curve-paid", t("money.curve_paid"), curvePaid),
      h("button", { type: "button", id: "money-curve", onclick: async () => {
        try {
          const data = await api(`/api/payouts/standard?entries=${encodeURIComponent(curveEntries.value)}&paid=${encodeURIComponent(curvePaid.value)}`);
          rows = data.payouts.map((/** @type {{ entries: number, percents: number[] }} */ r) => ({ entries: r.entries, text: r.percents.map((/** @type {number} */ p) => p.toFixed(2).replace(/\.00$/, "")).join(", ") }));
          renderRows();
          toast(t("money.curve_done", { rows: rows.length, places: data.payouts.at(-1).percents.length }), "ok");
        } catch (err) {
          toast(`✗ ${err.message}`, "error", 8000);
        }
      } }, t("money.curve"))),
    h("div", { class: "actions" },
      h("button", { type: "submit", class: "primary", id: "money-save" }, t("money.save")),
      prize ? h("button", { type: "button", class: "ghost", onclick: () => {
        if (confirm(t("money.clear_confirm"))) send({ type: "set_prize", prize: null }, t("money.cleared"));
      } }, t("money.clear")) : null));
  renderRows();
  return el;
}
