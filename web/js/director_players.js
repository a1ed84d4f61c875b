// @ts-check
// The director console's players: one registered by name, a pasted or uploaded list
// (import.js), the draw, and the field (searched as the server ranks it, or by table and
// seat) with each player's panel, sales and card.

import { offers, searchPlayers, whyText as factText } from "./facts.js";
import * as fmt from "./format.js";
import { t } from "./i18n.js";
import { importPanel } from "./import.js";
import { outText } from "./milestone_console.js";
import { cardLink } from "./paper_console.js";
import { countLine } from "./search.js";
import { fill, h, toast } from "./ui.js";

/** @import { Desk } from "./director_desk.js" */
/** @import { Player } from "./protocol.js" */

/** How the console sells each kind to a player (a re-entry is a new entry by the same id). */
/** @type {Record<string, (p: any) => any>} */
const SALE_COMMANDS = {
  re_entry: (p) => ({ type: "register", name: p.name, player: p.id }),
  rebuy: (p) => ({ type: "rebuy", player: p.id }),
  add_on: (p) => ({ type: "add_on", player: p.id }),
};
/** @type {Record<string, string>} */
const SALE_BUTTON = { re_entry: "director.reentry", rebuy: "sale.button.rebuy", add_on: "sale.button.add_on" };
/** @type {Record<string, string>} */
const SALE_LABEL = { re_entry: "director.reentry_label", rebuy: "sale.label.rebuy", add_on: "sale.label.add_on" };

