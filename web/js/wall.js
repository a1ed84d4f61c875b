// The wall display: a TV across the room, read from five metres.
//
// Left: the clock (time left, blinds now and next, the next break), the field (players left of
// entries, average stack in chips and big blinds) and the latest seat changes. Right: pages
// that rotate every few seconds: the map of every table, the board of moves, the prizes and
// results, the charts. Nothing anybody must read is smaller than 2.5 % of the screen's height
// (27 px on a 1080p TV): where a page does not fit at that size (the map of a big room, a long
// prize ladder) it is shown in parts that rotate, each saying which part it is.
// A new level, a break, the last minute and a time call sound (when switched on, remembered
// on the screen) and show a banner across the top.
// Once the tournament has its winner (the server's facts) the winner takes the clock's place
// and the pages are the final standings with prizes (and the charts): standings.js.
// URL options: ?pages=tables,moves,prizes,chips,charts (which pages, in order; one page = no rotation),
// ?rotate=20 (seconds per page), ?lang=cs. The arrow keys turn the pages by hand.

import { Connection, tableViews, tidFromPath } from "./conn.js";
import { reloadOnUpgrade } from "./version.js";
import { Board, calledMoves } from "./board.js";
import { createCharts } from "./charts.js";
import { chipFacts, chipsWallPage } from "./counts.js";
import { breakName, clockPanel, timeCalls } from "./clockview.js";
import { levelNumber } from "./facts.js";
import { ending } from "./finished.js";
import * as fmt from "./format.js";
import { onLang, t, why as whyText } from "./i18n.js";
import { moneyBanner } from "./moneyview.js";
import { Prizes, finisherGroups, payoutRows, placeText, placesText, poolFacts } from "./prizes.js";
import { Sound, soundSwitch, watchCues } from "./sound.js";
import { renderStandings, winnerPanel } from "./standings.js";
import { sitOutsPanel } from "./rulings.js";
import { wallPanel as handForHandPanel } from "./h4h.js";
import { $, every, fill, h, playerName, topbar } from "./ui.js";

const params = new URLSearchParams(location.search);
/** The smallest text anybody must read, in rem: 27 px (2.5 % of the height) on a 1080p TV. */
const MIN_TEXT = 1.7;
const tid = tidFromPath();
const conn = new Connection(tid);
reloadOnUpgrade(conn);
const board = new Board(conn, { limit: 120 });
const prizes = new Prizes(conn);
const ROTATE = Math.max(5, Number(params.get("rotate")) || 18) * 1000;
const ALL_PAGES = ["tables", "moves", "prizes", "chips", "charts"];
const PAGES = (params.get("pages") || ALL_PAGES.join(","))
  .split(",").map((p) => p.trim()).filter((p) => ALL_PAGES.includes(p));
if (!PAGES.length) PAGES.push(...ALL_PAGES);

// Scale: the wall is designed for 1920x1080 at the reader's own text size; larger and smaller
// screens scale everything together (rem × --s). Narrow screens (a phone) get a plain column.
function rescale() {
  const narrow = innerWidth < 900;
  document.body.classList.toggle("narrow", narrow);
  const s = narrow ? 1 : Math.min(innerWidth / 1920, innerHeight / 1080);
  document.documentElement.style.setProperty("--s", String(s));
}
rescale();
addEventListener("resize", () => {
  rescale();
  layoutTables();
});

// Layout -----------------------------------------------------------------------------------------

