// @ts-check
// A named screen's layout (/wall/{id}?screen=<name>): which pages, in what order, how long
// each, as the director saved it on the console (routes_walls). Read once before the wall is
// built; the wall reloads itself when the saved layout changes (walls_brand.js reads it again
// each minute), so a TV across the room follows the console without a hand on it.

/** @typedef {{ pages: { page: string, seconds: number }[], speech?: import("./speak.js").KeptSpeech }} Layout */

/** The screen's name asked for in the URL, or null. */
export function screenName() {
  return new URLSearchParams(location.search).get("screen");
}

/** The saved layout of this wall's named screen; null for a wall without a name, a name not
 * saved, or a server that cannot be reached (the wall then shows its URL's pages).
 * @param {string} tid @returns {Promise<Layout | null>} */
export async function screenLayout(tid) {
  const name = screenName();
  if (!name) return null;
  try {
    const r = await fetch(`/api/t/${encodeURIComponent(tid)}/wall?screen=${encodeURIComponent(name)}`,
      { credentials: "same-origin" });
    if (!r.ok) return null;
    const got = await r.json();
    shown = JSON.stringify(got.screen ?? null);
    return got.screen ?? null;
  } catch (err) {
    return null;
  }
}

/** The layout this page was built with, as JSON: a different one saved since means reload. */
let shown = "null";

/** Whether the layout the server answered differs from the one the wall was built with.
 * @param {any} screen */
export function layoutChanged(screen) {
  return screenName() !== null && JSON.stringify(screen ?? null) !== shown;
}
