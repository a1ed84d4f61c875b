// @ts-check
// Register a list: paste from a spreadsheet or upload a CSV, TSV, text or .xlsx file; the
// server reads it (POST /api/t/{id}/import: the header, the columns, every row flagged) and
// this panel shows its preview; the director maps the columns, ticks the rows, and the
// entries the server listed are sent with `register_many`, as many per command as one body
// holds, with the progress shown. Nothing is registered before "Register", and Register waits
// while the server asks whether the first row is a header, or while rows would get a
// special-needs seat the director has not confirmed.

import { errorText } from "./errors.js";
import * as fmt from "./format.js";
import { LANGUAGE_NAMES, t } from "./i18n.js";
import { h, fill, toast } from "./ui.js";
/** @import { Conn } from "./types.js" */

const FIELDS = ["name", "surname_name", "first_name", "last_name", "player", "country", "special_needs", "note", "language"];
const ENCODINGS = ["auto", "utf-8", "windows-1250", "iso-8859-2", "windows-1252", "utf-16"];
/** A command body stays under the server's limit (64 KB by default) with room to spare. */
const CHUNK_BYTES = 48 * 1024;
const CHUNK_ROWS = 1000;
/**
 * The server's preview of a list (POST /api/t/{id}/import/preview, floor/imports).
 * @typedef {object} Preview
 * @property {PreviewRow[]} rows
 * @property {PreviewColumn[]} columns
 * @property {number} total
 * @property {number} errors
 * @property {number} warnings
 * @property {string} kind
 * @property {string | null} encoding
 * @property {boolean} guessed
 * @property {boolean} asked the first row's shape left open whether it is a header
 * @property {boolean} header
 * @property {string[]} first the first row's cells
 * @property {any} problem a refusal of the whole list
 */
/**
 * @typedef {object} PreviewRow
 * @property {number} line
 * @property {boolean} include
 * @property {import("./protocol.js").Register | null} entry what the row registers (none for a refused row)
 * @property {{ code: string, error?: boolean, params: Record<string, any>, reason?: string, reason_params?: Record<string, any> }[]} flags
 * @property {string} [name]
 * @property {string} [surname]
 * @property {string} [player]
 * @property {string} [country]
 * @property {boolean} [special_needs]
 * @property {string} [note]
 * @property {string} [lang] the language the player reads (a language column)
 */
/** @typedef {{ index: number, field: string | null, title?: string, sample: string[] }} PreviewColumn */

/** Rows shown in the preview (all flagged rows are shown too). */
const SHOWN = 200;

/** Split `entries` into commands' worth: under CHUNK_BYTES of JSON and CHUNK_ROWS each.
 * @param {import("./protocol.js").Register[]} entries
 */
export function chunks(entries) {
  const out = [];
  let chunk = [];
  let bytes = 0;
  for (const e of entries) {
    const size = new TextEncoder().encode(JSON.stringify(e)).length + 1;
    if (chunk.length && (bytes + size > CHUNK_BYTES || chunk.length >= CHUNK_ROWS)) {
      out.push(chunk);
      chunk = [];
      bytes = 0;
    }
    chunk.push(e);
    bytes += size;
  }
  if (chunk.length) out.push(chunk);
  return out;
}

/**
 * @param {PreviewRow["flags"][number]} flag
 * @param {Conn} conn
 */
function flagText(flag, conn) {
  if (flag.code === "refused") return errorText({ reason: flag.reason, params: flag.reason_params, message: flag.params.message }, conn);
  return t(`import.flag.${flag.code}`, flag.params);
}

