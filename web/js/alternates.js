// @ts-check
// A flight's capacity and its alternates: the director's panel (the capacity, the line with a
// tap to seat a called alternate or take one off, a name put in line at the desk) and the
// wall's panel (who is called to the desk, who is next, and the code to join while full).
//
// The rules are the server's (floor/engine/alternates.py): whether the flight is full, who is
// called and until when, who missed their time. This file renders the line it is sent, in
// its order, and sends the commands.

import * as fmt from "./format.js";
import { t } from "./i18n.js";
import { qrSvg } from "./qr.js";
import { every, fill, h } from "./ui.js";
import { narrow, rootPx } from "./wall_fit.js";
/** @import { Conn, Send } from "./types.js" */
/** @import { Alternate, AlternateLine, Capacity } from "./protocol.js" */

/** The line as the server sent it (an old server's state has none).
 * @param {Conn | null} conn
 * @returns {AlternateLine | null} */
export function lineOf(conn) {
  return conn?.state?.alternates ?? null;
}

/** What is left of a called alternate's time, by the server's clock (seconds).
 * @param {Conn} conn @param {Alternate} a */
export function timeLeft(conn, a) {
  return a.ends_at == null ? 0 : Math.max(0, a.ends_at - conn.now() / 1000);
}

/** The address of the line's own page, for the code on the wall.
 * @param {string} tid */
export function lineUrl(tid) {
  return `${location.origin}/line/${encodeURIComponent(tid)}`;
}

// The director's panel ---------------------------------------------------------------------------

/** @type {{ built: Element | null, facts: HTMLElement | null, list: HTMLElement | null, key: string, ticking: boolean }} */
const panel = { built: null, facts: null, list: null, key: "", ticking: false };

/**
 * @param {{ section: HTMLElement, conn: Conn | null, send: Send }} options
 */
export function renderAlternates({ section, conn, send }) {
  if (!section) return;
  const s = conn?.state;
  if (!conn || !s) {
    fill(section, h("h2", { id: "h-alternates" }, t("director.alternates")));
    panel.built = null;
    return;
  }
  const lang = document.documentElement.lang;
  if (panel.built !== section.firstChild || !section.contains(panel.list) || panel.key !== lang) {
    panel.facts = h("div", { class: "alt-facts", "aria-live": "polite" });
    panel.list = h("div", { class: "alt-list" });
    const heading = h("h2", { id: "h-alternates" }, t("director.alternates"));
    fill(section, heading, panel.facts, capacityForm(conn, send), queueForm(send), panel.list);
    panel.built = heading;
    panel.key = lang;
  }
  if (!panel.ticking) {
    // The called alternates' time counts down between batches.
    panel.ticking = true;
    every(1000, () => {
      if (section.contains(panel.list)) drawList(conn, send);
    });
  }
  drawFacts(conn);
  drawList(conn, send);
}

/** @param {Conn} conn */
function drawFacts(conn) {
  const line = lineOf(conn);
  const facts = conn.facts?.alternates;
  if (!panel.facts || !line) return;
  const called = line.line.filter((a) => a.called_at != null).length;
  const waiting = line.line.length - called;
  const head = facts && facts.limit != null
    ? t("alt.facts", { held: facts.held, limit: facts.limit, called, waiting })
    : t("alt.facts_open", { called, waiting });
  fill(panel.facts,
    h("p", {}, head),
    facts?.full ? h("p", { class: "alt-full" }, t("alt.full")) : null,
    h("p", { class: "muted" }, t("alt.totals", { seated: line.seated, lapsed: line.lapsed, refunded: line.refunded })));
}

/** The line drawn again only when it, the language or a countdown's second changed. */
let listKey = "";

/**
 * @param {Conn} conn
 * @param {Send} send
 */
function drawList(conn, send) {
  const line = lineOf(conn);
  if (!panel.list || !line) return;
  const key = JSON.stringify([line.line, document.documentElement.lang,
    line.line.map((a) => Math.ceil(timeLeft(conn, a)))]);
  if (key === listKey && panel.list.firstChild) return;
  listKey = key;
  if (!line.line.length) {
    fill(panel.list, h("p", { class: "muted" }, t("alt.empty")));
    return;
  }
  fill(panel.list, h("table", { class: "alt-table" },
    h("thead", {}, h("tr", {},
      h("th", { scope: "col" }, t("alt.place")),
      h("th", { scope: "col" }, t("alt.name")),
      h("th", { scope: "col" }, t("alt.state")),
      h("th", { scope: "col" }, t("alt.actions")))),
    h("tbody", {}, line.line.map((a, i) => h("tr", { class: a.called_at != null ? "alt-called" : "", dataset: { alternate: a.id } },
      h("td", {}, String(i + 1)),
      h("td", {}, a.name, a.public ? h("span", { class: "muted" }, ` · ${t("alt.from_wall")}`) : null),
      h("td", {}, stateText(conn, a)),
      h("td", { class: "actions" },
        a.called_at != null
          ? h("button", { type: "button", class: "small", "aria-label": t("alt.seat_label", { name: a.name }),
            onclick: () => send({ type: "seat_alternate", alternate: a.id }, t("alt.seat_label", { name: a.name })) }, t("alt.seat"))
          : null,
        h("button", { type: "button", class: "small ghost", "aria-label": t("alt.drop_label", { name: a.name }),
          onclick: () => {
            if (!confirm(t("alt.drop_confirm", { name: a.name }))) return;
            send({ type: "drop_alternate", alternate: a.id }, t("alt.drop_label", { name: a.name }));
          } }, t("alt.drop"))))))));
}

