// @ts-check
// A milestone satellite in the director console's satellite panel (tickets_console.js): the
// chips that win a seat, the seated players whose latest count reached them, each with a
// one-tap award, and the seats won so far.
//
// Whether a player reached the milestone is the server's (floor/engine/milestone.py, sent as
// the staff facts' `milestone`); this file renders it and sends `award_seat`.

import * as fmt from "./format.js";
import { t } from "./i18n.js";
import { h, playerName } from "./ui.js";
/** @import { Conn, Send } from "./types.js" */

/** The milestone's part of the satellite panel (nothing for any other tournament).
 * @param {Conn} conn @param {any} s the state shown @param {Send} send @returns {HTMLElement[]} */
export function milestoneStatus(conn, s, send) {
  const m = /** @type {any} */ (conn.staff)?.milestone;
  if (!m) return [];
  /** @type {HTMLElement[]} */
  const out = [h("p", { class: "milestone-rule" }, t("milestone.rule", { chips: fmt.number(m.milestone) }))];
  if (m.awarded.length) {
    out.push(h("p", { class: "milestone-won" }, t("milestone.won", { n: m.awarded.length }), ": ",
      m.awarded.map((/** @type {string} */ pid) => playerName(conn, pid)).join(", ")));
  }
  if (s.satellite_end) return out;
  if (!m.reached.length) {
    out.push(h("p", { class: "muted milestone-none" }, t("milestone.none_reached")));
    return out;
  }
  out.push(h("h3", {}, t("milestone.reached")));
  out.push(h("ul", { class: "milestone-reached" }, m.reached.map((/** @type {string} */ pid) => {
    const name = playerName(conn, pid);
    const chips = fmt.number(s.players?.[pid]?.stack ?? 0);
    return h("li", { dataset: { player: pid } },
      h("span", { class: "name" }, name), " · ",
      h("span", { class: "num" }, t("milestone.stack", { chips })), " ",
      h("button", { type: "button", class: "primary small", onclick: () => {
        if (!confirm(t("milestone.confirm", { name, chips }))) return;
        send({ type: "award_seat", player: pid }, t("milestone.award_label", { name }));
      } }, t("milestone.award")));
  })));
  return out;
}

/** Where a player who left stands, as a list says it: a seat won at the milestone (the
 * server's `bust.seat_won`), or the place they were out in: among everybody, as the results
 * say it (the staff facts' `milestone.places`, where a seat won before moved it down).
 * @param {any} p a player of the state @param {Conn | null} [conn] */
export function outText(p, conn = null) {
  if (p?.bust?.seat_won) return t("milestone.seat_won");
  return t("player.busted_place", { place: fmt.ordinal(placeOf(p, conn) ?? 0) });
}

/** The place a busted player was out in, among everybody (see `outText`); null if none.
 * @param {any} p a player of the state @param {Conn | null} conn @returns {number | null} */
export function placeOf(p, conn) {
  return /** @type {any} */ (conn?.staff)?.milestone?.places?.[p?.id] ?? p?.bust?.place ?? null;
}
