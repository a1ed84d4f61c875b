// @ts-check
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
// Before the clock starts, the seat draw takes the whole wall (seatdraw.js).
// URL options: ?pages=tables,moves,prizes,chips,bounties,charts,seats (which pages, in order; one page =
// no rotation; seats listed keeps the draw up all day), ?rotate=20 (seconds per page),
// ?draw_rotate=6 (seconds per page of the draw), ?split=1/2 (this wall's half of the draw),
// ?lang=cs, ?screen=<name> (a named screen: the layout the director saved for it, its pages
// and their times, over ?pages and ?rotate), ?speak=1&volume=70&quiet=22:00-08:00 (an unnamed
// wall's voice: speak.js). The arrow keys turn the pages by hand.

import { Connection, tidFromPath } from "./conn.js";
import { reloadOnUpgrade } from "./version.js";
import { Board, calledMoves } from "./board.js";
import { createCharts } from "./charts.js";
import { chipFacts, chipsWallPage } from "./counts.js";
import { bountyFacts, bountyWallPage } from "./bounty_view.js";
import { clockPanel } from "./clockview.js";
import { ending } from "./finished.js";
import { onLang, t, why as whyText } from "./i18n.js";
import { mount } from "./mount.js";
import { moneyBanner } from "./moneyview.js";
import { Prizes } from "./prizes.js";
import { Sound, soundSwitch } from "./sound.js";
import { renderStandings, winnerPanel } from "./standings.js";
import { sitOutsPanel } from "./rulings.js";
import { seatDrawPage } from "./seatdraw.js";
import { wallPanel as handForHandPanel } from "./h4h.js";
import { alternatesWallPanel } from "./alternates.js";
import { $, fill, h, topbar } from "./ui.js";
import { cueBanner, timeCallsPanel } from "./wall_calls.js";
import { MIN_TEXT, narrow, rootPx } from "./wall_fit.js";
import { latestChanges, movesPage } from "./wall_moves.js";
import { Rotation } from "./wall_pages.js";
import { hasPrizes, prizesPage } from "./wall_prizes.js";
import { tablesPage } from "./wall_tiles.js";
import { wallLine } from "./forecast_wall.js";
import { chainHead } from "./chainhead.js";
import { wallAnnouncement } from "./announce_screens.js";
import { wallBrand } from "./walls_brand.js";
import { screenLayout, screenName } from "./walls_layout.js";
import { Speaker, captionBand, speakSetup, speechFromUrl } from "./speak.js";

const params = new URLSearchParams(location.search);
const tid = tidFromPath();
const conn = new Connection(tid);
reloadOnUpgrade(conn);
const board = new Board(conn, { limit: 120 });
const prizes = new Prizes(conn);
const ROTATE = Math.max(5, Number(params.get("rotate")) || 18) * 1000;
const ALL_PAGES = ["tables", "moves", "prizes", "chips", "bounties", "charts", "seats"];
// A named screen (?screen=bar-left) shows the layout the director saved for it: its pages, in
// order, each for its time (walls_layout.js); otherwise the URL's options say.
const screen = await screenLayout(tid);
const asked = screen ? screen.pages.map((p) => p.page).join(",") : params.get("pages") || "";
const PAGES = (asked || ALL_PAGES.join(","))
  .split(",").map((p) => p.trim()).filter((p) => ALL_PAGES.includes(p));
if (!PAGES.length) PAGES.push(...ALL_PAGES);
/** Each page's time on a named screen. @type {Record<string, number>} */
const SPANS = Object.fromEntries((screen?.pages ?? []).map((p) => [p.page, p.seconds * 1000]));
/** The draw's pages turn faster: each is a list the room scans for one name. */
const DRAW_ROTATE = SPANS.seats ?? Math.max(4, Number(params.get("draw_rotate")) || 6) * 1000;
/** The draw stays up all day only where the wall asks for it by name. */
const DRAW_ALWAYS = asked.split(",").map((p) => p.trim()).includes("seats");

// Scale: the wall is designed for 1920x1080 at the reader's own text size; larger and smaller
// screens scale everything together (rem × --s). Narrow screens (a phone) get a plain column.
function rescale() {
  const isNarrow = innerWidth < 900;
  document.body.classList.toggle("narrow", isNarrow);
  const s = isNarrow ? 1 : Math.min(innerWidth / 1920, innerHeight / 1080);
  document.documentElement.style.setProperty("--s", String(s));
}
rescale();
addEventListener("resize", () => {
  rescale();
  tables.layout();
});

// Layout -----------------------------------------------------------------------------------------

