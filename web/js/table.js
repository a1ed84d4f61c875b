// @ts-check
// The table screen: a tablet (or a phone) that belongs to one table, not to a person.
// /table/{tid}/{table}. Paired once with a code from the floor (no account: the screen becomes
// a device of this table of this tournament, floor/server/tablets.py), with dealers signing
// in and out on it by PIN as they rotate, it shows the table's seats with names, the button and blinds,
// who waits for a seat here, and the table's instructions as they come: moves to and from it
// with seats, a player arriving, the table breaking, halted (do not deal), hand-for-hand
// (deal now / play / wait), a time call's count. One tap a hand ("new hand"), bust-outs by
// seat (several in one hand, placed by their starting stacks), a button report.
//
// Everything shown is the server's: the state and plan (conn.js), the derived facts
// (facts.js, h4h.js). What is tapped goes through the outbox (commands.js): kept on the
// device and sent again, with the same id, when the connection comes back.

import { installable } from "./app.js";
import { Connection, heldState, tableViews, tidFromPath } from "./conn.js";
import { reloadOnUpgrade } from "./version.js";
import { countAge, oldCount } from "./countage.js";
import { Outbox } from "./commands.js";
import { timeCalls as callsAt, undoable } from "./facts.js";
import { handForHand, tableStep } from "./h4h.js";
import { bountyOf, headOf } from "./bounty_pick.js";
import { mysteryNotice } from "./mystery_view.js";
import { pairForm } from "./pairing.js";
import * as fmt from "./format.js";
import { onLang, t } from "./i18n.js";
import { signOut, whoAmI } from "./signin.js";
import { mountTableDealers } from "./table_dealers.js";
import { Speaker, captionBand, speakSetup } from "./speak.js";
import { seatCardScanner } from "./seatcard_scan.js";
import { $, api, every, explainError, fill, h, me, playerName, toast, topbar } from "./ui.js";
/** @import { Command } from "./types.js" */
/** @import { Principal } from "./ui.js" */

const tid = tidFromPath();
const TABLE = Number(location.pathname.split("/").filter(Boolean)[2]);
const conn = new Connection(tid);
reloadOnUpgrade(conn);
// Installable, its shell kept for a wifi drop (the table's own state is not: web/sw.js).
installable("table", tid, TABLE);
const outbox = new Outbox(tid);
/** @type {import("./ui.js").Principal} */
let principal = { role: "public", username: null, table: null };
/** What the screen is asking for: null, "out" (bust-outs), "done" (hand-for-hand) or
 * "button"; `picked` the seats tapped, `stacks` the starting stacks typed by seat. */
/** In a bounty tournament, after the seats out: "won", who won each one's pot (`won.at`
 * the seat out being asked about, `won.winners` the winners' seats by seat out, `won.split`
 * several winners tapped before going on). */
/** @type {{ mode: "out" | "done" | "button" | "won" | null, picked: Set<number>, stacks: Record<number, string>,
 *   won: { at: number, winners: Map<number, Set<number>>, split: boolean, then: "out" | "done" | "button" | "won" | null } }} */
const ui = { mode: null, picked: new Set(), stacks: {}, won: { at: 0, winners: new Map(), split: false, then: null } };
/** Players who sat down here since the table's last hand (a late entry, a move carried out):
 * seat -> player, from the events the server sent. */
const arrivals = new Map();

// Layout -----------------------------------------------------------------------------------

