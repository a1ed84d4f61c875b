// @ts-check
// The start page: the tournaments listed (live, finished with the winner, closed), each with
// links to its screens. The status is the server's (the list follows floor/engine/finish.py).

import { onLang, t } from "./i18n.js";
import { $, api, every, fill, h, langSwitch } from "./ui.js";

const main = h("main", { class: "index-main" });
const title = h("h1", { class: "title" });
fill($("#app"), h("header", { class: "topbar" }, title, h("div", { class: "topbar-right" }, langSwitch())), main);
/** @type {any[] | null} */
let list = null;
let failed = false;

async function load() {
  try {
    list = await api("/api/tournaments");
    failed = false;
  } catch (err) {
    failed = true;
  }
  render();
}

/** "live", or "Finished · winner: NAME" / "Closed · winner: NAME".
 * @param {any} x
 */
function statusLine(x) {
  if ((x.status === "finished" || x.status === "closed") && x.winner) {
    return h("span", { class: `t-status t-${x.status}` }, t(`finish.banner.${x.status}`, { name: x.winner }));
  }
  return h("span", { class: "t-status" }, t(`finish.status.${x.status}`, {}, x.status));
}

/**
 * @param {string} href
 * @param {string} key
 * @param {string} subKey
 */
function screen(href, key, subKey) {
  return h("a", { class: "button", href }, t(key), h("span", { class: "sub" }, t(subKey)));
}

function render() {
  title.textContent = t("index.title");
  document.title = t("index.title");
  if (list == null) return fill(main, h("p", { class: "muted", role: "status" }, failed ? t("error.network") : t("clock.waiting")));
  fill(main,
    h("h2", {}, t("index.heading")),
    failed ? h("p", { class: "error-text", role: "alert" }, t("error.network")) : null,
    list.length ? h("ul", { class: "t-list" }, list.map((x) => {
      const e = encodeURIComponent(x.id);
      return h("li", { class: `card t-item${x.status === "live" ? "" : " t-ended"}`, dataset: { status: x.status } },
        h("h2", {}, x.name),
        h("p", { class: "meta" }, `${x.id} · `, statusLine(x)),
        h("nav", { class: "screens", "aria-label": t("index.screens_for", { name: x.name }) },
          screen(`/wall/${e}`, "index.wall", "index.wall_sub"),
          screen(`/final/${e}`, "final.link", "final.link_sub"),
          screen(`/floor/${e}`, "index.floor", "index.floor_sub"),
          screen(`/player/${e}`, "index.player", "index.player_sub"),
          screen(`/director?t=${e}`, "index.director", "index.director_sub")));
    })) : h("p", { class: "muted" }, t("director.no_tournaments")),
    h("p", {}, h("a", { href: "/director" }, t("index.director_link"))));
}

onLang(render);
every(15000, load);
