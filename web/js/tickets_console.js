// @ts-check
// The director console's satellite and ticket panel: a satellite's seats (its target, a
// seat's worth, the seat winners once it has ended) and the button that enters their
// tickets in the house's ledger; the ledger's tickets for this tournament and from it; a
// registration paid with a ticket; a ticket sold, refunded or expired.
//
// The rules are the server's: when a satellite ends and who wins a seat
// (floor/engine/satellite.py), whether a ticket may be used, and by whom
// (floor/engine/house/tickets.py, held in the house while the registration is decided). This
// file renders the state and the ledger (GET /api/tickets) and sends the commands.

import * as fmt from "./format.js";
import { getLang, t } from "./i18n.js";
import { heldState } from "./conn.js";
import { milestoneStatus } from "./milestone_console.js";
import { api, explainError, fill, h, playerName, toast } from "./ui.js";
/** @import { Conn, Send } from "./types.js" */

/** @type {{ built: Element | null, status: HTMLElement | null, ledger: HTMLElement | null, seq: number, at: number,
 *   rows: any[], conn: Conn | null, tid: string, timer: ReturnType<typeof setTimeout> | null, asked: number,
 *   lang: string }} */
const panel = { built: null, status: null, ledger: null, seq: -1, at: 0, rows: [], conn: null, tid: "",
  timer: null, asked: 0, lang: "" };

/** @param {string} id @param {string} label @param {HTMLElement} input */
function field(id, label, input) {
  return h("div", { class: "field" }, h("label", { for: id }, label), input);
}

/** The satellite settings of the state's prize, if any.
 * @param {any} s */
function satelliteOf(s) {
  return s?.structure?.prize?.satellite || null;
}

/** The tickets section of the director console.
 * @param {{ section: HTMLElement, conn: Conn | null, tid: string, send: Send }} options */
export function renderTickets({ section, conn, tid, send }) {
  if (!section) return;
  const s = conn?.state;
  if (!conn || !s) {
    fill(section, h("h2", { id: "h-tickets" }, t("director.tickets")));
    panel.built = null;
    return;
  }
  // Built again in a new language too: the heading, the ledger and the forms are its texts.
  if (panel.built !== section.firstChild || !section.contains(panel.status) || panel.lang !== getLang()) {
    const heading = h("h2", { id: "h-tickets" }, t("director.tickets"));
    panel.status = h("div", { class: "satellite-status", "aria-live": "polite" });
    panel.ledger = h("div", { class: "ticket-ledger" });
    // What was typed stays typed: a panel built again (a new language, a reconnection) while
    // the desk fills a form must not empty it under their fingers.
    const typed = typedIn(section);
    fill(section, heading, panel.status, panel.ledger, registerForm(conn, tid, send), sellForm(tid));
    if (panel.tid === tid) retype(section, typed);
    panel.built = heading;
    panel.lang = getLang();
    panel.seq = -1;
    // The ledger last read, until it is read again (not "no tickets" for a second).
    if (panel.at && panel.tid === tid) fill(panel.ledger, ledgerTable(panel.rows, tid));
  }
  fill(/** @type {HTMLElement} */ (panel.status), ...statusOf(conn, send));
  panel.conn = conn;
  panel.tid = tid;
  const seq = conn.seq ?? 0;
  if (seq !== panel.seq) {
    panel.seq = seq;
    soon();
  }
}

/** The values typed in the panel's forms, by the inputs' ids.
 * @param {HTMLElement} section @returns {Map<string, string>} */
function typedIn(section) {
  const typed = new Map();
  for (const input of section.querySelectorAll("form input[id]:not([type=checkbox]), form select[id]")) {
    const el = /** @type {HTMLInputElement} */ (input);
    if (el.value) typed.set(el.id, el.value);
  }
  return typed;
}

/** @param {HTMLElement} section @param {Map<string, string>} typed */
function retype(section, typed) {
  for (const [id, value] of typed) {
    const el = /** @type {HTMLInputElement | null} */ (section.querySelector(`#${CSS.escape(id)}`));
    if (el && !el.value) el.value = value;
  }
}

/** The ledger read again at most once a second while the state changes: a change inside the
 * second is read at its end, not dropped (the console may not render again for minutes). */
