// @ts-check
// Playing cards as the floor shows them ("As", "Td", "7c" from the server): big, with the suit
// as a symbol, a colour (a four-colour deck: spades black, hearts red, diamonds blue, clubs
// green) and its letter, so that no card is told by colour alone. Screen readers hear the
// card's name ("ace of spades").

import { t } from "./i18n.js";
import { h } from "./ui.js";

/** @type {Record<string, string>} */
const SUITS = { s: "♠", h: "♥", d: "♦", c: "♣" };
/** @type {Record<string, string>} */
const RANKS = { T: "10" };

/** True for a card string the server could send: rank then suit.
 * @param {unknown} code
 * @returns {code is string}
 */
export function isCard(code) {
  return typeof code === "string" && /^[2-9TJQKA][shdc]$/.test(code);
}

/** The card's name in the reader's language: "ace of spades", "eso piky".
 * @param {unknown} code
 */
export function cardName(code) {
  if (!isCard(code)) return String(code);
  return t("card.name", { rank: t(`card.rank.${code[0]}`), suit: t(`card.suit.${code[1]}`) });
}

/** One card: rank, suit symbol and suit letter, coloured by suit.
 * @param {string} code
 * @param {{ size?: string }} options
 */
export function card(code, { size = "" } = {}) {
  if (!isCard(code)) return h("span", { class: "pcard pcard-unknown" }, String(code));
  const [rank, suit] = code;
  return h("span", { class: `pcard suit-${suit}${size ? ` pcard-${size}` : ""}`, role: "img", "aria-label": cardName(code), title: cardName(code) },
    h("span", { class: "pcard-rank", "aria-hidden": "true" }, RANKS[rank] || rank),
    h("span", { class: "pcard-suit", "aria-hidden": "true" }, SUITS[suit]),
    h("span", { class: "pcard-letter", "aria-hidden": "true" }, suit));
}

/** Several cards in the order dealt.
 * @param {string[] | null | undefined} codes
 * @param {{ size?: string }} options
 */
export function cards(codes, options) {
  return h("span", { class: "pcards" }, (codes || []).map((c) => card(c, options)));
}
