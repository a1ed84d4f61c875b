// @ts-check
// The floor phone's table tab: the pad to type a table, then the table: its seats (bust,
// button, call time, sales, the player panel), its next big blind and waiting players, the
// hand, the count and bag sheets, several out in one hand, the chip race offer, the rulings
// and the bust-outs that can be undone. Under the pad, the sheets kept on this phone.

import { tableViews } from "./conn.js";
import { bountyOf, winnerPicker } from "./bounty_pick.js";
import { allDrafts } from "./drafts.js";
import { colourUp } from "./chiprace.js";
import { singleCount } from "./counts.js";
import { levelNumber, undoable } from "./facts.js";
import * as fmt from "./format.js";
import { floorPanel as handForHandPanel } from "./h4h.js";
import { t } from "./i18n.js";
import { pairButton } from "./pairing.js";
import { cardLink } from "./print_links.js";
import { seatCardScanner } from "./seatcard_scan.js";
import { h, playerName, saidAs, toast } from "./ui.js";

/** @import { Phone } from "./floor_phone.js" */
/** @import { Player } from "./protocol.js" */

/**
 * @param {Phone} phone
 * @param {{ saleBlock: (p: any) => HTMLElement | null }} parts
 */
export function tableTab(phone, { saleBlock }) {
  const { conn, tid, ui, render, send, canMove, openRule, ruleFor, openTable, openRace } = phone;
  const { race, sameHand, countSheet, bagSheet, rulings, manage } = phone.tools;
  // A player's digital seat card read by the phone's camera, at the table open (or any).
  const scanner = seatCardScanner(tid, () => ui.table);

  function keypad() {
    const press = (/** @type {string} */ k) => {
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

  /** The winners of the pot, for a bounty tournament's bust-out (bounty_pick.js).
   * @param {number} table
   * @param {string} out
   * @param {(pids: string[]) => void} bust */
  function pickWinners(table, out, bust) {
    if (ui.bountyFor !== out) {
      ui.bountyFor = out;
      ui.bountySplit = false;
      ui.bountyPicked = new Set();
    }
    return winnerPicker({
      state: conn.state, table, busted: [out], split: ui.bountySplit, picked: ui.bountyPicked,
      name: (p) => playerName(conn, p),
      onSplit: (on) => { ui.bountySplit = on; ui.bountyPicked.clear(); render(); },
      onToggle: (p) => { if (!ui.bountyPicked.delete(p)) ui.bountyPicked.add(p); render(); },
      onPick: (pids) => { ui.bountyFor = null; bust(pids); },
    });
  }

  function tableView() {
    const s = conn.state;
    const tb = ui.table == null ? null : s.tables[ui.table];
    if (!tb) {
      ui.table = null;
      return keypad();
    }
    const view = tableViews(conn).find((v) => v.table === tb.number);
    const seatEl = (/** @type {number} */ seat) => {
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
    /** @type {import("./ui.js").Child} */
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
      const bust = (/** @type {string[]} */ eliminators) => {
        ui.confirmBust = null;
        // The player is named with the seat: a late resend from the outbox is refused if
        // somebody else sits there by then, instead of busting them.
        send({ type: "bust", player: pid, table: tb.number, seat: ui.seat, eliminators }, t("floor.bust_label", { name, where }));
        ui.seat = null;
        render();
      };
      // A bounty tournament: the tap on the seat that won the pot is the confirmation.
      const pick = bountyOf(s) ? pickWinners(tb.number, pid, bust) : null;
      actions = h("div", { class: "confirm-box", role: "alertdialog", "aria-label": t("floor.bust_confirm_title") },
        h("p", {}, t("floor.bust_confirm", { name, where })),
        pick,
        h("div", { class: "actions" },
          pick ? null : h("button", { type: "button", class: "danger big", onclick: () => bust([]) }, t("floor.bust_yes")),
          h("button", { type: "button", class: "big", onclick: () => { ui.confirmBust = null; render(); } }, t("common.no"))));
    } else if (ui.seat != null) {
      actions = h("div", { class: "seat-actions" },
        h("p", { class: "selected-seat" }, where, name ? ` · ${name}` : ` · ${t("floor.empty")}`),
        h("div", { class: "actions" },
          h("button", { type: "button", class: "danger big", disabled: !pid, onclick: () => { ui.confirmBust = pid; render(); } }, t("floor.bust")),
          h("button", { type: "button", class: "big", disabled: !pid,
            onclick: () => send({ type: "button", table: tb.number, seat: ui.seat }, t("floor.button_label", { where })) }, t("floor.report_button")),
          phone.principal.role !== "dealer" ? h("button", { type: "button", class: "warn big", disabled: !pid,
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
    const undo = undoable(conn, tb.number).map((/** @type {any} */ u) => ({ ...u, p: s.players[u.player] })).filter((/** @type {any} */ u) => u.p);
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
      undo.length && phone.principal.role !== "dealer" ? h("div", { class: "undo card" }, h("h3", {}, t("floor.undo_title")),
        undo.map((/** @type {any} */ u) => undoRow(u))) : null);
  }

  /** A hand dealt before the level went up finishes at the old blinds (the new level applies
   * from the next hand): say so while the server's table view says the table is in that hand.
   * @param {any} s
   * @param {any} view
   */
  function oldLevelInfo(s, view) {
    const i = view?.oldStep;
    const step = i == null ? null : s.structure?.levels?.[i];
    if (!step) return null;
    return h("p", { class: "badge badge-paused old-level" },
      t("floor.old_level", { n: levelNumber(conn, i), blinds: fmt.blinds(step) }));
  }

  /** The next big blind and the players waiting for it, as the server's table view has them.
   * @param {any} tb
   * @param {any} view
   */
  function positionsInfo(tb, view) {
    if (!view) return null;
    const seatOf = (/** @type {string} */ pid) => conn.state.players[pid]?.seat;
    const bb = view.nextBigBlind;
    const waiting = view.waiting || [];
    if (bb == null && !waiting.length) return null;
    return h("div", { class: "positions" },
      bb != null ? h("p", { class: "next-bb" }, h("span", { class: "label" }, t("floor.next_bb")), " ",
        h("strong", {}, playerName(conn, bb)), ` (${t("floor.seat", { seat: seatOf(bb) ?? "–" })})`) : null,
      waiting.length ? h("div", { class: "waiting" },
        h("p", {}, h("span", { class: "label" }, t("floor.waiting_players", { n: waiting.length })), " ",
          waiting.map((/** @type {string} */ pid, /** @type {number} */ i) => [i ? ", " : "", h("strong", {}, playerName(conn, pid)), ` (${t("floor.seat", { seat: seatOf(pid) ?? "–" })})`])),
        h("button", { type: "button", class: "link-button", onclick: () => openRule(ruleFor("waiting")) },
          t("floor.why_waiting"))) : null);
  }

  /** At a colour-up break: race this table's leaving chips.
   * @param {any} tb
   */
  function raceOffer(tb) {
    const setup = colourUp(conn);
    if (!setup || !setup.atBreak || !canMove()) return null;
    const raced = (conn.state.chip_races || []).some((/** @type {any} */ r) => r.table === tb.number && setup.going.includes(r.result.leaving));
    return h("div", { class: "actions race-offer" }, h("button", { type: "button", class: raced ? "ghost" : "primary",
      onclick: () => {
        if (raced) {
          race.table = tb.number;
          race.shown = { table: tb.number, leaving: (conn.state.chip_races || []).filter((/** @type {any} */ r) => r.table === tb.number).pop().result.leaving };
          openRace();
        } else openRace(tb.number);
      } }, raced ? t("race.show_result") : t("race.at_table", { table: tb.number, chips: setup.going.map(fmt.chips).join(", ") })));
  }

  /** @param {{ p: Player, table: number, until: number | null, level?: number | null }} undo */
  function undoRow({ p, table, until, level }) {
    const input = h("input", { id: `undo-${p.id}`, value: t("floor.undo_default"), maxlength: 500 });
    return h("form", { class: "undo-row", onsubmit: (/** @type {SubmitEvent} */ ev) => {
      ev.preventDefault();
      const reason = input.value.trim() || t("floor.undo_default");
      send({ type: "undo_bust", player: p.id, reason }, t("floor.undo_label", { name: p.name }));
    } },
    h("label", { for: `undo-${p.id}` }, t("floor.undo_reason", { name: p.name, where: fmt.spot(p.bust?.table, p.bust?.seat) }),
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
      ui.table == null ? [keypad(), draftsList()] : tableView(), canMove() ? scanner.el : null];
  }

  // Sheets kept on this phone (drafts.js) ------------------------------------------------------------

  /** Open the sheet a draft was typed on, with what was typed.
   * @param {any} d
   */
  function openDraft(d) {
    if (!conn.state?.tables?.[d.table] || !canMove()) return;
    ui.seat = null;
    ui.confirmBust = null;
    if (d.sheet === "race") {
      phone.tab = "tools";
      ui.tool = "race";
      race.start(d.table);
    } else {
      phone.tab = "table";
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

  return renderTable;
}
