// @ts-check
// The floor phone: one hand, standing, on a flaky connection.
//
// Signed in, it shows what needs the floor first (halted and breaking tables, a break in
// progress, running time calls), then the plan as one-tap moves, a table pad for bust-outs,
// buttons, hands and time calls, count sheets and single counts (counts.js), several players
// out in one hand (samehand.js), and player search. Every command goes through the outbox
// (commands.js): sent with its own id, kept and sent again while the phone is offline.
// The tabs and the urgent strip are panels of their own (floor_*.js) sharing `phone`
// (floor_phone.js); this module builds the page, signs in and out, and redraws.

import { installable } from "./app.js";
import { Connection, tidFromPath } from "./conn.js";
import { reloadOnUpgrade } from "./version.js";
import { Outbox } from "./commands.js";
import { ChipRaceTool } from "./chiprace.js";
import { CountSheet } from "./counts.js";
import { BagSheet } from "./flights.js";
import { SameHand } from "./samehand.js";
import { PotsTool } from "./pots.js";
import { RulebookClient, RulebookView } from "./rulebook.js";
import { RulingsPhone } from "./rulings.js";
import { clockPanel } from "./clockview.js";
import { Board } from "./board.js";
import { moneyBanner } from "./moneyview.js";
import { onLang, t } from "./i18n.js";
import { mount } from "./mount.js";
import { staffPush } from "./push.js";
import { signInForm, signOut, whoAmI } from "./signin.js";
import { mountManage } from "./manage.js";
import { $, explainError, fill, h, me, toast, topbar } from "./ui.js";
import { movesTab } from "./floor_moves.js";
import { sales } from "./floor_sales.js";
import { searchTab } from "./floor_search.js";
import { sentTab } from "./floor_sent.js";
import { tableTab } from "./floor_table.js";
import { urgentStrip } from "./floor_urgent.js";

/** @import { Phone, PhoneUi } from "./floor_phone.js" */
/** @import { Indicator } from "./ui.js" */
/** @import { Command } from "./types.js" */

const tid = tidFromPath();
// Installable, its shell kept for a wifi drop; never its staff answers (web/sw.js).
installable("floor", tid);
const conn = new Connection(tid);
reloadOnUpgrade(conn);
// The moves carried out lately, for the moves tab (each move planned, called or done); the
// recent past, read on joining, redraws that tab (it has nothing to type in).
const board = new Board(conn, { limit: 20 });
board.onChange(() => {
  if (phone.tab !== "moves" || queued) return;
  queued = true;
  requestAnimationFrame(() => {
    queued = false;
    render();
  });
});
const outbox = new Outbox(tid);
/** @type {PhoneUi} */
const ui = {
  openWhy: new Set(),
  redirect: null, // {key, pick: "seat"|"player", player}
  table: null, // the table chosen on the pad
  typed: "",
  seat: null,
  confirmBust: null, // the player the bust-out is being confirmed for
  bountyFor: null, bountySplit: false, bountyPicked: new Set(), // a pot's winners (bounty_pick.js)
  undoFor: null,
  search: "",
  results: [],
  tool: "race", // the tools tab: "race", "pots" or "rules"
  sale: null, // {player, kind: "rebuy"|"add_on"|"re_entry"}: asking to confirm
  saleResult: null, // {player, kind, status, message}: the last answer, shown by the button
};
/** @type {Phone} */
const phone = {
  conn, tid, board, outbox, ui,
  tab: "moves",
  principal: { role: "public", username: null, table: null },
  // Set once the tools are built, below.
  tools: /** @type {any} */ (null),
  render, send, canMove, openRule, ruleFor, openTable, openRace,
};

// Layout -----------------------------------------------------------------------------------------

