// @ts-check
// Finding a player, on every screen that searches the field (the player screen, the floor
// phone, the director console): the server's search, best matches first, with how many match
// in all; the copy of the state here when the server cannot be reached (the server's own
// ranking, facts.js); and the line that says how many matched and how many are shown.

import { searchPlayers } from "./facts.js";
import * as fmt from "./format.js";
import { t } from "./i18n.js";
import { api, h } from "./ui.js";
/** @import { Conn } from "./types.js" */

/** `{query, total, players, offline}` for `q`: the server's answer, or the copy's (a screen
 * drops an answer whose `query` is no longer what is typed: answers may come out of order).
 * @param {Conn} conn
 * @param {string} tid
 * @param {string} q
 */
export async function findPlayersNow(conn, tid, q) {
  try {
    const found = await api(`/api/t/${encodeURIComponent(tid)}/players?q=${encodeURIComponent(q)}`);
    // Said as typed here: what the screen compares with what is in the box now.
    return { ...found, query: q, offline: false };
  } catch (err) {
    return { ...searchPlayers(conn, q), offline: true };
  }
}

/** "63 players match “novak” — showing 20; type more to narrow", or null with no match
 * (the screens say "nobody found" their own way).
 * @param {any} found
 */
export function countLine(found) {
  if (!found || !found.total) return null;
  const shown = found.players.length;
  const key = shown < found.total ? "search.count_some" : "search.count_all";
  return h("p", { class: "search-count", role: "status" },
    t(key, { n: found.total, count: fmt.number(found.total), shown: fmt.number(shown), q: found.query }));
}