/** @param {Desk} desk */
export function playersSection(desk) {
  const { conn, tid, outbox, manage, sections, heading, send } = desk;
  let playerFilter = "";

  const playersListEl = h("div", { class: "player-table-wrap" });
  const playersHead = h("div", {});
  const drawBox = h("div", {});
  // The witness's number (engine.fair): typed in before a draw, mixed into every draw after.
  const witnessBox = h("div", {});
  const witnessNow = h("p", { class: "hint", "aria-live": "polite" });
  let playersBuilt = "";

  function buildPlayers() {
    const el = sections.players;
    const nameIn = h("input", { id: "reg-name", maxlength: 80, autocomplete: "off" });
    const needsIn = h("input", { id: "reg-needs", type: "checkbox" });
    const drawTables = h("input", { id: "draw-tables", inputmode: "numeric", placeholder: "1-12" });
    const one = h("form", { class: "row", onsubmit: async (/** @type {SubmitEvent} */ ev) => {
      ev.preventDefault();
      const name = nameIn.value.trim();
      if (!name) return nameIn.focus();
      nameIn.value = "";
      const needs = needsIn.checked;
      needsIn.checked = false;
      nameIn.focus();
      await send({ type: "register", name, special_needs: needs }, t("director.registered", { name }));
    } },
    h("div", { class: "field grow" }, h("label", { for: "reg-name" }, t("director.player_name")), nameIn),
    h("div", { class: "field check-field" }, h("label", { class: "check", for: "reg-needs" }, needsIn, t("director.special_needs"))),
    h("button", { type: "submit", class: "primary" }, t("director.register")));
    // A pasted or uploaded list: previewed by the server, registered in batches (import.js).
    const many = importPanel({ tid, conn, outbox });
    fill(drawBox, h("form", { class: "row draw-form", onsubmit: (/** @type {SubmitEvent} */ ev) => {
      ev.preventDefault();
      const tables = parseTables(drawTables.value);
      if (tables === false) return toast(t("director.bad_tables"), "error");
      send(tables ? { type: "draw_seats", tables } : { type: "draw_seats" }, t("director.draw"));
    } },
    h("div", { class: "field" }, h("label", { for: "draw-tables" }, t("director.draw_tables")), drawTables, h("p", { class: "hint" }, t("director.draw_hint"))),
    h("button", { type: "submit", class: "ok big" }, t("director.draw"))));
    const witnessIn = h("input", { id: "witness", maxlength: 64, autocomplete: "off", inputmode: "numeric" });
    fill(witnessBox, h("form", { class: "row witness-form", onsubmit: async (/** @type {SubmitEvent} */ ev) => {
      ev.preventDefault();
      const value = witnessIn.value.trim();
      if (!value) return witnessIn.focus();
      const sent = await send({ type: "set_witness", value }, t("director.witness_label", { w: value }));
      if (sent.status === "done") witnessIn.value = "";
    } },
    h("div", { class: "field grow" }, h("label", { for: "witness" }, t("director.witness")), witnessIn,
      h("p", { class: "hint" }, t("director.witness_hint"))),
    h("button", { type: "submit" }, t("director.witness_set"))), witnessNow);
    const filter = h("input", { id: "player-filter", type: "search", value: playerFilter, autocomplete: "off" });
    filter.addEventListener("input", () => {
      playerFilter = filter.value;
      renderPlayerList();
    });
    fill(el, playersHead,
      h("div", { class: "two-col" }, h("div", {}, h("h3", {}, t("director.register_one")), one, witnessBox, drawBox),
        h("div", {}, h("h3", {}, t("director.register_list")), many)),
      h("div", { class: "field" }, h("label", { for: "player-filter" }, t("director.find_player")), filter), playersListEl);
  }

  function renderPlayers() {
    if (!conn || !conn.state) return fill(sections.players, heading("players", "director.players"));
    // The forms are built once (and again for another language): typing is never lost.
    if (playersBuilt !== document.documentElement.lang) {
      playersBuilt = document.documentElement.lang;
      buildPlayers();
    }
    const s = conn.state;
    const waiting = Object.values(s.players).filter((p) => !p.busted && p.table == null).length;
    fill(playersHead, heading("players", "director.players",
      t("director.players_count", { n: s.entries, left: conn.stats?.players_left ?? 0, waiting })));
    drawBox.hidden = s.drawn;
    witnessBox.hidden = !s.fair;
    witnessNow.textContent = s.fair?.witness ? t("director.witness_now", { w: s.fair.witness }) : "";
    renderPlayerList();
  }

  /** @param {string} text */
  function parseTables(text) {
    const v = text.trim();
    if (!v) return null;
    const out = [];
    for (const part of v.split(/[\s,]+/).filter(Boolean)) {
      const m = part.match(/^(\d+)(?:-(\d+))?$/);
      if (!m) return false;
      const a = Number(m[1]);
      const b = Number(m[2] || m[1]);
      if (b < a || b - a > 2000) return false;
      for (let i = a; i <= b; i += 1) out.push(i);
    }
    return out;
  }

  /** A player's sale buttons: each kind the server offers, greyed out with the reason when it
   * cannot be sold now (facts.js).
   * @param {Player} p
   */
  function saleButtons(p) {
    return offers(conn, p).map((o) => h("button", {
      type: "button", class: "small", disabled: !!o.closed, title: o.closed ? factText(o.closed, conn, fmt.chips) : null,
      onclick: () => {
        // A sale is paid: asked first.
        if (confirm(t(`sale.confirm.${o.kind}`, { name: p.name }))) send(SALE_COMMANDS[o.kind](p), t(SALE_LABEL[o.kind], { name: p.name }));
      },
    }, t(SALE_BUTTON[o.kind])));
  }

  function renderPlayerList() {
    if (!conn?.state) return;
    // Searched: best matches first, as the server ranks them, and how many match in all.
    // Not searched: the whole field by table and seat.
    const found = playerFilter.trim() ? searchPlayers(conn, playerFilter.trim(), 100) : null;
    const all = found ? found.players.map((r) => conn.state.players[r.id])
      : Object.values(conn.state.players)
        .sort((a, b) => (a.busted - b.busted) || (a.table ?? 1e9) - (b.table ?? 1e9) || (a.seat ?? 0) - (b.seat ?? 0));
    const shown = all.slice(0, 100);
    fill(playersListEl, countLine(found), found && !found.total ? h("p", { class: "muted" }, t("search.none", { q: found.query })) : null,
      h("table", { class: "data" },
      h("caption", { class: "sr-only" }, t("director.players")),
      h("thead", {}, h("tr", {}, ["director.col_name", "director.col_id", "director.col_seat", "director.col_stack", "director.col_status", "director.col_actions"]
        .map((k) => h("th", { scope: "col" }, t(k))))),
      h("tbody", {}, shown.map((p) => h("tr", { class: p.busted ? "busted" : "" },
        h("td", {}, p.name, p.special_needs ? h("span", { class: "badge badge-balance", title: t("director.special_needs") }, "♿") : null),
        h("td", { class: "muted" }, p.id),
        h("td", {}, p.table != null ? fmt.spot(p.table, p.seat) : "–"),
        h("td", {}, p.busted ? "–" : fmt.stackCounted(p) ? fmt.chips(p.stack)
          : h("span", { class: "muted", title: p.stack != null ? t("director.stack_assumed", { stack: fmt.chips(p.stack) }) : null }, t("race.not_counted"))),
        h("td", {}, p.busted ? outText(p, conn)
          : p.table == null ? t("director.waiting_seat") : t("director.playing"),
        p.locked ? ` · ${t("director.locked")}` : ""),
        h("td", { class: "row-actions" }, manage.button(p.id), saleButtons(p), cardLink(tid, p)))))),
    !found && all.length > shown.length ? h("p", { class: "muted" }, t("director.more_players", { n: all.length - shown.length })) : null);
  }

  return renderPlayers;
}