const pageNav = h("ol", { class: "page-nav", "aria-label": t("wall.pages") });
const sound = new Sound();
const bar = topbar(t("wall.title"), conn, { right: h("div", { class: "wall-controls" }, pageNav, soundSwitch(sound)) });
// The banner of a cue: over the top bar, never over the map or the clock.
const cueEl = h("div", { class: "cue-banner", role: "alert", hidden: true });
// The bubble's bursting: over the top bar too, for the minute the server says (a cue's banner
// goes over it meanwhile), with a fanfare when the sound is on.
bar.append(moneyBanner(conn, { onStart: () => sound.play("money") }), cueEl);
const clockEl = h("section", { class: "wall-clock", "aria-label": t("wall.clock") });
const latestEl = h("section", { class: "wall-latest", "aria-label": t("wall.latest") });
const tilesEl = h("div", { class: "tiles", role: "list" });
const tablesHead = h("div", { class: "page-head" });
const tablesPage = h("section", { class: "page page-tables", dataset: { page: "tables" } }, tablesHead, tilesEl);
const movesHead = h("div", { class: "page-head" });
const movesBody = h("div", { class: "wall-moves" });
const movesPage = h("section", { class: "page page-moves", dataset: { page: "moves" } }, movesHead, movesBody);
const prizesHead = h("div", { class: "page-head" });
const payoutsHead = h("h3", {});
const payoutsList = h("ol", { class: "payout-list" });
const payoutsBox = h("section", { class: "prize-box payouts" }, payoutsHead, payoutsList);
const resultsBox = h("section", { class: "prize-box results" });
const prizesGrid = h("div", { class: "wall-prizes" }, payoutsBox, resultsBox);
const prizesPage = h("section", { class: "page page-prizes", dataset: { page: "prizes" } }, prizesHead, prizesGrid);
const fieldCanvas = h("canvas", { role: "img" });
const bbCanvas = h("canvas", { role: "img" });
const chartsTitle1 = h("h2", {});
const chartsTitle2 = h("h2", {});
const standingsHead = h("div", { class: "page-head" });
const standingsList = h("ol", { class: "standings-list" });
const standingsPage = h("section", { class: "page page-standings", dataset: { page: "standings" }, hidden: true },
  standingsHead, standingsList);
const chartsPage = h("section", { class: "page page-charts", dataset: { page: "charts" } },
  h("div", { class: "chart-box" }, chartsTitle1, h("div", { class: "chart-wrap" }, fieldCanvas)),
  h("div", { class: "chart-box" }, chartsTitle2, h("div", { class: "chart-wrap" }, bbCanvas)));
// The chip leaders from the floor's counts (counts.js, part C): skipped while nobody is counted.
const chipsPage = chipsWallPage(conn);
const pagesEl = h("main", { class: "wall-pages" },
  PAGES.includes("tables") ? tablesPage : null,
  PAGES.includes("moves") ? movesPage : null,
  PAGES.includes("prizes") ? prizesPage : null,
  PAGES.includes("chips") ? chipsPage : null,
  standingsPage,
  PAGES.includes("charts") ? chartsPage : null);
// Time calls go in the left column, under the clock (the field numbers make way meanwhile):
// never over the table map.
const callsEl = h("aside", { class: "time-calls", "aria-live": "assertive", "aria-label": t("wall.time_calls"), hidden: true });
const progress = h("div", { class: "page-progress", "aria-hidden": "true" });
const winnerEl = winnerPanel(conn, prizes);
// The sit-outs come last and give way (their rows counted, not shown): a called move, in the
// latest changes, never leaves the screen for them.
const sitOutsEl = sitOutsPanel(conn, { fit: true });
const leftEl = h("div", { class: "wall-left" }, winnerEl, handForHandPanel(conn), clockEl, callsEl, latestEl, sitOutsEl);

fill($("#app"), bar, h("div", { class: "wall-body" }, leftEl,
  h("div", { class: "wall-right" }, pagesEl, progress)));

const clockView = clockPanel(clockEl, conn, { stats: true });
// Chart text follows the wall's scale, as large as the smallest text elsewhere on the wall.
const charts = createCharts(conn, fieldCanvas, bbCanvas, {
  fontSize: Math.round(rootPx() * (document.body.classList.contains("narrow") ? 1 : MIN_TEXT)),
});

// Pages and rotation -------------------------------------------------------------------------------

/** How many parts each page is shown in (the map of a big room, a long prize ladder). */
const parts = { tables: 1, moves: 1, prizes: 1, chips: 1, standings: 1, charts: 1 };
let rotation = [];
let current = 0;
let pageStarted = Date.now();
/** The tournament has its winner: the map and the moves have nothing more to say. */
let ended = false;

/** The pages in rotation: those asked for, or at the end the standings (and the charts). */
function shownPages() {
  return ended ? ["standings", ...PAGES.filter((p) => p === "charts")] : PAGES;
}

