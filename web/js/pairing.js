// @ts-check
// Pairing a table screen (floor/server/tablets.py): the floor phone asks for a short code for
// a table of this tournament (`pairButton`); the tablet at the table types it once (`pairForm`)
// and becomes a device of that table, no account needed, for a day; dealers then sign in on
// it with their PIN (table.js). A code takes five wrong tries, then it is void.

import * as fmt from "./format.js";
import { onLang, t } from "./i18n.js";
import { api, explainError, h } from "./ui.js";
/** @import { Principal } from "./ui.js" */

/** The codes asked for on this screen, by table: {code, expires_at} (or {error}). */
const codes = new Map();

/** @param {string} code */
function spaced(code) {
  return `${code.slice(0, 3)} ${code.slice(3, 6)} ${code.slice(6)}`;
}

/** The floor's button for table `table` of tournament `tid`, and the code once it is given.
 * @param {string} tid
 * @param {number} table
 * @param {() => void} rerender
 */
export function pairButton(tid, table, rerender) {
  const got = codes.get(table);
  const live = got && got.code && got.expires_at * 1000 > Date.now();
  return h("div", { class: "pair-box" },
    h("button", { type: "button", class: "big", dataset: { action: "pair" }, onclick: async () => {
      try {
        codes.set(table, await api("/api/pairing", { method: "POST", body: { tournament: tid, table } }));
      } catch (err) {
        codes.set(table, { error: explainError(err) });
      }
      rerender();
    } }, t("pair.button")),
    live ? h("p", { class: "pair-code", role: "status" },
      h("span", {}, t("pair.code_for", { table })), " ",
      h("strong", { class: "pair-digits" }, spaced(got.code)), " ",
      h("span", { class: "muted" }, t("pair.until", { time: fmt.timeOfDay(got.expires_at), path: `/table/${tid}/${table}`, tries: got.tries })))
      : got?.error ? h("p", { class: "error-text", role: "alert" }, got.error) : null);
}

/** The table screen's pairing by code; `onDone(principal)` once paired.
 * @param {(principal: Principal) => void} onDone
 */
export function pairForm(onDone) {
  const input = h("input", { id: "pair-code", name: "code", inputmode: "numeric", autocomplete: "one-time-code",
    maxlength: "15", required: true });
  const label = h("label", { for: "pair-code" });
  const heading = h("h2", {});
  const hint = h("p", { class: "hint" });
  const error = h("p", { class: "error-text", role: "alert" });
  const submit = h("button", { type: "submit", class: "primary big" });
  const form = h("form", { class: "card signin pair-form", novalidate: true },
    heading, hint, h("div", { class: "field" }, label, input), error, submit);
  const texts = () => {
    heading.textContent = t("pair.title");
    hint.textContent = t("pair.hint");
    label.textContent = t("pair.code");
    submit.textContent = t("pair.submit");
  };
  texts();
  onLang(texts);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    submit.disabled = true;
    try {
      const session = await api("/api/signin/pair", { method: "POST", body: { code: input.value } });
      onDone(session.principal);
    } catch (err) {
      error.textContent = err.code === "bad_credentials" ? t("pair.bad")
        : err.code === "too_many_attempts" ? t("signin.too_many", { seconds: err.params?.seconds ?? "?" })
          : explainError(err);
    } finally {
      submit.disabled = false;
    }
  });
  return form;
}
