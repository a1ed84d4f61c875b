// @ts-check
// The director console's prizes: the pool's facts, the payouts, the results with shared
// places and each player's buys, and the results as a CSV download.

import * as fmt from "./format.js";
import { t } from "./i18n.js";
import { finisherGroups, percentText, placeText, poolFacts } from "./prizes.js";
import { fill, h, icon } from "./ui.js";

/** @import { Desk } from "./director_desk.js" */
/** @import { Child } from "./ui.js" */

/** @param {Desk} desk */
export function prizesSection(desk) {
  const { conn, tid, prizes, sections, heading } = desk;

  function renderPrizes() {
    const el = sections.prizes;
    if (!conn || !conn.state) return fill(el, heading("prizes", "director.prizes"));
    const d = prizes.data;
    const pool = d?.pool ?? null;
    const csv = h("a", { class: "button", href: `/api/t/${encodeURIComponent(tid)}/results.csv`, download: `${tid}-results.csv` },
      icon("⤓"), t("director.results_csv"));
    if (!d) {
      return fill(el, heading("prizes", "director.prizes"),
        h("p", { class: "muted" }, prizes.failed ? t("error.network") : t("clock.waiting")), csv);
    }
    const money = (/** @type {number} */ n) => fmt.money(n, pool?.currency);
    const facts = pool ? h("dl", { class: "pool-facts" },
      [...poolFacts(pool), [t("prizes.collected"), money(pool.collected)], [t("prizes.fees"), money(pool.fees)]]
        .map(([k, v]) => h("div", {}, h("dt", {}, k), h("dd", {}, v)))) : null;
    // A box that scrolls is reached by the keyboard too (its arrow keys scroll it), named by
    // its heading.
    const scrollBox = (/** @type {string} */ label, /** @type {Child[]} */ ...children) => h("div", { class: "scroll-box", tabindex: "0", role: "region", "aria-labelledby": label }, children);
    const payouts = pool ? h("div", {}, h("h3", { id: "h-payouts" }, t("prizes.payouts")), scrollBox("h-payouts",
      h("table", { class: "data" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("prizes.place")), h("th", { scope: "col" }, "%"),
          h("th", { scope: "col" }, t("prizes.prize")))),
        h("tbody", {}, pool.places.map((/** @type {any} */ p) => h("tr", {}, h("td", {}, fmt.ordinal(p.place)),
          h("td", {}, percentText(p.percent)), h("td", {}, money(p.prize)))))))) : null;
    const groups = finisherGroups(d.results);
    const rows = groups.slice(0, 100).flatMap((g) => g.players.map((x) => h("tr", {},
      h("td", {}, placeText(g.place, g.tied), g.tied > 1 ? h("span", { class: "badge badge-shared" }, t("prizes.shared")) : null),
      h("td", {}, x.name, x.seat ? h("span", { class: "badge badge-seat" }, t("prizes.seat")) : null),
      h("td", {}, x.prize ? money(x.prize) : "–", x.deal ? h("span", { class: "badge badge-deal" }, t("deal.badge")) : null),
      h("td", { class: "muted" }, t("prizes.buys_value", { entries: x.entries, rebuys: x.rebuys, add_ons: x.add_ons })))));
    const results = h("div", {}, h("h3", { id: "h-results" }, t("prizes.results")), groups.length
      ? scrollBox("h-results", h("table", { class: "data" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("prizes.place")), h("th", { scope: "col" }, t("director.col_name")),
          h("th", { scope: "col" }, t("prizes.prize")), h("th", { scope: "col" }, t("prizes.buys")))),
        h("tbody", {}, rows)))
      : h("p", { class: "muted" }, t("prizes.no_results")));
    fill(el, heading("prizes", "director.prizes", pool ? fmt.money(pool.pool, pool.currency) : t("director.no_prize")),
      facts, h("div", { class: "actions" }, csv), h("div", { class: "two-col" }, payouts, results));
  }

  return renderPrizes;
}
