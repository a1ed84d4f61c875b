// @ts-check
// The floor phone's moves tab: the plan's moves as cards (call, done, another seat, cancel,
// and why, with the rule), each keeping the place it first had in the list, then the moves
// carried out lately.

import { moveState } from "./board.js";
import { movesToday, redirectSeats } from "./facts.js";
import * as fmt from "./format.js";
import { t } from "./i18n.js";
import { h, icon, playerName, saidAs } from "./ui.js";

/** @import { Phone } from "./floor_phone.js" */
/** @import { Halt, PlannedMove } from "./protocol.js" */

/** The moves of `moves` with a player the floor has not called yet.
 * @param {any[]} moves */
export function uncalled(moves) {
  return moves.filter((mv) => mv.player && !mv.called).length;
}

/**
 * @param {Phone} phone
 * @param {{ whyBlock: (why: any, rule: any) => HTMLElement, toggleWhy: (key: string) => void }} why
 */
export function movesTab(phone, { whyBlock, toggleWhy }) {
  const { conn, ui, board, render, send, canMove } = phone;

  /** @param {PlannedMove} m */
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

  /** @param {PlannedMove} m */
  function moveCard(m) {
    const key = moveKey(m);
    const name = m.player ? playerName(conn, m.player) : t("move.next_bb", { table: m.from.table });
    const open = ui.openWhy.has(key);
    const halted = (conn.plan.halted || []).some((/** @type {Halt} */ x) => x.table === m.to.table);
    const r = ui.redirect && ui.redirect.key === key ? ui.redirect : null;
    const confirm = (/** @type {string} */ player, /** @type {number | null} */ seat) => {
      ui.redirect = null;
      // A called move goes elsewhere only by calling it again there: every screen shows that.
      const again = m.called && seat != null && seat !== m.to.seat;
      /** @type {{ type: string, player: string, seat?: number }} */
      const cmd = { type: again ? "call_move" : "confirm", player };
      if (seat != null) cmd.seat = seat;
      const to = fmt.spot(m.to.table, seat ?? m.to.seat);
      send(cmd, t(again ? "floor.call_label" : "floor.move_label", { name: playerName(conn, player), to }));
      render();
    };
    /** @type {HTMLElement | null} */
    let picker = null;
    if (r && r.pick === "player") {
      const tb = conn.state.tables[m.from.table];
      picker = h("div", { class: "picker" }, h("p", {}, t("floor.who_goes", { table: m.from.table })),
        h("div", { class: "seat-grid" }, Object.entries(tb?.occupants || {}).sort((a, b) => Number(a[0]) - Number(b[0])).map(([seat, pid]) =>
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
    const done = board.entries.filter((/** @type {any} */ e) => e.kind === "move" && e.reason !== "correction").slice(0, 5);
    return [
      h("h2", {}, t("floor.moves_title", { n: moves.length })),
      moves.length ? h("p", { class: "muted small" }, t("floor.call_hint")) : null,
      moves.length ? h("ul", { class: "move-list" }, moves.map(moveCard)) : h("p", { class: "empty" }, t("floor.no_moves")),
      done.length ? h("h3", {}, t("floor.done_lately")) : null,
      done.length ? h("ul", { class: "move-list done-list" }, done.map((/** @type {any} */ e) => h("li", { class: "done-card" },
        h("span", { class: "move-name" }, playerName(conn, e.player)), " ",
        h("span", { class: "move-route" }, fmt.spot(e.from.table, e.from.seat), " → ", h("strong", {}, fmt.spot(e.to.table, e.to.seat))), " ",
        h("span", { class: "badge badge-move-done" }, t("move.state.done"))))) : null,
    ];
  }


  return renderMoves;
}
