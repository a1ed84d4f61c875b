// @ts-check
// The director console's tournaments: the list (each with its screens' links and the
// archive), and a new tournament from a config, or from a rule set and a structure.

import { t } from "./i18n.js";
import { fill, h, toast } from "./ui.js";

/** @import { Desk } from "./director_desk.js" */

/** Where the console remembers the tournament last run. */
export const LAST_KEY = "floor.director.tournament";

/** @param {Desk} desk */
export function tournamentsSection(desk) {
  const { tid, sections, heading, call } = desk;
  /** @type {any[]} */
  let tournaments = [];
  /** @type {{ rules: string[], structures: string[], tournaments: string[] }} */
  let configLists = { rules: [], structures: [], tournaments: [] };

  async function loadTournaments() {
    tournaments = (await call("/api/tournaments")) || [];
    configLists = (await call("/api/config")) || configLists;
    renderTournaments();
  }

  /** @param {string} id */
  function screenLinks(id) {
    const e = encodeURIComponent(id);
    return h("span", { class: "links" },
      h("a", { href: `/wall/${e}`, target: "_blank", rel: "noopener" }, t("index.wall")), " · ",
      h("a", { href: `/final/${e}`, target: "_blank", rel: "noopener" }, t("final.link")), " · ",
      h("a", { href: `/floor/${e}`, target: "_blank", rel: "noopener" }, t("index.floor")), " · ",
      h("a", { href: `/player/${e}`, target: "_blank", rel: "noopener" }, t("index.player")));
  }

  function renderTournaments() {
    const el = sections.tournaments;
    const idIn = h("input", { id: "new-id", required: true, pattern: "[A-Za-z0-9][A-Za-z0-9_\\-]{0,39}", autocapitalize: "none", spellcheck: "false" });
    const nameIn = h("input", { id: "new-name" });
    const mode = h("select", { id: "new-mode" },
      h("option", { value: "config" }, t("director.from_config")),
      h("option", { value: "rules" }, t("director.from_rules")));
    const cfgSel = h("select", { id: "new-config" }, configLists.tournaments.map((c) => h("option", { value: c }, c)));
    const rulesSel = h("select", { id: "new-rules" }, configLists.rules.map((c) => h("option", { value: c }, c)));
    const structSel = h("select", { id: "new-structure" }, configLists.structures.map((c) => h("option", { value: c }, c)));
    const seatsIn = h("input", { id: "new-seats", type: "number", min: 2, max: 12, inputmode: "numeric" });
    const cfgField = h("div", { class: "field" }, h("label", { for: "new-config" }, t("director.config")), cfgSel);
    const rulesField = h("div", { class: "field", hidden: true }, h("label", { for: "new-rules" }, t("director.rules")), rulesSel);
    const structField = h("div", { class: "field", hidden: true }, h("label", { for: "new-structure" }, t("director.structure")), structSel);
    mode.addEventListener("change", () => {
      const byConfig = mode.value === "config";
      cfgField.hidden = !byConfig;
      rulesField.hidden = byConfig;
      structField.hidden = byConfig;
    });
    const form = h("form", { class: "create-form", onsubmit: async (/** @type {SubmitEvent} */ ev) => {
      ev.preventDefault();
      const id = idIn.value.trim();
      if (!/^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$/.test(id)) {
        toast(t("director.bad_id"), "error");
        idIn.focus();
        return;
      }
      /** @type {import("./protocol.js").NewTournament} */
      const body = { id };
      if (nameIn.value.trim()) body.name = nameIn.value.trim();
      if (mode.value === "config") body.config = cfgSel.value;
      else {
        body.rules = rulesSel.value;
        body.structure = structSel.value;
      }
      if (seatsIn.value) body.overrides = { seats: Number(seatsIn.value) };
      const made = await call("/api/tournaments", { method: "POST", body }, t("director.created", { id }));
      if (made) {
        localStorage.setItem(LAST_KEY, id);
        location.search = `?t=${encodeURIComponent(id)}`;
      }
    } },
    h("div", { class: "row" },
      h("div", { class: "field" }, h("label", { for: "new-id" }, t("director.id")), idIn, h("p", { class: "hint" }, t("director.id_hint"))),
      h("div", { class: "field" }, h("label", { for: "new-name" }, t("director.name")), nameIn)),
    h("div", { class: "row" },
      h("div", { class: "field" }, h("label", { for: "new-mode" }, t("director.setup")), mode),
      cfgField, rulesField, structField,
      h("div", { class: "field narrow-field" }, h("label", { for: "new-seats" }, t("director.seats_override")), seatsIn)),
    h("button", { type: "submit", class: "primary" }, t("director.create")));
    fill(el, heading("tournaments", "director.tournaments"),
      tournaments.length ? h("ul", { class: "tournament-list" }, tournaments.map((x) => h("li", { class: x.id === tid ? "current" : "" },
        h("a", { href: `?t=${encodeURIComponent(x.id)}`, "aria-current": x.id === tid ? "page" : null, class: "t-name" }, x.name, " ",
          h("span", { class: "muted" }, `(${x.id})`)),
        h("span", { class: "muted" }, x.winner && x.status !== "live" ? t(`finish.banner.${x.status}`, { name: x.winner })
          : t(`finish.status.${x.status}`, {}, x.status)), screenLinks(x.id),
        h("button", { type: "button", class: "ghost small archive", onclick: () => archive(x) }, t("director.archive")))))
        : h("p", { class: "muted" }, t("director.no_tournaments")),
      // Folded away once a tournament is being run; open when there is none yet.
      h("details", { class: "create-box", open: !tid || !tournaments.length },
        h("summary", {}, t("director.new_tournament")), form));
  }

  /** Off the list (to `GET /api/tournaments?archived=1`); its log and screens stay.
   * @param {any} x
   */
  async function archive(x) {
    if (!confirm(t("director.archive_confirm", { name: x.name }))) return;
    if (await call(`/api/t/${encodeURIComponent(x.id)}/archive`, { method: "POST" }, t("director.archived", { name: x.name }))) {
      if (x.id === tid) localStorage.removeItem(LAST_KEY);
      await loadTournaments();
    }
  }

  return { load: loadTournaments, render: renderTournaments, list: () => tournaments };
}
