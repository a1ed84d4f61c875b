// @ts-check
// The head of the tournament's hash chain on the wall (docs/chain-spec.md): the event number
// and the first hex digits of the head, in groups a reporter can note or photograph. A log
// changed later no longer leads to a head that was shown; `floor verify` checks it.
//
// Read from the open API (`/api/open/v1/t/{id}/chain`), which the server builds once per
// sequence number: after a change, at most once every READ_MS.

import { t } from "./i18n.js";
import { mount } from "./mount.js";
import { h } from "./ui.js";
/** @import { Conn } from "./types.js" */

const READ_MS = 15_000;

/** "5f0c 9a2e 41b7": the head's first 12 digits, in fours.
 * @param {string} head */
export function groups(head) {
  return (head.slice(0, 12).match(/.{1,4}/g) || []).join(" ");
}

/** @param {Conn} conn @param {string} tid */
export function chainHead(conn, tid) {
  const el = h("p", { class: "chain-head", hidden: true });
  /** @type {{ seq: number, head: string } | null} */
  let shown = null;
  let last = 0;
  /** @type {number | null} */
  let due = null;
  // The bar's title comes first: where the head would cut it (a long name, a logo, many
  // pages named), the head makes way until the title has room for it again; the open API
  // still says it.
  /** @type {ResizeObserver | null} */
  let watching = null;
  let need = 0;
  const fit = () => {
    const title = /** @type {HTMLElement | null} */ (document.querySelector(".topbar .title"));
    if (!shown || !title) {
      el.hidden = !shown;
      return;
    }
    if (el.hidden && need && title.clientWidth - title.scrollWidth <= need) return;
    el.hidden = false;
    if (title.scrollWidth > title.clientWidth + 1) {
      need = el.offsetWidth + 16;
      el.hidden = true;
    }
    if (!watching && el.isConnected) {
      watching = new ResizeObserver(() => requestAnimationFrame(fit));
      watching.observe(title);
    }
  };
  const draw = () => {
    if (shown) {
      el.title = t("chain.title", { seq: shown.seq, head: shown.head });
      el.textContent = t("chain.line", { seq: shown.seq, head: groups(shown.head) });
    }
    fit();
  };
  const read = async () => {
    due = null;
    last = Date.now();
    try {
      const r = await fetch(`/api/open/v1/t/${encodeURIComponent(tid)}/chain`);
      if (r.ok) shown = await r.json();
    } catch (err) {
      // The network away: the head shown stays until the next read.
    }
    draw();
  };
  const asked = () => {
    if (due !== null) return;
    due = window.setTimeout(read, Math.max(0, last + READ_MS - Date.now()));
  };
  mount(el, conn, asked, { now: false });
  read();
  return el;
}
