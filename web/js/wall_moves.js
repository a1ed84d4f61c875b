// @ts-check
// The wall's seat changes: the moves page (every called move, then the board of what was
// done) and the latest changes under the clock, which are never pushed out of sight.

import { calledMoves } from "./board.js";
import { tableViews } from "./conn.js";
import * as fmt from "./format.js";
import { t } from "./i18n.js";
import { fill, h, playerName } from "./ui.js";
import { narrow, trimToFit } from "./wall_fit.js";

/** @typedef {{ table?: number, seat?: number | null }} Spot */
/** @typedef {{ name: string | null, from?: Spot, to: Spot, reason?: string, pending?: boolean, at?: number, whyText?: string }} Row */

/** @param {Row} row */
function moveRow({ name, from, to, reason, pending, at, whyText: why }) {
  return h("li", { class: `move-row${pending ? " pending" : ""}` },
    h("div", { class: "who" }, name),
    h("div", { class: "route" }, fmt.spot(from?.table, from?.seat), h("span", { class: "arrow", "aria-label": t("wall.to") }, "→"),
      h("span", { class: "to" }, to.seat == null ? fmt.spot(to.table, null) : fmt.spot(to.table, to.seat))),
    h("div", { class: "meta" },
      h("span", { class: `badge badge-${reason}` }, t(`reason.${reason}`)),
      pending ? h("span", { class: "badge badge-paused" }, t("wall.go_now")) : null,
      at ? h("span", {}, fmt.timeOfDay(at / 1000)) : null,
      why ? h("span", { class: "why" }, why) : null));
}

/**
 * The moves page: the called moves, then the board (the latest first), as many as fit.
 * @param {{ conn: any, board: any }} options
 */
export function movesPage({ conn, board }) {
  const head = h("div", { class: "page-head" });
  const body = h("div", { class: "wall-moves" });
  const el = h("section", { class: "page page-moves", dataset: { page: "moves" } }, head, body);

  /** @param {number} limit */
  const pendingRows = (limit) => calledMoves(conn).slice(0, limit).map((/** @type {any} */ m) => moveRow({
    name: m.player ? playerName(conn, m.player) : t("move.next_bb", { table: m.from.table }),
    from: m.from, to: m.to, reason: m.reason, pending: true,
  }));

  /** What a board entry's text names: a table, or a player and where their move goes.
   * @param {any} e */
  const boardParams = (e) => ({ table: e.table, name: e.player ? playerName(conn, e.player) : "", where: fmt.spot(e.table, e.seat) });

  /** @param {number} limit */
  const doneRows = (limit) => board.entries.slice(0, limit).map((/** @type {any} */ e) => {
    if (e.kind === "move") {
      return moveRow({ name: playerName(conn, e.player), from: e.from, to: e.to, reason: e.reason, at: e.at });
    }
    return h("li", { class: "move-row event-row" },
      h("div", { class: "who" }, t(`board.${e.kind}`, boardParams(e))),
      h("div", { class: "route" }, ""),
      h("div", { class: "meta" }, e.at ? fmt.timeOfDay(e.at / 1000) : ""));
  });

  function render() {
    if (!conn.state) return;
    const pending = calledMoves(conn);
    const breaking = tableViews(conn).filter((/** @type {any} */ v) => v.status === "breaking").map((/** @type {any} */ v) => v.table);
    fill(head, h("h2", {}, t("wall.page.moves")), h("span", { class: "spot-legend" }, t("wall.spot_legend")),
      breaking.length ? h("p", { class: "breaking-note" }, h("span", { class: "badge badge-breaking" }, t("status.breaking")), " ",
        t("wall.breaking_tables", { tables: breaking.join(", ") })) : null);
    const room = 26;
    const p = pendingRows(Math.min(pending.length, 14));
    const d = doneRows(Math.max(0, room - p.length));
    fill(body,
      p.length ? h("section", { class: "moves-section" }, h("h3", {}, t("wall.pending", { n: pending.length })),
        h("ul", { class: "moves-list" }, p)) : null,
      h("section", { class: "moves-section" }, h("h3", {}, t("wall.recent")),
        d.length ? h("ul", { class: "moves-list" }, d) : h("p", { class: "muted" }, t("wall.no_changes"))));
    if (!narrow() && !el.hidden) trimToFit(body);
  }

  return { el, render };
}