const userEl = h("span", { class: "who-am-i" });
const signOutBtn = h("button", { type: "button", class: "ghost small", onclick: doSignOut });
// Alerts for my section on this phone (push.js), beside the account.
const staffPushEl = staffPush(tid, () => phone.principal);
const bar = topbar(t("floor.title"), conn, {
  extra: () => (outbox.waiting ? t("floor.waiting", { n: outbox.waiting }) : ""),
});
const offlineBar = h("div", { class: "offline-bar", role: "alert", hidden: true });
const clockEl = h("section", { class: "floor-clock card" });
const urgentEl = h("section", { class: "urgent", "aria-live": "polite" });
const mainEl = h("div", { class: "floor-main", id: "floor-main", tabindex: "-1" });
const navEl = h("nav", { class: "bottom-nav" });
const signinEl = h("div", { class: "floor-signin" });
// The bubble's bursting, for the minute the server says.
const moneyEl = moneyBanner(conn, { cls: "floor-money" });
const appEl = h("div", { class: "floor-app", hidden: true }, clockEl, moneyEl, urgentEl, mainEl);

// One main landmark holds the clock, what is urgent and the phone.tab: nothing a screen reader
// skips between landmarks is left outside one.
fill($("#app"), h("div", { class: "floor-head" }, bar, offlineBar), h("main", { class: "floor-page" }, signinEl, appEl), navEl);
clockPanel(clockEl, conn, { stats: false, compact: true });

// Signing in ---------------------------------------------------------------------------------------

async function start() {
  phone.principal = await me();
  showSignedIn();
  conn.start();
}

function showSignedIn() {
  const staff = phone.principal.role !== "public";
  signinEl.hidden = staff;
  appEl.hidden = !staff;
  navEl.hidden = !staff;
  signOutBtn.hidden = !staff;
  userEl.textContent = whoAmI(phone.principal);
  staffPushEl.refresh();
  if (!staff) {
    fill(signinEl, signInForm((p) => {
      phone.principal = p;
      showSignedIn();
      conn.reconnect(true);
      outbox.flush();
      toast(t("signin.welcome", { name: p.username }), "ok");
    }, { note: t("floor.signin_note") }));
  } else {
    if (phone.principal.role === "dealer" && phone.principal.table && ui.table == null) {
      ui.table = phone.principal.table;
      phone.tab = "table";
    }
    render();
  }
}

async function doSignOut() {
  await signOut();
  // What was typed goes with the drafts (signOut): the next person finds no sheet open.
  countSheet.close();
  bagSheet.close();
  sameHand.stop();
  race.table = null;
  rulings.close();
  Object.assign(ui, { table: null, seat: null, confirmBust: null, sale: null, saleResult: null });
  phone.tab = "moves";
  phone.principal = { role: "public", username: null, table: null };
  showSignedIn();
  conn.reconnect(true);
}

// Sending ----------------------------------------------------------------------------------------

/**
 * @param {Command} command
 * @param {string} label
 */
async function send(command, label) {
  const item = await outbox.send(command, label);
  if (item.status === "done") toast(`✓ ${label}`, "ok", 2500);
  else if (item.status === "refused") toast(`✗ ${label}: ${explainError(item.error, conn)}`, "error", 7000);
  else if (item.status === "signin") toast(t("floor.signin_again"), "error", 7000);
  return item;
}

// The player panel (manage.js), opened from a seat or a search result.
const manage = mountManage({ conn, send, canManage: () => canMove() });

// The floor tools: the chip race, the pot calculator, the rulebook -------------------------------

const rulebook = new RulebookClient();
const rulesView = new RulebookView({ client: rulebook, getSet: ruleSet });
const race = new ChipRaceTool({ conn, send, rerender: () => render(), openRule: (/** @type {string} */ id) => openRule(ruleFor("chip_race") || id), canRace: () => canMove() });
const pots = new PotsTool({ defaults: potDefaults, openRule });
// Several out in one hand (kept across tables, for hand-for-hand) and the count sheet.
const sameHand = new SameHand({ conn, tid, send, rerender: () => render() });
const bagSheet = new BagSheet({ conn, send, rerender: () => render() });
const countSheet = new CountSheet({ conn, send, rerender: () => render() });
// Rulings at a table and the sit-outs running (above every phone.tab).
const rulings = new RulingsPhone({ conn, send, rulebook, ruleSet, openRule, canRule: () => canMove() });
appEl.insertBefore(rulings.strip, mainEl);

