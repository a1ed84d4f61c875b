// @ts-check
// The wall's map of the room: a tile per table (its tag, its number, its players of its
// seats), as large as the page allows and never smaller than is readable from five metres:
// a big room is shown in parts of the same size that rotate.

import { tableViews } from "./conn.js";
import { t } from "./i18n.js";
import { fill, h } from "./ui.js";
import { MIN_TEXT, narrow, rootPx } from "./wall_fit.js";

/** @import { Rotation } from "./wall_pages.js" */
/** @typedef {{ table: number, seats: number, players: number, status: string, final?: boolean }} TileView */
/** @typedef {{ tag: number, no: number, count: number }} Widths */
/** @typedef {{ cols: number, rows: number, font: number }} Grid */

// A tile, top to bottom: its tag (final, halted, breaking; a line kept empty on an open table),
// the table number, the players of the seats. Its font size (--tile-font) is the number's; the
// tag and the count are in proportion but never under MIN_TEXT. Borders are in em of it.
const TILE = { tag: 0.4, count: 0.6, gaps: 0.16, border: 0.09, pad: 0.2 };
/** The table number, the tile's biggest text: below this, the map is shown in parts. */
const MIN_NUMBER = 2.75;
const MAX_NUMBER = 8.75;
/** @type {Record<string, string>} */
const STATUS_TAG = { halted: "wall.tag.halted", breaking: "wall.tag.breaking" };

/** The widths (per px of font size) of the widest tag, table number and count, measured in
 * the page's own fonts with the tiles' own styles.
 * @param {TileView[]} list
 * @returns {Widths} */
function tileTextWidths(list) {
  const numbers = list.map((v) => String(v.table));
  const widestNo = numbers.reduce((a, b) => (b.length > a.length ? b : a), "0").replace(/\d/g, "8");
  const seats = Math.max(2, ...list.map((v) => v.seats));
  const probe = h("div", { class: "tile tile-probe", "aria-hidden": "true", style: { fontSize: "100px" } });
  /** @param {string} cls @param {string} text @param {number} size */
  const span = (cls, text, size) => h("span", { class: cls, style: { fontSize: `${size}px`, display: "inline-block" } }, text);
  const tags = [t("wall.tag.final"), t("wall.tag.halted"), t("wall.tag.breaking")].map((x) => span("tile-tag", x, 100));
  const no = span("tile-no", widestNo, 100);
  const count = span("tile-count", `${seats}/${seats}`, 100);
  fill(probe, ...tags, no, count);
  document.body.append(probe);
  /** @param {Element} el */
  const w = (el) => el.getBoundingClientRect().width / 100;
  const out = { tag: Math.max(...tags.map(w)), no: w(no), count: w(count) };
  probe.remove();
  return out;
}

/** The largest table number (px) whose tile fits in w×h, or 0 when none is readable there.
 * @param {number} w @param {number} h @param {Widths} widths @param {number} rem */
