// @ts-check
// The dealer room's words shared by its screen (dealers.js), the table screens
// (table_dealers.js) and a dealer's phone (dealer.js): a time of the rotation, a table named
// with its tournament, and where a dealer goes next ("push at 14:30, go to table 42"). What
// is said is the server's plan (floor/engine/house/rotation_plan.py); this only words it.

import * as fmt from "./format.js";
import { t } from "./i18n.js";

/**
 * A dealer's next move, as the server plans it.
 * @typedef {{leaves: number|null, to: "table"|"break"|"home"|"pool"|"off",
 *   tournament: string|null, table: number|null, arrives: number|null, until: number|null}} Next
 */

/**
 * A time of the rotation: with seconds when pushes come faster than every two minutes.
 * @param {number|null|undefined} at epoch seconds
 * @param {number} pushEvery the room's seconds between pushes
 * @returns {string}
 */
export function when(at, pushEvery) {
  if (at == null) return "";
  return fmt.timeOfDay(at, pushEvery < 120);
}

/**
 * A table, with its tournament when the room runs more than one.
 * @param {string|null} tournament
 * @param {number|null} table
 * @param {(id: string) => string} [nameOf] the tournament's name
 * @returns {string}
 */
export function tableName(tournament, table, nameOf) {
  if (table == null) return "";
  const n = t("dealers.table_n", { table });
  return tournament && nameOf ? `${n} · ${nameOf(tournament)}` : n;
}

/**
 * Where a dealer goes next, in words: "push at 14:30, go to table 42 (14:35)".
 * @param {Next|null|undefined} next
 * @param {number} pushEvery
 * @param {(id: string) => string} [nameOf]
 * @returns {string}
 */
export function nextText(next, pushEvery, nameOf) {
  if (!next) return t("dealers.next_none");
  const leaving = next.leaves != null ? t("dealers.push_at", { time: when(next.leaves, pushEvery) }) : "";
  let going = "";
  if (next.to === "table") {
    const where = tableName(next.tournament, next.table, nameOf);
    // Straight on from a push, or from a break's end: the time needs no saying again.
    const straight = next.arrives === (next.until ?? next.leaves);
    going = next.arrives != null && !straight
      ? t("dealers.go_to_at", { table: where, time: when(next.arrives, pushEvery) })
      : t("dealers.go_to", { table: where });
    if (next.until != null) going = `${t("dealers.break_until", { time: when(next.until, pushEvery) })}, ${going}`;
  } else if (next.to === "break") {
    going = t("dealers.break_until", { time: when(next.until, pushEvery) });
  } else if (next.to === "home") {
    going = t("dealers.go_home");
  } else if (next.to === "off") {
    going = t("dealers.go_off");
  } else {
    going = t("dealers.to_pool");
  }
  return leaving ? `${leaving}, ${going}` : going;
}

/**
 * A dealer's status in words.
 * @param {string} status
 * @param {string|null} [mark]
 * @returns {string}
 */
export function statusText(status, mark) {
  if (mark) return t(`dealers.mark_${mark}`);
  return t(`dealers.status_${status}`);
}
