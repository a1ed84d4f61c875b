// @ts-nocheck: the forecaster's screens came untyped (#31); typed in a change of their own, until then
// not checked (tsconfig checkJs checks every other module).
// The day forecaster on the director's console: the forecast as it stands (the 10th, 50th and
// 90th percentiles of the money, the final table, the day's end, the entries still expected),
// a chart of the players left with the forecast's range, the tables breaking per hour and the
// dealers needed per half hour, the assumptions (the director may correct them), a what-if
// shown beside the forecast as it stands, the settings (a closing time, the dealers per table,
// the wall's line shown or hidden with one tap) and, once moments have come, each level's
// forecast beside what happened. Everything is the server's (GET /api/t/{id}/forecast); the
// runs are played by its worker processes, never here.

import { fieldSeries } from "./charts.js";
import * as fmt from "./format.js";
import { t } from "./i18n.js";
import { printHref } from "./print_links.js";
import { api, fill, h, icon, toast } from "./ui.js";

const POLL_MS = 30000;
const JOB_POLL_MS = 1000;
const CHANGES = ["none", "levels", "level_minutes", "close_late", "day_end_at"];

/** A time of day, or what a time nobody reached means. */
export function timeText(at) {
  return at == null ? t("forecast.not_today") : fmt.timeOfDay(at);
}

/** "4", or "break after level 4" (a forecast made at a break). */
export function levelText(x) {
  return x.on_break ? t("paper.after_level", { n: x.level }) : String(x.level);
}

/** "level 4", or "break after level 4". */
export function levelPhrase(x) {
  return t(x.on_break ? "paper.after_level" : "paper.level", { n: x.level });
}

function countText(x) {
  return x == null ? "–" : fmt.number(x);
}

/** A what-if in words: "level_minutes 20" → "Levels from the next last (minutes): 20". */
export function changeText(w) {
  if (!w) return "";
  if (w.levels != null) return `${t("forecast.change.levels")}: ${w.levels > 0 ? "+" : ""}${w.levels}`;
  if (w.level_minutes != null) return `${t("forecast.change.level_minutes")}: ${fmt.number(w.level_minutes)}`;
  if (w.close_late_registration) return t("forecast.change.close_late");
  if (w.day_end_at != null) return `${t("forecast.change.day_end_at")} ${fmt.timeOfDay(w.day_end_at)}`;
  return "";
}

/** The rows of the summary table: [label, [p10, p50, p90] as text, a note]. */
function rows(f) {
  const m = (key, milestone) => {
    if (milestone.happened != null) {
      const at = timeText(milestone.happened);
      return [t(key), [at, at, at], t("forecast.happened", { time: at })];
    }
    const [a, b, c] = milestone.at;
    const note = milestone.reached < 1 ? t("forecast.reached", { share: fmt.number(milestone.reached * 100) }) : "";
    return [t(key), [timeText(a), timeText(b), timeText(c)], note];
  };
  const n = (key, range) => [t(key), range.map(countText), ""];
  const by = Object.entries(f.day_end.by).map(([k, v]) => t("forecast.share", { name: t(`forecast.by.${k}`), share: fmt.number(v * 100) }));
  return [
    m("forecast.money", f.money),
    m("forecast.final_table", f.final_table),
    [...m("forecast.day_end", f.day_end.at).slice(0, 2), t("forecast.ended_by", { list: by.join(", ") })],
    n("forecast.players_at_end", f.day_end.players),
    n("forecast.tables_at_end", f.day_end.tables),
    n("forecast.entries", f.entries_expected),
    n("forecast.places", f.places_paid),
  ];
}

