// @ts-check
// The two charts people would rather look at than read, drawn with Chart.js (vendored in
// web/vendor/chartjs, loaded as a classic script before the page's module: window.Chart).
//   players left over time: state.field_history [at, players_left]
//   average stack in big blinds per level: state.level_history [level, at, players_left,
//   entries], chips = entries × starting_stack, over the big blind the server says is in
//   force at that step (facts.js).

import { t, onLang } from "./i18n.js";
import { bigBlindAt, levelNumber } from "./facts.js";
import { number, timeOfDay } from "./format.js";
/** @import { Conn } from "./types.js" */

const MAX_POINTS = 400;

/** field_history with usable times: points recorded without one (at = 0) are placed between
 * their neighbours, so the line keeps its shape; `left` now (the server's field numbers)
 * ends it.
 * @param {import("./protocol.js").TournamentState | null | undefined} state
 * @param {number} nowSec
 * @param {number | null} [left]
 */
export function fieldSeries(state, nowSec, left = null) {
  const raw = (state?.field_history || []).map(([at, n]) => ({ at, left: n }));
  if (state && left != null) raw.push({ at: nowSec, left });
  const known = raw.map((p, i) => (p.at > 0 ? i : -1)).filter((i) => i >= 0);
  if (!known.length) return [];
  for (let k = 0; k < known.length - 1; k += 1) {
    const a = known[k];
    const b = known[k + 1];
    for (let i = a + 1; i < b; i += 1) {
      raw[i].at = raw[a].at + ((raw[b].at - raw[a].at) * (i - a)) / (b - a);
    }
  }
  const first = known[0];
  for (let i = 0; i < first; i += 1) raw[i].at = raw[first].at;
  const points = raw.map((p) => ({ x: p.at, y: p.left }));
  if (points.length <= MAX_POINTS) return points;
  const stride = points.length / MAX_POINTS;
  const out = [];
  for (let i = 0; i < MAX_POINTS; i += 1) out.push(points[Math.floor(i * stride)]);
  out.push(points[points.length - 1]);
  return out;
}

/** [{label, bb}] per level started, the last visit of a level counting; "now" at the end.
 * @param {Conn} conn
 */
export function averageBBSeries(conn) {
  const state = conn.state;
  const structure = state?.structure;
  if (!structure) return [];
  const byLevel = new Map();
  for (const [level, , left, entries] of state.level_history || []) {
    // A break changes no blinds: the level after it shows the field.
    if (!left || structure.levels[level]?.type === "break") continue;
    const bb = bigBlindAt(conn, level);
    if (!bb) continue;
    byLevel.set(level, (entries * structure.starting_stack) / left / bb);
  }
  const out = [...byLevel.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([level, value]) => ({ label: levelLabel(conn, level), value }));
  const stats = conn.stats;
  const bb = conn.facts?.clock?.big_blind;
  if (stats?.average_stack && bb) out.push({ label: t("chart.now"), value: stats.average_stack / bb });
  return out;
}

/**
 * @param {Conn} conn
 * @param {number} index
 */
function levelLabel(conn, index) {
  return t("chart.level_short", { n: levelNumber(conn, index) });
}

const COLORS = { line: "#5cc8ff", fill: "rgba(92, 200, 255, 0.18)", bb: "#ffc233",
  bbFill: "rgba(255, 194, 51, 0.18)", grid: "rgba(255, 255, 255, 0.14)", text: "#e8edf3" };

/** @param {number} fontSize */
function baseOptions(fontSize) {
  return {
    responsive: true,
    maintainAspectRatio: false,
    animation: false,
    normalized: true,
    plugins: {
      legend: { display: false },
      tooltip: { enabled: true, titleFont: { size: fontSize }, bodyFont: { size: fontSize } },
    },
    layout: { padding: { top: 8, right: 16 } },
  };
}

/**
 * @param {number} fontSize
 * @param {{ ticks?: Record<string, any>, title?: string, rest?: Record<string, any> }} extra
 */
function axis(fontSize, extra = {}) {
  return {
    grid: { color: COLORS.grid },
    border: { color: COLORS.grid },
    ticks: { color: COLORS.text, font: { size: fontSize }, ...extra.ticks },
    title: extra.title ? { display: true, text: extra.title, color: COLORS.text, font: { size: fontSize } } : undefined,
    ...extra.rest,
  };
}

/** A chart needs two points at least: with fewer (nothing recorded yet, or only the one for
 * now) its axes would be made up, so a note says there is nothing to show yet instead. */
const MIN_POINTS = 2;

/** The note shown in place of a chart with nothing to draw (in the canvas's own box).
 * @param {HTMLCanvasElement} canvas
 */
function emptyNote(canvas) {
  const note = document.createElement("p");
  note.className = "chart-empty";
  note.hidden = true;
  canvas.after(note);
  return note;
}

