// @ts-check
// The front desk and the cashier (/desk), for the desk's staff (and the director), on a
// tablet or a phone at the counter. Take a player in a few taps: a returning player found in
// the registry, or a new one typed (with their consent to be kept), their language, their
// document (kept apart from the tournament, for the venue's retention), the buy-in (cash, card,
// or a ticket of the house's ledger, listed by the server for the event and the player); the server checks the exclusion list, draws the seat and answers with the seat
// card, printed at once on the 80 mm printer. The shift: its takings by method, voids and
// refunds, the close that says whether the drawer balances. The cashier: who is to be paid,
// in order, each marked paid with a payout slip printed to sign. The director: the desks'
// settings and the exclusion list (floor/server/routes_desk.py).
//
// Every command carries an id made once per attempt and kept until the server has answered:
// a retry after a lost answer gets the same seat, never a second one.

import * as fmt from "./format.js";
import { LANGUAGE_NAMES, onLang, t } from "./i18n.js";
import { signInForm, signOut, whoAmI } from "./signin.js";
import { $, api, debounce, explainError, fill, h, me, toast, topbar } from "./ui.js";

const TABS = ["take", "shift", "cashier", "settings"];
const LANGUAGES = ["en", "cs", "de", "pl", "es", "pt-BR", "fr", "it"];
const DOCS = ["id_card", "passport", "driving_licence", "residence_permit"];
const SHIFT_KEY = "floor.desk.shift";
const DESK_KEY = "floor.desk.name";

const ui = {
  /** @type {{role: string, username: string|null, table: number|null}} */
  principal: { role: "public", username: null, table: null },
  tab: TABS.includes(location.hash.slice(1)) ? location.hash.slice(1) : "take",
  /** @type {any} GET /api/desk */
  overview: null,
  /** @type {string|null} */
  shift: localStorage.getItem(SHIFT_KEY),
  /** @type {any} the open shift's report */
  report: null,
  /** @type {string} */
  tournament: "",
  /** @type {any} the returning player picked */
  returning: null,
  method: "cash",
  /** @type {string|null} the id of the attempt in flight (kept until answered) */
  attempt: null,
  /** @type {any} the last answer: a card, or a refusal */
  last: null,
  /** @type {any} the cashier's sheet */
  cashier: null,
};

const whoEl = h("span", { class: "who-am-i muted" });
const signOutBtn = h("button", { type: "button", class: "ghost small", hidden: true, onclick: async () => {
  await signOut();
  ui.principal = { role: "public", username: null, table: null };
  show();
} });
const bar = topbar(t("desk.title"), null, { right: [whoEl, signOutBtn] });
const shiftEl = h("div", { class: "desk-shiftbar" });
const tabsEl = h("nav", { class: "desk-tabs", "aria-label": t("desk.sections") });
const mainEl = h("main", { class: "desk-main" });
const signinEl = h("main", { class: "desk-signin" });
const paper = /** @type {HTMLElement} */ ($("#desk-paper"));
fill(/** @type {HTMLElement} */ ($("#app")), bar, signinEl, shiftEl, tabsEl, mainEl);

function allowed() {
  return ui.principal.role === "director" || ui.principal.role === "desk";
}

function director() {
  return ui.principal.role === "director";
}

/** A command id: its kind, and random letters.
 * @param {string} kind */
function newId(kind) {
  const random = crypto.getRandomValues(new Uint32Array(2));
  return `desk-${kind}-${random[0].toString(36)}${random[1].toString(36)}`;
}

/** @param {number|null|undefined} n */
function money(n) {
  const currency = ui.overview?.tournaments.find((/** @type {any} */ x) => x.id === ui.tournament)?.currency;
  return n == null ? "" : currency ? fmt.money(n, currency) : fmt.number(n);
}

// Talking to the server ------------------------------------------------------------------------

async function load() {
  if (!allowed()) return;
  try {
    ui.overview = await api("/api/desk");
    if (!ui.tournament && ui.overview.tournaments.length) ui.tournament = ui.overview.tournaments[0].id;
    if (ui.shift) {
      try {
        ui.report = await api(`/api/desk/shifts/${encodeURIComponent(ui.shift)}`);
        if (ui.report.shift.closed_at) keepShift(null);
      } catch (err) {
        keepShift(null);
      }
    }
    if (ui.tab === "cashier" && ui.tournament) await loadCashier();
  } catch (err) {
    toast(`✗ ${explainError(err)}`, "error", 8000);
  }
  render();
}

