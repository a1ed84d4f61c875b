// @ts-check
// The floor phone's sent tab: what this phone sent (outbox, commands.js), each with its
// status, tries and the server's answer; a stale one is sent again only when staff say so.

import * as fmt from "./format.js";
import { t } from "./i18n.js";
import { explainError, h } from "./ui.js";

/** @import { Phone } from "./floor_phone.js" */
/** @import { OutboxItem } from "./types.js" */

/**
 * @param {Phone} phone
 * @param {HTMLElement[]} account who is signed in, the sign-out, and the alerts for my section
 *   on this phone (push.js)
 */
export function sentTab(phone, account) {
  const { conn, outbox } = phone;
  const userEl = account[0];
  const signOutBtn = account[1];
  const pushEl = account[2];

  /** @type {Record<string, string>} */
  const STATUS_LABEL = { pending: "sent.pending", done: "sent.done", refused: "sent.refused", signin: "sent.signin", stale: "sent.stale" };

  function renderSent() {
    const items = outbox.items;
    return [h("div", { class: "account" }, userEl, signOutBtn), pushEl, h("h2", {}, t("floor.sent_title")),
      h("p", { class: "hint" }, t("sent.explain")),
      items.length ? h("ul", { class: "sent-list" }, items.map((/** @type {OutboxItem} */ i) => h("li", { class: `sent-item ${i.status}` },
        h("div", { class: "sent-head" }, h("span", { class: `badge badge-${i.status === "done" ? "ok" : i.status === "refused" ? "refused" : "paused"}` },
          t(STATUS_LABEL[i.status] || i.status)), " ", h("strong", {}, i.label || i.command.type)),
        h("div", { class: "muted small" }, fmt.timeOfDay(i.created / 1000, true), i.tries > 1 ? ` · ${t("sent.tries", { n: i.tries })}` : ""),
        i.error ? h("p", { class: i.status === "refused" ? "error-text" : "muted" }, explainError(i.error, conn)) : null,
        i.status === "stale" || i.status === "refused" ? h("div", { class: "actions" },
          i.status === "stale" ? h("button", { type: "button", onclick: () => outbox.retry(i.id) }, t("sent.send_anyway")) : null,
          h("button", { type: "button", class: "ghost", onclick: () => outbox.discard(i.id) }, t("sent.discard"))) : null)))
        : h("p", { class: "empty" }, t("sent.none")),
      items.some((/** @type {OutboxItem} */ i) => i.status !== "pending") ? h("button", { type: "button", class: "ghost", onclick: () => outbox.clearAnswered() }, t("sent.clear")) : null];
  }

  return renderSent;
}
