// @ts-check
// What the room must not miss on the wall: the time calls counting down in the left column
// (under the clock, never over the map), and the cues (a new level, a break, the last minute,
// a time call) with a sound when switched on and a banner across the top bar.

import { breakName, timeCalls } from "./clockview.js";
import { levelNumber } from "./facts.js";
import { ending } from "./finished.js";
import * as fmt from "./format.js";
import { t } from "./i18n.js";
import { watchCues } from "./sound.js";
import { every, fill, h, playerName } from "./ui.js";

/**
 * The time calls running, each with its table, seat, player and what is left.
 * @param {{ conn: any, left: HTMLElement, onToggle: () => void }} options `left`: the column,
 * marked `calling` while one runs; `onToggle`: a call came or went (the column refits)
 */
export function timeCallsPanel({ conn, left, onToggle }) {
  const el = h("aside", { class: "time-calls", "aria-live": "assertive", "aria-label": t("wall.time_calls"), hidden: true });
  let lastCalls = "";
  every(200, () => {
    const calls = timeCalls(conn).filter((/** @type {any} */ c) => c.phase !== "over");
    const key = calls.map((/** @type {any} */ c) => `${c.table}.${c.seat}.${c.phase}.${Math.ceil(c.left)}`).join("|") + document.documentElement.lang;
    if (key === lastCalls) return;
    lastCalls = key;
    const was = !el.hidden;
    el.hidden = !calls.length;
    left.classList.toggle("calling", calls.length > 0);
    fill(el, calls.map((/** @type {any} */ c) => h("div", { class: `time-call ${c.phase}` },
      h("div", { class: "tc-title" }, t("timecall.title")),
      h("div", { class: "tc-where" }, t("timecall.where", { table: c.table, seat: c.seat }),
        c.name ? h("span", { class: "tc-name" }, ` · ${c.name}`) : null),
      h("div", { class: "tc-count" }, c.phase === "count" ? String(Math.ceil(c.left)) : fmt.clock(c.left)),
      h("div", { class: "tc-phase" }, t(c.phase === "count" ? "timecall.counting" : "timecall.minute")))));
    if (was !== calls.length > 0) onToggle();
  });
  return el;
}

/** How long a banner stays up. */
const CUE_MS = 10000;

/** Restart a CSS animation on `el` (a second cue while the first still flashes).
 * @param {HTMLElement} el @param {string} cls */
function flash(el, cls) {
  el.classList.remove(cls);
  void el.offsetWidth;
  el.classList.add(cls);
}

/**
 * The banner of the cues, for the top bar; the clock flashes with it.
 * @param {{ conn: any, sound: { play(kind: string): boolean }, clock: HTMLElement }} options
 */
export function cueBanner({ conn, sound, clock }) {
  const el = h("div", { class: "cue-banner", role: "alert", hidden: true });
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;

  /** @param {any} cue */
  function cueText(cue) {
    const step = conn.state?.structure?.levels?.[cue.step];
    switch (cue.kind) {
      case "level":
        return [t("cue.level", { n: levelNumber(conn, cue.step), blinds: fmt.blinds(step) }), fmt.anteText(step)]
          .filter(Boolean).join(" · ");
      case "break":
        // Whole minutes pick the plural; a fraction of one is written in the reader's way.
        return t("cue.break", { name: breakName(step), n: Number.isInteger(step?.minutes) ? step.minutes : fmt.number(step?.minutes ?? 0, 1) });
      case "minute":
        return cue.onBreak ? t("cue.minute_break") : t("cue.minute", { n: levelNumber(conn, cue.step) });
      case "timecall": {
        const name = cue.player ? playerName(conn, cue.player) : null;
        return [t("cue.timecall", { table: cue.table, seat: cue.seat }), name].filter(Boolean).join(" · ");
      }
      default:
        return "";
    }
  }

  /** @param {any} cue */
  function show(cue) {
    // The clock stopped with the last bust-out: nothing more to announce.
    if (ending(conn)) return;
    const text = cueText(cue);
    if (!text) return;
    const heard = sound.play(cue.kind);
    el.dataset.kind = cue.kind;
    fill(el, h("span", { class: "cue-text" }, text),
      h("span", { class: "cue-sound", "aria-hidden": "true", title: t(heard ? "sound.on" : "sound.off") }, heard ? "♪" : ""));
    el.hidden = false;
    flash(el, "flash");
    if (cue.kind !== "timecall") flash(clock, "cue-flash");
    clearTimeout(timer);
    timer = setTimeout(() => {
      el.hidden = true;
      clock.classList.remove("cue-flash");
    }, CUE_MS);
  }

  watchCues(conn, show);
  return el;
}
