// @ts-check
// The player screen (a kiosk or a phone): find my table and seat by name (diacritics optional:
// "Novak" finds "Novák"), follow my own name and be alerted the moment I am moved, the board of
// recent moves and table breaks, the clock. Public: no staff controls, no staff data.
// ?kiosk=1: no following, and the search clears itself after a minute of nobody touching it.
//
// Following a name, the page holds that player alone (conn.js, follow mode): their seat, the
// clock and the server's board, a few kilobytes where the room is 120 KB gzipped at 10,000
// players. "Stop following" brings the whole room back. The search asks the server either way.

import { installable, keepFollowed } from "./app.js";
import { Connection, tidFromPath } from "./conn.js";
import { reloadOnUpgrade } from "./version.js";
import { Board, calledMoves, entryName } from "./board.js";
import { clockPanel } from "./clockview.js";
import { mountLeaders } from "./counts.js";
import { playerBounty } from "./bounty_view.js";
import { ending } from "./finished.js";
import { mountCounts } from "./flights.js";
import { finishText, moneyBanner } from "./moneyview.js";
import { playerAnnouncement } from "./announce_screens.js";
import { playerPush } from "./push.js";
import { seatCardPanel } from "./seatcard.js";
import * as fmt from "./format.js";
import { onLang, t } from "./i18n.js";
import { countLine, findPlayersNow } from "./search.js";
import { $, api, debounce, fill, h, playerName, toast, topbar } from "./ui.js";
/** @import { PlannedMove } from "./protocol.js" */

const params = new URLSearchParams(location.search);
const kiosk = params.get("kiosk") === "1";
const tid = tidFromPath();
const FOLLOW_KEY = `floor.follow.${tid}`;
/** The player this phone follows (remembered on it), or nobody.
 * @type {{ id: string, name: string } | null} */
let follow = null;
try {
  // A kiosk is everybody's screen: it follows nobody.
  follow = kiosk ? null : JSON.parse(localStorage.getItem(FOLLOW_KEY) || "null");
} catch (err) {
  follow = null;
}
if (!follow?.id) follow = null;
const conn = new Connection(tid, { follow: /** @type {any} */ (follow?.id ?? null) });
reloadOnUpgrade(conn);
const board = new Board(conn, { limit: 40 });
// Installable; the followed player's last state kept for a reload without the server (app.js).
installable("player", tid);
if (!kiosk) keepFollowed(conn);
/** @type {any[]} */
let results = [];
/** @type {any} the last answer: {query, total, players} */
let found = null;
let query = "";
/** @type {{ kind: "moved" | "planned", table: number, seat: number | null } | null} */
let alert = null;
const announced = new Set();

if (kiosk) document.body.classList.add("kiosk");

// Layout -------------------------------------------------------------------------------------------

const bar = topbar(t("player.title"), conn);
const alertEl = h("div", { class: "player-alert", role: "alert", hidden: true });
const followEl = h("section", { class: "card follow-card", hidden: true, "aria-live": "polite" });
// One tap to be alerted with the page closed, for the player followed (push.js).
const pushEl = kiosk ? null : playerPush(tid, () => follow);
// The digital seat card for the dealer's scan (seatcard.js): a phone's own, never a kiosk's.
const seatCard = kiosk ? null : seatCardPanel(tid);
const searchInput = h("input", { id: "player-search", type: "search", autocomplete: "off", spellcheck: "false",
  enterkeyhint: "search" });
const searchLabel = h("label", { for: "player-search" });
const searchHint = h("p", { class: "hint", id: "player-search-hint" });
searchInput.setAttribute("aria-describedby", "player-search-hint");
const resultsEl = h("div", { class: "results", "aria-live": "polite" });
const searchCard = h("section", { class: "card search-card" }, h("h2", { class: "search-title" }),
  h("div", { class: "field" }, searchLabel, searchInput, searchHint), resultsEl);
const clockEl = h("section", { class: "card player-clock" });
const boardEl = h("section", { class: "card player-board" });
// The chip leaders from the floor's counts (counts.js, part C): hidden while nobody is counted.
const leadersEl = mountLeaders(h("div", { class: "card player-leaders", hidden: true }), conn, { limit: 10 });

