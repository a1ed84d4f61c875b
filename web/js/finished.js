// @ts-check
// The end of the tournament as every screen says it: "Finished — winner: NAME", or "Closed"
// once the director has closed it. The status and the winner are the server's derived facts
// (floor/engine/finish.py): a screen says what they say and decides nothing.

import { t } from "./i18n.js";
import { mount } from "./mount.js";
/** @import { Conn } from "./types.js" */

/** {status: "finished" | "closed", winner: {player, name, at, closed_at}} once the tournament
 * has its winner, null while it is live.
 * @param {Conn} conn
 */
export function ending(conn) {
  const f = conn?.facts;
  if (!f || !f.status || f.status === "live" || !f.winner) return null;
  return { status: f.status, winner: f.winner };
}

/** "Finished — winner: Jana Nováková" in the reader's language; "" while live.
 * @param {Conn} conn
 */
export function endingText(conn) {
  const end = ending(conn);
  return end ? t(`finish.banner.${end.status}`, { name: end.winner.name }) : "";
}

/** The banner under a screen's top bar: hidden while the tournament is live.
 * @param {Conn} conn
 */
export function finishBanner(conn) {
  const el = document.createElement("div");
  el.className = "finish-banner";
  el.setAttribute("role", "status");
  el.hidden = true;
  const render = () => {
    const end = ending(conn);
    el.hidden = !end;
    el.dataset.status = end ? end.status : "live";
    el.textContent = end ? endingText(conn) : "";
    document.body.classList.toggle("is-finished", !!end);
  };
  mount(el, conn, render);
  return el;
}