/**
 * @param {HTMLCanvasElement} canvas
 * @param {HTMLElement} note
 * @param {boolean} empty
 */
function showEmpty(canvas, note, empty) {
  note.hidden = !empty;
  note.textContent = t("chart.no_data");
  // Kept in the layout (Chart.js sizes itself from it), only not drawn.
  canvas.style.visibility = empty ? "hidden" : "";
}

/**
 * Both charts on two canvases; `update()` redraws from the connection's state (cheap: call it
 * after each batch, or less often). `fontSize` in px: big on the wall, normal elsewhere.
 * @param {Conn} conn
 * @param {HTMLCanvasElement} fieldCanvas
 * @param {HTMLCanvasElement} bbCanvas
 * @param {{ fontSize?: number }} options
 */
export function createCharts(conn, fieldCanvas, bbCanvas, { fontSize = 14 } = {}) {
  const Chart = window.Chart;
  if (!Chart) {
    console.error("Chart.js is not loaded");
    return { update() {} };
  }
  Chart.defaults.color = COLORS.text;
  Chart.defaults.font.family = getComputedStyle(document.body).fontFamily;
  const field = new Chart(fieldCanvas, {
    type: "line",
    data: { datasets: [{ data: [], borderColor: COLORS.line, backgroundColor: COLORS.fill,
      fill: true, stepped: "after", pointRadius: 0, borderWidth: 3 }] },
    options: {
      ...baseOptions(fontSize),
      parsing: false,
      scales: {
        x: axis(fontSize, { rest: { type: "linear", bounds: "data" }, ticks: { maxTicksLimit: 8,
          callback: (/** @type {number} */ v) => timeOfDay(v) } }),
        y: axis(fontSize, { rest: { beginAtZero: true }, ticks: { precision: 0,
          callback: (/** @type {number} */ v) => number(v) } }),
      },
      plugins: {
        ...baseOptions(fontSize).plugins,
        tooltip: { callbacks: { title: (/** @type {any[]} */ items) => timeOfDay(items[0].parsed.x),
          label: (/** @type {any} */ item) => t("chart.players_left_value", { n: number(item.parsed.y) }) } },
      },
    },
  });
  const bb = new Chart(bbCanvas, {
    type: "line",
    data: { labels: [], datasets: [{ data: [], borderColor: COLORS.bb, backgroundColor: COLORS.bbFill,
      fill: true, pointRadius: 5, pointBackgroundColor: COLORS.bb, borderWidth: 3, tension: 0.2 }] },
    options: {
      ...baseOptions(fontSize),
      scales: {
        x: axis(fontSize),
        y: axis(fontSize, { rest: { beginAtZero: true }, ticks: { callback: (/** @type {number} */ v) => number(v) } }),
      },
      plugins: {
        ...baseOptions(fontSize).plugins,
        tooltip: { callbacks: { label: (/** @type {any} */ item) => `${number(item.parsed.y, 1)} BB` } },
      },
    },
  });
  const fieldNote = emptyNote(fieldCanvas);
  const bbNote = emptyNote(bbCanvas);
  const describe = () => {
    // Screen readers get the gist as text (the canvas itself is an image).
    const f = fieldSeries(conn.state, conn.nowSec(), conn.stats?.players_left ?? null);
    const b = averageBBSeries(conn);
    fieldCanvas.setAttribute("aria-label", t("chart.players_left_alt", {
      first: f.length ? number(f[0].y) : "–", last: f.length ? number(f[f.length - 1].y) : "–" }));
    bbCanvas.setAttribute("aria-label", t("chart.avg_bb_alt", {
      last: b.length ? number(b[b.length - 1].value, 1) : "–" }));
    return { f, b };
  };
  const update = () => {
    if (!conn.state) return;
    const { f, b } = describe();
    field.data.datasets[0].data = f;
    if (f.length) {
      // Ticks on whole minutes (or hours), never two labels saying the same time.
      const span = Math.max(60, f[f.length - 1].x - f[0].x);
      const steps = [60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600];
      field.options.scales.x.ticks.stepSize = steps.find((st) => span / st <= 6) || 21600;
    }
    bb.data.labels = b.map((p) => p.label);
    bb.data.datasets[0].data = b.map((p) => p.value);
    // A field that has not changed yet draws a flat line over a made-up scale: nothing yet.
    showEmpty(fieldCanvas, fieldNote, f.length < MIN_POINTS || f.every((/** @type {{ x: number, y: number }} */ p) => p.y === f[0].y));
    showEmpty(bbCanvas, bbNote, b.length < MIN_POINTS);
    field.update("none");
    bb.update("none");
  };
  onLang(update);
  return { update, field, bb };
}
