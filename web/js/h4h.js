// @ts-check
// Hand-for-hand as the screens show it: the server's facts (floor/engine/hand_for_hand.py,
// `conn.facts.hand_for_hand`), rendered, never decided here.
//
// - `wallPanel(conn)`: the wall's panel, large: the hand number and the tables still playing
//   it, or "deal now" once every table has reported.
// - `directorControl(conn, send)`: the console's start and end, and its suggestion when the
//   players left are one from the money (`conn.staff.hand_for_hand_due`).
// - `tableStep(conn, table)`: what one table does now: "deal", "playing", "done" or null.

import { t } from "./i18n.js";
import { mount } from "./mount.js";
import { fill, h, playerName } from "./ui.js";
/** @import { Conn, Send } from "./types.js" */

/** The hand-for-hand facts, or null while it is not on.
 * @param {Conn} conn
 * @returns {import("./protocol.js").HandForHandFacts | null}
 */
export function handForHand(conn) {
  return conn.facts?.hand_for_hand ?? null;
}

/** What table `n` does in the hand-for-hand hand: "deal", "playing", "done"; null: not on.
 * @param {Conn} conn
 * @param {number} n
 */
export function tableStep(conn, n) {
  const f = handForHand(conn);
  return f ? f.tables?.[n] ?? null : null;
}

/** Every table waits to deal: the round has just been dealt.
 * @param {import("./protocol.js").HandForHandFacts} f
 */
function dealing(f) {
  const steps = Object.values(f.tables || {});
  return steps.length > 0 && steps.every((x) => x === "deal");
}

/** @param {import("./protocol.js").HandForHandFacts} f */
function clockLine(f) {
  return f.seconds_per_hand ? t("h4h.clock_per_hand", { seconds: f.seconds_per_hand }) : t("h4h.clock_stopped");
}

/** @param {Conn} conn */
export function wallPanel(conn) {
  const el = h("section", { class: "h4h-wall", "aria-live": "polite", hidden: true });
  let last = "";
  const draw = () => {
    const f = handForHand(conn);
    const key = f ? JSON.stringify(f) + document.documentElement.lang : "";
    if (key === last) return;
    last = key;
    el.hidden = !f;
    document.body.classList.toggle("h4h-on", !!f);
    if (!f) return fill(el);
    const deal = dealing(f);
    el.dataset.step = deal ? "deal" : "playing";
    el.setAttribute("aria-label", t("h4h.title"));
    const out = (f.out || []).map((o) => playerName(conn, o.player));
    fill(el,
      h("div", { class: "h4h-head" },
        h("span", { class: "h4h-title" }, t("h4h.title")),
        h("strong", { class: "h4h-hand", dataset: { round: f.round } }, t("h4h.hand", { n: f.round }))),
      deal
        ? h("p", { class: "h4h-deal" }, t("h4h.deal_now"))
        : h("div", { class: "h4h-playing" },
          h("span", { class: "h4h-label" }, t("h4h.still_playing")),
          h("ul", { class: "h4h-tables" }, f.waiting_for.map((n) => h("li", { dataset: { table: n } }, String(n))))),
      out.length ? h("p", { class: "h4h-out" }, `${t("h4h.out")}: ${out.join(", ")}`) : null,
      h("p", { class: "h4h-meta" }, f.paid ? `${t("h4h.left", { left: f.left, paid: f.paid })} · ` : "", clockLine(f)));
  };
  mount(el, conn, draw);
  return el;
}

/**
 * @param {Conn} conn
 * @param {Send} send
 */
export function directorControl(conn, send) {
  const f = handForHand(conn);
  if (f) {
    return h("span", { class: "h4h-control" },
      h("span", { class: "badge badge-h4h" }, `${t("h4h.title")} · ${t("h4h.hand", { n: f.round })}`),
      " ",
      h("button", { type: "button", class: "warn", onclick: () => {
        if (confirm(t("h4h.end_confirm"))) send({ type: "end_hand_for_hand" }, t("h4h.end"));
      } }, t("h4h.end")));
  }
  const due = !!conn.staff?.hand_for_hand_due;
  if (!conn.state?.drawn || conn.state.final_table != null) return null;
  return h("span", { class: "h4h-control" },
    due ? h("span", { class: "badge badge-warn h4h-due", role: "status" }, t("h4h.due")) : null,
    " ",
    h("button", { type: "button", class: due ? "warn" : "", onclick: () => {
      if (confirm(t("h4h.start_confirm"))) send({ type: "start_hand_for_hand" }, t("h4h.start"));
    } }, t("h4h.start")));
}

/** The floor phone's table view during hand-for-hand: what the table does now, its report
 * with nobody out, and its table screen for a report with players out.
 * @param {Conn} conn
 * @param {string} tid
 * @param {number} table
 * @param {Send} send
 */
export function floorPanel(conn, tid, table, send) {
  const step = tableStep(conn, table);
  const f = handForHand(conn);
  if (!step || !f) return null;
  const text = { deal: "table.h4h_deal", playing: "table.h4h_playing", done: "table.h4h_wait" }[step];
  return h("div", { class: `h4h-floor h4h-floor-${step}`, role: "status" },
    h("p", {}, h("strong", {}, `${t("h4h.title")} · ${t("h4h.hand", { n: f.round })}`), " · ", t(text)),
    step !== "done" ? h("div", { class: "actions" },
      h("button", { type: "button", class: "big ok", onclick: () => send({ type: "hand_done", table, out: [] },
        `${t("h4h.table", { table })}: ${t("table.send_done_none")}`) }, t("table.send_done_none")),
      h("a", { class: "button big", href: `/table/${encodeURIComponent(tid)}/${table}` }, t("table.bust")))
      : h("p", { class: "muted" }, t("table.h4h_wait_for", { tables: f.waiting_for.join(", ") })));
}