/** The summary: one block of three columns per forecast (as it stands, and a what-if). */
function summaryTable(forecasts) {
  const shown = forecasts.filter((x) => x.forecast);
  const all = shown.map((x) => rows(x.forecast));
  // Named apart from its section (two landmarks of one name are one too many for a reader).
  return h("div", { class: "scroll-box forecast-summary", tabindex: "0", role: "region", "aria-label": t("forecast.percentiles") },
    h("table", { class: "data" },
      h("thead", {},
        h("tr", {}, h("td", {}), shown.map((x) => h("th", { colspan: 3, scope: "colgroup", class: "forecast-group" }, x.title))),
        h("tr", {}, h("td", {}), shown.map(() => ["forecast.p10", "forecast.p50", "forecast.p90"].map((k) => h("th", { scope: "col", class: "num" }, t(k)))))),
      h("tbody", {}, all[0].map((row, i) => h("tr", {},
        h("th", { scope: "row" }, row[0], ...[...new Set(all.map((r) => r[i][2]).filter(Boolean))].map((note) => h("div", { class: "hint" }, note))),
        all.map((r) => r[i][1].map((v, j) => h("td", { class: j === 1 ? "num median" : "num" }, v))))))));
}

/** Slots come as [start, p10, p50, p90] (``model.Slot``). */
function slotsTable(title, slots, width) {
  const rowsShown = slots.filter(([, , , p90]) => p90 > 0).slice(0, 24);
  return h("figure", { class: "forecast-slots" },
    h("figcaption", {}, title),
    rowsShown.length ? h("div", { class: "scroll-box", tabindex: "0", role: "region", "aria-label": title },
      h("table", { class: "data" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("forecast.slot")), h("th", { scope: "col", class: "num" }, t("forecast.median_range")))),
        h("tbody", {}, rowsShown.map(([start, p10, p50, p90]) => h("tr", {},
          h("td", { class: "nowrap" }, `${fmt.timeOfDay(start)}–${fmt.timeOfDay(start + width)}`),
          h("td", { class: "num" }, `${fmt.number(p50)} (${fmt.number(p10)}–${fmt.number(p90)})`))))))
      : h("p", { class: "muted" }, "–"));
}

/** Players left: the history (the connection's state) and the forecast's range and median,
 * a what-if's median dashed. Chart.js is the page's (vendored). */
function chart(conn, current, whatIf) {
  const canvas = h("canvas", { role: "img", "aria-label": t("forecast.chart") });
  const wrap = h("div", { class: "chart-wrap forecast-chart" }, canvas);
  const Chart = window.Chart;
  if (!Chart || !current) return { el: wrap, destroy() {} };
  const history = fieldSeries(conn.state, conn.nowSec());
  const slot = (i) => current.players.map((s) => ({ x: s[0], y: s[i] }));
  const end = current.day_end.players;
  canvas.setAttribute("aria-label", t("forecast.chart_alt", { now: fmt.number(current.players_left),
    p10: countText(end[0]), p50: countText(end[1]), p90: countText(end[2]) }));
  const datasets = [
    { label: t("forecast.chart.actual"), data: history, borderColor: "#5cc8ff", borderWidth: 3, pointRadius: 0, stepped: "after" },
    { label: t("forecast.chart.low"), data: slot(1), borderColor: "rgba(255, 194, 51, 0.5)", borderWidth: 1, pointRadius: 0 },
    { label: t("forecast.chart.high"), data: slot(3), borderColor: "rgba(255, 194, 51, 0.5)", borderWidth: 1, pointRadius: 0,
      fill: "-1", backgroundColor: "rgba(255, 194, 51, 0.22)" },
    { label: t("forecast.chart.median"), data: slot(2), borderColor: "#ffc233", borderWidth: 3, pointRadius: 0 },
  ];
  if (whatIf) {
    datasets.push({ label: t("forecast.chart.what_if"), data: whatIf.players.map((s) => ({ x: s[0], y: s[2] })),
      borderColor: "#3ddc84", borderWidth: 3, borderDash: [8, 6], pointRadius: 0 });
  }
  const chartObj = new Chart(canvas, {
    type: "line",
    data: { datasets },
    options: {
      responsive: true, maintainAspectRatio: false, animation: false, parsing: false, normalized: true,
      plugins: {
        legend: { display: true, labels: { color: "#e8edf3", filter: (item) => item.datasetIndex !== 1 } },
        tooltip: { callbacks: { title: (items) => fmt.timeOfDay(items[0].parsed.x), label: (item) => `${item.dataset.label}: ${fmt.number(item.parsed.y)}` } },
      },
      scales: {
        x: { type: "linear", grid: { color: "rgba(255,255,255,0.14)" }, ticks: { color: "#e8edf3", maxTicksLimit: 8, callback: (v) => fmt.timeOfDay(v) } },
        y: { beginAtZero: true, grid: { color: "rgba(255,255,255,0.14)" }, ticks: { color: "#e8edf3", precision: 0, callback: (v) => fmt.number(v) } },
      },
    },
  });
  return { el: wrap, destroy() { chartObj.destroy(); } };
}

