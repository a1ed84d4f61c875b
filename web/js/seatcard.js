// @ts-check
// The digital seat card on the player's phone (issue 28.4): the table and seat with the QR
// code the server signed for this entry's seat (floor/server/seat_pass.py). The server draws
// the code (its modules come as rows of 0 and 1); this only paints them. Shown on a tap, and
// fetched again whenever the seat the player follows changes: the card of the old seat is void.

import { t } from "./i18n.js";
import { modulesSvg } from "./qr.js";
import { api, explainError, fill, h } from "./ui.js";

/** The server's QR modules as an SVG, dark on white.
 * @param {{ size: number, rows: string[] }} qr
 * @param {string} label */
export function qrFromRows(qr, label) {
  return modulesSvg(qr.size, (x, y) => qr.rows[y]?.[x] === "1", label, "qr seatcard-qr");
}

/** The seat card's panel for the followed player: `update` with their id and seat at each
 * render (a changed seat fetches the new card while it is open).
 * @param {string} tid */
export function seatCardPanel(tid) {
  const el = h("div", { class: "seatcard" });
  let open = false;
  /** @type {string | null} the player, table and seat the card shown is for */
  let shownFor = null;
  /** @type {string | null} */
  let wanted = null;
  /** @type {string | null} */
  let pid = null;
  /** @type {any} */
  let card = null;
  /** @type {string | null} */
  let error = null;
  let busy = false;

  async function load() {
    if (!pid || busy) return;
    busy = true;
    const asked = wanted;
    try {
      card = (await api(`/api/t/${encodeURIComponent(tid)}/seatcard/${encodeURIComponent(pid)}`)).card;
      error = null;
    } catch (err) {
      card = null;
      error = explainError(err);
    }
    busy = false;
    shownFor = asked;
    if (wanted !== shownFor && open) return load();
    render();
  }

  function render() {
    const toggle = h("button", { type: "button", class: open ? "ghost seatcard-toggle" : "primary seatcard-toggle",
      "aria-expanded": open ? "true" : "false",
      onclick: () => {
        open = !open;
        if (open && shownFor !== wanted) load();
        render();
      } }, t(open ? "seatcard.hide" : "seatcard.show"));
    if (!open) return fill(el, toggle);
    /** @type {any} */
    let body;
    if (error) body = h("p", { class: "error-text" }, t("seatcard.error", { error }));
    else if (shownFor !== wanted) body = h("p", { class: "muted" }, t("seatcard.loading"));
    else if (!card) body = h("p", { class: "muted" }, t("seatcard.none"));
    else {
      body = h("figure", { class: "seatcard-card", dataset: { table: String(card.table), seat: String(card.seat) } },
        qrFromRows(card.qr, t("seatcard.label", { name: card.name, table: card.table, seat: card.seat })),
        h("figcaption", {},
          h("strong", { class: "seatcard-where" }, t("seatcard.where", { table: card.table, seat: card.seat })),
          h("span", { class: "seatcard-name" }, card.name),
          h("span", { class: "hint" }, t("seatcard.hint"))));
    }
    fill(el, toggle, body);
  }

  return {
    el,
    /** @param {string | null} player @param {{ table?: number | null, seat?: number | null, busted?: boolean } | null} where */
    update(player, where) {
      pid = player;
      wanted = player == null ? null : `${player}|${where?.busted ? "" : where?.table ?? ""}|${where?.busted ? "" : where?.seat ?? ""}`;
      if (open && wanted !== shownFor) load();
      render();
    },
  };
}
