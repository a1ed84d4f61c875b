// @ts-check
// The clock panel every screen shows (big on the wall, smaller elsewhere), counting down
// locally from `ends_at` corrected by the server's clock, refreshed four times a second.

import { getLang, has, onLang, t } from "./i18n.js";
import { clockFitter } from "./clockfit.js";
import { timeCalls as callsAt } from "./facts.js";
import { ending } from "./finished.js";
import * as fmt from "./format.js";
import { every, fill, h } from "./ui.js";
import { heldState } from "./conn.js";
/** @import { Conn } from "./types.js" */

/** A break's name in the reader's language: a standard name ("Break 2", "Dinner break",
 * "Colour-up") from the language files, any other name as the structure gives it.
 * @param {any} step
 */
export function breakName(step) {
  const name = step?.name?.trim();
  if (!name) return t("clock.break");
  if (getLang() === "en") return name;
  const words = name.toLowerCase().replace(/colour/g, "color").replace(/[^a-z0-9]+/g, " ").trim();
  const numbered = words.match(/^break (\d+)$/);
  if (numbered) return t("break.numbered", { n: Number(numbered[1]) });
  const key = `break.name.${words.replace(/ /g, "_")}`;
  return has(key) ? t(key) : name;
}

/**
 * Render the clock into `root`. Options: `stats` (players left, average stack), `compact`.
 * Returns {refresh()} to call after a change (the countdown refreshes itself) and {fit()} to
 * call after the style's size of the digits changed (clockfit.js).
 * @param {HTMLElement} root
 * @param {Conn} conn
 * @param {{ stats?: boolean, compact?: boolean }} options
 */