function assumptionsBox(f) {
  const a = f.assumptions;
  const source = t(`forecast.source.${a.rate_source}`, { busts: fmt.number(a.busts_observed), levels: fmt.number(a.levels_observed) });
  const items = [
    [t("forecast.rate"), fmt.number(a.busts_per_table_hour, 1), t("forecast.rate_detail", { bb: a.average_bb == null ? "–" : fmt.number(a.average_bb), source })],
    [t("forecast.late"), fmt.number(a.late_entries), t(`forecast.late_source.${a.late_source}`)],
    [t("forecast.re_entry"), `${fmt.number(a.re_entry_share * 100)} %`, t(`forecast.source.${a.re_entry_source}`, { busts: fmt.number(a.busts_observed), levels: fmt.number(a.levels_observed) })],
  ];
  const notes = [t("forecast.exponent", { b: fmt.number(a.depth_exponent, 2), spread: fmt.number(a.level_spread * 100) }),
    t("forecast.h4h", { pace: fmt.number(a.hand_for_hand_pace, 1) })];
  if (a.clock_paused) notes.push(t("forecast.paused"));
  if (a.counts_used) notes.push(t("forecast.counts", { n: fmt.number(a.counts_used) }));
  return h("div", { class: "forecast-assumptions" },
    h("h3", {}, t("forecast.assumptions")),
    h("dl", { class: "pool-facts" }, items.map(([k, v, d]) => h("div", {}, h("dt", {}, k), h("dd", {}, v),
      // A definition list holds only terms and definitions: the note is the definition's too.
      h("dd", { class: "hint" }, d)))),
    notes.map((x) => h("p", { class: "hint" }, x)),
    f.history.length ? h("details", { class: "forecast-history" },
      h("summary", {}, t("forecast.history")),
      h("div", { class: "scroll-box", tabindex: "0", role: "region", "aria-label": t("forecast.history") },
        h("table", { class: "data" },
          h("thead", {}, h("tr", {}, ["forecast.history.level", "forecast.history.bb", "forecast.history.busts", "forecast.history.hours", "forecast.history.rate"]
            .map((k, i) => h("th", { scope: "col", class: i ? "num" : null }, t(k))))),
          h("tbody", {}, f.history.map(([level, bb, busts, hours, rate]) => h("tr", {},
            h("td", {}, String(level)), h("td", { class: "num" }, fmt.number(bb)), h("td", { class: "num" }, fmt.number(busts)),
            h("td", { class: "num" }, fmt.number(hours, 2)), h("td", { class: "num" }, fmt.number(rate, 1)))))))) : null);
}

function checkedTable(rowsIn) {
  const cell = (m, shown) => {
    const range = `${shown(m[0])} · ${shown(m[1])} · ${shown(m[2])}`;
    const actual = m[3] == null ? t("forecast.checked.pending") : t("forecast.checked.actual", { value: shown(m[3]) });
    const verdict = m[4] == null ? null : h("span", { class: `badge ${m[4] ? "badge-ok" : "badge-paused"}` }, t(m[4] ? "forecast.inside" : "forecast.outside"));
    return h("td", {}, h("div", {}, range), h("div", { class: "hint" }, actual, " ", verdict));
  };
  return h("div", { class: "scroll-box", tabindex: "0", role: "region", "aria-label": t("forecast.checked") },
    h("table", { class: "data forecast-checked" },
      h("thead", {}, h("tr", {}, [t("forecast.history.level"), t("forecast.checked.made"), t("forecast.money"), t("forecast.final_table"),
        t("forecast.day_end"), t("forecast.players_at_end")].map((x) => h("th", { scope: "col" }, x)))),
      h("tbody", {}, rowsIn.map((r) => h("tr", {},
        h("td", {}, levelText(r)), h("td", { class: "nowrap" }, fmt.timeOfDay(r.made_at)),
        cell(r.money, timeText), cell(r.final_table, timeText), cell(r.day_end, timeText), cell(r.players_at_end, countText))))));
}

