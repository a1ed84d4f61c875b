// @ts-check
// A batch's JSON Patch (RFC 6902: `add` and `remove`), applied to the state a screen holds.
// The server says what changed (floor/engine/read/patch.py): the screens fold no event.

/** @import { PatchOp } from "./protocol.js" */

/** @param {string} part */
function unescape(part) {
  return part.replace(/~1/g, "/").replace(/~0/g, "~");
}

/** Apply `ops` to `doc` in place; throws on a path that does not lead anywhere (the screen
 * then asks for a fresh snapshot). What the path leads through is whatever the server's JSON
 * holds there: typed `any`, as JSON.parse gives it.
 * @template {object} T
 * @param {T} doc
 * @param {PatchOp[]} ops
 * @returns {T}
 */
export function applyPatch(doc, ops) {
  for (const op of ops) {
    const parts = op.path.split("/").slice(1).map(unescape);
    const last = /** @type {string} */ (parts.pop());
    /** @type {any} */
    let target = doc;
    for (const key of parts) {
      target = Array.isArray(target) ? target[Number(key)] : target[key];
      if (target == null || typeof target !== "object") throw new Error(`no ${op.path}`);
    }
    if (op.op === "add") {
      if (!Array.isArray(target)) target[last] = op.value;
      else if (last === "-") target.push(op.value);
      else target.splice(Number(last), 0, op.value);
    } else if (op.op === "remove") {
      if (Array.isArray(target)) target.splice(Number(last), 1);
      else delete target[last];
    } else {
      throw new Error(`unknown op ${op.op}`);
    }
  }
  return doc;
}
