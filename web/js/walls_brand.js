// @ts-check
// The venue's logo on the wall's top bar and the event's sponsor under the pages (the clock
// keeps its column, the title its room), as the director uploaded them (routes_walls: their URLs name their content, so a change is a new URL). Read when the
// wall opens and once a minute after.

import { t } from "./i18n.js";
import { h } from "./ui.js";
import { layoutChanged, screenName } from "./walls_layout.js";

/** How often the wall asks again. */
const EVERY_MS = 60_000;

/**
 * @param {string} tid
 * @param {HTMLElement} bar the top bar: the logo goes before its title
 * @param {HTMLElement} below where the sponsor goes: under the pages, which make room for it
 */
export function wallBrand(tid, bar, below) {
  const logo = /** @type {HTMLImageElement} */ (h("img", { class: "wall-logo", hidden: true, alt: "" }));
  const sponsor = /** @type {HTMLImageElement} */ (h("img", { class: "wall-sponsor", hidden: true, alt: "" }));
  const title = bar.querySelector(".title");
  bar.insertBefore(logo, title);
  below.append(sponsor);
  /** @param {HTMLImageElement} img @param {string | null} url @param {string} alt */
  const show = (img, url, alt) => {
    img.hidden = !url;
    if (img === sponsor) below.hidden = !url;
    img.alt = t(alt);
    if (url && img.getAttribute("src") !== url) img.src = url;
    if (!url) img.removeAttribute("src");
  };
  async function load() {
    try {
      const name = screenName();
      const query = name ? `?screen=${encodeURIComponent(name)}` : "";
      const r = await fetch(`/api/t/${encodeURIComponent(tid)}/wall${query}`, { credentials: "same-origin" });
      if (!r.ok) return;
      const got = await r.json();
      // The director saved another layout for this screen: the wall is built again with it.
      if (layoutChanged(got.screen)) return location.reload();
      show(logo, got.logo, "walls.logo_alt");
      show(sponsor, got.sponsor, "walls.sponsor_alt");
    } catch (err) {
      // The wall keeps what it shows until the server answers again.
    }
  }
  load();
  setInterval(load, EVERY_MS);
  return { load };
}
