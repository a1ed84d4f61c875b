// @ts-check
// The end of the tournament on the director console: who won, the bust-outs that can still be
// undone (each with its reason) while the tournament is finished, and the close, after which
// nothing more is sent. What may be undone and the status are the server's facts.

import { ending } from "./finished.js";
import { t } from "./i18n.js";
import { mount } from "./mount.js";
import { fill, h } from "./ui.js";
/** @import { Conn, Send } from "./types.js" */

/**
 * The box, rendered again when the status or the undoable bust-outs change (an undo's reason
 * being typed is kept meanwhile). `send(command, label)` sends a command (the console's
 * outbox); `confirm` asks before the close.
 * @param {Conn} conn
 * @param {Send} send
 * @param {{ confirm?: (message: string) => boolean }} options
 */
export function endBox(conn, send, { confirm = window.confirm } = {}) {
  const el = h("div", { class: "end-box", hidden: true });
  let key = "";
  const render = () => {
    const end = ending(conn);
    const undo = end && end.status === "finished" ? lastBustOuts(conn) : [];
    const now = JSON.stringify([end?.status ?? "live", end?.winner?.player ?? null, undo.map((/** @type {any} */ u) => u.player),
      document.documentElement.lang]);
    if (now === key) return;
    key = now;
    el.hidden = !end;
    if (!end) return fill(el);
    el.dataset.status = end.status;
    const name = (/** @type {string} */ id) => conn.state?.players?.[id]?.name ?? id;
    fill(el,
      h("h3", {}, t("finish.title")),
      h("p", { class: "end-winner", role: "status" }, t(`finish.banner.${end.status}`, { name: end.winner.name })),
      h("p", { class: "hint" }, t(end.status === "closed" ? "finish.closed_note" : "finish.finished_note")),
      undo.map((/** @type {any} */ u) => undoForm(u.player, name(u.player), send)),
      end.status === "finished" ? h("button", { type: "button", class: "danger big end-close", onclick: () => {
        if (confirm(t("finish.close_confirm", { name: conn.state?.name ?? conn.tid }))) {
          send({ type: "close_tournament" }, t("finish.closed_done"));
        }
      } }, t("finish.close")) : null);
  };
  mount(el, conn, render);
  return el;
}

/** The bust-outs that made the winner (the best place out; several when they shared it), of
 * those the server says may still be undone: an earlier one is the floor's, at its table.
 * @param {Conn} conn
 */
function lastBustOuts(conn) {
  const undo = conn.staff?.undo || [];
  const place = (/** @type {any} */ u) => conn.state?.players?.[u.player]?.bust?.place ?? Infinity;
  const best = Math.min(...undo.map(place));
  return undo.filter((/** @type {any} */ u) => place(u) === best);
}

/**
 * @param {string} player
 * @param {string} name
 * @param {Send} send
 */
function undoForm(player, name, send) {
  const id = `end-undo-${player}`;
  const reason = h("input", { id, value: t("finish.undo_default"), maxlength: 500, required: true });
  return h("form", { class: "row end-undo", onsubmit: (/** @type {SubmitEvent} */ ev) => {
    ev.preventDefault();
    const why = reason.value.trim() || t("finish.undo_default");
    send({ type: "undo_bust", player, reason: why }, t("finish.undo", { name }));
  } },
  h("div", { class: "field grow" }, h("label", { for: id }, t("finish.undo_reason", { name })), reason),
  h("button", { type: "submit", class: "warn" }, t("finish.undo", { name })));
}
