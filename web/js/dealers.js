// @ts-check
// The dealer room's screen (/dealers), for the dealer coordinator (and the director): every
// table of every tournament playing in the room with its dealer, the next push and who comes
// then; the dealers in the pool, on break, at tables and off, each with where they go next;
// the alerts (a dealer not signed in at their table, a table waiting for a dealer); the
// coordinator's hands: clock in and out, late, sick or absent, a swap, a move, the next
// dealer at a table, the final table's dealers, the early-out list, the rotation's settings;
// the dealers themselves (accounts with PINs, the games they deal); and the downs as dealt,
// per dealer and per pay period, as CSV and printable.
//
// Everything shown is the server's (GET /api/dealers, floor/engine/house/rotation_plan.py);
// the page asks again every two seconds and after each change it sends.

import { nextText, statusText, tableName, when } from "./dealer_text.js";
import * as fmt from "./format.js";
import { onLang, t } from "./i18n.js";
import { signInForm, signOut, whoAmI } from "./signin.js";
import { $, api, every, explainError, fill, h, me, toast, topbar } from "./ui.js";

/** @typedef {import("./dealer_text.js").Next} Next */
/**
 * @typedef {{id: string, name: string, games: string[], status: string, since: number,
 *   tournament: string|null, table: number|null, until: number|null, downs: number,
 *   clocked_in: number|null, mark: string|null, leaving: boolean, next: Next|null}} DealerView
 * @typedef {{key: string, tournament: string, table: number, game: string, dealer: string|null,
 *   since: number|null, due: number|null, coming: string|null, held: boolean, final: boolean,
 *   waiting: number|null, pin: string|null, signed: string|null, signed_at: number|null}} TableView
 * @typedef {{kind: string, key: string, tournament: string, table: number, dealer: string|null,
 *   signed: string|null, since: number}} Alert
 * @typedef {{at: number, settings: Record<string, any>, dealers: DealerView[], tables: TableView[],
 *   alerts: Alert[], needed: number, working: number, final_dealers: Record<string, string[]>,
 *   early_list: string[]}} RoomView
 */

const GAMES = ["holdem", "omaha", "stud", "razz", "mixed"];
const TABS = ["rotation", "people", "downs", "settings"];
const MARKS = ["late", "sick", "absent"];
/** Alerts listed beside the tables, the oldest first; the rest counted. */
const MOST_ALERTS = 15;

const ui = {
  /** @type {{role: string, username: string|null, table: number|null}} */
  principal: { role: "public", username: null, table: null },
  /** @type {RoomView|null} */
  view: null,
  /** The server's clock less this one's, in seconds. */
  offset: 0,
  tab: TABS.includes(location.hash.slice(1)) ? location.hash.slice(1) : "rotation",
  /** @type {Record<string, string>} tournament names by id */
  names: {},
  /** @type {any} the pay period's downs */
  sheet: null,
  /** @type {string|null} */
  period: null,
  /** A render waits while a field is being used. */
  pending: false,
};

// Layout ---------------------------------------------------------------------------------------

const clockEl = h("span", { class: "room-clock", "aria-live": "off" });
const whoEl = h("span", { class: "who-am-i muted" });
const signOutBtn = h("button", { type: "button", class: "ghost small", hidden: true, onclick: async () => {
  await signOut();
  ui.principal = { role: "public", username: null, table: null };
  show();
} });
const bar = topbar(t("dealers.title"), null, { right: [clockEl, whoEl, signOutBtn] });
const tabsEl = h("nav", { class: "room-tabs", "aria-label": t("dealers.sections") });
const alertsEl = h("section", { class: "room-alerts", "aria-labelledby": "h-alerts" });
const mainEl = h("main", { class: "room-main" });
const signinEl = h("main", { class: "room-signin" });
fill(/** @type {HTMLElement} */ ($("#app")), bar, signinEl, tabsEl, mainEl);

/** The server's now. */
function now() {
  return Date.now() / 1000 + ui.offset;
}

function pushEvery() {
  return ui.view?.settings.push_every ?? 1800;
}

/** @param {string} id */
function tournamentName(id) {
  return ui.names[id] || id;
}

/** @param {string|null|undefined} id */
function dealerName(id) {
  if (!id) return "";
  return ui.view?.dealers.find((d) => d.id === id)?.name ?? id;
}

/** @param {string} key */
function tableLabel(key) {
  const table = ui.view?.tables.find((x) => x.key === key);
  return table ? tableName(table.tournament, table.table, severalTournaments() ? tournamentName : undefined) : key;
}