/** @param {Conn} conn @param {Alternate} a */
export function stateText(conn, a) {
  if (a.called_at == null) return t("alt.waiting");
  const left = timeLeft(conn, a);
  return left > 0 ? t("alt.called_until", { left: fmt.clock(left) }) : t("alt.called_over");
}

/**
 * @param {string} id @param {string} label @param {HTMLElement} input
 */
function field(id, label, input) {
  return h("div", { class: "field" }, h("label", { for: id }, label), input);
}

/**
 * @param {Conn} conn
 * @param {Send} send
 */
function capacityForm(conn, send) {
  const cap = lineOf(conn)?.capacity ?? null;
  const unitNow = cap?.seats != null ? "seats" : cap?.tables != null ? "tables" : "none";
  const unit = h("select", { id: "alt-unit" },
    ["none", "seats", "tables"].map((v) => h("option", { value: v, selected: v === unitNow }, t(`alt.unit.${v}`))));
  const size = h("input", { id: "alt-size", type: "number", min: 1, inputmode: "numeric",
    value: cap?.seats ?? cap?.tables ?? "" });
  const call = h("select", { id: "alt-call" },
    ["each", "wave"].map((v) => h("option", { value: v, selected: (cap?.call ?? "each") === v }, t(`alt.call.${v}`))));
  const wave = h("input", { id: "alt-wave", type: "number", min: 0, inputmode: "numeric", value: cap?.wave ?? 0 });
  const minutes = h("input", { id: "alt-minutes", type: "number", min: 0.1, step: "any", inputmode: "decimal", value: cap?.minutes ?? 5 });
  const atClose = h("select", { id: "alt-at-close" },
    ["seat", "refund"].map((v) => h("option", { value: v, selected: (cap?.at_close ?? "seat") === v }, t(`alt.at_close.${v}`))));
  return h("form", { class: "alt-capacity", onsubmit: (/** @type {SubmitEvent} */ ev) => {
    ev.preventDefault();
    /** @type {Capacity | null} */
    let capacity = null;
    if (unit.value !== "none") {
      capacity = { seats: null, tables: null, call: /** @type {Capacity["call"]} */ (call.value),
        wave: Number(wave.value || 0), minutes: Number(minutes.value || 5),
        at_close: /** @type {Capacity["at_close"]} */ (atClose.value) };
      if (unit.value === "seats") capacity.seats = Number(size.value);
      else capacity.tables = Number(size.value);
    }
    send({ type: "set_capacity", capacity }, t("alt.saved"));
  } },
  h("h3", {}, t("alt.capacity")),
  h("div", { class: "row wrap" },
    field("alt-unit", t("alt.unit"), unit),
    field("alt-size", t("alt.size"), size),
    field("alt-call", t("alt.call"), call),
    field("alt-wave", t("alt.wave"), wave),
    field("alt-minutes", t("alt.minutes"), minutes),
    field("alt-at-close", t("alt.at_close"), atClose)),
  h("button", { type: "submit" }, t("alt.save")));
}

/** @param {Send} send */
function queueForm(send) {
  const name = h("input", { id: "alt-queue-name", maxlength: 80, autocomplete: "off", required: true });
  return h("form", { class: "alt-queue row wrap", onsubmit: async (/** @type {SubmitEvent} */ ev) => {
    ev.preventDefault();
    const value = name.value.trim();
    if (!value) return;
    const sent = await send({ type: "queue_alternate", name: value, player: null }, t("alt.queue_label", { name: value }));
    if (sent.status === "done") name.value = "";
  } },
  field("alt-queue-name", t("alt.queue_name"), name),
  h("button", { type: "submit" }, t("alt.queue")));
}

// The wall's panel -------------------------------------------------------------------------------

/** How many names of those waiting the wall lists. */
const WALL_NEXT = 4;
/** What the latest seat changes keep under the panel, in rem: their heading and two rows,
 * or their heading and the line that says there are none. */
const LATEST_ROOM = 11;
const LATEST_EMPTY = 7.5;

/** What the wall's column `left` leaves the panel `el`, in px: its height but the other
 * panels' (the sit-outs give way) and the latest changes' heading and first rows.
 * @param {HTMLElement} left @param {HTMLElement} el */
