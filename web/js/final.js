// @ts-check
// The final table on a wall of its own (/final/{id}): its seats with the players and their
// stacks (counted, or said not to be), the clock in a line, and the pay ladder of the final
// table's places: who was paid each place already, which are still to be paid. Read from five
// metres on a 1920x1080 TV: nothing under 1.7rem (27 px), as on the wall. Before the final
// table forms (and with no table left to call the last) it says how many are still in play.
// URL options: ?lang=cs.

import { Connection, heldState, tableViews, tidFromPath } from "./conn.js";
import { reloadOnUpgrade } from "./version.js";
import { clockPanel } from "./clockview.js";
import { countAge, oldCount } from "./countage.js";
import { ending } from "./finished.js";
import * as fmt from "./format.js";
import { onLang, t } from "./i18n.js";
import { Prizes, placeText } from "./prizes.js";
import { $, fill, h, topbar } from "./ui.js";
/** @import { Player } from "./protocol.js" */

const conn = new Connection(tidFromPath());
reloadOnUpgrade(conn);
const prizes = new Prizes(conn);

// The same scale as the wall: designed for 1920x1080, larger and smaller TVs alike; a phone
// (narrow) gets a column.
function rescale() {
  const narrow = innerWidth < 900;
  document.body.classList.toggle("narrow", narrow);
  const s = narrow ? 1 : Math.min(innerWidth / 1920, innerHeight / 1080);
  document.documentElement.style.setProperty("--s", String(s));
}
rescale();
addEventListener("resize", rescale);

const bar = topbar(t("final.title"), conn);
const clockEl = h("section", { class: "final-clock", "aria-label": t("wall.clock") });
const tableHead = h("div", { class: "final-head" });
const seatsEl = h("ol", { class: "final-seats" });
const tableEl = h("section", { class: "final-table", "aria-labelledby": "final-table-title" }, tableHead, seatsEl);
const ladderHead = h("div", { class: "final-head" });
const ladderEl = h("ol", { class: "final-ladder" });
const ladderBox = h("section", { class: "final-pay", "aria-labelledby": "final-ladder-title" }, ladderHead, ladderEl);
fill($("#app"), bar, h("main", { class: "final-body" }, h("div", { class: "final-left" }, clockEl, tableEl), ladderBox));
clockPanel(clockEl, conn, { stats: false, compact: true });

/** The table shown: the final table once formed, else the one table still with players. */
function shownTable() {
  const s = heldState(conn);
  if (s.final_table != null && s.tables[s.final_table]) return { table: s.tables[s.final_table], last: false };
  const inPlay = Object.values(s.tables).filter((x) => x.status !== "broken" && Object.keys(x.occupants).length);
  return inPlay.length === 1 ? { table: inPlay[0], last: true } : null;
}

/** The count on record, when it was counted, and whether it is old (the server's verdict in
 * the table's view): an old count is no stack now, and asks the floor for a recount.
 * @param {Player} p
 * @param {any} view
 */
function stackCell(p, view) {
  if (!fmt.stackCounted(p)) return h("span", { class: "fs-stack muted" }, t("race.not_counted"));
  const bigBlind = conn.facts?.clock?.big_blind;
  const old = oldCount(view, p.id);
  return h("span", { class: `fs-stack${old ? " old" : ""}` },
    h("span", { class: "fs-count" }, h("strong", {}, fmt.chips(p.stack)),
      bigBlind && !old ? h("span", { class: "fs-bb" }, fmt.bb((p.stack ?? 0) / bigBlind)) : null),
    countAge(p.counted_at, old, { cls: "fs-age", recount: true }));
}

function renderTable() {
  const s = heldState(conn);
  const shown = shownTable();
  if (!shown) {
    const tables = Object.values(s.tables).filter((x) => x.status !== "broken" && Object.keys(x.occupants).length).length;
    fill(tableHead, h("h2", { id: "final-table-title" }, t("final.title")));
    fill(seatsEl, h("li", { class: "final-note" }, t("final.not_formed", { players: conn.stats?.players_left ?? 0, tables })));
    return;
  }
  const { table, last } = shown;
  const view = tableViews(conn).find((v) => v.table === table.number);
  const old = Object.keys(view?.oldCounts || {}).length;
  fill(tableHead, h("h2", { id: "final-table-title" }, t(last ? "final.last_table" : "final.table", { table: table.number })),
    h("p", { class: "final-left-count" }, t("final.left", { n: conn.stats?.players_left ?? 0 })),
    old ? h("p", { class: "final-recount" }, h("span", { class: "badge badge-recount" }, t("count.recount")), " ",
      t("final.recount", { n: old })) : null);
  const rows = [];
  for (let seat = 1; seat <= table.seats; seat += 1) {
    const pid = table.occupants[seat];
    const p = pid ? s.players[pid] : null;
    const button = view?.button === seat;
    rows.push(h("li", { class: `final-seat${p ? "" : " empty"}${button ? " button" : ""}` },
      h("span", { class: "fs-no", "aria-label": `${t("final.seat")} ${seat}` }, seat),
      h("span", { class: "fs-name" }, p ? p.name : t("final.empty"),
        button ? h("span", { class: "fs-dealer", title: t("final.dealer") }, "D") : null),
      p ? stackCell(p, view) : h("span", { class: "fs-stack" })));
  }
  fill(seatsEl, rows);
}

