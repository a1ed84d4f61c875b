// @ts-check
// The player panel: one player's management, on the director console and the floor phone,
// opened from a search result or a seat. The name corrected, special needs marked, the seat
// locked, a move by hand (the stack goes with the player), the entry withdrawn and refunded.
// Each is a command; its event is in the log and every screen folds it. The panel renders
// what the server says: whether an entry can be refunded now, why not, and what it pays back
// (the staff facts' `refund` and `bars`); a refusal is shown as the server gives it.
//
//   const manage = mountManage({ conn, send });   // send(command, label) -> outbox item
//   manage.button(playerId)                        // a "Manage" button that opens the panel
//   manage.open(playerId)

import { whyText } from "./facts.js";
import * as fmt from "./format.js";
import { onLang, t } from "./i18n.js";
import { outText } from "./milestone_console.js";
import { mount } from "./mount.js";
import { explainError, fill, h } from "./ui.js";
import { heldState } from "./conn.js";
/** @import { Command, Conn, Send } from "./types.js" */
/** @import { Player } from "./protocol.js" */

let styled = false;

/** The panel's stylesheet, once per page (the pages link only their own). */
function style() {
  if (styled) return;
  styled = true;
  document.head.append(h("link", { rel: "stylesheet", href: "/static/css/manage.css" }));
}

/** Where a player stands, as the panel says it.
 * @param {Player} p
 * @param {Conn} conn
 */
function standing(p, conn) {
  if (p.busted) return outText(p, conn);
  if (p.table == null) return t("player.no_seat_yet");
  return fmt.spot(p.table, p.seat);
}

/** Open tables and their empty seats (a seat planned for somebody else is refused by the
 * server, with the reason).
 * @param {Conn} conn
 * @param {Player} p
 */
function freeSeats(conn, p) {
  const out = [];
  for (const tb of Object.values(heldState(conn).tables)) {
    if (tb.status !== "open") continue;
    const seats = [];
    for (let seat = 1; seat <= tb.seats; seat += 1) if (!tb.occupants[seat]) seats.push(seat);
    if (seats.length) out.push({ table: tb.number, seats });
  }
  out.sort((a, b) => (a.table === p.table ? -1 : b.table === p.table ? 1 : a.table - b.table));
  return out;
}

