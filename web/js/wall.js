// The wall display: a TV across the room, read from five metres.
//
// Left: the clock (time left, blinds now and next, the next break), the field (players left of
// entries, average stack in chips and big blinds) and the latest seat changes. Right: pages
// that rotate every few seconds: the map of every table, the board of moves, the prizes and
// results, the charts.
// URL options: ?pages=tables,moves,prizes,charts (which pages, in order; one page = no rotation),
// ?rotate=20 (seconds per page), ?lang=cs.

import { Connection, tableViews, tidFromPath } from "./conn.js";
import { Board } from "./board.js";
import { createCharts } from "./charts.js";
import { clockPanel, timeCalls } from "./clockview.js";
import * as fmt from "./format.js";
import { onLang, t, why as whyText } from "./i18n.js";
import { Prizes, finisherGroups, payoutRows, placeText, placesText, poolFacts } from "./prizes.js";
import { $, every, fill, h, playerName, topbar } from "./ui.js";

const params = new URLSearchParams(location.search);
const tid = tidFromPath();
const conn = new Connection(tid);
const board = new Board(conn, { limit: 120 });
const prizes = new Prizes(conn);
const ROTATE = Math.max(5, Number(params.get("rotate")) || 18) * 1000;
const ALL_PAGES = ["tables", "moves", "prizes", "charts"];
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
const bar = topbar(t("wall.title"), conn, { right: pageNav });
const clockEl = h("section", { class: "wall-clock", "aria-label": t("wall.clock") });
const latestEl = h("section", { class: "wall-latest", "aria-label": t("wall.latest") });
const tilesEl = h("div", { class: "tiles", role: "list" });
const tablesHead = h("div", { class: "page-head" });
const tablesPage = h("section", { class: "page page-tables", dataset: { page: "tables" } }, tablesHead, tilesEl);
const movesHead = h("div", { class: "page-head" });
const movesBody = h("div", { class: "wall-moves" });
const movesPage = h("section", { class: "page page-moves", dataset: { page: "moves" } }, movesHead, movesBody);
const prizesHead = h("div", { class: "page-head" });
const payoutsBox = h("section", { class: "prize-box payouts" });
const resultsBox = h("section", { class: "prize-box results" });
const prizesPage = h("section", { class: "page page-prizes", dataset: { page: "prizes" } }, prizesHead,
  h("div", { class: "wall-prizes" }, payoutsBox, resultsBox));
const fieldCanvas = h("canvas", { role: "img" });
const bbCanvas = h("canvas", { role: "img" });
const chartsTitle1 = h("h2", {});
const chartsTitle2 = h("h2", {});
const chartsPage = h("section", { class: "page page-charts", dataset: { page: "charts" } },
  h("div", { class: "chart-box" }, chartsTitle1, h("div", { class: "chart-wrap" }, fieldCanvas)),
  h("div", { class: "chart-box" }, chartsTitle2, h("div", { class: "chart-wrap" }, bbCanvas)));
const pagesEl = h("main", { class: "wall-pages" },
  PAGES.includes("tables") ? tablesPage : null,
  PAGES.includes("moves") ? movesPage : null,
  PAGES.includes("prizes") ? prizesPage : null,
  PAGES.includes("charts") ? chartsPage : null);
// Time calls go in the left column, under the clock (the field numbers make way meanwhile):
// never over the table map.
const callsEl = h("aside", { class: "time-calls", "aria-live": "assertive", "aria-label": t("wall.time_calls"), hidden: true });
const progress = h("div", { class: "page-progress", "aria-hidden": "true" });
const leftEl = h("div", { class: "wall-left" }, clockEl, callsEl, latestEl);

fill($("#app"), bar, h("div", { class: "wall-body" }, leftEl,
  h("div", { class: "wall-right" }, pagesEl, progress)));

clockPanel(clockEl, conn, { stats: true });
// Chart text follows the wall's scale (about 18 px on a 1080p TV).
const charts = createCharts(conn, fieldCanvas, bbCanvas, { fontSize: Math.round(rootPx() * 1.15) });

// Pages and rotation -------------------------------------------------------------------------------

let tablePages = 1;
let rotation = [];
let current = 0;
let pageStarted = Date.now();

function buildRotation() {
  const list = [];
  for (const p of PAGES) {
    if (p === "tables") for (let i = 0; i < tablePages; i += 1) list.push({ page: "tables", part: i });
    else list.push({ page: p, part: 0 });
  }
  rotation = list;
  if (current >= rotation.length) current = 0;
}

function renderNav() {
  fill(pageNav, rotation.map((r, i) => h("li", {
    class: i === current ? "current" : "",
    "aria-current": i === current ? "page" : null,
  }, pageLabel(r))));
  pageNav.setAttribute("aria-label", t("wall.pages"));
}

function pageLabel(r) {
  const name = t(`wall.page.${r.page}`);
  return r.page === "tables" && tablePages > 1 ? `${name} ${r.part + 1}/${tablePages}` : name;
}

