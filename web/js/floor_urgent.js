// @ts-check
// The floor phone's urgent strip, above every tab: a break (with its colour-up), the halted
// and breaking tables, the time calls counting down. On the moves tab each is a card with its
// actions; elsewhere one line sums them up (the pad and the search keep the screen). The rule
// behind a halt or a move opens in full from here (`whyBlock`).

import { breakName, timeCalls } from "./clockview.js";
import { tableViews } from "./conn.js";
import * as fmt from "./format.js";
import { t, why as whyText } from "./i18n.js";
import { api, every, fill, h } from "./ui.js";
import { uncalled } from "./floor_moves.js";

/** @import { Phone } from "./floor_phone.js" */
/** @import { PlannedMove } from "./protocol.js" */

/**
 * @param {Phone} phone
 * @param {HTMLElement} urgentEl
 */
export function urgentStrip(phone, urgentEl) {
  const { conn, ui, render, send, canMove, openRule, openTable, openRace } = phone;

  function renderUrgent() {
    if (!conn.state) return fill(urgentEl);
    const views = tableViews(conn);
    const cards = [];
    const m = fmt.clockModel(conn);
    if (m && m.onBreak) {
      cards.push(h("div", { class: "urgent-card break" },
        h("strong", {}, h("span", { class: "badge badge-break" }, breakName(m.current)), " ",
          fmt.clock(m.left)),
        m.colorUp.length ? h("div", { class: "color-up" }, t("clock.color_up", { chips: m.colorUp.map(fmt.chips).join(", ") })) : null,
        m.colorUp.length && canMove() && !(phone.tab === "tools" && ui.tool === "race") ? h("div", { class: "actions" },
          h("button", { type: "button", class: "primary", onclick: () => openRace() }, t("race.open"))) : null));
    }
    for (const halt of conn.plan.halted || []) {
      const key = `halt-${halt.table}`;
      cards.push(h("div", { class: "urgent-card halted" },
        h("button", { type: "button", class: "urgent-main", "aria-expanded": String(ui.openWhy.has(key)),
          onclick: () => toggleWhy(key) },
        h("span", { class: "badge badge-halted" }, t("status.halted")), " ",
        h("strong", {}, t("floor.halted_table", { table: halt.table, n: halt.short }))),
        ui.openWhy.has(key) ? whyBlock(halt.why, halt.rule) : null,
        h("div", { class: "actions" },
          h("button", { type: "button", onclick: () => openTable(halt.table) }, t("floor.open_table", { table: halt.table })))));
    }
    for (const v of views.filter((x) => x.status === "breaking")) {
      const moves = (conn.plan.moves || []).filter((/** @type {PlannedMove} */ mv) => mv.from.table === v.table);
      const ready = moves.filter((/** @type {PlannedMove} */ mv) => mv.player && mv.to.seat != null).length;
      cards.push(h("div", { class: "urgent-card breaking" },
        h("div", {}, h("span", { class: "badge badge-breaking" }, t("status.breaking")), " ",
          h("strong", {}, t("floor.breaking_table", { table: v.table, n: v.players }))),
        // Nobody is lost from sight: a player the other tables have no seat for yet (a bust-out
        // undone meanwhile) waits at the breaking table until a seat frees (FLOOR-RULES 10.4).
        v.players > moves.length ? h("p", { class: "why small" }, t("floor.breaking_waiting", { n: v.players - moves.length })) : null,
        ready > 1 && canMove() ? h("div", { class: "actions" },
          uncalled(moves) ? h("button", { type: "button", class: "primary",
            onclick: () => send({ type: "call_all", reason: moves[0].reason }, t("floor.call_all_label", { table: v.table })) },
          t("floor.call_all", { n: uncalled(moves) })) : null,
          h("button", { type: "button", class: "ok",
            onclick: () => send({ type: "confirm_all", reason: moves[0].reason }, t("floor.all_done_label", { table: v.table })) },
          t("floor.all_done", { n: ready }))) : null));
    }
    for (const c of timeCalls(conn).filter((/** @type {any} */ x) => x.phase !== "over")) {
      cards.push(h("div", { class: `urgent-card timecall ${c.phase}` },
        h("div", {}, h("strong", {}, t("timecall.title")), " ", t("timecall.where", { table: c.table, seat: c.seat }),
          c.name ? ` · ${c.name}` : "", " ",
          h("strong", { class: "tc-left", dataset: { table: c.table, seat: c.seat } },
            c.phase === "count" ? String(Math.ceil(c.left)) : fmt.clock(c.left)), " ",
          h("span", { class: "tc-phase" }, t(c.phase === "count" ? "timecall.counting" : "timecall.minute"))),
        h("div", { class: "actions" },
          h("button", { type: "button", class: "ok", onclick: () => send({ type: "end_time_call", table: c.table, seat: c.seat, outcome: "acted" },
            t("floor.acted_label", { table: c.table, seat: c.seat })) }, t("floor.acted")),
          h("button", { type: "button", onclick: () => send({ type: "end_time_call", table: c.table, seat: c.seat, outcome: "cancelled" },
            t("floor.stop_label", { table: c.table, seat: c.seat })) }, t("floor.stop_call")))));
    }
    if (phone.tab !== "moves" && cards.length) {
      // Elsewhere a one-line summary: the table pad and search keep the screen.
      const halted = (conn.plan.halted || []).length;
      const breaking = views.filter((x) => x.status === "breaking").length;
      const calls = timeCalls(conn).filter((/** @type {any} */ x) => x.phase !== "over").length;
      const parts = [
        m && m.onBreak ? t("clock.break") : null,
        halted ? t("floor.sum_halted", { n: halted }) : null,
        breaking ? t("floor.sum_breaking", { n: breaking }) : null,
        calls ? t("floor.sum_calls", { n: calls }) : null,
      ].filter(Boolean);
      return fill(urgentEl, h("button", { type: "button", class: "urgent-summary", onclick: () => { phone.tab = "moves"; render(); } },
        h("span", { "aria-hidden": "true" }, "⚠ "), parts.join(" · "), h("span", { class: "go" }, t("floor.show"))));
    }
    fill(urgentEl, cards.length ? h("h2", { class: "sr-only" }, t("floor.urgent")) : null, cards);
  }

  // in the reader's language; while that is not available, the citation the plan carries.
  const ruleTexts = new Map();

  /** @param {string | null | undefined} rule */
  function ruleText(rule) {
    if (!rule || !conn.state) return null;
    const set = conn.state.rules.rulebook || "tda-2024";
    const lang = document.documentElement.lang === "cs" ? "cs" : "en";
    const key = `${set}/${rule}/${lang}`;
    if (!ruleTexts.has(key)) {
      ruleTexts.set(key, undefined);
      api(`/api/rulebook/${encodeURIComponent(rule)}?set=${encodeURIComponent(set)}&lang=${lang}`)
        .then((r) => { ruleTexts.set(key, r && r.text ? r : null); render(); })
        .catch(() => ruleTexts.set(key, null));
    }
    return ruleTexts.get(key) || null;
  }

  /**
   * @param {string} why
   * @param {string | null | undefined} rule
   */
  function whyBlock(why, rule) {
    const full = ruleText(rule);
    return h("div", { class: "why" }, h("p", { class: "why-cite" }, whyText(why)),
      full ? h("p", { class: "why-rule" }, full.title ? h("strong", {}, `${full.title}: `) : null, full.text) : null,
      rule ? h("button", { type: "button", class: "link-button why-open", onclick: () => openRule(rule) }, t("floor.open_rule")) : null);
  }

  /** @param {string} key */
  function toggleWhy(key) {
    if (ui.openWhy.has(key)) ui.openWhy.delete(key);
    else ui.openWhy.add(key);
    render();
  }

  // The time call counts down between events: the minute, then the ten-second count; when the
  // count is over the card goes (the server's clock driver ends the call a moment later).
  let callPhases = "";
  every(250, () => {
    const calls = timeCalls(conn);
    const phases = calls.map((/** @type {any} */ c) => `${c.table}.${c.seat}.${c.phase}`).join("|");
    if (phases !== callPhases) {
      callPhases = phases;
      if (phone.principal.role !== "public") renderUrgent();
      return;
    }
    for (const el of urgentEl.querySelectorAll(".tc-left")) {
      if (!(el instanceof HTMLElement)) continue;
      const c = calls.find((/** @type {any} */ x) => String(x.table) === el.dataset.table && String(x.seat) === el.dataset.seat);
      if (c) el.textContent = c.phase === "count" ? String(Math.ceil(c.left)) : fmt.clock(c.left);
    }
  });

  return { render: renderUrgent, whyBlock, toggleWhy };
}