function soon() {
  if (panel.timer) return;
  const wait = Math.max(0, 1000 - (Date.now() - panel.at));
  panel.timer = setTimeout(() => {
    panel.timer = null;
    if (panel.conn) refresh(panel.conn, panel.tid);
  }, wait);
}

/** After the console's own change to the ledger: read it now, whatever the last read. */
function readNow() {
  if (panel.timer) clearTimeout(panel.timer);
  panel.timer = null;
  if (panel.conn) refresh(panel.conn, panel.tid);
}

/** @param {Conn} conn @param {Send} send */
function statusOf(conn, send) {
  const s = /** @type {any} */ (heldState(conn));
  const sat = satelliteOf(s);
  if (!sat) return [h("p", { class: "muted" }, t("tickets.not_satellite"))];
  const currency = s.structure?.prize?.currency || "";
  /** @type {HTMLElement[]} */
  const out = [h("p", { class: "satellite-facts" }, t("tickets.satellite", {
    target: sat.target, seat: fmt.money(sat.seat, currency),
  }), " · ", t(`tickets.leftover.${sat.leftover || "next"}`), " · ",
  t(sat.transferable ? "tickets.transferable" : "tickets.bound"))];
  out.push(...milestoneStatus(conn, s, send));
  const end = s.satellite_end;
  if (!end) return out;
  out.push(h("p", { class: "satellite-ended" }, t("tickets.ended", { n: end.seats.length })));
  out.push(h("ol", { class: "seat-winners" }, end.seats.map((/** @type {string} */ pid) => h("li", {}, playerName(conn, pid)))));
  if (!s.seats_issued) {
    out.push(h("div", { class: "actions" }, h("button", { type: "button", class: "primary", onclick: () => {
      send({ type: "issue_seats" }, t("tickets.issue_label"));
    } }, t("tickets.issue"))));
  } else {
    out.push(h("p", { class: "ok-text" }, t("tickets.issued", { n: s.seats_issued.tickets.length })));
  }
  return out;
}

/** @param {Conn} conn @param {string} tid */
async function refresh(conn, tid) {
  panel.at = Date.now();
  // Two reads in flight: the later one's answer is the ledger shown, whichever comes back last.
  const asked = ++panel.asked;
  const q = encodeURIComponent(tid);
  const asks = [api(`/api/tickets?target=${q}`)];
  if (satelliteOf(conn.state)) asks.push(api(`/api/tickets?origin=${q}`));
  let rows = [];
  try {
    const got = await Promise.all(asks);
    const seen = new Set();
    for (const data of got) {
      for (const row of data.tickets) if (!seen.has(row.id)) { seen.add(row.id); rows.push(row); }
    }
  } catch (err) {
    if (panel.ledger && asked === panel.asked) fill(panel.ledger, h("p", { class: "error-text" }, explainError(err)));
    return;
  }
  if (asked !== panel.asked) return;
  panel.rows = rows;
  if (panel.ledger) fill(panel.ledger, ledgerTable(rows, tid));
}

/** @param {any[]} rows @param {string} tid */
function ledgerTable(rows, tid) {
  if (!rows.length) return h("p", { class: "muted" }, t("tickets.none"));
  return h("table", { class: "data ticket-table" },
    h("caption", {}, t("tickets.ledger")),
    h("thead", {}, h("tr", {}, ["id", "holder", "target", "value", "status", ""].map((k) =>
      h("th", { scope: "col" }, k ? t(`tickets.col.${k}`) : "")))),
    h("tbody", {}, rows.map((r) => h("tr", { dataset: { ticket: r.id, status: r.status } },
      h("td", {}, h("code", {}, r.id)),
      h("td", {}, r.name || r.holder || t("tickets.anyone")),
      h("td", {}, r.target === tid ? t("tickets.here") : r.target),
      h("td", { class: "num" }, fmt.number(r.value)),
      h("td", {}, r.held ? t("tickets.status.held") : t(`tickets.status.${r.status}`),
        r.used_by ? ` (${r.used_by})` : ""),
      h("td", {}, r.status === "issued" && !r.held ? [
        h("button", { type: "button", class: "ghost small", onclick: () => change("refund_ticket", r.id, tid) }, t("tickets.refund")),
        h("button", { type: "button", class: "ghost small", onclick: () => change("expire_ticket", r.id, tid) }, t("tickets.expire")),
      ] : null)))));
}