const pageNav = h("ol", { class: "page-nav", "aria-label": t("wall.pages") });
const progress = h("div", { class: "page-progress", "aria-hidden": "true" });
const rotation = new Rotation({
  pages: PAGES, nav: pageNav, progress, show: showPage,
  // The moves page is skipped while there is nothing on it; so is the prizes page of a
  // tournament without prize settings or results, and the chip leaders while nobody is counted.
  // Before the start the draw has the wall to itself: the other pages have nothing yet.
  skip: (page) => (page === "moves" && !calledMoves(conn).length && !board.entries.length)
    || (page === "prizes" && !hasPrizes(prizes)) || (page === "chips" && !chipFacts(conn))
    || (page === "bounties" && !bountyFacts(conn))
    || (page === "seats" && !drawShown()) || (page !== "seats" && drawShown() && !DRAW_ALWAYS),
  // The pages the rotation turns to now, as the top bar lists them: the draw alone before the start.
  // A tournament without bounties has no bounties page to name (its name would only crowd
  // the bar's title).
  listed: (page) => (page === "seats" ? drawShown()
    : (!drawShown() || DRAW_ALWAYS) && (page !== "bounties" || !!bountyFacts(conn))),
  // Pending moves keep the board up a little longer: players are looking for their seats.
  span: (page) => (page === "seats" ? DRAW_ROTATE
    : page === "moves" && calledMoves(conn).length > 0 ? (SPANS.moves ?? ROTATE) * 1.5 : SPANS[page] ?? ROTATE),
});
const sound = new Sound();
// Announcements captioned and spoken (speak.js): a named screen's voice is kept with its
// layout on the server, an unnamed wall's in its URL (?speak=1&volume=70&quiet=22:00-08:00).
const speaker = new Speaker(`wall.${screenName() || "default"}`,
  screen?.speech ?? speechFromUrl() ?? { on: false, volume: 80, quiet_from: null, quiet_until: null });
const bar = topbar(t("wall.title"), conn,
  { right: h("div", { class: "wall-controls" }, chainHead(conn, tid), pageNav, soundSwitch(sound),
    speakSetup(speaker, { hideOff: true })) });
// The venue's logo beside the title, the event's sponsor under the pages.
const sponsorRow = h("div", { class: "wall-sponsor-row", hidden: true });
const brand = wallBrand(tid, bar, sponsorRow);
const clockEl = h("section", { class: "wall-clock", "aria-label": t("wall.clock") });
// The banner of a cue: over the top bar, never over the map or the clock.
const cueEl = cueBanner({ conn, sound, clock: clockEl });
// The bubble's bursting: over the top bar too, for the minute the server says (a cue's banner
// goes over it meanwhile), with a fanfare when the sound is on.
bar.append(moneyBanner(conn, { onStart: () => sound.play("money") }), cueEl);
const latest = latestChanges({ conn, board });
const tables = tablesPage({ conn, rotation, area: () => pagesEl });
const moves = movesPage({ conn, board });
const prizesShown = prizesPage({ prizes, rotation });
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
const seatDraw = seatDrawPage(conn);
const pagesEl = h("main", { class: "wall-pages" },
  PAGES.includes("tables") ? tables.el : null,
  PAGES.includes("moves") ? moves.el : null,
  PAGES.includes("prizes") ? prizesShown.el : null,
  PAGES.includes("chips") ? chipsPage : null,
  PAGES.includes("bounties") ? bountyWallPage(conn) : null,
  standingsPage,
  PAGES.includes("charts") ? chartsPage : null,
  PAGES.includes("seats") ? seatDraw.el : null);
const winnerEl = winnerPanel(conn, prizes);
// The sit-outs come last and give way (their rows counted, not shown): a called move, in the
// latest changes, never leaves the screen for them.
const sitOutsEl = sitOutsPanel(conn, { fit: true });
// The forecaster's line, when the director shows it ("Money expected about 21:40").
const leftEl = h("div", { class: "wall-left" }, winnerEl, handForHandPanel(conn), clockEl, wallLine(tid));
// Time calls go in the left column, under the clock (the field numbers make way meanwhile):
// never over the table map.
leftEl.append(timeCallsPanel({ conn, left: leftEl, onToggle: () => latest.render() }), latest.el, sitOutsEl);
// A full flight's alternates: who is called to the desk, who is next, the code to join.
leftEl.insertBefore(alternatesWallPanel({ conn, tid, onToggle: () => latest.render() }), latest.el);

// The director's message: a line under the clock and the pages, or the whole screen.
const announced = wallAnnouncement(conn);
fill($("#app"), bar, h("div", { class: "wall-body" }, leftEl,
  h("div", { class: "wall-right" }, pagesEl, progress, sponsorRow)), announced.line, announced.screen,
  captionBand(conn, speaker));

const clockView = clockPanel(clockEl, conn, { stats: true });
latest.placeIn({ left: leftEl, clock: clockView, sitOuts: sitOutsEl });
// Chart text follows the wall's scale, as large as the smallest text elsewhere on the wall.
const charts = createCharts(conn, fieldCanvas, bbCanvas, {
  fontSize: Math.round(rootPx() * (narrow() ? 1 : MIN_TEXT)),
});

