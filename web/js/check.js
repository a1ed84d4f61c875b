// @ts-check
// A player's check of their draw (/check/{id}?player=...): the open read API says the head
// of the seed chain the floor committed to before registration opened, the draw that gave
// this player's seat and that draw's seed (revealed once made). This page hashes the seed
// back to the head in the browser: it decides nothing about the tournament, it checks that
// the seed was fixed in advance. Making the draw again from the seed is floor verify's, on
// the exported log (docs/draw-spec.md).

import * as fmt from "./format.js";
import { t } from "./i18n.js";
import { $, fill, h } from "./ui.js";

const params = new URLSearchParams(location.search);
const tid = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
const base = `/api/open/v1/t/${encodeURIComponent(tid)}/draws`;

/** @param {string} hex */
function bytesOf(hex) {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** @param {ArrayBuffer} buf */
function hexOf(buf) {
  return Array.from(new Uint8Array(buf), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The seed hashed `times` times (SHA-256): the chain's head when the seed is the committed one.
 * @param {string} seed @param {number} times */
async function hashedBack(seed, times) {
  /** @type {ArrayBuffer} */
  let value = bytesOf(seed).buffer;
  for (let i = 0; i < times; i++) value = await crypto.subtle.digest("SHA-256", value);
  return hexOf(value);
}

/** @param {string | null} player */
async function read(player) {
  const r = await fetch(player ? `${base}?player=${encodeURIComponent(player)}` : base, { cache: "no-cache" });
  const body = await r.json().catch(() => null);
  return { ok: r.ok, body };
}

function lookup(/** @type {string} */ value) {
  return h("form", { class: "c-find", onsubmit: (/** @type {SubmitEvent} */ ev) => {
    ev.preventDefault();
    const input = /** @type {HTMLInputElement} */ ($("#c-player"));
    const next = new URL(location.href);
    next.searchParams.set("player", input.value.trim());
    location.assign(next.toString());
  } },
  h("label", { for: "c-player" }, t("check.player_prompt"),
    h("input", { id: "c-player", required: true, maxlength: 64, autocapitalize: "none", value })),
  h("button", { type: "submit" }, t("check.find")));
}

async function show() {
  const player = params.get("player");
  fill($("#app"), h("h1", {}, t("check.title")), h("p", { class: "c-muted" }, t("check.loading")));
  let got;
  try {
    got = await read(player);
  } catch (err) {
    fill($("#app"), h("h1", {}, t("check.title")), h("p", {}, t("widget.unavailable")));
    return;
  }
  const d = got.body;
  if (!got.ok || !d) {
    const unknown = d?.error?.field === "player";
    fill($("#app"), h("h1", {}, t("check.title")),
      h("p", {}, unknown ? t("check.unknown_player", { player: player || "" }) : t("widget.unavailable")),
      unknown ? lookup(player || "") : null);
    return;
  }
  document.title = `${t("check.title")} · floor`;
  /** @type {(HTMLElement | null)[]} */
  const parts = [h("h1", {}, t("check.title"))];
  if (!d.spec) {
    parts.push(h("p", {}, t("check.uncommitted")));
    fill($("#app"), ...parts);
    return;
  }
  parts.push(
    h("p", {}, t("check.committed", { at: fmt.timeOfDay(d.committed_at, true), n: fmt.number(d.length) })),
    h("code", { class: "c-hash", "data-head": d.head }, d.head),
    h("p", { class: "c-muted" }, t("check.made", { n: fmt.number(d.draws) }),
      d.witness ? ` ${t("check.witness", { w: d.witness })}` : ""),
  );
  const p = d.player;
  if (!p) {
    parts.push(lookup(""));
    fill($("#app"), ...parts);
    return;
  }
  parts.push(h("p", { class: "c-seat" }, p.busted || p.table == null
    ? t("check.busted", { name: p.name })
    : t("check.seat", { name: p.name, table: p.table, seat: p.seat })));
  if (p.draw == null || !d.seed) {
    parts.push(h("p", {}, t("check.no_draw")));
  } else {
    const verdict = h("p", { class: "c-verdict", role: "status" },
      t("check.checking", { index: fmt.number(d.seed.index) }));
    parts.push(
      h("p", {}, t("check.by_draw", { index: fmt.number(d.seed.index) })),
      h("code", { class: "c-hash", "data-seed": d.seed.seed }, d.seed.seed),
      verdict,
    );
    fill($("#app"), ...parts, h("p", { class: "c-muted" }, t("check.whole")));
    if (!globalThis.crypto?.subtle) {
      verdict.textContent = t("check.secure");
      return;
    }
    const head = await hashedBack(d.seed.seed, d.seed.index);
    const ok = head === d.head;
    verdict.classList.add(ok ? "ok" : "bad");
    verdict.dataset.result = ok ? "ok" : "bad";
    verdict.textContent = t(ok ? "check.ok" : "check.bad");
    return;
  }
  fill($("#app"), ...parts, h("p", { class: "c-muted" }, t("check.whole")));
}

show();
