// @ts-check
// The printables: seat cards (80 mm receipts, A4, Letter), the draw alphabetically and by
// table, table cards, the payout sheet, chip count sheets per table and the results. Printed
// by the browser from print stylesheets (web/css/print.css); every seat, code, prize and
// place comes from the server (GET /api/t/{id}/paper); this page sorts and lays out.
//
//   /print/<id>?what=cards&paper=receipt&player=P12&auto=1   one card, printed at once
//   ?what=cards&moves=break        cards for the break's moves (the seats they go to)
//   ?what=cards&table=7            cards for the players at table 7
//   ?what=draw | draw-tables | tables | payouts | counts | results
//   ?what=day                      the end-of-day report: the forecasts beside what happened

import * as fmt from "./format.js";
import { t } from "./i18n.js";
import { h, fill } from "./ui.js";
import { byName, letterOf, sameLetter, venueLocale } from "./venue.js";
import { dayReport } from "./forecast_print.js";
import { envelopeFacts } from "./mystery_view.js";
/** @import { Child } from "./ui.js" */

const tid = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
const params = new URLSearchParams(location.search);
/** @type {Record<string, string>} */
const PAPERS = { a4: "A4", letter: "Letter", receipt: "80 mm" };
const KINDS = ["cards", "draw", "draw-tables", "tables", "payouts", "counts", "results", "day"];
const PAPER_KEY = "floor.print.paper";
const what = KINDS.includes(params.get("what") ?? "") ? /** @type {string} */ (params.get("what")) : "cards";
const asked = params.get("paper") ?? "";
const kept = localStorage.getItem(PAPER_KEY) ?? "";
const paper = PAPERS[asked] ? asked : PAPERS[kept] ? kept : "a4";

// The page's own HTML holds both.
const bar = /** @type {HTMLElement} */ (document.getElementById("bar"));
const main = /** @type {HTMLElement} */ (document.getElementById("paper"));
/** What the server sends to print (GET /api/t/{id}/paper): read before any sheet is drawn.
 * @type {import("./protocol.js").Paper} */
let data = /** @type {any} */ (null);

/** The paper's size is the named @page of print.css its class picks.
 * @param {string} name
 */
function setPaper(name) {
  document.body.className = `paper-page paper-${name}`;
}

/** @param {Record<string, string | null>} changes */
function go(changes) {
  const next = new URLSearchParams(location.search);
  for (const [k, v] of Object.entries(changes)) {
    if (v == null || v === "") next.delete(k);
    else next.set(k, v);
  }
  next.delete("auto");
  location.search = next.toString();
}

/** @param {number} at */
function when(at) {
  if (!at) return "";
  const d = new Date(at * 1000);
  const day = new Intl.DateTimeFormat(venueLocale, { day: "numeric", month: "numeric", year: "numeric" }).format(d);
  return `${day} ${fmt.timeOfDay(at)}`;
}

function levelText() {
  if (data.level == null) return "";
  return data.on_break ? t("paper.after_level", { n: data.level }) : t("paper.level", { n: data.level });
}

/**
 * @param {string} title
 * @param {string} [extra]
 */
function head(title, extra) {
  return h("header", { class: "sheet-head" },
    h("h1", {}, title),
    h("div", { class: "meta" }, data.name, " · ", when(data.printed_at), levelText() ? ` · ${levelText()}` : "", extra ? ` · ${extra}` : ""));
}

/** @param {Child[]} children */
function sheet(...children) {
  return h("section", { class: "sheet" }, children);
}


// Seat cards ----------------------------------------------------------------------------------

/** The cards asked for: each a seat a player holds now, or the seat a move takes them to. */
/** A seat card: where a player sits (or goes: `from` is where they leave).
 * @typedef {{ player: string, name: string, table: number | null, seat: number | null, code: string | null,
 *   from: { table: number, seat: number | null } | null, reason?: string }} SeatCard */