const bar = topbar(t("table.title", { table: TABLE }), conn, {
  extra: () => (outbox.waiting ? t("table.offline", { n: outbox.waiting }) : ""),
});
const whoEl = h("span", { class: "who-am-i" });
const signOutBtn = h("button", { type: "button", class: "ghost small", onclick: doSignOut });
const dealerBtn = h("button", { type: "button", class: "ghost small", onclick: () => {
  if (principal.role === "dealer") dealerOut();
  else {
    dealerEl.hidden = !dealerEl.hidden;
    if (!dealerEl.hidden) dealerEl.querySelector("input")?.focus();
  }
} });
const dealerEl = h("div", { class: "table-dealer", hidden: true });
/** Why the screen shows the pairing form again (it was ended), or "". */
let endedNote = "";
// The sign-in and the table are each the page's main landmark while shown.
const signinEl = h("main", { class: "table-signin" });
const noticeEl = h("section", { class: "table-notices", "aria-live": "assertive" });
const seatsEl = h("section", { class: "table-seats", role: "group" });
const pickEl = h("section", { class: "table-pick", hidden: true });
const actionsEl = h("nav", { class: "table-actions" });
const handEl = h("div", { class: "table-hand" });
const sentEl = h("p", { class: "table-sent", role: "status", hidden: true });
// A player's digital seat card read by this screen's camera (seatcard_scan.js).
const scanner = seatCardScanner(tid, () => TABLE);
const appEl = h("main", { class: "table-app", hidden: true },
  h("div", { class: "table-side" }, handEl, noticeEl, sentEl, actionsEl, pickEl, scanner.el),
  seatsEl);

// Who is signed in, in a landmark of its own (the dealer's form is one: a named form).
// Announcements of this table and of every table, captioned and spoken (speak.js).
const speaker = new Speaker(`table.${TABLE}`);
const accountEl = h("section", { class: "table-user", "aria-label": t("signin.account") }, whoEl, dealerBtn, signOutBtn,
  speakSetup(speaker));
// Who deals here and the next push (the dealer room's rotation: table_dealers.js).
const dealersEl = h("section", { class: "table-dealers", "aria-label": t("dealers.strip"), hidden: true });
fill($("#app"), bar, accountEl, dealersEl, dealerEl, signinEl, appEl, captionBand(conn, speaker, { table: TABLE }));
const strip = mountTableDealers(dealersEl, { tid, table: TABLE, mode: () => (mine() ? (principal.role === "dealer" ? "dealer" : "screen")
  : principal.role === "director" || principal.role === "floor" ? "staff" : null) });

// Pairing, and the dealer ------------------------------------------------------------------

async function start() {
  principal = await me();
  showSignedIn();
  conn.start();
}

/** A paired screen (or the dealer on it) of this very table of this tournament. */
function mine() {
  return principal.device != null && principal.tournament === tid && principal.table === TABLE;
}

function allowed() {
  return principal.role === "director" || principal.role === "floor" || mine();
}

function showSignedIn() {
  const screen = principal.device != null;
  const staff = principal.role === "director" || principal.role === "floor";
  whoEl.textContent = screen ? (principal.role === "dealer" ? t("table.dealer_on", { name: principal.username })
    : `${t("table.screen_of", { table: principal.table })} · ${t("table.no_dealer")}`) : whoAmI(principal);
  // A screen is ended by the director, not by a tap at the table; the floor signs out.
  signOutBtn.hidden = !staff;
  signOutBtn.textContent = t("signin.signout");
  dealerBtn.hidden = !mine();
  dealerBtn.textContent = principal.role === "dealer" ? t("table.dealer_signout") : t("table.dealer_signin");
  if (!mine()) dealerEl.hidden = true;
  fill(dealerEl, dealerForm());
  const ok = allowed();
  appEl.hidden = !ok;
  signinEl.hidden = ok;
  if (!screen && !staff) {
    const paired = (/** @type {Principal} */ p) => {
      principal = p;
      endedNote = "";
      showSignedIn();
      conn.reconnect(true);
      outbox.flush();
    };
    fill(signinEl, endedNote ? h("p", { class: "notice notice-halt", role: "alert" }, endedNote) : null,
      pairForm(paired), h("p", { class: "muted pair-or" }, t("table.signin_note")));
  } else if (!ok) {
    const own = `/table/${encodeURIComponent(principal.tournament ?? "")}/${principal.table}`;
    fill(signinEl, h("div", { class: "card" },
      h("p", {}, t("table.other_table", { table: principal.table, tournament: principal.tournament })),
      h("a", { class: "button primary", href: own }, t("table.open_own", { table: principal.table }))));
  }
  strip.refresh();
  render();
}

