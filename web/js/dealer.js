// @ts-check
// A dealer's own phone (/dealer): where they deal now and where they go next ("push at
// 14:30, go to table 42"), their break, the pool. A dealer's PIN is accepted on a paired table
// screen alone, so the phone is given its dealer there: the dealer taps "My phone" on the
// table screen they signed in on and types the code shown here (POST /api/dealers/phone,
// floor/server/dealer_phones.py). The phone then reads that dealer's rotation and nothing
// else (GET /api/dealers/me), again every ten seconds.

import { nextText, statusText, tableName, when } from "./dealer_text.js";
import { onLang, t } from "./i18n.js";
import { signOut } from "./signin.js";
import { $, api, explainError, fill, h, me, topbar } from "./ui.js";

/**
 * @typedef {{at: number, dealer: {id: string, name: string}, status: string,
 *   tournament: string|null, table: number|null, due: number|null, until: number|null,
 *   next: import("./dealer_text.js").Next|null, push_every: number}} Own
 */

const EVERY = 10000;
const bar = topbar(t("dealer.title"), null);
const mainEl = h("main", { class: "dealer-main" });
fill(/** @type {HTMLElement} */ ($("#app")), bar, mainEl);

/** @type {{role: string, username: string|null, table: number|null}} */
let principal = { role: "public", username: null, table: null };
/** @type {Own|null} */
let own = null;
/** @type {string} why the phone shows nothing yet */
let problem = "";

async function load() {
  if (principal.role !== "dealer_phone") return render();
  try {
    own = await api("/api/dealers/me");
    problem = "";
  } catch (err) {
    own = null;
    if (err.status === 401 || err.status === 403) {
      principal = await me();
    } else {
      problem = explainError(err);
    }
  }
  render();
}

function codeForm() {
  const input = h("input", { id: "phone-code", inputmode: "numeric", autocomplete: "one-time-code", required: true, maxlength: 11 });
  const error = h("p", { class: "error-text", role: "alert" });
  return h("form", { class: "card phone-form", onsubmit: async (/** @type {Event} */ ev) => {
    ev.preventDefault();
    error.textContent = "";
    try {
      const session = await api("/api/dealers/phone", { method: "POST", body: { code: input.value } });
      principal = session.principal;
      load();
    } catch (err) {
      input.value = "";
      error.textContent = err.code === "bad_credentials" ? t("dealer.bad_code") : explainError(err);
    }
  } },
  h("h2", {}, t("dealer.signin_title")),
  h("p", { class: "muted" }, t("dealer.signin_note")),
  h("div", { class: "field" }, h("label", { for: "phone-code" }, t("dealer.code")), input),
  error, h("button", { type: "submit", class: "primary big" }, t("dealer.submit")));
}

function render() {
  bar.setTitle?.(t("dealer.title"));
  if (principal.role !== "dealer_phone") return fill(mainEl, codeForm());
  if (!own) return fill(mainEl, h("p", { class: "notice", role: "alert" }, problem || t("dealers.loading")));
  const every = own.push_every;
  const here = own.status === "dealing" ? tableName(own.tournament, own.table) : statusText(own.status);
  fill(mainEl,
    h("section", { class: "card own", "aria-labelledby": "h-own" },
      h("h2", { id: "h-own" }, own.dealer.name),
      h("p", { class: "own-now", dataset: { status: own.status } }, here),
      own.status === "dealing" && own.due != null ? h("p", { class: "own-push", dataset: { due: String(own.due) } },
        t("dealers.push_at", { time: when(own.due, every) })) : null,
      own.status === "break" && own.until != null ? h("p", { class: "own-push" }, t("dealers.break_until", { time: when(own.until, every) })) : null,
      h("p", { class: "own-next", dataset: { to: own.next?.to || "" } }, nextText(own.next, every))),
    h("button", { type: "button", class: "ghost", onclick: async () => {
      await signOut();
      principal = { role: "public", username: null, table: null };
      own = null;
      render();
    } }, t("signin.signout")));
}

onLang(render);
setInterval(() => {
  if (document.visibilityState !== "hidden") load();
}, EVERY);

(async () => {
  principal = await me();
  await load();
})();
