// @ts-check
// The money on the screens: the moment the bubble bursts, and a player's own place and prize.
//
// The server says when the bubble burst and until when the room is told so
// (`facts.in_the_money`, floor/engine/money.py); each screen shows a banner until then, counted
// on the server's clock. A phone following one player is sent their place and prize once they
// are out or have won (`me.finish`).

import * as fmt from "./format.js";
import { t } from "./i18n.js";
import { mount } from "./mount.js";
import { every, fill, h } from "./ui.js";
/** @import { Conn } from "./types.js" */

/** The bubble's bursting while the room is still told of it; null before and after.
 * @param {Conn} conn
 */
export function moneyMoment(conn) {
  const m = conn.facts?.in_the_money;
  return m && conn.nowSec() < m.until ? m : null;
}

/** A banner that shows itself while the moment lasts. `onStart(moment)` is called once per
 * bursting seen live (a sound, a buzz), not for one already under way when the page opened.
 * @param {any} conn
 * @param {{ cls?: string, onStart?: ((moment: any) => void) | null }} [options] */
export function moneyBanner(conn, { cls = "", onStart = null } = {}) {
  const el = h("div", { class: `money-banner ${cls}`.trim(), role: "status", hidden: true });
  let shown = "";
  /** @type {number | null} */
  let heard = null;
  const draw = () => {
    const m = moneyMoment(conn);
    const key = m ? `${m.at}|${m.places}|${document.documentElement.lang}` : "";
    if (key === shown) return;
    shown = key;
    el.hidden = !m;
    if (!m) return fill(el);
    fill(el, h("strong", { class: "money-title" }, t("money.title")), " ",
      h("span", { class: "money-text" }, t("money.text", { n: m.places })));
    if (onStart && heard !== m.at) {
      heard = m.at;
      // A page that opens during the moment shows it without its fanfare.
      if (conn.nowSec() - m.at < 5) onStart(m);
    }
  };
  // The key holds the language: a change of language redraws through it.
  mount(el, conn, draw);
  every(1000, draw);
  return el;
}

/** A finished player's line under their place: "Winner · prize €480", "3rd–4th shared ·
 * prize €60", "no prize"; "" when there is nothing to add (no prize settings, out).
 * @param {any} finish
 */
export function finishText(finish) {
  if (!finish) return "";
  // A satellite's seat (at its end or its milestone): the seat is the prize.
  if (finish.seat) return t("milestone.finish_seat", { prize: fmt.money(finish.prize ?? 0, finish.currency) });
  const parts = [];
  if (finish.place === 1 && finish.tied === 1) parts.push(t("finish.winner"));
  if (finish.tied > 1) {
    parts.push(t("money.shared", { from: fmt.ordinal(finish.place), to: fmt.ordinal(finish.place + finish.tied - 1) }));
  }
  if (finish.prize) parts.push(t("money.prize", { prize: fmt.money(finish.prize, finish.currency) }));
  else if (finish.prize === 0) parts.push(t("money.unpaid"));
  return parts.join(" · ");
}