function severalTournaments() {
  return new Set((ui.view?.tables || []).map((x) => x.tournament)).size > 1;
}

// Talking to the server ------------------------------------------------------------------------

async function load() {
  if (!allowed()) return;
  try {
    const asked = Date.now() / 1000;
    const view = /** @type {RoomView} */ (await api("/api/dealers"));
    ui.offset = view.at - (asked + Date.now() / 1000) / 2;
    ui.view = view;
  } catch (err) {
    if (err.status === 401 || err.status === 403) {
      ui.principal = await me();
      show();
      return;
    }
    toast(`✗ ${explainError(err)}`, "error", 6000);
    return;
  }
  if (ui.tab === "downs" && !ui.sheet) loadSheet();
  render();
}

async function loadNames() {
  try {
    /** @type {{id: string, name: string}[]} */
    const list = await api("/api/tournaments");
    ui.names = Object.fromEntries(list.map((x) => [x.id, x.name || x.id]));
  } catch (err) {
    /* the ids stand in */
  }
}

async function loadSheet() {
  try {
    const q = ui.period ? `?period=${encodeURIComponent(ui.period)}` : "";
    ui.sheet = await api(`/api/dealers/downs${q}`);
  } catch (err) {
    toast(`✗ ${explainError(err)}`, "error", 6000);
  }
  render();
}

/**
 * Send a dealer room command; the room is read again after it.
 * @param {Record<string, any>} command
 * @param {string} [done] what a toast says once it is done
 */
async function send(command, done) {
  try {
    await api("/api/dealers/commands", { method: "POST", body: { command } });
    if (done) toast(`✓ ${done}`, "ok");
  } catch (err) {
    toast(`✗ ${explainError(err)}`, "error", 8000);
  }
  await load();
}

// Who is signed in -----------------------------------------------------------------------------

function allowed() {
  return ui.principal.role === "director" || ui.principal.role === "coordinator";
}

function show() {
  const ok = allowed();
  signinEl.hidden = ok;
  tabsEl.hidden = !ok;
  mainEl.hidden = !ok;
  alertsEl.hidden = !ok;
  signOutBtn.hidden = ui.principal.role === "public";
  signOutBtn.textContent = t("signin.signout");
  whoEl.textContent = whoAmI(ui.principal);
  if (!ok) {
    fill(signinEl, ui.principal.role !== "public" ? h("p", { class: "notice", role: "alert" }, t("dealers.not_yours")) : null,
      signInForm((p) => {
        ui.principal = p;
        show();
        load();
      }, { roles: ["director", "coordinator"], note: t("dealers.signin_note") }));
    return;
  }
  render();
}

// Rendering ------------------------------------------------------------------------------------

function render() {
  bar.setTitle?.(t("dealers.title"));
  renderClock();
  if (!allowed() || !ui.view) return;
  const active = document.activeElement;
  if (active && mainEl.contains(active) && (active.tagName === "SELECT" || active.tagName === "INPUT" || active.tagName === "TEXTAREA")) {
    // Keep what is being chosen or typed: rendered once the field is left.
    ui.pending = true;
    renderAlerts();
    return;
  }
  ui.pending = false;
  renderTabs();
  renderAlerts();
  const tab = ui.tab;
  mainEl.dataset.tab = tab;
  if (tab === "rotation") fill(mainEl, rotation());
  else if (tab === "people") fill(mainEl, alertsEl, people());
  else if (tab === "downs") fill(mainEl, alertsEl, downs());
  else fill(mainEl, alertsEl, settingsForm());
}

function renderClock() {
  clockEl.textContent = fmt.timeOfDay(now(), true);
}

function renderTabs() {
  fill(tabsEl, TABS.map((tab) => h("button", {
    type: "button", class: "tab", "aria-pressed": String(ui.tab === tab), dataset: { tab },
    onclick: () => {
      ui.tab = tab;
      history.replaceState(null, "", `#${tab}`);
      if (tab === "downs") loadSheet();
      render();
    },
  }, t(`dealers.tab_${tab}`))));
}