function tileFont(w, h, widths, rem) {
  const min = MIN_TEXT * rem;
  const pad = TILE.pad * rem;
  /** @param {number} f */
  const fits = (f) => {
    const tag = Math.max(min, TILE.tag * f);
    const count = Math.max(min, TILE.count * f);
    const edge = 2 * (pad + TILE.border * f);
    return edge + tag + f * (1 + TILE.gaps) + count <= h
      && edge + Math.max(widths.no * f, widths.tag * tag, widths.count * count) + 0.1 * rem <= w;
  };
  let lo = 0;
  let hi = MAX_NUMBER * rem;
  if (fits(hi)) return hi;
  for (let i = 0; i < 24; i += 1) {
    const mid = (lo + hi) / 2;
    if (fits(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}

/** The grid that gives the biggest tiles for n tables in width×height.
 * @param {number} n @param {number} width @param {number} height @param {number} gap
 * @param {Widths} widths @param {number} rem
 * @returns {Grid} */
function bestGrid(n, width, height, gap, widths, rem) {
  let best = { cols: 1, rows: n, font: 0 };
  for (let cols = 1; cols <= n; cols += 1) {
    const rows = Math.ceil(n / cols);
    const font = tileFont((width - gap * (cols - 1)) / cols, (height - gap * (rows - 1)) / rows, widths, rem);
    if (font > best.font) best = { cols, rows, font };
  }
  return best;
}

/**
 * The tables page: `el` goes among the pages (`area()`, whose size it fills); `layout()`
 * sets the tiles' size and the page's parts, `render()` draws the part on screen.
 * @param {{ conn: any, rotation: Rotation, area: () => Element }} options
 */
export function tablesPage({ conn, rotation, area }) {
  const head = h("div", { class: "page-head" });
  const tilesEl = h("div", { class: "tiles", role: "list" });
  const el = h("section", { class: "page page-tables", dataset: { page: "tables" } }, head, tilesEl);
  let perPage = Infinity;
  /** @type {{ key: string, pages?: number, each?: number, grid?: Grid }} */
  let tileLayout = { key: "" };

  /** @returns {TileView[]} */
  const visibleTables = () => tableViews(conn).filter((/** @type {TileView} */ v) => v.status !== "broken");

  function layout() {
    if (!conn.state) return;
    const list = visibleTables();
    if (narrow()) {
      perPage = Infinity;
      rotation.setParts("tables", 1);
      return;
    }
    const rem = rootPx();
    const rect = area().getBoundingClientRect();
    const width = rect.width;
    const height = rect.height - (head.getBoundingClientRect().height || 3.5 * rem) - 0.75 * rem;
    const gap = 0.5 * rem;
    const last = list.length ? list[list.length - 1].table : 0;
    const key = JSON.stringify([list.length, last, Math.round(width), Math.round(height), rem, document.documentElement.lang]);
    if (key !== tileLayout.key) {
      const widths = tileTextWidths(list);
      // As many tables per page as stay readable; the rest on further pages of the same size.
      let n = Math.max(1, list.length);
      let grid = bestGrid(n, width, height, gap, widths, rem);
      while (grid.font < MIN_NUMBER * rem && n > 1) {
        n = Math.max(1, n - Math.max(1, Math.floor(n * 0.04)));
        grid = bestGrid(n, width, height, gap, widths, rem);
      }
      const pages = Math.max(1, Math.ceil(list.length / n));
      const each = Math.max(1, Math.ceil(list.length / pages));
      grid = bestGrid(each, width, height, gap, widths, rem);
      tileLayout = { key, pages, each, grid };
    }
    const { pages = 1, each = 1, grid = { cols: 1, rows: 1, font: 0 } } = tileLayout;
    const f = grid.font;
    tilesEl.style.setProperty("--cols", String(grid.cols));
    tilesEl.style.setProperty("--rows", String(grid.rows));
    tilesEl.style.setProperty("--gap", `${gap}px`);
    tilesEl.style.setProperty("--tile-font", `${f}px`);
    tilesEl.style.setProperty("--tag-font", `${Math.max(MIN_TEXT * rem, TILE.tag * f)}px`);
    tilesEl.style.setProperty("--count-font", `${Math.max(MIN_TEXT * rem, TILE.count * f)}px`);
    perPage = each;
    rotation.setParts("tables", pages);
  }

  function render() {
    if (!conn.state) return;
    layout();
    const all = visibleTables();
    const part = rotation.partOf("tables");
    const list = Number.isFinite(perPage) ? all.slice(part * perPage, (part + 1) * perPage) : all;
    /** @type {Record<string, number>} */
    const counts = { open: 0, halted: 0, breaking: 0 };
    for (const v of all) counts[v.status] = (counts[v.status] || 0) + 1;
    const broken = Object.values(conn.state.tables).filter((x) => x.status === "broken").length;
    fill(head,
      h("h2", {}, t("wall.page.tables")),
      rotation.parts.tables > 1 && list.length ? h("p", { class: "page-of" },
        t("wall.tables_range", { from: list[0].table, to: list[list.length - 1].table }), " · ", rotation.partText("tables")) : null,
      h("ul", { class: "legend" },
        h("li", { class: "lg lg-open" }, h("span", { class: "swatch" }), t("wall.legend.open", { n: counts.open })),
        h("li", { class: "lg lg-halted" }, h("span", { class: "swatch" }), t("wall.legend.halted", { n: counts.halted })),
        h("li", { class: "lg lg-breaking" }, h("span", { class: "swatch" }), t("wall.legend.breaking", { n: counts.breaking })),
        broken ? h("li", { class: "lg lg-broken" }, t("wall.legend.broken", { n: broken })) : null));
    fill(tilesEl, list.map((v) => {
      const tag = v.final ? t("wall.tag.final") : STATUS_TAG[v.status] ? t(STATUS_TAG[v.status]) : "";
      const label = [t("wall.tile_label", { table: v.table, n: v.players }),
        v.status !== "open" ? t(`status.${v.status}`) : "", v.final ? t("wall.tag.final") : ""].filter(Boolean).join(", ");
      return h("div", {
        class: `tile${v.final ? " final" : ""}`, role: "listitem", dataset: { status: v.status },
        "aria-label": label,
      },
      h("div", { class: "tile-tag", "aria-hidden": "true" }, tag),
      h("div", { class: "tile-no", "aria-hidden": "true" }, v.table),
      h("div", { class: "tile-count", "aria-hidden": "true" }, v.players, h("span", { class: "of" }, `/${v.seats}`)));
    }));
  }

  return { el, layout, render };
}
