// The director console: tournaments (list, create from a config or a rule set and a
// structure), players (one by one or a pasted list, re-entries, rebuys and add-ons), the draw,
// the clock, the prize pool and results (with the results as a CSV download), tables
// (break now, waive a halt, open one, start the final table), the plan, staff accounts, the
// paired table screens (tablets_console.js) and the charts. The tournament is chosen with
// ?t=<id> (remembered).

import { Connection, tableViews } from "./conn.js";
import { reloadOnUpgrade } from "./version.js";
import { Outbox } from "./commands.js";
import { moveState } from "./board.js";
import { breakName, clockPanel } from "./clockview.js";
import { createCharts } from "./charts.js";
import { endBox } from "./endbox.js";
import { ending } from "./finished.js";
import { breakRoom, levelNumber, offers, searchPlayers, whyText as factText } from "./facts.js";
import * as fmt from "./format.js";
import { onLang, t, why as whyText } from "./i18n.js";
import { Prizes, finisherGroups, percentText, placeText, poolFacts } from "./prizes.js";
import { renderRulings } from "./rulings.js";
import { signInForm, signOut, whoAmI } from "./signin.js";
import { $, api, icon, explainError, fill, h, me, playerName, toast, topbar } from "./ui.js";
import { mountManage } from "./manage.js";
import { countLine } from "./search.js";
import { directorControl } from "./h4h.js";
import { importPanel } from "./import.js";
import { cardLink, renderPaper } from "./paper_console.js";
import { renderFlights } from "./flights.js";
import { mountTablets } from "./tablets_console.js";

/** How the console sells each kind to a player (a re-entry is a new entry by the same id). */
const SALE_COMMANDS = {
  re_entry: (p) => ({ type: "register", name: p.name, player: p.id }),
  rebuy: (p) => ({ type: "rebuy", player: p.id }),
  add_on: (p) => ({ type: "add_on", player: p.id }),
};
const SALE_BUTTON = { re_entry: "director.reentry", rebuy: "sale.button.rebuy", add_on: "sale.button.add_on" };
const SALE_LABEL = { re_entry: "director.reentry_label", rebuy: "sale.label.rebuy", add_on: "sale.label.add_on" };

const params = new URLSearchParams(location.search);
const LAST_KEY = "floor.director.tournament";
const tid = params.get("t") || localStorage.getItem(LAST_KEY) || "";
const conn = tid ? new Connection(tid) : null;
if (conn) reloadOnUpgrade(conn);
const outbox = tid ? new Outbox(tid) : null;
const prizes = conn ? new Prizes(conn) : null;
// The player panel (manage.js): edit, special needs, seat lock, move by hand, unregister.
const manage = conn ? mountManage({ conn, send: (command, label) => send(command, label) }) : null;
let principal = { role: "public" };
let tournaments = [];
let configLists = { rules: [], structures: [], tournaments: [] };
let staff = [];
let playerFilter = "";

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
const sections = {};
for (const id of ["tournaments", "clock", "prizes", "money", "structure", "tables", "plan", "rulings", "charts", "players", "files", "flights", "staff", "tablets"]) {
  sections[id] = h("section", { class: "card", id: `s-${id}`, "aria-labelledby": `h-${id}` });
}
const mainEl = h("main", { class: "director-main" }, Object.values(sections));
const appEl = h("div", { class: "director-app", hidden: true }, navEl, mainEl);
const accountEl = h("section", { class: "director-user", "aria-label": t("signin.account") }, userEl, signOutBtn);
fill($("#app"), bar, accountEl, signinEl, appEl);

function heading(id, key, extra) {
  return h("h2", { id: `h-${id}` }, t(key), extra ? h("span", { class: "muted heading-extra" }, extra) : null);
}

const tablets = mountTablets({ section: sections.tablets, heading, tournaments: () => tournaments, current: tid });

// Sending ---------------------------------------------------------------------------------------

async function send(command, label) {
  if (!outbox) return null;
  const item = await outbox.send(command, label);
  if (item.status === "done") toast(`✓ ${label}`, "ok", 2500);
  else if (item.status === "refused") toast(`✗ ${label}: ${explainError(item.error, conn)}`, "error", 8000);
  else if (item.status === "signin") toast(t("floor.signin_again"), "error", 8000);
  return item;
}

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

// Tournaments ----------------------------------------------------------------------------------------

async function loadTournaments() {
  tournaments = (await call("/api/tournaments")) || [];
  configLists = (await call("/api/config")) || configLists;
  renderTournaments();
}

function screenLinks(id) {
  const e = encodeURIComponent(id);
  return h("span", { class: "links" },
    h("a", { href: `/wall/${e}`, target: "_blank", rel: "noopener" }, t("index.wall")), " · ",
    h("a", { href: `/final/${e}`, target: "_blank", rel: "noopener" }, t("final.link")), " · ",
    h("a", { href: `/floor/${e}`, target: "_blank", rel: "noopener" }, t("index.floor")), " · ",
    h("a", { href: `/player/${e}`, target: "_blank", rel: "noopener" }, t("index.player")));
}