/** The dealer's sign-in on this screen (POST /api/table/signin): their name and PIN. */
function dealerForm() {
  const user = h("input", { id: "dealer-user", name: "username", autocomplete: "username", autocapitalize: "none",
    spellcheck: "false", required: true });
  const pin = h("input", { id: "dealer-pin", name: "secret", type: "password", inputmode: "numeric",
    autocomplete: "current-password", required: true });
  const error = h("p", { class: "error-text", role: "alert" });
  const submit = h("button", { type: "submit", class: "primary" }, t("table.dealer_submit"));
  return h("form", { class: "card dealer-form", "aria-label": t("table.dealer_signin"), onsubmit: async (/** @type {SubmitEvent} */ ev) => {
    ev.preventDefault();
    error.textContent = "";
    submit.disabled = true;
    try {
      const got = await api("/api/table/signin", { method: "POST", body: { username: user.value.trim(), secret: pin.value } });
      principal = got.principal;
      dealerEl.hidden = true;
      showSignedIn();
    } catch (err) {
      pin.value = "";
      error.textContent = err.code === "bad_credentials" ? t("table.dealer_bad")
        : err.code === "too_many_attempts" ? t("signin.too_many", { seconds: err.params?.seconds ?? "?" })
          : explainError(err);
    } finally {
      submit.disabled = false;
    }
  } },
  h("div", { class: "row" },
    h("div", { class: "field" }, h("label", { for: "dealer-user" }, t("table.dealer_name")), user),
    h("div", { class: "field" }, h("label", { for: "dealer-pin" }, t("table.dealer_pin")), pin)),
  error, submit);
}

async function dealerOut() {
  try {
    principal = (await api("/api/table/signout", { method: "POST", body: {} })).principal;
  } catch (err) {
    toast(explainError(err), "error", 7000);
  }
  showSignedIn();
}

async function doSignOut() {
  await signOut();
  principal = { role: "public", username: null, table: null };
  showSignedIn();
  conn.reconnect(true);
}

/** The screen was ended or moved (its socket was closed, and it came back as someone else):
 * ask who it is now. */
async function recheck() {
  const was = principal;
  principal = await me();
  if (was.device != null && principal.device == null) endedNote = t("table.ended");
  showSignedIn();
}

// Sending ----------------------------------------------------------------------------------

/**
 * @param {Command} command
 * @param {string} label
 */
async function send(command, label) {
  const item = await outbox.send(command, label);
  if (item.status === "done") {
    sentEl.hidden = false;
    sentEl.textContent = `✓ ${label}`;
    sentEl.dataset.kind = "ok";
  } else if (item.status === "refused") {
    sentEl.hidden = false;
    sentEl.textContent = `✗ ${label}: ${explainError(item.error, conn)}`;
    sentEl.dataset.kind = "error";
    toast(sentEl.textContent, "error", 7000);
  } else if (item.status === "signin") {
    recheck();
  }
  return item;
}

function closePick() {
  ui.mode = null;
  ui.picked.clear();
  ui.stacks = {};
  ui.won = { at: 0, winners: new Map(), split: false, then: null };
}

/** @param {number[]} seats */
function seatList(seats) {
  return seats.map((/** @type {number} */ s) => String(s)).join(", ");
}

function newHand() {
  closePick();
  send({ type: "hand", table: TABLE }, t("table.new_hand"));
  render();
}

function sendPicked() {
  const table = heldState(conn).tables[TABLE];
  const seats = [...ui.picked].sort((a, b) => a - b);
  const stackOf = (/** @type {number} */ seat) => {
    const typed = ui.stacks[seat];
    return typed === undefined || typed === "" ? null : Number(typed);
  };
  if ((ui.mode === "out" || ui.mode === "done") && bountyOf(conn.state) && seats.length) {
    // A bounty tournament: who won each pot is asked next, a tap on a seat each.
    ui.won = { at: 0, winners: new Map(), split: false, then: ui.mode };
    ui.mode = "won";
    render();
    return;
  }
  const was = ui.mode === "won" ? ui.won.then : ui.mode;
  if (was === "done") {
    const out = seats.map((seat) => ({ seat, stack: stackOf(seat), winners: [...(ui.won.winners.get(seat) || [])] }));
    send({ type: "hand_done", table: TABLE, out },
      seats.length ? t("table.send_done", { seats: seatList(seats) }) : t("table.send_done_none"));
  } else if (was === "out" && seats.length === 1) {
    send({ type: "bust", table: TABLE, seat: seats[0], eliminators: winnersOf(table, seats[0]) },
      t("table.send_out", { seats: seatList(seats) }));
  } else if (was === "out" && seats.length > 1) {
    // Several out in one hand: placed by the chips each started it with (bust_same_hand).
    const players = seats.map((seat) => ({ player: table.occupants[seat], stack: stackOf(seat), eliminators: winnersOf(table, seat) }));
    send({ type: "bust_same_hand", players }, t("table.send_out", { seats: seatList(seats) }));
  }
  closePick();
  render();
}