function buildRotation() {
  const was = rotation[current];
  const list = [];
  for (const p of shownPages()) for (let i = 0; i < parts[p]; i += 1) list.push({ page: p, part: i });
  rotation = list;
  // The page on screen stays on screen.
  const same = was ? rotation.findIndex((r) => r.page === was.page && r.part === Math.min(was.part, parts[was.page] - 1)) : -1;
  current = same >= 0 ? same : 0;
}

/** Set the parts of `page`: the rotation follows. */
function setParts(page, n) {
  if (parts[page] === n) return;
  parts[page] = n;
  buildRotation();
  renderNav();
}

/** The part of `page` on screen (0 when another page is). */
function partOf(page) {
  const r = rotation[current];
  return r && r.page === page ? r.part : 0;
}

function renderNav() {
  const r = rotation[current];
  fill(pageNav, shownPages().map((p) => {
    const on = r && r.page === p;
    return h("li", { class: on ? "current" : "", "aria-current": on ? "page" : null },
      t(`wall.page.${p}`), on && parts[p] > 1 ? ` ${r.part + 1}/${parts[p]}` : "");
  }));
  pageNav.setAttribute("aria-label", t("wall.pages"));
}

/** "page 2 of 3" for a page in parts, nothing for a page shown whole. */
function partText(page) {
  return parts[page] > 1 ? t("wall.page_of", { n: partOf(page) + 1, of: parts[page] }) : "";
}

function showPage() {
  if (document.body.classList.contains("narrow")) {
    const shown = ended ? shownPages() : [...PAGES];
    for (const el of pagesEl.children) el.hidden = !shown.includes(el.dataset.page);
    if (!ended) {
      renderTiles();
      renderMoves();
      renderPrizes();
    } else renderStandingsPage();
    charts.update();
    return;
  }
  const r = rotation[current] || { page: shownPages()[0], part: 0 };
  for (const el of pagesEl.children) el.hidden = el.dataset.page !== r.page;
  if (r.page === "tables") renderTiles();
  if (r.page === "charts") charts.update();
  if (r.page === "moves") renderMoves();
  if (r.page === "prizes") renderPrizes();
  if (r.page === "standings") renderStandingsPage();
  renderNav();
}

function renderStandingsPage() {
  const n = renderStandings({
    box: standingsPage, head: standingsHead, list: standingsList, prizes, part: partOf("standings"),
    narrow: document.body.classList.contains("narrow"), partText: () => partText("standings"),
  });
  if (n !== parts.standings) {
    setParts("standings", n);
    renderStandingsPage();
  }
}

function nextPage(by = 1) {
  const moving = calledMoves(conn).length > 0;
  for (let tries = 0; tries < rotation.length; tries += 1) {
    current = (current + by + rotation.length) % rotation.length;
    const r = rotation[current];
    // The moves page is skipped while there is nothing on it.
    if (r.page === "moves" && !moving && !board.entries.length) continue;
    // So is the prizes page of a tournament without prize settings or results.
    if (r.page === "prizes" && !hasPrizes()) continue;
    if (r.page === "chips" && !chipFacts(conn)) continue;
    break;
  }
  pageStarted = Date.now();
  showPage();
}

// A keyboard (or a TV remote that sends arrows) turns the pages by hand.
addEventListener("keydown", (ev) => {
  if (ev.altKey || ev.ctrlKey || ev.metaKey || document.body.classList.contains("narrow")) return;
  if (ev.key === "ArrowRight" || ev.key === "PageDown") nextPage(1);
  else if (ev.key === "ArrowLeft" || ev.key === "PageUp") nextPage(-1);
  else return;
  ev.preventDefault();
});

every(250, () => {
  const elapsed = Date.now() - pageStarted;
  // Pending moves keep the board up a little longer: players are looking for their seats.
  const r = rotation[current];
  const span = r && r.page === "moves" && calledMoves(conn).length ? ROTATE * 1.5 : ROTATE;
  progress.style.setProperty("--p", String(Math.min(1, elapsed / span)));
  if (rotation.length > 1 && elapsed >= span) nextPage();
});

// The table map -----------------------------------------------------------------------------------

