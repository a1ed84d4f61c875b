// @ts-nocheck -- landed untyped beside the type check (merged the same hour); typing it is
// the next step, as for the forecaster's screens.
// The deal at the final table on the director console: the players left with their counted
// stacks, ICM or chip-chop shares the server works out (with an amount kept back to play
// for), the amounts adjusted by hand, each player's agreement, and the deal made. What may be
// dealt on, the shares and the checks are the server's (the staff facts' `deal`, the state's
// `deal_offer` and `deal`); this box shows them and sends the director's choices.

import { whyText } from "./facts.js";
import * as fmt from "./format.js";
import { t } from "./i18n.js";
import { mount } from "./mount.js";
import { fill, h } from "./ui.js";
import { dealBountiesChoice } from "./deal_bounties.js";

/** The box, rendered again when the facts, the offer or the deal change (what the director
 * is typing is kept meanwhile). `send(command, label)` is the console's outbox. */
export function dealBox(conn, send, el) {
  const currency = () => conn.state?.structure?.prize?.currency;
  el.classList.add("deal-box");
  const agreed = new Set();
  let key = "";
  const render = () => {
    const facts = conn.staff?.deal ?? null;
    const offer = conn.state?.deal_offer ?? null;
    const made = conn.state?.deal ?? null;
    const now = JSON.stringify([facts, offer, made, currency(), document.documentElement.lang]);
    if (now === key) return;
    key = now;
    if (made) return fill(el, ...madeView(conn, made, currency()), undoButton(conn, send));
    if (!facts) return fill(el, h("h2", { id: "h-deal" }, t("deal.title")), h("p", { class: "muted" }, t("deal.not_yet")));
    const standing = offer && sameStacks(offer, facts) ? offer : null;
    if (!standing) agreed.clear();
    fill(el, ...offerForm(conn, send, facts, standing, agreed, currency()));
  };
  // The key holds the language: a change of language redraws through it.
  mount(el, conn, render);
  return el;
}

function name(conn, id) {
  return conn.state?.players?.[id]?.name ?? id;
}

/** The offer was worked out on the stacks as they stand (the server refuses it otherwise). */
function sameStacks(offer, facts) {
  return offer.shares.length === facts.players.length
    && offer.shares.every((x, i) => x.player === facts.players[i][0] && x.stack === facts.players[i][1]);
}

function methodText(method) {
  return t(`deal.method.${method}`);
}

