// @ts-check
// The bounties in the console's money panel (money.js): none, a knockout, a progressive knockout
// or a mystery bounty; the part of each buy-in (and of a rebuy or an add-on) taken to the bounties;
// where they are paid; for a mystery bounty the envelope pool ("amount x count", a line each),
// where the drawing starts and where the envelopes left at the end go. Sent as typed inside
// `set_prize`: the server checks it (floor/engine/bounty_rules.py) and names a wrong field; the
// sum beside the envelopes is a typing aid.

import * as fmt from "./format.js";
import { t } from "./i18n.js";
import { h } from "./ui.js";

/** "1000 x 1, 200 x 2" (or one a line, "×" or "*" for "x") as [amount, count] lines; a line
 * that is not one is kept as typed, for the server to refuse naming it.
 * @param {string} text
 * @returns {([number, number] | string)[]} */
export function parseEnvelopes(text) {
  return text.split(/[\n,;]+/).map((x) => x.trim()).filter(Boolean).map((x) => {
    const m = /^(\d+)\s*[x×*]\s*(\d+)$/i.exec(x.replace(/[\s\u00a0](?=\d{3}\b)/g, ""));
    return m ? /** @type {[number, number]} */ ([Number(m[1]), Number(m[2])]) : x;
  });
}

/**
 * @param {string} id
 * @param {string} label
 * @param {HTMLElement} input
 * @param {HTMLElement | null} [hint]
 */
function field(id, label, input, hint = null) {
  return h("div", { class: "field narrow-field" }, h("label", { for: id }, label), input, hint);
}

/**
 * @param {string} id
 * @param {[string, string][]} options [value, text key]
 * @param {string} value
 */
function select(id, options, value) {
  const el = /** @type {HTMLSelectElement} */ (h("select", { id }, options.map(([v, key]) => h("option", { value: v }, t(key)))));
  el.value = value;
  return el;
}

/** @param {string} id @param {number | null | undefined} value */
function numberInput(id, value) {
  return /** @type {HTMLInputElement} */ (h("input", { id, type: "number", min: 0, step: 1, inputmode: "numeric", value: value ?? "" }));
}

/** @param {HTMLInputElement} input */
function num(input) {
  const v = input.value.trim();
  return v === "" ? null : Number(v);
}

/** The bounty fieldset of the money panel and the `bounty` it sends (null: none).
 * @param {any} prize the prize settings as they stand (null: none yet)
 * @returns {{ el: HTMLElement, value: () => any }} */
export function bountyFields(prize) {
  const b = prize?.bounty || null;
  const currency = () => prize?.currency;
  const kind = select("money-bounty-kind", [["", "mystery.money.none"], ["knockout", "mystery.money.knockout"],
    ["progressive", "mystery.money.progressive"], ["mystery", "mystery.money.mystery"]], b?.kind ?? "");
  const part = numberInput("money-bounty-part", b?.part);
  const rebuyPart = numberInput("money-bounty-rebuy", b?.rebuy_part ?? 0);
  const addOnPart = numberInput("money-bounty-addon", b?.add_on_part ?? 0);
  const paidAt = select("money-bounty-paid", [["table", "mystery.money.paid_table"], ["cashier", "mystery.money.paid_cashier"]], b?.paid_at ?? "table");
  const envelopes = /** @type {HTMLTextAreaElement} */ (h("textarea", { id: "money-bounty-envelopes", rows: 3,
    placeholder: t("mystery.money.envelopes_hint") }));
  envelopes.value = (b?.envelopes || []).map((/** @type {[number, number]} */ [a, c]) => `${a} x ${c}`).join("\n");
  const sum = h("span", { class: "payout-sum", id: "money-bounty-envelopes-sum" });
  const from = select("money-bounty-from", [["money", "mystery.money.from_money"], ["level", "mystery.money.from_level"],
    ["day2", "mystery.money.from_day2"]], b?.mystery_from ?? "money");
  const level = numberInput("money-bounty-level", b?.mystery_level);
  level.min = "1";
  const left = select("money-bounty-left", [["winner", "mystery.money.left_winner"], ["house", "mystery.money.left_house"]], b?.envelopes_left ?? "winner");
  const levelField = field("money-bounty-level", t("mystery.money.level"), level);
  const mysteryRow = h("div", { class: "row mystery-row" },
    h("div", { class: "field grow" }, h("label", { for: "money-bounty-envelopes" }, t("mystery.money.envelopes")), envelopes, sum),
    field("money-bounty-from", t("mystery.money.from"), from), levelField,
    field("money-bounty-left", t("mystery.money.left"), left));
  const partsRow = h("div", { class: "row" },
    field("money-bounty-part", t("mystery.money.part"), part), field("money-bounty-rebuy", t("mystery.money.rebuy_part"), rebuyPart),
    field("money-bounty-addon", t("mystery.money.add_on_part"), addOnPart), field("money-bounty-paid", t("mystery.money.paid_at"), paidAt));

  const show = () => {
    partsRow.hidden = !kind.value;
    mysteryRow.hidden = kind.value !== "mystery";
    levelField.hidden = from.value !== "level";
    const lines = parseEnvelopes(envelopes.value).filter((x) => typeof x !== "string");
    const count = lines.reduce((a, x) => a + Number(x[1]), 0);
    const total = lines.reduce((a, x) => a + Number(x[0]) * Number(x[1]), 0);
    sum.textContent = count ? t("mystery.money.envelopes_sum", { count: fmt.number(count), total: fmt.money(total, currency()) }) : "";
  };
  for (const el of [kind, from, envelopes]) el.addEventListener("input", show);
  for (const el of [kind, from]) el.addEventListener("change", show);
  show();

  const el = h("fieldset", { class: "bounty-money" }, h("legend", {}, t("mystery.money.legend")),
    h("div", { class: "row" }, field("money-bounty-kind", t("mystery.money.kind"), kind)), partsRow, mysteryRow);

  function value() {
    if (!kind.value) return null;
    /** @type {Record<string, any>} */
    const out = { kind: kind.value, part: num(part), rebuy_part: num(rebuyPart) ?? 0, add_on_part: num(addOnPart) ?? 0, paid_at: paidAt.value };
    if (kind.value === "mystery") {
      out.envelopes = parseEnvelopes(envelopes.value);
      out.mystery_from = from.value;
      out.mystery_level = from.value === "level" ? num(level) : null;
      out.envelopes_left = left.value;
    }
    return out;
  }
  return { el, value };
}