/** The players named as the winners of `seat`'s pot (none outside a bounty tournament).
 * @param {any} table
 * @param {number} seat */
function winnersOf(table, seat) {
  return [...(ui.won.winners.get(seat) || [])].map((x) => table.occupants[x]).filter(Boolean);
}

/** The seat out whose pot is being asked about, or null once all are named. */
function askedSeat() {
  const seats = [...ui.picked].sort((a, b) => a - b);
  return seats[ui.won.at] ?? null;
}

/** A winner tapped for the seat out being asked about: one tap names them and goes on (a
 * split pot: taps pick and drop, "next" goes on); the last one sends.
 * @param {number} seat */
function tapWinner(seat) {
  const asked = askedSeat();
  if (asked == null || seat === asked) return;
  const chosen = ui.won.winners.get(asked) || new Set();
  if (ui.won.split) {
    if (!chosen.delete(seat)) chosen.add(seat);
    ui.won.winners.set(asked, chosen);
    render();
    return;
  }
  ui.won.winners.set(asked, new Set([seat]));
  nextAsked();
}

function nextAsked() {
  ui.won.at += 1;
  ui.won.split = false;
  if (askedSeat() == null) sendPicked();
  else render();
}

/** @param {number} seat */
function tapSeat(seat) {
  const table = heldState(conn).tables[TABLE];
  if (!table.occupants[seat]) return;
  if (ui.mode === "won") {
    tapWinner(seat);
    return;
  }
  if (ui.mode === "button") {
    send({ type: "button", table: TABLE, seat }, `${t("table.button")}: ${t("table.seat", { seat })}`);
    closePick();
  } else if (ui.mode === "out" || ui.mode === "done") {
    if (ui.picked.has(seat)) ui.picked.delete(seat);
    else ui.picked.add(seat);
  }
  render();
}

// Rendering --------------------------------------------------------------------------------

function view() {
  return tableViews(conn).find((v) => v.table === TABLE) || null;
}

/**
 * @param {any} table
 * @param {any} v
 */
function renderSeats(table, v) {
  // After a button report the recorded positions are the hand before it, made up: only the
  // button the floor reported is shown until the next hand is dealt.
  const pos = table.button_reported ? null : table.positions;
  const button = v?.button ?? pos?.button ?? null;
  const n = table.seats;
  // Round the table: seats 1.. along the top, the rest back along the bottom.
  const top = Math.ceil(n / 2);
  seatsEl.style.setProperty("--cols", String(top));
  seatsEl.setAttribute("aria-label", t("table.title", { table: TABLE }));
  const picking = ui.mode != null;
  fill(seatsEl, Array.from({ length: n }, (_, i) => {
    const seat = i + 1;
    const pid = table.occupants[seat];
    const p = pid ? heldState(conn).players[pid] : null;
    const row = seat <= top ? 1 : 2;
    const col = seat <= top ? seat : n - seat + 1;
    const marks = [];
    if (p && button === seat) marks.push(h("span", { class: "mark mark-d" }, t("table.dealer")));
    if (p && pos && pos.small_blind === seat && button !== seat) marks.push(h("span", { class: "mark mark-sb" }, t("table.small_blind")));
    if (p && pos && pos.big_blind === seat) marks.push(h("span", { class: "mark mark-bb" }, t("table.big_blind")));
    if (p && pos && pos.small_blind === seat && button === seat) marks.push(h("span", { class: "mark mark-sb" }, t("table.small_blind")));
    const out = (handForHand(conn)?.out || []).some((/** @type {any} */ o) => o.table === TABLE && o.seat === seat);
    const el = h("button", {
      type: "button",
      class: `seat${p ? "" : " empty"}${ui.picked.has(seat) ? " picked" : ""}${out ? " out" : ""}${arrivals.has(seat) ? " arrived" : ""}${wonBy(seat) ? " winner" : ""}`,
      disabled: !p || !picking,
      "aria-pressed": ui.mode === "won" ? String(wonBy(seat)) : picking && ui.mode !== "button" ? String(ui.picked.has(seat)) : null,
      dataset: { seat },
      onclick: () => tapSeat(seat),
    },
    h("span", { class: "seat-no" }, String(seat)),
    h("span", { class: "seat-name" }, p ? p.name : t("table.empty")),
    // The count with its age; an old one (the server's verdict in the view) says so.
    p && p.stack != null && p.counted ? h("span", { class: "seat-stack" }, fmt.chips(p.stack), " · ",
      countAge(p.counted_at, oldCount(v, p.id), { cls: "seat-age", short: true })) : null,
    marks.length ? h("span", { class: "seat-marks" }, marks) : null,
    // A bounty tournament: the bounty on the player's head (the server's record).
    p && headOf(conn.state, p) != null ? h("span", { class: "bounty-head" }, fmt.money(headOf(conn.state, p), conn.state?.structure?.prize?.currency)) : null);
    // Set through the CSSOM: the pages' policy allows no inline style attributes.
    el.style.gridRow = String(row);
    el.style.gridColumn = String(col);
    return el;
  }));
}