function offerForm(conn, send, facts, offer, agreed, currency) {
  const money = (n) => fmt.money(n, currency);
  const leftIn = h("input", { id: "deal-left", type: "number", min: 0, max: facts.most_left, step: 1,
    inputmode: "numeric", value: offer ? offer.left_to_play : 0 });
  const left = () => Math.max(0, Math.floor(Number(leftIn.value) || 0));
  // A knockout: the bounties on the heads in the deal or out of it (deal_bounties.py).
  const bountiesIn = facts.bounties != null ? dealBountiesChoice(facts.bounties, offer, money) : null;
  const bounties = () => (bountiesIn?.value() ?? "out");
  const compute = (method) => send({ type: "propose_deal", method, left_to_play: left(), bounties: bounties() },
    t("deal.computed", { method: methodText(method) }));
  const amountIns = {};
  const rows = facts.players.map(([player, stack, why]) => {
    const share = offer?.shares.find((x) => x.player === player);
    const amountIn = share ? h("input", { id: `deal-amount-${player}`, type: "number", min: 0, step: 1,
      inputmode: "numeric", value: share.amount, "aria-label": t("deal.amount_of", { name: name(conn, player) }) }) : null;
    if (amountIn) amountIns[player] = amountIn;
    const agree = share ? h("input", { type: "checkbox", id: `deal-agree-${player}`, checked: agreed.has(player),
      onchange: (ev) => (ev.target.checked ? agreed.add(player) : agreed.delete(player)) }) : null;
    return h("tr", { "data-player": player },
      h("td", {}, name(conn, player)),
      h("td", {}, stack == null ? "–" : fmt.chips(stack), why ? h("div", { class: "warn-text" }, whyText(why, conn)) : null),
      h("td", {}, amountIn ?? "–"),
      h("td", {}, agree ? h("label", { for: `deal-agree-${player}`, class: "check" }, agree, t("deal.agrees")) : "–"));
  });
  const inDeal = facts.prizes.reduce((a, b) => a + b, 0) - (offer ? offer.left_to_play : 0) + (offer?.bounties || 0);
  const adjust = () => send({ type: "propose_deal", method: "custom", left_to_play: offer.left_to_play, bounties: offer.bounties ? "in" : "out",
    shares: offer.shares.map((x) => ({ player: x.player, amount: Math.floor(Number(amountIns[x.player].value) || 0) })) },
  t("deal.adjusted"));
  const make = () => {
    if (!window.confirm(t(offer.left_to_play ? "deal.make_confirm_on" : "deal.make_confirm_end",
      { left: money(offer.left_to_play) }))) return;
    send({ type: "make_deal", agreed: offer.shares.map((x) => x.player).filter((p) => agreed.has(p)) }, t("deal.made_done"));
  };
  return [
    h("h2", { id: "h-deal" }, t("deal.title")),
    h("p", { class: "hint" }, t("deal.prizes_left", { prizes: facts.prizes.map(money).join(" · ") })),
    facts.why ? h("p", { class: "warn-text", role: "status" }, whyText(facts.why, conn)) : null,
    h("div", { class: "row deal-compute" },
      h("div", { class: "field" }, h("label", { for: "deal-left" }, t("deal.left_to_play", { most: money(facts.most_left) })), leftIn),
      h("button", { type: "button", class: "deal-icm", disabled: !!facts.why, onclick: () => compute("icm") }, t("deal.compute_icm")),
      h("button", { type: "button", class: "deal-chop", disabled: !!facts.why, onclick: () => compute("chip_chop") }, t("deal.compute_chop"))),
    bountiesIn?.el ?? null,
    h("table", { class: "data deal-table" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("director.col_name")), h("th", { scope: "col" }, t("deal.stack")),
        h("th", { scope: "col" }, t("deal.amount")), h("th", { scope: "col" }, t("deal.agreement")))),
      h("tbody", {}, rows)),
    offer ? h("p", { class: "deal-total" }, t("deal.offer", { method: methodText(offer.method), total: money(inDeal),
      left: money(offer.left_to_play) })) : null,
    offer?.bounties ? h("p", { class: "deal-bounties" }, t("deal.bounties_made", { amount: money(offer.bounties) })) : null,
    offer ? h("div", { class: "actions" },
      h("button", { type: "button", class: "deal-adjust", onclick: adjust }, t("deal.adjust")),
      h("button", { type: "button", class: "warn big deal-make", onclick: make },
        t(offer.left_to_play ? "deal.make_on" : "deal.make_end"))) : null,
  ];
}

function madeView(conn, made, currency) {
  const money = (n) => fmt.money(n, currency);
  return [
    h("h2", { id: "h-deal" }, t("deal.title")),
    h("p", { class: "deal-made", role: "status" }, t(made.ends ? "deal.made_end" : "deal.made_on",
      { method: methodText(made.method), left: money(made.left_to_play) })),
    made.bounties ? h("p", { class: "deal-bounties" }, t("deal.bounties_made", { amount: money(made.bounties) })) : null,
    h("table", { class: "data deal-table" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("director.col_name")), h("th", { scope: "col" }, t("deal.stack")),
        h("th", { scope: "col" }, t("deal.amount")), h("th", { scope: "col" }, t("deal.agreement")))),
      h("tbody", {}, made.shares.map((x) => h("tr", { "data-player": x.player },
        h("td", {}, name(conn, x.player)), h("td", {}, fmt.chips(x.stack)), h("td", {}, money(x.amount)),
        h("td", {}, made.agreed.includes(x.player) ? t("deal.agreed") : "–"))))),
  ];
}

/** The deal taken back (refused by the server once a bust-out was played for it, or once
 * the tournament is closed), with the director's reason. */
function undoButton(conn, send) {
  return h("div", { class: "actions" }, h("button", { type: "button", class: "ghost deal-undo", onclick: () => {
    const reason = window.prompt(t("deal.undo_reason"));
    if (!reason || !reason.trim()) return;
    send({ type: "undo_deal", reason: reason.trim() }, t("deal.undone"));
  } }, t("deal.undo")));
}