function renderAlerts() {
  const alerts = ui.view?.alerts || [];
  // Listed beside the tables; on the other tabs, how many there are.
  const listed = ui.tab === "rotation";
  alertsEl.classList.toggle("is-summary", !listed);
  fill(alertsEl, h("h2", { id: "h-alerts", class: alerts.length ? "" : "sr-only" },
    listed || !alerts.length ? t("dealers.alerts", { n: alerts.length }) : h("button", { type: "button", class: "link-button", onclick: () => {
      ui.tab = "rotation";
      history.replaceState(null, "", "#rotation");
      render();
    } }, t("dealers.alerts", { n: alerts.length }))),
  listed && alerts.length ? h("ul", { class: "alert-list" }, alerts.slice(0, MOST_ALERTS).map((a) => h("li", { class: `room-alert alert-${a.kind}`, dataset: { kind: a.kind, key: a.key } },
    alertText(a)))) : null,
  listed && alerts.length > MOST_ALERTS ? h("p", { class: "muted" }, t("dealers.alerts_more", { n: alerts.length - MOST_ALERTS })) : null);
}

/** @param {Alert} a */
function alertText(a) {
  const table = tableLabel(a.key);
  const time = when(a.since, pushEvery());
  if (a.kind === "missing") return t("dealers.alert_missing", { name: dealerName(a.dealer), table, time });
  if (a.kind === "wrong") return t("dealers.alert_wrong", { name: dealerName(a.signed), planned: dealerName(a.dealer), table });
  if (a.kind === "waiting") return t("dealers.alert_waiting", { table, time });
  if (a.kind === "no_dealer") return t("dealers.alert_no_dealer", { table, time });
  return t("dealers.alert_final", { table });
}

// The rotation: the tables and the dealers -----------------------------------------------------

function rotation() {
  const view = /** @type {RoomView} */ (ui.view);
  const byTournament = new Map();
  for (const table of view.tables) {
    if (!byTournament.has(table.tournament)) byTournament.set(table.tournament, []);
    byTournament.get(table.tournament).push(table);
  }
  const summary = h("p", { class: `room-summary${view.working < view.needed ? " is-short" : ""}` },
    t("dealers.summary", { tables: view.tables.length, working: view.working, needed: view.needed }));
  const tables = view.tables.length
    ? [...byTournament.entries()].map(([tid, list]) => h("section", { class: "room-tournament", "aria-label": tournamentName(tid) },
      h("h2", {}, tournamentName(tid)),
      h("ul", { class: "room-tables" }, list.map(tableCard))))
    : [h("p", { class: "muted" }, t("dealers.no_tables"))];
  return h("div", { class: "room-rotation" },
    h("div", { class: "room-left" }, summary, ...tables),
    h("div", { class: "room-right" }, alertsEl, dealerLists()));
}

/** @param {TableView} table */
function tableCard(table) {
  const every_ = pushEvery();
  const signedOk = table.dealer != null && table.signed === table.dealer;
  const outgoing = table.dealer ? ui.view?.dealers.find((d) => d.id === table.dealer) : null;
  const badges = [
    h("span", { class: "badge" }, fmt.gameName(table.game)),
    table.final ? h("span", { class: "badge badge-final" }, t("dealers.final")) : null,
    table.held ? h("span", { class: "badge badge-h4h" }, t("dealers.held")) : null,
    table.waiting != null ? h("span", { class: "badge badge-waiting" }, t("dealers.waiting")) : null,
  ];
  return h("li", { class: `room-table${table.waiting != null ? " is-waiting" : ""}${table.dealer ? "" : " no-dealer"}`, dataset: { key: table.key } },
    h("div", { class: "room-table-head" }, h("strong", { class: "room-table-no" }, t("dealers.table_n", { table: table.table })), badges),
    h("div", { class: "room-table-dealer", dataset: { dealer: table.dealer || "" } },
      table.dealer ? dealerName(table.dealer) : t("dealers.no_dealer")),
    h("div", { class: `room-signed ${signedOk ? "ok-text" : "muted"}` },
      table.signed == null ? t("dealers.not_signed") : signedOk ? t("dealers.signed_in", { time: when(table.signed_at, every_) })
        : t("dealers.signed_other", { name: dealerName(table.signed) })),
    table.due != null ? h("div", { class: "room-push", dataset: { due: String(table.due), coming: table.coming || "" } },
      table.coming ? t("dealers.push_line", { time: when(table.due, every_), name: dealerName(table.coming) })
        : t("dealers.push_nobody", { time: when(table.due, every_) })) : null,
    outgoing ? h("div", { class: "room-then muted" }, `${outgoing.name}: ${nextText(outgoing.next, every_, severalTournaments() ? tournamentName : undefined)}`) : null,
    table.pin ? h("div", { class: "room-pin" }, t("dealers.pinned", { name: dealerName(table.pin) })) : null,
    tableActions(table));
}