function room(left, el) {
  const rem = rootPx();
  const shown = [...left.children].filter((c) => c instanceof HTMLElement && !c.hidden && c.offsetHeight > 0);
  const others = shown.filter((c) => c !== el && !c.classList.contains("wall-latest") && !c.classList.contains("sit-outs"))
    .reduce((sum, c) => sum + /** @type {HTMLElement} */ (c).offsetHeight, 0);
  const gaps = parseFloat(getComputedStyle(left).rowGap) || 0;
  const latestEl = left.querySelector(".wall-latest");
  // Their heading and "no changes yet", or their heading and first rows.
  const latest = latestEl ? (latestEl.querySelector("li") ? LATEST_ROOM : LATEST_EMPTY) * rem + gaps : 0;
  return Math.max(12 * rem, left.clientHeight - others - latest - gaps * Math.max(0, shown.length - 2));
}

/**
 * The wall's panel: the called alternates with their time left, the next in line, and while
 * the flight is full the code that opens the line's page. Hidden without a line or a capacity.
 * @param {{ conn: Conn, tid: string, onToggle?: () => void }} options
 */
export function alternatesWallPanel({ conn, tid, onToggle }) {
  const el = h("aside", { class: "alt-wall", "aria-label": t("alt.title"), hidden: true });
  const code = h("figure", { class: "alt-code", hidden: true });
  let key = "";
  let codeFor = "";
  let drawnHeight = 0;
  every(500, () => {
    const line = lineOf(conn);
    const facts = conn.facts?.alternates;
    const full = !!facts?.full;
    const shown = !!line && (line.line.length > 0 || full);
    const lang = document.documentElement.lang;
    const called = line ? line.line.filter((a) => a.called_at != null) : [];
    const waiting = line ? line.line.filter((a) => a.called_at == null) : [];
    const now = JSON.stringify([line?.line, full, lang, called.map((a) => Math.ceil(timeLeft(conn, a)))]);
    if (now === key) return;
    key = now;
    const was = !el.hidden;
    el.hidden = !shown;
    if (!shown) {
      el.parentElement?.classList.remove("alt-calling");
      if (was) onToggle?.();
      return;
    }
    el.setAttribute("aria-label", t("alt.title"));
    code.hidden = !full;
    if (full && codeFor !== lang) {
      codeFor = lang;
      qrSvg(lineUrl(tid), t("alt.wall_join")).then((svg) => {
        fill(code, svg, h("figcaption", {}, t("alt.wall_join")));
      });
    }
    // While some are called on a TV, their heading is the panel's (a row more for names).
    const titled = !called.length || narrow();
    /** The panel with the first `nc` called and `nw` waiting by name, the rest counted.
     * @param {number} nc @param {number} nw */
    const draw = (nc, nw) => fill(el,
      titled ? h("h2", { class: "alt-wall-title" }, t("alt.title")) : null,
      called.length ? h("div", { class: "alt-wall-called" },
        h(titled ? "h3" : "h2", { class: "alt-called-head" }, t("alt.wall_called")),
        // The time first: it floats at the right of the name's first line.
        h("ol", {}, called.slice(0, nc).map((a) => h("li", {},
          h("span", { class: "alt-left" }, fmt.clock(timeLeft(conn, a))),
          h("span", { class: "alt-name" }, a.name)))),
        called.length > nc ? h("p", { class: "alt-more" }, t("alt.wall_more", { n: called.length - nc })) : null) : null,
      // The code floats at the right of those waiting: the called have the panel's width.
      code,
      waiting.length ? h("div", { class: "alt-wall-next" },
        h("h3", {}, t("alt.wall_next")),
        nw ? h("ol", { start: called.length + 1 }, waiting.slice(0, nw).map((a) => h("li", {}, a.name))) : null,
        waiting.length > nw ? h("p", { class: "muted" }, t("alt.wall_more", { n: waiting.length - nw })) : null) : null);
    const left = el.parentElement;
    // On a TV the clock gives up its figures while alternates are called (they are on the
    // other pages), and the panel takes what the column has left but the latest changes'
    // heading and first rows; names that do not fit are counted instead, never cut: those
    // waiting first, the called (due at the desk) last.
    left?.classList.toggle("alt-calling", called.length > 0);
    // None called: at most WALL_NEXT names and the code, the height it always had.
    const capped = !narrow() && !!left && called.length > 0;
    el.style.maxHeight = capped && left ? `${room(left, el)}px` : "";
    let nc = called.length;
    let nw = Math.min(waiting.length, WALL_NEXT);
    draw(nc, nw);
    while (capped && el.scrollHeight > el.clientHeight + 1 && (nw > 0 || nc > 1)) {
      if (nw > 0) nw -= 1;
      else nc -= 1;
      draw(nc, nw);
    }
    // The latest changes fit themselves to what the panel leaves them.
    if (was && el.offsetHeight !== drawnHeight) onToggle?.();
    drawnHeight = el.offsetHeight;
    if (!was) onToggle?.();
  });
  return el;
}
