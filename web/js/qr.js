// @ts-check
// A QR code drawn as SVG, dark on white with its quiet zone, by qrcode-generator (vendored
// unchanged in web/vendor/qrcode, MIT). Loaded when a code is first drawn: most screens never
// draw one.

const LIBRARY = "/static/vendor/qrcode/qrcode.mjs";
const SVG = "http://www.w3.org/2000/svg";
/** @type {Promise<any> | null} */
let library = null;

/** The code of `text` as an SVG element, labelled `label` for screen readers.
 * @param {string} text
 * @param {string} label
 * @returns {Promise<SVGSVGElement>} */
export async function qrSvg(text, label) {
  library ||= import(/** @type {string} */ (LIBRARY)).then((m) => m.default);
  const qrcode = await library;
  const qr = qrcode(0, "M");
  qr.addData(text, "Byte");
  qr.make();
  const n = qr.getModuleCount();
  return modulesSvg(n, (x, y) => qr.isDark(y, x), label, "qr");
}

/** `n` by `n` modules, `dark(x, y)` painted black, on white with the quiet zone a camera
 * needs, as an SVG element labelled `label` (drawn here or sent drawn by the server).
 * @param {number} n
 * @param {(x: number, y: number) => boolean} dark
 * @param {string} label
 * @param {string} cls
 * @returns {SVGSVGElement} */
export function modulesSvg(n, dark, label, cls) {
  const quiet = 4;
  let d = "";
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      if (dark(x, y)) d += `M${x + quiet} ${y + quiet}h1v1h-1z`;
    }
  }
  const size = n + 2 * quiet;
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${size} ${size}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", label);
  svg.setAttribute("class", cls);
  svg.setAttribute("shape-rendering", "crispEdges");
  const back = document.createElementNS(SVG, "rect");
  back.setAttribute("width", String(size));
  back.setAttribute("height", String(size));
  back.setAttribute("fill", "#fff");
  const path = document.createElementNS(SVG, "path");
  path.setAttribute("d", d);
  path.setAttribute("fill", "#000");
  svg.append(back, path);
  return svg;
}