function ruleSet() {
  return conn.state?.rules?.rulebook || "tda-2024";
}

/** Open rule `id` of the tournament's rulebook in full, on the tools phone.tab.
 * @param {string | null | undefined} id
 */
function openRule(id) {
  if (!id) return;
  phone.tab = "tools";
  ui.tool = "rules";
  rulesView.render();
  rulesView.open(id);
  render();
  mainEl.focus({ preventScroll: true });
  window.scrollTo({ top: 0 });
}

/** The pot calculator's starting values: the game dealt, the smallest chip in play, seats. */
function potDefaults() {
  const s = conn.state;
  const game = s?.current_game === "stud" || s?.current_game === "razz" ? "stud" : "flop";
  const inPlay = conn.facts?.clock?.chips_in_play || [];
  const seats = Math.max(s?.rules?.seats || 10, s?.rules?.final_table || 0, 2);
  return { game, unit: inPlay[0] ?? "", seats: Math.min(seats, 12) };
}

/** The rule linked to a decision ("waiting", "rebuy", ...): the rulebook's own `links` once
 * read (at the first snapshot), these until then. */
/** @type {Record<string, string>} */
const DECISION_RULES = {
  waiting: "new-player-waits", rebuy: "rebuys", add_on: "add-ons", re_entry: "late-registration",
  chip_race: "chip-race", time_call: "time-call",
};
/** @type {Record<string, string>} */
let ruleLinks = {};

/** @param {string} decision */
function ruleFor(decision) {
  return ruleLinks[decision] || DECISION_RULES[decision];
}

conn.on("snapshot", () => {
  const lang = document.documentElement.lang === "cs" ? "cs" : "en";
  // Read the whole rule set once: its links, and a copy to open rules from offline.
  rulebook.book(ruleSet(), lang).then((book) => { ruleLinks = book.links || {}; }).catch(() => {});
});

/** @param {number | null} [table] a table to race at once */
function openRace(table = null) {
  phone.tab = "tools";
  ui.tool = "race";
  if (table != null) race.start(table);
  render();
  mainEl.focus();
}

function renderTools() {
  /** @type {{ id: PhoneUi["tool"], label: string }[]} */
  const tools = [
    { id: "race", label: t("tools.race") },
    { id: "pots", label: t("tools.pots") },
    { id: "rules", label: t("tools.rules") },
  ];
  const body = ui.tool === "pots" ? pots.render() : ui.tool === "rules" ? rulesView.render() : race.render();
  return [
    h("div", { class: "segmented tool-switch", role: "group", "aria-label": t("tools.title") }, tools.map((x) => h("button", {
      type: "button", "aria-pressed": String(ui.tool === x.id),
      onclick: () => { ui.tool = x.id; render(); },
    }, x.label))),
    body,
  ];
}

// The tabs and the urgent strip ----------------------------------------------------------------------

phone.tools = { race, sameHand, countSheet, bagSheet, rulings, manage };
const saleBlock = sales(phone);
const urgent = urgentStrip(phone, urgentEl);
const renderUrgent = urgent.render;
const renderMoves = movesTab(phone, urgent);
const renderTable = tableTab(phone, { saleBlock });
const search = searchTab(phone, { saleBlock });
const searchInput = search.input;
const renderSearch = search.render;
const renderSent = sentTab(phone, [userEl, signOutBtn, staffPushEl]);

outbox.onChange((box, why) => {
  /** @type {Indicator | null} */ (bar.querySelector(".conn"))?.refresh?.();
  if (why === "signin") {
    phone.principal = { role: "public", username: null, table: null };
    showSignedIn();
  }
  renderNav();
  renderOffline();
  if (phone.tab === "sent") renderMain();
});

conn.on("status", (/** @type {string} */ status) => {
  if (status === "live") outbox.flush();
  renderOffline();
});