/** @param {string} type @param {string} ticket @param {string} tid */
async function change(type, ticket, tid) {
  if (!confirm(t(`tickets.confirm.${type}`, { ticket }))) return;
  try {
    await api("/api/tickets/commands", { method: "POST", body: { command: { type, ticket } } });
    toast(`✓ ${t(`tickets.done.${type}`, { ticket })}`, "ok");
  } catch (err) {
    toast(`✗ ${explainError(err)}`, "error", 8000);
  }
  readNow();
}

/** @param {Conn} conn @param {string} tid @param {Send} send */
function registerForm(conn, tid, send) {
  const ticketIn = h("input", { id: "ticket-use", required: true, autocapitalize: "none", autocomplete: "off", list: "ticket-free" });
  const nameIn = h("input", { id: "ticket-name", required: true, maxlength: 120 });
  const playerIn = h("input", { id: "ticket-player", maxlength: 64, autocapitalize: "none" });
  const free = h("datalist", { id: "ticket-free" });
  ticketIn.addEventListener("focus", () => fill(free, panel.rows
    .filter((r) => r.target === tid && r.status === "issued" && !r.held)
    .map((r) => h("option", { value: r.id }, r.name || r.holder || ""))));
  // A ticket bound to its holder enters that player: their id and name come with it.
  ticketIn.addEventListener("change", () => {
    const row = panel.rows.find((r) => r.id === ticketIn.value.trim());
    if (row?.holder && !playerIn.value) playerIn.value = row.holder;
    if (row?.name && !nameIn.value) nameIn.value = row.name;
  });
  return h("form", { class: "ticket-register", onsubmit: async (/** @type {SubmitEvent} */ ev) => {
    ev.preventDefault();
    /** @type {any} */
    const command = { type: "register", name: nameIn.value.trim(), ticket: ticketIn.value.trim() };
    if (playerIn.value.trim()) command.player = playerIn.value.trim();
    const sent = await send(command, t("tickets.register_label", { name: command.name, ticket: command.ticket }));
    if (sent.status === "done") {
      ticketIn.value = nameIn.value = playerIn.value = "";
    }
    // Refused too: the ticket held for it is given back.
    readNow();
  } },
  h("h3", {}, t("tickets.register")),
  h("div", { class: "row wrap" },
    field("ticket-use", t("tickets.ticket"), ticketIn), free,
    field("ticket-name", t("tickets.name"), nameIn),
    field("ticket-player", t("tickets.player"), playerIn)),
  h("button", { type: "submit" }, t("tickets.register_button")));
}

/** @param {string} tid */
function sellForm(tid) {
  const targetIn = h("input", { id: "sell-target", required: true, value: tid, autocapitalize: "none" });
  const valueIn = h("input", { id: "sell-value", type: "number", min: 0, required: true, inputmode: "numeric" });
  const holderIn = h("input", { id: "sell-holder", maxlength: 64, autocapitalize: "none" });
  const nameIn = h("input", { id: "sell-name", maxlength: 120 });
  const transferIn = h("input", { id: "sell-transferable", type: "checkbox" });
  return h("form", { class: "ticket-sell", onsubmit: async (/** @type {SubmitEvent} */ ev) => {
    ev.preventDefault();
    /** @type {any} */
    const command = { type: "sell_ticket", target: targetIn.value.trim(), value: Number(valueIn.value || 0),
      transferable: transferIn.checked, name: nameIn.value.trim() };
    if (holderIn.value.trim()) command.holder = holderIn.value.trim();
    try {
      const data = await api("/api/tickets/commands", { method: "POST", body: { command } });
      toast(`✓ ${t("tickets.sold", { ticket: data.ticket })}`, "ok");
      valueIn.value = holderIn.value = nameIn.value = "";
    } catch (err) {
      toast(`✗ ${explainError(err)}`, "error", 8000);
    }
    readNow();
  } },
  h("h3", {}, t("tickets.sell")),
  h("div", { class: "row wrap" },
    field("sell-target", t("tickets.target"), targetIn),
    field("sell-value", t("tickets.value"), valueIn),
    field("sell-holder", t("tickets.player"), holderIn),
    field("sell-name", t("tickets.name"), nameIn),
    h("div", { class: "field" }, h("label", {}, transferIn, " ", t("tickets.transferable_check")))),
  h("button", { type: "submit" }, t("tickets.sell_button")));
}
