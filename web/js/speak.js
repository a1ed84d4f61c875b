// @ts-check
// Announcements that need no phone (issue 29.4): what a batch announces to the room (a called
// move, a table breaking, the bubble bursting, the dinner break) captioned on the wall and on
// the table screen of the table it concerns, and spoken there by the browser's speech
// synthesis, in the languages of the players it concerns, one after the other.
//
// The server decides what is announced, where and in which languages (the batch's
// `facts.announcements`, floor/engine/read/announcements.py); this module renders each from
// the same language files as every other text (lang/speak-<code>.js), never translating at
// run time. Only what happens while the screen is connected is announced: the batches that
// catch a screen up after it connects bring what happened before.
//
// Speaking is a setting of the screen, kept on it (localStorage, as the sound's switch is):
// one speaking screen per area, the others captioning only; its volume and its quiet hours
// (captions only). A browser lets a page speak only after someone has touched it: until then
// the set-up says so and asks for a tap.

import { getLang, onLang, shippedLanguage, t, tIn } from "./i18n.js";
import { timeOfDay } from "./format.js";
import { h } from "./ui.js";
/** @import { Conn } from "./types.js" */

/** @typedef {{ here: boolean, volume: number, quietFrom: string, quietUntil: string }} Settings */

/** How long a caption of `text` stays when nothing is spoken (ms): time to read it twice. */
const readTime = (/** @type {string} */ text) => Math.max(4500, text.length * 70);
/** The longest a spoken line may take before the next one is shown regardless (ms): a voice
 * that never says it has ended holds nothing up. */
const sayTime = (/** @type {string} */ text) => Math.min(30000, 2000 + text.length * 110);
/** The most announcements waiting their turn on a screen: the oldest give way. */
const MOST_QUEUED = 30;
/** How long the last caption stays after it was said (ms). */
const LINGER = 8000;
/** A batch arriving this soon after the hello may be a catch-up (ms): an announcement whose
 * events carry no time is taken as news only after it. */
const CATCH_UP = 2000;

/** "HH:MM" to minutes after midnight, or null. @param {string} hm */
function minutesOf(hm) {
  const m = /^(\d{1,2}):(\d{2})$/.exec(hm || "");
  if (!m) return null;
  const hours = Number(m[1]);
  const minutes = Number(m[2]);
  return hours < 24 && minutes < 60 ? hours * 60 + minutes : null;
}

/** The BCP 47 tag a voice is asked for: "pt-br" is "pt-BR". @param {string} code */
export function speechTag(code) {
  const [base, region] = code.split("-");
  return region ? `${base}-${region.toUpperCase()}` : base;
}

/** A named screen's voice as the server keeps it with its layout (floor/server/walls.py).
 * @typedef {{ on: boolean, volume: number, quiet_from: string | null, quiet_until: string | null }} KeptSpeech */

export class Speaker {
  /** @param {string} place the screen's own name for its settings ("wall", "table-17")
   * @param {KeptSpeech | null} [kept] the voice the director saved for this named screen:
   *   it holds over the screen's own settings, which the set-up then only shows */
  constructor(place, kept = null) {
    this.key = `floor.speak.${place}`;
    this.kept = kept != null;
    /** @type {Settings} */
    this.settings = kept
      ? { here: kept.on, volume: kept.volume, quietFrom: kept.quiet_from || "", quietUntil: kept.quiet_until || "" }
      : { here: false, volume: 80, quietFrom: "", quietUntil: "", ...this._read() };
    // Any touch of the screen lets it speak from then on (the browser's rule).
    this.unlocked = !!navigator.userActivation?.hasBeenActive;
    /** Every line shown: {lang, text, spoken} (the newest last, the last 50).
     * @type {{ lang: string, text: string, spoken: boolean }[]} */
    this.said = [];
    /** @type {(() => void)[]} */
    this._listeners = [];
    for (const kind of ["pointerdown", "keydown"]) {
      addEventListener(kind, () => {
        if (this.unlocked) return;
        this.unlocked = true;
        this._changed();
      }, { capture: true });
    }
  }