async function loadCashier() {
  ui.cashier = await api(`/api/desk/cashier/${encodeURIComponent(ui.tournament)}`);
}

/** @param {string|null} sid */
function keepShift(sid) {
  ui.shift = sid;
  ui.report = sid ? ui.report : null;
  if (sid) localStorage.setItem(SHIFT_KEY, sid);
  else localStorage.removeItem(SHIFT_KEY);
}

// Who is signed in -----------------------------------------------------------------------------

function show() {
  const ok = allowed();
  signinEl.hidden = ok;
  tabsEl.hidden = !ok;
  mainEl.hidden = !ok;
  shiftEl.hidden = !ok;
  signOutBtn.hidden = ui.principal.role === "public";
  signOutBtn.textContent = t("signin.signout");
  whoEl.textContent = whoAmI(ui.principal);
  if (!ok) {
    fill(signinEl, ui.principal.role !== "public" ? h("p", { class: "notice", role: "alert" }, t("desk.not_yours")) : null,
      signInForm((p) => {
        ui.principal = p;
        show();
        load();
      }, { roles: ["director", "desk"], note: t("desk.signin_note") }));
    return;
  }
  render();
}

// Rendering ------------------------------------------------------------------------------------

function render() {
  bar.setTitle?.(t("desk.title"));
  if (!allowed()) return;
  renderTabs();
  renderShiftBar();
  if (!ui.overview) return;
  if (ui.tab === "take") fill(mainEl, takeView());
  else if (ui.tab === "shift") fill(mainEl, shiftView());
  else if (ui.tab === "cashier") fill(mainEl, cashierView());
  else fill(mainEl, settingsView());
}

function renderTabs() {
  const tabs = TABS.filter((x) => x !== "settings" || director());
  fill(tabsEl, ...tabs.map((tab) => h("button", {
    type: "button", class: "tab", "aria-pressed": String(ui.tab === tab), "data-tab": tab,
    onclick: async () => {
      ui.tab = tab;
      history.replaceState(null, "", `#${tab}`);
      if (tab === "cashier" && ui.tournament) await loadCashier().catch(() => null);
      render();
    },
  }, t(`desk.tab.${tab}`))));
}

function renderShiftBar() {
  if (ui.shift && ui.report) {
    const s = ui.report.shift;
    fill(shiftEl, h("span", {}, t("desk.shift_open", { desk: s.desk, by: s.by, time: fmt.timeOfDay(s.opened_at) })));
    return;
  }
  const desk = h("input", { id: "desk-name", value: localStorage.getItem(DESK_KEY) || "A", maxlength: 24 });
  const float = h("input", { id: "desk-float", type: "number", min: 0, value: 0, inputmode: "numeric" });
  fill(shiftEl,
    h("label", { for: "desk-name" }, t("desk.desk_name")), desk,
    h("label", { for: "desk-float" }, t("desk.float")), float,
    h("button", { type: "button", class: "primary", id: "desk-open-shift", onclick: async () => {
      try {
        const shift = await api("/api/desk/shifts", { method: "POST", body: { desk: desk.value.trim(), float: Number(float.value || 0) } });
        localStorage.setItem(DESK_KEY, desk.value.trim());
        keepShift(shift.id);
        await load();
      } catch (err) {
        toast(`✗ ${explainError(err)}`, "error", 8000);
      }
    } }, t("desk.open_shift")));
}

/** @param {string} id @param {string} label @param {HTMLElement} input @param {string} [hint] */
function field(id, label, input, hint) {
  input.id = id;
  return h("div", { class: "field" }, h("label", { for: id }, label), input, hint ? h("p", { class: "hint" }, hint) : null);
}

/** @param {() => void} onchange */
function tournamentSelect(onchange) {
  const select = h("select", { onchange: () => {
    ui.tournament = select.value;
    onchange();
  } }, ...(ui.overview?.tournaments || []).map((/** @type {any} */ x) =>
    h("option", { value: x.id, selected: x.id === ui.tournament }, x.name)));
  return select;
}

// Taking a player -------------------------------------------------------------------------------