/** @param {TableView} table */
function tableActions(table) {
  const view = /** @type {RoomView} */ (ui.view);
  const id = `t-${table.key.replace(/[^a-zA-Z0-9]/g, "-")}`;
  const others = view.tables.filter((x) => x.key !== table.key && x.dealer);
  const swap = h("select", { id: `${id}-swap`, "aria-label": t("dealers.swap_with_named", { table: table.table }), onchange: () => {
    if (swap.value) send({ type: "swap", a: table.key, b: swap.value }, t("dealers.swapped"));
  } }, h("option", { value: "" }, t("dealers.swap_with")), others.map((x) => h("option", { value: x.key }, `${tableLabel(x.key)} · ${dealerName(x.dealer)}`)));
  const free = view.dealers.filter((d) => (d.status === "pool" || d.status === "break" || d.status === "dealing") && !d.mark);
  const pin = h("select", { id: `${id}-pin`, "aria-label": t("dealers.next_in_named", { table: table.table }), onchange: () => {
    send({ type: "pin", table: table.key, dealer: pin.value || null }, t("dealers.pin_done"));
  } }, h("option", { value: "" }, t("dealers.next_in_rotation")),
  free.map((d) => h("option", { value: d.id, selected: table.pin === d.id }, d.name)));
  return h("div", { class: "room-table-actions" }, others.length ? swap : null, pin);
}

function dealerLists() {
  const view = /** @type {RoomView} */ (ui.view);
  const groups = [
    ["pool", (/** @type {DealerView} */ d) => d.status === "pool"],
    ["break", (/** @type {DealerView} */ d) => d.status === "break"],
    ["dealing", (/** @type {DealerView} */ d) => d.status === "dealing"],
    ["off", (/** @type {DealerView} */ d) => d.status === "off" || d.status === "home"],
  ];
  return groups.map(([group, test]) => {
    const list = view.dealers.filter(/** @type {(d: DealerView) => boolean} */ (test));
    // The pool in the order its dealers are taken; the others by name.
    if (group === "pool") list.sort((a, b) => a.since - b.since || a.id.localeCompare(b.id));
    if (group === "break") list.sort((a, b) => (a.until ?? 0) - (b.until ?? 0));
    return h("section", { class: `room-group group-${group}`, "aria-labelledby": `h-${group}` },
      h("h2", { id: `h-${group}` }, t(`dealers.group_${group}`, { n: list.length })),
      list.length ? h("ul", { class: "room-dealers" }, list.map(dealerRow)) : h("p", { class: "muted small" }, t("dealers.nobody")));
  });
}

/** @param {DealerView} d */
function dealerRow(d) {
  const view = /** @type {RoomView} */ (ui.view);
  const every_ = pushEvery();
  const several = severalTournaments() ? tournamentName : undefined;
  let where = statusText(d.status, d.mark);
  if (d.status === "dealing") where = tableName(d.tournament, d.table, several);
  if (d.status === "break") where = t("dealers.break_until", { time: when(d.until, every_) });
  const on = d.status === "pool" || d.status === "break" || d.status === "dealing";
  const actions = [];
  if (!on) {
    actions.push(h("button", { type: "button", class: "small ok", onclick: () => send({ type: "clock_in", dealer: d.id }, t("dealers.clocked_in", { name: d.name })) },
      t("dealers.clock_in")));
  } else {
    actions.push(h("button", { type: "button", class: "small ghost", onclick: () => send({ type: "clock_out", dealer: d.id }, t("dealers.clocked_out", { name: d.name })) },
      t("dealers.clock_out")));
  }
  if (d.mark) {
    actions.push(h("button", { type: "button", class: "small ghost", onclick: () => send({ type: "mark_dealer", dealer: d.id, mark: null }) }, t("dealers.unmark")));
  } else {
    const mark = h("select", { "aria-label": t("dealers.mark_named", { name: d.name }), class: "small", onchange: () => {
      if (mark.value) send({ type: "mark_dealer", dealer: d.id, mark: mark.value }, `${d.name}: ${t(`dealers.mark_${mark.value}`)}`);
    } }, h("option", { value: "" }, t("dealers.mark")), MARKS.map((m) => h("option", { value: m }, t(`dealers.mark_${m}`))));
    actions.push(mark);
  }
  if (d.status === "pool" || d.status === "break") {
    const tables = view.tables.filter((x) => d.games.includes(x.game) || d.games.includes("mixed"));
    const move = h("select", { "aria-label": t("dealers.move_named", { name: d.name }), class: "small", onchange: () => {
      if (move.value) send({ type: "move", dealer: d.id, table: move.value }, t("dealers.moved", { name: d.name }));
    } }, h("option", { value: "" }, t("dealers.move")), tables.map((x) => h("option", { value: x.key }, tableLabel(x.key))));
    actions.push(move);
  }
  return h("li", { class: `room-dealer status-${d.status}${d.mark ? " is-marked" : ""}`, dataset: { dealer: d.id, status: d.status } },
    h("div", { class: "room-dealer-who" },
      h("strong", {}, d.name),
      h("span", { class: "muted small" }, ` ${where}`),
      d.leaving ? h("span", { class: "badge badge-leaving" }, t("dealers.leaving")) : null),
    on ? h("div", { class: "room-dealer-next", dataset: { next: d.next?.to || "" } }, nextText(d.next, every_, several)) : null,
    h("div", { class: "actions" }, actions));
}