function renderTournaments() {
  const el = sections.tournaments;
  const idIn = h("input", { id: "new-id", required: true, pattern: "[A-Za-z0-9][A-Za-z0-9_\\-]{0,39}", autocapitalize: "none", spellcheck: "false" });
  const nameIn = h("input", { id: "new-name" });
  const mode = h("select", { id: "new-mode" },
    h("option", { value: "config" }, t("director.from_config")),
    h("option", { value: "rules" }, t("director.from_rules")));
  const cfgSel = h("select", { id: "new-config" }, configLists.tournaments.map((c) => h("option", { value: c }, c)));
  const rulesSel = h("select", { id: "new-rules" }, configLists.rules.map((c) => h("option", { value: c }, c)));
  const structSel = h("select", { id: "new-structure" }, configLists.structures.map((c) => h("option", { value: c }, c)));
  const seatsIn = h("input", { id: "new-seats", type: "number", min: 2, max: 12, inputmode: "numeric" });
  const cfgField = h("div", { class: "field" }, h("label", { for: "new-config" }, t("director.config")), cfgSel);
  const rulesField = h("div", { class: "field", hidden: true }, h("label", { for: "new-rules" }, t("director.rules")), rulesSel);
  const structField = h("div", { class: "field", hidden: true }, h("label", { for: "new-structure" }, t("director.structure")), structSel);
  mode.addEventListener("change", () => {
    const byConfig = mode.value === "config";
    cfgField.hidden = !byConfig;
    rulesField.hidden = byConfig;
    structField.hidden = byConfig;
  });
  const form = h("form", { class: "create-form", onsubmit: async (ev) => {
    ev.preventDefault();
    const id = idIn.value.trim();
    if (!/^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$/.test(id)) {
      toast(t("director.bad_id"), "error");
      idIn.focus();
      return;
    }
    const body = { id };
    if (nameIn.value.trim()) body.name = nameIn.value.trim();
    if (mode.value === "config") body.config = cfgSel.value;
    else {
      body.rules = rulesSel.value;
      body.structure = structSel.value;
    }
    if (seatsIn.value) body.overrides = { seats: Number(seatsIn.value) };
    const made = await call("/api/tournaments", { method: "POST", body }, t("director.created", { id }));
    if (made) {
      localStorage.setItem(LAST_KEY, id);
      location.search = `?t=${encodeURIComponent(id)}`;
    }
  } },
  h("div", { class: "row" },
    h("div", { class: "field" }, h("label", { for: "new-id" }, t("director.id")), idIn, h("p", { class: "hint" }, t("director.id_hint"))),
    h("div", { class: "field" }, h("label", { for: "new-name" }, t("director.name")), nameIn)),
  h("div", { class: "row" },
    h("div", { class: "field" }, h("label", { for: "new-mode" }, t("director.setup")), mode),
    cfgField, rulesField, structField,
    h("div", { class: "field narrow-field" }, h("label", { for: "new-seats" }, t("director.seats_override")), seatsIn)),
  h("button", { type: "submit", class: "primary" }, t("director.create")));
  fill(el, heading("tournaments", "director.tournaments"),
    tournaments.length ? h("ul", { class: "tournament-list" }, tournaments.map((x) => h("li", { class: x.id === tid ? "current" : "" },
      h("a", { href: `?t=${encodeURIComponent(x.id)}`, "aria-current": x.id === tid ? "page" : null, class: "t-name" }, x.name, " ",
        h("span", { class: "muted" }, `(${x.id})`)),
      h("span", { class: "muted" }, x.winner && x.status !== "live" ? t(`finish.banner.${x.status}`, { name: x.winner })
        : t(`finish.status.${x.status}`, {}, x.status)), screenLinks(x.id),
      h("button", { type: "button", class: "ghost small archive", onclick: () => archive(x) }, t("director.archive")))))
      : h("p", { class: "muted" }, t("director.no_tournaments")),
    // Folded away once a tournament is being run; open when there is none yet.
    h("details", { class: "create-box", open: !tid || !tournaments.length },
      h("summary", {}, t("director.new_tournament")), form));
}

/** Off the list (to `GET /api/tournaments?archived=1`); its log and screens stay. */
async function archive(x) {
  if (!confirm(t("director.archive_confirm", { name: x.name }))) return;
  if (await call(`/api/t/${encodeURIComponent(x.id)}/archive`, { method: "POST" }, t("director.archived", { name: x.name }))) {
    if (x.id === tid) localStorage.removeItem(LAST_KEY);
    await loadTournaments();
  }
}

// The clock ---------------------------------------------------------------------------------------

const clockBox = h("div", { class: "clock-box" });
const clockControls = h("div", { class: "clock-controls" });
// The winner, the undo of the last bust-outs and the close (endbox.js), under the clock.
const endEl = conn ? endBox(conn, (command, label) => send(command, label)) : null;
let clockView = null;
let clockKey = "";

