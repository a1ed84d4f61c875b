// @ts-check
// Sound on the wall: a few tones for what the room must not miss (a new level, a break, the
// last minute of a level or a break, a time call), made in the browser with the Web Audio API
// so there are no sound files to ship. The switch is remembered on the screen (localStorage).
// A browser lets a page make sound only after someone has touched it: until then the switch
// says the sound is off and asks for a tap, whatever was remembered.
//
// What sounds is what the server reports: the clock's step in its facts (facts.js) changing,
// its time left (the state's `ends_at`) passing the last minute, a time call in the facts
// that was not there before. A snapshot (the first, or after a reconnection) is taken as it
// is, and the batches that catch a screen up after it connects bring what happened before:
// only what happens while the screen is connected sounds.

import { clockModel } from "./format.js";
import { onLang, t } from "./i18n.js";
import { every, fill, h } from "./ui.js";
/** @import { Conn } from "./types.js" */

const KEY = "floor.wall.sound";

/** Each cue's notes, [frequency in Hz, start in s, length in s]: each cue its own shape,
 * told apart without looking. */
/** Each cue's notes: [frequency (Hz), start (s), length (s)].
 * @type {Record<string, [number, number, number][]>} */
const NOTES = {
  // A new level: three notes going up.
  level: [[659, 0, 0.2], [880, 0.24, 0.2], [1175, 0.48, 0.45]],
  // A break: two long notes going down.
  break: [[784, 0, 0.55], [523, 0.6, 0.9]],
  // One minute left: two short notes.
  minute: [[988, 0, 0.16], [988, 0.3, 0.16]],
  // Time called: four quick high notes, the last longer.
  timecall: [[1319, 0, 0.1], [1319, 0.16, 0.1], [1319, 0.32, 0.1], [1760, 0.5, 0.4]],
  // In the money: a fanfare, four notes up and the last held.
  money: [[523, 0, 0.16], [659, 0.18, 0.16], [784, 0.36, 0.16], [1047, 0.54, 0.8]],
};

export const CUES = Object.keys(NOTES);

/** The last minute of a step, in seconds. */
const LAST_MINUTE = 60;

export class Sound {
  constructor() {
    this.wanted = readWanted();
    /** @type {AudioContext | null} */
    this.ctx = null;
    /** @type {GainNode | null} */
    this.master = null;
    /** Every cue asked for: {cue, at (ms), audible}.
     * @type {{ cue: string, at: number, audible: boolean }[]} */
    this.played = [];
    /** @type {((sound: Sound) => void)[]} */
    this._listeners = [];
    // Whether the sound played when the screen was last touched (the switch reads it: the
    // touch itself may have let the sound start).
    this.audibleAtTouch = null;
    // Any touch of the screen lets the sound start when it is wanted (a wall switched on
    // before it was reloaded): the browser allows it from then on.
    for (const kind of ["pointerdown", "keydown"]) {
      addEventListener(kind, () => {
        this.audibleAtTouch = this.audible;
        if (this.wanted) this._wake();
      }, { capture: true });
    }
    if (this.wanted) this._wake();
  }

  /** True when a cue would be heard now: wanted, and allowed by the browser. */
  get audible() {
    return this.wanted && this.ctx != null && this.ctx.state === "running";
  }

  /** @param {(sound: Sound) => void} fn */
  onChange(fn) {
    this._listeners.push(fn);
  }

  _changed() {
    for (const fn of this._listeners) fn(this);
  }

  /** Switch on (from a tap: the browser then lets the sound start) or off.
   * @param {boolean} on
   */
  set(on) {
    this.wanted = on;
    try {
      localStorage.setItem(KEY, on ? "on" : "off");
    } catch (err) {
      /* private mode: remembered for this page only */
    }
    if (on) this._wake();
    this._changed();
  }

  _wake() {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    if (!this.ctx) {
      this.ctx = new Context();
      this.master = this.ctx.createGain();
      this.master.gain.value = 0.5;
      this.master.connect(this.ctx.destination);
      this.ctx.addEventListener("statechange", () => this._changed());
    }
    if (this.ctx.state !== "running") {
      this.ctx.resume().then(() => this._changed(), () => this._changed());
    }
  }