// The dealers: accounts, games, the final table's, the early-out list --------------------------

function people() {
  const view = /** @type {RoomView} */ (ui.view);
  return h("div", { class: "room-people" },
    h("div", { class: "people-side" },
      h("section", { class: "card", "aria-labelledby": "h-add" }, h("h2", { id: "h-add" }, t("dealers.add_title")), addForm()),
      h("section", { class: "card", "aria-labelledby": "h-final" }, h("h2", { id: "h-final" }, t("dealers.final_title")), finalForm()),
      h("section", { class: "card", "aria-labelledby": "h-early" }, h("h2", { id: "h-early" }, t("dealers.early_title")), earlyList())),
    h("section", { class: "card people-roster", "aria-labelledby": "h-roster" }, h("h2", { id: "h-roster" }, t("dealers.roster", { n: view.dealers.length })),
      view.dealers.length ? h("ul", { class: "roster" }, view.dealers.map(rosterRow)) : h("p", { class: "muted" }, t("dealers.nobody"))));
}

/**
 * Checkboxes of the games, `chosen` ticked.
 * @param {string} id
 * @param {string[]} chosen
 */
function gameBoxes(id, chosen) {
  return h("fieldset", { class: "games" }, h("legend", {}, t("dealers.games")),
    GAMES.map((g) => h("label", { class: "check" }, h("input", { type: "checkbox", name: `${id}-game`, value: g, checked: chosen.includes(g) }), fmt.gameName(g))));
}

/** @param {HTMLElement} form */
function gamesOf(form) {
  return [...form.querySelectorAll("input[type=checkbox]:checked")].map((x) => /** @type {HTMLInputElement} */ (x).value);
}

function addForm() {
  const user = h("input", { id: "add-user", autocomplete: "off", autocapitalize: "none", spellcheck: "false", required: true });
  const name = h("input", { id: "add-name", autocomplete: "off", required: true, maxlength: 80 });
  const pin = h("input", { id: "add-pin", inputmode: "numeric", autocomplete: "new-password", type: "password" });
  const error = h("p", { class: "error-text", role: "alert" });
  const form = h("form", { class: "add-dealer", onsubmit: async (/** @type {Event} */ ev) => {
    ev.preventDefault();
    error.textContent = "";
    const body = { username: user.value.trim(), name: name.value.trim(), games: gamesOf(form), pin: pin.value || null };
    try {
      await api("/api/dealers/people", { method: "POST", body });
      toast(`✓ ${t("dealers.added", { name: body.name })}`, "ok");
      user.value = name.value = pin.value = "";
      await load();
    } catch (err) {
      error.textContent = explainError(err);
    }
  } },
  h("div", { class: "row" },
    h("div", { class: "field" }, h("label", { for: "add-user" }, t("dealers.username")), user),
    h("div", { class: "field" }, h("label", { for: "add-name" }, t("dealers.name")), name),
    h("div", { class: "field" }, h("label", { for: "add-pin" }, t("dealers.pin")), pin)),
  h("p", { class: "hint" }, t("dealers.pin_hint")),
  gameBoxes("add", ["holdem"]), error,
  h("button", { type: "submit", class: "primary" }, t("dealers.add")));
  return form;
}

