// @ts-nocheck: the forecaster's screens came untyped (#31); typed in a change of their own, until then
// not checked (tsconfig checkJs checks every other module).
// The end-of-day report of the printables (print.js, ?what=day): the day as it went (entries,
// players left, the money's moment, the final table's, the day's end) and every forecast made
// at a level beside what happened, from GET /api/t/{id}/forecast (the floor and the director).

import * as fmt from "./format.js";
import { t } from "./i18n.js";
import { h } from "./ui.js";
import { levelPhrase, levelText } from "./forecast_console.js";

const time = (at) => (at == null ? "–" : fmt.timeOfDay(at));
const count = (x) => (x == null ? "–" : fmt.number(x));

function moment(m, shown) {
  const verdict = m[4] == null ? "" : ` · ${t(m[4] ? "forecast.inside" : "forecast.outside")}`;
  return h("td", {}, `${shown(m[0])} · ${shown(m[1])} · ${shown(m[2])}`,
    h("br"), m[3] == null ? t("forecast.checked.pending") : t("forecast.checked.actual", { value: shown(m[3]) }), verdict);
}

/** The report's sheets; `head` and `sheet` are print.js's own. */
export async function dayReport(tid, { head, sheet }) {
  const r = await fetch(`/api/t/${encodeURIComponent(tid)}/forecast`, { credentials: "same-origin" });
  const view = r.ok ? await r.json() : null;
  const truth = view?.truth || null;
  const current = view?.current || null;
  const facts = [
    [t("forecast.report.entries"), count(truth?.entries ?? current?.entries)],
    [t("forecast.report.left"), count(truth?.players_left ?? current?.players_left)],
    [t("forecast.report.money"), time(truth?.money_at)],
    [t("forecast.report.final"), time(truth?.final_at)],
    [t("forecast.report.ended"), time(truth?.day_end_at)],
  ];
  const rows = view?.checked || [];
  return [sheet(head(t("forecast.report.title")),
    h("table", { class: "grid" }, h("tbody", {}, facts.map(([k, v]) => h("tr", {}, h("th", {}, k), h("td", { class: "num" }, v))))),
    h("h2", {}, t("forecast.report.forecasts")),
    rows.length ? h("table", { class: "grid forecast-report" },
      h("thead", {}, h("tr", {}, [t("forecast.history.level"), t("forecast.checked.made"), t("forecast.money"), t("forecast.final_table"),
        t("forecast.day_end"), t("forecast.players_at_end")].map((x) => h("th", {}, x)))),
      h("tbody", {}, rows.map((row) => h("tr", {},
        h("td", {}, levelText(row)), h("td", {}, time(row.made_at)),
        moment(row.money, time), moment(row.final_table, time), moment(row.day_end, time), moment(row.players_at_end, count)))))
      : h("p", { class: "empty" }, t("forecast.report.none")),
    current ? h("p", {}, `${t("forecast.report.latest")}: ${t("forecast.made_at", { time: time(current.made_at), level: levelPhrase(current), runs: fmt.number(current.runs) })} · `
      + `${t("forecast.money")} ${time(current.money.at[1])} · ${t("forecast.day_end")} ${time(current.day_end.at.at[1])}`) : null)];
}