  /** @returns {Partial<Settings>} */
  _read() {
    try {
      return JSON.parse(localStorage.getItem(this.key) || "{}") || {};
    } catch (err) {
      return {};
    }
  }

  /** @param {Partial<Settings>} change */
  set(change) {
    if (this.kept) return;
    Object.assign(this.settings, change);
    try {
      localStorage.setItem(this.key, JSON.stringify(this.settings));
    } catch (err) {
      /* private mode: kept for this page only */
    }
    this._changed();
  }

  /** @param {() => void} fn */
  onChange(fn) {
    this._listeners.push(fn);
  }

  _changed() {
    for (const fn of this._listeners) fn();
  }

  /** Whether `now` falls in the quiet hours (from..until, across midnight when until is
   * earlier). @param {Date} [now] */
  quiet(now = new Date()) {
    const from = minutesOf(this.settings.quietFrom);
    const until = minutesOf(this.settings.quietUntil);
    if (from == null || until == null || from === until) return false;
    const at = now.getHours() * 60 + now.getMinutes();
    return from < until ? at >= from && at < until : at >= from || at < until;
  }

  /** "off" (captions only), "locked" (waits for a tap), "quiet" (quiet hours) or "on". */
  mode() {
    if (!this.settings.here || !window.speechSynthesis) return "off";
    if (!this.unlocked) return "locked";
    return this.quiet() ? "quiet" : "on";
  }

  /** Say `text` in `code` when this screen speaks now; resolves when it has been said (or
   * could not be), at once when nothing is spoken.
   * @param {string} code @param {string} text @returns {Promise<boolean>} */
  say(code, text) {
    const spoken = this.mode() === "on";
    this.said.push({ lang: code, text, spoken });
    if (this.said.length > 50) this.said.shift();
    if (!spoken) return Promise.resolve(false);
    const synth = window.speechSynthesis;
    const u = new SpeechSynthesisUtterance(text);
    u.lang = speechTag(code);
    u.volume = Math.max(0, Math.min(1, Number(this.settings.volume) / 100));
    const base = code.split("-")[0];
    const voices = synth.getVoices();
    const voice = voices.find((v) => v.lang.toLowerCase() === u.lang.toLowerCase())
      || voices.find((v) => v.lang.toLowerCase().split(/[-_]/)[0] === base);
    if (voice) u.voice = voice;
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(done, sayTime(text));
      u.onend = done;
      u.onerror = done;
      synth.speak(u);
    });
  }
}

/** The language an announcement's `""` stands for: the venue's (the page's locale), else the
 * screen's own. */
function venueLanguage() {
  return shippedLanguage((document.documentElement.dataset.locale || "").split("-")[0]) || getLang();
}

/** An announcement's text in `code`, from the language files. @param {any} a @param {string} code */
export function textIn(a, code) {
  switch (a.kind) {
    case "move_called":
      return tIn(code, a.to_seat != null ? "speak.move" : "speak.move_open", {
        name: a.name, table: a.table, seat: a.seat, to_table: a.to_table, to_seat: a.to_seat,
      });
    case "table_breaking":
      return tIn(code, "speak.table_breaking", { table: a.table });
    case "in_the_money":
      return tIn(code, "speak.in_the_money", { n: a.places });
    case "dinner_break":
      return a.until != null
        ? tIn(code, "speak.dinner_break", { n: a.minutes, time: timeOfDay(a.until) })
        : tIn(code, "speak.dinner_break_paused", { n: a.minutes });
    default:
      return Promise.resolve("");
  }
}

/**
 * The caption band: each announcement of a batch this screen shows (`table`: a table screen
 * shows those of its table and those of every table; null: the wall shows all), a language
 * after another, each line said when the screen speaks.
 * @param {Conn} conn
 * @param {Speaker} speaker
 * @param {{ table?: number | null }} [options]
 */
