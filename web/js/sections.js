// @ts-check
// The director console's sections: the tables each floorperson looks after (GET and PUT
// /api/t/{id}/sections, kept beside the accounts, not in the tournament's log). A time call or
// a table to break at a table of a section wakes that floorperson's phone (push.js); a table
// in nobody's section, the phones of the staff with no section.

import { t } from "./i18n.js";
import { api, explainError, fill, h, toast } from "./ui.js";

/** "1-4, 7" -> [1, 2, 3, 4, 7]; null when it is not table numbers and ranges. */
export function parseTables(/** @type {string} */ text) {
  /** @type {number[]} */
  const out = [];
  for (const part of text.split(",").map((p) => p.trim()).filter(Boolean)) {
    const m = /^(\d{1,5})(?:\s*-\s*(\d{1,5}))?$/.exec(part);
    if (!m) return null;
    const lo = Number(m[1]);
    const hi = Number(m[2] ?? m[1]);
    if (lo < 1 || hi < lo || hi - lo > 500) return null;
    for (let n = lo; n <= hi; n += 1) out.push(n);
  }
  return [...new Set(out)].sort((a, b) => a - b);
}

/** [1, 2, 3, 7] -> "1-3, 7". */
export function tablesText(/** @type {number[]} */ tables) {
  /** @type {string[]} */
  const parts = [];
  let i = 0;
  while (i < tables.length) {
    let j = i;
    while (j + 1 < tables.length && tables[j + 1] === tables[j] + 1) j += 1;
    parts.push(j > i ? `${tables[i]}-${tables[j]}` : String(tables[i]));
    i = j + 1;
  }
  return parts.join(", ");
}

/**
 * Mount the section: `staff()` the console's list of accounts, `current` the tournament.
 * @param {{section: HTMLElement, heading: (id: string, key: string) => HTMLElement,
 *   staff: () => Array<{username: string, role: string}>, current: string}} options
 */
export function mountSections({ section, heading, staff, current }) {
  /** @type {Record<string, number[]>} */
  let held = {};

  async function load() {
    if (!current) return;
    try {
      held = (await api(`/api/t/${encodeURIComponent(current)}/sections`)).sections || {};
    } catch (err) {
      toast(`✗ ${explainError(err)}`, "error", 8000);
    }
    render();
  }

  function render() {
    section.hidden = !current;
    if (!current) return;
    const people = staff().filter((a) => a.role === "floor" || a.role === "director");
    const error = h("p", { class: "error-text", role: "alert" });
    const inputs = people.map((a) => h("input", {
      id: `section-${a.username}`, value: tablesText(held[a.username] || []), inputmode: "numeric",
      placeholder: t("sections.placeholder"), autocomplete: "off", "data-name": a.username,
    }));
    const form = h("form", { class: "sections-form", onsubmit: async (/** @type {Event} */ ev) => {
      ev.preventDefault();
      error.textContent = "";
      /** @type {Array<[string, number[]]>} */
      const wanted = [];
      for (const input of inputs) {
        const name = input.dataset.name || "";
        const tables = parseTables(input.value);
        if (tables == null) {
          error.textContent = t("sections.bad", { name });
          input.focus();
          return;
        }
        if (tablesText(tables) !== tablesText(held[name] || [])) wanted.push([name, tables]);
      }
      try {
        for (const [name, tables] of wanted) {
          held = (await api(`/api/t/${encodeURIComponent(current)}/sections/${encodeURIComponent(name)}`,
            { method: "PUT", body: { tables } })).sections;
        }
        toast(`✓ ${t("sections.saved")}`, "ok");
        render();
      } catch (err) {
        error.textContent = explainError(err);
      }
    } },
    people.map((a, i) => h("div", { class: "field" },
      h("label", { for: `section-${a.username}` }, t("sections.tables_of", { name: a.username })), inputs[i])),
    people.length ? h("button", { type: "submit", class: "primary" }, t("sections.save")) : null,
    error);
    fill(section, heading("floorsections", "director.floorsections"),
      h("p", { class: "hint" }, t("sections.hint")),
      people.length ? form : h("p", { class: "muted" }, t("sections.none")));
  }

  return { load, render };
}
