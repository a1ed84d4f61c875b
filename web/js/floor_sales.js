// @ts-check
// Rebuys, add-ons and re-entries on the floor phone: the buttons the server's offers allow
// (facts.js), the confirmation with the terms, and the answer shown by the button. A player
// out is told why there is no re-entry; a player in, why their own limit stops a sale.

import { offers, whyText as factText } from "./facts.js";
import * as fmt from "./format.js";
import { t } from "./i18n.js";
import { explainError, h } from "./ui.js";

/** @import { Phone } from "./floor_phone.js" */
/** @import { Player } from "./protocol.js" */
/** @import { Command } from "./types.js" */

/** @param {Phone} phone */
export function sales(phone) {
  const { conn, ui, render, send, canMove, openRule, ruleFor } = phone;

  /** @type {Record<string, (p: Player) => Command>} */
  const SALES = {
    rebuy: (/** @type {Player} */ p) => ({ type: "rebuy", player: p.id }),
    add_on: (/** @type {Player} */ p) => ({ type: "add_on", player: p.id }),
    re_entry: (/** @type {Player} */ p) => ({ type: "register", name: p.name, player: p.id }),
  };

  /** The terms of a sale as the server's offer gives them.
   * @param {any} offer
   */
  function saleTerms(offer) {
    const money = (/** @type {number} */ n) => fmt.money(n, conn.state?.structure?.prize?.currency);
    if (offer.price == null) return "";
    if (offer.kind === "re_entry") return t("sale.terms_entry", { price: money(offer.price) });
    return t("sale.terms", { chips: fmt.chips(offer.chips), price: money(offer.price) });
  }

  /**
   * @param {Player} p
   * @param {string} kind
   */
  async function sell(p, kind) {
    ui.sale = null;
    ui.saleResult = { player: p.id, kind, status: "pending", message: t("sale.sending") };
    render();
    const item = await send(SALES[kind](p), t(`sale.label.${kind}`, { name: p.name }));
    ui.saleResult = {
      player: p.id, kind, status: item.status,
      message: item.status === "done" ? t(`sale.done.${kind}`, { name: p.name })
        : item.status === "refused" ? explainError(item.error, conn)
          : item.status === "pending" ? t("race.queued") : t("floor.signin_again"),
    };
    render();
  }

  /** Rebuy / add-on / re-entry buttons for a player, the confirmation, and the last answer:
   * what the server offers the player now (facts.js). A player out is told why there is no
   * re-entry; a player in, why their own limit stops a sale.
   * @param {Player} p
   */
  function saleBlock(p) {
    const list = canMove() ? offers(conn, p) : [];
    const say = (/** @type {any} */ o) => factText(o.closed, conn, fmt.chips);
    const closed = p.busted ? list.find((o) => o.closed) : null;
    if (closed) return h("p", { class: "sale-closed muted" }, say(closed));
    const barred = list.filter((o) => o.own);
    const open = list.filter((o) => !o.closed);
    const kinds = open.map((o) => o.kind);
    const notes = barred.map((o) => h("p", { class: "sale-closed muted" }, say(o)));
    if (!kinds.length) return notes.length ? h("div", { class: "sale" }, notes) : null;
    const result = ui.saleResult && ui.saleResult.player === p.id ? ui.saleResult : null;
    let body;
    if (ui.sale && ui.sale.player === p.id) {
      const kind = ui.sale.kind;
      body = h("div", { class: "confirm-box sale-confirm", role: "alertdialog", "aria-label": t(`sale.title.${kind}`) },
        h("p", {}, t(`sale.confirm.${kind}`, { name: p.name }), " ", h("span", { class: "muted" }, saleTerms(open.find((o) => o.kind === kind) || { kind }))),
        h("div", { class: "actions" },
          h("button", { type: "button", class: "primary big", onclick: () => sell(p, kind) }, t(`sale.yes.${kind}`)),
          h("button", { type: "button", class: "big", onclick: () => { ui.sale = null; render(); } }, t("common.no"))));
    } else {
      body = h("div", { class: "actions sale-actions" }, kinds.map((kind) => h("button", {
        type: "button", class: "big",
        onclick: () => { ui.sale = { player: p.id, kind }; ui.saleResult = null; render(); },
      }, t(`sale.button.${kind}`))),
      h("button", { type: "button", class: "link-button", onclick: () => openRule(ruleFor(kinds[0])) }, t("floor.rule_link")));
    }
    return h("div", { class: "sale" }, body, notes,
      result ? h("p", { class: `sale-result ${result.status === "refused" ? "error-text" : result.status === "done" ? "ok-text" : "muted"}`,
        role: result.status === "refused" ? "alert" : "status" }, result.message) : null);
  }

  return saleBlock;
}
