// @ts-check
// Sending commands: POST /api/t/{tid}/commands with an id chosen here, so that a retry (after a
// timeout, a dropped connection, a 503) is answered with the first result and never applied
// twice. Commands that cannot be sent now wait in an outbox kept in localStorage and are sent
// again, with the same id, when the network comes back.
//
// Each entry: {id, tid, command, label, status, created, tries, error}
//   status: "pending" (waiting or being sent), "done", "refused" (the server said no, with its
//   message), "signin" (the session ended: sent again after signing in), "stale" (waited too
//   long: sent again only when staff say so, because the floor may have changed meanwhile).

/** @import { Command, OutboxItem, Sent } from "./types.js" */

const STALE_MS = 5 * 60 * 1000;
const TIMEOUT_MS = 8000;

function deviceId() {
  let id = localStorage.getItem("floor.device");
  if (!id) {
    const bytes = crypto.getRandomValues(new Uint8Array(6));
    id = Array.from(bytes, (b) => b.toString(36).padStart(2, "0")).join("");
    localStorage.setItem("floor.device", id);
  }
  return id;
}

let counter = 0;

export function newCommandId() {
  counter = (counter + 1) % 1e6;
  return `${deviceId()}.${Date.now().toString(36)}.${counter}`;
}

/** A failed request's {code, message, field} from either error body the server sends.
 * @param {any} body @param {number} status */
export function errorOf(body, status) {
  const err = body && body.error;
  if (err && typeof err === "object") return err;
  return { code: `http_${status}`, message: `HTTP ${status}`, field: null };
}

export class Outbox {
  /** @param {string} tid */
  constructor(tid) {
    this.tid = tid;
    this.key = `floor.outbox.${tid}`;
    /** @type {OutboxItem[]} the newest first */
    this.items = [];
    /** @type {((box: Outbox, why?: string) => void)[]} */
    this._listeners = [];
    /** @type {Map<string, (answer: Sent) => void>} */
    this._waiters = new Map();
    this._busy = false;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this._timer = undefined;
    this._backoff = 1000;
    try {
      this.items = JSON.parse(localStorage.getItem(this.key) || "[]");
    } catch (err) {
      this.items = [];
    }
    for (const item of this.items) {
      if (item.status === "pending" && Date.now() - item.created > STALE_MS) item.status = "stale";
    }
    window.addEventListener("online", () => this.flush());
    window.addEventListener("storage", (ev) => {
      if (ev.key === this.key) this._reload();
    });
  }

  /** @param {(box: Outbox, why?: string) => void} fn */
  onChange(fn) {
    this._listeners.push(fn);
  }

  _changed() {
    // Keep what is still to do and the last few answers.
    const open = this.items.filter((i) => i.status !== "done");
    const done = this.items.filter((i) => i.status === "done").slice(0, 15);
    this.items = [...open, ...done].sort((a, b) => b.created - a.created);
    localStorage.setItem(this.key, JSON.stringify(this.items));
    for (const fn of this._listeners) fn(this);
  }

  _reload() {
    try {
      this.items = JSON.parse(localStorage.getItem(this.key) || "[]");
    } catch (err) {
      return;
    }
    for (const fn of this._listeners) fn(this);
  }

  get waiting() {
    return this.items.filter((i) => i.status === "pending" || i.status === "signin").length;
  }

  get problems() {
    return this.items.filter((i) => i.status === "refused" || i.status === "stale").length;
  }

  /** Queue a command and send it; resolves with the entry once it is answered (or held).
   * @param {Command} command @param {string} [label]
   * @returns {Promise<Sent>} */
  send(command, label = "") {
    /** @type {OutboxItem} */
    const item = {
      id: newCommandId(), tid: this.tid, command, label, status: "pending",
      created: Date.now(), tries: 0, error: null,
    };
    this.items.unshift(item);
    this._changed();
    /** @type {Promise<Sent>} */
    const done = new Promise((resolve) => this._waiters.set(item.id, resolve));
    this.flush();
    return done;
  }

  /** Send again everything still to send (after reconnecting or signing in). */
  flush() {
    let moved = false;
    for (const item of this.items) {
      if (item.status === "signin") {
        item.status = "pending";
        moved = true;
      }
    }
    if (moved) this._changed();
    this._pump();
  }

  /** @param {string} id */
  retry(id) {
    const item = this.items.find((i) => i.id === id);
    if (!item) return;
    item.status = "pending";
    item.created = Date.now();
    item.error = null;
    this._changed();
    this._pump();
  }

  /** @param {string} id */
  discard(id) {
    this.items = this.items.filter((i) => i.id !== id);
    this._resolve(id, { status: "discarded" });
    this._changed();
  }

  clearAnswered() {
    this.items = this.items.filter((i) => i.status === "pending" || i.status === "signin");
    this._changed();
  }

  /** @param {string} id @param {Sent} item */
  _resolve(id, item) {
    const fn = this._waiters.get(id);
    if (fn) {
      this._waiters.delete(id);
      fn(item);
    }
  }

  async _pump() {
    if (this._busy) return;
    this._busy = true;
    clearTimeout(this._timer);
    try {
      // Oldest first: the floor did them in this order.
      for (;;) {
        const queue = this.items.filter((i) => i.status === "pending").reverse();
        if (!queue.length) break;
        const item = queue[0];
        if (Date.now() - item.created > STALE_MS) {
          item.status = "stale";
          this._changed();
          this._resolve(item.id, item);
          continue;
        }
        const ok = await this._post(item);
        if (!ok) {
          this._timer = setTimeout(() => this._pump(), this._backoff);
          this._backoff = Math.min(this._backoff * 2, 15000);
          break;
        }
        this._backoff = 1000;
      }
    } finally {
      this._busy = false;
    }
  }

  /** One attempt; false when it should be tried again later (offline, 503, timeout). */
  /** @param {OutboxItem} item */
  async _post(item) {
    item.tries += 1;
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), TIMEOUT_MS);
    let response;
    try {
      response = await fetch(`/api/t/${encodeURIComponent(item.tid)}/commands`, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ id: item.id, command: item.command }),
        signal: abort.signal,
      });
    } catch (err) {
      this._changed();
      return false;
    } finally {
      clearTimeout(timer);
    }
    /** @type {any} */
    let body = null;
    try {
      body = await response.json();
    } catch (err) {
      body = null;
    }
    if (response.status >= 500 || response.status === 429) {
      item.error = errorOf(body, response.status);
      this._changed();
      return false;
    }
    if (response.ok && body && body.ok) {
      item.status = "done";
      item.error = null;
      item.outcome = { first: body.first, last: body.last, duplicate: body.duplicate };
    } else if (response.status === 401) {
      item.status = "signin";
      item.error = errorOf(body, response.status);
      this._changed();
      this._resolve(item.id, item);
      for (const fn of this._listeners) fn(this, "signin");
      return true;
    } else {
      item.status = "refused";
      item.error = errorOf(body, response.status);
    }
    this._changed();
    this._resolve(item.id, item);
    return true;
  }
}