function takeView() {
  if (!ui.shift) return h("p", { class: "notice" }, t("desk.no_shift"));
  const found = h("ul", { class: "desk-found", "aria-label": t("desk.found") });
  const search = h("input", { type: "search", autocomplete: "off", placeholder: t("desk.search_hint") });
  const given = h("input", { autocomplete: "off", maxlength: 40 });
  const surname = h("input", { autocomplete: "off", maxlength: 40 });
  const language = h("select", {}, ...LANGUAGES.map((l) => h("option", { value: l }, LANGUAGE_NAMES[/** @type {keyof typeof LANGUAGE_NAMES} */ (l.toLowerCase())])));
  const consent = h("input", { type: "checkbox", id: "desk-consent" });
  const docType = h("select", {}, ...DOCS.map((d) => h("option", { value: d }, t(`desk.doc.${d}`))));
  const docNumber = h("input", { autocomplete: "off", maxlength: 32, autocapitalize: "characters" });
  const birth = h("input", { type: "date" });
  const country = h("input", { value: "CZ", maxlength: 3, autocapitalize: "characters", class: "desk-country" });
  const chosen = ui.overview.tournaments.find((/** @type {any} */ x) => x.id === ui.tournament);
  const amount = h("input", { type: "number", min: 0, inputmode: "numeric", value: chosen?.buy_in ?? ui.overview.settings.buy_in });
  const override = h("input", { maxlength: 200 });
  const price = amount.value;
  // A ticket pays its value from the ledger (GET /api/desk/tickets: the server's list for the
  // event and the returning player); the amount shows it, not typed.
  /** @type {any[]} */
  let tickets = [];
  const ticketSel = h("select", {});
  const ticketBox = h("div", { class: "desk-ticket", hidden: ui.method !== "ticket" },
    field("desk-ticket", t("desk.ticket_pick"), ticketSel), h("p", { class: "hint" }, t("desk.ticket_hint")));
  const syncAmount = () => {
    const row = tickets.find((r) => r.id === ticketSel.value);
    amount.disabled = ui.method === "ticket";
    amount.value = ui.method === "ticket" ? String(row ? row.value : 0) : price;
  };
  ticketSel.addEventListener("change", syncAmount);
  const loadTickets = async () => {
    syncAmount();
    if (ui.method !== "ticket" || !ui.tournament) return;
    const q = ui.returning ? `?player=${encodeURIComponent(ui.returning.id)}` : "";
    try {
      tickets = await api(`/api/desk/tickets/${encodeURIComponent(ui.tournament)}${q}`);
    } catch (err) {
      tickets = [];
      toast(`✗ ${explainError(err)}`, "error");
    }
    fill(ticketSel, ...(tickets.length
      ? tickets.map((r) => h("option", { value: r.id }, [r.id, r.name || r.holder || t("desk.ticket_anyone"), money(r.value)].join(" · ")))
      : [h("option", { value: "" }, t("desk.tickets_none"))]));
    syncAmount();
  };
  const methods = h("div", { class: "desk-methods", role: "group", "aria-label": t("desk.method") },
    ...["cash", "card", "ticket"].map((m) => h("button", { type: "button", "aria-pressed": String(ui.method === m), "data-method": m, onclick: () => {
      ui.method = m;
      for (const b of methods.querySelectorAll("button")) b.setAttribute("aria-pressed", String(b.dataset.method === m));
      ticketBox.hidden = m !== "ticket";
      loadTickets();
    } }, t(`desk.method.${m}`))));
  const returning = h("p", { class: "hint" });
  const pick = (/** @type {any} */ p) => {
    ui.returning = p;
    const [g, ...rest] = p.name.split(" ");
    given.value = g;
    surname.value = rest.join(" ");
    language.value = p.language;
    returning.textContent = p ? t("desk.returning", { name: p.name }) : "";
    loadTickets();
  };
  const find = debounce(async () => {
    const q = search.value.trim();
    if (q.length < 2) return fill(found);
    try {
      const got = await api(`/api/desk/registry?q=${encodeURIComponent(q)}`);
      fill(found, ...got.map((/** @type {any} */ p) => h("li", {}, h("button", { type: "button", onclick: () => pick(p) }, p.name))));
    } catch (err) {
      toast(`✗ ${explainError(err)}`, "error");
    }
  }, 250);
  search.addEventListener("input", find);
  const go = h("button", { type: "submit", class: "primary desk-go", id: "desk-go" }, t("desk.go"));
  const form = h("form", { class: "card", novalidate: true },
    field("desk-tournament", t("desk.tournament"), tournamentSelect(render)),
    h("fieldset", {}, h("legend", {}, t("desk.player")),
      field("desk-search", t("desk.search"), search), found, returning,
      h("div", { class: "row" }, field("desk-given", t("desk.given_names"), given), field("desk-surname", t("desk.surname"), surname)),
      h("div", { class: "row" }, field("desk-language", t("desk.language"), language),
        h("div", { class: "field" }, h("label", { class: "check" }, consent, t("desk.consent"))))),
    h("fieldset", {}, h("legend", {}, t("desk.identity")),
      h("div", { class: "row" }, field("desk-doc-type", t("desk.doc_type"), docType), field("desk-doc-number", t("desk.doc_number"), docNumber)),
      h("div", { class: "row" }, field("desk-birth", t("desk.birth_date"), birth), field("desk-country", t("desk.country"), country)),
      h("p", { class: "hint" }, t("desk.identity_note", { days: ui.overview.settings.retention_days }))),
    h("fieldset", {}, h("legend", {}, t("desk.buy_in")), methods, ticketBox, field("desk-amount", t("desk.amount"), amount)),
    director() ? field("desk-override", t("desk.override"), override, t("desk.override_hint")) : null,
    go);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    ui.attempt = ui.attempt || newId("t");
    const body = {
      id: ui.attempt, shift: ui.shift, tournament: ui.tournament,
      given_names: given.value.trim(), surname: surname.value.trim(), language: language.value, consent: consent.checked,
      identity: { doc_type: docType.value, doc_number: docNumber.value.trim(), birth_date: birth.value, country: country.value.trim().toUpperCase() },
      method: ui.method, amount: Number(amount.value || 0),
      ...(ui.method === "ticket" ? { ticket: ticketSel.value } : {}),
      ...(ui.returning ? { player: ui.returning.id } : {}),
      ...(director() && override.value.trim() ? { override: override.value.trim() } : {}),
    };
    go.disabled = true;
    try {
      const taken = await api("/api/desk/take", { method: "POST", body });
      ui.attempt = null;
      ui.returning = null;
      ui.last = { card: taken.card };
      printCard(taken.card);
      await load();
    } catch (err) {
      // A network failure keeps the id: sent again, the same command (and seat).
      if (err.status) ui.attempt = null;
      ui.last = { error: err };
      fill(lastEl, lastView());
      const bad = err.field ? form.querySelector(`#desk-${String(err.field).replace("identity.", "").replace("_", "-").replace("birth-date", "birth").replace("given-names", "given")}`) : null;
      if (bad instanceof HTMLElement) bad.focus();
    } finally {
      go.disabled = false;
    }
  });
  const lastEl = h("section", { class: "desk-last", "aria-live": "polite" }, lastView());
  loadTickets();
  return h("div", { class: "desk-take" }, form, lastEl);
}

