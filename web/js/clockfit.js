// @ts-check
// A clock's digits as large as their screen's style makes them, and never wider than the panel
// they are in. Each screen's sizes were chosen for MM:SS; a level of an hour or more (main
// events play 60-120 minutes) shows H:MM:SS, two characters more, and at the wall's size ran
// under the table map. The style's size stays the largest: the digits only ever shrink, and
// grow back when the text gets shorter, the panel wider or the style's size changes (the
// wall's tighter layouts, hand-for-hand).

/** The width of an element's text as laid out now (an inline range: overflow included).
 * @param {Element} el
 */
function textWidth(el) {
  const range = document.createRange();
  range.selectNodeContents(el);
  return range.getBoundingClientRect().width;
}

/** The room across `box`: its content box, the width its children may take.
 * @param {Element} box
 */
function roomIn(box) {
  const style = getComputedStyle(box);
  return box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
}

/**
 * Keep `el`'s text within `box`'s width. Returns fit(): call it after the text changes (cheap
 * when nothing that matters changed: only the style is read, never the layout) and after
 * anything that changes the style's size; a change of the panel's width and the fonts
 * arriving refit on their own.
 * @param {HTMLElement} el
 * @param {Element} box
 */
export function clockFitter(el, box) {
  /** @type {number | null} */
  let room = null;
  /** @type {{ key: string, size: number | null }} */
  let last = { key: "", size: null };
  const apply = (/** @type {number | null} */ size) => {
    if (size == null) el.style.removeProperty("font-size");
    // Important: some screens size their clock with !important rules of their own.
    else el.style.setProperty("font-size", `${size}px`, "important");
  };
  const fit = () => {
    el.style.removeProperty("font-size");
    const design = parseFloat(getComputedStyle(el).fontSize);
    if (room == null) room = roomIn(box);
    const key = `${design}|${el.textContent.length}|${room}`;
    if (key === last.key) {
      apply(last.size);
      return;
    }
    const width = textWidth(el);
    if (!(room > 0) || !(width > 0)) {
      // Not laid out (hidden): measured again once it is shown.
      room = null;
      last = { key: "", size: null };
      return;
    }
    // Tabular digits: every text of this length is as wide as this one.
    const size = width > room ? Math.floor(((design * room * 0.98) / width) * 100) / 100 : null;
    last = { key, size };
    apply(size);
  };
  if (window.ResizeObserver) {
    // The panel's width may have changed: measured again, outside the observer's callback
    // (the refit changes the size it observes).
    new ResizeObserver(() => requestAnimationFrame(() => {
      room = null;
      fit();
    })).observe(box);
  }
  document.fonts?.ready.then(() => {
    last = { key: "", size: null };
    fit();
  });
  return fit;
}
