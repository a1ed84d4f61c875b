// @ts-check
// Mystery bounties as the server sends them (the public facts' `bounties` with `kind:
// "mystery"`, floor/engine/bounty_facts.py; a player's record `bounty`): the wall's lists (the
// envelopes left by amount, the last envelopes drawn), the pool's figures, a player's envelopes,
// the table screen's line for the last envelope drawn at it. Rendering only: every amount and
// every draw is the server's (floor/engine/mystery.py draws them).

import * as fmt from "./format.js";
import { t } from "./i18n.js";
import { h, playerName } from "./ui.js";
/** @import { Conn } from "./types.js" */

/** The pool's figures as [label, value] pairs.
 * @param {any} f */
export function mysteryFigures(f) {
  const money = (/** @type {number} */ n) => fmt.money(n, f.currency);
  return [
    [t("bounty.kind.mystery"), money(f.part)],
    [t("mystery.pool"), money(f.pool)],
    [t("mystery.drawn"), money(f.won - (f.rest || 0))],
    [t("mystery.left"), money(f.left)],
  ];
}

/** "1,000 × 1, 200 × 2": the envelope pool set in advance.
 * @param {any} bounty the settings (`structure.prize.bounty`)
 * @param {string | undefined} currency */
export function envelopeLines(bounty, currency) {
  return (bounty?.envelopes || []).map((/** @type {[number, number]} */ [amount, count]) =>
    `${fmt.money(amount, currency)} × ${fmt.number(count)}`).join(", ");
}

/** Where the drawing starts, while it has not.
 * @param {any} bounty the settings */
function startsAt(bounty) {
  const from = bounty?.mystery_from || "money";
  return t(`mystery.from.${from}`, { level: bounty?.mystery_level ?? "" });
}

/** The wall's two lists for a mystery bounty: the envelopes left by amount (largest first), the
 * last envelopes drawn (newest first).
 * @param {Conn} conn
 * @param {any} f the facts
 * @param {HTMLElement} leftEl
 * @param {HTMLElement} lastEl */
export function mysteryLists(conn, f, leftEl, lastEl) {
  const money = (/** @type {number} */ n) => fmt.money(n, f.currency);
  const lines = [...f.envelopes].reverse();
  leftEl.replaceChildren(...lines.map((/** @type {[number, number, number]} */ [amount, left, count]) =>
    h("li", { class: `chips-row envelope-row${left ? "" : " gone"}`, dataset: { amount, left } },
      h("span", { class: "rank envelope-icon", "aria-hidden": "true" }, "✉"),
      h("span", { class: "stack bounty-amount" }, money(amount)),
      h("span", { class: "who envelope-left" }, t("mystery.left_line", { left: fmt.number(left), count: fmt.number(count) })))));
  const state = h("li", { class: `envelope-state${f.drawing ? " on" : ""}` },
    f.drawing ? t("mystery.drawing") : startsAt(conn.state?.structure?.prize?.bounty));
  const rest = f.rest ? h("li", { class: "bounty-won envelope-rest" },
    h("span", { class: "bounty-amount" }, money(f.rest)), h("span", { class: "who" }, t("mystery.rest")), h("span")) : null;
  lastEl.replaceChildren(state, ...(rest ? [rest] : []), ...(f.last.length ? f.last.map((/** @type {[string, string[], number, number]} */ [busted, winners, amount, at]) =>
    h("li", { class: "bounty-won envelope-drawn", dataset: { amount } },
      h("span", { class: "bounty-amount" }, `✉ ${money(amount)}`),
      h("span", { class: "who" }, t("bounty.won_line", { winners: winners.map((w) => playerName(conn, w)).join(", "), busted: playerName(conn, busted) })),
      h("span", { class: "at" }, fmt.timeOfDay(at))))
    : [h("li", { class: "muted" }, t("mystery.none_drawn"))]));
}

/** A player's envelopes: what they drew, what they won, what their own bust-out drew.
 * @param {Conn} conn
 * @param {any} p */
export function mysteryPlayer(conn, p) {
  if (!p) return null;
  const currency = conn.state?.structure?.prize?.currency;
  const money = (/** @type {number} */ n) => fmt.money(n, currency);
  const r = p.bounty;
  const drew = r?.drew || [];
  const owed = r ? r.won - r.paid : 0;
  return h("section", { class: "bounty-box card mystery-box", "aria-label": t("bounty.title") },
    h("h3", {}, t("mystery.money.mystery")),
    h("ul", { class: "bounty-list" },
      h("li", {}, h("span", {}, t("mystery.you_drew")),
        h("span", { class: "amount", dataset: { bounty: "drew" } }, drew.length ? drew.map((/** @type {number} */ x) => `✉ ${money(x)}`).join(" · ") : "–")),
      h("li", {}, h("span", {}, t("mystery.you_won")),
        h("span", { class: "amount", dataset: { bounty: "won" } }, money(r?.won ?? 0))),
      p.busted && r?.envelope ? h("li", {}, h("span", {}, t("mystery.your_envelope", { amount: money(r.envelope) }))) : null,
      owed > 0 ? h("li", {}, h("span", {}, t("bounty.owed")), h("span", { class: "amount" }, money(owed))) : null));
}

/** The table screen's line for the last envelope drawn at `table`, or null.
 * @param {Conn} conn
 * @param {number} table
 * @returns {[string, string] | null} */
export function mysteryNotice(conn, table) {
  const f = /** @type {any} */ (conn.facts)?.bounties;
  if (!f || f.kind !== "mystery") return null;
  const players = conn.state?.players || {};
  const last = f.last.find((/** @type {[string, string[], number, number]} */ [busted]) => players[busted]?.bust?.table === table);
  if (!last) return null;
  const [busted, winners, amount] = last;
  return ["envelope", t("mystery.table_drawn", {
    amount: fmt.money(amount, f.currency),
    winners: winners.map((/** @type {string} */ w) => playerName(conn, w)).join(", "),
    busted: playerName(conn, busted),
  })];
}

/** The payout sheet's lines for a mystery bounty: the pool by amount, drawn, left.
 * @param {any} f the facts
 * @param {(n: number) => string} money
 * @returns {[string, string][]} */
export function envelopeFacts(f, money) {
  const lines = (/** @type {[number, number][]} */ xs) => xs.map(([a, n]) => `${money(a)} × ${fmt.number(n)}`).join(", ");
  return [
    [t("mystery.pool"), `${money(f.pool)} (${lines(f.envelopes.map((/** @type {number[]} */ x) => [x[0], x[2]]))})`],
    [t("mystery.drawn"), money(f.won - (f.rest || 0))],
    [t("mystery.envelopes_left"), lines(f.envelopes.filter((/** @type {number[]} */ x) => x[1]).map((/** @type {number[]} */ x) => [x[0], x[1]])) || "–"],
    ...(f.rest ? [/** @type {[string, string]} */ ([t("mystery.rest"), money(f.rest)])] : []),
  ];
}