/** Who was paid each place: the results, a shared place on every place it covers.
 * @param {any[]} results
 */
function paidTo(results) {
  const out = new Map();
  for (const r of results || []) {
    for (let place = r.place; place < r.place + r.tied; place += 1) {
      out.set(place, [...(out.get(place) || []), r.name]);
    }
  }
  return out;
}

/** The deal made: each player's share, and what is still played for.
 * @param {any} deal
 * @param {string} currency */
function dealLine(deal, currency) {
  const shares = deal.shares.map((/** @type {any} */ x) =>
    `${conn.state?.players?.[x.player]?.name ?? x.player} ${fmt.money(x.amount, currency)}`);
  return h("p", { class: "final-deal" }, t("final.deal", { method: t(`deal.method.${deal.method}`) }), ": ",
    shares.join(" · "), deal.left_to_play ? ` · ${t("final.deal_left", { left: fmt.money(deal.left_to_play, currency) })}` : "");
}

function renderLadder() {
  const d = prizes.data;
  const pool = d?.pool;
  const deal = conn.state?.deal ?? null;
  fill(ladderHead, h("h2", { id: "final-ladder-title" }, t("final.ladder")),
    pool ? h("p", { class: "final-paid-count" }, t("final.paid_places", { n: pool.places.length }),
      " · ", fmt.money(pool.pool, pool.currency)) : null,
    deal && pool ? dealLine(deal, pool.currency) : null);
  if (!d) return fill(ladderEl, h("li", { class: "final-note" }, prizes.failed ? t("error.network") : t("clock.waiting")));
  if (!pool) return fill(ladderEl, h("li", { class: "final-note" }, t("final.no_prizes")));
  const shown = shownTable();
  const left = conn.stats?.players_left ?? 0;
  // The final table's places (one per seat: who finished there, paid or not), or before it
  // forms the places paid, as many as fit.
  const upTo = shown ? Math.max(shown.table.seats, 1) : Math.min(pool.places.length, 12);
  const paid = paidTo(d.results);
  const prize = new Map(pool.places.map((/** @type {any} */ x) => [x.place, x.prize]));
  // A deal pays its places as the server's results say (a share, the winner's with what
  // was left to play for); the places still open under it are paid by the deal, not the pool.
  for (const r of d.results || []) if (r.deal) prize.set(r.place, r.prize);
  const byDeal = deal ? deal.shares.length : 0;
  const rows = [];
  for (let place = 1; place <= upTo; place += 1) {
    const names = paid.get(place);
    const open = !names && place <= byDeal;
    const money = open ? null : prize.get(place);
    const next = !names && place === left && money != null && !ending(conn);
    rows.push(h("li", { class: `final-place${names ? " done" : " open"}${money == null ? " unpaid" : ""}${next ? " next" : ""}` },
      h("span", { class: "fp-place" }, placeText(place)),
      h("span", { class: "fp-who" }, names ? names.join(" · ") : open ? t("final.by_deal") : money != null ? t("final.to_pay") : ""),
      h("span", { class: "fp-prize" }, money != null ? fmt.money(money, pool.currency) : "–")));
  }
  fill(ladderEl, rows);
}

function renderAll() {
  if (!conn.state) return;
  bar.setTitle(`${t("final.title")} · ${conn.state.name}`);
  document.title = `${conn.state.name} · ${t("final.title")}`;
  renderTable();
  renderLadder();
}

let queued = false;
conn.on("change", () => {
  if (queued) return;
  queued = true;
  requestAnimationFrame(() => {
    queued = false;
    renderAll();
  });
});
prizes.onChange(renderLadder);
onLang(renderAll);
conn.start();
window.floorFinal = { conn, prizes };