function renderClock() {
  const el = sections.clock;
  if (!conn || !conn.state) {
    clockKey = "";
    return fill(el, heading("clock", "director.clock"), h("p", { class: "muted" }, tid ? t("clock.waiting") : t("director.pick_tournament")));
  }
  const s = conn.state;
  const c = s.clock;
  if (!clockView) clockView = clockPanel(clockBox, conn, { stats: true });
  if (!el.contains(clockBox)) fill(el, heading("clock", "director.clock"), endEl, clockBox, clockControls);
  // The controls change only with the clock's state (a select left open is not redrawn).
  const end = ending(conn);
  const key = JSON.stringify([c.level, c.running, c.started, end?.status ?? null, document.documentElement.lang]);
  if (key === clockKey) return;
  clockKey = key;
  // Stopped by the last bust-out: nothing to steer until an undo makes it live again.
  if (end) return fill(clockControls);
  if (!s.structure) return fill(clockControls, h("p", { class: "muted" }, t("clock.no_structure")));
  const steps = s.structure.levels;
  const minutes = (st) => fmt.number(st.minutes, st.minutes % 1 ? 1 : 0);
  const stepText = (i) => {
    const st = steps[i];
    return st.type === "break" ? breakName(st) : `${t("clock.level", { n: levelNumber(conn, i) })} · ${fmt.blinds(st)}`;
  };
  const stepSel = h("select", { id: "clock-to" }, steps.map((st, i) => h("option", { value: i, selected: i === c.level },
    `${i + 1}. ${stepText(i)} (${minutes(st)} min)`)));
  fill(clockControls,
    h("div", { class: "actions" },
      !c.started ? h("button", { type: "button", class: "ok big", onclick: () => send({ type: "clock_start" }, t("director.clock_start")) }, icon("▶"), t("director.clock_start"))
        : c.running ? h("button", { type: "button", class: "warn big", onclick: () => send({ type: "clock_pause" }, t("director.clock_pause")) }, icon("❚❚"), t("director.clock_pause"))
          : h("button", { type: "button", class: "ok big", onclick: () => send({ type: "clock_resume" }, t("director.clock_resume")) }, icon("▶"), t("director.clock_resume")),
      h("button", { type: "button", onclick: () => send({ type: "clock_adjust", seconds: -60 }, t("director.minus_minute")) }, t("director.minus_minute")),
      h("button", { type: "button", onclick: () => send({ type: "clock_adjust", seconds: 60 }, t("director.plus_minute")) }, t("director.plus_minute"))),
    h("div", { class: "actions" },
      h("button", { type: "button", disabled: c.level <= 0, onclick: () => send({ type: "clock_level", step: -1 }, t("director.prev_level")) }, icon("◀"), t("director.prev_level")),
      h("button", { type: "button", disabled: c.level >= steps.length - 1, onclick: () => send({ type: "clock_level", step: 1 }, t("director.next_level")) }, t("director.next_level"), icon("▶"))),
    h("form", { class: "row", onsubmit: (ev) => {
      ev.preventDefault();
      const to = Number(stepSel.value);
      // The jump restarts the step's time on every screen: asked first, saying from where to where.
      const now = conn.state.clock.level;
      if (!confirm(t("director.go_to_confirm", { from: `${now + 1}. ${stepText(now)}`, to: `${to + 1}. ${stepText(to)}`,
        minutes: minutes(steps[to]) }))) return;
      send({ type: "clock_level", to }, t("director.go_to_step", { n: to + 1 }));
    } }, h("div", { class: "field" }, h("label", { for: "clock-to" }, t("director.go_to")), stepSel),
    h("button", { type: "submit" }, t("director.go"))));
}

// Prizes and results ----------------------------------------------------------------------------------

function renderPrizes() {
  const el = sections.prizes;
  if (!conn || !conn.state) return fill(el, heading("prizes", "director.prizes"));
  const d = prizes.data;
  const pool = d?.pool ?? null;
  const csv = h("a", { class: "button", href: `/api/t/${encodeURIComponent(tid)}/results.csv`, download: `${tid}-results.csv` },
    icon("⤓"), t("director.results_csv"));
  if (!d) {
    return fill(el, heading("prizes", "director.prizes"),
      h("p", { class: "muted" }, prizes.failed ? t("error.network") : t("clock.waiting")), csv);
  }
  const money = (n) => fmt.money(n, pool?.currency);
  const facts = pool ? h("dl", { class: "pool-facts" },
    [...poolFacts(pool), [t("prizes.collected"), money(pool.collected)], [t("prizes.fees"), money(pool.fees)]]
      .map(([k, v]) => h("div", {}, h("dt", {}, k), h("dd", {}, v)))) : null;
  // A box that scrolls is reached by the keyboard too (its arrow keys scroll it), named by
  // its heading.
  const scrollBox = (label, ...children) => h("div", { class: "scroll-box", tabindex: "0", role: "region", "aria-labelledby": label }, children);
  const payouts = pool ? h("div", {}, h("h3", { id: "h-payouts" }, t("prizes.payouts")), scrollBox("h-payouts",
    h("table", { class: "data" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("prizes.place")), h("th", { scope: "col" }, "%"),
        h("th", { scope: "col" }, t("prizes.prize")))),
      h("tbody", {}, pool.places.map((p) => h("tr", {}, h("td", {}, fmt.ordinal(p.place)),
        h("td", {}, percentText(p.percent)), h("td", {}, money(p.prize)))))))) : null;
  const groups = finisherGroups(d.results);
  const rows = groups.slice(0, 100).flatMap((g) => g.players.map((x) => h("tr", {},
    h("td", {}, placeText(g.place, g.tied), g.tied > 1 ? h("span", { class: "badge badge-shared" }, t("prizes.shared")) : null),
    h("td", {}, x.name),
    h("td", {}, x.prize ? money(x.prize) : "–"),
    h("td", { class: "muted" }, t("prizes.buys_value", { entries: x.entries, rebuys: x.rebuys, add_ons: x.add_ons })))));
  const results = h("div", {}, h("h3", { id: "h-results" }, t("prizes.results")), groups.length
    ? scrollBox("h-results", h("table", { class: "data" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("prizes.place")), h("th", { scope: "col" }, t("director.col_name")),
        h("th", { scope: "col" }, t("prizes.prize")), h("th", { scope: "col" }, t("prizes.buys")))),
      h("tbody", {}, rows)))
    : h("p", { class: "muted" }, t("prizes.no_results")));
  fill(el, heading("prizes", "director.prizes", pool ? fmt.money(pool.pool, pool.currency) : t("director.no_prize")),
    facts, h("div", { class: "actions" }, csv), h("div", { class: "two-col" }, payouts, results));
}