function lastView() {
  const last = ui.last;
  if (!last) return h("p", { class: "muted" }, t("desk.ready"));
  if (last.error) {
    return h("div", { class: "desk-refused", role: "alert", id: "desk-refused" }, explainError(last.error));
  }
  const c = last.card;
  return h("div", { class: "card desk-card", id: "desk-card" },
    h("p", { class: "name" }, c.name),
    h("p", { class: "seat" }, c.table ? t("desk.seat", { table: c.table, seat: c.seat }) : t("desk.no_seat_yet")),
    c.code ? h("p", { class: "code" }, c.code) : null,
    h("p", { class: "muted" }, c.tournament_name),
    h("button", { type: "button", class: "big", onclick: () => printCard(c) }, t("desk.print_again")));
}

// Printing (the 80 mm receipt) -----------------------------------------------------------------

/** @param {...any} children */
function printPaper(...children) {
  fill(paper, ...children);
  // A kiosk browser (chromium --kiosk --kiosk-printing) prints without a dialog.
  window.print();
}

/** @param {any} c */
function printCard(c) {
  printPaper(h("h1", {}, c.tournament_name), h("p", {}, c.name),
    h("p", { class: "big" }, c.table ? t("desk.seat", { table: c.table, seat: c.seat }) : t("desk.no_seat_yet")),
    c.code ? h("p", { class: "code" }, c.code) : null,
    h("p", {}, `${fmt.timeOfDay(Date.now() / 1000)} · ${c.player}`));
}

