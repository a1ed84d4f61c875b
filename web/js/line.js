// @ts-check
// The alternates' line on a phone (/line/<id>, the code on the wall opens it): join the line
// with a name (POST /api/t/{id}/alternates, limited per address), then follow one's own place,
// the call to the desk and the time left to take the seat, as the server writes them; the
// whole line under it. The phone keeps which alternate it is (localStorage), nothing more.

import { Connection, tidFromPath } from "./conn.js";
import { lineOf, stateText, timeLeft } from "./alternates.js";
import * as fmt from "./format.js";
import { onLang, t } from "./i18n.js";
import { mount } from "./mount.js";
import { $, api, every, explainError, fill, h, topbar } from "./ui.js";

const tid = tidFromPath();
const conn = new Connection(tid);
const KEY = `floor.alternate.${tid}`;

/** This phone's alternate id, once it joined. */
let mine = localStorage.getItem(KEY);

const bar = topbar(t("alt.line_title"), conn);
const statusEl = h("section", { class: "line-status", "aria-live": "polite" });
const joinEl = h("section", { class: "line-join" });
const listEl = h("section", { class: "line-list", "aria-labelledby": "line-list-h" });
fill($("#app"), bar, h("main", { class: "line-main" }, statusEl, joinEl, listEl));

const nameIn = h("input", { id: "line-name", maxlength: 80, autocomplete: "name", required: true });
const joinButton = h("button", { type: "submit" });
const joinHeading = h("h2", {});
const joinLabel = h("label", { for: "line-name" });
const joinForm = h("form", { onsubmit: async (/** @type {SubmitEvent} */ ev) => {
  ev.preventDefault();
  const name = nameIn.value.trim();
  if (!name) return;
  joinButton.disabled = true;
  try {
    const joined = await api(`/api/t/${encodeURIComponent(tid)}/alternates`, { method: "POST", body: { name } });
    if (joined?.alternate) {
      mine = joined.alternate;
      localStorage.setItem(KEY, joined.alternate);
    }
  } catch (err) {
    fill(errorEl, explainError(err.error ?? err, conn));
  } finally {
    joinButton.disabled = false;
    draw();
  }
} }, joinHeading, h("div", { class: "field" }, joinLabel, nameIn), joinButton);
const errorEl = h("p", { class: "error", role: "alert" });

function draw() {
  const line = lineOf(conn);
  const full = !!conn.facts?.alternates?.full;
  const entries = line?.line ?? [];
  const at = entries.findIndex((a) => a.id === mine);
  const me = at >= 0 ? entries[at] : null;
  if (me) {
    const called = me.called_at != null;
    statusEl.classList.toggle("called", called);
    fill(statusEl,
      h("h2", {}, me.name),
      called
        ? [h("p", { class: "line-big" }, t("alt.you_are_called")),
          h("p", {}, t("alt.you_left", { left: fmt.clock(timeLeft(conn, me)) }))]
        : h("p", { class: "line-big" }, t("alt.your_place", { place: at + 1, n: entries.length })),
      h("button", { type: "button", class: "ghost small", onclick: forget }, t("alt.forget")));
  } else {
    statusEl.classList.remove("called");
    fill(statusEl, mine ? h("p", {}, t("alt.not_in_line")) : full ? null : h("p", {}, t("alt.not_full")),
      mine ? h("button", { type: "button", class: "ghost small", onclick: forget }, t("alt.forget")) : null);
  }
  statusEl.hidden = !statusEl.firstChild;
  joinEl.hidden = !!me || !full;
  joinHeading.textContent = t("alt.join");
  joinLabel.textContent = t("alt.join_name");
  joinButton.textContent = t("alt.join_button");
  if (!joinEl.firstChild) fill(joinEl, joinForm, errorEl);
  fill(listEl, h("h2", { id: "line-list-h" }, t("alt.title")),
    entries.length
      ? h("ol", {}, entries.map((a) => h("li", { class: [a.id === mine ? "me" : "", a.called_at != null ? "called" : ""].join(" ").trim() },
        `${a.name} · ${stateText(conn, a)}`)))
      : h("p", { class: "muted" }, t("alt.empty")));
}

function forget() {
  mine = null;
  localStorage.removeItem(KEY);
  draw();
}

function title() {
  bar.setTitle(conn.state ? `${t("alt.line_title")} · ${conn.state.name}` : t("alt.line_title"));
  document.title = `${t("alt.line_title")} · floor`;
}

mount(listEl, conn, () => {
  title();
  draw();
}, { lang: false });
onLang(() => {
  title();
  draw();
});
// The time left to take the seat counts down between batches.
every(1000, () => {
  if (conn.state) draw();
});
title();
conn.start();
