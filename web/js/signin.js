// @ts-check
// The staff sign-in form (POST /api/signin: username and password or PIN → session cookie).

import { forgetOnDevice } from "./app.js";
import { clearAllDrafts } from "./drafts.js";
import { onLang, t } from "./i18n.js";
import { api, explainError, h } from "./ui.js";
/** @import { Principal } from "./ui.js" */

/** A sign-in form; `onDone(principal)` after a successful sign-in.
 * @param {(principal: any) => void} onDone
 * @param {{ roles?: string[] | null, note?: string }} [options] `roles`: who may sign in here */
export function signInForm(onDone, { roles = null, note = "" } = {}) {
  const user = h("input", { id: "signin-user", name: "username", autocomplete: "username",
    autocapitalize: "none", spellcheck: "false", required: true });
  const secret = h("input", { id: "signin-secret", name: "secret", type: "password",
    autocomplete: "current-password", required: true });
  const error = h("p", { class: "error-text", role: "alert" });
  const submit = h("button", { type: "submit", class: "primary big" });
  const lUser = h("label", { for: "signin-user" });
  const lSecret = h("label", { for: "signin-secret" });
  const heading = h("h2", {});
  const hint = h("p", { class: "hint" });
  const form = h("form", { class: "card signin", novalidate: true },
    heading, note ? h("p", { class: "muted" }, note) : null,
    h("div", { class: "field" }, lUser, user),
    h("div", { class: "field" }, lSecret, secret, hint),
    error, submit);
  const texts = () => {
    heading.textContent = t("signin.title");
    lUser.textContent = t("signin.username");
    lSecret.textContent = t("signin.secret");
    hint.textContent = t("signin.secret_hint");
    submit.textContent = t("signin.submit");
  };
  texts();
  onLang(texts);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    if (!user.value.trim() || !secret.value) {
      error.textContent = t("signin.missing");
      return;
    }
    submit.disabled = true;
    try {
      const session = await api("/api/signin", {
        method: "POST", body: { username: user.value.trim(), secret: secret.value },
      });
      secret.value = "";
      if (roles && !roles.includes(session.principal.role)) {
        error.textContent = t("signin.wrong_role", { role: t(`role.${session.principal.role}`) });
        return;
      }
      onDone(session.principal);
    } catch (err) {
      // The server says when to try again: the delays grow per account and address.
      error.textContent = err.code === "bad_credentials" ? t("signin.bad")
        : err.code === "too_many_attempts" ? t("signin.too_many", { seconds: err.params?.seconds ?? "?" })
          : explainError(err);
    } finally {
      submit.disabled = false;
    }
  });
  return form;
}

/** Sign out here; every sheet kept on the device goes (drafts.js), and what the service
 * worker kept and this device's staff alerts (app.js): the next person to sign in on it finds
 * none of them. */
export async function signOut() {
  clearAllDrafts();
  await forgetOnDevice();
  try {
    await api("/api/signout", { method: "POST", body: {} });
  } catch (err) {
    /* signed out locally anyway */
  }
}

/** @param {Principal | null} principal */
export function whoAmI(principal) {
  if (!principal || principal.role === "public") return "";
  // A paired table screen has no account: it is its table's (floor/server/tablets.py).
  if (principal.role === "table") return t("table.screen_of", { table: principal.table });
  const role = t(`role.${principal.role}`);
  return principal.table ? `${principal.username} · ${role} · ${t("spot.table_only", { table: principal.table })}`
    : `${principal.username} · ${role}`;
}

