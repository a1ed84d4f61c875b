// @ts-check
// The director console's table screens (floor/server/tablets.py): every paired tablet with its
// table, tournament, dealer and when it was last heard from; a tap ends one (its screen closes
// at once, on every server process) and a small form moves one to another table, of this
// tournament or another, without pairing it again. The list is the server's (GET /api/tablets).

import * as fmt from "./format.js";
import { t } from "./i18n.js";
import { api, explainError, fill, h, toast } from "./ui.js";
/** @import { Child } from "./ui.js" */

/** Mount the section: `tournaments()` the console's list of tournaments (for the move form),
 * `current` the tournament the console shows. Returns {load, render}.
 * @param {{ section: HTMLElement, heading: (id: string, key: string, extra?: Child) => HTMLElement, tournaments: () => any[], current: string }} options
 */
export function mountTablets({ section, heading, tournaments, current }) {
  /** @type {any[]} */
  let tablets = [];
  let loaded = false;
  /** The tablet whose move form is open, by id. */
  /** @type {string | null} */
  let moving = null;

  async function load() {
    try {
      tablets = await api("/api/tablets");
      loaded = true;
    } catch (err) {
      toast(`✗ ${explainError(err)}`, "error", 8000);
    }
    render();
  }

  /** @param {string} id */
  function tournamentName(id) {
    return tournaments().find((/** @type {any} */ x) => x.id === id)?.name ?? id;
  }

  /** @param {any} tablet */
  function lastSeen(tablet) {
    if (tablet.last_seen == null) return t("tablets.never_seen");
    const ago = Math.max(0, Date.now() / 1000 - tablet.last_seen);
    if (ago < 90) return t("tablets.seen_now");
    return t("tablets.seen_at", { time: fmt.timeOfDay(tablet.last_seen) });
  }

  /** @param {any} tablet */
  async function end(tablet) {
    const what = { table: tablet.table, tournament: tournamentName(tablet.tournament) };
    if (!confirm(t("tablets.end_confirm", what))) return;
    try {
      await api(`/api/tablets/${encodeURIComponent(tablet.id)}`, { method: "DELETE" });
      toast(`✓ ${t("tablets.ended", what)}`, "ok");
    } catch (err) {
      toast(`✗ ${explainError(err)}`, "error", 8000);
    }
    load();
  }

  /** @param {any} tablet */
  function moveForm(tablet) {
    const id = `move-${tablet.id}`;
    const where = h("select", { id: `${id}-t` }, tournaments().map((/** @type {any} */ x) =>
      h("option", { value: x.id, selected: x.id === tablet.tournament }, x.name || x.id)));
    const table = h("input", { id: `${id}-n`, type: "number", min: 1, max: 100000, inputmode: "numeric", required: true,
      value: String(tablet.table) });
    const error = h("p", { class: "error-text", role: "alert" });
    return h("form", { class: "tablet-move", "aria-label": t("tablets.move_named", { table: tablet.table }), onsubmit: async (/** @type {SubmitEvent} */ ev) => {
      ev.preventDefault();
      error.textContent = "";
      const body = { tournament: where.value, table: Number(table.value) };
      try {
        await api(`/api/tablets/${encodeURIComponent(tablet.id)}`, { method: "PUT", body });
        toast(`✓ ${t("tablets.moved", { table: body.table, tournament: tournamentName(body.tournament) })}`, "ok");
        moving = null;
        load();
      } catch (err) {
        error.textContent = explainError(err); // next to the fields it names
      }
    } },
    h("div", { class: "row" },
      h("div", { class: "field" }, h("label", { for: `${id}-t` }, t("tablets.tournament")), where),
      h("div", { class: "field narrow-field" }, h("label", { for: `${id}-n` }, t("tablets.table")), table)),
    error,
    h("div", { class: "actions" },
      h("button", { type: "submit", class: "primary small" }, t("tablets.move_here")),
      h("button", { type: "button", class: "ghost small", onclick: () => { moving = null; render(); } }, t("director.cancel"))));
  }

  /** @param {any} tablet */
  function item(tablet) {
    const here = tablet.tournament === current;
    const named = { table: tablet.table };
    return h("li", { class: "tablet-item", dataset: { device: tablet.id } },
      h("div", { class: "staff-who" },
        h("strong", {}, t("tablets.table_n", named)),
        here ? null : h("span", { class: "badge" }, tournamentName(tablet.tournament)),
        h("div", { class: "muted small" }, [
          tablet.dealer ? t("tablets.dealer", { name: tablet.dealer }) : t("tablets.no_dealer"),
          lastSeen(tablet),
          t("tablets.until", { time: fmt.timeOfDay(tablet.expires_at) }),
        ].join(" · "))),
      h("div", { class: "actions" },
        h("button", { type: "button", class: "small", "aria-expanded": String(moving === tablet.id),
          "aria-label": t("tablets.move_named", named), onclick: () => {
            moving = moving === tablet.id ? null : tablet.id;
            render();
            document.getElementById(`move-${tablet.id}-n`)?.focus();
          } }, t("tablets.move")),
        h("button", { type: "button", class: "small danger", "aria-label": t("tablets.end_named", named),
          onclick: () => end(tablet) }, t("tablets.end"))),
      moving === tablet.id ? moveForm(tablet) : null);
  }

  function render() {
    // This tournament's tablets first, by table; then the others'.
    const sorted = [...tablets].sort((a, b) =>
      Number(a.tournament !== current) - Number(b.tournament !== current) || a.tournament.localeCompare(b.tournament) || a.table - b.table);
    fill(section, heading("tablets", "director.tablets"),
      h("p", { class: "hint" }, t("tablets.hint")),
      !loaded ? null : sorted.length
        ? h("ul", { class: "tablet-list", "aria-labelledby": "h-tablets" }, sorted.map(item))
        : h("p", { class: "muted" }, t("tablets.none")),
      h("button", { type: "button", class: "ghost small", onclick: load }, t("tablets.refresh")));
  }

  return { load, render };
}
