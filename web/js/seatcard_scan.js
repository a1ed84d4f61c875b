// @ts-check
// Scanning a player's digital seat card (issue 28.4) with the device's camera: the table
// screen (its own table) or a floorperson's phone. The camera's frames are decoded by jsQR
// (vendored in web/vendor/jsqr, Apache-2.0: Chromium on Linux has no native
// BarcodeDetector), loaded when the camera is first opened. What the code says is the
// server's to judge (POST /api/t/{tid}/seatcard/scan): its signature, its one scan, the seat;
// this shows the answer (the name, the document's type and last digits for the dealer to
// compare with the player's ID, or why the card is refused and where the player sits now).

import * as fmt from "./format.js";
import { onLang, t } from "./i18n.js";
import { api, explainError, fill, h } from "./ui.js";

const LIBRARY = "/static/vendor/jsqr/jsQR.js";
/** The codes this floor makes (floor/engine/read/seat_pass.py PREFIX): anything else is
 * not a seat card and is not sent. */
const PREFIX = "FS1.";
/** The widest frame decoded: enough for a card held at arm's length, light on a tablet. */
const WIDTH = 640;
/** @type {Promise<any> | null} */
let library = null;

function loadJsQr() {
  library ||= new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = LIBRARY;
    script.onload = () => resolve(/** @type {any} */ (window).jsQR);
    script.onerror = () => {
      library = null;
      reject(new Error("jsQR"));
    };
    document.head.append(script);
  });
  return library;
}

/** The scanner: a button that opens the camera, the camera's picture while it looks, then
 * the server's answer.
 * @param {string} tid
 * @param {() => number | null} table the table the device stands at (null: a phone, any) */
export function seatCardScanner(tid, table) {
  const el = h("section", { class: "seatcard-scan", "aria-live": "polite" });
  const video = /** @type {HTMLVideoElement} */ (h("video", { class: "seatcard-video", playsinline: true, muted: true }));
  video.muted = true;
  const canvas = document.createElement("canvas");
  /** @type {MediaStream | null} */
  let stream = null;
  let looking = false;
  /** @type {any} */
  let answer = null;
  /** @type {string | null} */
  let problem = null;

  function stop() {
    looking = false;
    stream?.getTracks().forEach((track) => track.stop());
    stream = null;
    video.srcObject = null;
  }

  async function open() {
    answer = null;
    problem = null;
    looking = true;
    render();
    try {
      const [jsQR, media] = await Promise.all([loadJsQr(),
        navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" }, audio: false })]);
      if (!looking) {
        media.getTracks().forEach((track) => track.stop());
        return;
      }
      stream = media;
      video.srcObject = media;
      await video.play();
      render();
      look(jsQR);
    } catch (err) {
      stop();
      problem = t("seatcard.no_camera");
      render();
    }
  }

  /** @param {any} jsQR */
  function look(jsQR) {
    if (!looking) return;
    // A screen that redraws takes the video out of the page for a moment, which pauses it.
    if (video.paused && stream) video.play().catch(() => null);
    const w = video.videoWidth;
    const hgt = video.videoHeight;
    if (w && hgt) {
      const scale = Math.min(1, WIDTH / w);
      canvas.width = Math.round(w * scale);
      canvas.height = Math.round(hgt * scale);
      const ctx = /** @type {CanvasRenderingContext2D} */ (canvas.getContext("2d", { willReadFrequently: true }));
      ctx.drawImage(video, 0, 0, canvas.width, canvas.height);
      const image = ctx.getImageData(0, 0, canvas.width, canvas.height);
      const found = jsQR(image.data, image.width, image.height, { inversionAttempts: "dontInvert" });
      if (found?.data?.startsWith(PREFIX)) {
        stop();
        send(found.data);
        return;
      }
    }
    setTimeout(() => look(jsQR), 150);
  }

  /** @param {string} code */
  async function send(code) {
    render();
    try {
      answer = await api(`/api/t/${encodeURIComponent(tid)}/seatcard/scan`, { method: "POST", body: { code, table: table() } });
    } catch (err) {
      problem = explainError(err);
    }
    render();
  }

  function close() {
    stop();
    answer = null;
    problem = null;
    render();
  }

  function render() {
    const scanBtn = h("button", { type: "button", class: "primary seatcard-open", onclick: open },
      t(answer || problem ? "seatcard.again" : "seatcard.scan"));
    if (looking) {
      return fill(el, h("p", { class: "seatcard-status" }, t(stream ? "seatcard.scanning" : "seatcard.starting")), video,
        h("button", { type: "button", class: "ghost", onclick: close }, t("seatcard.stop")));
    }
    if (!answer && !problem) return fill(el, scanBtn);
    const closeBtn = h("button", { type: "button", class: "ghost", onclick: close }, t("seatcard.close"));
    if (problem) return fill(el, h("p", { class: "seatcard-result refused" }, "✗ ", problem), scanBtn, closeBtn);
    fill(el, verdict(answer), scanBtn, closeBtn);
  }

  render();
  onLang(render);
  return { el, stop };
}

/** The server's answer as the dealer reads it. @param {any} a */
function verdict(a) {
  const name = h("div", { class: "seatcard-who" }, a.name ?? "");
  const now = a.right_table != null
    ? t("seatcard.sits_now", { table: a.right_table, seat: a.right_seat })
    : t("seatcard.no_seat_now");
  switch (a.verdict) {
    case "ok": {
      const doc = a.document
        ? t("seatcard.document", { type: t(`desk.doc.${a.document.doc_type}`), last: a.document.last })
        : t("seatcard.no_document");
      return h("div", { class: "seatcard-result ok", dataset: { verdict: a.verdict } },
        h("p", { class: "seatcard-title" }, "✓ ", t("seatcard.ok", { table: a.table, seat: a.seat })), name,
        h("p", { class: `seatcard-doc${a.document ? "" : " none"}` }, doc),
        h("p", { class: "hint" }, t("seatcard.compare")));
    }
    case "used":
      return h("div", { class: "seatcard-result refused", dataset: { verdict: a.verdict } },
        h("p", { class: "seatcard-title" }, "✗ ", t("seatcard.used", { time: fmt.timeOfDay(a.scanned?.at ?? 0) })), name,
        h("p", { class: "hint" }, t("seatcard.by_hand")));
    case "other_table":
      return h("div", { class: "seatcard-result elsewhere", dataset: { verdict: a.verdict } },
        h("p", { class: "seatcard-title" }, "➜ ", t("seatcard.other_table", { table: a.table, seat: a.seat })), name);
    default:
      return h("div", { class: "seatcard-result refused", dataset: { verdict: a.verdict } },
        h("p", { class: "seatcard-title" }, "✗ ", t("seatcard.void")), name, h("p", { class: "seatcard-now" }, now));
  }
}