// Players -----------------------------------------------------------------------------------------

const playersListEl = h("div", { class: "player-table-wrap" });
const playersHead = h("div", {});
const drawBox = h("div", {});
let playersBuilt = "";

function buildPlayers() {
  const el = sections.players;
  const nameIn = h("input", { id: "reg-name", maxlength: 80, autocomplete: "off" });
  const needsIn = h("input", { id: "reg-needs", type: "checkbox" });
  const drawTables = h("input", { id: "draw-tables", inputmode: "numeric", placeholder: "1-12" });
  const one = h("form", { class: "row", onsubmit: async (ev) => {
    ev.preventDefault();
    const name = nameIn.value.trim();
    if (!name) return nameIn.focus();
    nameIn.value = "";
    const needs = needsIn.checked;
    needsIn.checked = false;
    nameIn.focus();
    await send({ type: "register", name, special_needs: needs }, t("director.registered", { name }));
  } },
  h("div", { class: "field grow" }, h("label", { for: "reg-name" }, t("director.player_name")), nameIn),
  h("div", { class: "field check-field" }, h("label", { class: "check", for: "reg-needs" }, needsIn, t("director.special_needs"))),
  h("button", { type: "submit", class: "primary" }, t("director.register")));
  // A pasted or uploaded list: previewed by the server, registered in batches (import.js).
  const many = importPanel({ tid, conn, outbox });
  fill(drawBox, h("form", { class: "row draw-form", onsubmit: (ev) => {
    ev.preventDefault();
    const tables = parseTables(drawTables.value);
    if (tables === false) return toast(t("director.bad_tables"), "error");
    send(tables ? { type: "draw_seats", tables } : { type: "draw_seats" }, t("director.draw"));
  } },
  h("div", { class: "field" }, h("label", { for: "draw-tables" }, t("director.draw_tables")), drawTables, h("p", { class: "hint" }, t("director.draw_hint"))),
  h("button", { type: "submit", class: "ok big" }, t("director.draw"))));
  const filter = h("input", { id: "player-filter", type: "search", value: playerFilter, autocomplete: "off" });
  filter.addEventListener("input", () => {
    playerFilter = filter.value;
    renderPlayerList();
  });
  fill(el, playersHead,
    h("div", { class: "two-col" }, h("div", {}, h("h3", {}, t("director.register_one")), one, drawBox),
      h("div", {}, h("h3", {}, t("director.register_list")), many)),
    h("div", { class: "field" }, h("label", { for: "player-filter" }, t("director.find_player")), filter), playersListEl);
}

function renderPlayers() {
  if (!conn || !conn.state) return fill(sections.players, heading("players", "director.players"));
  // The forms are built once (and again for another language): typing is never lost.
  if (playersBuilt !== document.documentElement.lang) {
    playersBuilt = document.documentElement.lang;
    buildPlayers();
  }
  const s = conn.state;
  const waiting = Object.values(s.players).filter((p) => !p.busted && p.table == null).length;
  fill(playersHead, heading("players", "director.players",
    t("director.players_count", { n: s.entries, left: conn.stats?.players_left ?? 0, waiting })));
  drawBox.hidden = s.drawn;
  renderPlayerList();
}

function parseTables(text) {
  const v = text.trim();
  if (!v) return null;
  const out = [];
  for (const part of v.split(/[\s,]+/).filter(Boolean)) {
    const m = part.match(/^(\d+)(?:-(\d+))?$/);
    if (!m) return false;
    const a = Number(m[1]);
    const b = Number(m[2] || m[1]);
    if (b < a || b - a > 2000) return false;
    for (let i = a; i <= b; i += 1) out.push(i);
  }
  return out;
}

