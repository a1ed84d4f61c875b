// @ts-check
// The blind structure in the console: the chips, the starting stack, late registration, and
// every step (a level: blinds, ante, big-blind ante, minutes; a break: minutes, the chips
// that colour up, a name). Sent as `set_structure`: the server checks it as the TOML files
// are checked (floor/engine/rules.py: blinds payable with the chips in play, colour-ups of
// chips in play, the levels the prize names) and keeps the steps played and the one in play
// as they were. Saved as a structure file (POST /api/structures/toml) and loaded from one
// (POST /api/structures/parse), the layout of config/structures/*.toml.

import { t } from "./i18n.js";
import { h, fill, toast } from "./ui.js";
import { heldState } from "./conn.js";
/** @import { Conn, Send } from "./types.js" */

/** @param {string} text */
function ints(text) {
  return text.split(/[\s,;]+/).filter(Boolean).map(Number);
}

/** @param {any} last */
function blankLevel(last) {
  const bb = last ? last.big_blind * 2 : 200;
  return { type: "level", small_blind: bb / 2, big_blind: bb, ante: 0, big_blind_ante: false, minutes: last?.minutes ?? 20 };
}

/** @param {{ conn: Conn, send: Send }} options */
export function structureEditor({ conn, send }) {
  const state = heldState(conn);
  const s = state.structure;
  const started = state.clock.started;
  const inPlay = state.clock.level;
  /** The steps as typed: each a level's or a break's fields, edited in place.
   * @type {Record<string, any>[]} */
  let steps = (s?.levels || [blankLevel(null)]).map((/** @type {any} */ x) => ({ ...x }));
  const name = h("input", { id: "struct-name", value: s?.name ?? state.name, maxlength: 80 });
  const stack = h("input", { id: "struct-stack", type: "number", min: 1, value: s?.starting_stack ?? 10000, inputmode: "numeric" });
  const chips = h("input", { id: "struct-chips", value: (s?.chips || [25, 100, 500, 1000]).join(", ") });
  const late = h("input", { id: "struct-late", type: "number", min: 1, value: s?.late_registration_until ?? "", inputmode: "numeric" });
  const stepsEl = h("tbody", {});
  const fileIn = h("input", { id: "struct-file", type: "file", accept: ".toml,text/plain" });
  const el = h("form", { class: "structure-form", id: "structure-form" });

  /** @param {number} i @param {string} key @param {Record<string, any>} [attrs] */
  function cell(i, key, attrs = {}) {
    const st = steps[i];
    const locked = started && i <= inPlay;
    const input = attrs.type === "checkbox"
      ? h("input", { type: "checkbox", checked: !!st[key], disabled: locked, "aria-label": t(`structure.${key}`) })
      : h("input", { type: "number", min: 0, step: key === "minutes" ? "any" : 1, value: st[key] ?? "", disabled: locked, "aria-label": t(`structure.${key}`), inputmode: "decimal", ...attrs });
    input.addEventListener("input", () => {
      if (attrs.type === "checkbox") st[key] = input.checked;
      else st[key] = input.value === "" ? 0 : Number(input.value);
    });
    input.addEventListener("change", () => {
      if (attrs.type === "checkbox") st[key] = input.checked;
    });
    return h("td", {}, input);
  }

  function renderSteps() {
    let level = 0;
    fill(stepsEl, steps.map((st, i) => {
      const locked = started && i <= inPlay;
      const isBreak = st.type === "break";
      if (!isBreak) level += 1;
      const type = h("select", { disabled: locked, "aria-label": t("structure.type"), onchange: () => {
        steps[i] = type.value === "break" ? { type: "break", minutes: 15, color_up: [], name: "" } : blankLevel(steps.slice(0, i).filter((x) => x.type === "level").at(-1));
        renderSteps();
      } }, ["level", "break"].map((k) => h("option", { value: k, selected: st.type === k }, t(`structure.${k}`))));
      const colour = h("input", { value: (st.color_up || []).join(", "), disabled: locked, "aria-label": t("structure.color_up"),
        oninput: () => { st.color_up = ints(colour.value); } });
      const label = h("input", { value: st.name || "", disabled: locked, maxlength: 40, "aria-label": t("structure.break_name"),
        oninput: () => { st.name = label.value; } });
      return h("tr", { class: locked ? "played" : "", dataset: { step: i } },
        h("td", { class: "muted" }, isBreak ? "—" : String(level)), h("td", {}, type),
        isBreak ? [h("td", { colspan: 4 }, h("div", { class: "row" }, colour, label)), cell(i, "minutes")]
          : [cell(i, "small_blind"), cell(i, "big_blind", { min: 1 }), cell(i, "ante"), cell(i, "big_blind_ante", { type: "checkbox" }), cell(i, "minutes")],
        h("td", { class: "row-actions" },
          h("button", { type: "button", class: "ghost small", disabled: locked, "aria-label": t("structure.insert_n", { n: i + 1 }), onclick: () => { steps.splice(i + 1, 0, blankLevel(st.type === "level" ? st : null)); renderSteps(); } }, "+"),
          h("button", { type: "button", class: "ghost small", disabled: locked || steps.length < 2, "aria-label": t("structure.remove_n", { n: i + 1 }), onclick: () => { steps.splice(i, 1); renderSteps(); } }, "✕")));
    }));
  }

  /** The structure as the editor holds it (the prize is the money panel's). */
  function value() {
    /** @type {import("./protocol.js").Structure} */
    const out = { name: name.value.trim(), starting_stack: Number(stack.value), chips: ints(chips.value), levels: steps.map((st) => {
      if (st.type === "break") {
        /** @type {import("./protocol.js").Break} */
        const b = { type: "break", minutes: Number(st.minutes) };
        if (st.color_up?.length) b.color_up = st.color_up;
        if (st.name) b.name = st.name;
        return b;
      }
      /** @type {import("./protocol.js").Level} */
      const l = { type: "level", small_blind: Number(st.small_blind), big_blind: Number(st.big_blind), minutes: Number(st.minutes) };
      for (const k of /** @type {const} */ (["ante", "bring_in"])) if (st[k]) l[k] = Number(st[k]);
      if (st.big_blind_ante) l.big_blind_ante = true;
      if (st.game) l.game = st.game;
      return l;
    }) };
    if (late.value) out.late_registration_until = Number(late.value);
    return out;
  }

  /** @param {import("./protocol.js").Structure} structure */
  function load(structure) {
    name.value = structure.name;
    stack.value = String(structure.starting_stack);
    chips.value = structure.chips.join(", ");
    late.value = String(structure.late_registration_until ?? "");
    steps = structure.levels.map((/** @type {any} */ x) => ({ ...x }));
    renderSteps();
  }

  fileIn.addEventListener("change", async () => {
    const f = fileIn.files?.[0];
    if (!f) return;
    const r = await fetch("/api/structures/parse", { method: "POST", credentials: "same-origin", headers: { "Content-Type": "application/toml" }, body: f });
    const data = await r.json().catch(() => null);
    if (!r.ok) return toast(`✗ ${data?.error?.field ? `${data.error.field}: ` : ""}${data?.error?.message || r.status}`, "error", 10000);
    load(data);
    toast(`✓ ${t("structure.loaded", { name: data.name })}`, "ok");
  });

  el.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    await send({ type: "set_structure", structure: value() }, t("structure.saved"));
  });

  fill(el,
    h("div", { class: "row" },
      h("div", { class: "field" }, h("label", { for: "struct-name" }, t("structure.name")), name),
      h("div", { class: "field narrow-field" }, h("label", { for: "struct-stack" }, t("structure.starting_stack")), stack),
      h("div", { class: "field" }, h("label", { for: "struct-chips" }, t("structure.chips")), chips, h("p", { class: "hint" }, t("structure.chips_hint"))),
      h("div", { class: "field narrow-field" }, h("label", { for: "struct-late" }, t("structure.late_until")), late)),
    started ? h("p", { class: "hint" }, t("structure.played_hint", { n: inPlay + 1 })) : null,
    h("div", { class: "scroll-box" }, h("table", { class: "data structure-steps" },
      h("thead", {}, h("tr", {}, ["structure.level_no", "structure.type", "structure.small_blind", "structure.big_blind", "structure.ante",
        "structure.big_blind_ante", "structure.minutes", "director.col_actions"].map((k) => h("th", { scope: "col" }, t(k))))),
      stepsEl)),
    h("div", { class: "actions" },
      h("button", { type: "button", class: "small", onclick: () => { steps.push(blankLevel(steps.filter((x) => x.type === "level").at(-1))); renderSteps(); } }, t("structure.add_level")),
      h("button", { type: "button", class: "small", onclick: () => { steps.push({ type: "break", minutes: 15, color_up: [], name: "" }); renderSteps(); } }, t("structure.add_break"))),
    h("div", { class: "actions" },
      h("button", { type: "submit", class: "primary", id: "structure-save" }, t("structure.apply")),
      h("button", { type: "button", id: "structure-download", onclick: async () => {
        const r = await fetch("/api/structures/toml", { method: "POST", credentials: "same-origin", headers: { "Content-Type": "application/json" }, body: JSON.stringify(value()) });
        if (!r.ok) {
          const data = await r.json().catch(() => null);
          return toast(`✗ ${data?.error?.field ? `${data.error.field}: ` : ""}${data?.error?.message || r.status}`, "error", 10000);
        }
        const a = h("a", { href: URL.createObjectURL(await r.blob()), download: `${value().name || "structure"}.toml` });
        document.body.append(a);
        a.click();
        a.remove();
      } }, t("structure.download")),
      h("label", { class: "button", for: "struct-file" }, t("structure.upload")), fileIn));
  fileIn.hidden = true;
  renderSteps();
  return el;
}
