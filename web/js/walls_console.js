// @ts-check
// The walls on the director console: the venue's logo and this event's sponsor (PNG, JPEG or
// WebP: the server reads the file's first bytes and refuses anything else, SVG above all),
// each uploaded, shown as the wall will show it, and taken down.

import { errorOf } from "./commands.js";
import { onLang, t } from "./i18n.js";
import { HttpError, api, explainError, fill, h, toast } from "./ui.js";

/** @typedef {{ logo: string | null, sponsor: string | null }} Brand */

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

  function render() {
    if (!tid) return fill(section, heading("walls", "director.walls"));
    fill(section, heading("walls", "director.walls"), h("p", { class: "hint" }, t("walls.hint")),
      h("div", { class: "two-col" }, slotBox("logo"), slotBox("sponsor")));
  }

  onLang(render);
  render();
  load();
  return { render, load };
}
