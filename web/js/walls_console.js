// @ts-check
// The walls on the director console: the venue's logo and this event's sponsor (PNG, JPEG or
// WebP: the server reads the file's first bytes and refuses anything else, SVG above all),
// each uploaded, shown as the wall will show it, and taken down. The named screens: each TV
// opened as /wall/{id}?screen=<name> shows the layout saved here for its name (which pages, in
// what order, how long each).

import { errorOf } from "./commands.js";
import { onLang, t } from "./i18n.js";
import { HttpError, api, explainError, fill, h, toast } from "./ui.js";
import { speechFields, speechSummary } from "./speak.js";

/** @typedef {{ logo: string | null, sponsor: string | null }} Brand */
/** @typedef {import("./walls_layout.js").Layout} Layout */

const PAGES = ["tables", "moves", "prizes", "chips", "charts", "seats"];

/**
 * @param {{ section: HTMLElement, heading: (id: string, key: string) => HTMLElement, tid: string }} options
 */
export function mountWalls({ section, heading, tid }) {
  /** @type {Brand} */
  let brand = { logo: null, sponsor: null };
  const T = encodeURIComponent(tid);
  /** @param {"logo" | "sponsor"} slot */
  const path = (slot) => (slot === "logo" ? "/api/wall/logo" : `/api/t/${T}/wall/sponsor`);

  async function load() {
    if (!tid) return;
    try {
      const got = await api(`/api/t/${T}/wall`);
      brand = { logo: got.logo, sponsor: got.sponsor };
    } catch (err) {
      brand = { logo: null, sponsor: null };
    }
    render();
  }

  /** @param {"logo" | "sponsor"} slot @param {File} file */
  async function upload(slot, file) {
    let r;
    try {
      r = await fetch(path(slot), { method: "PUT", credentials: "same-origin",
        headers: { "Content-Type": "application/octet-stream" }, body: file });
    } catch (err) {
      return toast(`✗ ${t("error.network")}`, "error", 8000);
    }
    const data = await r.json().catch(() => null);
    if (!r.ok) return toast(`✗ ${explainError(new HttpError(r.status, errorOf(data, r.status)))}`, "error", 8000);
    toast(`✓ ${t(`walls.${slot}_set`)}`, "ok");
    await load();
  }

  /** @param {"logo" | "sponsor"} slot */
  async function remove(slot) {
    try {
      await api(path(slot), { method: "DELETE" });
      toast(`✓ ${t(`walls.${slot}_removed`)}`, "ok");
    } catch (err) {
      toast(`✗ ${explainError(err)}`, "error", 8000);
    }
    await load();
  }

  /** @param {"logo" | "sponsor"} slot */
  function slotBox(slot) {
    const id = `walls-${slot}-file`;
    const input = h("input", { type: "file", id, accept: "image/png,image/jpeg,image/webp" });
    input.addEventListener("change", () => {
      const file = /** @type {HTMLInputElement} */ (input).files?.[0];
      if (file) upload(slot, file);
      /** @type {HTMLInputElement} */ (input).value = "";
    });
    const url = brand[slot];
    return h("div", { class: "walls-slot", id: `walls-${slot}` },
      h("h3", {}, t(`walls.${slot}`)),
      url ? h("img", { class: "walls-preview", src: url, alt: t(`walls.${slot}_alt`) }) : h("p", { class: "muted" }, t("walls.none")),
      h("div", { class: "field" }, h("label", { for: id }, t("walls.upload")), input),
      url ? h("button", { type: "button", class: "ghost", onclick: () => remove(slot) }, t("walls.remove")) : null);
  }

  /** @type {Record<string, Layout>} */
  let screens = {};
  async function loadScreens() {
    try {
      screens = (await api("/api/wall/screens")).screens;
    } catch (err) {
      screens = {};
    }
    render();
  }

  /** The form of a screen's layout: each page's place in the rotation (or none) and time. */
  function screenForm() {
    const name = h("input", { id: "screen-name", type: "text", maxlength: 32,
      autocomplete: "off", spellcheck: "false", "aria-describedby": "screen-name-hint" });
    const rows = PAGES.map((page, i) => {
      const order = h("select", { id: `screen-${page}-order`, "aria-label": `${t(`wall.page.${page}`)}: ${t("walls.order")}` },
        h("option", { value: "" }, t("walls.not_shown")),
        PAGES.map((_, n) => h("option", { value: String(n + 1), selected: page === "tables" && n === 0 }, String(n + 1))));
      const seconds = h("input", { id: `screen-${page}-seconds`, type: "number", min: 4, max: 600, step: 1, value: 18,
        inputmode: "numeric", "aria-label": `${t(`wall.page.${page}`)}: ${t("walls.seconds")}` });
      return { page, order, seconds, row: h("tr", {}, h("th", { scope: "row" }, t(`wall.page.${page}`)),
        h("td", {}, order), h("td", {}, seconds)), i };
    });
    const voice = speechFields(); // issue 29.4: whether the screen speaks (speak.js)
    const save = async () => {
      const value = /** @type {HTMLInputElement} */ (name).value.trim();
      const pages = rows
        .map((r) => ({ page: r.page, at: Number(/** @type {HTMLSelectElement} */ (r.order).value),
          seconds: Number(/** @type {HTMLInputElement} */ (r.seconds).value) }))
        .filter((r) => r.at > 0)
        .sort((a, b) => a.at - b.at)
        .map((r) => ({ page: r.page, seconds: r.seconds }));
      try {
        const speech = voice.value();
        await api(`/api/wall/screens/${encodeURIComponent(value)}`, { method: "PUT", body: speech ? { pages, speech } : { pages } });
        toast(`✓ ${t("walls.screen_saved", { name: value })}`, "ok");
        await loadScreens();
      } catch (err) {
        toast(`✗ ${explainError(err)}`, "error", 8000);
      }
    };
    return h("div", { class: "walls-screen-form" },
      h("div", { class: "field" }, h("label", { for: "screen-name" }, t("walls.screen_name")), name,
        h("p", { class: "hint", id: "screen-name-hint" }, t("walls.screen_name_hint"))),
      // On a phone at a large text size the layout scrolls sideways in its own box, not the page.
      h("div", { class: "walls-layout-box" },
        h("table", { class: "walls-layout" }, h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("walls.page")),
          h("th", { scope: "col" }, t("walls.order")), h("th", { scope: "col" }, t("walls.seconds")))),
        h("tbody", {}, rows.map((r) => r.row)))), voice.el,
      h("button", { type: "button", class: "ok", id: "screen-save", onclick: save }, t("walls.screen_save")));
  }

  function screenList() {
    const names = Object.keys(screens);
    if (!names.length) return h("p", { class: "muted" }, t("walls.no_screens"));
    return h("ul", { class: "walls-screens" }, names.map((name) => {
      const url = `/wall/${T}?screen=${encodeURIComponent(name)}`;
      const drop = async () => {
        try {
          await api(`/api/wall/screens/${encodeURIComponent(name)}`, { method: "DELETE" });
        } catch (err) {
          toast(`✗ ${explainError(err)}`, "error", 8000);
        }
        await loadScreens();
      };
      return h("li", { dataset: { screen: name } }, h("strong", {}, name), " ",
        h("a", { href: url, target: "_blank" }, url), h("br"),
        screens[name].pages.map((p) => t("walls.page_for", { page: t(`wall.page.${p.page}`), n: p.seconds })).join(" → "),
        screens[name].speech ? ` · ${speechSummary(screens[name].speech)}` : "",
        " ", h("button", { type: "button", class: "ghost small", onclick: drop }, t("walls.screen_forget")));
    }));
  }

  let form = screenForm();
  function render() {
    if (!tid) return fill(section, heading("walls", "director.walls"));
    fill(section, heading("walls", "director.walls"), h("p", { class: "hint" }, t("walls.hint")),
      h("div", { class: "two-col" }, slotBox("logo"), slotBox("sponsor")),
      h("h3", {}, t("walls.screens")), h("p", { class: "hint" }, t("walls.screens_hint")), screenList(), form);
  }

  onLang(() => {
    form = screenForm();
    render();
  });
  render();
  load();
  loadScreens();
  return { render, load };
}
