// @ts-nocheck: the forecaster's screens came untyped (#31); typed in a change of their own, until then
// not checked (tsconfig checkJs checks every other module).
// The day forecaster's line on the wall, when the director shows it (a setting beside the
// forecasts, GET /api/t/{id}/forecast/wall): the next moment expected, worded as an estimate
// and rounded to five minutes ("Money expected about 21:40"). Read every 20 seconds: the
// director's tap hides it within that, a new forecast at a level moves it.

import * as fmt from "./format.js";
import { onLang, t } from "./i18n.js";
import { h } from "./ui.js";

const READ_MS = 20000;
/** A moment this long past its time is not shown any more: the next forecast will come. */
const STALE = 15 * 60;

/** `at` rounded to five minutes: an estimate is said as one. */
export function about(at) {
  return fmt.timeOfDay(Math.round(at / 300) * 300);
}

export function wallLine(tid) {
  const el = h("p", { class: "forecast-line", role: "status", hidden: true });
  let line = null;
  const render = () => {
    const shown = line && line.shown && line.at && Date.now() / 1000 < line.at + STALE;
    el.hidden = !shown;
    if (shown) el.textContent = t(`forecast.wall.${line.what}`, { time: about(line.at) });
  };
  const read = async () => {
    try {
      const r = await fetch(`/api/t/${encodeURIComponent(tid)}/forecast/wall`, { credentials: "same-origin" });
      if (r.ok) line = await r.json();
    } catch (err) {
      // The network away: the line stays as it was until the next read.
    }
    render();
  };
  read();
  setInterval(() => {
    if (document.visibilityState !== "hidden") read();
  }, READ_MS);
  onLang(render);
  return el;
}