function toEpoch(hhmm, nowSec) {
  const [hh, mm] = hhmm.split(":").map(Number);
  if (!Number.isFinite(hh) || !Number.isFinite(mm)) return null;
  const d = new Date(nowSec * 1000);
  d.setHours(hh, mm, 0, 0);
  let at = d.getTime() / 1000;
  if (at <= nowSec) at += 86400; // a time before now is tomorrow's (past midnight)
  return at;
}

function hhmm(at) {
  if (at == null) return "";
  const d = new Date(at * 1000);
  return `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;
}

/** The console's forecast section. */
export function mountForecast({ section, heading, conn, tid }) {
  let view = null;
  let failed = null;
  let pollTimer = null;
  let jobTimer = null;
  let chartNow = null;
  let lastLevel = null;
  let formError = null;
  let formErrorField = null;
  const form = { change: "none", value: "", runs: "300", rate: "", late: "", re: "" };
  const e = encodeURIComponent(tid);

  async function load() {
    if (!conn?.state?.drawn) return render();
    if (!section.contains(viewEl)) render();
    try {
      view = await api(`/api/t/${e}/forecast`);
      failed = null;
    } catch (err) {
      failed = err.message;
    }
    if (section.contains(viewEl)) renderView();
    else render();
    const running = view?.job?.state === "running";
    clearTimeout(jobTimer);
    if (running) jobTimer = setTimeout(load, JOB_POLL_MS);
  }

  function schedule() {
    clearInterval(pollTimer);
    pollTimer = setInterval(() => {
      if (document.visibilityState !== "hidden") load();
    }, POLL_MS);
  }

  /** The first state, the draw: read now; a new level: the server makes its forecast
   * within seconds (``forecasts.SCHEDULE_EVERY``), read it soon after. */
  function onState() {
    const s = conn?.state;
    if (!s) return;
    const key = `${s.drawn}:${s.clock.level}`;
    if (lastLevel === null || !lastLevel.startsWith(`${s.drawn}:`)) load();
    else if (key !== lastLevel) setTimeout(load, 15000);
    lastLevel = key;
  }

  function ask() {
    const body = { runs: Number(form.runs) || 300 };
    const value = form.value.trim();
    if (form.change === "levels") body.what_if = { levels: Number(value) };
    if (form.change === "level_minutes") body.what_if = { level_minutes: Number(value) };
    if (form.change === "close_late") body.what_if = { close_late_registration: true };
    if (form.change === "day_end_at") body.what_if = { day_end_at: toEpoch(value, conn.nowSec()) ?? 0 };
    const corrections = {};
    if (form.rate.trim()) corrections.busts_per_table_hour = Number(form.rate);
    if (form.late.trim()) corrections.late_entries = Number(form.late);
    if (form.re.trim()) corrections.re_entry_share = Number(form.re) / 100;
    if (Object.keys(corrections).length) body.corrections = corrections;
    return body;
  }

  async function submit(ev) {
    ev.preventDefault();
    formError = null;
    formErrorField = null;
    try {
      await api(`/api/t/${e}/forecast`, { method: "POST", body: ask() });
    } catch (err) {
      formErrorField = err.field || "what_if";
      formError = t(`forecast.bad.${formErrorField}`, {}, err.message);
      renderControls();
      document.getElementById("forecast-error")?.focus();
      return;
    }
    renderControls();
    await load();
  }

  async function saveSettings(changes) {
    const focused = document.activeElement?.id;
    const settings = { ...(view?.settings || {}), ...changes };
    try {
      const saved = await api(`/api/t/${e}/forecast/settings`, { method: "PUT", body: settings });
      view = { ...view, settings: saved };
      toast(`✓ ${t("forecast.saved")}`, "ok", 2500);
    } catch (err) {
      toast(`✗ ${t(`forecast.bad.${err.field}`, {}, err.message)}`, "error", 8000);
    }
    renderControls();
    renderView();
    if (focused) document.getElementById(focused)?.focus();
  }

  function whatIfForm() {
    const input = (id, key, attrs) => h("input", { id, value: form[key], oninput: (ev) => { form[key] = ev.target.value; },
      "aria-invalid": formErrorField && id.endsWith(formErrorField.split(".").pop()) ? "true" : null, ...attrs });
    const change = h("select", { id: "forecast-change", onchange: (ev) => {
      form.change = ev.target.value;
      form.value = "";
      renderControls();
      document.getElementById("forecast-change")?.focus();
    } }, CHANGES.map((c) => h("option", { value: c, selected: c === form.change }, t(`forecast.change.${c}`))));
    const valueField = (() => {
      if (form.change === "levels") return input("forecast-levels", "value", { type: "number", min: -5, max: 5, step: 1, inputmode: "numeric", required: true });
      if (form.change === "level_minutes") return input("forecast-level_minutes", "value", { type: "number", min: 1, max: 240, step: "any", inputmode: "decimal", required: true });
      if (form.change === "day_end_at") return input("forecast-day_end_at", "value", { type: "time", required: true });
      return null;
    })();
    // The limits are the server's (one place): its refusal names the field, shown here.
    return h("form", { class: "forecast-form", onsubmit: submit, novalidate: true, "aria-labelledby": "forecast-ask" },
      h("h3", { id: "forecast-ask" }, t("forecast.ask")),
      h("div", { class: "row" },
        h("div", { class: "field grow" }, h("label", { for: "forecast-change" }, t("forecast.change")), change),
        valueField ? h("div", { class: "field narrow-field" }, h("label", { for: valueField.id }, t("forecast.value")), valueField) : null,
        h("div", { class: "field narrow-field" }, h("label", { for: "forecast-runs" }, t("forecast.runs")),
          input("forecast-runs", "runs", { type: "number", min: 10, max: 1000, step: 10, inputmode: "numeric" }))),
      form.change === "levels" ? h("p", { class: "hint" }, t("forecast.levels_hint")) : null,
      h("details", { class: "forecast-corrections", open: !!(form.rate || form.late || form.re) },
        h("summary", {}, t("forecast.correct")),
        h("div", { class: "row" },
          h("div", { class: "field" }, h("label", { for: "forecast-busts_per_table_hour" }, t("forecast.correct_rate")),
            input("forecast-busts_per_table_hour", "rate", { type: "number", min: 0, max: 60, step: "any", inputmode: "decimal" })),
          h("div", { class: "field" }, h("label", { for: "forecast-late_entries" }, t("forecast.correct_late")),
            input("forecast-late_entries", "late", { type: "number", min: 0, step: 1, inputmode: "numeric" })),
          h("div", { class: "field" }, h("label", { for: "forecast-re_entry_share" }, t("forecast.correct_re")),
            input("forecast-re_entry_share", "re", { type: "number", min: 0, max: 100, step: "any", inputmode: "decimal" })))),
      formError ? h("p", { id: "forecast-error", class: "error-text", role: "alert", tabindex: "-1" }, formError) : null,
      h("button", { type: "submit", class: "primary" }, t("forecast.go")));
  }

  function settingsBox() {
    const s = view?.settings || { closing_at: null, dealers_per_table: 1.25, wall: false };
    const closing = h("input", { id: "forecast-closing", type: "time", value: hhmm(s.closing_at) });
    const ratio = h("input", { id: "forecast-ratio", type: "number", min: 1, max: 4, step: 0.05, inputmode: "decimal", value: String(s.dealers_per_table) });
    return h("div", { class: "forecast-settings" },
      h("h3", {}, t("forecast.settings")),
      // One tap shows or hides the wall's line: a setting beside the forecasts, not an event.
      h("button", { type: "button", class: s.wall ? "ok" : "", id: "forecast-wall", "aria-pressed": String(!!s.wall),
        "aria-label": `${t("forecast.wall_label")}: ${t(s.wall ? "forecast.wall_shown" : "forecast.wall_hidden")}`,
        onclick: () => saveSettings({ wall: !s.wall }) }, icon(s.wall ? "◉" : "○"), t(s.wall ? "forecast.wall_shown" : "forecast.wall_hidden")),
      h("form", { class: "row", onsubmit: (ev) => {
        ev.preventDefault();
        const at = closing.value ? toEpoch(closing.value, conn.nowSec()) : null;
        saveSettings({ closing_at: at, dealers_per_table: Number(ratio.value) || 1.25 });
      } },
      h("div", { class: "field" }, h("label", { for: "forecast-closing" }, t("forecast.closing")), closing, h("p", { class: "hint" }, t("forecast.closing_hint"))),
      h("div", { class: "field narrow-field" }, h("label", { for: "forecast-ratio" }, t("forecast.dealer_ratio")), ratio),
      h("button", { type: "submit" }, t("forecast.save"))));
  }

  function progress(job) {
    if (!job) return null;
    if (job.state === "running") {
      return h("p", { class: "forecast-progress", role: "status" }, t("forecast.playing", { played: fmt.number(job.played), runs: fmt.number(job.runs) }));
    }
    if (job.state === "cancelled") return h("p", { class: "hint", role: "status" }, t("forecast.cancelled"));
    if (job.state === "failed") return h("p", { class: "error-text", role: "status" }, t("forecast.failed", { error: job.error || "" }));
    return null;
  }

  // The section in two parts: what the server says (redrawn with every answer) and the
  // director's forms (redrawn only when they change, so a poll never takes the typing away).
  const viewEl = h("div", { class: "forecast-view" });
  const controlsEl = h("div", { class: "two-col forecast-controls" });

  function render() {
    if (!section) return;
    if (!conn?.state) return fill(section, heading("forecast", "director.forecast"));
    if (!conn.state.drawn) return fill(section, heading("forecast", "director.forecast"), h("p", { class: "muted" }, t("forecast.not_yet")));
    fill(section, heading("forecast", "director.forecast"), h("p", { class: "hint" }, t("forecast.intro")), viewEl, controlsEl);
    renderControls();
    renderView();
  }

  function renderControls() {
    fill(controlsEl, whatIfForm(), settingsBox());
  }

  function renderView() {
    if (chartNow) {
      chartNow.destroy();
      chartNow = null;
    }
    if (!section.contains(viewEl)) return render();
    const job = view?.job || null;
    const whatIf = job && job.what_if && job.forecast ? job.forecast : null;
    const current = whatIf && job.baseline ? job.baseline : view?.current || (job && !job.what_if ? job.forecast : null);
    const made = current ? t("forecast.made_at", { time: fmt.timeOfDay(current.made_at), level: levelPhrase(current), runs: fmt.number(current.runs) })
      + (current.complete ? "" : ` · ${t("forecast.first_runs", { runs: fmt.number(current.runs) })}`) : "";
    chartNow = current ? chart(conn, current, whatIf) : null;
    const ratio = view?.settings?.dealers_per_table ?? 1.25;
    const checked = view?.checked || [];
    fill(viewEl,
      failed ? h("p", { class: "error-text", role: "alert" }, failed) : null,
      progress(job),
      current ? h("p", { class: "forecast-made" }, made) : null,
      current ? summaryTable([{ title: t("forecast.current"), forecast: current },
        ...(whatIf ? [{ title: t("forecast.what_if", { change: changeText(job.what_if) }), forecast: whatIf }] : [])])
        : h("p", { class: "muted" }, t("forecast.none_yet")),
      current ? h("figure", { class: "forecast-figure" }, h("figcaption", {}, t("forecast.chart")), chartNow.el) : null,
      current ? h("div", { class: "two-col" },
        slotsTable(t("forecast.breaking"), (whatIf || current).tables_breaking, 3600),
        h("div", {}, slotsTable(t("forecast.dealers"), (whatIf || current).dealers, 1800),
          h("p", { class: "hint" }, t("forecast.dealers_hint", { ratio: fmt.number(ratio, 2) })))) : null,
      current ? assumptionsBox(whatIf || current) : null,
      checked.length ? h("div", { class: "forecast-truth" }, h("h3", {}, t("forecast.checked")), checkedTable(checked)) : null,
      h("div", { class: "actions" },
        h("a", { class: "button", href: `/api/t/${e}/export/forecasts.csv`, download: `${tid}-forecasts.csv` }, icon("⤓"), t("forecast.export")),
        h("a", { class: "button", href: printHref(tid, "day"), target: "_blank", rel: "noopener" }, t("forecast.print"))));
  }

  schedule();
  return { render, load, onState };
}
