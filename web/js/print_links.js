// @ts-check
// Links to the printables (print.js), for every screen that gives a seat: one tap opens the
// seat card, printed at once on the paper last chosen.

import { t } from "./i18n.js";
import { h } from "./ui.js";
/** @import { Player } from "./protocol.js" */

/** A printable's address: `/print/<id>?what=...` (print.js).
 * @param {string} tid
 * @param {string} what
 * @param {Record<string, string>} extra
 */
export function printHref(tid, what, extra = {}) {
  const q = new URLSearchParams({ what, ...extra });
  return `/print/${encodeURIComponent(tid)}?${q}`;
}

/** One tap prints a player's seat card (the seat they hold, or the seat their move takes
 * them to), on the paper last chosen.
 * @param {string} tid
 * @param {Player} p
 */
export function cardLink(tid, p) {
  if (p.busted || p.table == null) return null;
  return h("a", { class: "button small print-card", href: printHref(tid, "cards", { player: p.id, auto: "1" }), target: "_blank", rel: "noopener",
    title: t("paper.print_card_of", { name: p.name }), "aria-label": t("paper.print_card_of", { name: p.name }) }, t("paper.card"));
}