/** @param {DealerView} d */
function rosterRow(d) {
  const id = `r-${d.id.replace(/[^a-z0-9]/g, "-")}`;
  const name = h("input", { id: `${id}-name`, value: d.name, maxlength: 80, required: true });
  const pin = h("input", { id: `${id}-pin`, inputmode: "numeric", type: "password", autocomplete: "new-password" });
  const form = h("form", { class: "roster-form", "aria-label": d.name, onsubmit: (/** @type {Event} */ ev) => {
    ev.preventDefault();
    send({ type: "save_dealer", dealer: d.id, name: name.value.trim(), games: gamesOf(form) }, t("dealers.saved", { name: name.value.trim() }));
  } },
  h("div", { class: "field roster-name" }, h("label", { for: `${id}-name` }, `${t("dealers.name")} (${d.id})`), name),
  gameBoxes(id, d.games),
  h("div", { class: "actions" },
    h("button", { type: "submit", class: "small" }, t("dealers.save")),
    h("label", { class: "sr-only", for: `${id}-pin` }, t("dealers.new_pin_named", { name: d.name })), pin,
    h("button", { type: "button", class: "small ghost", onclick: async () => {
      try {
        await api(`/api/dealers/people/${encodeURIComponent(d.id)}/pin`, { method: "PUT", body: { pin: pin.value } });
        pin.value = "";
        toast(`✓ ${t("dealers.pin_set", { name: d.name })}`, "ok");
      } catch (err) {
        toast(`✗ ${explainError(err)}`, "error", 8000);
      }
    } }, t("dealers.set_pin")),
    h("button", { type: "button", class: "small danger", disabled: d.status !== "off" && d.status !== "home", onclick: () => {
      if (confirm(t("dealers.remove_confirm", { name: d.name }))) send({ type: "remove_dealer", dealer: d.id }, t("dealers.removed", { name: d.name }));
    } }, t("dealers.remove"))));
  return h("li", { dataset: { dealer: d.id } }, form);
}

function finalForm() {
  const view = /** @type {RoomView} */ (ui.view);
  const tournaments = [...new Set([...view.tables.map((x) => x.tournament), ...Object.keys(view.final_dealers)])];
  if (!tournaments.length) return h("p", { class: "muted" }, t("dealers.no_tables"));
  return h("div", {}, h("p", { class: "hint" }, t("dealers.final_hint")), tournaments.map((tid) => {
    const chosen = view.final_dealers[tid] || [];
    const id = `final-${tid}`;
    const form = h("form", { class: "final-form", "aria-label": t("dealers.final_of", { name: tournamentName(tid) }), onsubmit: (/** @type {Event} */ ev) => {
      ev.preventDefault();
      const dealers = [...form.querySelectorAll("input:checked")].map((x) => /** @type {HTMLInputElement} */ (x).value);
      send({ type: "set_final_dealers", tournament: tid, dealers }, t("dealers.final_saved"));
    } },
    h("fieldset", {}, h("legend", {}, t("dealers.final_of", { name: tournamentName(tid) })),
      h("div", { class: "check-grid" }, view.dealers.map((d) => h("label", { class: "check" },
        h("input", { type: "checkbox", name: id, value: d.id, checked: chosen.includes(d.id) }), d.name)))),
    h("button", { type: "submit", class: "small" }, t("dealers.save")));
    return form;
  }));
}

function earlyList() {
  const view = /** @type {RoomView} */ (ui.view);
  const list = [...view.early_list];
  const save = (/** @type {string[]} */ next) => send({ type: "set_early_list", dealers: next }, t("dealers.early_saved"));
  const add = h("select", { id: "early-add", onchange: () => {
    if (add.value) save([...list, add.value]);
  } }, h("option", { value: "" }, t("dealers.early_add")),
  view.dealers.filter((d) => !list.includes(d.id)).map((d) => h("option", { value: d.id }, d.name)));
  return h("div", {},
    h("p", { class: "hint" }, t(`dealers.early_hint_${view.settings.early_outs}`)),
    list.length ? h("ol", { class: "early-list" }, list.map((did, i) => h("li", { dataset: { dealer: did } },
      h("span", {}, dealerName(did)),
      h("span", { class: "actions" },
        h("button", { type: "button", class: "small ghost", disabled: i === 0, "aria-label": t("dealers.up_named", { name: dealerName(did) }),
          onclick: () => save([...list.slice(0, i - 1), did, list[i - 1], ...list.slice(i + 1)]) }, "↑"),
        h("button", { type: "button", class: "small ghost", "aria-label": t("dealers.off_list_named", { name: dealerName(did) }),
          onclick: () => save(list.filter((x) => x !== did)) }, "✕"))))) : h("p", { class: "muted" }, t("dealers.early_empty")),
    h("label", { class: "sr-only", for: "early-add" }, t("dealers.early_add")), add);
}