/** @param {{ tid: string, conn: Conn, outbox: import("./commands.js").Outbox }} options */
export function importPanel({ tid, conn, outbox }) {
  const paste = h("textarea", { id: "import-paste", rows: 6, spellcheck: "false", placeholder: t("import.paste_placeholder") });
  const file = h("input", { id: "import-file", type: "file", accept: ".csv,.tsv,.txt,.xlsx,text/csv,text/plain,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" });
  const header = h("select", { id: "import-header" }, ["auto", "yes", "no"].map((v) => h("option", { value: v }, t(`import.header.${v}`))));
  const encoding = h("select", { id: "import-encoding" }, ENCODINGS.map((v) => h("option", { value: v }, v === "auto" ? t("import.encoding_auto") : v)));
  const previewEl = h("div", { class: "import-preview", "aria-live": "polite" });
  const progress = h("progress", { id: "import-progress", max: 1, value: 0, hidden: true });
  const progressText = h("span", { id: "import-progress-text", class: "muted", role: "status" });
  /** @type {File | string | null} the bytes or text last previewed */
  let body = null;
  /** @type {Preview | null} the server's preview (POST /api/t/{id}/import/preview) */
  let preview = null;
  /** @type {string | null} "field=index,..." chosen by the director */
  let mapping = null;
  /** @type {Map<number, boolean>} row line -> included */
  let ticked = new Map();
  let sending = false;
  let needsConfirmed = 0; // the special-needs seats the director confirmed (0: none)
  let answered = false; // the header choice is the answer to the question about this list

  async function ask() {
    if (body == null) return;
    const q = new URLSearchParams({ header: header.value, encoding: encoding.value });
    if (mapping) q.set("map", mapping);
    let r;
    try {
      r = await fetch(`/api/t/${encodeURIComponent(tid)}/import?${q}`, {
        method: "POST", credentials: "same-origin", headers: { "Content-Type": "application/octet-stream" }, body,
      });
    } catch (err) {
      return toast(`✗ ${t("error.network")}`, "error", 8000);
    }
    const data = await r.json().catch(() => null);
    if (!r.ok) {
      preview = null;
      fill(previewEl, h("p", { class: "error-text", role: "alert" }, errorText(data?.error || { message: `HTTP ${r.status}` }, conn)));
      return;
    }
    preview = /** @type {Preview} */ (data);
    ticked = new Map(preview.rows.map((row) => [row.line, row.include]));
    needsConfirmed = 0;
    render();
  }

  function chosenMapping() {
    return (preview?.columns ?? []).filter((c) => c.field).map((c) => `${c.field}=${c.index}`).join(",");
  }

  /** The preview, once there is one. */
  function render() {
    const p = /** @type {Preview} */ (preview);
    const columns = h("div", { class: "import-columns row" }, p.columns.map((c) => {
      const sel = h("select", { id: `import-col-${c.index}`, "aria-label": t("import.column_n", { n: c.index + 1 }), onchange: () => {
        // One column per field: the field chosen here leaves any other column.
        for (const other of p.columns) if (other !== c && other.field === sel.value) other.field = null;
        c.field = sel.value || null;
        mapping = chosenMapping() || "name=0";
        ask();
      } }, h("option", { value: "" }, t("import.field.ignore")),
      FIELDS.map((f) => h("option", { value: f, selected: c.field === f }, t(`import.field.${f}`))));
      return h("div", { class: "field" }, h("label", { for: `import-col-${c.index}` }, c.title || t("import.column_n", { n: c.index + 1 })), sel,
        h("p", { class: "hint" }, c.sample.filter((v) => v.trim()).slice(0, 2).join(" · ")));
    }));
    const summary = h("p", { class: "import-summary" },
      t("import.summary", { rows: fmt.number(p.total), included: fmt.number(includedCount()), errors: fmt.number(p.errors), warnings: fmt.number(p.warnings) }),
      " · ", t(`import.kind.${p.kind}`), p.encoding ? ` · ${p.encoding}` : "",
      p.guessed ? h("span", { class: "badge badge-paused" }, t("import.guessed")) : null,
      " · ", p.asked ? t("import.header_asked") : p.header ? t("import.with_header") : t("import.no_header"));
    const flagged = p.rows.filter((row) => row.flags.length);
    const shown = [...new Set([...p.rows.slice(0, SHOWN), ...flagged.slice(0, 500)])].sort((a, b) => a.line - b.line);
    // Only what the list holds: a column of the table per field a column of the list fills.
    const used = new Set(p.columns.map((c) => c.field));
    /** @type {[string, (row: any) => any, string?][]} */
    const values = /** @type {[string, (row: PreviewRow) => any, string?][]} */ ([
      p.rows.some((row) => row.surname) ? ["import.col.surname", (/** @type {PreviewRow} */ row) => row.surname, "import-surname"] : null,
      used.has("player") ? ["import.field.player", (/** @type {PreviewRow} */ row) => row.player] : null,
      used.has("country") ? ["import.field.country", (/** @type {PreviewRow} */ row) => row.country] : null,
      used.has("special_needs") ? ["import.field.special_needs", (/** @type {PreviewRow} */ row) => (row.special_needs ? "♿" : "")] : null,
      used.has("note") ? ["import.field.note", (/** @type {PreviewRow} */ row) => row.note] : null,
      used.has("language") ? ["import.field.language", (/** @type {PreviewRow} */ row) => (row.lang ? /** @type {Record<string, string>} */ (LANGUAGE_NAMES)[row.lang] || row.lang : "")] : null,
    ].filter(Boolean));
    const table = h("div", { class: "scroll-box" }, h("table", { class: "data import-rows" },
      h("thead", {}, h("tr", {}, ["import.col.use", "import.col.line", "import.field.name", ...values.map(([k]) => k), "import.col.flags"]
        .map((k) => h("th", { scope: "col" }, t(k))))),
      h("tbody", {}, shown.map((row) => {
        const error = row.flags.some((f) => f.error);
        const box = h("input", { type: "checkbox", checked: ticked.get(row.line), disabled: !row.entry, "aria-label": t("import.use_row", { line: row.line }),
          onchange: () => {
            ticked.set(row.line, box.checked);
            updateButton();
          } });
        return h("tr", { class: error ? "import-error" : row.flags.length ? "import-warning" : "", dataset: { line: row.line } },
          h("td", {}, box), h("td", { class: "muted" }, String(row.line)), h("td", { class: "import-name" }, row.name || "–"),
          values.map(([, value, cls]) => h("td", { class: cls }, value(row) || "")),
          h("td", { class: "import-flags" }, row.flags.map((f) => h("div", { class: f.error ? "error-text" : "warn-text" }, flagText(f, conn)))));
      }))));
    fill(previewEl,
      p.problem ? h("p", { class: "error-text", role: "alert" }, errorText(p.problem, conn)) : null,
      p.asked ? question(p) : null,
      summary, columns, needsBox,
      p.rows.length > shown.length ? h("p", { class: "muted" }, t("import.more_rows", { n: fmt.number(p.rows.length - shown.length) })) : null,
      p.rows.length ? table : null,
      h("div", { class: "actions" }, registerBtn, waiting, progress, progressText));
    updateButton();
  }

  /** The first row's shape left it open: the director says whether it is a header.
   * @param {Preview} p
   */
  function question(p) {
    const answer = (/** @type {string} */ value) => () => {
      header.value = value;
      answered = true;
      ask();
    };
    return h("div", { class: "import-ask", role: "group", "aria-labelledby": "import-ask-q" },
      h("p", { id: "import-ask-q", class: "import-ask-q" }, t("import.ask.question")),
      h("p", { class: "import-ask-cells" }, p.first.filter((c) => c.trim()).map((c) => h("q", {}, c))),
      h("p", { class: "hint" }, t("import.ask.hint")),
      h("div", { class: "actions" },
        h("button", { type: "button", id: "import-header-yes", class: "primary", onclick: answer("yes") }, t("import.ask.yes")),
        h("button", { type: "button", id: "import-header-no", onclick: answer("no") }, t("import.ask.no"))));
  }

  /** The ticked rows that would get a special-needs seat. */
  function needsCount() {
    return preview ? preview.rows.filter((row) => row.entry && row.special_needs && ticked.get(row.line)).length : 0;
  }

  // Said with its count, and confirmed, before a list seats anybody apart.
  const needsBox = h("div", { id: "import-needs", class: "import-needs", role: "group", "aria-labelledby": "import-needs-text" });
  const waiting = h("span", { id: "import-waiting", class: "warn-text", role: "status" });
  function updateNeeds() {
    const n = needsCount();
    if (!n) {
      needsBox.remove();
      return;
    }
    const column = preview?.columns.find((c) => c.field === "special_needs");
    const name = column ? column.title || t("import.column_n", { n: column.index + 1 }) : "";
    const box = h("input", { type: "checkbox", id: "import-needs-ok", checked: needsConfirmed === n, onchange: () => {
      needsConfirmed = box.checked ? n : 0;
      updateButton();
    } });
    fill(needsBox,
      h("p", { id: "import-needs-text" }, t("import.needs.warn", { n: fmt.number(n), column: name })),
      h("label", { class: "check", for: "import-needs-ok" }, box, t("import.needs.confirm", { n: fmt.number(n) })));
  }

  function includedCount() {
    return preview ? preview.rows.filter((row) => row.entry && ticked.get(row.line)).length : 0;
  }

  const registerBtn = h("button", { type: "button", id: "import-register", class: "primary", onclick: () => register() });
  function updateButton() {
    const n = includedCount();
    const needs = needsCount();
    updateNeeds();
    const wait = !preview ? "" : preview.asked ? t("import.wait.header") : needs && needsConfirmed !== needs ? t("import.wait.needs") : "";
    if (preview && needs && !needsBox.isConnected) previewEl.querySelector(".import-columns")?.after(needsBox);
    waiting.textContent = wait;
    registerBtn.textContent = t("import.register_n", { n: fmt.number(n) });
    registerBtn.disabled = sending || !n || Boolean(wait);
  }

  async function register() {
    if (!preview || sending || preview.asked) return;
    if (needsCount() && needsConfirmed !== needsCount()) return;
    const rows = preview.rows.filter((row) => row.entry && ticked.get(row.line));
    const parts = chunks(rows.map((row) => /** @type {import("./protocol.js").Register} */ (row.entry)));
    sending = true;
    updateButton();
    progress.hidden = false;
    progress.max = rows.length;
    progress.value = 0;
    let done = 0;
    let at = 0;
    for (const part of parts) {
      progressText.textContent = t("import.progress", { done: fmt.number(done), of: fmt.number(rows.length) });
      const item = await outbox.send({ type: "register_many", entries: part }, t("import.label", { n: part.length }));
      if (item.status !== "done") {
        const error = "error" in item ? item.error : null;
        // The refusal names its row of the command: said as the file's line.
        const m = /^entries\[(\d+)\]/.exec(error?.field || "");
        const row = m ? rows[at + Number(m[1])] : null;
        const why = error ? errorText(error, conn) : t("floor.signin_again");
        progressText.textContent = row ? t("import.refused_line", { line: row.line, name: row.name, why }) : why;
        progressText.className = "error-text";
        toast(`✗ ${progressText.textContent}`, "error", 10000);
        break;
      }
      done += part.length;
      at += part.length;
      progress.value = done;
    }
    if (done === rows.length) {
      progressText.className = "muted";
      progressText.textContent = t("import.done", { n: fmt.number(done) });
      toast(`✓ ${progressText.textContent}`, "ok", 4000);
      body = null;
      paste.value = "";
      file.value = "";
      // The list is in: its preview goes, so that a second tap cannot register it again.
      preview = null;
      ticked = new Map();
      fill(previewEl, h("div", { class: "actions" }, progress, progressText));
    }
    sending = false;
    updateButton();
  }

  /** A new list: its own columns, and its own header unless the director set one. */
  function fresh() {
    mapping = null;
    if (answered) header.value = "auto";
    answered = false;
  }

  const previewBtn = h("button", { type: "button", id: "import-preview-btn", onclick: () => {
    if (file.files && file.files[0]) body = file.files[0];
    else if (paste.value.trim()) body = paste.value;
    else return paste.focus();
    fresh();
    ask();
  } }, t("import.preview"));
  file.addEventListener("change", () => {
    if (file.files && file.files[0]) {
      body = file.files[0];
      fresh();
      ask();
    }
  });
  header.addEventListener("change", () => {
    answered = false;
    ask();
  });
  encoding.addEventListener("change", () => ask());
  return h("div", { class: "import-panel" },
    h("div", { class: "field" }, h("label", { for: "import-paste" }, t("import.paste")), paste, h("p", { class: "hint" }, t("import.paste_hint"))),
    h("div", { class: "row" },
      h("div", { class: "field" }, h("label", { for: "import-file" }, t("import.file")), file),
      h("div", { class: "field" }, h("label", { for: "import-header" }, t("import.header")), header),
      h("div", { class: "field" }, h("label", { for: "import-encoding" }, t("import.encoding")), encoding)),
    h("div", { class: "actions" }, previewBtn),
    previewEl);
}