/** The latest changes keep at least this many rows in sight (a colour-up or a time call
 * under the clock takes room: the clock is drawn smaller then). */
const LATEST_MIN = 3;
/** Called moves under the clock; more are counted on a last line (the seat changes page lists
 * them all). */
const CALLED_MAX = 6;

/**
 * @typedef {object} Neighbours what the latest changes make room against, in the left column
 * @property {HTMLElement} left the column: its `data-tight` draws the clock smaller
 * @property {{ fit(): void }} clock
 * @property {HTMLElement & { refit(): void, whole: boolean }} sitOuts they give way first
 */

/** The latest few changes, always on screen under the clock: every called move first (players
 * are looking for their seats), then the moves made. Nothing below pushes them away: the box
 * keeps the room of those rows, the sit-outs under it give way.
 * @param {{ conn: any, board: any }} options */
export function latestChanges({ conn, board }) {
  const el = h("section", { class: "wall-latest", "aria-label": t("wall.latest") });
  /** @type {Neighbours | null} */
  let around = null;

  /** The height of the box down to its `keep`-th row (its heading alone at 0).
   * @param {number} keep */
  function keptHeight(keep) {
    const rows = el.querySelectorAll(".latest-list li");
    const last = keep > 0 ? rows[Math.min(keep, rows.length) - 1] : el.firstElementChild;
    if (!last) return 0;
    const style = getComputedStyle(el);
    return Math.ceil(last.getBoundingClientRect().bottom - el.getBoundingClientRect().top
      + parseFloat(style.paddingBottom) + parseFloat(style.borderBottomWidth));
  }

  function render() {
    if (!conn.state || !around) return;
    const { left, clock, sitOuts } = around;
    const called = calledMoves(conn);
    /** @type {Row[]} */
    const pending = called.slice(0, CALLED_MAX).map((/** @type {any} */ m) => ({
      name: m.player ? playerName(conn, m.player) : t("move.next_bb", { table: m.from.table }),
      from: m.from, to: m.to, pending: true,
    }));
    /** @type {Row[]} */
    const done = board.entries.filter((/** @type {any} */ e) => e.kind === "move").slice(0, Math.max(0, 8 - pending.length))
      .map((/** @type {any} */ e) => ({ name: playerName(conn, e.player), from: e.from, to: e.to }));
    const more = called.length - pending.length;
    const moreRow = more > 0 ? h("li", { class: "pending-more" }, t("wall.more_called", { n: more })) : null;
    /** @param {Row} r */
    const row = (r) => h("li", { class: r.pending ? "pending" : "" },
      h("span", { class: "who" }, r.name),
      h("span", { class: "route" }, fmt.spot(r.from?.table, r.from?.seat), " → ",
        h("strong", {}, fmt.spot(r.to.table, r.to.seat))));
    const count = pending.length + done.length + (moreRow ? 1 : 0);
    const draw = () => fill(el, h("h2", {}, t("wall.latest")), count
      ? h("ul", { class: "latest-list" }, pending.map(row), moreRow, done.map(row))
      : h("p", { class: "muted" }, t("wall.no_changes")));
    el.style.minHeight = "";
    draw();
    if (narrow()) {
      sitOuts.refit();
      return;
    }
    // Every called move shown stays, and a few rows more when there is room: roomy first, then
    // smaller clock digits, the sit-outs giving way last.
    const keep = Math.max(pending.length + (moreRow ? 1 : 0), Math.min(LATEST_MIN, count));
    for (const level of [0, 1, 2]) {
      left.dataset.tight = String(level);
      // The digits' size follows the tighter style at once: the rows are measured against it.
      clock.fit();
      el.style.minHeight = "";
      if (level) draw();
      el.style.minHeight = `${keptHeight(keep)}px`;
      sitOuts.refit();
      if (trimToFit(el, keep) && sitOuts.whole) break;
    }
  }

  /** Fit against the column once it is built. @param {Neighbours} neighbours */
  function placeIn(neighbours) {
    around = neighbours;
  }

  return { el, render, placeIn };
}