// Downs ----------------------------------------------------------------------------------------

/** @param {number|null} seconds */
function minutes(seconds) {
  return seconds == null ? "–" : fmt.number(seconds / 60, seconds < 600 ? 1 : 0);
}

function downs() {
  const sheet = ui.sheet;
  if (!sheet) return h("p", { class: "muted" }, t("dealers.loading"));
  const every_ = pushEvery();
  const q = `?period=${encodeURIComponent(sheet.first)}`;
  const period = h("select", { id: "period", onchange: () => {
    ui.period = period.value || null;
    loadSheet();
  } }, (sheet.periods.length ? sheet.periods : [sheet.first]).map((/** @type {string} */ p) => h("option", { value: p, selected: p === sheet.first }, p)));
  const byDealer = new Map();
  for (const row of sheet.rows) {
    if (!byDealer.has(row.dealer)) byDealer.set(row.dealer, []);
    byDealer.get(row.dealer).push(row);
  }
  return h("div", { class: "room-downs" },
    h("div", { class: "downs-head no-print" },
      h("div", { class: "field" }, h("label", { for: "period" }, t("dealers.period")), period),
      h("a", { class: "button", href: `/api/dealers/downs.csv${q}&kind=totals`, download: "" }, t("dealers.csv_totals")),
      h("a", { class: "button", href: `/api/dealers/downs.csv${q}&kind=rows`, download: "" }, t("dealers.csv_rows")),
      h("button", { type: "button", onclick: () => window.print() }, t("dealers.print"))),
    h("h2", {}, t("dealers.period_title", { first: sheet.first, last: sheet.last })),
    h("table", { class: "downs-totals" },
      h("caption", { class: "sr-only" }, t("dealers.totals")),
      h("thead", {}, h("tr", {}, ["dealers.col_dealer", "dealers.col_downs", "dealers.col_minutes", "dealers.col_open"].map((k) => h("th", { scope: "col" }, t(k))))),
      h("tbody", {}, sheet.totals.map((/** @type {any} */ x) => h("tr", { dataset: { dealer: x.dealer } },
        h("th", { scope: "row" }, x.name), h("td", {}, String(x.downs)), h("td", {}, minutes(x.seconds)), h("td", {}, String(x.open)))))),
    [...byDealer.entries()].map(([did, rows]) => {
      const total = sheet.totals.find((/** @type {any} */ x) => x.dealer === did);
      return h("section", { class: "downs-sheet", dataset: { dealer: did } },
        h("h3", {}, total?.name ?? did),
        h("table", {},
          h("thead", {}, h("tr", {}, ["dealers.col_day", "dealers.col_table", "dealers.col_start", "dealers.col_end", "dealers.col_minutes"].map((k) => h("th", { scope: "col" }, t(k))))),
          h("tbody", {}, rows.map((/** @type {any} */ r) => h("tr", {},
            h("td", {}, r.day), h("td", {}, tableName(r.tournament, r.table, tournamentName)),
            h("td", {}, when(r.start, every_)), h("td", {}, r.end == null ? t("dealers.open") : when(r.end, every_)), h("td", {}, minutes(r.seconds))))),
          h("tfoot", {}, h("tr", {}, h("th", { scope: "row", colspan: "4" }, t("dealers.sheet_total", { n: total?.downs ?? 0 })),
            h("td", { class: "sheet-minutes" }, minutes(total?.seconds ?? 0))))));
    }),
    sheet.rows.length ? null : h("p", { class: "muted" }, t("dealers.no_downs")));
}

// Settings -------------------------------------------------------------------------------------

/** The settings given as a duration: minutes and seconds. */
const DURATIONS = ["push_every", "break_length", "min_rest", "max_wait", "signin_grace"];