/**
 * @param {any} table
 * @param {any} v
 */
function notices(table, v) {
  const list = [];
  const step = tableStep(conn, TABLE);
  const f = handForHand(conn);
  if (v?.status === "halted") list.push(["halt", t("table.halted")]);
  if (table.status === "breaking") list.push(["breaking", t("table.breaking")]);
  if (table.status === "broken") list.push(["broken", t("table.broken")]);
  if (step === "deal") list.push(["h4h-deal", t("table.h4h_deal")]);
  if (step === "playing") list.push(["h4h-playing", t("table.h4h_playing")]);
  if (step === "done" && f) {
    const others = f.waiting_for.filter((/** @type {number} */ n) => n !== TABLE);
    list.push(["h4h-wait", t("table.h4h_wait"),
      others.length ? t("table.h4h_wait_for", { tables: others.join(", ") }) : null]);
  }
  for (const c of callsAt(conn, conn.nowSec())) {
    if (c.table !== TABLE || c.phase === "over") continue;
    const left = fmt.clock(c.left);
    list.push([c.phase === "count" ? "count" : "time", t("table.time_call", { seat: c.seat, left })]);
  }
  for (const m of /** @type {any[]} */ (conn.plan.moves || [])) {
    if (m.from.table === TABLE && m.to.table !== TABLE) {
      const name = m.player ? playerName(conn, m.player) : null;
      const text = m.player == null ? t("table.move_out_bb", { to: m.to.table })
        : m.to.seat != null ? t("table.move_out", { seat: m.from.seat, name, to: m.to.table, to_seat: m.to.seat })
          : t("table.move_out_table", { seat: m.from.seat, name, to: m.to.table });
      list.push(["move", text]);
    } else if (m.to.table === TABLE && m.from.table !== TABLE) {
      list.push(["move", m.to.seat != null ? t("table.move_in", { seat: m.to.seat, from: m.from.table })
        : t("table.move_in_any", { from: m.from.table })]);
    }
  }
  for (const [seat, pid] of arrivals) {
    if (table.occupants[seat] === pid) list.push(["arrive", t("table.arrived", { seat, name: playerName(conn, pid) })]);
  }
  const waiting = (v?.waiting || []).map((/** @type {any} */ x) => playerName(conn, typeof x === "string" ? x : x.player));
  if (waiting.length) list.push(["wait", t("table.waiting", { names: waiting.join(", ") })]);
  const envelope = mysteryNotice(conn, TABLE);
  if (envelope) list.push(envelope);
  for (const u of undoable(conn, TABLE)) {
    list.push(["undo", t("table.undo", { seat: u.seat, name: playerName(conn, u.player) })]);
  }
  return list;
}

/**
 * @param {any} table
 * @param {any} v
 */