export function captionBand(conn, speaker, { table = null } = {}) {
  const text = h("p", { class: "speak-text" });
  const el = h("aside", { class: "speak-caption", role: "status", "aria-live": "polite", "aria-label": t("speak.caption"),
    hidden: true }, text);
  onLang(() => el.setAttribute("aria-label", t("speak.caption")));
  /** @type {any[]} */
  const queue = [];
  let running = false;
  // The server's time when this connection opened (its hello), and when it was heard here.
  let watching = Infinity;
  let helloAt = 0;
  conn.on("hello", (/** @type {any} */ msg) => {
    watching = typeof msg.server_time === "number" ? msg.server_time : conn.nowSec();
    helloAt = Date.now();
  });
  const news = (/** @type {any} */ a) => (a.at != null ? a.at >= watching - 1 : Date.now() - helloAt > CATCH_UP);
  const ours = (/** @type {any} */ a) => table == null || !a.tables?.length || a.tables.includes(table);
  conn.on("events", () => {
    const found = (conn.facts?.announcements || []).filter((/** @type {any} */ a) => ours(a) && news(a));
    if (!found.length) return;
    queue.push(...found);
    // A room that moves faster than it can be read (a rush of called moves) is told the latest.
    if (queue.length > MOST_QUEUED) queue.splice(0, queue.length - MOST_QUEUED);
    if (!running) run();
  });

  async function run() {
    running = true;
    while (queue.length) {
      const a = queue.shift();
      const codes = [...new Set((a.langs?.length ? a.langs : [""]).map((/** @type {string} */ c) => c || venueLanguage()))];
      for (const code of codes) {
        const line = await textIn(a, code);
        if (!line) continue;
        text.textContent = line;
        text.lang = code;
        el.dataset.kind = a.kind;
        el.hidden = false;
        const shownAt = Date.now();
        const spoken = await speaker.say(code, line);
        // Unspoken (or said quickly), the line stays long enough to be read.
        const rest = (spoken ? 1500 : readTime(line)) - (Date.now() - shownAt);
        if (rest > 0) await new Promise((resolve) => setTimeout(resolve, rest));
      }
    }
    running = false;
    setTimeout(() => {
      if (!running) el.hidden = true;
    }, LINGER);
  }
  return el;
}

/**
 * The screen's set-up: whether it speaks, its volume, its quiet hours; the summary says what
 * the screen does now (and asks for a tap while the browser holds the voice back).
 * @param {Speaker} speaker
 * @param {{ hideOff?: boolean }} [options] `hideOff`: nothing shown while the screen does not speak
 */
export function speakSetup(speaker, { hideOff = false } = {}) {
  const state = h("span", {});
  const summary = h("summary", { class: "speak-summary" }, h("span", { class: "icon", "aria-hidden": "true" }, "❝"), state);
  const here = h("input", { type: "checkbox", id: `speak-here-${speaker.key}` });
  const volume = h("input", { type: "range", min: "0", max: "100", step: "5", id: `speak-volume-${speaker.key}` });
  const from = h("input", { type: "time", id: `speak-from-${speaker.key}` });
  const until = h("input", { type: "time", id: `speak-until-${speaker.key}` });
  const labels = {
    here: h("label", { for: here.id }), hint: h("p", { class: "muted speak-hint" }),
    volume: h("label", { for: volume.id }), quiet: h("span", { class: "speak-quiet-title" }),
    from: h("label", { for: from.id }), until: h("label", { for: until.id }),
  };
  const panel = h("div", { class: "speak-panel" },
    h("div", { class: "speak-row" }, here, labels.here), labels.hint,
    h("div", { class: "speak-row" }, labels.volume, volume),
    h("fieldset", { class: "speak-quiet" }, h("legend", {}, labels.quiet),
      h("div", { class: "speak-row" }, labels.from, from, labels.until, until)));
  const kept = h("p", { class: "muted speak-hint", hidden: !speaker.kept });
  panel.append(kept);
  for (const input of [here, volume, from, until]) /** @type {HTMLInputElement} */ (input).disabled = speaker.kept;
  const el = h("details", { class: "speak-setup" }, summary, panel);
  here.addEventListener("change", () => speaker.set({ here: here.checked }));
  volume.addEventListener("change", () => speaker.set({ volume: Number(volume.value) }));
  from.addEventListener("change", () => speaker.set({ quietFrom: from.value }));
  until.addEventListener("change", () => speaker.set({ quietUntil: until.value }));
  const render = () => {
    const mode = speaker.mode();
    state.textContent = mode === "on" ? t("speak.on") : mode === "quiet" ? t("speak.quiet_now")
      : mode === "locked" ? t("speak.tap") : t("speak.off");
    el.dataset.mode = mode;
    // A wall that does not speak shows nothing of it: its bar keeps its room for the title.
    el.hidden = hideOff && mode === "off";
    summary.title = t("speak.settings");
    here.checked = speaker.settings.here;
    volume.value = String(speaker.settings.volume);
    from.value = speaker.settings.quietFrom;
    until.value = speaker.settings.quietUntil;
    labels.here.textContent = t("speak.here");
    labels.hint.textContent = t("speak.here_hint");
    labels.volume.textContent = t("speak.volume");
    labels.quiet.textContent = t("speak.quiet");
    labels.from.textContent = t("speak.quiet_from");
    labels.until.textContent = t("speak.quiet_until");
    kept.textContent = t("speak.kept");
  };
  speaker.onChange(render);
  onLang(render);
  // Quiet hours begin and end while nobody touches the screen.
  setInterval(render, 30000);
  render();
  return el;
}

