// @ts-check
// The wall's prizes page: the pool's facts, the payout ladder (in parts where it is longer
// than the page holds at a readable size) and the results, the best places first.

import * as fmt from "./format.js";
import { t } from "./i18n.js";
import { finisherGroups, payoutRows, placeText, placesText, poolFacts } from "./prizes.js";
import { fill, h } from "./ui.js";
import { narrow, trimToFit } from "./wall_fit.js";

/** @import { Rotation } from "./wall_pages.js" */

/** A tournament with prize settings or results: else the page is skipped.
 * @param {any} prizes prizes.js's Prizes */
export function hasPrizes(prizes) {
  const d = prizes.data;
  return !!d && (d.pool != null || (d.results || []).length > 0);
}

/** @param {{ prizes: any, rotation: Rotation }} options */
export function prizesPage({ prizes, rotation }) {
  const head = h("div", { class: "page-head" });
  const payoutsHead = h("h3", {});
  const payoutsList = h("ol", { class: "payout-list" });
  const payoutsBox = h("section", { class: "prize-box payouts" }, payoutsHead, payoutsList);
  const resultsBox = h("section", { class: "prize-box results" });
  const grid = h("div", { class: "wall-prizes" }, payoutsBox, resultsBox);
  const el = h("section", { class: "page page-prizes", dataset: { page: "prizes" } }, head, grid);

  /** The payout ladder's rows per part of the page, as they fit the box at the wall's sizes:
   * {rows, cols} (columns filled top to bottom). */
  let ladderFit = { key: "", rows: 0, cols: 1 };

  /** @param {any} r a row of payoutRows */
  function payoutItem(r) {
    return h("li", { class: "payout" },
      h("span", { class: "payout-place" }, placesText(r.from, r.to)),
      h("span", { class: "payout-prize" }, fmt.money(r.prize, prizes.data?.pool?.currency),
        r.to > r.from ? h("span", { class: "each" }, ` ${t("prizes.each")}`) : null));
  }

  /** @param {any[]} rows */
  function fitLadder(rows) {
    const key = JSON.stringify([rows.length, Math.round(payoutsBox.clientWidth), Math.round(payoutsBox.clientHeight),
      document.documentElement.lang]);
    if (key === ladderFit.key) return ladderFit;
    // Every row once, one column, each as wide as its text: the tallest and the widest row.
    payoutsList.classList.add("measuring");
    fill(payoutsList, rows.map(payoutItem));
    const items = [...payoutsList.children];
    const rowH = Math.max(1, ...items.map((li) => li.getBoundingClientRect().height));
    const rowW = Math.max(1, ...items.map((li) => li.getBoundingClientRect().width));
    payoutsList.classList.remove("measuring");
    const style = getComputedStyle(payoutsList);
    const gap = parseFloat(style.columnGap) || 0;
    const box = payoutsBox.getBoundingClientRect();
    const pad = parseFloat(getComputedStyle(payoutsBox).paddingTop) + parseFloat(getComputedStyle(payoutsBox).paddingBottom);
    const height = box.height - pad - payoutsHead.getBoundingClientRect().height - 4;
    const width = payoutsList.getBoundingClientRect().width;
    ladderFit = {
      key,
      rows: Math.max(1, Math.floor(height / rowH)),
      cols: Math.max(1, Math.floor((width + gap) / (rowW + gap))),
    };
    return ladderFit;
  }

  function render() {
    const d = prizes.data;
    const pool = d?.pool ?? null;
    fill(head, h("h2", {}, t("wall.page.prizes")),
      pool ? h("ul", { class: "prize-facts" }, poolFacts(pool).map(([k, v]) => h("li", {}, h("span", { class: "k" }, k), " ", h("strong", {}, v))))
        : null);
    if (!d) {
      payoutsBox.hidden = false;
      fill(payoutsHead, t("prizes.payouts"));
      fill(payoutsList, h("li", { class: "muted" }, prizes.failed ? t("error.network") : t("clock.waiting")));
      fill(resultsBox);
      return;
    }
    payoutsBox.hidden = !pool;
    if (pool) {
      const rows = payoutRows(pool);
      // The whole ladder, in as many parts as it takes (a phone scrolls instead).
      let shown = rows;
      if (!narrow() && !el.hidden) {
        // A ladder longer than a column takes the room of two.
        let fit = fitLadder(rows);
        const long = rows.length > fit.rows;
        if (long !== grid.classList.contains("long")) {
          grid.classList.toggle("long", long);
          fit = fitLadder(rows);
        }
        const per = fit.rows * fit.cols;
        rotation.setParts("prizes", Math.max(1, Math.ceil(rows.length / per)));
        const part = rotation.partOf("prizes");
        shown = rows.slice(part * per, (part + 1) * per);
        payoutsList.style.setProperty("--rows", String(Math.min(fit.rows, Math.ceil(shown.length / fit.cols) || 1)));
        payoutsList.style.setProperty("--cols", String(fit.cols));
      }
      fill(payoutsHead, t("prizes.payouts"), rotation.parts.prizes > 1 && shown.length ? h("span", { class: "page-of" }, " · ",
        t("wall.places_range", { from: shown[0].from, to: shown[shown.length - 1].to }), " · ", rotation.partText("prizes")) : null);
      fill(payoutsList, shown.map(payoutItem));
    } else {
      rotation.setParts("prizes", 1);
    }
    const groups = finisherGroups(d.results);
    const paid = (pool?.places || []).length;
    const more = h("p", { class: "more-results muted" });
    fill(resultsBox, h("h3", {}, t("prizes.results")),
      groups.length ? h("table", { class: "finish-table" },
        h("caption", { class: "sr-only" }, t("prizes.results")),
        h("tbody", {}, groups.map((/** @type {any} */ g) => h("tr", { class: `finish${g.place <= paid ? " paid" : ""}${g.place === 1 ? " winner" : ""}` },
          h("th", { scope: "row", class: "finish-place" }, placeText(g.place, g.tied)),
          h("td", { class: "finish-names" }, g.players.map((/** @type {any} */ x) => x.name).join(" · "),
            g.tied > 1 ? h("span", { class: "badge badge-shared" }, t("prizes.shared")) : null),
          h("td", { class: "finish-prize" }, g.prize ? fmt.money(g.prize, pool?.currency) : "–",
            g.tied > 1 && g.prize ? h("span", { class: "each" }, ` ${t("prizes.each")}`) : null)))))
        : h("p", { class: "muted" }, t("prizes.no_results")),
      groups.length ? more : null);
    if (!narrow() && !el.hidden && groups.length) {
      // The best places first; those that do not fit are counted, not cut in half.
      more.textContent = t("wall.more_results", { n: groups.length });
      trimToFit(resultsBox);
      const left = groups.length - resultsBox.querySelectorAll("tbody tr").length;
      if (left > 0) more.textContent = t("wall.more_results", { n: left });
      else more.remove();
    } else more.remove();
  }

  return { el, render };
}
