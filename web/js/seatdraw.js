// @ts-check
// The seat draw on the wall: every seated player by surname, in the venue's alphabet, with
// their table and seat, read from five metres (names 4.2rem: 67 px, 4.2 cm on a 55-inch 1080p
// panel). The list is shown in pages that turn, each headed by its letter range; a wall given
// ?split=1/2 shows the first half of the alphabet and another ?split=2/2 the rest, so two walls
// show a big field in half the time.
//
// The page takes the whole width of the wall while it is up (the room is looking for seats,
// not at the map), and by default it is up only before the clock starts: after the draw, after
// a redraw, and on Day 2 after its draw. ?pages=seats keeps it up all day on a wall of its own.

import { spot } from "./format.js";
import { t } from "./i18n.js";
import { fill, h } from "./ui.js";
import { byName, letterOf, surname } from "./venue.js";
/** @import { Player, TournamentState } from "./protocol.js" */
/** @import { Conn } from "./types.js" */

const params = new URLSearchParams(location.search);

/** This wall's share of the alphabet: [n, of] from ?split=n/of (1/1: all of it). */
function split() {
  const m = /^(\d)\/(\d)$/.exec(params.get("split") || "");
  const of = m ? Number(m[2]) : 1;
  const n = m ? Number(m[1]) : 1;
  return of >= 1 && n >= 1 && n <= of ? [n, of] : [1, 1];
}

/** The seated players of `state` this wall shows, in the venue's order.
 * @param {TournamentState | null | undefined} state
 * @returns {Player[]}
 */
export function drawList(state) {
  const seated = Object.values(state?.players || {})
    .filter((p) => !p.busted && p.table != null && p.seat != null)
    .sort(byName);
  const [n, of] = split();
  if (of === 1) return seated;
  // Cut at a letter, as near the even share as the letters allow: one letter is on one wall.
  const cuts = [0];
  for (let k = 1; k < of; k += 1) {
    let at = Math.round((seated.length * k) / of);
    while (at > cuts[k - 1] && at < seated.length && letterOf(seated[at].name) === letterOf(seated[at - 1].name)) at += 1;
    cuts.push(Math.min(at, seated.length));
  }
  cuts.push(seated.length);
  return seated.slice(cuts[n - 1], cuts[n]);
}

/** The page: `el` to put among the wall's pages, `layout(box)` to measure how many rows a part
 * holds in the room it has (the number of parts back), `render(part)` to show one part.
 * @param {Conn} conn
 */
export function seatDrawPage(conn) {
  const head = h("div", { class: "page-head" });
  const list = h("ol", { class: "draw-list" });
  const el = h("section", { class: "page page-seats", dataset: { page: "seats" } }, head, list);
  let perPart = Infinity;
  /** @type {Player[]} */
  let players = [];

  /** @param {Player} p */
  function row(p) {
    const last = surname(p.name);
    const first = p.name.slice(0, p.name.length - last.length).trim();
    return h("li", { class: "draw-row" },
      h("span", { class: "draw-name" }, h("strong", {}, last), first ? ` ${first}` : ""),
      h("span", { class: "draw-seat" }, spot(p.table, p.seat)));
  }

  /** How many parts the list needs where the page is `height` px tall (Infinity rows on a
   * narrow screen, where the page scrolls as one column).
   * @param {boolean} narrow
   */
  function layout(narrow) {
    players = drawList(conn.state);
    if (narrow || !players.length) {
      perPart = Infinity;
      return 1;
    }
    fill(list, row(players[0]));
    fill(head, h("h2", {}, t("wall.page.seats")));
    const probe = list.firstElementChild?.getBoundingClientRect().height || 80;
    const gap = parseFloat(getComputedStyle(list).rowGap) || 0;
    const room = el.getBoundingClientRect().height - head.getBoundingClientRect().height
      - parseFloat(getComputedStyle(head).marginBottom || "0");
    const rows = Math.max(1, Math.floor((room + gap) / (probe + gap)));
    const columns = Number(getComputedStyle(list).getPropertyValue("--columns")) || 1;
    list.style.setProperty("--rows", String(rows));
    perPart = rows * columns;
    return Math.max(1, Math.ceil(players.length / perPart));
  }

  /**
   * @param {number} part
   * @param {string} partText
   */
  function render(part, partText) {
    const shown = Number.isFinite(perPart) ? players.slice(part * perPart, (part + 1) * perPart) : players;
    const from = shown.length ? letterOf(shown[0].name) : "";
    const to = shown.length ? letterOf(shown[shown.length - 1].name) : "";
    const range = from === to ? from : t("wall.seats_range", { from, to });
    fill(head, h("h2", {}, t("wall.page.seats")),
      shown.length ? h("p", { class: "draw-range" }, range) : null,
      partText ? h("p", { class: "page-of" }, partText) : null);
    fill(list, shown.length ? shown.map(row) : h("li", { class: "muted" }, t("wall.seats_none")));
  }

  return { el, layout, render, count: () => players.length };
}