function renderNotices(table, v) {
  fill(noticeEl, notices(table, v).map(([kind, text, sub]) =>
    h("p", { class: `notice notice-${kind}`, dataset: { kind } }, text, sub ? h("span", { class: "notice-sub" }, sub) : null)));
}

/**
 * @param {any} table
 * @param {any} v
 */
function renderActions(table, v) {
  const step = tableStep(conn, TABLE);
  const open = table.status === "open" && v?.status !== "halted";
  const h4h = step != null;
  const game = heldState(conn).current_game;
  const positionsUnknown = !table.positions && game !== "stud" && game !== "razz";
  /** @param {string} label @param {string} cls @param {() => void} onclick
   * @param {{ disabled?: boolean, action?: string }} [options] */
  const big = (label, cls, onclick, { disabled = false, action } = {}) =>
    h("button", { type: "button", class: `big ${cls}`, disabled, onclick, dataset: { action } }, label);
  fill(actionsEl,
    big(t("table.new_hand"), "primary", newHand, {
      action: "hand",
      disabled: !open || Object.keys(table.occupants).length < 2 || (h4h && step !== "deal") || (!h4h && positionsUnknown),
    }),
    h4h
      ? big(t("table.hand_done"), "ok", () => { closePick(); ui.mode = "done"; render(); }, { action: "done", disabled: step === "done" })
      : big(t("table.bust"), "warn", () => { closePick(); ui.mode = "out"; render(); }, { action: "out", disabled: table.status === "broken" }),
    big(t("table.button"), positionsUnknown ? "warn" : "ghost", () => { closePick(); ui.mode = "button"; render(); }, {
      action: "button", disabled: table.status !== "open",
    }));
}

/** Whether `seat` is picked as a winner of the pot being asked about.
 * @param {number} seat */
function wonBy(seat) {
  const asked = ui.mode === "won" ? askedSeat() : null;
  return asked != null && !!ui.won.winners.get(asked)?.has(seat);
}

/** The pick's panel while the winners of the pots are asked (a bounty tournament).
 * @param {any} table */
function renderWon(table) {
  const asked = askedSeat();
  const p = asked != null ? heldState(conn).players[table.occupants[asked]] : null;
  const chosen = asked != null ? ui.won.winners.get(asked)?.size || 0 : 0;
  fill(pickEl,
    h("p", { class: "pick-hint" }, t("bounty.who_won_of", { name: p?.name ?? "" }), " ", t("table.seat", { seat: asked ?? 0 })),
    h("div", { class: "pick-actions" },
      ui.won.split
        ? h("button", { type: "button", class: "big primary", disabled: !chosen, dataset: { action: "next" }, onclick: nextAsked },
          t("bounty.split_send", { n: chosen }))
        : null,
      h("button", { type: "button", class: "big ghost", "aria-pressed": String(ui.won.split), dataset: { action: "split" },
        onclick: () => { ui.won.split = !ui.won.split; if (asked != null) ui.won.winners.delete(asked); render(); } },
      ui.won.split ? t("bounty.one_winner") : t("bounty.split")),
      h("button", { type: "button", class: "big ghost", dataset: { action: "cancel" }, onclick: () => { closePick(); render(); } }, t("table.cancel"))));
}

/** What the pick was last drawn for: drawn again only when it changed (not under a finger). */
let pickKey = "";

