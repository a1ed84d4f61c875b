// @ts-check
// The director's message to the room (the state's `announcement`, set on the console): on the
// wall a line under the pages and the clock, or the whole screen; on the player screen a banner
// under the top bar. The text is the director's own, shown as typed (never as HTML).

import { t } from "./i18n.js";
import { mount } from "./mount.js";
import { h } from "./ui.js";

/** The message standing now, or null.
 * @param {any} conn @returns {{ text: string, full: boolean, at: number } | null} */
export function announcement(conn) {
  return conn.state?.announcement ?? null;
}

/** Shrink `el`'s text from `most` rem until it fits its box (never under `least` rem), its
 * words whole: a word is broken only when even the least size cannot hold it.
 * @param {HTMLElement} el @param {number} most @param {number} least */
function fitText(el, most, least) {
  let size = most;
  el.style.overflowWrap = "normal";
  el.style.fontSize = `${size}rem`;
  while (size > least && (el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1)) {
    size = Math.max(least, size - 0.2);
    el.style.fontSize = `${size}rem`;
  }
  el.style.overflowWrap = "";
}

/**
 * The wall's parts: `line`, a band the wall's column gives its height to (the clock and the
 * pages fit above it), and `screen`, the whole screen over everything.
 * @param {any} conn
 */
export function wallAnnouncement(conn) {
  const lineText = h("p", { class: "announce-text" });
  const line = h("aside", { class: "announce-line", role: "status", "aria-label": t("announce.line"), hidden: true }, lineText);
  const screenText = h("p", { class: "announce-text" });
  const screenHead = h("h2", { class: "announce-head" });
  const screen = h("section", { class: "announce-screen", role: "alert", "aria-labelledby": "announce-head", hidden: true },
    screenHead, screenText);
  screenHead.id = "announce-head";
  let key = "";
  const draw = () => {
    const a = announcement(conn);
    const now = JSON.stringify([a, innerWidth, innerHeight, document.documentElement.lang]);
    if (now === key) return;
    key = now;
    line.setAttribute("aria-label", t("announce.line"));
    screenHead.textContent = t("announce.title");
    line.hidden = !a || a.full;
    screen.hidden = !a || !a.full;
    document.body.classList.toggle("announcing", !!a && a.full);
    if (a && !a.full) {
      lineText.textContent = a.text;
      fitText(lineText, 4.2, 2.2);
    }
    if (a && a.full) {
      screenText.textContent = a.text;
      fitText(screenText, 9, 3);
    }
  };
  mount(line, conn, draw);
  addEventListener("resize", draw);
  return { line, screen, draw };
}

/** The player screen's banner: the message, line or screen alike, under the top bar.
 * @param {any} conn */
export function playerAnnouncement(conn) {
  const text = h("p", { class: "announce-text" });
  const el = h("aside", { class: "player-announce", role: "status", "aria-label": t("announce.title"), hidden: true }, text);
  mount(el, conn, () => {
    const a = announcement(conn);
    el.hidden = !a;
    el.setAttribute("aria-label", t("announce.title"));
    text.textContent = a ? a.text : "";
  });
  return el;
}
