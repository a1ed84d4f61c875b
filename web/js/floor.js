// The floor phone: one hand, standing, on a flaky connection.
//
// Signed in, it shows what needs the floor first (halted and breaking tables, a break in
// progress, running time calls), then the plan as one-tap moves, a table pad for bust-outs,
// buttons, hands and time calls, count sheets and single counts (counts.js), several players
// out in one hand (samehand.js), and player search. Every command goes through the outbox
// (commands.js): sent with its own id, kept and sent again while the phone is offline.

import { Connection, tableViews, tidFromPath } from "./conn.js";
import { reloadOnUpgrade } from "./version.js";
import { Outbox } from "./commands.js";
import { ChipRaceTool, colourUp } from "./chiprace.js";
import { CountSheet, singleCount } from "./counts.js";
import { BagSheet } from "./flights.js";
import { SameHand } from "./samehand.js";
import { PotsTool } from "./pots.js";
import { RulebookClient, RulebookView } from "./rulebook.js";
import { RulingsPhone } from "./rulings.js";
import { floorPanel as handForHandPanel } from "./h4h.js";
import { pairButton } from "./pairing.js";
import { breakName, clockPanel, timeCalls } from "./clockview.js";
import { movesToday, offers, redirectSeats, undoable, levelNumber, whyText as factText } from "./facts.js";
import { Board, moveState } from "./board.js";
import * as fmt from "./format.js";
import { moneyBanner } from "./moneyview.js";
import { onLang, t, why as whyText } from "./i18n.js";
import { signInForm, signOut, whoAmI } from "./signin.js";
import { mountManage } from "./manage.js";
import { cardLink } from "./print_links.js";
import { allDrafts } from "./drafts.js";
import { countLine, findPlayersNow } from "./search.js";
import { $, api, icon, debounce, every, explainError, fill, h, me, playerName, saidAs, toast, topbar } from "./ui.js";

const tid = tidFromPath();
const conn = new Connection(tid);
reloadOnUpgrade(conn);
// The moves carried out lately, for the moves tab (each move planned, called or done); the
// recent past, read on joining, redraws that tab (it has nothing to type in).
const board = new Board(conn, { limit: 20 });
board.onChange(() => {
  if (tab !== "moves" || queued) return;
  queued = true;
  requestAnimationFrame(() => {
    queued = false;
    render();
  });
});
const outbox = new Outbox(tid);
let principal = { role: "public", username: null, table: null };
let tab = "moves";
const ui = {
  openWhy: new Set(),
  redirect: null, // {key, pick: "seat"|"player", player}
  table: null, // the table chosen on the pad
  typed: "",
  seat: null,
  confirmBust: null, // the player the bust-out is being confirmed for
  undoFor: null,
  search: "",
  results: [],
  tool: "race", // the tools tab: "race", "pots" or "rules"
  sale: null, // {player, kind: "rebuy"|"add_on"|"re_entry"}: asking to confirm
  saleResult: null, // {player, kind, status, message}: the last answer, shown by the button
};

// Layout -----------------------------------------------------------------------------------------

const userEl = h("span", { class: "who-am-i" });
const signOutBtn = h("button", { type: "button", class: "ghost small", onclick: doSignOut });
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

// One main landmark holds the clock, what is urgent and the tab: nothing a screen reader
// skips between landmarks is left outside one.
fill($("#app"), h("div", { class: "floor-head" }, bar, offlineBar), h("main", { class: "floor-page" }, signinEl, appEl), navEl);
clockPanel(clockEl, conn, { stats: false, compact: true });

// Signing in ---------------------------------------------------------------------------------------

async function start() {
  principal = await me();
  showSignedIn();
  conn.start();
}