// Said only while true: offline, or commands still to send (never "0 commands"); once
// everything is sent and the connection is back the bar goes, its text with it.
function renderOffline() {
  const off = conn.status !== "live";
  const n = outbox.waiting;
  offlineBar.hidden = !off && !n;
  offlineBar.textContent = off ? (n ? t("floor.offline", { n }) : t("floor.offline_none"))
    : n ? t("floor.sending", { n }) : "";
  offlineBar.classList.toggle("sending", !off);
}

function canMove() {
  return phone.principal.role === "floor" || phone.principal.role === "director";
}

/** @param {number} table @param {number | null} [seat] */
function openTable(table, seat = null) {
  ui.table = table;
  ui.typed = "";
  ui.seat = seat;
  ui.confirmBust = null;
  phone.tab = "table";
  render();
  mainEl.focus();
}

// Navigation ---------------------------------------------------------------------------------------

const TABS = [
  { id: "moves", icon: "⇄" },
  { id: "table", icon: "▦" },
  { id: "search", icon: "⌕" },
  { id: "tools", icon: "✦" },
  { id: "sent", icon: "↑" },
];

function renderNav() {
  const moves = (conn.plan.moves || []).length;
  /** @type {Record<string, number>} */
  const counts = { moves, sent: outbox.waiting + outbox.problems };
  fill(navEl, TABS.map((x) => h("button", {
    type: "button", class: `nav-btn${phone.tab === x.id ? " current" : ""}`, "aria-current": phone.tab === x.id ? "page" : null,
    onclick: () => { phone.tab = x.id; render(); mainEl.focus(); if (x.id === "search") searchInput.focus(); },
  }, h("span", { class: "nav-icon", "aria-hidden": "true" }, x.icon), h("span", { class: "nav-label" }, t(`floor.tab.${x.id}`)),
  counts[x.id] ? h("span", { class: "count" }, counts[x.id], h("span", { class: "sr-only" }, ` ${t("floor.items")}`)) : null)));
  navEl.setAttribute("aria-label", t("floor.nav"));
}

function renderMain() {
  if (!conn.state && phone.tab !== "sent") return fill(mainEl, h("p", { class: "empty" }, t("clock.waiting")));
  const body = phone.tab === "moves" ? renderMoves() : phone.tab === "table" ? renderTable() : phone.tab === "search" ? renderSearch()
    : phone.tab === "tools" ? renderTools() : renderSent();
  fill(mainEl, body);
}

function render() {
  if (phone.principal.role === "public") return;
  if (conn.state) {
    bar.setTitle(`${t("floor.title")} · ${conn.state.name}`);
    document.title = `${t("floor.title")} · ${conn.state.name}`;
  }
  renderUrgent();
  renderMain();
  renderNav();
  renderOffline();
}

let queued = false;
/** @type {string | null} */
let lastToolKey = null;
mount(mainEl, conn, () => {
  if (queued) return;
  queued = true;
  requestAnimationFrame(() => {
    queued = false;
    // Never redraw under what the floorperson is typing (search, an undo reason).
    const active = document.activeElement;
    const typing = active && mainEl.contains(active) && active.matches("input, textarea, select");
    // A tool the change does not touch is left alone: nothing moves under a finger.
    const toolKey = phone.tab === "tools" ? (ui.tool === "race" ? race.stateKey() : ui.tool) : null;
    const untouched = toolKey !== null && toolKey === lastToolKey;
    lastToolKey = toolKey;
    if (typing || untouched) {
      renderUrgent();
      renderNav();
      renderOffline();
      return;
    }
    render();
  });
}, { lang: false, now: false });
onLang(() => {
  /** @type {Indicator | null} */ (bar.querySelector(".conn"))?.refresh?.();
  signOutBtn.textContent = t("signin.signout");
  userEl.textContent = whoAmI(phone.principal);
  render();
});
signOutBtn.textContent = t("signin.signout");
start();
window.floorPhone = { conn, outbox };