/** @returns {SeatCard[]} */
function cardsAsked() {
  const seated = data.players.filter((p) => !p.busted && p.table != null);
  const moveOf = new Map(data.moves.filter((m) => m.seat != null).map((m) => [m.player, m]));
  /** @param {import("./protocol.js").PaperMove} m @returns {SeatCard} */
  const moveCard = (m) => ({ player: m.player, name: m.name, table: m.table, seat: m.seat, code: m.code,
    from: { table: m.from_table, seat: m.from_seat }, reason: m.reason });
  /** @param {import("./protocol.js").PaperPlayer} p @returns {SeatCard} */
  const seatCard = (p) => ({ player: p.id, name: p.name, table: p.table, seat: p.seat, code: p.code, from: null });
  const ids = (params.get("player") || "").split(",").filter(Boolean);
  if (ids.length) {
    return ids.map((id) => {
      const m = moveOf.get(id);
      if (m) return moveCard(m);
      const p = data.players.find((x) => x.id === id && x.table != null && !x.busted);
      return p ? seatCard(p) : null;
    }).filter((c) => c !== null);
  }
  const moves = params.get("moves");
  if (moves) {
    return data.moves.filter((m) => m.seat != null && (moves === "all" || m.reason === moves)).map(moveCard)
      .sort((a, b) => (a.table ?? 0) - (b.table ?? 0) || (a.seat ?? 0) - (b.seat ?? 0));
  }
  const table = Number(params.get("table"));
  return seated.filter((p) => !table || p.table === table).map(seatCard)
    .sort((a, b) => (a.table ?? 0) - (b.table ?? 0) || (a.seat ?? 0) - (b.seat ?? 0));
}

/** @param {SeatCard} c */
function card(c) {
  return h("article", { class: "card", dataset: { player: c.player } },
    h("div", { class: "event" }, h("span", {}, data.name), h("span", {}, when(data.printed_at))),
    h("div", { class: "spot" },
      h("div", {}, h("span", { class: "label" }, t("paper.table")), h("span", { class: "value" }, String(c.table))),
      h("div", {}, h("span", { class: "label" }, t("paper.seat")), h("span", { class: "value" }, String(c.seat)))),
    h("div", { class: "who" }, c.name),
    c.from ? h("div", { class: "move" }, t(`paper.move.${c.reason}`), " · ", t("paper.from", { spot: fmt.spot(c.from.table, c.from.seat) })) : null,
    h("div", { class: "foot" }, h("span", {}, c.player), h("span", {}, t("paper.check"), " ", h("span", { class: "code" }, c.code || "–"))),
    // Committed draws: the player checks the seed of the draw that gave this seat (check.js).
    data.committed ? h("div", { class: "check-url" }, t("paper.check_draw"), " ",
      `${location.host}/check/${encodeURIComponent(data.tournament)}?player=${encodeURIComponent(c.player)}`) : null);
}

function renderCards() {
  const cards = cardsAsked();
  if (!cards.length) return [sheet(h("p", { class: "empty" }, t("paper.no_cards")))];
  if (paper === "receipt") return cards.map((c) => sheet(h("div", { class: "cards" }, card(c))));
  const pages = [];
  for (let i = 0; i < cards.length; i += 8) pages.push(sheet(h("div", { class: "cards" }, cards.slice(i, i + 8).map(card))));
  return pages;
}

// Lists ---------------------------------------------------------------------------------------

/** Day 2 made from flights whose chip check failed: its seat lists say so, with the director's
 * reason (the server's record, floor/engine/day2.py). */
function carriedNote() {
  const checks = data.checks_failed || [];
  if (!checks.length) return null;
  const signed = (/** @type {number} */ n) => (n > 0 ? `+${fmt.chips(n)}` : n < 0 ? `−${fmt.chips(-n)}` : "0");
  const reason = data.acknowledged ?? "";
  return h("div", { class: "carried-note" },
    h("strong", {}, t("flights.made_from_failed")),
    checks.map((x) => h("div", {}, t("flights.failed_line", {
      flight: x.flight, counted: fmt.chips(x.counted), expected: fmt.chips(x.expected),
      difference: signed(x.difference), tolerance: fmt.chips(x.tolerance),
    }))),
    h("div", {}, data.acknowledged_by ? t("flights.acknowledged_by", { by: data.acknowledged_by, reason })
      : t("flights.acknowledged", { reason })));
}

