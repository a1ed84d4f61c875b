// @ts-check
// A knockout's bounties in a deal (deal.js): the bounties on the heads of the players left,
// in the deal (added to what is shared out, by chips: floor/engine/deal_bounties.py) or out of
// it (still to be won by play). The amount is the server's (the staff facts' `deal.bounties`).

import { t } from "./i18n.js";
import { h } from "./ui.js";

/** The choice, as the offer standing made it (out by default).
 * @param {number} amount the bounties on the heads
 * @param {any} offer the offer standing, or null
 * @param {(n: number) => string} money
 * @returns {{ el: HTMLElement, value: () => "in" | "out" }} */
export function dealBountiesChoice(amount, offer, money) {
  const select = /** @type {HTMLSelectElement} */ (h("select", { id: "deal-bounties" },
    h("option", { value: "out" }, t("deal.bounties_out")),
    h("option", { value: "in" }, t("deal.bounties_in"))));
  select.value = offer?.bounties ? "in" : "out";
  const el = h("div", { class: "row deal-bounties-choice" },
    h("div", { class: "field" }, h("label", { for: "deal-bounties" }, t("deal.bounties_label", { amount: money(amount) })), select));
  return { el, value: () => (select.value === "in" ? "in" : "out") };
}