// Pages ------------------------------------------------------------------------------------------

function showPage() {
  if (narrow()) {
    const shown = rotation.ended ? rotation.shownPages() : PAGES.filter((p) => p !== "seats" || drawShown());
    for (const el of pagesEl.children) {
      if (el instanceof HTMLElement) el.hidden = !shown.includes(el.dataset.page ?? "");
    }
    drawing(false);
    if (shown.includes("seats")) {
      // On a phone the draw comes first while it is up: it is what the room is looking for.
      if (pagesEl.firstElementChild !== seatDraw.el) pagesEl.prepend(seatDraw.el);
      renderSeats();
    }
    if (!rotation.ended) {
      tables.render();
      moves.render();
      prizesShown.render();
    } else renderStandingsPage();
    charts.update();
    return;
  }
  const r = rotation.on || { page: rotation.shownPages()[0], part: 0 };
  for (const el of pagesEl.children) {
    if (el instanceof HTMLElement) el.hidden = el.dataset.page !== r.page;
  }
  drawing(r.page === "seats");
  if (r.page === "seats") renderSeats();
  if (r.page === "tables") tables.render();
  if (r.page === "charts") charts.update();
  if (r.page === "moves") moves.render();
  if (r.page === "prizes") prizesShown.render();
  if (r.page === "standings") renderStandingsPage();
  rotation.renderNav();
}

function renderStandingsPage() {
  const n = renderStandings({
    box: standingsPage, head: standingsHead, list: standingsList, prizes, part: rotation.partOf("standings"),
    narrow: narrow(), partText: () => rotation.partText("standings"),
    deal: conn.state?.deal ?? null,
  });
  if (n !== rotation.parts.standings) {
    rotation.setParts("standings", n);
    renderStandingsPage();
  }
}

rotation.start();

// The seat draw ------------------------------------------------------------------------------------

/** The draw is up before the clock starts (the room is looking for its seats), or all day on
 * a wall that asks for it. */
function drawShown() {
  return PAGES.includes("seats") && !rotation.ended && (DRAW_ALWAYS || !conn.state?.clock?.started)
    && seatDraw.count() > 0;
}

/** The draw takes the whole width of the wall while it is up.
 * @param {boolean} on */
function drawing(on) {
  document.body.classList.toggle("drawing", on && !narrow());
}

let seatsKey = "";

/** Measure the draw's parts where it will be shown: the whole width, its page unhidden. */
function layoutSeats() {
  if (!conn.state || !PAGES.includes("seats")) return;
  const key = JSON.stringify([conn.seq, innerWidth, innerHeight, document.documentElement.lang]);
  if (key === seatsKey) return;
  seatsKey = key;
  const wasDrawing = document.body.classList.contains("drawing");
  const wasHidden = seatDraw.el.hidden;
  drawing(true);
  seatDraw.el.hidden = false;
  const n = seatDraw.layout(narrow());
  seatDraw.el.hidden = wasHidden;
  drawing(wasDrawing);
  rotation.setParts("seats", n);
}

function renderSeats() {
  layoutSeats();
  seatDraw.render(rotation.partOf("seats"), rotation.partText("seats"));
}

prizes.onChange(() => {
  if (narrow() || !prizesShown.el.hidden) prizesShown.render();
  if (rotation.ended && (narrow() || !standingsPage.hidden)) renderStandingsPage();
});

// Wiring -----------------------------------------------------------------------------------------

function renderAll() {
  if (!conn.state) return;
  // The winner, or the last bust-out undone: the other pages come (back) into rotation.
  if (rotation.setEnded(!!ending(conn))) document.body.classList.toggle("wall-ended", rotation.ended);
  bar.setTitle(conn.state.name);
  document.title = `${conn.state.name} · ${t("wall.title")}`;
  tables.layout();
  layoutSeats();
  // The draw is put up (and taken down when the clock starts) at once, not at the next turn.
  if (drawShown() !== (rotation.on?.page === "seats") && !narrow()) rotation.turnTo((r) => (r.page === "seats") === drawShown());
  showPage();
  latest.render();
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

mount(pagesEl, conn, scheduleRender, { lang: false, now: false });
// The clock panel grows and shrinks (a break shows the colour-up): the list under it refits.
if (window.ResizeObserver) {
  let lastHeight = 0;
  new ResizeObserver(() => {
    const height = latest.el.clientHeight;
    if (Math.abs(height - lastHeight) > 2) {
      lastHeight = height;
      latest.render();
    }
  }).observe(latest.el);
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
rotation.build();
rotation.renderNav();
showPage();
conn.start();
// The charts follow the field slowly: once every ten seconds is plenty on a wall.
setInterval(() => {
  if (!chartsPage.hidden) charts.update();
}, 10000);
window.floorWall = { conn, board, prizes, sound, speaker, charts, whyText, brand };
