// @ts-check
// The director console: tournaments (list, create from a config or a rule set and a
// structure), players (one by one or a pasted list, re-entries, rebuys and add-ons), the draw,
// the clock, the prize pool and results (with the results as a CSV download), tables
// (break now, waive a halt, open one, start the final table), the plan, staff accounts, the
// paired table screens (tablets_console.js) and the charts. The tournament is chosen with
// ?t=<id> (remembered).
// Each section is a module of its own (director_*.js) sharing `desk` (director_desk.js); this
// one builds the page, signs in, and redraws.

import { Connection } from "./conn.js";
import { reloadOnUpgrade } from "./version.js";
import { Outbox } from "./commands.js";
import { createCharts } from "./charts.js";
import { dealBox } from "./deal.js";
import { ending } from "./finished.js";
import { onLang, t } from "./i18n.js";
import { mount } from "./mount.js";
import { Prizes } from "./prizes.js";
import { renderRulings } from "./rulings.js";
import { signInForm, signOut, whoAmI } from "./signin.js";
import { $, api, explainError, fill, h, me, toast, topbar } from "./ui.js";
import { mountManage } from "./manage.js";
import { renderPaper } from "./paper_console.js";
import { renderFlights } from "./flights.js";
import { renderAlternates } from "./alternates.js";
import { mountTablets } from "./tablets_console.js";
import { clockSection } from "./director_clock.js";
import { playersSection } from "./director_players.js";
import { prizesSection } from "./director_prizes.js";
import { staffSection } from "./director_staff.js";
import { tablesSection } from "./director_tables.js";
import { LAST_KEY, tournamentsSection } from "./director_tournaments.js";
import { mountForecast } from "./forecast_console.js";
import { mountSections } from "./sections.js";
import { mountAnnounce } from "./announce_console.js";
import { mountWalls } from "./walls_console.js";
import { renderTickets } from "./tickets_console.js";

/** @import { Desk } from "./director_desk.js" */
/** @import { Indicator } from "./ui.js" */
/** @import { Child } from "./ui.js" */
/** @import { Command } from "./types.js" */

const params = new URLSearchParams(location.search);
const tid = params.get("t") || localStorage.getItem(LAST_KEY) || "";
const conn = tid ? new Connection(tid) : null;
if (conn) reloadOnUpgrade(conn);
const outbox = tid ? new Outbox(tid) : null;
const prizes = conn ? new Prizes(conn) : null;
// The player panel (manage.js): edit, special needs, seat lock, move by hand, unregister.
const manage = conn ? mountManage({ conn, send: (command, label) => send(command, label) }) : null;

const bar = topbar(t("director.title"), conn, {
  extra: () => (outbox && outbox.waiting ? t("floor.waiting", { n: outbox.waiting }) : ""),
});
const userEl = h("span", { class: "who-am-i muted" });
const signOutBtn = h("button", { type: "button", class: "ghost small", onclick: async () => {
  await signOut();
  location.reload();
} });
// The sign-in and the console are each the page's main landmark while shown.
const signinEl = h("main", { class: "director-signin" });
const navEl = h("nav", { class: "director-nav", "aria-label": t("director.sections") });
/** @type {Record<string, HTMLElement>} */
const sections = {};
for (const id of ["tournaments", "clock", "announce", "prizes", "deal", "tickets", "money", "structure", "tables", "plan", "rulings", "charts", "forecast", "players", "files", "flights", "alternates", "staff", "floorsections", "tablets", "walls"]) {
  sections[id] = h("section", { class: "card", id: `s-${id}`, "aria-labelledby": `h-${id}` });
}
const mainEl = h("main", { class: "director-main" }, Object.values(sections));
// The deal at the final table renders itself, on the server's facts (what is typed stays).
if (conn) dealBox(conn, (/** @type {Command} */ command, /** @type {string} */ label) => send(command, label), sections.deal);
const appEl = h("div", { class: "director-app", hidden: true }, navEl, mainEl);
const accountEl = h("section", { class: "director-user", "aria-label": t("signin.account") }, userEl, signOutBtn);
fill($("#app"), bar, accountEl, signinEl, appEl);

/**
 * @param {string} id
 * @param {string} key
 * @param {Child} [extra]
 */
function heading(id, key, extra) {
  return h("h2", { id: `h-${id}` }, t(key), extra ? h("span", { class: "muted heading-extra" }, extra) : null);
}

/** @type {Desk} */
const desk = {
  conn, tid, outbox, prizes, sections, heading, send, call,
  manage: /** @type {any} */ (manage),
  principal: { role: "public", username: null, table: null },
};
const tournaments = tournamentsSection(desk);
const loadTournaments = tournaments.load;
const renderTournaments = tournaments.render;
const tablets = mountTablets({ section: sections.tablets, heading, tournaments: tournaments.list, current: tid });
const renderClock = clockSection(desk);
const renderPrizes = prizesSection(desk);
const renderPlayers = playersSection(desk);
const { renderTables, renderPlan } = tablesSection(desk);
const staff = staffSection(desk, { loaded: () => floorSections.render() });
const loadStaff = staff.load;
const renderStaff = staff.render;
// The day forecaster (forecast_console.js): it draws itself as its answers come.
const forecast = mountForecast({ section: sections.forecast, heading, conn, tid });
// The director's message to the room (announce_console.js): it draws itself on the state.
const announceBox = mountAnnounce({ conn, section: sections.announce, heading, send });
// The walls' logo and sponsor (walls_console.js).
mountWalls({ section: sections.walls, heading, tid });
// Each floorperson's tables, for their phone's alerts (sections.js).
const floorSections = mountSections({ section: sections.floorsections, heading, staff: staff.list, current: tid });