/** @param {{ conn: Conn, send: Send, canManage?: () => boolean }} options */
export function mountManage({ conn, send, canManage = () => true }) {
  style();
  const dialog = h("dialog", { class: "manage-panel", "aria-labelledby": "manage-title" });
  document.body.append(dialog);
  const nameIn = h("input", { id: "manage-name", maxlength: 80, autocomplete: "off", spellcheck: "false" });
  const tableSel = h("select", { id: "manage-table" });
  const seatSel = h("select", { id: "manage-seat" });
  // The result of the last change, updated in place: a button is never swapped under a
  // finger for an answer (the panel is drawn again only when what it shows changes).
  const resultEl = h("p", { class: "manage-result", hidden: true });
  /** @type {{ pid: string | null, asking: "move" | "unregister" | null, result: { status: string, message: string } | null, lastName: string | null, gone?: string | null, drawn: string }} */
  const state = { pid: null, asking: null, result: null, lastName: null, drawn: "" };

  const close = () => {
    state.pid = null;
    if (dialog.open) dialog.close();
  };
  dialog.addEventListener("close", () => { state.pid = null; });
  // A tap on the backdrop (outside the panel's box) closes it, as Escape does.
  dialog.addEventListener("click", (ev) => { if (ev.target === dialog) close(); });

  /**
   * @param {Command} command
   * @param {string} label
   */
  async function act(command, label) {
    state.asking = null;
    state.result = { status: "pending", message: t("sale.sending") };
    render();
    const item = await send(command, label);
    state.result = {
      status: item.status,
      message: item.status === "done" ? `✓ ${label}`
        : item.status === "refused" ? explainError(item.error, conn)
          : item.status === "pending" ? t("race.queued") : t("floor.signin_again"),
    };
    showResult();
  }

  function showResult() {
    const r = state.result;
    resultEl.hidden = !r;
    if (!r) return resultEl;
    resultEl.className = `manage-result ${r.status === "refused" ? "error-text" : r.status === "done" ? "ok-text" : "muted"}`;
    resultEl.setAttribute("role", r.status === "refused" ? "alert" : "status");
    resultEl.textContent = r.message;
    return resultEl;
  }

  /** @param {Player} p */
  function nameSection(p) {
    // What is typed stays; the name on record comes in only while nobody is editing it.
    if (document.activeElement !== nameIn && state.lastName !== p.name) nameIn.value = p.name;
    state.lastName = p.name;
    return h("form", { class: "manage-section", onsubmit: (/** @type {SubmitEvent} */ ev) => {
      ev.preventDefault();
      const name = nameIn.value.trim();
      if (!name) return nameIn.focus();
      act({ type: "rename_player", player: p.id, name }, t("manage.renamed", { name }));
    } },
    h("div", { class: "field" }, h("label", { for: "manage-name" }, t("manage.name")),
      h("div", { class: "row manage-name-row" }, nameIn, h("button", { type: "submit", class: "primary" }, t("manage.save_name")))));
  }

  /** @param {Player} p */
  function flagsSection(p) {
    const needs = p.special_needs;
    return h("div", { class: "manage-section manage-flags" },
      h("div", { class: "manage-flag" },
        h("span", {}, h("strong", {}, t("director.special_needs")), ": ", t(needs ? "manage.yes" : "manage.no")),
        h("button", { type: "button", "aria-pressed": String(needs), onclick: () => act(
          { type: "set_special_needs", player: p.id, special_needs: !needs },
          t(needs ? "manage.needs_unmarked" : "manage.needs_marked", { name: p.name })) },
        t(needs ? "manage.unmark_needs" : "manage.mark_needs"))),
      p.table != null ? h("div", { class: "manage-flag" },
        h("span", {}, h("strong", {}, t("manage.seat_lock")), ": ", t(p.locked ? "manage.locked" : "manage.unlocked")),
        h("button", { type: "button", "aria-pressed": String(p.locked), onclick: () => act(
          { type: "lock_seat", player: p.id, locked: !p.locked },
          t(p.locked ? "manage.unlocked_label" : "manage.locked_label", { name: p.name })) },
        t(p.locked ? "manage.unlock" : "manage.lock"))) : null,
      p.table != null ? h("p", { class: "hint" }, t("manage.lock_hint")) : null);
  }

  /** @param {Player} p */
  function moveSection(p) {
    const tables = freeSeats(conn, p);
    if (!tables.length) {
      return h("div", { class: "manage-section" }, h("h3", {}, t("manage.move_title")), h("p", { class: "muted" }, t("manage.move_none")));
    }
    const keep = { table: Number(tableSel.value), seat: Number(seatSel.value) };
    fill(tableSel, tables.map((x) => h("option", { value: x.table, selected: x.table === keep.table },
      t("manage.table_free", { table: x.table, n: x.seats.length }))));
    const fillSeats = () => {
      const chosen = tables.find((x) => x.table === Number(tableSel.value)) || tables[0];
      fill(seatSel, chosen.seats.map((seat) => h("option", { value: seat, selected: seat === keep.seat }, t("floor.seat", { seat }))));
    };
    tableSel.onchange = () => { keep.seat = 0; fillSeats(); };
    fillSeats();
    const to = () => fmt.spot(Number(tableSel.value), Number(seatSel.value));
    const stack = fmt.stackCounted(p) || p.stack != null ? fmt.chips(p.stack) : null;
    const asking = state.asking === "move";
    return h("div", { class: "manage-section" }, h("h3", {}, t("manage.move_title")),
      h("div", { class: "row" },
        h("div", { class: "field" }, h("label", { for: "manage-table" }, t("manage.table")), tableSel),
        h("div", { class: "field" }, h("label", { for: "manage-seat" }, t("manage.seat")), seatSel),
        h("button", { type: "button", class: "manage-go", disabled: asking, onclick: () => { state.asking = "move"; render(); } }, t("manage.move"))),
      asking ? h("div", { class: "confirm-box manage-confirm", role: "alertdialog", "aria-label": t("manage.move_title") },
        h("p", {}, t(stack ? "manage.move_confirm" : "manage.move_confirm_chips", { name: p.name, from: fmt.spot(p.table, p.seat), to: to(), stack })),
        h("div", { class: "actions" },
          h("button", { type: "button", class: "primary big", onclick: () => act(
            { type: "correct_seat", player: p.id, table: Number(tableSel.value), seat: Number(seatSel.value) },
            t("manage.moved", { name: p.name, to: to() })) }, t("manage.move_yes")),
          h("button", { type: "button", class: "big", onclick: () => { state.asking = null; render(); } }, t("common.no")))) : null);
  }

  /**
   * @param {Player} p
   * @param {any} refund
   */
  function refundLines(p, refund) {
    const money = (/** @type {number} */ n) => fmt.money(n, heldState(conn).structure?.prize?.currency);
    if (refund?.entry == null) return [h("li", {}, t("manage.refund_none"))];
    const lines = [h("li", {}, t("manage.refund_entry", { money: money(refund.entry) }))];
    if (p.rebuys && refund.rebuy != null) lines.push(h("li", {}, t("manage.refund_rebuys", { n: p.rebuys, money: money(refund.rebuy) })));
    if (p.add_ons && refund.add_on != null) lines.push(h("li", {}, t("manage.refund_add_ons", { n: p.add_ons, money: money(refund.add_on) })));
    return lines;
  }

  /** @param {Player} p */
  function unregisterSection(p) {
    const refund = conn.staff?.refund;
    const barred = conn.staff?.bars?.[p.id]?.unregister;
    const closed = refund?.closed ? { ...refund.closed, params: { player: p.id, ...refund.closed.params } } : barred || null;
    const asking = state.asking === "unregister" && !closed;
    return h("div", { class: "manage-section manage-unregister" }, h("h3", {}, t("manage.unregister_title")),
      h("ul", { class: "manage-refund" }, refundLines(p, refund)),
      h("p", { class: "hint" }, t("manage.refund_hint")),
      closed ? h("p", { class: "manage-closed", id: "manage-closed" }, whyText(closed, conn)) : null,
      h("button", { type: "button", class: "danger", disabled: !!closed || asking, "aria-describedby": closed ? "manage-closed" : null,
        onclick: () => { state.asking = "unregister"; render(); } }, t("manage.unregister")),
      asking ? h("div", { class: "confirm-box manage-confirm", role: "alertdialog", "aria-label": t("manage.unregister_title") },
        h("p", {}, t("manage.unregister_confirm", { name: p.name })),
        h("div", { class: "actions" },
          h("button", { type: "button", class: "danger big", onclick: () => act(
            { type: "unregister", player: p.id }, t("manage.unregistered", { name: p.name })) }, t("manage.unregister_yes")),
          h("button", { type: "button", class: "big", onclick: () => { state.asking = null; render(); } }, t("common.no")))) : null);
  }

  function render() {
    if (!state.pid || !conn.state) return;
    const p = conn.state.players[state.pid];
    showResult();
    // Drawn again only when something it shows has changed (see resultEl).
    const key = JSON.stringify([p ?? null, state.asking, canManage(), conn.staff?.refund ?? null,
      conn.staff?.bars?.[state.pid]?.unregister ?? null, p && !p.busted ? freeSeats(conn, p) : null,
      document.documentElement.lang]);
    if (key === state.drawn && dialog.firstChild) return;
    state.drawn = key;
    const head = h("div", { class: "manage-head" },
      h("h2", { id: "manage-title" }, p ? p.name : state.gone || state.pid),
      h("button", { type: "button", class: "ghost manage-close", onclick: close }, t("manage.close")));
    if (!p) {
      // Unregistered (here or on another screen): the panel says so and has nothing to do.
      return fill(dialog, head, resultEl, h("p", { class: "muted" }, t("manage.gone")));
    }
    state.gone = p.name;
    const may = canManage();
    fill(dialog, head,
      h("p", { class: "manage-where" }, h("span", { class: "muted" }, p.id), " · ", h("strong", {}, standing(p, conn)),
        p.special_needs ? h("span", { class: "badge badge-balance" }, "♿ ", t("director.special_needs")) : null,
        p.locked ? h("span", { class: "badge" }, "🔒 ", t("manage.locked")) : null),
      resultEl,
      may ? nameSection(p) : null,
      may && !p.busted ? flagsSection(p) : null,
      may && !p.busted && p.table != null ? moveSection(p) : null,
      may && !p.busted ? unregisterSection(p) : null,
      may && p.busted ? h("p", { class: "muted" }, t("manage.out_note")) : null,
      may ? null : h("p", { class: "muted" }, t("manage.not_yours")));
  }

  /** @param {string} pid */
  function open(pid) {
    state.pid = pid;
    state.asking = null;
    state.result = null;
    state.lastName = null;
    state.gone = null;
    state.drawn = "";
    tableSel.value = "";
    render();
    if (!dialog.open) dialog.showModal();
  }

  mount(dialog, conn, () => {
    // Not under a finger: a select left open or a name being typed stays as it is.
    if (!state.pid || dialog.contains(document.activeElement) && !!document.activeElement?.matches("select")) return;
    render();
  }, { lang: false, now: false });
  onLang(render);

  /** @param {string} pid @param {{ label?: string }} [options] */
  function button(pid, { label } = {}) {
    const p = conn.state?.players?.[pid];
    return h("button", { type: "button", class: "small manage-open",
      "aria-label": t("manage.button_named", { name: p?.name ?? pid }), onclick: () => open(pid) },
    label || t("manage.button"));
  }

  return { open, close, button, render };
}
