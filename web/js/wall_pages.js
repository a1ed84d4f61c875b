// @ts-check
// The wall's pages in rotation: which page (and which part of a page shown in parts) is on
// screen, the list naming them in the top bar, the bar that fills until the next page, and
// the arrow keys (or a TV remote that sends them) turning the pages by hand.

import { t } from "./i18n.js";
import { every, fill, h } from "./ui.js";
import { narrow } from "./wall_fit.js";

/** @typedef {{ page: string, part: number }} Shown */

/**
 * @typedef {object} RotationOptions
 * @property {string[]} pages the pages asked for (?pages=), in order
 * @property {HTMLElement} nav the list of the pages' names
 * @property {HTMLElement} progress the bar that fills until the next page
 * @property {(page: string) => boolean} skip a page with nothing on it now
 * @property {(page: string) => boolean} listed a page the rotation turns to now, as the list
 *   names them
 * @property {(page: string) => number} span milliseconds the page stays up
 * @property {() => void} show draw what is on screen now
 */

export class Rotation {
  /** @param {RotationOptions} options */
  constructor({ pages, nav, progress, skip, listed, span, show }) {
    this.pages = pages;
    this.nav = nav;
    this.progress = progress;
    this.skip = skip;
    this.listed = listed;
    this.span = span;
    this.show = show;
    /** How many parts each page is shown in (the map of a big room, a long prize ladder).
     * @type {Record<string, number>} */
    this.parts = { tables: 1, moves: 1, prizes: 1, chips: 1, standings: 1, charts: 1, seats: 1 };
    /** @type {Shown[]} */
    this.rotation = [];
    this.current = 0;
    this.pageStarted = Date.now();
    /** The tournament has its winner: the map and the moves have nothing more to say. */
    this.ended = false;
  }

  /** The pages in rotation: those asked for, or at the end the standings (and the charts). */
  shownPages() {
    return this.ended ? ["standings", ...this.pages.filter((p) => p === "charts")] : this.pages;
  }

  /** What is on screen: a page and its part (none before the first build).
   * @returns {Shown | undefined} */
  get on() {
    return this.rotation[this.current];
  }

  build() {
    const was = this.on;
    /** @type {Shown[]} */
    const list = [];
    for (const p of this.shownPages()) for (let i = 0; i < this.parts[p]; i += 1) list.push({ page: p, part: i });
    this.rotation = list;
    // The page on screen stays on screen.
    const same = was
      ? this.rotation.findIndex((r) => r.page === was.page && r.part === Math.min(was.part, this.parts[was.page] - 1))
      : -1;
    this.current = same >= 0 ? same : 0;
  }

  /** The tournament ended (or its last bust-out was undone): the other pages come (back).
   * @param {boolean} ended */
  setEnded(ended) {
    if (ended === this.ended) return false;
    this.ended = ended;
    this.build();
    this.pageStarted = Date.now();
    return true;
  }

  /** Set the parts of `page`: the rotation follows.
   * @param {string} page
   * @param {number} n */
  setParts(page, n) {
    if (this.parts[page] === n) return;
    this.parts[page] = n;
    this.build();
    this.renderNav();
  }

  /** The part of `page` on screen (0 when another page is).
   * @param {string} page */
  partOf(page) {
    const r = this.on;
    return r && r.page === page ? r.part : 0;
  }

  /** "page 2 of 3" for a page in parts, nothing for a page shown whole.
   * @param {string} page */
  partText(page) {
    return this.parts[page] > 1 ? t("wall.page_of", { n: this.partOf(page) + 1, of: this.parts[page] }) : "";
  }

  renderNav() {
    const r = this.on;
    fill(this.nav, this.shownPages().filter(this.listed).map((p) => {
      const on = r && r.page === p;
      return h("li", { class: on ? "current" : "", "aria-current": on ? "page" : null },
        t(`wall.page.${p}`), on && this.parts[p] > 1 ? ` ${r.part + 1}/${this.parts[p]}` : "");
    }));
    this.nav.setAttribute("aria-label", t("wall.pages"));
  }

  /** Put up the first part that `which` picks, now (not at the next turn).
   * @param {(r: Shown) => boolean} which */
  turnTo(which) {
    const first = this.rotation.findIndex(which);
    if (first < 0) return;
    this.current = first;
    this.pageStarted = Date.now();
  }

  next(by = 1) {
    for (let tries = 0; tries < this.rotation.length; tries += 1) {
      this.current = (this.current + by + this.rotation.length) % this.rotation.length;
      if (!this.skip(this.rotation[this.current].page)) break;
    }
    this.pageStarted = Date.now();
    this.show();
  }

  /** Turn the pages: by the clock, and by the arrow keys. */
  start() {
    addEventListener("keydown", (ev) => {
      if (ev.altKey || ev.ctrlKey || ev.metaKey || narrow()) return;
      if (ev.key === "ArrowRight" || ev.key === "PageDown") this.next(1);
      else if (ev.key === "ArrowLeft" || ev.key === "PageUp") this.next(-1);
      else return;
      ev.preventDefault();
    });
    every(250, () => {
      const elapsed = Date.now() - this.pageStarted;
      const r = this.on;
      const span = r ? this.span(r.page) : 0;
      this.progress.style.setProperty("--p", String(Math.min(1, elapsed / span)));
      if (this.rotation.length > 1 && elapsed >= span) this.next();
    });
  }
}