/** A player's sale buttons: each kind the server offers, greyed out with the reason when it
 * cannot be sold now (facts.js). */
function saleButtons(p) {
  return offers(conn, p).map((o) => h("button", {
    type: "button", class: "small", disabled: !!o.closed, title: o.closed ? factText(o.closed, conn, fmt.chips) : null,
    onclick: () => {
      // A sale is paid: asked first.
      if (confirm(t(`sale.confirm.${o.kind}`, { name: p.name }))) send(SALE_COMMANDS[o.kind](p), t(SALE_LABEL[o.kind], { name: p.name }));
    },
  }, t(SALE_BUTTON[o.kind])));
}

function renderPlayerList() {
  if (!conn?.state) return;
  // Searched: best matches first, as the server ranks them, and how many match in all.
  // Not searched: the whole field by table and seat.
  const found = playerFilter.trim() ? searchPlayers(conn, playerFilter.trim(), 100) : null;
  const all = found ? found.players.map((r) => conn.state.players[r.id])
    : Object.values(conn.state.players)
      .sort((a, b) => (a.busted - b.busted) || (a.table ?? 1e9) - (b.table ?? 1e9) || (a.seat ?? 0) - (b.seat ?? 0));
  const shown = all.slice(0, 100);
  fill(playersListEl, countLine(found), found && !found.total ? h("p", { class: "muted" }, t("search.none", { q: found.query })) : null,
    h("table", { class: "data" },
    h("caption", { class: "sr-only" }, t("director.players")),
    h("thead", {}, h("tr", {}, ["director.col_name", "director.col_id", "director.col_seat", "director.col_stack", "director.col_status", "director.col_actions"]
      .map((k) => h("th", { scope: "col" }, t(k))))),
    h("tbody", {}, shown.map((p) => h("tr", { class: p.busted ? "busted" : "" },
      h("td", {}, p.name, p.special_needs ? h("span", { class: "badge badge-balance", title: t("director.special_needs") }, "♿") : null),
      h("td", { class: "muted" }, p.id),
      h("td", {}, p.table != null ? fmt.spot(p.table, p.seat) : "–"),
      h("td", {}, p.busted ? "–" : fmt.stackCounted(p) ? fmt.chips(p.stack)
        : h("span", { class: "muted", title: p.stack != null ? t("director.stack_assumed", { stack: fmt.chips(p.stack) }) : null }, t("race.not_counted"))),
      h("td", {}, p.busted ? t("player.busted_place", { place: fmt.ordinal(p.bust?.place ?? 0) })
        : p.table == null ? t("director.waiting_seat") : t("director.playing"),
      p.locked ? ` · ${t("director.locked")}` : ""),
      h("td", { class: "row-actions" }, manage.button(p.id), saleButtons(p), cardLink(tid, p)))))),
  !found && all.length > shown.length ? h("p", { class: "muted" }, t("director.more_players", { n: all.length - shown.length })) : null);
}

// Tables ------------------------------------------------------------------------------------------

const tablesHead = h("div", {});
const finalBox = h("div", { class: "actions" });
const tablesGrid = h("div", { class: "table-grid" });
const openSeats = h("input", { id: "open-seats", type: "number", min: 2, max: 12, inputmode: "numeric" });
let openFormEl = null;
let openFormLang = "";

function openForm() {
  if (!openFormEl || openFormLang !== document.documentElement.lang) {
    openFormLang = document.documentElement.lang;
    openFormEl = h("form", { class: "row inline", onsubmit: (ev) => {
      ev.preventDefault();
      const cmd = { type: "open_table" };
      if (openSeats.value) cmd.seats = Number(openSeats.value);
      send(cmd, t("director.open_table"));
    } }, h("div", { class: "field" }, h("label", { for: "open-seats" }, t("director.open_seats")), openSeats),
    h("button", { type: "submit" }, t("director.open_table")));
  }
  return openFormEl;
}

