// @ts-check
// The floor phone's player search: the server's answer with how many match in all, or offline
// the copy held here (search.js); each result opens the player's table and seat, with the
// sales and the player panel.

import * as fmt from "./format.js";
import { t } from "./i18n.js";
import { outText, placeOf } from "./milestone_console.js";
import { countLine, findPlayersNow } from "./search.js";
import { debounce, fill, h } from "./ui.js";

/** @import { Phone } from "./floor_phone.js" */

/**
 * @param {Phone} phone
 * @param {{ saleBlock: (p: any) => HTMLElement | null }} parts
 */
export function searchTab(phone, { saleBlock }) {
  const { conn, tid, ui, canMove, openTable } = phone;
  const { manage } = phone.tools;

  const searchInput = h("input", { id: "floor-search", type: "search", autocomplete: "off", spellcheck: "false",
    enterkeyhint: "search" });
  const searchResults = h("div", { class: "results", "aria-live": "polite" });
  const runSearch = debounce(async () => {
    const q = searchInput.value.trim();
    ui.search = q;
    if (!q) {
      ui.results = [];
      return renderResults();
    }
    // The server's answer with how many match in all; offline, the copy here (search.js).
    const found = await findPlayersNow(conn, tid, q);
    if (found.query !== searchInput.value.trim()) return; // typed on meanwhile: a later answer comes
    ui.found = found;
    ui.results = found.players;
    renderResults();
  }, 200);
  searchInput.addEventListener("input", runSearch);

  function renderResults() {
    const list = ui.results;
    fill(searchResults, ui.search ? countLine(ui.found) : null, !ui.search ? null : list.length ? h("ul", { class: "result-list" }, list.map((r) => {
      // The live state is fresher than the search answer (a bust, a re-entry since).
      const p = conn.state?.players?.[r.id];
      const live = p ? { ...r, table: p.table, seat: p.seat, busted: p.busted, place: placeOf(p, conn) ?? r.place } : r;
      if (live.busted) {
        // Out of the tournament: nothing to open, so plain text, not a greyed-out button.
        return h("li", { class: "result-item" },
          h("div", { class: "result result-out" },
            h("span", { class: "result-name" }, p?.name ?? r.name),
            h("span", { class: "result-where" }, p?.bust?.seat_won ? outText(p)
              : t("search.busted_place", { place: live.place ?? "–" }))),
          p ? saleBlock(p) : null, p && canMove() ? manage.button(p.id) : null);
      }
      return h("li", { class: "result-item" },
        h("button", { type: "button", class: "result", disabled: live.table == null,
          onclick: () => openTable(live.table, live.seat) },
        h("span", { class: "result-name" }, p?.name ?? r.name),
        h("span", { class: "result-where" }, live.busted ? t("player.busted_place", { place: fmt.ordinal(live.place) })
          : live.table == null ? t("player.no_seat_yet") : fmt.spot(live.table, live.seat)),
        r.moving_to ? h("span", { class: "result-move" }, t("player.moving_to", { where: fmt.spot(r.moving_to.table, r.moving_to.seat) })) : null),
        p ? saleBlock(p) : null, p && canMove() ? manage.button(p.id) : null);
    }))
      : h("p", { class: "empty" }, t("search.none", { q: ui.search })));
  }

  function renderSearch() {
    renderResults();
    return [h("h2", {}, t("floor.search_title")),
      h("div", { class: "field" }, h("label", { for: "floor-search" }, t("search.label")), searchInput,
        h("p", { class: "hint" }, t("search.hint"))), searchResults];
  }

  return { input: searchInput, render: renderSearch };
}
