// @ts-check
// The end of the tournament on the wall: the winner, large, in place of the clock, and the
// final standings with prizes as a page of its own, in parts where they do not fit at the
// wall's smallest text. Who won and where everybody finished are the server's (the derived
// facts' winner, GET /api/t/{id}/prizes); this lays them out.

import { ending } from "./finished.js";
import * as fmt from "./format.js";
import { t } from "./i18n.js";
import { mount } from "./mount.js";
import { finisherGroups, placeText } from "./prizes.js";
import { fill, h } from "./ui.js";
/** @import { Conn } from "./types.js" */

/** The winner panel of the wall's left column: hidden while the tournament is live.
 * @param {Conn} conn
 * @param {import("./prizes.js").Prizes} prizes
 */
export function winnerPanel(conn, prizes) {
  const statusEl = h("div", { class: "ww-status" });
  const labelEl = h("div", { class: "ww-label" });
  const nameEl = h("div", { class: "ww-name" });
  const prizeEl = h("div", { class: "ww-prize" });
  const metaEl = h("div", { class: "ww-meta" });
  const el = h("section", { class: "wall-winner", hidden: true, "aria-live": "polite" },
    statusEl, labelEl, nameEl, prizeEl, metaEl);
  const render = () => {
    const end = ending(conn);
    el.hidden = !end;
    if (!end) return;
    el.dataset.status = end.status;
    el.setAttribute("aria-label", t("finish.winner"));
    statusEl.textContent = t(end.status === "closed" ? "finish.closed" : "finish.finished");
    labelEl.textContent = t("finish.winner");
    nameEl.textContent = end.winner.name;
    const first = (prizes.data?.results || []).find((/** @type {any} */ r) => r.player === end.winner.player);
    const currency = prizes.data?.pool?.currency;
    // A deal at the final table paid the winner their share (and what was left to play for).
    fill(prizeEl, first && first.prize ? [h("span", { class: "k" }, t(first.deal ? "deal.prize_winner" : "finish.prize_first")), " ",
      h("strong", {}, fmt.money(first.prize, currency))] : null);
    const entries = conn.state?.entries ?? 0;
    fill(metaEl, [t("finish.players", { n: entries }), end.winner.at ? fmt.timeOfDay(end.winner.at) : ""]
      .filter(Boolean).join(" · "));
  };
  mount(el, conn, render);
  prizes.onChange(render);
  return el;
}

/** One row of the standings: the place (shared places as a range), the names, the prize.
 * @param {any} g
 * @param {number} paid
 * @param {string | null | undefined} currency
 */
function standingItem(g, paid, currency) {
  const shared = g.tied > 1;
  return h("li", { class: `standing${g.place <= paid ? " paid" : ""}${g.place === 1 ? " winner" : ""}` },
    h("span", { class: "st-place" }, placeText(g.place, g.tied)),
    h("span", { class: "st-names" }, g.players.map((/** @type {any} */ x) => x.name).join(" · "),
      shared ? h("span", { class: "badge badge-shared" }, t("prizes.shared")) : null,
      g.players.some((/** @type {any} */ x) => x.deal) ? h("span", { class: "badge badge-deal" }, t("deal.badge")) : null),
    h("span", { class: "st-prize" }, g.prize ? fmt.money(g.prize, currency) : "–",
      shared && g.prize ? h("span", { class: "each" }, ` ${t("prizes.each")}`) : null));
}

let fitted = { key: "", rows: 1, cols: 1 };

/** Rows per column and columns that fit `list` in `box` at the rows' own sizes.
 * @param {HTMLElement} box
 * @param {HTMLElement} head
 * @param {HTMLElement} list
 * @param {any[]} groups
 * @param {(g: any) => HTMLElement} make
 */
function fit(box, head, list, groups, make) {
  const key = JSON.stringify([groups.length, Math.round(box.clientWidth), Math.round(box.clientHeight),
    document.documentElement.lang]);
  if (key === fitted.key) return fitted;
  list.classList.add("measuring");
  fill(list, groups.map(make));
  const items = [...list.children];
  const rowH = Math.max(1, ...items.map((li) => li.getBoundingClientRect().height));
  const rowW = Math.max(1, ...items.map((li) => li.getBoundingClientRect().width));
  list.classList.remove("measuring");
  const gap = parseFloat(getComputedStyle(list).columnGap) || 0;
  const height = box.getBoundingClientRect().height - head.getBoundingClientRect().height - 8;
  const width = list.getBoundingClientRect().width;
  // Two columns at most: a third would cut the names short.
  fitted = {
    key,
    rows: Math.max(1, Math.floor(height / rowH)),
    cols: Math.max(1, Math.min(2, Math.floor((width + gap) / (Math.min(rowW, width) + gap)))),
  };
  return fitted;
}

/**
 * Render part `part` of the standings into the page (`box`, with `head` and `list`): every
 * place on a phone (`narrow`), else as many as fit, the rest in further parts. `partText(n)`
 * says which part is shown. Returns the number of parts.
 * @param {{ box: HTMLElement, head: HTMLElement, list: HTMLElement, prizes: any, part?: number,
 *   narrow?: boolean, partText?: (parts: number) => string,
 *   deal?: import("./protocol.js").DealMade | null }} options
 */
export function renderStandings({ box, head, list, prizes, part = 0, narrow = false, partText = () => "", deal = null }) {
  const d = prizes.data;
  const groups = finisherGroups(d?.results);
  const paid = (d?.pool?.places || []).length;
  const currency = d?.pool?.currency;
  const make = (/** @type {any} */ g) => standingItem(g, paid, currency);
  let shown = groups;
  let parts = 1;
  if (!narrow && groups.length && !box.hidden) {
    const { rows, cols } = fit(box, head, list, groups, make);
    const per = rows * cols;
    parts = Math.max(1, Math.ceil(groups.length / per));
    const at = Math.min(part, parts - 1);
    shown = groups.slice(at * per, (at + 1) * per);
    list.style.setProperty("--rows", String(Math.min(rows, Math.ceil(shown.length / cols) || 1)));
    list.style.setProperty("--cols", String(cols));
  }
  fill(head, h("h2", {}, t("finish.standings")),
    deal ? h("p", { class: "deal-made" }, t(deal.ends ? "deal.made_end" : "deal.made_on",
      { method: t(`deal.method.${deal.method}`), left: fmt.money(deal.left_to_play, currency) })) : null,
    parts > 1 && shown.length ? h("p", { class: "page-of" },
      t("finish.standings_part", { from: shown[0].place, to: shown[shown.length - 1].place + shown[shown.length - 1].tied - 1 }),
      " · ", partText(parts)) : null);
  fill(list, shown.length ? shown.map(make)
    : h("li", { class: "muted" }, prizes.failed ? t("error.network") : d ? t("finish.no_results") : t("clock.waiting")));
  return parts;
}