function renderTables() {
  const el = sections.tables;
  if (!conn || !conn.state) return fill(el, heading("tables", "director.tables"));
  const s = conn.state;
  const views = tableViews(conn).filter((v) => v.status !== "broken");
  const broken = tableViews(conn).length - views.length;
  // The open-table form stays in place (moving a focused input would drop the focus).
  if (!el.contains(tablesGrid) || openFormLang !== document.documentElement.lang) {
    fill(el, tablesHead, h("div", { class: "actions" }, finalBox, openForm()), tablesGrid);
  }
  fill(tablesHead, heading("tables", "director.tables", t("director.tables_count", { n: views.length, broken })));
  fill(finalBox,
    directorControl(conn, send),
    s.final_table == null && s.drawn ? h("button", { type: "button", class: "warn",
      disabled: !!conn.staff?.start_final, title: conn.staff?.start_final ? factText(conn.staff.start_final, conn) : null, onclick: () => {
      if (confirm(t("director.final_confirm"))) send({ type: "start_final" }, t("director.start_final"));
    } }, t("director.start_final")) : null,
    s.final_table != null ? h("span", { class: "badge badge-final" }, t("director.final_at", { table: s.final_table })) : null);
  fill(tablesGrid, views.map((v) => {
      const tb = s.tables[v.table];
      const cannot = v.status === "open" || v.status === "halted" ? unbreakableWhy(v) : null;
      const whyId = `break-why-${v.table}`;
      return h("div", { class: "dtable", dataset: { status: v.status } },
        h("div", { class: "dtable-head" }, h("strong", {}, t("spot.table_only", { table: v.table })),
          v.status !== "open" ? h("span", { class: `badge badge-${v.status}` }, t(`status.${v.status}`)) : null,
          v.final ? h("span", { class: "badge badge-final" }, t("wall.tag.final")) : null),
        h("div", { class: "muted" }, t("director.table_players", { n: v.players, seats: v.seats }),
          tb.halt_waived ? ` · ${t("director.halt_waived")}` : ""),
        v.halt ? h("p", { class: "why small" }, whyText(v.halt.why)) : null,
        h("div", { class: "actions" },
          v.status === "open" || v.status === "halted" ? h("button", { type: "button", class: "small",
            // Offered where the server says the other tables have a seat for everybody here;
            // where not, why not is written under the button (a greyed button alone says nothing).
            disabled: !!cannot, "aria-describedby": cannot ? whyId : null, title: cannot ? factText(cannot, conn) : null, onclick: () => {
            if (confirm(t("director.break_confirm", { table: v.table }))) send({ type: "break_table", table: v.table }, t("director.break_label", { table: v.table }));
          } }, t("director.break_now")) : null,
          v.status === "halted" || tb.halt_waived ? h("button", { type: "button", class: "small", onclick: () =>
            send({ type: "waive_halt", table: v.table, waived: !tb.halt_waived }, t(tb.halt_waived ? "director.unwaive_label" : "director.waive_label", { table: v.table })) },
          t(tb.halt_waived ? "director.unwaive" : "director.waive")) : null),
        cannot ? h("p", { class: "break-why small", id: whyId }, factText(cannot, conn)) : null);
  }));
}

/** Why table `v` cannot be broken now, as the server would refuse it (the staff facts'
 * `unbreakable`: the free seats at the other tables), or null when it can be. */
function unbreakableWhy(v) {
  const room = breakRoom(conn, v.table);
  if (room == null) return null;
  // The server lists every table while only one is open (the last one cannot be broken).
  const open = Object.values(conn.state.tables).filter((x) => x.status === "open").length;
  return open < 2 ? { reason: "last_table", params: { table: v.table } }
    : { reason: "break_no_room", params: { room, players: v.players } };
}

// The plan ----------------------------------------------------------------------------------------

function renderPlan() {
  const el = sections.plan;
  if (!conn || !conn.state) return fill(el, heading("plan", "director.plan"));
  const moves = conn.plan.moves || [];
  const reasons = [...new Set(moves.map((m) => m.reason))];
  fill(el, heading("plan", "director.plan", t("floor.moves_title", { n: moves.length })),
    reasons.length ? h("div", { class: "actions" }, reasons.map((r) => h("button", { type: "button", class: "small", onclick: () =>
      send({ type: "confirm_all", reason: r }, t(`director.confirm_all.${r}`)) },
    t(`director.confirm_all.${r}`)))) : null,
    // The list scrolls: reached by the keyboard too, named by the section's heading.
    moves.length ? h("ul", { class: "moves-list", tabindex: "0", "aria-labelledby": "h-plan" }, moves.slice(0, 40).map((m) => h("li", { class: "move-row" },
      h("div", { class: "who" }, m.player ? playerName(conn, m.player) : t("move.next_bb", { table: m.from.table })),
      h("div", { class: "route" }, fmt.spot(m.from.table, m.from.seat), h("span", { class: "arrow", "aria-hidden": "true" }, "→"),
        h("span", { class: "sr-only" }, ` ${t("wall.to")} `), h("span", { class: "to" }, fmt.spot(m.to.table, m.to.seat))),
      h("div", { class: "meta" }, h("span", { class: `badge badge-${m.reason}` }, t(`reason.${m.reason}`)),
        h("span", { class: `badge badge-move-${moveState(m)}` }, t(`move.state.${moveState(m)}`)), h("span", {}, whyText(m.why))))))
      : h("p", { class: "muted" }, t("floor.no_moves")),
    (conn.plan.halted || []).length ? h("div", {}, h("h3", {}, t("director.halts")),
      h("ul", {}, conn.plan.halted.map((x) => h("li", {}, t("floor.halted_table", { table: x.table, n: x.short }), " — ", whyText(x.why))))) : null);
}

// Staff -------------------------------------------------------------------------------------------

/** The account whose secret form is open (one at a time), by username. */
let changingSecret = null;

async function loadStaff() {
  staff = (await call("/api/staff")) || [];
  renderStaff();
}