// The bubble's bursting, for the minute the server says: a buzz on a phone that saw it live.
const moneyEl = moneyBanner(conn, { cls: "player-money", onStart: () => buzz([120, 60, 120, 60, 400]) });

fill($("#app"), bar, playerAnnouncement(conn), alertEl, moneyEl, h("main", { class: "player-main" },
  h("div", { class: "col-a" }, followEl, pushEl, searchCard),
  h("div", { class: "col-b" }, clockEl, leadersEl, mountCounts(h("div", { hidden: true }), conn, tid), boardEl)));
clockPanel(clockEl, conn, { stats: true });

// Search -------------------------------------------------------------------------------------------

const runSearch = debounce(async () => {
  query = searchInput.value.trim();
  if (query.length < 2) {
    results = [];
    found = null;
    return renderResults();
  }
  // The server's answer, or (offline) the copy here searched by the server's own keys.
  const answer = await findPlayersNow(conn, tid, query);
  if (answer.query !== searchInput.value.trim()) return; // typed on meanwhile: a later answer comes
  found = answer;
  results = answer.players;
  renderResults();
}, 250);
searchInput.addEventListener("input", () => {
  idle();
  runSearch();
});

/** Where a player is now, from the live state (search results can be a few seconds old).
 * @param {string} id
 * @param {any} fallback
 */
function whereNow(id, fallback) {
  const p = conn.state?.players?.[id];
  const move = calledMoves(conn).find((/** @type {PlannedMove} */ m) => m.player === id);
  if (!p) return { ...fallback, move: fallback.moving_to };
  return { table: p.table, seat: p.seat, busted: p.busted, place: p.bust?.place ?? null, seat_won: !!p.bust?.seat_won,
    move: move ? { table: move.to.table, seat: move.to.seat } : null, name: p.name };
}

/** @param {any} w */
function seatBlock(w) {
  if (w.seat_won) return h("div", { class: "seat-big seat-won" }, t("milestone.seat_won"));
  if (w.busted) return h("div", { class: "seat-big busted" }, t("player.busted_place", { place: fmt.ordinal(w.place) }));
  if (w.table == null) return h("div", { class: "seat-big waiting" }, t("player.no_seat_yet"));
  return h("div", { class: "seat-big" },
    h("span", { class: "seat-part" }, h("span", { class: "seat-label" }, t("player.table")), h("strong", {}, w.table)),
    h("span", { class: "seat-part" }, h("span", { class: "seat-label" }, t("player.seat")), h("strong", {}, w.seat)));
}

function renderResults() {
  if (!query) return fill(resultsEl);
  if (query.length < 2) return fill(resultsEl, h("p", { class: "empty" }, t("player.search_more")));
  fill(resultsEl, countLine(found), results.length ? h("ul", { class: "result-list" }, results.map((r) => {
    const w = whereNow(r.id, r);
    const following = follow && follow.id === r.id;
    return h("li", { class: "result-card" },
      // The name on record now: a name corrected since the search shows corrected.
      h("div", { class: "result-name" }, w.name ?? r.name),
      seatBlock(w),
      w.move ? h("p", { class: "planned" }, "▶ ", t("player.moving_to", { where: fmt.spot(w.move.table, w.move.seat) })) : null,
      kiosk || w.busted ? null : h("button", { type: "button", class: following ? "ghost" : "primary big", "aria-pressed": String(!!following),
        onclick: () => (following ? unfollow() : startFollow(r)) }, following ? t("player.following") : t("player.follow")));
  })) : h("p", { class: "empty" }, t("search.none", { q: query })));
}

// Following ------------------------------------------------------------------------------------------

/** @param {any} r */
function startFollow(r) {
  follow = { id: r.id, name: r.name };
  localStorage.setItem(FOLLOW_KEY, JSON.stringify(follow));
  announced.clear();
  alert = null;
  renderAlert();
  conn.follow(follow.id);
  // Ask now, while a finger is on the screen: some phones only allow vibration after a tap.
  if (navigator.vibrate) navigator.vibrate(30);
  renderFollow();
  renderResults();
}

function unfollow() {
  follow = null;
  alert = null;
  localStorage.removeItem(FOLLOW_KEY);
  conn.follow(null);
  renderFollow();
  renderAlert();
  renderResults();
}

