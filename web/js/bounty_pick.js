// @ts-check
// Who won the pot, in a bounty tournament: the floor phone's and the table screen's one tap.
//
// The seats of the busted player's table, but theirs, as buttons: one tap names the seat that
// won the pot and sends the bust-out at once; "split pot" lets several be picked before it is
// sent (the server splits the bounty and rounds it: floor/engine/bounty.py). The bounty each
// player carries is the server's (their record's `bounty.head`, or the entry's part untouched).

import * as fmt from "./format.js";
import { t } from "./i18n.js";
import { h } from "./ui.js";

/** The tournament's bounty settings, or null: no bounties.
 * @param {any} state */
export function bountyOf(state) {
  return state?.structure?.prize?.bounty || null;
}

/** The bounty on a player's head now, as the server keeps it (0 once out).
 * @param {any} state
 * @param {any} p */
export function headOf(state, p) {
  const b = bountyOf(state);
  // A mystery bounty: nobody carries one (each elimination draws an envelope).
  if (!b || !p || b.kind === "mystery") return null;
  if (p.bounty) return p.bounty.head;
  return p.busted ? 0 : b.part;
}

/**
 * The winners' picker: `busted` the players out (not to be picked), `table` their table.
 * `onPick(pids)` is called with the winners once chosen: at the first tap, or with the split
 * pot's picks when confirmed.
 * Without `onSplit` (several out in one hand: each row's winners are picked, then the whole
 * is confirmed) every tap picks or drops a winner and nothing is sent from here.
 * @param {{ state: any, table: number, busted: string[], split: boolean, picked: Set<string>,
 *   onSplit?: (on: boolean) => void, onToggle: (pid: string) => void,
 *   onPick?: (pids: string[]) => void, name: (pid: string) => string, label?: string }} o
 */
export function winnerPicker(o) {
  const tb = o.state.tables[o.table];
  const currency = o.state.structure?.prize?.currency;
  const seats = Object.keys(tb?.occupants || {}).map(Number).sort((a, b) => a - b)
    .filter((seat) => !o.busted.includes(tb.occupants[seat]));
  const buttons = seats.map((seat) => {
    const pid = tb.occupants[seat];
    const picked = o.picked.has(pid);
    const head = headOf(o.state, o.state.players[pid]);
    return h("button", {
      type: "button", class: `seat-btn bounty-winner${picked ? " picked" : ""}`,
      "aria-pressed": o.split || !o.onPick ? String(picked) : null,
      dataset: { winner: pid },
      onclick: () => (o.split || !o.onPick ? o.onToggle(pid) : o.onPick([pid])),
    },
    h("span", { class: "seat-no" }, seat),
    h("span", { class: "seat-name" }, o.name(pid)),
    head != null ? h("span", { class: "bounty-head" }, fmt.money(head, currency)) : null);
  });
  return h("div", { class: "bounty-pick", role: "group", "aria-label": o.label || t("bounty.who_won") },
    h("p", { class: "bounty-ask" }, o.label || t("bounty.who_won")),
    h("div", { class: "bounty-seats" }, buttons),
    o.onSplit && o.onPick ? splitActions(o, o.onSplit, o.onPick) : null);
}

/**
 * @param {{ split: boolean, picked: Set<string> }} o
 * @param {(on: boolean) => void} onSplit
 * @param {(pids: string[]) => void} onPick
 */
function splitActions(o, onSplit, onPick) {
  return h("div", { class: "actions" },
    o.split
      ? h("button", { type: "button", class: "danger big", disabled: o.picked.size < 1,
        onclick: () => onPick([...o.picked]) }, t("bounty.split_send", { n: o.picked.size }))
      : null,
    h("button", { type: "button", class: "ghost big", "aria-pressed": String(o.split),
      onclick: () => onSplit(!o.split) }, o.split ? t("bounty.one_winner") : t("bounty.split")));
}