/** A new password or PIN, typed twice: the inputs and what they hold once they agree. */
function secretInputs(id, { pin = false, label = "director.new_secret" } = {}) {
  const secret = h("input", { id: `${id}-new`, type: "password", autocomplete: "new-password", required: true,
    inputmode: pin ? "numeric" : null });
  const again = h("input", { id: `${id}-again`, type: "password", autocomplete: "new-password", required: true,
    inputmode: pin ? "numeric" : null });
  const fields = [
    h("div", { class: "field" }, h("label", { for: `${id}-new` }, t(label)), secret),
    h("div", { class: "field" }, h("label", { for: `${id}-again` }, t("director.new_secret_again")), again),
  ];
  return { fields, value: () => (secret.value === again.value ? secret.value : null) };
}

/** The director sets another account's password or PIN (its sessions end). */
function secretForm(a) {
  const id = `secret-${a.username}`;
  const error = h("p", { class: "error-text", role: "alert" });
  const pin = h("input", { id: `${id}-pin`, type: "checkbox", checked: a.pin });
  const inputs = secretInputs(id, { pin: a.pin, label: a.role === "dealer" ? "director.new_secret" : "director.new_password" });
  return h("form", { class: "secret-form", "aria-label": t("director.change_secret_of", { name: a.username }), onsubmit: async (ev) => {
    ev.preventDefault();
    const secret = inputs.value();
    if (secret === null) return void (error.textContent = t("director.secret_mismatch"));
    error.textContent = "";
    const body = { secret, pin: a.role === "dealer" ? pin.checked : false };
    try {
      await api(`/api/staff/${encodeURIComponent(a.username)}/secret`, { method: "PUT", body });
      toast(`✓ ${t("director.secret_set", { name: a.username })}`, "ok");
      changingSecret = null;
      loadStaff();
    } catch (err) {
      error.textContent = err.message; // the refusal in words, next to the fields it names
    }
  } },
  h("div", { class: "row" }, inputs.fields,
    a.role === "dealer" ? h("div", { class: "field check-field" }, h("label", { class: "check", for: `${id}-pin` }, pin, t("director.is_pin"))) : null),
  error,
  h("div", { class: "actions" },
    h("button", { type: "submit", class: "primary small" }, t("director.set_secret")),
    h("button", { type: "button", class: "ghost small", onclick: () => { changingSecret = null; renderStaff(); } }, t("director.cancel"))));
}

/** One's own password, with the current one: the other sessions end, this one stays. */
function ownSecretForm() {
  const current = h("input", { id: "own-current", type: "password", autocomplete: "current-password", required: true });
  const inputs = secretInputs("own", { label: "director.new_password" });
  const error = h("p", { class: "error-text", role: "alert" });
  const form = h("form", { class: "own-secret-form", onsubmit: async (ev) => {
    ev.preventDefault();
    const secret = inputs.value();
    if (secret === null) return void (error.textContent = t("director.secret_mismatch"));
    error.textContent = "";
    try {
      await api("/api/me/secret", { method: "PUT", body: { current: current.value, secret } });
      form.reset();
      toast(`✓ ${t("director.own_secret_set")}`, "ok", 6000);
      loadStaff();
    } catch (err) {
      error.textContent = err.message; // the refusal in words, next to the fields it names
    }
  } },
  h("h3", { id: "own-secret" }, t("director.own_secret", { name: principal.username })),
  h("div", { class: "row" },
    h("div", { class: "field" }, h("label", { for: "own-current" }, t("director.current_secret")), current),
    inputs.fields),
  error,
  h("button", { type: "submit" }, t("director.change_own_secret")));
  return form;
}

/** An account's recent failed sign-ins (and how long the most delayed address waits). */
function signInFailures(a) {
  const s = a.sign_in || { failures: 0, retry_after: 0 };
  if (!s.failures) return null;
  return h("span", { class: "staff-failures" }, h("span", { class: "badge badge-paused" }, t("director.failed_n", { n: s.failures })),
    s.retry_after ? h("span", { class: "muted small" }, " ", t("director.waits", { s: fmt.number(s.retry_after) })) : null);
}

function staffItem(a) {
  const own = a.username === principal.username;
  const name = { name: a.username };
  const what = [t(`role.${a.role}`), `${t("director.secret_kind")} ${a.pin ? t("director.pin") : t("director.password")}`];
  return h("li", { class: "staff-item" },
    h("div", { class: "staff-who" },
      h("strong", {}, a.username), own ? h("span", { class: "badge" }, t("director.you")) : null,
      h("div", { class: "muted small" }, what.filter(Boolean).join(" · "))),
    signInFailures(a),
    h("div", { class: "actions" },
      // One's own secret changes with the current one, in the form below the list.
      own ? h("button", { type: "button", class: "small", "aria-label": t("director.change_own_secret"),
        onclick: () => document.getElementById("own-current")?.focus() }, t("director.change"))
        : h("button", { type: "button", class: "small", "aria-expanded": String(changingSecret === a.username),
          "aria-label": t("director.change_secret_of", name), onclick: () => {
            changingSecret = changingSecret === a.username ? null : a.username;
            renderStaff();
            document.getElementById(`secret-${a.username}-new`)?.focus();
          } }, t("director.change")),
      a.sign_in?.failures ? h("button", { type: "button", class: "small", "aria-label": t("director.unlock_named", name), onclick: async () => {
        if (await call(`/api/staff/${encodeURIComponent(a.username)}/unlock`, { method: "POST" }, t("director.unlocked", name))) loadStaff();
      } }, t("director.unlock")) : null,
      own ? null : h("button", { type: "button", class: "small danger", "aria-label": t("director.remove_named", name), onclick: async () => {
        if (!confirm(t("director.remove_confirm", name))) return;
        if (await call(`/api/staff/${encodeURIComponent(a.username)}`, { method: "DELETE" }, t("director.removed", name))) loadStaff();
      } }, t("director.remove"))),
    changingSecret === a.username ? secretForm(a) : null);
}

