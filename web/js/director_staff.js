// @ts-check
// The director console's staff: the accounts with their failed sign-ins (unlock), a new
// password or PIN set for another account, one's own password changed with the current one,
// an account added or removed.

import * as fmt from "./format.js";
import { t } from "./i18n.js";
import { api, fill, h, toast } from "./ui.js";

/** @import { Desk } from "./director_desk.js" */

/**
 * @param {Desk} desk
 * @param {{ loaded?: () => void }} [options] called each time the accounts are read again
 */
export function staffSection(desk, { loaded = () => {} } = {}) {
  const { sections, heading, call } = desk;
  /** @type {any[]} */
  let staff = [];

  /** The account whose secret form is open (one at a time), by username. */
  /** @type {string | null} */
  let changingSecret = null;

  async function loadStaff() {
    staff = (await call("/api/staff")) || [];
    renderStaff();
    loaded();
  }

  /** A new password or PIN, typed twice: the inputs and what they hold once they agree.
   * @param {string} id
   * @param {{ pin?: boolean, label?: string }} options
   */
  function secretInputs(id, { pin = false, label = "director.new_secret" } = {}) {
    const secret = h("input", { id: `${id}-new`, type: "password", autocomplete: "new-password", required: true,
      inputmode: pin ? "numeric" : null });
    const again = h("input", { id: `${id}-again`, type: "password", autocomplete: "new-password", required: true,
      inputmode: pin ? "numeric" : null });
    const fields = [
      h("div", { class: "field" }, h("label", { for: `${id}-new` }, t(label)), secret),
      h("div", { class: "field" }, h("label", { for: `${id}-again` }, t("director.new_secret_again")), again),
    ];
    return { fields, value: () => (secret.value === again.value ? secret.value : null) };
  }

  /** The director sets another account's password or PIN (its sessions end).
   * @param {any} a
   */
  function secretForm(a) {
    const id = `secret-${a.username}`;
    const error = h("p", { class: "error-text", role: "alert" });
    const pin = h("input", { id: `${id}-pin`, type: "checkbox", checked: a.pin });
    const inputs = secretInputs(id, { pin: a.pin, label: a.role === "dealer" ? "director.new_secret" : "director.new_password" });
    return h("form", { class: "secret-form", "aria-label": t("director.change_secret_of", { name: a.username }), onsubmit: async (/** @type {SubmitEvent} */ ev) => {
      ev.preventDefault();
      const secret = inputs.value();
      if (secret === null) return void (error.textContent = t("director.secret_mismatch"));
      error.textContent = "";
      const body = { secret, pin: a.role === "dealer" ? pin.checked : false };
      try {
        await api(`/api/staff/${encodeURIComponent(a.username)}/secret`, { method: "PUT", body });
        toast(`✓ ${t("director.secret_set", { name: a.username })}`, "ok");
        changingSecret = null;
        loadStaff();
      } catch (err) {
        error.textContent = err.message; // the refusal in words, next to the fields it names
      }
    } },
    h("div", { class: "row" }, inputs.fields,
      a.role === "dealer" ? h("div", { class: "field check-field" }, h("label", { class: "check", for: `${id}-pin` }, pin, t("director.is_pin"))) : null),
    error,
    h("div", { class: "actions" },
      h("button", { type: "submit", class: "primary small" }, t("director.set_secret")),
      h("button", { type: "button", class: "ghost small", onclick: () => { changingSecret = null; renderStaff(); } }, t("director.cancel"))));
  }

  /** One's own password, with the current one: the other sessions end, this one stays. */
  function ownSecretForm() {
    const current = h("input", { id: "own-current", type: "password", autocomplete: "current-password", required: true });
    const inputs = secretInputs("own", { label: "director.new_password" });
    const error = h("p", { class: "error-text", role: "alert" });
    const form = h("form", { class: "own-secret-form", onsubmit: async (/** @type {SubmitEvent} */ ev) => {
      ev.preventDefault();
      const secret = inputs.value();
      if (secret === null) return void (error.textContent = t("director.secret_mismatch"));
      error.textContent = "";
      try {
        await api("/api/me/secret", { method: "PUT", body: { current: current.value, secret } });
        form.reset();
        toast(`✓ ${t("director.own_secret_set")}`, "ok", 6000);
        loadStaff();
      } catch (err) {
        error.textContent = err.message; // the refusal in words, next to the fields it names
      }
    } },
    h("h3", { id: "own-secret" }, t("director.own_secret", { name: desk.principal.username })),
    h("div", { class: "row" },
      h("div", { class: "field" }, h("label", { for: "own-current" }, t("director.current_secret")), current),
      inputs.fields),
    error,
    h("button", { type: "submit" }, t("director.change_own_secret")));
    return form;
  }

  /** An account's recent failed sign-ins (and how long the most delayed address waits).
   * @param {any} a
   */
  function signInFailures(a) {
    const s = a.sign_in || { failures: 0, retry_after: 0 };
    if (!s.failures) return null;
    return h("span", { class: "staff-failures" }, h("span", { class: "badge badge-paused" }, t("director.failed_n", { n: s.failures })),
      s.retry_after ? h("span", { class: "muted small" }, " ", t("director.waits", { s: fmt.number(s.retry_after) })) : null);
  }

  /** @param {any} a */
  function staffItem(a) {
    const own = a.username === desk.principal.username;
    const name = { name: a.username };
    const what = [t(`role.${a.role}`), `${t("director.secret_kind")} ${a.pin ? t("director.pin") : t("director.password")}`];
    return h("li", { class: "staff-item" },
      h("div", { class: "staff-who" },
        h("strong", {}, a.username), own ? h("span", { class: "badge" }, t("director.you")) : null,
        h("div", { class: "muted small" }, what.filter(Boolean).join(" · "))),
      signInFailures(a),
      h("div", { class: "actions" },
        // One's own secret changes with the current one, in the form below the list.
        own ? h("button", { type: "button", class: "small", "aria-label": t("director.change_own_secret"),
          onclick: () => document.getElementById("own-current")?.focus() }, t("director.change"))
          : h("button", { type: "button", class: "small", "aria-expanded": String(changingSecret === a.username),
            "aria-label": t("director.change_secret_of", name), onclick: () => {
              changingSecret = changingSecret === a.username ? null : a.username;
              renderStaff();
              document.getElementById(`secret-${a.username}-new`)?.focus();
            } }, t("director.change")),
        a.sign_in?.failures ? h("button", { type: "button", class: "small", "aria-label": t("director.unlock_named", name), onclick: async () => {
          if (await call(`/api/staff/${encodeURIComponent(a.username)}/unlock`, { method: "POST" }, t("director.unlocked", name))) loadStaff();
        } }, t("director.unlock")) : null,
        own ? null : h("button", { type: "button", class: "small danger", "aria-label": t("director.remove_named", name), onclick: async () => {
          if (!confirm(t("director.remove_confirm", name))) return;
          if (await call(`/api/staff/${encodeURIComponent(a.username)}`, { method: "DELETE" }, t("director.removed", name))) loadStaff();
        } }, t("director.remove"))),
      changingSecret === a.username ? secretForm(a) : null);
  }

  function renderStaff() {
    const el = sections.staff;
    const user = h("input", { id: "staff-user", autocapitalize: "none", spellcheck: "false", autocomplete: "off", maxlength: 32 });
    const role = h("select", { id: "staff-role" }, ["floor", "dealer", "coordinator", "desk", "director"].map((r) => h("option", { value: r }, t(`role.${r}`))));
    const secret = h("input", { id: "staff-secret", type: "password", autocomplete: "new-password" });
    const pin = h("input", { id: "staff-pin", type: "checkbox" });
    // A PIN only for a dealer, who signs in on a paired table screen alone: the screen says
    // the table and the tournament.
    const pinField = h("div", { class: "field check-field", hidden: true }, h("label", { class: "check", for: "staff-pin" }, pin, t("director.is_pin")));
    const dealerHint = h("p", { class: "hint", hidden: true }, t("tablets.dealer_hint"));
    role.addEventListener("change", () => {
      pinField.hidden = role.value !== "dealer";
      dealerHint.hidden = role.value !== "dealer";
    });
    const form = h("form", { class: "staff-form", onsubmit: async (/** @type {SubmitEvent} */ ev) => {
      ev.preventDefault();
      const body = { username: user.value.trim(), secret: secret.value, role: role.value, pin: role.value === "dealer" && pin.checked };
      const made = await call("/api/staff", { method: "POST", body }, t("director.staff_added", { name: body.username }));
      if (made) loadStaff();
    } },
    h("h3", {}, t("director.add_staff")),
    h("div", { class: "row" },
      h("div", { class: "field" }, h("label", { for: "staff-user" }, t("signin.username")), user),
      h("div", { class: "field" }, h("label", { for: "staff-role" }, t("director.role")), role),
      h("div", { class: "field" }, h("label", { for: "staff-secret" }, t("director.staff_secret")), secret),
      pinField),
    dealerHint,
    h("p", { class: "hint" }, t("director.secret_hint")),
    h("button", { type: "submit", class: "primary" }, t("director.add")));
    fill(el, heading("staff", "director.staff"),
      staff.length ? h("ul", { class: "staff-list", "aria-labelledby": "h-staff" }, staff.map(staffItem))
        : h("p", { class: "muted" }, t("director.no_staff")),
      h("p", { class: "hint" }, t("director.signin_limits_hint")),
      ownSecretForm(),
      form);
  }

  return { load: loadStaff, render: renderStaff, list: () => staff };
}