function renderDraw() {
  // By surname, in the venue's alphabet (Č after C, Ch after H, Ř after R in Czech), each
  // letter headed once.
  const seated = data.players.filter((p) => !p.busted && p.table != null).sort(byName);
  let letter = null;
  const rows = [];
  for (const p of seated) {
    const first = letterOf(p.name);
    if (letter == null || !sameLetter(first, letter)) {
      letter = first;
      rows.push(h("div", { class: "letter" }, letter));
    }
    rows.push(h("div", { class: "draw-row", dataset: { player: p.id } }, h("span", {}, p.name), h("span", { class: "where" }, fmt.spot(p.table, p.seat))));
  }
  return [sheet(head(t("paper.draw_title"), t("paper.players_n", { n: seated.length })), carriedNote(),
    seated.length ? h("div", { class: "columns" }, rows) : h("p", { class: "empty" }, t("paper.nobody_seated")))];
}

function renderDrawTables() {
  const blocks = data.tables.filter((x) => x.occupants.length).map((x) => h("div", { class: "table-block" },
    h("h2", {}, t("spot.table_only", { table: x.table }), x.final ? ` · ${t("paper.final")}` : ""),
    x.occupants.map((o) => h("div", { class: "draw-row" }, h("span", { class: "where" }, t("paper.seat_n", { n: o.seat })), h("span", {}, o.name)))));
  return [sheet(head(t("paper.draw_tables_title"), t("paper.tables_n", { n: blocks.length })), carriedNote(),
    blocks.length ? h("div", { class: "columns" }, blocks) : h("p", { class: "empty" }, t("paper.nobody_seated")))];
}

function renderTableCards() {
  const only = Number(params.get("table"));
  const tables = data.tables.filter((x) => !only || x.table === only);
  if (!tables.length) return [sheet(h("p", { class: "empty" }, t("paper.no_tables")))];
  return tables.map((x) => sheet(h("div", { class: "table-card" },
    h("div", { class: "label" }, t("paper.table")), h("div", { class: "value" }, String(x.table)),
    h("div", { class: "event" }, data.name, x.final ? ` · ${t("paper.final")}` : ""))));
}

/** @param {number | null | undefined} n */
function money(n) {
  return fmt.money(n, data.pool?.currency);
}

function renderPayouts() {
  const pool = data.pool;
  if (!pool) return [sheet(head(t("paper.payouts_title")), h("p", { class: "empty" }, t("paper.no_money")))];
  const at = new Map();
  // A prize set by a deal at the final table is printed beside the payout table's.
  const named = (/** @type {any} */ r) => (r.deal ? `${r.name} (${t("deal.badge")}: ${money(r.prize)})` : r.name)
    + (data.bounties?.kind === "mystery" && r.bounty ? ` ✉ ${money(r.bounty)}` : "");
  for (const r of data.results) for (let p = r.place; p < r.place + r.tied; p += 1) at.set(p, [...(at.get(p) || []), named(r)]);
  const facts = [[t("prizes.entries"), fmt.number(pool.entries)], [t("prizes.pool"), money(pool.pool)],
    [t("prizes.guarantee"), money(pool.guarantee)], [t("prizes.overlay"), money(pool.overlay)],
    [t("prizes.rebuys"), fmt.number(pool.rebuys)], [t("prizes.add_ons"), fmt.number(pool.add_ons)]];
  // A bounty tournament: the bounty pool beside the prize pool it was taken out of.
  if (pool.bounties) facts.push([t("bounty.pool"), money(pool.bounties)]);
  // A mystery bounty: the envelopes, drawn and left (mystery_view.js).
  if (data.bounties?.kind === "mystery") facts.push(...envelopeFacts(data.bounties, money));
  // A deal made with the bounties in it: what the heads put in (deal_bounties.js).
  const dealt = data.results.filter((/** @type {any} */ r) => r.deal_bounties != null);
  if (dealt.length) facts.push([t("deal.bounties_sheet"), money(dealt.reduce((/** @type {number} */ a, /** @type {any} */ r) => a + r.deal_bounties, 0))]);
  return [sheet(head(t("paper.payouts_title"), t("paper.places_n", { n: pool.places.length })),
    h("div", { class: "facts" }, facts.map(([k, v]) => h("div", {}, h("b", {}, k), v))),
    h("table", { class: "grid" },
      h("thead", {}, h("tr", {}, h("th", {}, t("prizes.place")), h("th", { class: "num" }, "%"), h("th", { class: "num" }, t("prizes.prize")), h("th", {}, t("paper.player")))),
      h("tbody", {}, pool.places.map((p) => h("tr", {}, h("td", {}, fmt.ordinal(p.place)),
        h("td", { class: "num" }, fmt.number(p.percent, 2)), h("td", { class: "num" }, money(p.prize)),
        h("td", {}, (at.get(p.place) || []).join(" / ")))))))];
}

