// @ts-check
// The bounties as the server sends them (the public facts' `bounties`,
// floor/engine/bounty_facts.py; a player's own record `bounty`): the wall's page (the largest
// bounties left, the last ones won, the pool), a player's own bounty and winnings, and the
// pool's figures for the consoles. Rendering only: every amount is the server's.

import * as fmt from "./format.js";
import { t } from "./i18n.js";
import { fill, h, playerName } from "./ui.js";
import { bountyOf, headOf } from "./bounty_pick.js";
import { mysteryFigures, mysteryLists, mysteryPlayer } from "./mystery_view.js";
import { mount } from "./mount.js";
/** @import { Conn } from "./types.js" */

/** The bounty facts, or null: no bounties.
 * @param {Conn} conn */
export function bountyFacts(conn) {
  return /** @type {any} */ (conn.facts)?.bounties || null;
}

/** The pool's figures as [label, value] pairs.
 * @param {any} f */
export function bountyFigures(f) {
  if (f.kind === "mystery") return mysteryFigures(f);
  const money = (/** @type {number} */ n) => fmt.money(n, f.currency);
  return [
    [t(`bounty.kind.${f.kind}`), money(f.part)],
    [t("bounty.pool"), money(f.pool)],
    [t("bounty.won"), money(f.won)],
    [t("bounty.left"), money(f.left)],
  ];
}

/** The wall's bounties page: the largest bounties left, the last won, the pool.
 * @param {Conn} conn */
export function bountyWallPage(conn) {
  const head = h("div", { class: "page-head" });
  const largest = h("ol", { class: "chips-list bounty-largest" });
  const last = h("ul", { class: "bounty-last" });
  const page = h("section", { class: "page page-bounties", dataset: { page: "bounties" } }, head,
    h("div", { class: "bounty-wall" },
      h("section", { class: "bounty-col" }, h("h3", { "data-i18n": "bounty.largest" }), largest),
      h("section", { class: "bounty-col" }, h("h3", { "data-i18n": "bounty.last" }), last)));
  let drawn = "";
  const draw = () => {
    const f = bountyFacts(conn);
    const key = JSON.stringify([f, document.documentElement.lang, f ? f.largest.map((/** @type {any} */ x) => playerName(conn, x[0])) : null]);
    if (key === drawn) return;
    drawn = key;
    page.classList.toggle("empty", !f);
    // A mystery bounty: the envelopes left by amount and the last drawn (mystery_view.js).
    const mystery = f?.kind === "mystery";
    const [leftHead, lastHead] = page.querySelectorAll("h3");
    leftHead.dataset.i18n = mystery ? "mystery.envelopes_left" : "bounty.largest";
    lastHead.dataset.i18n = mystery ? "mystery.last" : "bounty.last";
    for (const el of page.querySelectorAll("[data-i18n]")) el.textContent = t(/** @type {HTMLElement} */ (el).dataset.i18n || "");
    if (!f) return fill(head), largest.replaceChildren(), last.replaceChildren();
    const money = (/** @type {number} */ n) => fmt.money(n, f.currency);
    fill(head, h("h2", {}, t("bounty.title")),
      h("span", { class: "chips-meta" }, bountyFigures(f).map(([k, v]) => `${k} ${v}`).join(" · ")));
    if (mystery) return mysteryLists(conn, f, largest, last);
    largest.replaceChildren(...(f.largest.length ? f.largest.map((/** @type {[string, number]} */ [pid, amount], /** @type {number} */ i) =>
      h("li", { class: "chips-row" },
        h("span", { class: "rank" }, i + 1),
        h("span", { class: "who" }, playerName(conn, pid)),
        h("span", { class: "stack bounty-amount" }, money(amount))))
      : [h("li", { class: "muted" }, t("bounty.none_left"))]));
    last.replaceChildren(...(f.last.length ? f.last.map((/** @type {[string, string[], number, number]} */ [busted, winners, amount, at]) =>
      h("li", { class: "bounty-won" },
        h("span", { class: "bounty-amount" }, money(amount)),
        h("span", { class: "who" }, t("bounty.won_line", { winners: winners.map((w) => playerName(conn, w)).join(", "), busted: playerName(conn, busted) })),
        h("span", { class: "at" }, fmt.timeOfDay(at))))
      : [h("li", { class: "muted" }, t("bounty.none_won"))]));
  };
  mount(page, conn, draw);
  return page;
}

/** A player's own bounty and what they have won (the player screen; a seat on the staff's).
 * @param {Conn} conn
 * @param {any} p */
export function playerBounty(conn, p) {
  const state = conn.state;
  if (bountyOf(state)?.kind === "mystery") return mysteryPlayer(conn, p);
  const head = headOf(state, p);
  if (head == null) return null;
  const currency = state?.structure?.prize?.currency;
  const r = p.bounty;
  const owed = r ? r.won - r.paid : 0;
  return h("section", { class: "bounty-box card", "aria-label": t("bounty.title") },
    h("h3", {}, t("bounty.title")),
    h("ul", { class: "bounty-list" },
      h("li", {}, h("span", {}, p.busted ? t("bounty.was_on_head") : t("bounty.on_head")),
        h("span", { class: "amount", dataset: { bounty: "head" } }, fmt.money(p.busted ? r?.taken ?? 0 : head, currency))),
      h("li", {}, h("span", {}, t("bounty.you_won")),
        h("span", { class: "amount", dataset: { bounty: "won" } }, fmt.money(r?.won ?? 0, currency))),
      owed > 0 ? h("li", {}, h("span", {}, t("bounty.owed")), h("span", { class: "amount" }, fmt.money(owed, currency))) : null));
}