/** @param {any} table */
function renderPick(table) {
  pickEl.hidden = ui.mode == null;
  if (ui.mode == null) return fill(pickEl);
  if (ui.mode === "won") return renderWon(table);
  const seats = [...ui.picked].sort((a, b) => a - b);
  const hint = ui.mode === "button" ? t("table.pick_button") : ui.mode === "done" ? t("table.pick_out_h4h") : t("table.pick_out");
  // A stack places players out together: asked for when it decides (several out, or
  // hand-for-hand, where other tables' players out may share the hand).
  const askStacks = ui.mode === "done" || seats.length > 1;
  const rows = askStacks ? seats.map((seat) => {
    const p = heldState(conn).players[table.occupants[seat]];
    const id = `stack-${seat}`;
    const input = h("input", { id, type: "number", min: "0", inputmode: "numeric", value: ui.stacks[seat] ?? (p?.counted && p.stack != null ? p.stack : ""),
      oninput: (/** @type {Event} */ ev) => { ui.stacks[seat] = /** @type {HTMLInputElement} */ (ev.target).value; } });
    return h("div", { class: "field stack-row" },
      h("label", { for: id }, `${t("table.seat", { seat })} · ${p?.name ?? ""} · ${t("table.stack")}`), input);
  }) : [];
  const ready = ui.mode === "done" || (ui.mode === "out" && seats.length > 0);
  fill(pickEl,
    h("p", { class: "pick-hint" }, hint),
    ...rows,
    h("div", { class: "pick-actions" },
      ui.mode !== "button" ? h("button", { type: "button", class: "big primary", disabled: !ready, dataset: { action: "send" }, onclick: sendPicked },
        ui.mode === "done" ? (seats.length ? t("table.send_done", { seats: seatList(seats) }) : t("table.send_done_none"))
          : t("table.send_out", { seats: seatList(seats) })) : null,
      h("button", { type: "button", class: "big ghost", dataset: { action: "cancel" }, onclick: () => { closePick(); render(); } }, t("table.cancel"))));
}

function render() {
  bar.setTitle?.(t("table.title", { table: TABLE }));
  if (!conn.state || appEl.hidden) return;
  const table = conn.state.tables[TABLE];
  if (!table) return fill(noticeEl, h("p", { class: "notice" }, t("error.network")));
  const v = view();
  document.title = `${t("table.title", { table: TABLE })} · ${conn.state.name}`;
  appEl.dataset.step = tableStep(conn, TABLE) || "";
  const h4hNow = handForHand(conn);
  fill(handEl,
    h("strong", { class: "hand-no" }, t("table.hand_no", { n: table.hand })),
    conn.state.final_table === TABLE ? h("span", { class: "badge badge-final" }, t("table.final")) : null,
    h4hNow ? h("span", { class: "badge badge-h4h" }, `${t("h4h.title")} · ${t("h4h.hand", { n: h4hNow.round })}`) : null);
  renderNotices(table, v);
  renderActions(table, v);
  renderSeats(table, v);
  // Keep what is being typed: the pick is rebuilt only when its seats change.
  const won = ui.mode === "won" ? `${ui.won.at}|${ui.won.split}|${[...(ui.won.winners.get(askedSeat() ?? 0) || [])]}` : "";
  const key = `${ui.mode}|${[...ui.picked].join(",")}|${won}|${document.documentElement.lang}`;
  if (key !== pickKey || !pickEl.contains(document.activeElement)) {
    pickKey = key;
    renderPick(table);
  }
}

conn.on("events", (/** @type {any[]} */ applied) => {
  for (const e of applied) {
    if (e.type === "hand_started" && e.table === TABLE) arrivals.clear();
    if (e.type === "player_seated" && e.table === TABLE) arrivals.set(e.seat, e.player);
    if (e.type === "players_moved") {
      for (const m of e.moves) if (m.to.table === TABLE && m.from.table !== TABLE) arrivals.set(m.to.seat, m.player);
    }
  }
});

let queued = false;
conn.on("change", () => {
  if (queued) return;
  queued = true;
  requestAnimationFrame(() => {
    queued = false;
    render();
  });
});
conn.on("status", (/** @type {string} */ status) => {
  if (status === "live") outbox.flush();
});
conn.on("hello", (/** @type {import("./protocol.js").Hello} */ msg) => {
  if (principal.device != null && (msg.device !== principal.device || msg.table !== principal.table)) recheck();
});
outbox.onChange(() => /** @type {import("./ui.js").Indicator | null} */ (bar.querySelector(".conn"))?.refresh?.());
onLang(() => {
  pickKey = "";
  accountEl.setAttribute("aria-label", t("signin.account"));
  dealersEl.setAttribute("aria-label", t("dealers.strip"));
  showSignedIn();
});
// A time call counts down between batches.
every(1000, () => {
  if (conn.state && (conn.facts?.time_calls || []).some((/** @type {any} */ c) => c.table === TABLE)) render();
});

start();
window.floorTable = { conn, outbox, speaker };