function showPage() {
  if (document.body.classList.contains("narrow")) {
    for (const el of pagesEl.children) el.hidden = false;
    renderTiles();
    renderMoves();
    renderPrizes();
    charts.update();
    return;
  }
  const r = rotation[current] || { page: PAGES[0], part: 0 };
  for (const el of pagesEl.children) el.hidden = el.dataset.page !== r.page;
  if (r.page === "tables") renderTiles();
  if (r.page === "charts") charts.update();
  if (r.page === "moves") renderMoves();
  if (r.page === "prizes") renderPrizes();
  renderNav();
}

function nextPage() {
  const moving = (conn.plan.moves || []).length > 0;
  for (let tries = 0; tries < rotation.length; tries += 1) {
    current = (current + 1) % rotation.length;
    const r = rotation[current];
    // The moves page is skipped while there is nothing on it.
    if (r.page === "moves" && !moving && !board.entries.length) continue;
    // So is the prizes page of a tournament without prize settings or results.
    if (r.page === "prizes" && !hasPrizes()) continue;
    break;
  }
  pageStarted = Date.now();
  showPage();
}

every(250, () => {
  const elapsed = Date.now() - pageStarted;
  // Pending moves keep the board up a little longer: players are looking for their seats.
  const r = rotation[current];
  const span = r && r.page === "moves" && (conn.plan.moves || []).length ? ROTATE * 1.5 : ROTATE;
  progress.style.setProperty("--p", String(Math.min(1, elapsed / span)));
  if (rotation.length > 1 && elapsed >= span) nextPage();
});

// The table map -----------------------------------------------------------------------------------

let tileFont = 40;
let perPage = Infinity;