export function clockPanel(root, conn, { stats = true, compact = false } = {}) {
  root.classList.add("clock-panel");
  if (compact) root.classList.add("compact");
  const levelEl = h("div", { class: "clock-level" });
  const timeEl = h("div", { class: "clock-time", role: "timer", "aria-live": "off" });
  const noteEl = h("div", { class: "clock-note" });
  const nowEl = h("div", { class: "clock-blinds" });
  const anteEl = h("div", { class: "clock-ante" });
  const nextEl = h("div", { class: "clock-next" });
  const breakEl = h("div", { class: "clock-break" });
  const statsEl = h("dl", { class: "clock-stats" });
  fill(root, levelEl, timeEl, noteEl, nowEl, anteEl, nextEl, breakEl, stats ? statsEl : null);
  const fit = clockFitter(timeEl, root);

  let lastStatic = "";
  const refresh = () => {
    const m = fmt.clockModel(conn);
    if (!m) {
      fill(levelEl, conn.state ? t("clock.no_structure") : t("clock.waiting"));
      timeEl.textContent = "–:––";
      fit();
      return;
    }
    timeEl.textContent = fmt.clock(m.left);
    fit();
    root.dataset.phase = m.onBreak ? "break" : "level";
    root.dataset.running = String(m.running);
    root.classList.toggle("ending", m.running && m.left != null && m.left <= 60 && !m.last);
    const pieces = [];
    // The parts that change only with an event are rebuilt only then (screen readers, speed).
    const end = ending(conn);
    const key = JSON.stringify([m.index, m.running, m.started, m.game, conn.stats, m.toBreak == null,
      end?.status ?? null, conn.state?.day_ended?.at ?? null, document.documentElement.lang]);
    if (key === lastStatic) return;
    lastStatic = key;
    if (m.onBreak) {
      fill(levelEl, h("span", { class: "badge badge-break" }, breakName(m.current)));
    } else {
      fill(levelEl, t("clock.level", { n: m.number }),
        m.game && heldState(conn).rules.game === "mixed" ? h("span", { class: "clock-game" }, ` · ${fmt.gameName(m.game)}`) : null);
    }
    // The clock stopped with the last bust-out: said as the end, not as a pause.
    const dayOver = conn.state?.day_ended ?? null;
    if (end) pieces.push(t(end.status === "closed" ? "finish.closed" : "finish.finished"));
    // A flight's day over (bag and tag): the clock stopped with it, not paused by anyone.
    else if (dayOver) pieces.push(t("clock.day_ended", { level: dayOver.level }));
    else if (!m.started) pieces.push(t("clock.not_started"));
    else if (!m.running) pieces.push(t("clock.paused"));
    // A stopped clock is said big (the digits go grey as well): nobody reads a frozen time as
    // time left.
    fill(noteEl, pieces.length ? h("span", { class: `badge badge-paused clock-stopped${m.started ? " paused" : ""}` }, pieces.join(" · ")) : null);
    if (m.onBreak) {
      fill(nowEl, m.colorUp.length
        ? h("span", { class: "color-up" }, t("clock.color_up", { chips: m.colorUp.map(fmt.chips).join(", ") }))
        : t("clock.break_rest"));
      fill(anteEl, m.colorUp.length
        ? t("clock.in_play_after", { chips: (m.chipsAfter || []).map(fmt.chips).join(", ") }) : "");
    } else {
      fill(nowEl, h("span", { class: "label" }, t("clock.blinds")), " ", h("strong", {}, fmt.blinds(m.current)));
      fill(anteEl, fmt.anteText(m.current));
    }
    if (m.next) {
      const n = m.next;
      const nextText = [t("clock.level", { n: n.number }), fmt.blinds(n.step), fmt.anteText(n.step)]
        .filter(Boolean).join(" · ");
      fill(nextEl, h("span", { class: "label" }, t("clock.next")), " ",
        !m.onBreak && n.breakFirst ? `${breakName(n.breakFirst.step)} → ` : "", nextText);
    } else {
      fill(nextEl, m.last ? t("clock.last_level") : "");
    }
    if (!m.onBreak && m.toBreak != null) {
      fill(breakEl, h("span", { class: "label" }, t("clock.break_in")), " ",
        h("strong", { class: "break-count" }, fmt.clock(m.toBreak)));
    } else {
      fill(breakEl, "");
    }
    if (end) {
      // Nothing comes next once the tournament has its winner.
      fill(nextEl, "");
      fill(breakEl, "");
    }
    if (stats) renderStats(statsEl, conn, m);
  };
  // The break countdown ticks too: keep it current without rebuilding the rest.
  const tick = () => {
    refresh();
    const m = fmt.clockModel(conn);
    const el = breakEl.querySelector(".break-count");
    if (m && el) el.textContent = fmt.clock(m.toBreak);
  };
  every(250, tick);
  onLang(() => {
    lastStatic = "";
    refresh();
  });
  return { refresh: () => { lastStatic = ""; refresh(); }, fit };
}

/**
 * @param {HTMLElement} el
 * @param {Conn} conn
 * @param {any} m
 */
export function renderStats(el, conn, m) {
  const s = conn.stats;
  if (!s) return;
  const end = ending(conn);
  const rows = [
    [t("stats.players"), h("span", {}, h("strong", {}, fmt.number(s.players_left)), " / ", fmt.number(s.entries))],
    // With one player left the average is every chip: the winner is said instead (defect 1).
    end ? [t("finish.winner"), h("strong", { class: "stat-winner" }, end.winner.name)]
      : [t("stats.average"), h("span", {}, h("strong", {}, fmt.chips(s.average_stack)),
        m && m.averageBB != null ? h("span", { class: "sub" }, fmt.bb(m.averageBB)) : null)],
    [t("stats.tables"), fmt.number(s.tables_in_play)],
  ];
  // The prize pool, when the structure has prize settings (stats.prize_pool, stats.currency).
  if (s.prize_pool != null) {
    rows.push([t("stats.prize_pool"), h("span", {}, h("strong", {}, fmt.money(s.prize_pool, s.currency)),
      s.places_paid ? h("span", { class: "sub" }, t("stats.places_paid", { n: s.places_paid })) : null)]);
  }
  fill(el, rows.map(([k, v]) => h("div", { class: "stat" }, h("dt", {}, k), h("dd", {}, v))));
}

/** Time calls as shown now: the minute, then the ten-second count in red (the phases the
 * server sends, facts.js).
 * @param {Conn} conn
 */
export function timeCalls(conn) {
  return callsAt(conn, conn.nowSec());
}