  /** Sound `cue` now (when audible); the visual cue beside it is the caller's.
   * @param {string} cue
   */
  play(cue) {
    const audible = this.audible;
    this.played.push({ cue, at: Date.now(), audible });
    if (this.played.length > 50) this.played.shift();
    if (!audible || !NOTES[cue]) return audible;
    // Audible: the context and its output are made (`wake`).
    const ctx = /** @type {AudioContext} */ (this.ctx);
    const master = /** @type {GainNode} */ (this.master);
    const start = ctx.currentTime + 0.02;
    for (const [freq, at, length] of NOTES[cue]) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = "triangle";
      osc.frequency.value = freq;
      // A soft start and a fading end: no clicks.
      gain.gain.setValueAtTime(0.0001, start + at);
      gain.gain.exponentialRampToValueAtTime(0.8, start + at + 0.015);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + at + length);
      osc.connect(gain).connect(master);
      osc.start(start + at);
      osc.stop(start + at + length + 0.05);
    }
    return true;
  }
}

function readWanted() {
  try {
    return localStorage.getItem(KEY) === "on";
  } catch (err) {
    return false;
  }
}

/** The switch: says plainly when the sound is off (or held by the browser) and that a tap
 * switches it on; once it plays, a tap switches it off.
 * @param {Sound} sound
 */
export function soundSwitch(sound) {
  const button = h("button", { type: "button", class: "sound-switch" });
  const render = () => {
    const on = sound.audible;
    button.classList.toggle("on", on);
    button.setAttribute("aria-pressed", String(on));
    fill(button, h("span", { class: "icon", "aria-hidden": "true" }, "♪"),
      h("span", {}, t(on ? "sound.on" : "sound.off")));
    button.title = t(on ? "sound.on_hint" : "sound.off_hint");
  };
  // A tap on a switch that says "off" switches on, even when the tap itself woke the sound.
  button.addEventListener("click", () => {
    const was = sound.audibleAtTouch ?? sound.audible;
    sound.audibleAtTouch = null;
    sound.set(!was);
  });
  sound.onChange(render);
  onLang(render);
  render();
  return button;
}

/**
 * Call `onCue({kind, ...})` for what the server reports as it happens: `level` and `break`
 * (the clock's step changed, with `step`), `minute` (the time left of a level or a break
 * passed one minute, with `onBreak`), `timecall` (with `table`, `seat`, `player`).
 * @param {Conn} conn
 * @param {(cue: any) => void} onCue
 */
export function watchCues(conn, onCue) {
  /** @type {number | null} */
  let step = null;
  let calls = new Set();
  /** @type {number | null} */
  let left = null;
  const callKey = (/** @type {any} */ c) => `${c.table}.${c.seat}`;
  // The server's time when this connection opened (its hello): what happened before is old.
  let watching = Infinity;
  conn.on("hello", (/** @type {import("./protocol.js").Hello} */ msg) => {
    watching = typeof msg.server_time === "number" ? msg.server_time : conn.nowSec();
  });
  const look = () => {
    step = conn.facts?.clock?.step ?? null;
    calls = new Set((conn.facts?.time_calls || []).map(callKey));
  };
  // A snapshot is the state as it is: nothing in it is news.
  conn.on("snapshot", () => {
    look();
    left = null;
  });
  conn.on("change", (/** @type {unknown} */ _, /** @type {any[]} */ events = []) => {
    const news = events.filter((e) => typeof e.at === "number" && e.at >= watching);
    const f = conn.facts?.clock;
    if (f && step != null && f.step !== step) {
      left = null;
      if (conn.state?.clock?.started && news.some((e) => e.type === "level_changed")) {
        onCue({ kind: f.on_break ? "break" : "level", step: f.step });
      }
    }
    for (const c of conn.facts?.time_calls || []) {
      const called = news.some((e) => e.type === "time_called" && e.table === c.table && e.seat === c.seat);
      if (!calls.has(callKey(c)) && called) onCue({ kind: "timecall", table: c.table, seat: c.seat, player: c.player });
    }
    look();
  });
  every(250, () => {
    const m = clockModel(conn);
    if (!m || !m.running || m.last || m.left == null) {
      left = null;
      return;
    }
    if (left != null && left > LAST_MINUTE && m.left <= LAST_MINUTE && m.left > 0) {
      onCue({ kind: "minute", onBreak: m.onBreak, step: m.index });
    }
    left = m.left;
  });
}