function renderCounts() {
  const only = Number(params.get("table"));
  const tables = data.tables.filter((x) => x.occupants.length && (!only || x.table === only));
  if (!tables.length) return [sheet(h("p", { class: "empty" }, t("paper.no_tables")))];
  const chips = paper === "receipt" ? [] : data.chips;
  return tables.map((x) => sheet(head(t("paper.counts_title", { table: x.table }), t("paper.counted_at")),
    h("table", { class: "grid tall" },
      h("thead", {}, h("tr", {}, h("th", {}, t("paper.seat")), h("th", {}, t("paper.player")),
        chips.map((c) => h("th", { class: "num" }, fmt.chips(c))), h("th", { class: "num" }, t("paper.stack")))),
      h("tbody", {}, Array.from({ length: x.seats }, (_, i) => {
        const o = x.occupants.find((y) => y.seat === i + 1);
        return h("tr", {}, h("td", {}, String(i + 1)), h("td", {}, o ? o.name : "—"), chips.map(() => h("td", {})), h("td", {}));
      }))),
    h("div", { class: "signature" }, h("span", {}, t("paper.counted_by")), h("span", {}, t("paper.checked_by")))));
}

function renderResults() {
  const rows = data.results;
  return [sheet(head(t("paper.results_title"), t("paper.players_n", { n: rows.length })),
    rows.length ? h("table", { class: "grid" },
      h("thead", {}, h("tr", {}, [t("prizes.place"), t("paper.player"), t("paper.country"), t("paper.out_at"), t("paper.level_col"), t("paper.table"), t("prizes.prize")]
        .map((x, i) => h("th", { class: i === 6 ? "num" : null }, x)))),
      h("tbody", {}, rows.map((r) => h("tr", { dataset: { player: r.player } },
        h("td", {}, fmt.ordinal(r.place), r.tied > 1 ? ` (${r.tied})` : ""), h("td", {}, r.name), h("td", {}, r.country || ""),
        h("td", {}, r.out_at ? fmt.timeOfDay(r.out_at) : ""), h("td", {}, r.level == null ? "" : r.on_break ? t("paper.after_level", { n: r.level }) : String(r.level)),
        h("td", {}, r.table == null ? "" : fmt.spot(r.table, r.seat)), h("td", { class: "num" }, r.prize ? money(r.prize) : "–",
          r.deal ? ` (${t("deal.badge")})` : "")))))
      : h("p", { class: "empty" }, t("paper.no_results")))];
}

/** @type {Record<string, () => HTMLElement[] | Promise<HTMLElement[]>>} */
const RENDER = { cards: renderCards, draw: renderDraw, "draw-tables": renderDrawTables, tables: renderTableCards,
  payouts: renderPayouts, counts: renderCounts, results: renderResults, day: () => dayReport(tid, { head, sheet }) };

