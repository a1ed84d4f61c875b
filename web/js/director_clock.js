// @ts-check
// The director console's clock: the clock as the screens show it, the end of the tournament
// under it (endbox.js), and its controls: start, pause, resume, a minute more or less, the
// next or last step, a jump to any step (asked first).

import { breakName, clockPanel } from "./clockview.js";
import { endBox } from "./endbox.js";
import { levelNumber } from "./facts.js";
import { ending } from "./finished.js";
import * as fmt from "./format.js";
import { t } from "./i18n.js";
import { fill, h, icon } from "./ui.js";

/** @import { Desk } from "./director_desk.js" */
/** @import { Command } from "./types.js" */

/** @param {Desk} desk */
export function clockSection(desk) {
  const { conn, tid, sections, heading, send } = desk;
  const clockBox = h("div", { class: "clock-box" });
  const clockControls = h("div", { class: "clock-controls" });
  // The winner, the undo of the last bust-outs and the close (endbox.js), under the clock.
  const endEl = conn ? endBox(conn, (command, label) => send(command, label)) : null;
  /** @type {ReturnType<typeof clockPanel> | null} */
  let clockView = null;
  let clockKey = "";

  function renderClock() {
    const el = sections.clock;
    if (!conn || !conn.state) {
      clockKey = "";
      return fill(el, heading("clock", "director.clock"), h("p", { class: "muted" }, tid ? t("clock.waiting") : t("director.pick_tournament")));
    }
    const s = conn.state;
    const c = s.clock;
    if (!clockView) clockView = clockPanel(clockBox, conn, { stats: true });
    if (!el.contains(clockBox)) fill(el, heading("clock", "director.clock"), endEl, clockBox, clockControls);
    // The controls change only with the clock's state (a select left open is not redrawn).
    const end = ending(conn);
    const key = JSON.stringify([c.level, c.running, c.started, end?.status ?? null, document.documentElement.lang]);
    if (key === clockKey) return;
    clockKey = key;
    // Stopped by the last bust-out: nothing to steer until an undo makes it live again.
    if (end) return fill(clockControls);
    if (!s.structure) return fill(clockControls, h("p", { class: "muted" }, t("clock.no_structure")));
    const steps = s.structure.levels;
    const minutes = (/** @type {any} */ st) => fmt.number(st.minutes, st.minutes % 1 ? 1 : 0);
    const stepText = (/** @type {number} */ i) => {
      const st = steps[i];
      return st.type === "break" ? breakName(st) : `${t("clock.level", { n: levelNumber(conn, i) })} · ${fmt.blinds(st)}`;
    };
    const stepSel = h("select", { id: "clock-to" }, steps.map((/** @type {any} */ st, /** @type {number} */ i) => h("option", { value: i, selected: i === c.level },
      `${i + 1}. ${stepText(i)} (${minutes(st)} min)`)));
    fill(clockControls,
      h("div", { class: "actions" },
        !c.started ? h("button", { type: "button", class: "ok big", onclick: () => send({ type: "clock_start" }, t("director.clock_start")) }, icon("▶"), t("director.clock_start"))
          : c.running ? h("button", { type: "button", class: "warn big", onclick: () => send({ type: "clock_pause" }, t("director.clock_pause")) }, icon("❚❚"), t("director.clock_pause"))
            : h("button", { type: "button", class: "ok big", onclick: () => send({ type: "clock_resume" }, t("director.clock_resume")) }, icon("▶"), t("director.clock_resume")),
        h("button", { type: "button", onclick: () => send({ type: "clock_adjust", seconds: -60 }, t("director.minus_minute")) }, t("director.minus_minute")),
        h("button", { type: "button", onclick: () => send({ type: "clock_adjust", seconds: 60 }, t("director.plus_minute")) }, t("director.plus_minute"))),
      h("div", { class: "actions" },
        h("button", { type: "button", disabled: c.level <= 0, onclick: () => send({ type: "clock_level", step: -1 }, t("director.prev_level")) }, icon("◀"), t("director.prev_level")),
        h("button", { type: "button", disabled: c.level >= steps.length - 1, onclick: () => send({ type: "clock_level", step: 1 }, t("director.next_level")) }, t("director.next_level"), icon("▶"))),
      h("form", { class: "row", onsubmit: (/** @type {SubmitEvent} */ ev) => {
        ev.preventDefault();
        const to = Number(stepSel.value);
        // The jump restarts the step's time on every screen: asked first, saying from where to where.
        const now = conn.state.clock.level;
        if (!confirm(t("director.go_to_confirm", { from: `${now + 1}. ${stepText(now)}`, to: `${to + 1}. ${stepText(to)}`,
          minutes: minutes(steps[to]) }))) return;
        send({ type: "clock_level", to }, t("director.go_to_step", { n: to + 1 }));
      } }, h("div", { class: "field" }, h("label", { for: "clock-to" }, t("director.go_to")), stepSel),
      h("button", { type: "submit" }, t("director.go"))));
  }

  return renderClock;
}