function showSignedIn() {
  const staff = principal.role !== "public";
  signinEl.hidden = staff;
  appEl.hidden = !staff;
  navEl.hidden = !staff;
  signOutBtn.hidden = !staff;
  userEl.textContent = whoAmI(principal);
  if (!staff) {
    fill(signinEl, signInForm((p) => {
      principal = p;
      showSignedIn();
      conn.reconnect(true);
      outbox.flush();
      toast(t("signin.welcome", { name: p.username }), "ok");
    }, { note: t("floor.signin_note") }));
  } else {
    if (principal.role === "dealer" && principal.table && ui.table == null) {
      ui.table = principal.table;
      tab = "table";
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
  tab = "moves";
  principal = { role: "public", username: null, table: null };
  showSignedIn();
  conn.reconnect(true);
}

// Sending ----------------------------------------------------------------------------------------

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
const race = new ChipRaceTool({ conn, send, rerender: () => render(), openRule: (id) => openRule(ruleFor("chip_race") || id), canRace: () => canMove() });
const pots = new PotsTool({ defaults: potDefaults, openRule });
// Several out in one hand (kept across tables, for hand-for-hand) and the count sheet.
const sameHand = new SameHand({ conn, tid, send, rerender: () => render() });
const bagSheet = new BagSheet({ conn, send, rerender: () => render() });
const countSheet = new CountSheet({ conn, send, rerender: () => render() });
// Rulings at a table and the sit-outs running (above every tab).
const rulings = new RulingsPhone({ conn, send, rulebook, ruleSet, openRule, canRule: () => canMove() });
appEl.insertBefore(rulings.strip, mainEl);

function ruleSet() {
  return conn.state?.rules?.rulebook || "tda-2024";
}

/** Open rule `id` of the tournament's rulebook in full, on the tools tab. */
function openRule(id) {
  if (!id) return;
  tab = "tools";
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
const DECISION_RULES = {
  waiting: "new-player-waits", rebuy: "rebuys", add_on: "add-ons", re_entry: "late-registration",
  chip_race: "chip-race", time_call: "time-call",
};
let ruleLinks = {};

function ruleFor(decision) {
  return ruleLinks[decision] || DECISION_RULES[decision];
}

conn.on("snapshot", () => {
  const lang = document.documentElement.lang === "cs" ? "cs" : "en";
  // Read the whole rule set once: its links, and a copy to open rules from offline.
  rulebook.book(ruleSet(), lang).then((book) => { ruleLinks = book.links || {}; }).catch(() => {});
});

function openRace(table = null) {
  tab = "tools";
  ui.tool = "race";
  if (table != null) race.start(table);
  render();
  mainEl.focus();
}

function renderTools() {
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

// Rebuys, add-ons and re-entries -------------------------------------------------------------------

const SALES = {
  rebuy: (p) => ({ type: "rebuy", player: p.id }),
  add_on: (p) => ({ type: "add_on", player: p.id }),
  re_entry: (p) => ({ type: "register", name: p.name, player: p.id }),
};

/** The terms of a sale as the server's offer gives them. */
function saleTerms(offer) {
  const money = (n) => fmt.money(n, conn.state?.structure?.prize?.currency);
  if (offer.price == null) return "";
  if (offer.kind === "re_entry") return t("sale.terms_entry", { price: money(offer.price) });
  return t("sale.terms", { chips: fmt.chips(offer.chips), price: money(offer.price) });
}

async function sell(p, kind) {
  ui.sale = null;
  ui.saleResult = { player: p.id, kind, status: "pending", message: t("sale.sending") };
  render();
  const item = await send(SALES[kind](p), t(`sale.label.${kind}`, { name: p.name }));
  ui.saleResult = {
    player: p.id, kind, status: item.status,
    message: item.status === "done" ? t(`sale.done.${kind}`, { name: p.name })
      : item.status === "refused" ? explainError(item.error, conn)
        : item.status === "pending" ? t("race.queued") : t("floor.signin_again"),
  };
  render();
}

/** Rebuy / add-on / re-entry buttons for a player, the confirmation, and the last answer:
 * what the server offers the player now (facts.js). A player out is told why there is no
 * re-entry; a player in, why their own limit stops a sale. */
function saleBlock(p) {
  const list = canMove() ? offers(conn, p) : [];
  const say = (o) => factText(o.closed, conn, fmt.chips);
  const closed = p.busted ? list.find((o) => o.closed) : null;
  if (closed) return h("p", { class: "sale-closed muted" }, say(closed));
  const barred = list.filter((o) => o.own);
  const open = list.filter((o) => !o.closed);
  const kinds = open.map((o) => o.kind);
  const notes = barred.map((o) => h("p", { class: "sale-closed muted" }, say(o)));
  if (!kinds.length) return notes.length ? h("div", { class: "sale" }, notes) : null;
  const result = ui.saleResult && ui.saleResult.player === p.id ? ui.saleResult : null;
  let body;
  if (ui.sale && ui.sale.player === p.id) {
    const kind = ui.sale.kind;
    body = h("div", { class: "confirm-box sale-confirm", role: "alertdialog", "aria-label": t(`sale.title.${kind}`) },
      h("p", {}, t(`sale.confirm.${kind}`, { name: p.name }), " ", h("span", { class: "muted" }, saleTerms(open.find((o) => o.kind === kind) || { kind }))),
      h("div", { class: "actions" },
        h("button", { type: "button", class: "primary big", onclick: () => sell(p, kind) }, t(`sale.yes.${kind}`)),
        h("button", { type: "button", class: "big", onclick: () => { ui.sale = null; render(); } }, t("common.no"))));
  } else {
    body = h("div", { class: "actions sale-actions" }, kinds.map((kind) => h("button", {
      type: "button", class: "big",
      onclick: () => { ui.sale = { player: p.id, kind }; ui.saleResult = null; render(); },
    }, t(`sale.button.${kind}`))),
    h("button", { type: "button", class: "link-button", onclick: () => openRule(ruleFor(kinds[0])) }, t("floor.rule_link")));
  }
  return h("div", { class: "sale" }, body, notes,
    result ? h("p", { class: `sale-result ${result.status === "refused" ? "error-text" : result.status === "done" ? "ok-text" : "muted"}`,
      role: result.status === "refused" ? "alert" : "status" }, result.message) : null);
}

outbox.onChange((box, why) => {
  bar.querySelector(".conn")?.refresh?.();
  if (why === "signin") {
    principal = { role: "public", username: null, table: null };
    showSignedIn();
  }
  renderNav();
  renderOffline();
  if (tab === "sent") renderMain();
});

conn.on("status", (status) => {
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

// Urgent: halts, breaks, time calls --------------------------------------------------------------------

function renderUrgent() {
  if (!conn.state) return fill(urgentEl);
  const views = tableViews(conn);
  const cards = [];
  const m = fmt.clockModel(conn);
  if (m && m.onBreak) {
    cards.push(h("div", { class: "urgent-card break" },
      h("strong", {}, h("span", { class: "badge badge-break" }, breakName(m.current)), " ",
        fmt.clock(m.left)),
      m.colorUp.length ? h("div", { class: "color-up" }, t("clock.color_up", { chips: m.colorUp.map(fmt.chips).join(", ") })) : null,
      m.colorUp.length && canMove() && !(tab === "tools" && ui.tool === "race") ? h("div", { class: "actions" },
        h("button", { type: "button", class: "primary", onclick: () => openRace() }, t("race.open"))) : null));
  }
  for (const halt of conn.plan.halted || []) {
    const key = `halt-${halt.table}`;
    cards.push(h("div", { class: "urgent-card halted" },
      h("button", { type: "button", class: "urgent-main", "aria-expanded": String(ui.openWhy.has(key)),
        onclick: () => toggleWhy(key) },
      h("span", { class: "badge badge-halted" }, t("status.halted")), " ",
      h("strong", {}, t("floor.halted_table", { table: halt.table, n: halt.short }))),
      ui.openWhy.has(key) ? whyBlock(halt.why, halt.rule) : null,
      h("div", { class: "actions" },
        h("button", { type: "button", onclick: () => openTable(halt.table) }, t("floor.open_table", { table: halt.table })))));
  }
  for (const v of views.filter((x) => x.status === "breaking")) {
    const moves = (conn.plan.moves || []).filter((mv) => mv.from.table === v.table);
    const ready = moves.filter((mv) => mv.player && mv.to.seat != null).length;
    cards.push(h("div", { class: "urgent-card breaking" },
      h("div", {}, h("span", { class: "badge badge-breaking" }, t("status.breaking")), " ",
        h("strong", {}, t("floor.breaking_table", { table: v.table, n: v.players }))),
      // Nobody is lost from sight: a player the other tables have no seat for yet (a bust-out
      // undone meanwhile) waits at the breaking table until a seat frees (FLOOR-RULES 10.4).
      v.players > moves.length ? h("p", { class: "why small" }, t("floor.breaking_waiting", { n: v.players - moves.length })) : null,
      ready > 1 && canMove() ? h("div", { class: "actions" },
        uncalled(moves) ? h("button", { type: "button", class: "primary",
          onclick: () => send({ type: "call_all", reason: moves[0].reason }, t("floor.call_all_label", { table: v.table })) },
        t("floor.call_all", { n: uncalled(moves) })) : null,
        h("button", { type: "button", class: "ok",
          onclick: () => send({ type: "confirm_all", reason: moves[0].reason }, t("floor.all_done_label", { table: v.table })) },
        t("floor.all_done", { n: ready }))) : null));
  }
  for (const c of timeCalls(conn).filter((x) => x.phase !== "over")) {
    cards.push(h("div", { class: `urgent-card timecall ${c.phase}` },
      h("div", {}, h("strong", {}, t("timecall.title")), " ", t("timecall.where", { table: c.table, seat: c.seat }),
        c.name ? ` · ${c.name}` : "", " ",
        h("strong", { class: "tc-left", dataset: { table: c.table, seat: c.seat } },
          c.phase === "count" ? String(Math.ceil(c.left)) : fmt.clock(c.left)), " ",
        h("span", { class: "tc-phase" }, t(c.phase === "count" ? "timecall.counting" : "timecall.minute"))),
      h("div", { class: "actions" },
        h("button", { type: "button", class: "ok", onclick: () => send({ type: "end_time_call", table: c.table, seat: c.seat, outcome: "acted" },
          t("floor.acted_label", { table: c.table, seat: c.seat })) }, t("floor.acted")),
        h("button", { type: "button", onclick: () => send({ type: "end_time_call", table: c.table, seat: c.seat, outcome: "cancelled" },
          t("floor.stop_label", { table: c.table, seat: c.seat })) }, t("floor.stop_call")))));
  }
  if (tab !== "moves" && cards.length) {
    // Elsewhere a one-line summary: the table pad and search keep the screen.
    const halted = (conn.plan.halted || []).length;
    const breaking = views.filter((x) => x.status === "breaking").length;
    const calls = timeCalls(conn).filter((x) => x.phase !== "over").length;
    const parts = [
      m && m.onBreak ? t("clock.break") : null,
      halted ? t("floor.sum_halted", { n: halted }) : null,
      breaking ? t("floor.sum_breaking", { n: breaking }) : null,
      calls ? t("floor.sum_calls", { n: calls }) : null,
    ].filter(Boolean);
    return fill(urgentEl, h("button", { type: "button", class: "urgent-summary", onclick: () => { tab = "moves"; render(); } },
      h("span", { "aria-hidden": "true" }, "⚠ "), parts.join(" · "), h("span", { class: "go" }, t("floor.show"))));
  }
  fill(urgentEl, cards.length ? h("h2", { class: "sr-only" }, t("floor.urgent")) : null, cards);
}

// The time call counts down between events: the minute, then the ten-second count; when the
// count is over the card goes (the server's clock driver ends the call a moment later).
let callPhases = "";
every(250, () => {
  const calls = timeCalls(conn);
  const phases = calls.map((c) => `${c.table}.${c.seat}.${c.phase}`).join("|");
  if (phases !== callPhases) {
    callPhases = phases;
    if (principal.role !== "public") renderUrgent();
    return;
  }
  for (const el of urgentEl.querySelectorAll(".tc-left")) {
    const c = calls.find((x) => String(x.table) === el.dataset.table && String(x.seat) === el.dataset.seat);
    if (c) el.textContent = c.phase === "count" ? String(Math.ceil(c.left)) : fmt.clock(c.left);
  }
});

// The rule behind a move or a halt, in full, from the rulebook (GET /api/rulebook/{rule}),
// in the reader's language; while that is not available, the citation the plan carries.
const ruleTexts = new Map();

function ruleText(rule) {
  if (!rule || !conn.state) return null;
  const set = conn.state.rules.rulebook || "tda-2024";
  const lang = document.documentElement.lang === "cs" ? "cs" : "en";
  const key = `${set}/${rule}/${lang}`;
  if (!ruleTexts.has(key)) {
    ruleTexts.set(key, undefined);
    api(`/api/rulebook/${encodeURIComponent(rule)}?set=${encodeURIComponent(set)}&lang=${lang}`)
      .then((r) => { ruleTexts.set(key, r && r.text ? r : null); render(); })
      .catch(() => ruleTexts.set(key, null));
  }
  return ruleTexts.get(key) || null;
}

function whyBlock(why, rule) {
  const full = ruleText(rule);
  return h("div", { class: "why" }, h("p", { class: "why-cite" }, whyText(why)),
    full ? h("p", { class: "why-rule" }, full.title ? h("strong", {}, `${full.title}: `) : null, full.text) : null,
    rule ? h("button", { type: "button", class: "link-button why-open", onclick: () => openRule(rule) }, t("floor.open_rule")) : null);
}

function toggleWhy(key) {
  if (ui.openWhy.has(key)) ui.openWhy.delete(key);
  else ui.openWhy.add(key);
  render();
}

function canMove() {
  return principal.role === "floor" || principal.role === "director";
}

// Moves ------------------------------------------------------------------------------------------

function moveKey(m) {
  return `${m.player ?? `bb${m.from.table}`}>${m.to.table}`;
}

// Moves keep the place they first had in the list, so nothing jumps under a finger when the
// plan changes; new moves are added at the end.
const firstSeen = new Map();
let seenCounter = 0;

function sortedMoves() {
  const moves = conn.plan.moves || [];
  const keys = new Set(moves.map(moveKey));
  for (const k of firstSeen.keys()) if (!keys.has(k)) firstSeen.delete(k);
  for (const k of keys) if (!firstSeen.has(k)) firstSeen.set(k, (seenCounter += 1));
  return [...moves].sort((a, b) => firstSeen.get(moveKey(a)) - firstSeen.get(moveKey(b)));
}

function moveCard(m) {
  const key = moveKey(m);
  const name = m.player ? playerName(conn, m.player) : t("move.next_bb", { table: m.from.table });
  const open = ui.openWhy.has(key);
  const halted = (conn.plan.halted || []).some((x) => x.table === m.to.table);
  const r = ui.redirect && ui.redirect.key === key ? ui.redirect : null;
  const confirm = (player, seat) => {
    ui.redirect = null;
    // A called move goes elsewhere only by calling it again there: every screen shows that.
    const again = m.called && seat != null && seat !== m.to.seat;
    const cmd = { type: again ? "call_move" : "confirm", player };
    if (seat != null) cmd.seat = seat;
    const to = fmt.spot(m.to.table, seat ?? m.to.seat);
    send(cmd, t(again ? "floor.call_label" : "floor.move_label", { name: playerName(conn, player), to }));
    render();
  };
  let picker = null;
  if (r && r.pick === "player") {
    const tb = conn.state.tables[m.from.table];
    picker = h("div", { class: "picker" }, h("p", {}, t("floor.who_goes", { table: m.from.table })),
      h("div", { class: "seat-grid" }, Object.entries(tb?.occupants || {}).sort((a, b) => a[0] - b[0]).map(([seat, pid]) =>
        h("button", { type: "button", class: "seat-btn", onclick: () => {
          if (m.to.seat == null || r.then === "seat") ui.redirect = { key, pick: "seat", player: pid };
          else confirm(pid, null);
          render();
        } }, saidAs(`${t("floor.seat", { seat })}: ${playerName(conn, pid)}`,
          h("span", { class: "seat-no" }, seat), h("span", { class: "seat-name" }, playerName(conn, pid)))))),
      h("button", { type: "button", class: "ghost", onclick: () => { ui.redirect = null; render(); } }, t("common.back")));
  } else if (r && r.pick === "seat") {
    // The seats the server says this move may take (a reserved one only for who needs it).
    const seats = redirectSeats(conn, (conn.plan.moves || []).indexOf(m), r.player);
    picker = h("div", { class: "picker" }, h("p", {}, t("floor.pick_seat", { table: m.to.table })),
      seats.length ? h("div", { class: "seat-grid" }, seats.map((x) => h("button", {
        type: "button", class: "seat-btn free", disabled: x.reserved,
        "aria-label": t("floor.seat_at", { table: m.to.table, seat: x.seat }) + (x.reserved ? ` (${t("floor.reserved")})` : ""),
        onclick: () => confirm(r.player, x.seat),
      }, h("span", { class: "seat-no" }, x.seat), x.reserved ? h("span", { class: "seat-name" }, t("floor.reserved")) : null)))
        : h("p", { class: "muted" }, t("floor.no_free_seat")),
      h("button", { type: "button", class: "ghost", onclick: () => { ui.redirect = null; render(); } }, t("common.back")));
  }
  return h("li", { class: `move-card reason-${m.reason}${halted ? " fixes-halt" : ""}` },
    h("button", { type: "button", class: "move-main", "aria-expanded": String(open), onclick: () => toggleWhy(key) },
      h("span", { class: "move-name" }, name),
      h("span", { class: "move-route" }, fmt.spot(m.from.table, m.from.seat), h("span", { class: "arrow", "aria-hidden": "true" }, " → "),
        h("span", { class: "sr-only" }, ` ${t("wall.to")} `),
        h("strong", {}, m.to.seat == null ? t("floor.floor_picks", { table: m.to.table }) : fmt.spot(m.to.table, m.to.seat))),
      h("span", { class: "move-tags" }, h("span", { class: `badge badge-${m.reason}` }, t(`reason.${m.reason}`)),
        h("span", { class: `badge badge-move-${moveState(m)}` }, t(`move.state.${moveState(m)}`)),
        m.player && movesToday(conn, m.player) ? h("span", { class: "badge" }, t("floor.moved_times", { n: movesToday(conn, m.player) })) : null,
        halted ? h("span", { class: "badge badge-halted" }, t("floor.for_halted", { table: m.to.table })) : null,
        h("span", { class: "why-hint" }, open ? t("floor.hide_why") : t("floor.show_why")))),
    open ? whyBlock(m.why, m.rule) : null,
    picker || (canMove() ? h("div", { class: "move-actions" },
      m.player && !m.called ? h("button", { type: "button", class: "primary big", onclick: () =>
        send({ type: "call_move", player: m.player }, t("floor.call_label", { name, to: fmt.spot(m.to.table, m.to.seat) })) },
      t("floor.call")) : null,
      h("button", { type: "button", class: "ok big", onclick: () => {
        if (!m.player) ui.redirect = { key, pick: "player" };
        else if (m.to.seat == null) ui.redirect = { key, pick: "seat", player: m.player };
        else return confirm(m.player, null);
        render();
      } }, icon("✓"), t("floor.done")),
      h("button", { type: "button", class: "big", onclick: () => {
        ui.redirect = m.player ? { key, pick: "seat", player: m.player } : { key, pick: "player", then: "seat" };
        render();
      } }, t("floor.other_seat")),
      m.player ? h("button", { type: "button", class: "big ghost", onclick: () =>
        send({ type: "cancel", player: m.player }, t("floor.cancel_label", { name })) }, t("floor.cancel_move")) : null)
      : null));
}

function renderMoves() {
  const moves = sortedMoves();
  const done = board.entries.filter((e) => e.kind === "move" && e.reason !== "correction").slice(0, 5);
  return [
    h("h2", {}, t("floor.moves_title", { n: moves.length })),
    moves.length ? h("p", { class: "muted small" }, t("floor.call_hint")) : null,
    moves.length ? h("ul", { class: "move-list" }, moves.map(moveCard)) : h("p", { class: "empty" }, t("floor.no_moves")),
    done.length ? h("h3", {}, t("floor.done_lately")) : null,
    done.length ? h("ul", { class: "move-list done-list" }, done.map((e) => h("li", { class: "done-card" },
      h("span", { class: "move-name" }, playerName(conn, e.player)), " ",
      h("span", { class: "move-route" }, fmt.spot(e.from.table, e.from.seat), " → ", h("strong", {}, fmt.spot(e.to.table, e.to.seat))), " ",
      h("span", { class: "badge badge-move-done" }, t("move.state.done"))))) : null,
  ];
}

/** The moves of `moves` with a player the floor has not called yet. */
function uncalled(moves) {
  return moves.filter((mv) => mv.player && !mv.called).length;
}

// The table pad: bust, button, hand, call time -------------------------------------------------------

function openTable(table, seat = null) {
  ui.table = table;
  ui.typed = "";
  ui.seat = seat;
  ui.confirmBust = null;
  tab = "table";
  render();
  mainEl.focus();
}

function keypad() {
  const press = (k) => {
    if (k === "del") ui.typed = ui.typed.slice(0, -1);
    else if (k === "ok") {
      const n = Number(ui.typed);
      if (conn.state?.tables[n]) return openTable(n);
      toast(t("floor.no_table", { table: ui.typed || "–" }), "error");
      return;
    } else if (ui.typed.length < 5) ui.typed += k;
    render();
  };
  const keys = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "del", "0", "ok"];
  return h("div", { class: "pad" },
    h("div", { class: "pad-display", role: "status", "aria-live": "polite", "aria-label": t("floor.table_number") },
      ui.typed ? t("spot.table_only", { table: ui.typed }) : h("span", { class: "muted" }, t("floor.type_table"))),
    h("div", { class: "pad-keys" }, keys.map((k) => h("button", {
      type: "button", class: `key${k === "ok" ? " primary" : ""}`,
      "aria-label": k === "del" ? t("floor.key_delete") : k === "ok" ? t("floor.key_open") : k,
      onclick: () => press(k),
    }, k === "del" ? "⌫" : k === "ok" ? t("floor.key_open") : k))));
}

function tableView() {
  const s = conn.state;
  const tb = s.tables[ui.table];
  if (!tb) {
    ui.table = null;
    return keypad();
  }
  const view = tableViews(conn).find((v) => v.table === tb.number);
  const seatEl = (seat) => {
    const pid = tb.occupants[seat];
    const selected = ui.seat === seat;
    // The server's seat of the button now: after "button here" the seat reported, not the
    // virtual last hand's button the report recorded before it.
    const dealer = view?.button === seat;
    if (sameHand.active) {
      // Picking the seats out in the hand: a tap picks or drops the seat's player.
      const picked = !!pid && sameHand.isPicked(pid);
      return h("button", {
        type: "button", class: `seat-btn${pid ? "" : " empty"}${picked ? " picked" : ""}`, disabled: !pid,
        "aria-pressed": String(picked),
        onclick: () => { sameHand.toggle(pid); render(); },
      }, saidAs(`${t("floor.seat", { seat })}: ${pid ? playerName(conn, pid) : t("floor.empty")}${picked ? `, ${t("same.picked")}` : ""}`,
        h("span", { class: "seat-no" }, seat, picked ? h("span", { class: "out-mark" }, "✕") : null),
        h("span", { class: "seat-name" }, pid ? playerName(conn, pid) : t("floor.empty"))));
    }
    return h("button", {
      type: "button", class: `seat-btn${pid ? "" : " empty"}${selected ? " selected" : ""}`,
      "aria-pressed": String(selected),
      onclick: () => { ui.seat = selected ? null : seat; ui.confirmBust = null; render(); },
    }, saidAs(`${t("floor.seat", { seat })}: ${pid ? playerName(conn, pid) : t("floor.empty")}${dealer ? `, ${t("floor.button_here")}` : ""}`,
      h("span", { class: "seat-no" }, seat, dealer ? h("span", { class: "dealer-btn" }, "D") : null),
      h("span", { class: "seat-name" }, pid ? playerName(conn, pid) : t("floor.empty"))));
  };
  const seats = [];
  for (let i = 1; i <= tb.seats; i += 1) seats.push(seatEl(i));
  const pid = ui.seat != null ? tb.occupants[ui.seat] : null;
  const name = pid ? playerName(conn, pid) : null;
  const where = ui.seat != null ? fmt.spot(tb.number, ui.seat) : "";
  let actions = null;
  // Another phone reported the player out while this one was asking: said, with who and
  // when, rather than the question vanishing.
  const asked = ui.confirmBust ? s.players[ui.confirmBust] : null;
  if (asked?.busted) {
    actions = h("div", { class: "confirm-box already-out", role: "alert" },
      h("p", {}, asked.bust?.by
        ? t("floor.already_out_by", { name: asked.name, by: asked.bust.by, time: fmt.timeOfDay(asked.bust.at) })
        : t("floor.already_out", { name: asked.name, time: fmt.timeOfDay(asked.bust?.at) })),
      h("div", { class: "actions" },
        h("button", { type: "button", class: "big", onclick: () => { ui.confirmBust = null; ui.seat = null; render(); } }, t("floor.seen"))));
  } else if (ui.seat != null && ui.confirmBust && ui.confirmBust === pid) {
    actions = h("div", { class: "confirm-box", role: "alertdialog", "aria-label": t("floor.bust_confirm_title") },
      h("p", {}, t("floor.bust_confirm", { name, where })),
      h("div", { class: "actions" },
        h("button", { type: "button", class: "danger big", onclick: () => {
          ui.confirmBust = null;
          // The player is named with the seat: a late resend from the outbox is refused if
          // somebody else sits there by then, instead of busting them.
          send({ type: "bust", player: pid, table: tb.number, seat: ui.seat }, t("floor.bust_label", { name, where }));
          ui.seat = null;
          render();
        } }, t("floor.bust_yes")),
        h("button", { type: "button", class: "big", onclick: () => { ui.confirmBust = null; render(); } }, t("common.no"))));
  } else if (ui.seat != null) {
    actions = h("div", { class: "seat-actions" },
      h("p", { class: "selected-seat" }, where, name ? ` · ${name}` : ` · ${t("floor.empty")}`),
      h("div", { class: "actions" },
        h("button", { type: "button", class: "danger big", disabled: !pid, onclick: () => { ui.confirmBust = pid; render(); } }, t("floor.bust")),
        h("button", { type: "button", class: "big", disabled: !pid,
          onclick: () => send({ type: "button", table: tb.number, seat: ui.seat }, t("floor.button_label", { where })) }, t("floor.report_button")),
        principal.role !== "dealer" ? h("button", { type: "button", class: "warn big", disabled: !pid,
          onclick: () => send({ type: "call_time", table: tb.number, seat: ui.seat }, t("floor.call_time_label", { where, name: name || "" })) }, t("floor.call_time")) : null),
      pid ? saleBlock(s.players[pid]) : null,
      pid && canMove() ? manage.button(pid) : null,
      pid && canMove() ? cardLink(tid, s.players[pid]) : null);
    // Beside the seat's actions, not in their box: the box stays small over the seat grid.
    if (pid && canMove()) actions = [actions, singleCount({ conn, send, pid, table: tb.number, seat: ui.seat })];
  }
  if (sameHand.active) actions = sameHand.render(canMove());
  if (countSheet.active && countSheet.table !== tb.number) countSheet.close();
  const counting = countSheet.active;
  const undo = undoable(conn, tb.number).map((u) => ({ ...u, p: s.players[u.player] })).filter((u) => u.p);
  return h("div", { class: "table-view" },
    h("div", { class: "table-head" },
      h("h2", {}, t("spot.table_only", { table: tb.number }), " ",
        view && view.status !== "open" ? h("span", { class: `badge badge-${view.status}` }, t(`status.${view.status}`)) : null,
        view?.final ? h("span", { class: "badge badge-final" }, t("wall.tag.final")) : null),
      h("p", { class: "muted" }, t("floor.table_info", { n: Object.keys(tb.occupants).length, seats: tb.seats, hand: tb.hand })),
      positionsInfo(tb, view),
      oldLevelInfo(s, view),
      handForHandPanel(conn, tid, tb.number, send),
      canMove() ? pairButton(tid, tb.number, render) : null,
      h("div", { class: "actions" },
        h("button", { type: "button", class: "big", onclick: () => send({ type: "hand", table: tb.number }, t("floor.hand_label", { table: tb.number })) }, t("floor.new_hand")),
        h("button", { type: "button", class: "big ghost", onclick: () => { ui.table = null; ui.seat = null; render(); } }, t("floor.other_table"))),
      canMove() && !sameHand.active && !counting ? h("div", { class: "actions table-tools" },
        h("button", { type: "button", class: "big", onclick: () => { ui.seat = null; countSheet.open(tb.number); render(); } }, t("count.open")),
        h("button", { type: "button", class: "big", onclick: () => { ui.seat = null; ui.confirmBust = null; sameHand.start(tb.number); render(); } }, t("same.open")))
        : null,
      raceOffer(tb),
      bagSheet.hook(tb)),
    counting ? countSheet.render() : [
      h("p", { class: "hint" }, sameHand.active ? t("same.pick_seats", { table: tb.number }) : t("floor.pick_a_seat")),
      h("div", { class: "seat-grid seats" }, seats),
      actions],
    rulings.forTable(tb.number),
    undo.length && principal.role !== "dealer" ? h("div", { class: "undo card" }, h("h3", {}, t("floor.undo_title")),
      undo.map((u) => undoRow(u))) : null);
}

/** A hand dealt before the level went up finishes at the old blinds (the new level applies
 * from the next hand): say so while the server's table view says the table is in that hand. */
function oldLevelInfo(s, view) {
  const i = view?.oldStep;
  const step = i == null ? null : s.structure?.levels?.[i];
  if (!step) return null;
  return h("p", { class: "badge badge-paused old-level" },
    t("floor.old_level", { n: levelNumber(conn, i), blinds: fmt.blinds(step) }));
}

/** The next big blind and the players waiting for it, as the server's table view has them. */
function positionsInfo(tb, view) {
  if (!view) return null;
  const seatOf = (pid) => conn.state.players[pid]?.seat;
  const bb = view.nextBigBlind;
  const waiting = view.waiting || [];
  if (bb == null && !waiting.length) return null;
  return h("div", { class: "positions" },
    bb != null ? h("p", { class: "next-bb" }, h("span", { class: "label" }, t("floor.next_bb")), " ",
      h("strong", {}, playerName(conn, bb)), ` (${t("floor.seat", { seat: seatOf(bb) ?? "–" })})`) : null,
    waiting.length ? h("div", { class: "waiting" },
      h("p", {}, h("span", { class: "label" }, t("floor.waiting_players", { n: waiting.length })), " ",
        waiting.map((pid, i) => [i ? ", " : "", h("strong", {}, playerName(conn, pid)), ` (${t("floor.seat", { seat: seatOf(pid) ?? "–" })})`])),
      h("button", { type: "button", class: "link-button", onclick: () => openRule(ruleFor("waiting")) },
        t("floor.why_waiting"))) : null);
}

/** At a colour-up break: race this table's leaving chips. */
function raceOffer(tb) {
  const setup = colourUp(conn);
  if (!setup || !setup.atBreak || !canMove()) return null;
  const raced = (conn.state.chip_races || []).some((r) => r.table === tb.number && setup.going.includes(r.result.leaving));
  return h("div", { class: "actions race-offer" }, h("button", { type: "button", class: raced ? "ghost" : "primary",
    onclick: () => {
      if (raced) {
        race.table = tb.number;
        race.shown = { table: tb.number, leaving: (conn.state.chip_races || []).filter((r) => r.table === tb.number).pop().result.leaving };
        openRace();
      } else openRace(tb.number);
    } }, raced ? t("race.show_result") : t("race.at_table", { table: tb.number, chips: setup.going.map(fmt.chips).join(", ") })));
}

function undoRow({ p, table, until, level }) {
  const input = h("input", { id: `undo-${p.id}`, value: t("floor.undo_default"), maxlength: 500 });
  return h("form", { class: "undo-row", onsubmit: (ev) => {
    ev.preventDefault();
    const reason = input.value.trim() || t("floor.undo_default");
    send({ type: "undo_bust", player: p.id, reason }, t("floor.undo_label", { name: p.name }));
  } },
  h("label", { for: `undo-${p.id}` }, t("floor.undo_reason", { name: p.name, where: fmt.spot(p.bust.table, p.bust.seat) }),
    " ", h("span", { class: "muted small" }, until != null
      ? t("floor.undo_until_time", { table, time: fmt.timeOfDay(until) })
      : t(level ? "floor.undo_until_level" : "floor.undo_until", { table }))),
  h("div", { class: "row" }, input, h("button", { type: "submit" }, t("floor.undo"))));
}

function renderTable() {
  if (!conn.state) return [];
  // Hand-for-hand: the seats picked at one table stay picked while the next table opens.
  const picking = sameHand.active && ui.table == null
    ? h("div", { class: "notice same-note", role: "status" }, t("same.open_next", { n: sameHand.picked.size }), " ",
      h("button", { type: "button", class: "link-button", onclick: () => { sameHand.stop(); render(); } }, t("same.cancel")))
    : null;
  return [ui.table == null ? h("h2", {}, t("floor.table_title")) : null, picking,
    ui.table == null ? [keypad(), draftsList()] : tableView()];
}

// Sheets kept on this phone (drafts.js) ------------------------------------------------------------

/** Open the sheet a draft was typed on, with what was typed. */
function openDraft(d) {
  if (!conn.state?.tables?.[d.table] || !canMove()) return;
  ui.seat = null;
  ui.confirmBust = null;
  if (d.sheet === "race") {
    tab = "tools";
    ui.tool = "race";
    race.start(d.table);
  } else {
    tab = "table";
    ui.table = d.table;
    if (d.sheet === "count") countSheet.open(d.table);
    else if (d.sheet === "bag") bagSheet.open(d.table);
    else if (d.sheet === "same") sameHand.start(d.table);
    else if (d.sheet === "ruling") rulings.start(d.table);
  }
  render();
}

/** The sheets kept on this phone, under the table pad: each opens where it was left. */
function draftsList() {
  const list = allDrafts(tid).filter((d) => conn.state?.tables?.[d.table]);
  if (!list.length || !canMove()) return null;
  return h("section", { class: "drafts-kept", "aria-labelledby": "drafts-title" },
    h("h3", { id: "drafts-title" }, t("draft.list")),
    h("ul", {}, list.map((d) => h("li", {}, h("button", { type: "button", class: "big", onclick: () => openDraft(d) },
      t(`draft.sheet.${d.sheet}`, { table: d.table }), " ", h("span", { class: "muted" }, fmt.timeOfDay(d.began)))))));
}

// A reload in the middle of a sheet opens it again where it was left: the newest draft.
let resumed = false;
conn.on("snapshot", () => {
  if (resumed || !canMove()) return;
  resumed = true;
  const newest = allDrafts(tid).find((d) => conn.state?.tables?.[d.table]);
  if (newest) openDraft(newest);
});

// Search -------------------------------------------------------------------------------------------

const searchInput = h("input", { id: "floor-search", type: "search", autocomplete: "off", spellcheck: "false",
  enterkeyhint: "search" });
const searchResults = h("div", { class: "results", "aria-live": "polite" });
const runSearch = debounce(async () => {
  const q = searchInput.value.trim();
  ui.search = q;
  if (!q) {
    ui.results = [];
    return renderResults();
  }
  // The server's answer with how many match in all; offline, the copy here (search.js).
  const found = await findPlayersNow(conn, tid, q);
  if (found.query !== searchInput.value.trim()) return; // typed on meanwhile: a later answer comes
  ui.found = found;
  ui.results = found.players;
  renderResults();
}, 200);
searchInput.addEventListener("input", runSearch);

function renderResults() {
  const list = ui.results;
  fill(searchResults, ui.search ? countLine(ui.found) : null, !ui.search ? null : list.length ? h("ul", { class: "result-list" }, list.map((r) => {
    // The live state is fresher than the search answer (a bust, a re-entry since).
    const p = conn.state?.players?.[r.id];
    const live = p ? { ...r, table: p.table, seat: p.seat, busted: p.busted, place: p.bust?.place ?? r.place } : r;
    if (live.busted) {
      // Out of the tournament: nothing to open, so plain text, not a greyed-out button.
      return h("li", { class: "result-item" },
        h("div", { class: "result result-out" },
          h("span", { class: "result-name" }, p?.name ?? r.name),
          h("span", { class: "result-where" }, t("search.busted_place", { place: live.place ?? "–" }))),
        p ? saleBlock(p) : null, p && canMove() ? manage.button(p.id) : null);
    }
    return h("li", { class: "result-item" },
      h("button", { type: "button", class: "result", disabled: live.table == null,
        onclick: () => openTable(live.table, live.seat) },
      h("span", { class: "result-name" }, p?.name ?? r.name),
      h("span", { class: "result-where" }, live.busted ? t("player.busted_place", { place: fmt.ordinal(live.place) })
        : live.table == null ? t("player.no_seat_yet") : fmt.spot(live.table, live.seat)),
      r.moving_to ? h("span", { class: "result-move" }, t("player.moving_to", { where: fmt.spot(r.moving_to.table, r.moving_to.seat) })) : null),
      p ? saleBlock(p) : null, p && canMove() ? manage.button(p.id) : null);
  }))
    : h("p", { class: "empty" }, t("search.none", { q: ui.search })));
}

function renderSearch() {
  renderResults();
  return [h("h2", {}, t("floor.search_title")),
    h("div", { class: "field" }, h("label", { for: "floor-search" }, t("search.label")), searchInput,
      h("p", { class: "hint" }, t("search.hint"))), searchResults];
}

// The outbox -----------------------------------------------------------------------------------------

const STATUS_LABEL = { pending: "sent.pending", done: "sent.done", refused: "sent.refused", signin: "sent.signin", stale: "sent.stale" };

function renderSent() {
  const items = outbox.items;
  return [h("div", { class: "account" }, userEl, signOutBtn), h("h2", {}, t("floor.sent_title")),
    h("p", { class: "hint" }, t("sent.explain")),
    items.length ? h("ul", { class: "sent-list" }, items.map((i) => h("li", { class: `sent-item ${i.status}` },
      h("div", { class: "sent-head" }, h("span", { class: `badge badge-${i.status === "done" ? "ok" : i.status === "refused" ? "refused" : "paused"}` },
        t(STATUS_LABEL[i.status] || i.status)), " ", h("strong", {}, i.label || i.command.type)),
      h("div", { class: "muted small" }, fmt.timeOfDay(i.created / 1000, true), i.tries > 1 ? ` · ${t("sent.tries", { n: i.tries })}` : ""),
      i.error ? h("p", { class: i.status === "refused" ? "error-text" : "muted" }, explainError(i.error, conn)) : null,
      i.status === "stale" || i.status === "refused" ? h("div", { class: "actions" },
        i.status === "stale" ? h("button", { type: "button", onclick: () => outbox.retry(i.id) }, t("sent.send_anyway")) : null,
        h("button", { type: "button", class: "ghost", onclick: () => outbox.discard(i.id) }, t("sent.discard"))) : null)))
      : h("p", { class: "empty" }, t("sent.none")),
    items.some((i) => i.status !== "pending") ? h("button", { type: "button", class: "ghost", onclick: () => outbox.clearAnswered() }, t("sent.clear")) : null];
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
  const counts = { moves, sent: outbox.waiting + outbox.problems };
  fill(navEl, TABS.map((x) => h("button", {
    type: "button", class: `nav-btn${tab === x.id ? " current" : ""}`, "aria-current": tab === x.id ? "page" : null,
    onclick: () => { tab = x.id; render(); mainEl.focus(); if (x.id === "search") searchInput.focus(); },
  }, h("span", { class: "nav-icon", "aria-hidden": "true" }, x.icon), h("span", { class: "nav-label" }, t(`floor.tab.${x.id}`)),
  counts[x.id] ? h("span", { class: "count" }, counts[x.id], h("span", { class: "sr-only" }, ` ${t("floor.items")}`)) : null)));
  navEl.setAttribute("aria-label", t("floor.nav"));
}

function renderMain() {
  if (!conn.state && tab !== "sent") return fill(mainEl, h("p", { class: "empty" }, t("clock.waiting")));
  const body = tab === "moves" ? renderMoves() : tab === "table" ? renderTable() : tab === "search" ? renderSearch()
    : tab === "tools" ? renderTools() : renderSent();
  fill(mainEl, body);
}

function render() {
  if (principal.role === "public") return;
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
let lastToolKey = null;
conn.on("change", () => {
  if (queued) return;
  queued = true;
  requestAnimationFrame(() => {
    queued = false;
    // Never redraw under what the floorperson is typing (search, an undo reason).
    const active = document.activeElement;
    const typing = active && mainEl.contains(active) && active.matches("input, textarea, select");
    // A tool the change does not touch is left alone: nothing moves under a finger.
    const toolKey = tab === "tools" ? (ui.tool === "race" ? race.stateKey() : ui.tool) : null;
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
});
onLang(() => {
  bar.querySelector(".conn")?.refresh?.();
  signOutBtn.textContent = t("signin.signout");
  userEl.textContent = whoAmI(principal);
  render();
});
signOutBtn.textContent = t("signin.signout");
start();
window.floorPhone = { conn, outbox };
