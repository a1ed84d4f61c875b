// @ts-check
// The director's message to the room on the console: typed once, shown on the wall and the
// player screens as a line or on the wall's whole screen, cleared with one tap. What stands
// is the server's (the state's `announcement`); what the director is typing stays meanwhile.

import { onLang, t } from "./i18n.js";
import { fill, h } from "./ui.js";

/** @import { Command } from "./types.js" */

/**
 * @param {{ conn: any, section: HTMLElement, heading: (id: string, key: string) => HTMLElement,
 *   send: (command: Command, label: string) => Promise<any> }} options
 */
export function mountAnnounce({ conn, section, heading, send }) {
  const input = h("textarea", { id: "announce-text", rows: 3, maxlength: 280, "aria-describedby": "announce-hint" });
  const hint = h("p", { class: "hint", id: "announce-hint" });
  const label = h("label", { for: "announce-text" });
  const shownEl = h("div", { class: "announce-shown", "aria-live": "polite" });
  const lineBtn = h("button", { type: "button", class: "ok" });
  const screenBtn = h("button", { type: "button", class: "warn" });
  const clearBtn = h("button", { type: "button", class: "danger big", id: "announce-clear" });
  /** @param {boolean} full */
  const show = async (full) => {
    const text = /** @type {HTMLTextAreaElement} */ (input).value;
    const item = await send({ type: "announce", text, full }, t(full ? "announce.sent_screen" : "announce.sent_line"));
    if (item?.status === "done") /** @type {HTMLTextAreaElement} */ (input).value = "";
  };
  lineBtn.addEventListener("click", () => show(false));
  screenBtn.addEventListener("click", () => show(true));
  clearBtn.addEventListener("click", () => send({ type: "clear_announcement" }, t("announce.cleared")));
  const form = h("div", { class: "announce-form" }, h("div", { class: "field" }, label, input, hint),
    h("div", { class: "row" }, lineBtn, screenBtn));
  let key = "";
  const render = () => {
    if (!conn?.state) return fill(section, heading("announce", "director.announce"));
    const a = conn.state.announcement ?? null;
    const now = JSON.stringify([a, document.documentElement.lang]);
    if (now === key) return;
    key = now;
    label.textContent = t("announce.text");
    hint.textContent = t("announce.text_hint");
    lineBtn.textContent = t("announce.as_line");
    screenBtn.textContent = t("announce.as_screen");
    clearBtn.textContent = t("announce.clear");
    fill(shownEl, a
      ? [h("p", {}, t(a.full ? "announce.shown_screen" : "announce.shown_line")),
        h("blockquote", { class: "announce-quote" }, a.text), clearBtn]
      : h("p", { class: "muted" }, t("announce.none")));
    if (!section.contains(form)) fill(section, heading("announce", "director.announce"), shownEl, form);
  };
  onLang(() => {
    key = "";
    fill(section);
    render();
  });
  render();
  return { render };
}