// A tile, top to bottom: its tag (final, halted, breaking; a line kept empty on an open table),
// the table number, the players of the seats. Its font size (--tile-font) is the number's; the
// tag and the count are in proportion but never under MIN_TEXT. Borders are in em of it.
const TILE = { tag: 0.4, count: 0.6, gaps: 0.16, border: 0.09, pad: 0.2 };
/** The table number, the tile's biggest text: below this, the map is shown in parts. */
const MIN_NUMBER = 2.75;
const MAX_NUMBER = 8.75;
const STATUS_TAG = { halted: "wall.tag.halted", breaking: "wall.tag.breaking" };

let perPage = Infinity;
let tileLayout = { key: "" };

/** The widths (per px of font size) of the widest tag, table number and count, measured in
 * the page's own fonts with the tiles' own styles. */
function tileTextWidths(list) {
  const numbers = list.map((v) => String(v.table));
  const widestNo = numbers.reduce((a, b) => (b.length > a.length ? b : a), "0").replace(/\d/g, "8");
  const seats = Math.max(2, ...list.map((v) => v.seats));
  const probe = h("div", { class: "tile tile-probe", "aria-hidden": "true", style: { fontSize: "100px" } });
  const span = (cls, text, size) => h("span", { class: cls, style: { fontSize: `${size}px`, display: "inline-block" } }, text);
  const tags = [t("wall.tag.final"), t("wall.tag.halted"), t("wall.tag.breaking")].map((x) => span("tile-tag", x, 100));
  const no = span("tile-no", widestNo, 100);
  const count = span("tile-count", `${seats}/${seats}`, 100);
  fill(probe, ...tags, no, count);
  document.body.append(probe);
  const w = (el) => el.getBoundingClientRect().width / 100;
  const out = { tag: Math.max(...tags.map(w)), no: w(no), count: w(count) };
  probe.remove();
  return out;
}