function renderStaff() {
  const el = sections.staff;
  const user = h("input", { id: "staff-user", autocapitalize: "none", spellcheck: "false", autocomplete: "off", maxlength: 32 });
  const role = h("select", { id: "staff-role" }, ["floor", "dealer", "director"].map((r) => h("option", { value: r }, t(`role.${r}`))));
  const secret = h("input", { id: "staff-secret", type: "password", autocomplete: "new-password" });
  const pin = h("input", { id: "staff-pin", type: "checkbox" });
  // A PIN only for a dealer, who signs in on a paired table screen alone: the screen says
  // the table and the tournament.
  const pinField = h("div", { class: "field check-field", hidden: true }, h("label", { class: "check", for: "staff-pin" }, pin, t("director.is_pin")));
  const dealerHint = h("p", { class: "hint", hidden: true }, t("tablets.dealer_hint"));
  role.addEventListener("change", () => {
    pinField.hidden = role.value !== "dealer";
    dealerHint.hidden = role.value !== "dealer";
  });
  const form = h("form", { class: "staff-form", onsubmit: async (ev) => {
    ev.preventDefault();
    const body = { username: user.value.trim(), secret: secret.value, role: role.value, pin: role.value === "dealer" && pin.checked };
    const made = await call("/api/staff", { method: "POST", body }, t("director.staff_added", { name: body.username }));
    if (made) loadStaff();
  } },
  h("h3", {}, t("director.add_staff")),
  h("div", { class: "row" },
    h("div", { class: "field" }, h("label", { for: "staff-user" }, t("signin.username")), user),
    h("div", { class: "field" }, h("label", { for: "staff-role" }, t("director.role")), role),
    h("div", { class: "field" }, h("label", { for: "staff-secret" }, t("director.staff_secret")), secret),
    pinField),
  dealerHint,
  h("p", { class: "hint" }, t("director.secret_hint")),
  h("button", { type: "submit", class: "primary" }, t("director.add")));
  fill(el, heading("staff", "director.staff"),
    staff.length ? h("ul", { class: "staff-list", "aria-labelledby": "h-staff" }, staff.map(staffItem))
      : h("p", { class: "muted" }, t("director.no_staff")),
    h("p", { class: "hint" }, t("director.signin_limits_hint")),
    ownSecretForm(),
    form);
}

// Charts ------------------------------------------------------------------------------------------

const fieldCanvas = h("canvas", { role: "img" });
const bbCanvas = h("canvas", { role: "img" });
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
  renderPaper({ sections, conn, tid, send, principal });
  renderFlights({ section: sections.flights, conn, tid, send });
}

function renderAll() {
  renderNav();
  renderTournaments();
  renderStaff();
  tablets.render();
  renderLive();
}

async function start() {
  principal = await me();
  const ok = principal.role === "director";
  signinEl.hidden = ok;
  appEl.hidden = !ok;
  signOutBtn.hidden = principal.role === "public";
  userEl.textContent = whoAmI(principal);
  if (!ok) {
    fill(signinEl, signInForm(() => location.reload(), {
      roles: ["director"], note: principal.role !== "public" ? t("director.only_director") : t("director.signin_note"),
    }));
    return;
  }
  if (tid) localStorage.setItem(LAST_KEY, tid);
  renderAll();
  await Promise.all([loadTournaments(), loadStaff(), tablets.load()]);
  const live = tournaments.filter((x) => x.status === "live");
  if (!tid && live.length === 1) {
    // One tournament running: that is the one the director came for.
    location.replace(`?t=${encodeURIComponent(live[0].id)}`);
    return;
  }
  if (conn) {
    let queued = false;
    conn.on("change", () => {
      if (queued) return;
      queued = true;
      setTimeout(() => {
        queued = false;
        renderLive();
      }, 250);
    });
    conn.on("status", (st) => {
      if (st === "live") outbox.flush();
    });
    outbox.onChange(() => bar.querySelector(".conn")?.refresh?.());
    prizes.onChange(() => renderPrizes());
    conn.start();
  }
}

onLang(() => {
  signOutBtn.textContent = t("signin.signout");
  accountEl.setAttribute("aria-label", t("signin.account"));
  userEl.textContent = whoAmI(principal);
  if (principal.role === "director") renderAll();
});
signOutBtn.textContent = t("signin.signout");
start();
window.floorDirector = { conn, outbox };