// The shift ------------------------------------------------------------------------------------------

function shiftView() {
  const r = ui.report;
  if (!ui.shift || !r) return h("p", { class: "notice" }, t("desk.no_shift"));
  const undone = new Set(r.entries.filter((/** @type {any} */ e) => e.of).map((/** @type {any} */ e) => e.of));
  const undo = async (/** @type {any} */ e, /** @type {string} */ kind) => {
    try {
      await api("/api/desk/undo", { method: "POST", body: { id: newId(kind[0]), shift: ui.shift, sale: e.id, kind } });
      toast(`✓ ${t(`desk.kind.${kind}`)}`, "ok");
    } catch (err) {
      toast(`✗ ${explainError(err)}`, "error", 8000);
    }
    await load();
  };
  const counted = h("input", { type: "number", min: 0, inputmode: "numeric", id: "desk-counted" });
  return h("div", {},
    h("section", { class: "card" }, h("h2", {}, t("desk.takings")),
      h("table", { class: "desk-table", id: "desk-totals" },
        h("thead", {}, h("tr", {}, h("th", {}, t("desk.method")), h("th", { class: "num" }, t("desk.sales")),
          h("th", { class: "num" }, t("desk.sold")), h("th", { class: "num" }, t("desk.voided")),
          h("th", { class: "num" }, t("desk.refunded")), h("th", { class: "num" }, t("desk.net")))),
        h("tbody", {}, ...r.totals.map((/** @type {any} */ x) => h("tr", {}, h("td", {}, t(`desk.method.${x.method}`)),
          h("td", { class: "num" }, String(x.sales)), h("td", { class: "num" }, money(x.sold)),
          h("td", { class: "num" }, money(x.voided)), h("td", { class: "num" }, money(x.refunded)), h("td", { class: "num" }, money(x.net)))))),
      h("p", { class: "desk-totals" }, h("span", {}, t("desk.expected_cash", { amount: money(r.expected_cash) })),
        h("span", {}, t("desk.counts", { sales: r.sales, voids: r.voids, refunds: r.refunds })))),
    h("section", { class: "card" }, h("h2", {}, t("desk.close")),
      h("div", { class: "row" }, field("desk-counted", t("desk.counted"), counted),
        h("button", { type: "button", class: "primary big", id: "desk-close", onclick: async () => {
          try {
            const closed = await api(`/api/desk/shifts/${encodeURIComponent(/** @type {string} */ (ui.shift))}/close`, { method: "POST", body: { counted: Number(counted.value || 0) } });
            printReport(closed);
            keepShift(null);
            ui.last = null;
            fill(mainEl, closedView(closed));
            renderShiftBar();
          } catch (err) {
            toast(`✗ ${explainError(err)}`, "error", 8000);
          }
        } }, t("desk.close_shift")))),
    h("section", { class: "card" }, h("h2", {}, t("desk.entries")),
      h("table", { class: "desk-table", id: "desk-entries" }, h("tbody", {}, ...r.entries.map((/** @type {any} */ e) =>
        h("tr", { class: undone.has(e.id) ? "is-undone" : "" }, h("td", {}, fmt.timeOfDay(e.at)),
          h("td", {}, t(`desk.kind.${e.kind}`)), h("td", {}, e.name), h("td", { class: "wide" }, e.ticket ? `${t("desk.method.ticket")} ${e.ticket}` : t(`desk.method.${e.method}`)),
          h("td", { class: "num" }, money(e.amount)),
          // A ticket's sale is undone by the director, on the console and the ledger.
          h("td", {}, e.kind === "sale" && e.method !== "ticket" && !undone.has(e.id) ? h("div", { class: "actions" },
            h("button", { type: "button", class: "warn", onclick: () => undo(e, "void") }, t("desk.void")),
            h("button", { type: "button", onclick: () => undo(e, "refund") }, t("desk.refund"))) : null)))))));
}