function settingsForm() {
  const s = /** @type {RoomView} */ (ui.view).settings;
  /** @type {Record<string, HTMLInputElement|HTMLSelectElement>} */
  const fields = {};
  const duration = (/** @type {string} */ key) => {
    const total = Number(s[key]);
    const min = h("input", { id: `s-${key}-min`, type: "number", min: 0, max: 720, step: 1, inputmode: "numeric", value: String(Math.floor(total / 60)) });
    const sec = h("input", { id: `s-${key}-sec`, type: "number", min: 0, max: 59, step: 1, inputmode: "numeric", value: String(Math.round(total % 60)) });
    fields[`${key}-min`] = min;
    fields[`${key}-sec`] = sec;
    return h("fieldset", { class: "duration", dataset: { key } }, h("legend", {}, t(`dealers.s_${key}`)),
      h("label", { for: `s-${key}-min` }, t("dealers.minutes")), min, h("label", { for: `s-${key}-sec` }, t("dealers.seconds")), sec);
  };
  const number = (/** @type {string} */ key, /** @type {number} */ lo, /** @type {number} */ hi) => {
    const input = h("input", { id: `s-${key}`, type: "number", min: lo, max: hi, step: 1, inputmode: "numeric", value: String(s[key]) });
    fields[key] = input;
    return h("div", { class: "field" }, h("label", { for: `s-${key}` }, t(`dealers.s_${key}`)), input);
  };
  const choice = (/** @type {string} */ key, /** @type {string[]} */ options) => {
    const select = h("select", { id: `s-${key}` }, options.map((o) => h("option", { value: o, selected: s[key] === o }, t(`dealers.s_${key}_${o}`))));
    fields[key] = select;
    return h("div", { class: "field" }, h("label", { for: `s-${key}` }, t(`dealers.s_${key}`)), select);
  };
  const text = (/** @type {string} */ key, /** @type {string} */ value) => {
    const input = h("input", { id: `s-${key}`, value });
    fields[key] = input;
    return h("div", { class: "field" }, h("label", { for: `s-${key}` }, t(`dealers.s_${key}`)), input);
  };
  const dayStarts = h("input", { id: "s-day_starts", type: "time", value: `${String(Math.floor(s.day_starts / 60)).padStart(2, "0")}:${String(s.day_starts % 60).padStart(2, "0")}` });
  const error = h("p", { class: "error-text", role: "alert" });
  return h("form", { class: "card room-settings", onsubmit: async (/** @type {Event} */ ev) => {
    ev.preventDefault();
    error.textContent = "";
    /** @type {Record<string, any>} */
    const settings = {};
    for (const key of DURATIONS) settings[key] = Number(fields[`${key}-min`].value || 0) * 60 + Number(fields[`${key}-sec`].value || 0);
    for (const key of ["break_every", "reserve", "period_days"]) settings[key] = Number(fields[key].value);
    for (const key of ["when_short", "early_outs", "period_from", "zone"]) settings[key] = fields[key].value.trim();
    settings.priority = fields.priority.value.split(",").map((x) => x.trim()).filter(Boolean);
    const [hh, mm] = (dayStarts.value || "06:00").split(":").map(Number);
    settings.day_starts = hh * 60 + mm;
    try {
      await api("/api/dealers/commands", { method: "POST", body: { command: { type: "set_settings", settings } } });
      toast(`✓ ${t("dealers.settings_saved")}`, "ok");
      await load();
    } catch (err) {
      error.textContent = explainError(err);
    }
  } },
  h("h2", {}, t("dealers.tab_settings")),
  h("div", { class: "settings-grid" },
    duration("push_every"), number("break_every", 1, 50), duration("break_length"), duration("min_rest"),
    choice("when_short", ["shorten_breaks", "tables_wait"]), duration("max_wait"),
    text("priority", (s.priority || []).join(", ")),
    choice("early_outs", ["first_in", "last_in", "list"]), number("reserve", 0, 5000), duration("signin_grace"),
    h("div", { class: "field" }, h("label", { for: "s-day_starts" }, t("dealers.s_day_starts")), dayStarts),
    number("period_days", 1, 31), text("period_from", s.period_from), text("zone", s.zone)),
  h("p", { class: "hint" }, t("dealers.settings_hint")),
  error, h("button", { type: "submit", class: "primary" }, t("dealers.save")));
}

// Start ----------------------------------------------------------------------------------------

mainEl.addEventListener("focusout", () => {
  // A field left: the render it held back is made now.
  setTimeout(() => {
    if (ui.pending) render();
  }, 0);
});
onLang(() => {
  tabsEl.setAttribute("aria-label", t("dealers.sections"));
  show();
});
every(1000, renderClock);
setInterval(() => {
  if (document.visibilityState !== "hidden") load();
}, 2000);
setInterval(loadNames, 30000);

(async () => {
  ui.principal = await me();
  await loadNames();
  show();
  await load();
})();

/** For the browser tests. */
Object.assign(window, { floorDealers: { ui, load } });