/** The largest table number (px) whose tile fits in w×h, or 0 when none is readable there. */
function tileFont(w, h, widths, rem) {
  const min = MIN_TEXT * rem;
  const pad = TILE.pad * rem;
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

/** The grid that gives the biggest tiles for n tables in width×height. */
function bestGrid(n, width, height, gap, widths, rem) {
  let best = { cols: 1, rows: n, font: 0 };
  for (let cols = 1; cols <= n; cols += 1) {
    const rows = Math.ceil(n / cols);
    const font = tileFont((width - gap * (cols - 1)) / cols, (height - gap * (rows - 1)) / rows, widths, rem);
    if (font > best.font) best = { cols, rows, font };
  }
  return best;
}

function visibleTables() {
  return tableViews(conn).filter((v) => v.status !== "broken");
}

function layoutTables() {
  if (!conn.state) return;
  const list = visibleTables();
  if (document.body.classList.contains("narrow")) {
    perPage = Infinity;
    setParts("tables", 1);
    return;
  }
  const rem = rootPx();
  const rect = pagesEl.getBoundingClientRect();
  const width = rect.width;
  const height = rect.height - (tablesHead.getBoundingClientRect().height || 3.5 * rem) - 0.75 * rem;
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
  const { pages, each, grid } = tileLayout;
  const f = grid.font;
  tilesEl.style.setProperty("--cols", String(grid.cols));
  tilesEl.style.setProperty("--rows", String(grid.rows));
  tilesEl.style.setProperty("--gap", `${gap}px`);
  tilesEl.style.setProperty("--tile-font", `${f}px`);
  tilesEl.style.setProperty("--tag-font", `${Math.max(MIN_TEXT * rem, TILE.tag * f)}px`);
  tilesEl.style.setProperty("--count-font", `${Math.max(MIN_TEXT * rem, TILE.count * f)}px`);
  perPage = each;
  setParts("tables", pages);
}

function rootPx() {
  return parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
}

function renderTiles() {
  if (!conn.state) return;
  layoutTables();
  const all = visibleTables();
  const part = partOf("tables");
  const list = Number.isFinite(perPage) ? all.slice(part * perPage, (part + 1) * perPage) : all;
  const counts = { open: 0, halted: 0, breaking: 0 };
  for (const v of all) counts[v.status] = (counts[v.status] || 0) + 1;
  const broken = Object.values(conn.state.tables).filter((x) => x.status === "broken").length;
  fill(tablesHead,
    h("h2", {}, t("wall.page.tables")),
    parts.tables > 1 && list.length ? h("p", { class: "page-of" },
      t("wall.tables_range", { from: list[0].table, to: list[list.length - 1].table }), " · ", partText("tables")) : null,
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

// The moves board ---------------------------------------------------------------------------------

function moveRow({ name, from, to, reason, pending, at, whyText: why }) {
  return h("li", { class: `move-row${pending ? " pending" : ""}` },
    h("div", { class: "who" }, name),
    h("div", { class: "route" }, fmt.spot(from?.table, from?.seat), h("span", { class: "arrow", "aria-label": t("wall.to") }, "→"),
      h("span", { class: "to" }, to.seat == null ? fmt.spot(to.table, null) : fmt.spot(to.table, to.seat))),
    h("div", { class: "meta" },
      h("span", { class: `badge badge-${reason}` }, t(`reason.${reason}`)),
      pending ? h("span", { class: "badge badge-paused" }, t("wall.go_now")) : null,
      at ? h("span", {}, fmt.timeOfDay(at / 1000)) : null,
      why ? h("span", { class: "why" }, why) : null));
}

function pendingRows(limit) {
  return calledMoves(conn).slice(0, limit).map((m) => moveRow({
    name: m.player ? playerName(conn, m.player) : t("move.next_bb", { table: m.from.table }),
    from: m.from, to: m.to, reason: m.reason, pending: true,
  }));
}

/** What a board entry's text names: a table, or a player and where their move goes. */
function boardParams(e) {
  return { table: e.table, name: e.player ? playerName(conn, e.player) : "", where: fmt.spot(e.table, e.seat) };
}

function doneRows(limit) {
  return board.entries.slice(0, limit).map((e) => {
    if (e.kind === "move") {
      return moveRow({ name: playerName(conn, e.player), from: e.from, to: e.to, reason: e.reason, at: e.at });
    }
    return h("li", { class: "move-row event-row" },
      h("div", { class: "who" }, t(`board.${e.kind}`, boardParams(e))),
      h("div", { class: "route" }, ""),
      h("div", { class: "meta" }, e.at ? fmt.timeOfDay(e.at / 1000) : ""));
  });
}

function renderMoves() {
  if (!conn.state) return;
  const pending = calledMoves(conn);
  const breaking = tableViews(conn).filter((v) => v.status === "breaking").map((v) => v.table);
  fill(movesHead, h("h2", {}, t("wall.page.moves")), h("span", { class: "spot-legend" }, t("wall.spot_legend")),
    breaking.length ? h("p", { class: "breaking-note" }, h("span", { class: "badge badge-breaking" }, t("status.breaking")), " ",
      t("wall.breaking_tables", { tables: breaking.join(", ") })) : null);
  const room = 26;
  const p = pendingRows(Math.min(pending.length, 14));
  const d = doneRows(Math.max(0, room - p.length));
  fill(movesBody,
    p.length ? h("section", { class: "moves-section" }, h("h3", {}, t("wall.pending", { n: pending.length })),
      h("ul", { class: "moves-list" }, p)) : null,
    h("section", { class: "moves-section" }, h("h3", {}, t("wall.recent")),
      d.length ? h("ul", { class: "moves-list" }, d) : h("p", { class: "muted" }, t("wall.no_changes"))));
  if (!document.body.classList.contains("narrow") && !movesPage.hidden) trimToFit(movesBody);
}

/** Drop rows from the end of the last list in `box` until it fits: never a cut-off row.
 * At least `keep` rows stay (the caller makes room for them). */
function trimToFit(box, keep = 0) {
  let guard = 200;
  while (box.scrollHeight > box.clientHeight + 1 && guard > 0) {
    guard -= 1;
    const lists = [...box.querySelectorAll("ul, tbody")].filter((ul) => ul.children.length);
    const last = lists[lists.length - 1];
    if (!last) break;
    const rows = lists.reduce((n, ul) => n + ul.children.length, 0);
    if (rows <= keep) return false;
    last.lastElementChild.remove();
  }
  return box.scrollHeight <= box.clientHeight + 1;
}

/** The latest changes keep at least this many rows in sight (a colour-up or a time call
 * under the clock takes room: the clock is drawn smaller then). */
const LATEST_MIN = 3;
/** Called moves under the clock; more are counted on a last line (the seat changes page lists
 * them all). */
const CALLED_MAX = 6;

/** The latest few changes, always on screen under the clock: every called move first (players
 * are looking for their seats), then the moves made. Nothing below pushes them away: the box
 * keeps the room of those rows, the sit-outs under it give way. */
function renderLatest() {
  if (!conn.state) return;
  const called = calledMoves(conn);
  const pending = called.slice(0, CALLED_MAX).map((m) => ({
    name: m.player ? playerName(conn, m.player) : t("move.next_bb", { table: m.from.table }),
    from: m.from, to: m.to, pending: true,
  }));
  const done = board.entries.filter((e) => e.kind === "move").slice(0, Math.max(0, 8 - pending.length))
    .map((e) => ({ name: playerName(conn, e.player), from: e.from, to: e.to }));
  const more = called.length - pending.length;
  const moreRow = more > 0 ? h("li", { class: "pending-more" }, t("wall.more_called", { n: more })) : null;
  const row = (r) => h("li", { class: r.pending ? "pending" : "" },
    h("span", { class: "who" }, r.name),
    h("span", { class: "route" }, fmt.spot(r.from?.table, r.from?.seat), " → ",
      h("strong", {}, fmt.spot(r.to.table, r.to.seat))));
  const count = pending.length + done.length + (moreRow ? 1 : 0);
  const draw = () => fill(latestEl, h("h2", {}, t("wall.latest")), count
    ? h("ul", { class: "latest-list" }, pending.map(row), moreRow, done.map(row))
    : h("p", { class: "muted" }, t("wall.no_changes")));
  latestEl.style.minHeight = "";
  draw();
  if (document.body.classList.contains("narrow")) {
    sitOutsEl.refit();
    return;
  }
  // Every called move shown stays, and a few rows more when there is room: roomy first, then
  // smaller clock digits, the sit-outs giving way last.
  const keep = Math.max(pending.length + (moreRow ? 1 : 0), Math.min(LATEST_MIN, count));
  for (const level of [0, 1, 2]) {
    leftEl.dataset.tight = String(level);
    // The digits' size follows the tighter style at once: the rows are measured against it.
    clockView.fit();
    latestEl.style.minHeight = "";
    if (level) draw();
    latestEl.style.minHeight = `${keptHeight(keep)}px`;
    sitOutsEl.refit();
    if (trimToFit(latestEl, keep) && sitOutsEl.whole) break;
  }
}

/** The height of the latest changes' box down to its `keep`-th row (its heading alone at 0). */
function keptHeight(keep) {
  const rows = latestEl.querySelectorAll(".latest-list li");
  const last = keep > 0 ? rows[Math.min(keep, rows.length) - 1] : latestEl.firstElementChild;
  if (!last) return 0;
  const style = getComputedStyle(latestEl);
  return Math.ceil(last.getBoundingClientRect().bottom - latestEl.getBoundingClientRect().top
    + parseFloat(style.paddingBottom) + parseFloat(style.borderBottomWidth));
}

// Prizes and results -------------------------------------------------------------------------------

function hasPrizes() {
  const d = prizes.data;
  return !!d && (d.pool != null || (d.results || []).length > 0);
}

/** The payout ladder's rows per part of the page, as they fit the box at the wall's sizes:
 * {rows, cols} (columns filled top to bottom). */
let ladderFit = { key: "", rows: 0, cols: 1 };

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

function payoutItem(r) {
  return h("li", { class: "payout" },
    h("span", { class: "payout-place" }, placesText(r.from, r.to)),
    h("span", { class: "payout-prize" }, fmt.money(r.prize, prizes.data?.pool?.currency),
      r.to > r.from ? h("span", { class: "each" }, ` ${t("prizes.each")}`) : null));
}

function renderPrizes() {
  const d = prizes.data;
  const pool = d?.pool ?? null;
  const narrow = document.body.classList.contains("narrow");
  fill(prizesHead, h("h2", {}, t("wall.page.prizes")),
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
    if (!narrow && !prizesPage.hidden) {
      // A ladder longer than a column takes the room of two.
      let fit = fitLadder(rows);
      const long = rows.length > fit.rows;
      if (long !== prizesGrid.classList.contains("long")) {
        prizesGrid.classList.toggle("long", long);
        fit = fitLadder(rows);
      }
      const per = fit.rows * fit.cols;
      setParts("prizes", Math.max(1, Math.ceil(rows.length / per)));
      const part = partOf("prizes");
      shown = rows.slice(part * per, (part + 1) * per);
      payoutsList.style.setProperty("--rows", String(Math.min(fit.rows, Math.ceil(shown.length / fit.cols) || 1)));
      payoutsList.style.setProperty("--cols", String(fit.cols));
    }
    fill(payoutsHead, t("prizes.payouts"), parts.prizes > 1 && shown.length ? h("span", { class: "page-of" }, " · ",
      t("wall.places_range", { from: shown[0].from, to: shown[shown.length - 1].to }), " · ", partText("prizes")) : null);
    fill(payoutsList, shown.map(payoutItem));
  } else {
    setParts("prizes", 1);
  }
  const groups = finisherGroups(d.results);
  const paid = (pool?.places || []).length;
  const more = h("p", { class: "more-results muted" });
  fill(resultsBox, h("h3", {}, t("prizes.results")),
    groups.length ? h("table", { class: "finish-table" },
      h("caption", { class: "sr-only" }, t("prizes.results")),
      h("tbody", {}, groups.map((g) => h("tr", { class: `finish${g.place <= paid ? " paid" : ""}${g.place === 1 ? " winner" : ""}` },
        h("th", { scope: "row", class: "finish-place" }, placeText(g.place, g.tied)),
        h("td", { class: "finish-names" }, g.players.map((x) => x.name).join(" · "),
          g.tied > 1 ? h("span", { class: "badge badge-shared" }, t("prizes.shared")) : null),
        h("td", { class: "finish-prize" }, g.prize ? fmt.money(g.prize, pool?.currency) : "–",
          g.tied > 1 && g.prize ? h("span", { class: "each" }, ` ${t("prizes.each")}`) : null)))))
      : h("p", { class: "muted" }, t("prizes.no_results")),
    groups.length ? more : null);
  if (!narrow && !prizesPage.hidden && groups.length) {
    // The best places first; those that do not fit are counted, not cut in half.
    more.textContent = t("wall.more_results", { n: groups.length });
    trimToFit(resultsBox);
    const left = groups.length - resultsBox.querySelectorAll("tbody tr").length;
    if (left > 0) more.textContent = t("wall.more_results", { n: left });
    else more.remove();
  } else more.remove();
}

prizes.onChange(() => {
  if (document.body.classList.contains("narrow") || !prizesPage.hidden) renderPrizes();
  if (ended && (document.body.classList.contains("narrow") || !standingsPage.hidden)) renderStandingsPage();
});

// Time calls ----------------------------------------------------------------------------------------

let lastCalls = "";
every(200, () => {
  const calls = timeCalls(conn).filter((c) => c.phase !== "over");
  const key = calls.map((c) => `${c.table}.${c.seat}.${c.phase}.${Math.ceil(c.left)}`).join("|") + document.documentElement.lang;
  if (key === lastCalls) return;
  lastCalls = key;
  const was = !callsEl.hidden;
  callsEl.hidden = !calls.length;
  leftEl.classList.toggle("calling", calls.length > 0);
  fill(callsEl, calls.map((c) => h("div", { class: `time-call ${c.phase}` },
    h("div", { class: "tc-title" }, t("timecall.title")),
    h("div", { class: "tc-where" }, t("timecall.where", { table: c.table, seat: c.seat }),
      c.name ? h("span", { class: "tc-name" }, ` · ${c.name}`) : null),
    h("div", { class: "tc-count" }, c.phase === "count" ? String(Math.ceil(c.left)) : fmt.clock(c.left)),
    h("div", { class: "tc-phase" }, t(c.phase === "count" ? "timecall.counting" : "timecall.minute")))));
  if (was !== calls.length > 0) renderLatest();
});

// Cues: a sound (when switched on) and a banner for what the room must not miss ---------------

/** How long a banner stays up. */
const CUE_MS = 10000;
let cueTimer = null;

function cueText(cue) {
  const step = conn.state?.structure?.levels?.[cue.step];
  switch (cue.kind) {
    case "level":
      return [t("cue.level", { n: levelNumber(conn, cue.step), blinds: fmt.blinds(step) }), fmt.anteText(step)]
        .filter(Boolean).join(" · ");
    case "break":
      // Whole minutes pick the plural; a fraction of one is written in the reader's way.
      return t("cue.break", { name: breakName(step), n: Number.isInteger(step?.minutes) ? step.minutes : fmt.number(step?.minutes ?? 0, 1) });
    case "minute":
      return cue.onBreak ? t("cue.minute_break") : t("cue.minute", { n: levelNumber(conn, cue.step) });
    case "timecall": {
      const name = cue.player ? playerName(conn, cue.player) : null;
      return [t("cue.timecall", { table: cue.table, seat: cue.seat }), name].filter(Boolean).join(" · ");
    }
    default:
      return "";
  }
}

/** Restart a CSS animation on `el` (a second cue while the first still flashes). */
function flash(el, cls) {
  el.classList.remove(cls);
  void el.offsetWidth;
  el.classList.add(cls);
}

function showCue(cue) {
  // The clock stopped with the last bust-out: nothing more to announce.
  if (ending(conn)) return;
  const text = cueText(cue);
  if (!text) return;
  const heard = sound.play(cue.kind);
  cueEl.dataset.kind = cue.kind;
  fill(cueEl, h("span", { class: "cue-text" }, text),
    h("span", { class: "cue-sound", "aria-hidden": "true", title: t(heard ? "sound.on" : "sound.off") }, heard ? "♪" : ""));
  cueEl.hidden = false;
  flash(cueEl, "flash");
  if (cue.kind !== "timecall") flash(clockEl, "cue-flash");
  clearTimeout(cueTimer);
  cueTimer = setTimeout(() => {
    cueEl.hidden = true;
    clockEl.classList.remove("cue-flash");
  }, CUE_MS);
}

watchCues(conn, showCue);

// Wiring -----------------------------------------------------------------------------------------

function renderAll() {
  if (!conn.state) return;
  const end = !!ending(conn);
  if (end !== ended) {
    // The winner, or the last bust-out undone: the other pages come (back) into rotation.
    ended = end;
    document.body.classList.toggle("wall-ended", end);
    buildRotation();
    pageStarted = Date.now();
  }
  bar.setTitle(conn.state.name);
  document.title = `${conn.state.name} · ${t("wall.title")}`;
  layoutTables();
  showPage();
  renderLatest();
}

let pendingRender = false;
function scheduleRender() {
  if (pendingRender) return;
  pendingRender = true;
  requestAnimationFrame(() => {
    pendingRender = false;
    renderAll();
  });
}

conn.on("change", scheduleRender);
// The clock panel grows and shrinks (a break shows the colour-up): the list under it refits.
if (window.ResizeObserver) {
  let lastHeight = 0;
  new ResizeObserver(() => {
    const height = latestEl.clientHeight;
    if (Math.abs(height - lastHeight) > 2) {
      lastHeight = height;
      renderLatest();
    }
  }).observe(latestEl);
}
board.onChange(scheduleRender);
onLang(() => {
  clockEl.setAttribute("aria-label", t("wall.clock"));
  chartsTitle1.textContent = t("chart.players_left");
  chartsTitle2.textContent = t("chart.avg_bb");
  renderAll();
});
chartsTitle1.textContent = t("chart.players_left");
chartsTitle2.textContent = t("chart.avg_bb");
buildRotation();
renderNav();
showPage();
conn.start();
// The charts follow the field slowly: once every ten seconds is plenty on a wall.
setInterval(() => {
  if (!chartsPage.hidden) charts.update();
}, 10000);
window.floorWall = { conn, board, prizes, sound, charts, whyText };