/** @param {any} r */
function closedView(r) {
  const ok = r.balances;
  return h("section", { class: "card", id: "desk-closed" }, h("h2", {}, t("desk.closed")),
    h("p", { class: `desk-balance ${ok ? "is-ok" : "is-off"}` }, ok ? t("desk.balances") : t("desk.off_by", { amount: money(r.difference) })),
    h("p", {}, t("desk.expected_cash", { amount: money(r.expected_cash) })),
    h("p", {}, t("desk.counted_was", { amount: money(r.counted) })),
    h("button", { type: "button", class: "big", onclick: () => printReport(r) }, t("desk.print_again")));
}

/** @param {any} r */
function printReport(r) {
  printPaper(h("h1", {}, t("desk.report_title", { desk: r.shift.desk })),
    h("p", {}, `${r.shift.by} · ${fmt.timeOfDay(r.shift.opened_at)}–${r.shift.closed_at ? fmt.timeOfDay(r.shift.closed_at) : ""}`),
    h("table", {}, ...r.totals.map((/** @type {any} */ x) => h("tr", {}, h("td", {}, t(`desk.method.${x.method}`)), h("td", { class: "num" }, money(x.net))))),
    h("p", {}, t("desk.counts", { sales: r.sales, voids: r.voids, refunds: r.refunds })),
    h("p", {}, t("desk.expected_cash", { amount: money(r.expected_cash) })),
    r.counted != null ? h("p", {}, t("desk.counted_was", { amount: money(r.counted) })) : null,
    r.balances != null ? h("p", {}, r.balances ? t("desk.balances") : t("desk.off_by", { amount: money(r.difference) })) : null,
    h("p", { class: "sign" }, t("desk.signature")));
}

// The cashier ----------------------------------------------------------------------------------------

function cashierView() {
  const sheet = ui.cashier?.sheet;
  const shown = ui.cashier?.shown || {};
  const head = field("desk-cashier-tournament", t("desk.tournament"), tournamentSelect(async () => {
    await loadCashier().catch(() => null);
    render();
  }));
  if (!sheet) return h("div", {}, head);
  const pay = async (/** @type {any} */ row) => {
    try {
      const got = await api(`/api/desk/cashier/${encodeURIComponent(ui.tournament)}/pay`, { method: "POST", body: { player: row.player } });
      ui.cashier.sheet = got.sheet;
      printSlip(row, shown[row.player]);
    } catch (err) {
      toast(`✗ ${explainError(err)}`, "error", 8000);
    }
    render();
  };
  // Bounties and seat tickets where the tournament has them (issue 27, a satellite's seats).
  const bounties = sheet.rows.some((/** @type {any} */ r) => r.bounty > 0);
  const tickets = sheet.rows.some((/** @type {any} */ r) => r.ticket);
  return h("div", {}, head,
    h("p", { class: "desk-totals", id: "desk-cashier-totals" }, h("span", {}, t("desk.paid_total", { amount: money(sheet.paid) })),
      h("span", {}, t("desk.owed_total", { amount: money(sheet.owed) })),
      sheet.bounties_owed ? h("span", {}, t("desk.bounties_owed_total", { amount: money(sheet.bounties_owed) })) : null),
    sheet.rows.length ? h("table", { class: "desk-table desk-pay", id: "desk-cashier" },
      h("thead", {}, h("tr", {}, h("th", {}, t("desk.place")), h("th", {}, t("desk.name")), h("th", { class: "wide" }, t("desk.document")),
        h("th", { class: "num" }, t("desk.prize")),
        bounties ? h("th", { class: "num" }, t("desk.col_bounty")) : null,
        tickets ? h("th", {}, t("desk.col_ticket")) : null, h("th", {}, ""))),
      h("tbody", {}, ...sheet.rows.map((/** @type {any} */ row) => h("tr", { "data-player": row.player },
        h("td", {}, fmt.ordinal(row.place)), h("td", {}, row.name),
        h("td", { class: "wide" }, docText(shown[row.player])), h("td", { class: "num" }, prizeText(row)),
        bounties ? h("td", { class: "num desk-bounty" }, money(row.bounty),
          row.bounty_owed && !row.paid ? h("span", { class: "hint" }, ` ${t("desk.bounty_owed", { amount: money(row.bounty_owed) })}`) : null) : null,
        tickets ? h("td", { class: "desk-won-ticket" }, row.ticket ? `${row.ticket} → ${row.ticket_target}` : "") : null,
        h("td", {}, row.paid ? h("span", { class: "badge" }, t("desk.paid"))
          : h("button", { type: "button", class: "primary", onclick: () => pay(row) }, t("desk.pay"))))))) : h("p", { class: "muted" }, t("desk.nobody_to_pay")));
}

