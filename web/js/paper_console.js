// @ts-check
// The console's paper and files: the money and the structure editors (money.js,
// structure_editor.js), the files to download (results, a Hendon-Mob-style results file, the
// payout sheet, the whole log) and the printables (print.js). Each editor is built once per
// tournament setting and language, so a batch arriving while the director types loses nothing.

import { t } from "./i18n.js";
import { moneyPanel } from "./money.js";
import { structureEditor } from "./structure_editor.js";
import { printHref } from "./print_links.js";
import { h, fill, icon } from "./ui.js";
import { heldState } from "./conn.js";
/** @import { Conn, Send } from "./types.js" */
/** @import { Principal } from "./ui.js" */

export { cardLink } from "./print_links.js";

const built = { money: "", structure: "", files: "" };

/**
 * @param {string} id
 * @param {string} key
 */
function heading(id, key) {
  return h("h2", { id: `h-${id}` }, t(key));
}

/**
 * @param {Conn} conn
 * @param {string} part
 */
function stamp(conn, part) {
  const s = heldState(conn);
  return JSON.stringify([document.documentElement.lang, part === "money" ? s.structure?.prize ?? null : { ...(s.structure || {}), prize: null }, s.clock.started, s.clock.level]);
}

/** @param {Element} el */
function editing(el) {
  return el.contains(document.activeElement) && document.activeElement !== el;
}

/** @param {{ sections: Record<string, HTMLElement>, conn: Conn | null, tid: string, send: Send, principal: Principal }} options */
export function renderPaper({ sections, conn, tid, send, principal }) {
  if (!conn?.state) {
    for (const id of ["money", "structure", "files"]) if (sections[id]) fill(sections[id], heading(id, `director.${id}`));
    return;
  }
  const money = stamp(conn, "money");
  if (sections.money && built.money !== money && !editing(sections.money)) {
    built.money = money;
    fill(sections.money, heading("money", "director.money"), h("p", { class: "hint" }, t("money.intro")), moneyPanel({ conn, send }));
  }
  const structure = stamp(conn, "structure");
  if (sections.structure && built.structure !== structure && !editing(sections.structure)) {
    built.structure = structure;
    fill(sections.structure, heading("structure", "director.structure"), h("p", { class: "hint" }, t("structure.intro")), structureEditor({ conn, send }));
  }
  const files = document.documentElement.lang;
  if (sections.files && built.files !== files) {
    built.files = files;
    const e = encodeURIComponent(tid);
    /** @param {string} href @param {string} key @param {string} [download] */
    const link = (href, key, download) => h("a", { class: "button", href, download: download || null }, icon("⤓"), t(key));
    /** @param {string} what @param {string} key @param {Record<string, string>} [extra] */
    const print = (what, key, extra) => h("a", { class: "button", href: printHref(tid, what, extra), target: "_blank", rel: "noopener" }, t(key));
    fill(sections.files, heading("files", "director.files"),
      h("h3", {}, t("files.exports")),
      h("div", { class: "actions" },
        link(`/api/t/${e}/export/results.csv`, "files.results", `${tid}-results.csv`),
        link(`/api/t/${e}/export/hendon.csv`, "files.hendon", `${tid}-results-hendon.csv`),
        link(`/api/t/${e}/export/payouts.csv`, "files.payouts", `${tid}-payouts.csv`),
        principal.role === "director" ? link(`/api/t/${e}/export/log`, "files.log", `${tid}.floor.jsonl`) : null),
      h("p", { class: "hint" }, t("files.log_hint")),
      h("h3", {}, t("files.print")),
      h("div", { class: "actions" },
        print("cards", "files.print_cards"), print("cards", "files.print_receipts", { paper: "receipt" }),
        print("cards", "files.print_moves", { moves: "all" }), print("draw", "files.print_draw"),
        print("draw-tables", "files.print_draw_tables"), print("tables", "files.print_tables"),
        print("payouts", "files.print_payouts"), print("counts", "files.print_counts"), print("results", "files.print_results")));
  }
}
