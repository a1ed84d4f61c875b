// @ts-check
// The table screen's dealer strip (table.js): who deals here now (as the rotation put them,
// and whether they signed in here), the next push and who comes then, and where the dealer
// here goes: "Push at 14:30: Bob comes in · Anna: go to table 42". The dealer signed in on
// the screen also gets a one-time code for their own phone (/dealer), which then shows them
// their next push wherever they are. The server's (GET /api/dealers/table,
// floor/server/routes_dealers.py); read again every few seconds.

import { nextText, when } from "./dealer_text.js";
import { t } from "./i18n.js";
import { api, explainError, fill, h } from "./ui.js";

/**
 * @typedef {{id: string, name: string}} Person
 * @typedef {{at: number, tournament: string, table: number, playing: boolean,
 *   dealer: Person|null, signed: Person|null, due: number|null, coming: Person|null,
 *   then: import("./dealer_text.js").Next|null, held: boolean, waiting: number|null,
 *   push_every: number}} TableDealers
 */

const EVERY = 5000;

/**
 * Mount the strip in `el`. `mode()` says what the screen is now: "screen" (a paired screen of
 * this table, perhaps with a dealer on it), "staff" (the floor looking at it), or null
 * (nothing to show). Returns {refresh}.
 * @param {HTMLElement} el
 * @param {{tid: string, table: number, mode: () => "screen"|"dealer"|"staff"|null}} opts
 */
export function mountTableDealers(el, { tid, table, mode }) {
  /** @type {TableDealers|null} */
  let seen = null;
  /** @type {{code: string, expires_at: number}|null} */
  let code = null;
  let timer = 0;

  async function load() {
    const m = mode();
    if (m == null) {
      seen = null;
      render();
      return;
    }
    const q = m === "staff" ? `?tournament=${encodeURIComponent(tid)}&table=${table}` : "";
    try {
      seen = await api(`/api/dealers/table${q}`);
    } catch (err) {
      seen = null;
    }
    render();
  }

  async function phoneCode() {
    try {
      code = await api("/api/dealers/phone/code", { method: "POST", body: {} });
    } catch (err) {
      code = null;
      fill(el, h("p", { class: "error-text", role: "alert" }, explainError(err)));
      return;
    }
    render();
  }

  /** Read again just after the next push: the strip names the new dealer at once. */
  let soon = 0;
  function afterPush() {
    clearTimeout(soon);
    if (!seen?.due) return;
    const wait = (seen.due - seen.at) * 1000 + 1200;
    if (wait > 0 && wait < EVERY) soon = window.setTimeout(load, wait);
  }

  function render() {
    afterPush();
    el.hidden = !seen || !seen.playing;
    if (!seen || !seen.playing) return fill(el);
    const every = seen.push_every;
    const here = seen.dealer;
    const signedOk = here != null && seen.signed?.id === here.id;
    const lines = [
      h("span", { class: "dealer-now", dataset: { dealer: here?.id || "" } },
        here ? t("dealers.dealing_here", { name: here.name }) : t("dealers.no_dealer")),
      here && !signedOk ? h("span", { class: "dealer-unsigned" },
        seen.signed ? t("dealers.signed_other", { name: seen.signed.name }) : t("dealers.not_signed")) : null,
      seen.held ? h("span", { class: "dealer-held" }, t("dealers.held_pushes"))
        : seen.due != null ? h("span", { class: "dealer-push", dataset: { due: String(seen.due), coming: seen.coming?.id || "" } },
          seen.coming ? t("dealers.push_line", { time: when(seen.due, every), name: seen.coming.name })
            : t("dealers.push_nobody", { time: when(seen.due, every) })) : null,
      here && seen.then ? h("span", { class: "dealer-then", dataset: { to: seen.then.to } },
        `${here.name}: ${nextText(seen.then, every)}`) : null,
    ];
    const dealerHere = mode() === "dealer";
    const expired = code != null && code.expires_at <= Date.now() / 1000;
    fill(el,
      h("p", { class: "dealer-lines" }, lines),
      dealerHere && (!code || expired) ? h("button", { type: "button", class: "small ghost", dataset: { action: "phone" }, onclick: phoneCode },
        t("dealers.phone_button")) : null,
      dealerHere && code && !expired ? h("p", { class: "phone-code", role: "status" },
        t("dealers.phone_code", { code: code.code.replace(/(\d{3})(\d{3})(\d{3})/, "$1 $2 $3") }),
        h("span", { class: "muted" }, ` ${t("dealers.phone_where", { url: `${location.origin}/dealer` })}`)) : null);
  }

  function refresh() {
    if (mode() !== "dealer") code = null;
    clearInterval(timer);
    load();
    timer = window.setInterval(() => {
      if (document.visibilityState !== "hidden") load();
    }, EVERY);
  }

  return { refresh };
}
