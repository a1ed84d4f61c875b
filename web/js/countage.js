// @ts-check
// A chip count with its age: when it was counted, and whether it is old. The server says which
// counts are old and why (floor/engine/count_age.py): the chip leaders carry it
// ([player, stack, at, old]) and each table's view its players' (`old_counts`, `oldCounts` in
// conn.js `tableViews`); nothing here decides it.

import * as fmt from "./format.js";
import { t } from "./i18n.js";
import { h } from "./ui.js";

/** Why the count of player `pid` is old ("level", "bust"), or null: `view` is their table's
 * (conn.js `tableViews`).
 * @param {any} view
 * @param {string} pid
 */
export function oldCount(view, pid) {
  return view?.oldCounts?.[pid] ?? null;
}

/** "counted 14:05", and for an old count why ("old: the level changed since"): an element of
 * its own (`cls` its class), marked old. `short`: the time alone and "old" (a column of the
 * wall's chip counts); `recount`: an old count with its time alone and "Recount" (the final
 * table, whose head says why).
 * @param {number | null | undefined} at
 * @param {string | null | undefined} old
 * @param {{ cls?: string, recount?: boolean, short?: boolean }} options
 */
export function countAge(at, old, { cls = "count-age", recount = false, short = false } = {}) {
  if (!at && !old) return null;
  const brief = short || (recount && !!old);
  const time = at ? (brief ? fmt.timeOfDay(at) : t("count.age", { time: fmt.timeOfDay(at) })) : null;
  return h("span", { class: `${cls}${old ? " old" : ""}`, dataset: old ? { old } : null },
    time,
    old && !recount ? h("span", { class: "count-old" }, time ? " · " : "", t(short ? "count.old_short" : `count.old.${old}`)) : null,
    old && recount ? h("span", { class: "badge badge-recount" }, t("count.recount")) : null);
}