/** The prize as the cashier pays it: the cash, and a seat's worth paid with its ticket.
 * @param {any} row */
function prizeText(row) {
  if (!row.seat) return money(row.amount);
  const seat = t("milestone.finish_seat", { prize: money(row.seat) });
  return row.amount ? `${money(row.amount)} + ${seat}` : seat;
}

/** @param {any} doc */
function docText(doc) {
  return doc ? `${t(`desk.doc.${doc.doc_type}`)} …${doc.last}` : t("desk.no_document");
}

/** @param {any} row @param {any} doc */
function printSlip(row, doc) {
  const name = ui.overview?.tournaments.find((/** @type {any} */ x) => x.id === ui.tournament)?.name ?? ui.tournament;
  printPaper(h("h1", {}, t("desk.slip_title")), h("p", {}, name), h("p", {}, row.name),
    h("p", { class: "big" }, prizeText(row)),
    h("p", {}, t("desk.slip_place", { place: fmt.ordinal(row.place) })),
    row.bounty_owed ? h("p", {}, t("desk.slip_bounty", { amount: money(row.bounty_owed) })) : null,
    row.ticket ? h("p", {}, t("desk.slip_ticket", { ticket: row.ticket, target: row.ticket_target })) : null,
    h("p", {}, docText(doc)),
    h("p", {}, fmt.timeOfDay(Date.now() / 1000)),
    h("p", { class: "sign" }, t("desk.signature_player")));
}

// The director: settings and the list ---------------------------------------------------------------

function settingsView() {
  const s = ui.overview.settings;
  const retention = h("input", { type: "number", min: 1, max: 3650, value: s.retention_days });
  const maxAge = h("input", { type: "number", min: 0.01, step: "any", value: s.list_max_age_hours });
  const minAge = h("input", { type: "number", min: 16, max: 25, value: s.min_age });
  const buyIn = h("input", { type: "number", min: 0, value: s.buy_in });
  const file = h("input", { type: "file", accept: ".csv,text/csv" });
  const list = ui.overview.list;
  return h("div", {},
    h("section", { class: "card" }, h("h2", {}, t("desk.settings")),
      h("div", { class: "row" }, field("desk-retention", t("desk.retention"), retention), field("desk-max-age", t("desk.max_age"), maxAge),
        field("desk-min-age", t("desk.min_age"), minAge), field("desk-default-buy-in", t("desk.default_buy_in"), buyIn)),
      h("button", { type: "button", class: "primary", onclick: async () => {
        try {
          await api("/api/desk/settings", { method: "PUT", body: { retention_days: Number(retention.value), list_max_age_hours: Number(maxAge.value), min_age: Number(minAge.value), buy_in: Number(buyIn.value) } });
          toast(`✓ ${t("desk.saved")}`, "ok");
          await load();
        } catch (err) {
          toast(`✗ ${explainError(err)}`, "error", 8000);
        }
      } }, t("desk.save"))),
    h("section", { class: "card" }, h("h2", {}, t("desk.list")),
      h("p", { id: "desk-list-age" }, list ? t("desk.list_age", { rows: list.rows, hours: fmt.number(list.age / 3600, 1), by: list.by }) : t("desk.no_list")),
      field("desk-list-file", t("desk.list_file"), file, t("desk.list_hint")),
      h("button", { type: "button", class: "primary", onclick: async () => {
        const chosen = file.files?.[0];
        if (!chosen) return;
        try {
          const response = await fetch("/api/desk/exclusions", { method: "POST", credentials: "same-origin", headers: { "Content-Type": "text/csv" }, body: await chosen.arrayBuffer() });
          const got = await response.json();
          if (!response.ok) throw Object.assign(new Error(), got.error);
          toast(`✓ ${t("desk.imported", { rows: got.rows, bad: got.bad_rows })}`, "ok", 8000);
          await load();
        } catch (err) {
          toast(`✗ ${explainError(err)}`, "error", 8000);
        }
      } }, t("desk.import"))));
}

onLang(() => show());
(async () => {
  ui.principal = await me();
  show();
  await load();
})();