function renderFollow() {
  pushEl?.refresh();
  followEl.hidden = !follow;
  if (!follow) return;
  const held = !!conn.state?.players?.[follow.id];
  // Known to be gone (unregistered): the follow feed says so, or the room no longer has them.
  const gone = !held && (conn.following === follow.id ? conn.me != null : conn.following == null && conn.seq >= 0);
  const w = held ? whereNow(follow.id, {}) : null;
  const finish = conn.following === follow.id ? conn.me?.finish ?? null : null;
  seatCard?.update(follow.id, w);
  fill(followEl,
    h("h2", {}, t("player.following_title")),
    h("div", { class: "result-name" }, w?.name || follow.name),
    w ? seatBlock(w) : h("p", { class: "muted" }, t(gone ? "player.follow_gone" : "clock.waiting")),
    w && !w.busted && w.table != null ? seatCard?.el : null,
    // Out, or the winner: the place and the prize the server says (me.finish).
    finish && finishText(finish) ? h("p", { class: `follow-finish${finish.place === 1 && finish.tied === 1 && !finish.seat ? " winner" : ""}${finish.prize ? " paid" : ""}` },
      finishText(finish)) : null,
    w?.move ? h("p", { class: "planned" }, "▶ ", t("player.moving_to", { where: fmt.spot(w.move.table, w.move.seat) })) : null,
    // A bounty tournament: the bounty on their head and what they have won (bounty_view.js).
    held ? playerBounty(conn, conn.state?.players?.[follow.id]) : null,
    // A seat from a committed draw: the player checks its seed on a page of its own (check.js).
    held && conn.state?.players?.[follow.id]?.draw != null
      ? h("p", { class: "check-draw" }, h("a", { href: `/check/${encodeURIComponent(tid)}?player=${encodeURIComponent(follow.id)}` }, t("check.title")))
      : null,
    finish ? null : h("p", { class: "hint" }, t("player.follow_hint")),
    h("button", { type: "button", class: "ghost", onclick: unfollow }, t("player.unfollow")));
}

function renderAlert() {
  alertEl.hidden = !alert;
  if (!alert) return;
  fill(alertEl,
    h("div", { class: "alert-title" }, alert.kind === "moved" ? t("player.alert_moved") : t("player.alert_planned")),
    h("div", { class: "alert-seat" }, h("span", {}, t("spot.table_only", { table: alert.table })),
      alert.seat != null ? h("span", {}, t("floor.seat", { seat: alert.seat })) : null),
    h("button", { type: "button", class: "primary big", onclick: () => { alert = null; renderAlert(); } }, t("player.alert_ok")));
  alertEl.querySelector("button")?.focus();
}

/** @param {number | number[]} pattern */
function buzz(pattern) {
  try {
    if (navigator.vibrate) navigator.vibrate(pattern);
  } catch (err) {
    /* not allowed here */
  }
}

// The followed player's part as it was and as it is now: moved while seated (a balance or
// break move carried out, a seat corrected) is said at once; out, a seat to go to no longer
// means anything.
conn.on("follow", (/** @type {any} */ before, /** @type {any} */ after) => {
  const now = after?.player;
  if (!follow || !now || now.id !== follow.id) return;
  if (now.busted) {
    if (alert) {
      alert = null;
      renderAlert();
    }
    return;
  }
  const was = before?.player;
  if (!was || was.id !== now.id || was.busted || was.table == null || now.table == null) return;
  if (was.table === now.table && was.seat === now.seat) return;
  alert = { kind: "moved", table: now.table, seat: now.seat };
  buzz([300, 120, 300, 120, 300]);
  renderAlert();
});

// A move the floor has called for me: get ready (told once per destination).
conn.on("change", () => {
  // The tournament is over: a seat to go to (the final table's redraw) no longer means
  // anything, and the alert must not hide the winner.
  if (alert && ending(conn)) {
    alert = null;
    renderAlert();
  }
  if (!follow) return;
  const planned = calledMoves(conn).find((/** @type {any} */ m) => m.player === follow?.id);
  if (!planned) return;
  const key = `${planned.to.table}.${planned.to.seat}`;
  if (announced.has(key)) return;
  announced.add(key);
  if (!alert || alert.kind !== "moved") {
    alert = { kind: "planned", table: planned.to.table, seat: planned.to.seat };
    buzz([150, 80, 150]);
    renderAlert();
  }
});

