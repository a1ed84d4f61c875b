// @ts-check
// What the wall's panels share to fit a TV read from five metres: the smallest readable text,
// the narrow (phone) layout, and dropping rows that do not fit rather than cutting one.

/** The smallest text anybody must read, in rem: 27 px (2.5 % of the height) on a 1080p TV. */
export const MIN_TEXT = 1.7;

/** A phone's plain column instead of the TV's pages. */
export function narrow() {
  return document.body.classList.contains("narrow");
}

/** One rem in px. */
export function rootPx() {
  return parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
}

/** Drop rows from the end of the last list in `box` until it fits: never a cut-off row.
 * At least `keep` rows stay (the caller makes room for them).
 * @param {HTMLElement} box
 * @param {number} [keep]
 * @returns {boolean} whether it fits */
export function trimToFit(box, keep = 0) {
  let guard = 200;
  while (box.scrollHeight > box.clientHeight + 1 && guard > 0) {
    guard -= 1;
    const lists = [...box.querySelectorAll("ul, tbody")].filter((ul) => ul.children.length);
    const last = lists[lists.length - 1];
    if (!last) break;
    const rows = lists.reduce((n, ul) => n + ul.children.length, 0);
    if (rows <= keep) return false;
    last.lastElementChild?.remove();
  }
  return box.scrollHeight <= box.clientHeight + 1;
}
