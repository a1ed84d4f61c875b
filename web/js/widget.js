// @ts-check
// The embeddable widget (/widget/{id}): the clock, the field and the chip leaders, for the
// venue's website or a reporter's live page to frame. It reads the open read API only (never
// the screens' websocket: a framing site's crowd is the public edge's), every READ_MS with the
// ETag the browser keeps (a 304 costs no body), and counts the clock down between reads on
// the server's ends_at. It holds no credential and sends no command; who may frame it is the
// server's FLOOR_WIDGET_ANCESTORS. URL options: ?lang=, ?top= (leaders shown, 1-10; 5).

import * as fmt from "./format.js";
import { t } from "./i18n.js";
import { $, fill, h } from "./ui.js";

const READ_MS = 10_000;
const params = new URLSearchParams(location.search);
const tid = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
const top = Math.min(10, Math.max(1, Number(params.get("top")) || 5));
const base = `/api/open/v1/t/${encodeURIComponent(tid)}`;

/** @type {{ clock: any, field: any, counts: any }} */
const docs = { clock: null, field: null, counts: null };
/** @type {number} the local clock minus the server's, from the answers' Date headers */
let skew = 0;

/** @param {string} path */
async function read(path) {
  const r = await fetch(`${base}/${path}`, { cache: "no-cache" });
  if (!r.ok) return null;
  const date = Date.parse(r.headers.get("date") || "");
  if (Number.isFinite(date)) skew = Date.now() - date;
  return r.json();
}

async function refresh() {
  try {
    const [clock, field, counts] = await Promise.all([read("clock"), read("field"), read(`counts?top=${top}`)]);
    Object.assign(docs, { clock, field, counts });
  } catch (err) {
    // The network away: what was shown stays until the next read.
  }
  draw();
}

function secondsLeft() {
  const c = docs.clock;
  if (!c) return null;
  if (c.running && c.ends_at != null) return Math.max(0, c.ends_at - (Date.now() - skew) / 1000);
  return c.remaining;
}

function clockLine() {
  const c = docs.clock;
  if (!c || !c.started) return [h("span", { class: "w-level" }, t("widget.not_started"))];
  if (c.status !== "live") return [];
  const what = c.kind === "break" ? t("widget.break") : t("widget.level", { n: c.number });
  const blinds = c.kind === "level"
    ? `${fmt.chips(c.small_blind)} / ${fmt.chips(c.big_blind)}${c.ante ? ` (${t("widget.ante", { n: fmt.chips(c.ante) })})` : ""}`
    : "";
  return [
    h("span", { class: "w-level" }, what),
    h("span", { class: "w-time", role: "timer" }, fmt.clock(secondsLeft())),
    c.running ? null : h("span", { class: "w-level" }, t("widget.paused")),
    blinds ? h("span", { class: "w-blinds" }, blinds) : null,
  ];
}

function draw() {
  const f = docs.field;
  if (!f) {
    fill($("#app"), h("p", { class: "w-meta" }, t("widget.unavailable")));
    return;
  }
  document.title = `${f.name} · ${t("widget.live")}`;
  const meta = f.winner_name
    ? t("widget.won", { name: f.winner_name })
    : [t("widget.left", { left: fmt.number(f.players_left), entries: fmt.number(f.entries) }),
      f.average_stack ? t("widget.average", { chips: fmt.chips(f.average_stack) }) : ""].filter(Boolean).join(" · ");
  const leaders = docs.counts?.counts || [];
  fill($("#app"),
    h("h1", { class: "w-name" }, f.name),
    h("div", { class: "w-clock" }, clockLine()),
    h("p", { class: "w-meta" }, meta),
    f.winner_name ? null : h("section", { class: "w-leaders", "aria-labelledby": "w-leaders-title" },
      h("h2", { id: "w-leaders-title" }, t("widget.leaders")),
      leaders.length
        ? h("ol", {}, leaders.map((/** @type {any} */ c) =>
          h("li", {}, h("span", {}, c.name), h("span", { class: "w-stack" }, fmt.chips(c.stack)))))
        : h("p", { class: "w-meta" }, t("widget.no_counts"))),
    h("p", { class: "w-foot" }, t("widget.source")));
}

refresh();
setInterval(() => {
  if (document.visibilityState !== "hidden") refresh();
}, READ_MS);
// The seconds between reads, counted here.
setInterval(() => {
  const el = document.querySelector(".w-time");
  if (el) el.textContent = fmt.clock(secondsLeft());
}, 1000);