/** The grid that gives the biggest tiles for n tables in w×h (numbers up to 3-4 digits). */
function bestGrid(n, width, height, gap) {
  let best = { cols: 1, rows: n, font: 0 };
  for (let cols = 1; cols <= n; cols += 1) {
    const rows = Math.ceil(n / cols);
    const w = (width - gap * (cols - 1)) / cols;
    const hgt = (height - gap * (rows - 1)) / rows;
    const font = Math.min(w / 2.3, hgt / 2.45);
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
  const narrow = document.body.classList.contains("narrow");
  const before = tablePages;
  if (narrow) {
    tablePages = 1;
    perPage = Infinity;
  } else {
    const rem = rootPx();
    const rect = pagesEl.getBoundingClientRect();
    const width = rect.width;
    const height = rect.height - (tablesHead.getBoundingClientRect().height || 3.5 * rem) - 0.75 * rem;
    const gap = 0.5 * rem;
    // The smallest table number still read from five metres on a 1080p TV (37 px at 150 tables).
    const minFont = 1.9 * rem;
    // As many tables per page as stay readable (150 fit on one 1080p page).
    let n = list.length;
    let grid = bestGrid(Math.max(1, n), width, height, gap);
    while (grid.font < minFont && n > 1) {
      n = Math.ceil(n * 0.9);
      grid = bestGrid(n, width, height, gap);
    }
    perPage = n;
    tablePages = Math.max(1, Math.ceil(list.length / perPage));
    const pageCount = Math.ceil(list.length / tablePages);
    grid = bestGrid(Math.max(1, pageCount), width, height, gap);
    tileFont = Math.min(grid.font, 8.75 * rem);
    tilesEl.style.setProperty("--cols", String(grid.cols));
    tilesEl.style.setProperty("--rows", String(grid.rows));
    tilesEl.style.setProperty("--gap", `${gap}px`);
    tilesEl.style.setProperty("--tile-font", `${tileFont}px`);
    perPage = pageCount;
  }
  if (before !== tablePages) {
    buildRotation();
    renderNav();
  }
}

function rootPx() {
  return parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
}

const STATUS_TAG = { halted: "wall.tag.halted", breaking: "wall.tag.breaking" };

function renderTiles() {
  if (!conn.state) return;
  layoutTables();
  const all = visibleTables();
  const r = rotation[current];
  const part = r && r.page === "tables" ? r.part : 0;
  const list = Number.isFinite(perPage) ? all.slice(part * perPage, (part + 1) * perPage) : all;
  const counts = { open: 0, halted: 0, breaking: 0 };
  for (const v of all) counts[v.status] = (counts[v.status] || 0) + 1;
  const broken = Object.values(conn.state.tables).filter((x) => x.status === "broken").length;
  fill(tablesHead,
    h("h2", {}, t("wall.page.tables")),
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
  return (conn.plan.moves || []).slice(0, limit).map((m) => moveRow({
    name: m.player ? playerName(conn, m.player) : t("move.next_bb", { table: m.from.table }),
    from: m.from, to: m.to, reason: m.reason, pending: true,
  }));
}

function doneRows(limit) {
  return board.entries.slice(0, limit).map((e) => {
    if (e.kind === "move") {
      return moveRow({ name: playerName(conn, e.player), from: e.from, to: e.to, reason: e.reason, at: e.at });
    }
    return h("li", { class: "move-row event-row" },
      h("div", { class: "who" }, t(`board.${e.kind}`, { table: e.table })),
      h("div", { class: "route" }, ""),
      h("div", { class: "meta" }, e.at ? fmt.timeOfDay(e.at / 1000) : ""));
  });
}

function renderMoves() {
  if (!conn.state) return;
  const pending = conn.plan.moves || [];
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

/** The latest few changes, always on screen under the clock. */
function renderLatest() {
  if (!conn.state) return;
  const pending = (conn.plan.moves || []).slice(0, 3).map((m) => ({
    name: m.player ? playerName(conn, m.player) : t("move.next_bb", { table: m.from.table }),
    from: m.from, to: m.to, pending: true,
  }));
  const done = board.entries.filter((e) => e.kind === "move").slice(0, Math.max(0, 8 - pending.length))
    .map((e) => ({ name: playerName(conn, e.player), from: e.from, to: e.to }));
  const rows = [...pending, ...done];
  const draw = () => fill(latestEl, h("h2", {}, t("wall.latest")), rows.length
    ? h("ul", { class: "latest-list" }, rows.map((r) => h("li", { class: r.pending ? "pending" : "" },
      h("span", { class: "who" }, r.name),
      h("span", { class: "route" }, fmt.spot(r.from?.table, r.from?.seat), " → ",
        h("strong", {}, fmt.spot(r.to.table, r.to.seat))))))
    : h("p", { class: "muted" }, t("wall.no_changes")));
  draw();
  if (document.body.classList.contains("narrow")) return;
  // Roomy first; smaller clock digits only when the rows would not fit otherwise.
  const keep = Math.min(LATEST_MIN, rows.length);
  for (const level of [0, 1, 2]) {
    leftEl.dataset.tight = String(level);
    if (level) draw();
    if (trimToFit(latestEl, keep)) break;
  }
}

// Prizes and results -------------------------------------------------------------------------------

function hasPrizes() {
  const d = prizes.data;
  return !!d && (d.pool != null || (d.results || []).length > 0);
}

function renderPrizes() {
  const d = prizes.data;
  const pool = d?.pool ?? null;
  fill(prizesHead, h("h2", {}, t("wall.page.prizes")),
    pool ? h("ul", { class: "prize-facts" }, poolFacts(pool).map(([k, v]) => h("li", {}, h("span", { class: "k" }, k), " ", h("strong", {}, v))))
      : null);
  if (!d) {
    fill(payoutsBox, h("p", { class: "muted" }, prizes.failed ? t("error.network") : t("clock.waiting")));
    fill(resultsBox);
    return;
  }
  payoutsBox.hidden = !pool;
  if (pool) {
    const rows = payoutRows(pool);
    fill(payoutsBox, h("h3", {}, t("prizes.payouts")),
      h("table", { class: `payout-table${rows.length > 12 ? " two-col" : ""}` },
        h("caption", { class: "sr-only" }, t("prizes.payouts")),
        h("tbody", {}, rows.map((r) => h("tr", {},
          h("th", { scope: "row" }, placesText(r.from, r.to)),
          h("td", {}, fmt.money(r.prize, pool.currency), r.to > r.from ? h("span", { class: "each" }, ` ${t("prizes.each")}`) : null))))));
  }
  const groups = finisherGroups(d.results);
  const paid = (pool?.places || []).length;
  fill(resultsBox, h("h3", {}, t("prizes.results")),
    groups.length ? h("table", { class: "finish-table" },
      h("caption", { class: "sr-only" }, t("prizes.results")),
      h("tbody", {}, groups.map((g) => h("tr", { class: `finish${g.place <= paid ? " paid" : ""}${g.place === 1 ? " winner" : ""}` },
        h("th", { scope: "row", class: "finish-place" }, placeText(g.place, g.tied)),
        h("td", { class: "finish-names" }, g.players.map((x) => x.name).join(" · "),
          g.tied > 1 ? h("span", { class: "badge badge-shared" }, t("prizes.shared")) : null),
        h("td", { class: "finish-prize" }, g.prize ? fmt.money(g.prize, pool?.currency) : "–",
          g.tied > 1 && g.prize ? h("span", { class: "each" }, ` ${t("prizes.each")}`) : null)))))
      : h("p", { class: "muted" }, t("prizes.no_results")));
  if (!document.body.classList.contains("narrow") && !prizesPage.hidden) trimToFit(resultsBox);
}

prizes.onChange(() => {
  if (document.body.classList.contains("narrow") || !prizesPage.hidden) renderPrizes();
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

// Wiring -----------------------------------------------------------------------------------------

function renderAll() {
  if (!conn.state) return;
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
window.floorWall = { conn, board, prizes, whyText };