// Sending ---------------------------------------------------------------------------------------

/**
 * @param {Command} command
 * @param {string} label
 */
async function send(command, label) {
  // No tournament chosen, no outbox: nothing is sent (no section offers to send then).
  if (!outbox) return /** @type {const} */ ({ status: "discarded" });
  const item = await outbox.send(command, label);
  if (item.status === "done") toast(`✓ ${label}`, "ok", 2500);
  else if (item.status === "refused") toast(`✗ ${label}: ${explainError(item.error, conn)}`, "error", 8000);
  else if (item.status === "signin") toast(t("floor.signin_again"), "error", 8000);
  return item;
}

/**
 * @param {string} path
 * @param {import("./ui.js").ApiOptions | undefined} options
 * @param {string | undefined} okText
 */
async function call(path, options, okText) {
  try {
    const data = await api(path, options);
    if (okText) toast(`✓ ${okText}`, "ok");
    return data;
  } catch (err) {
    toast(`✗ ${explainError(err)}`, "error", 8000);
    return null;
  }
}

// Charts ------------------------------------------------------------------------------------------

const fieldCanvas = h("canvas", { role: "img" });
const bbCanvas = h("canvas", { role: "img" });
/** @type {ReturnType<typeof createCharts> | null} */
let charts = null;

function renderChartsSection() {
  const el = sections.charts;
  if (!conn) return fill(el, heading("charts", "director.charts"));
  if (!el.firstChild || el.dataset.lang !== document.documentElement.lang) {
    el.dataset.lang = document.documentElement.lang;
    // Named from the start: the charts' own description (charts.js) comes with the state.
    if (!charts) {
      fieldCanvas.setAttribute("aria-label", t("chart.players_left"));
      bbCanvas.setAttribute("aria-label", t("chart.avg_bb"));
    }
    fill(el, heading("charts", "director.charts"), h("div", { class: "two-col" },
      h("figure", {}, h("figcaption", {}, t("chart.players_left")), h("div", { class: "chart-wrap" }, fieldCanvas)),
      h("figure", {}, h("figcaption", {}, t("chart.avg_bb")), h("div", { class: "chart-wrap" }, bbCanvas))));
  }
  if (!charts && conn.state) charts = createCharts(conn, fieldCanvas, bbCanvas, { fontSize: 13 });
  if (charts) charts.update();
}

// Navigation and wiring ------------------------------------------------------------------------------

function renderNav() {
  fill(navEl, h("ul", {}, Object.keys(sections).map((id) => h("li", {}, h("a", { href: `#s-${id}` }, t(`director.${id}`))))));
  navEl.setAttribute("aria-label", t("director.sections"));
}

/** The end status the tournament list was last read at (undefined before the first state). */
/** @type {string | undefined} */
let listedEnd;

function renderLive() {
  if (conn?.state) {
    bar.setTitle(`${t("director.title")} · ${conn.state.name}`);
    document.title = `${conn.state.name} · ${t("director.title")}`;
    // The list's status line ("live", "Finished — winner: …") is the server's: read again
    // when the last bust-out finishes the tournament, an undo reopens it or it is closed.
    const endNow = ending(conn)?.status ?? "live";
    if (listedEnd !== undefined && endNow !== listedEnd) loadTournaments();
    listedEnd = endNow;
  }
  renderClock();
  renderPrizes();
  renderPlayers();
  renderTables();
  renderPlan();
  renderRulings(sections.rulings, conn, send);
  renderChartsSection();
  forecast.onState();
  announceBox.render();
  renderPaper({ sections, conn, tid, send, principal: desk.principal });
  renderFlights({ section: sections.flights, conn, tid, send });
  renderAlternates({ section: sections.alternates, conn, send });
  renderTickets({ section: sections.tickets, conn, tid, send });
}

function renderAll() {
  renderNav();
  renderTournaments();
  renderStaff();
  tablets.render();
  forecast.render();
  floorSections.render();
  renderLive();
}

async function start() {
  desk.principal = await me();
  const ok = desk.principal.role === "director";
  signinEl.hidden = ok;
  appEl.hidden = !ok;
  signOutBtn.hidden = desk.principal.role === "public";
  userEl.textContent = whoAmI(desk.principal);
  if (!ok) {
    fill(signinEl, signInForm(() => location.reload(), {
      roles: ["director"], note: desk.principal.role !== "public" ? t("director.only_director") : t("director.signin_note"),
    }));
    return;
  }
  if (tid) localStorage.setItem(LAST_KEY, tid);
  renderAll();
  await Promise.all([loadTournaments(), loadStaff(), tablets.load(), floorSections.load()]);
  const live = tournaments.list().filter((x) => x.status === "live");
  if (!tid && live.length === 1) {
    // One tournament running: that is the one the director came for.
    location.replace(`?t=${encodeURIComponent(live[0].id)}`);
    return;
  }
  if (conn) {
    let queued = false;
    mount(mainEl, conn, () => {
      if (queued) return;
      queued = true;
      setTimeout(() => {
        queued = false;
        renderLive();
      }, 250);
    }, { lang: false, now: false });
    conn.on("status", (/** @type {string} */ st) => {
      if (st === "live") outbox?.flush();
    });
    outbox?.onChange(() => /** @type {Indicator | null} */ (bar.querySelector(".conn"))?.refresh?.());
    prizes?.onChange(() => renderPrizes());
    conn.start();
  }
}

onLang(() => {
  signOutBtn.textContent = t("signin.signout");
  accountEl.setAttribute("aria-label", t("signin.account"));
  userEl.textContent = whoAmI(desk.principal);
  if (desk.principal.role === "director") renderAll();
});
signOutBtn.textContent = t("signin.signout");
start();
window.floorDirector = { conn, outbox };