// The name followed is not there (unregistered, or the tournament started again without it):
// back to the room. A tournament that is not there is said by the connection itself.
conn.on("missing", async (/** @type {string} */ _reason, /** @type {string | null} */ pid) => {
  if (!follow || pid !== follow.id) return;
  try {
    await api(`/api/t/${encodeURIComponent(tid)}/follow/${encodeURIComponent(pid)}`);
  } catch (err) {
    if (err.status === 404 && err.field === "player" && follow?.id === pid) {
      // Said, not only undone: a tap on "Follow" as the entry was withdrawn lands here.
      unfollow();
      toast(t("player.follow_gone"), "info", 8000);
    }
  }
});

// The board ----------------------------------------------------------------------------------------

function renderBoard() {
  if (!conn.state) return fill(boardEl, h("h2", {}, t("player.board")), h("p", { class: "muted" }, t("clock.waiting")));
  const pending = calledMoves(conn).filter((/** @type {PlannedMove} */ m) => m.player).slice(0, 10);
  const rows = [
    ...pending.map((/** @type {PlannedMove} */ m) => h("li", { class: "move-row pending" },
      h("div", { class: "who" }, playerName(conn, m.player)),
      h("div", { class: "route" }, fmt.spot(m.from.table, m.from.seat), h("span", { class: "arrow", "aria-hidden": "true" }, "→"),
        h("span", { class: "sr-only" }, ` ${t("wall.to")} `), h("span", { class: "to" }, fmt.spot(m.to.table, m.to.seat))),
      h("div", { class: "meta" }, h("span", { class: `badge badge-${m.reason}` }, t(`reason.${m.reason}`)),
        h("span", { class: "badge badge-paused" }, t("wall.go_now"))))),
    ...board.entries.slice(0, 25).map((e) => (e.kind === "move"
      ? h("li", { class: "move-row" },
        h("div", { class: "who" }, entryName(conn, e)),
        h("div", { class: "route" }, fmt.spot(e.from?.table, e.from?.seat), h("span", { class: "arrow", "aria-hidden": "true" }, "→"),
          h("span", { class: "sr-only" }, ` ${t("wall.to")} `), h("span", { class: "to" }, fmt.spot(e.to?.table, e.to?.seat))),
        h("div", { class: "meta" }, h("span", { class: `badge badge-${e.reason}` }, t(`reason.${e.reason}`)),
          e.at ? fmt.timeOfDay(e.at / 1000) : null))
      : h("li", { class: "move-row event-row" }, h("div", { class: "who" }, t(`board.${e.kind}`,
        { table: e.table, name: entryName(conn, e), where: fmt.spot(e.table, e.seat) })),
        h("div", { class: "meta" }, e.at ? fmt.timeOfDay(e.at / 1000) : null)))),
  ];
  fill(boardEl, h("h2", {}, t("player.board")),
    rows.length ? h("ul", { class: "moves-list" }, rows) : h("p", { class: "muted" }, t("wall.no_changes")));
}

// Kiosk: back to an empty search after a minute --------------------------------------------------------

/** @type {ReturnType<typeof setTimeout> | undefined} */
let idleTimer;
function idle() {
  if (!kiosk) return;
  clearTimeout(idleTimer);
  idleTimer = setTimeout(() => {
    searchInput.value = "";
    query = "";
    results = [];
    found = null;
    renderResults();
  }, 60000);
}

// Wiring ---------------------------------------------------------------------------------------------

function texts() {
  const title = searchCard.querySelector(".search-title");
  if (title) title.textContent = t("player.find_title");
  searchLabel.textContent = t("search.label");
  searchHint.textContent = t("player.search_hint");
  searchInput.placeholder = t("player.search_placeholder");
}

function render() {
  if (conn.state) {
    bar.setTitle(conn.state.name);
    document.title = `${conn.state.name} · ${t("player.title")}`;
  }
  renderFollow();
  renderResults();
  renderBoard();
}

let queued = false;
const schedule = () => {
  if (queued) return;
  queued = true;
  requestAnimationFrame(() => {
    queued = false;
    render();
  });
};
conn.on("change", schedule);
board.onChange(schedule);
onLang(() => {
  texts();
  render();
  renderAlert();
});
texts();
render();
conn.start();
window.floorPlayer = { conn, board };
