// @ts-check
// The director console's tables and plan: each table with its status, the break now (where
// the other tables have a seat for everybody there, else why not), the halt waived, a table
// opened, the final table started; then the planned moves and the halts, with their reasons.

import { moveState } from "./board.js";
import { tableViews } from "./conn.js";
import { breakRoom, whyText as factText } from "./facts.js";
import * as fmt from "./format.js";
import { directorControl } from "./h4h.js";
import { t, why as whyText } from "./i18n.js";
import { fill, h, playerName } from "./ui.js";

/** @import { Desk } from "./director_desk.js" */
/** @import { Halt, PlannedMove } from "./protocol.js" */

/** @param {Desk} desk */
export function tablesSection(desk) {
  const { conn, sections, heading, send } = desk;

  const tablesHead = h("div", {});
  const finalBox = h("div", { class: "actions" });
  const tablesGrid = h("div", { class: "table-grid" });
  const openSeats = h("input", { id: "open-seats", type: "number", min: 2, max: 12, inputmode: "numeric" });
  /** @type {HTMLFormElement | null} */
  let openFormEl = null;
  let openFormLang = "";

  function openForm() {
    if (!openFormEl || openFormLang !== document.documentElement.lang) {
      openFormLang = document.documentElement.lang;
      openFormEl = h("form", { class: "row inline", onsubmit: (/** @type {SubmitEvent} */ ev) => {
        ev.preventDefault();
        /** @type {import("./protocol.js").OpenTable} */
        const cmd = { type: "open_table" };
        if (openSeats.value) cmd.seats = Number(openSeats.value);
        send(cmd, t("director.open_table"));
      } }, h("div", { class: "field" }, h("label", { for: "open-seats" }, t("director.open_seats")), openSeats),
      h("button", { type: "submit" }, t("director.open_table")));
    }
    return openFormEl;
  }

  function renderTables() {
    const el = sections.tables;
    if (!conn || !conn.state) return fill(el, heading("tables", "director.tables"));
    const s = conn.state;
    const views = tableViews(conn).filter((v) => v.status !== "broken");
    const broken = tableViews(conn).length - views.length;
    // The open-table form stays in place (moving a focused input would drop the focus).
    if (!el.contains(tablesGrid) || openFormLang !== document.documentElement.lang) {
      fill(el, tablesHead, h("div", { class: "actions" }, finalBox, openForm()), tablesGrid);
    }
    fill(tablesHead, heading("tables", "director.tables", t("director.tables_count", { n: views.length, broken })));
    fill(finalBox,
      directorControl(conn, send),
      s.final_table == null && s.drawn ? h("button", { type: "button", class: "warn",
        disabled: !!conn.staff?.start_final, title: conn.staff?.start_final ? factText(conn.staff.start_final, conn) : null, onclick: () => {
        if (confirm(t("director.final_confirm"))) send({ type: "start_final" }, t("director.start_final"));
      } }, t("director.start_final")) : null,
      s.final_table != null ? h("span", { class: "badge badge-final" }, t("director.final_at", { table: s.final_table })) : null);
    fill(tablesGrid, views.map((v) => {
        const tb = s.tables[v.table];
        const cannot = v.status === "open" || v.status === "halted" ? unbreakableWhy(v) : null;
        const whyId = `break-why-${v.table}`;
        return h("div", { class: "dtable", dataset: { status: v.status } },
          h("div", { class: "dtable-head" }, h("strong", {}, t("spot.table_only", { table: v.table })),
            v.status !== "open" ? h("span", { class: `badge badge-${v.status}` }, t(`status.${v.status}`)) : null,
            v.final ? h("span", { class: "badge badge-final" }, t("wall.tag.final")) : null),
          h("div", { class: "muted" }, t("director.table_players", { n: v.players, seats: v.seats }),
            tb.halt_waived ? ` · ${t("director.halt_waived")}` : ""),
          v.halt ? h("p", { class: "why small" }, whyText(v.halt.why)) : null,
          h("div", { class: "actions" },
            v.status === "open" || v.status === "halted" ? h("button", { type: "button", class: "small",
              // Offered where the server says the other tables have a seat for everybody here;
              // where not, why not is written under the button (a greyed button alone says nothing).
              disabled: !!cannot, "aria-describedby": cannot ? whyId : null, title: cannot ? factText(cannot, conn) : null, onclick: () => {
              if (confirm(t("director.break_confirm", { table: v.table }))) send({ type: "break_table", table: v.table }, t("director.break_label", { table: v.table }));
            } }, t("director.break_now")) : null,
            v.status === "halted" || tb.halt_waived ? h("button", { type: "button", class: "small", onclick: () =>
              send({ type: "waive_halt", table: v.table, waived: !tb.halt_waived }, t(tb.halt_waived ? "director.unwaive_label" : "director.waive_label", { table: v.table })) },
            t(tb.halt_waived ? "director.unwaive" : "director.waive")) : null),
          cannot ? h("p", { class: "break-why small", id: whyId }, factText(cannot, conn)) : null);
    }));
  }

  /** Why table `v` cannot be broken now, as the server would refuse it (the staff facts'
   * `unbreakable`: the free seats at the other tables), or null when it can be.
   * @param {any} v
   * @returns {import("./protocol.js").Why | null}
   */
  function unbreakableWhy(v) {
    const room = breakRoom(conn, v.table);
    if (room == null) return null;
    // The server lists every table while only one is open (the last one cannot be broken).
    const open = Object.values(conn.state.tables).filter((x) => x.status === "open").length;
    return open < 2 ? { reason: "last_table", params: { table: v.table } }
      : { reason: "break_no_room", params: { room, players: v.players } };
  }

  // The plan ----------------------------------------------------------------------------------------

  function renderPlan() {
    const el = sections.plan;
    if (!conn || !conn.state) return fill(el, heading("plan", "director.plan"));
    const moves = conn.plan.moves || [];
    const reasons = [...new Set(moves.map((/** @type {PlannedMove} */ m) => m.reason))];
    fill(el, heading("plan", "director.plan", t("floor.moves_title", { n: moves.length })),
      reasons.length ? h("div", { class: "actions" }, reasons.map((r) => h("button", { type: "button", class: "small", onclick: () =>
        send({ type: "confirm_all", reason: r }, t(`director.confirm_all.${r}`)) },
      t(`director.confirm_all.${r}`)))) : null,
      // The list scrolls: reached by the keyboard too, named by the section's heading.
      moves.length ? h("ul", { class: "moves-list", tabindex: "0", "aria-labelledby": "h-plan" }, moves.slice(0, 40).map((/** @type {PlannedMove} */ m) => h("li", { class: "move-row" },
        h("div", { class: "who" }, m.player ? playerName(conn, m.player) : t("move.next_bb", { table: m.from.table })),
        h("div", { class: "route" }, fmt.spot(m.from.table, m.from.seat), h("span", { class: "arrow", "aria-hidden": "true" }, "→"),
          h("span", { class: "sr-only" }, ` ${t("wall.to")} `), h("span", { class: "to" }, fmt.spot(m.to.table, m.to.seat))),
        h("div", { class: "meta" }, h("span", { class: `badge badge-${m.reason}` }, t(`reason.${m.reason}`)),
          h("span", { class: `badge badge-move-${moveState(m)}` }, t(`move.state.${moveState(m)}`)), h("span", {}, whyText(m.why))))))
        : h("p", { class: "muted" }, t("floor.no_moves")),
      (conn.plan.halted || []).length ? h("div", {}, h("h3", {}, t("director.halts")),
        h("ul", {}, conn.plan.halted.map((/** @type {Halt} */ x) => h("li", {}, t("floor.halted_table", { table: x.table, n: x.short }), " — ", whyText(x.why))))) : null);
  }

  return { renderTables, renderPlan };
}