// The toolbar -----------------------------------------------------------------------------------

function checkForm() {
  const table = h("input", { id: "check-table", type: "number", min: 1, inputmode: "numeric", style: { width: "6rem" } });
  const seat = h("input", { id: "check-seat", type: "number", min: 1, max: 12, inputmode: "numeric", style: { width: "5rem" } });
  const code = h("input", { id: "check-code", maxlength: 8, autocapitalize: "characters", autocomplete: "off", style: { width: "7rem" } });
  const out = h("span", { class: "check-result", role: "status" });
  return h("form", { class: "check-form", style: { display: "flex", gap: "0.6rem", alignItems: "end" }, onsubmit: async (/** @type {SubmitEvent} */ ev) => {
    ev.preventDefault();
    const q = new URLSearchParams({ table: table.value, seat: seat.value, code: code.value });
    const r = await fetch(`/api/t/${encodeURIComponent(tid)}/paper/check?${q}`, { credentials: "same-origin" });
    const body = await r.json().catch(() => null);
    if (!r.ok) {
      out.className = "check-result bad";
      out.textContent = body?.error?.message || `HTTP ${r.status}`;
      return;
    }
    out.className = `check-result ${body.valid ? "ok" : "bad"}`;
    out.textContent = body.valid ? t("paper.check_ok", { name: body.name })
      : body.name ? t("paper.check_stale", { name: body.name }) : t("paper.check_empty");
  } },
  h("label", { for: "check-table" }, t("paper.table"), table), h("label", { for: "check-seat" }, t("paper.seat"), seat),
  h("label", { for: "check-code" }, t("paper.code"), code), h("button", { type: "submit" }, t("paper.check_card")), out);
}

function renderBar() {
  const kind = h("select", { id: "print-what", onchange: () => go({ what: kind.value }) },
    KINDS.map((k) => h("option", { value: k, selected: k === what }, t(`paper.kind.${k.replace("-", "_")}`))));
  const size = h("select", { id: "print-paper", onchange: () => {
    localStorage.setItem(PAPER_KEY, size.value);
    go({ paper: size.value });
  } }, Object.keys(PAPERS).map((k) => h("option", { value: k, selected: k === paper }, t(`paper.size.${k}`))));
  fill(bar,
    h("label", { for: "print-what" }, t("paper.what"), kind),
    h("label", { for: "print-paper" }, t("paper.paper"), size),
    h("button", { type: "button", class: "primary", onclick: () => window.print() }, t("paper.print")),
    h("a", { href: `/director?t=${encodeURIComponent(tid)}` }, t("paper.back")),
    checkForm());
}

async function start() {
  setPaper(paper);
  document.title = `${t(`paper.kind.${what.replace("-", "_")}`)} · floor`;
  renderBar();
  const r = await fetch(`/api/t/${encodeURIComponent(tid)}/paper`, { credentials: "same-origin" });
  if (!r.ok) {
    const body = await r.json().catch(() => null);
    fill(main, h("h1", { class: "sr-only" }, document.title), sheet(h("p", { class: "empty" }, body?.error?.message || `HTTP ${r.status}`, " · ",
      h("a", { href: `/floor/${encodeURIComponent(tid)}` }, t("paper.sign_in")))));
    document.body.dataset.ready = "error";
    return;
  }
  data = await r.json();
  document.title = `${t(`paper.kind.${what.replace("-", "_")}`)} · ${data.name}`;
  const sheets = await RENDER[what]();
  // Cards and table cards have no title of their own on paper: the page has one all the same.
  const titled = sheets.some((x) => x.querySelector("h1"));
  fill(main, titled ? null : h("h1", { class: "sr-only" }, document.title), sheets);
  document.body.dataset.ready = "1";
  if (params.get("auto") === "1") setTimeout(() => window.print(), 100);
}

start();