/**
 * The director's console: a named screen's voice, saved with its layout (walls_console.js).
 * `value()` is the layout's `speech`, or null where the screen sets its own.
 */
export function speechFields() {
  const mode = h("select", { id: "screen-voice" },
    h("option", { value: "" }, t("speak.voice_screen")), h("option", { value: "on" }, t("speak.voice_on")),
    h("option", { value: "off" }, t("speak.voice_off")));
  const volume = h("input", { id: "screen-volume", type: "number", min: 0, max: 100, step: 5, value: 80, inputmode: "numeric" });
  const from = h("input", { id: "screen-quiet-from", type: "time" });
  const until = h("input", { id: "screen-quiet-until", type: "time" });
  const field = (/** @type {HTMLElement} */ input, /** @type {string} */ key) =>
    h("div", { class: "field" }, h("label", { for: input.id }, t(key)), input);
  const el = h("fieldset", { class: "walls-voice" }, h("legend", {}, t("speak.settings")),
    h("div", { class: "row" }, field(mode, "speak.voice"), field(volume, "speak.volume"),
      field(from, "speak.quiet_from"), field(until, "speak.quiet_until")),
    h("p", { class: "hint" }, `${t("speak.quiet")} · ${t("speak.here_hint")}`));
  const value = () => {
    const chosen = /** @type {HTMLSelectElement} */ (mode).value;
    if (!chosen) return null;
    const v = (/** @type {HTMLElement} */ input) => /** @type {HTMLInputElement} */ (input).value;
    return { on: chosen === "on", volume: Number(v(volume)), quiet_from: v(from) || null, quiet_until: v(until) || null };
  };
  return { el, value };
}

/** A wall's voice from its URL (a wall without a name is set up by its URL, as its pages
 * are): `?speak=1`, `&volume=70` (0-100), `&quiet=22:00-08:00`; null without `speak`.
 * @returns {KeptSpeech | null} */
export function speechFromUrl() {
  const params = new URLSearchParams(location.search);
  const asked = params.get("speak");
  if (asked == null) return null;
  const volume = Number(params.get("volume") ?? 80);
  const quiet = /^(\d{2}:\d{2})-(\d{2}:\d{2})$/.exec(params.get("quiet") || "");
  return {
    on: asked !== "0" && asked !== "off",
    volume: Number.isFinite(volume) ? Math.max(0, Math.min(100, volume)) : 80,
    quiet_from: quiet ? quiet[1] : null,
    quiet_until: quiet ? quiet[2] : null,
  };
}

/** A saved screen's voice in a few words, for the console's list of screens.
 * @param {KeptSpeech | null | undefined} speech */
export function speechSummary(speech) {
  if (!speech) return "";
  const parts = [speech.on ? t("speak.listed_on", { volume: speech.volume }) : t("speak.listed_off")];
  if (speech.on && speech.quiet_from && speech.quiet_until) {
    parts.push(t("speak.listed_quiet", { from: speech.quiet_from, until: speech.quiet_until }));
  }
  return parts.join(", ");
}
