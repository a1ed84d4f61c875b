"""A progressive knockout through the screens (issue 27, part 1), in a real Chromium against
real servers: 60 entries with half of each 100 buy-in on their heads. The floor phone records
a bust-out with one tap on the seat that won the pot, a split pot (two winners, the bounty
split in tens, the remainder to the first clockwise from the button), and two players out in
one hand, each bounty to the winner of the pot they were all-in for. The wall shows the
largest bounties left and the last won, a player's phone their bounty and what they won, the
table screen each seat's bounty; the results file and the pool show the bounties."""

from __future__ import annotations

import csv
import io
import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import (
    FLOOR,
    TOOLS_STRUCTURE,
    Api,
    Pages,
    ServerProcess,
    name_of,
    new_tournament,
    occupants,
    open_table,
    pick_seat,
    wait_for,
)

pytestmark = pytest.mark.browser

PKO_STRUCTURE: dict[str, Any] = {
    **TOOLS_STRUCTURE,
    "name": "browser-pko",
    "prize": {
        **TOOLS_STRUCTURE["prize"],
        "bounty": {"kind": "progressive", "part": 50},
    },
}


def bounty(api: Api, tid: str, pid: str) -> tuple[int, int]:
    """(on their head, won) as the server keeps them."""
    p: Any = api.state(tid)["state"]["players"][pid]  # type: ignore[index]
    r = p.get("bounty")
    if r is None:
        return (0 if p["busted"] else 50, 0)
    return (r["head"], r["won"])


def bust_on_phone(page: Page, seat: int) -> None:
    pick_seat(page, seat)
    page.locator(".seat-actions").get_by_role("button", name="Bust-out").click()
    expect(page.locator(".confirm-box .bounty-pick")).to_be_visible()


def test_a_progressive_knockout_with_a_split_pot_and_two_out_in_one_hand(
    servers: list[ServerProcess], director: Api, pages: Pages, tmp_path: Any
) -> None:
    tid = "pko"
    new_tournament(director, tid, 60, structure=PKO_STRUCTURE)
    pool = director.client.get(f"/api/t/{tid}/prizes").json()["pool"]
    # 60 x 100: half to the bounties, taken out before the pool (the guarantee's 1,500 is
    # below what is left).
    assert (pool["bounties"], pool["collected"], pool["pool"]) == (3_000, 3_000, 3_000)
    seats = occupants(director, tid, 1)
    button = min(seats)
    order = sorted(seats)
    phone = pages.open(servers[0], f"/floor/{tid}", user=FLOOR)
    open_table(phone, 1)

    # One tap: the seat that won the pot is the confirmation. Half of 50 in tens: 20 paid,
    # 30 added to the winner's bounty.
    out, winner = order[-1], order[1]
    bust_on_phone(phone, out)
    phone.screenshot(path=str(tmp_path / "floor-pick-phone.png"))
    phone.locator(f'.bounty-winner[data-winner="{seats[winner]}"]').click()
    wait_for(lambda: bounty(director, tid, seats[winner]) == (80, 20))
    assert bounty(director, tid, seats[out]) == (0, 0)

    # A split pot: two winners, 50 split in tens (30 / 20), the 30 to the first of them
    # clockwise from the button; each half paid (rounded down to 10), the rest added.
    out2 = order[-2]
    # Named in the other order: the server orders them clockwise from the button (at the
    # table's first seat, so the lower seat after it comes first).
    first, second = order[3], order[2]
    assert button == order[0]
    bust_on_phone(phone, out2)
    phone.get_by_role("button", name="Split pot…").click()
    phone.locator(f'.bounty-winner[data-winner="{seats[first]}"]').click()
    phone.locator(f'.bounty-winner[data-winner="{seats[second]}"]').click()
    phone.get_by_role("button", name="Bust-out, 2 winners split the bounty").click()
    # Seat `second` comes first clockwise from the button (the seat after it): 30 (10 paid,
    # 20 added); seat `first` 20 (10 paid, 10 added).
    wait_for(lambda: bounty(director, tid, seats[second]) == (70, 10))
    assert bounty(director, tid, seats[first]) == (60, 10)

    # Two out in one hand: the short stack's pot won by one player, the other's by another.
    short, big = order[4], order[5]
    phone.get_by_role("button", name="Several out this hand").click()
    phone.locator(".seats .seat-btn").nth(short - 1).click()
    phone.locator(".seats .seat-btn").nth(big - 1).click()
    rows = phone.locator(".same-row")
    expect(rows).to_have_count(2)
    rows.nth(0).get_by_label("Stack at the start of the hand").fill("2000")
    rows.nth(1).get_by_label("Stack at the start of the hand").fill("6000")
    expect(phone.locator(".same-preview")).to_contain_text("Name the winner of each pot")
    rows.nth(0).locator(f'.bounty-winner[data-winner="{seats[winner]}"]').click()
    rows.nth(1).locator(f'.bounty-winner[data-winner="{seats[first]}"]').click()
    phone.screenshot(path=str(tmp_path / "floor-same-hand-phone.png"), full_page=True)
    phone.get_by_role("button", name="2 out in this hand").click()
    phone.get_by_role("button", name="Yes, they are out").click()
    # `winner` had 80: +20 paid, +30 added; `first` had 60: +20, +30.
    wait_for(lambda: bounty(director, tid, seats[winner]) == (110, 40))
    assert bounty(director, tid, seats[first]) == (90, 30)
    assert bounty(director, tid, seats[short]) == (0, 0)

    # Bounties won plus those on the heads of the players still in make the pool.
    state: Any = director.state(tid)["state"]
    left = sum(
        (p["bounty"]["head"] if p.get("bounty") else 50)
        for p in state["players"].values()
        if not p["busted"]
    )
    assert state["bounties"]["won"] + left + state["bounties"]["unclaimed"] == 3_000

    # The wall: the largest bounties left, the last won.
    wall = pages.open(servers[1], f"/wall/{tid}?pages=bounties", size="tv")
    page = wall.locator(".page-bounties")
    expect(page.locator(".bounty-largest .chips-row").first).to_contain_text(
        name_of(director, tid, seats[winner])
    )
    expect(page.locator(".bounty-largest .chips-row").first).to_contain_text("€110")
    expect(page.locator(".bounty-won")).to_have_count(4)
    expect(page.locator(".bounty-won").first).to_contain_text("knocked out")
    wall.screenshot(path=str(tmp_path / "wall-bounties-tv.png"))

    # The winner's phone: the bounty on their head, what they won.
    me = name_of(director, tid, seats[winner])
    player = pages.open(servers[1], f"/player/{tid}")
    player.fill("#player-search", me)
    player.locator(".result-card", has_text=me).get_by_role(
        "button", name=re.compile("^Follow")
    ).click()
    box = player.locator(".follow-card .bounty-box")
    expect(box.locator('[data-bounty="head"]')).to_have_text("€110")
    expect(box.locator('[data-bounty="won"]')).to_have_text("€40")
    player.screenshot(path=str(tmp_path / "player-bounty-phone.png"), full_page=True)

    # The table screen: every seat's bounty.
    table = pages.tablet(servers[0], director, tid, 1)
    expect(table.locator(f'.seat[data-seat="{winner}"] .bounty-head')).to_have_text("€110")
    table.screenshot(path=str(tmp_path / "table-bounties.png"))

    # The table screen records a bust-out, then asks who won the pot: one tap on that seat.
    now = occupants(director, tid, 1)
    others = sorted(x for x, pid in now.items() if pid != seats[winner])
    t_out, t_win = others[-1], others[0]
    before = bounty(director, tid, now[t_win])
    taken = bounty(director, tid, now[t_out])[0]
    cash = taken // 2 // 10 * 10
    table.locator('.table-actions [data-action="out"]').click()
    table.locator(f'.seat[data-seat="{t_out}"]').click()
    table.locator('.table-pick [data-action="send"]').click()
    expect(table.locator(".table-pick")).to_contain_text("Who won")
    table.screenshot(path=str(tmp_path / "table-who-won.png"))
    table.locator(f'.seat[data-seat="{t_win}"]').click()
    wait_for(
        lambda: bounty(director, tid, now[t_win]) == (before[0] + taken - cash, before[1] + cash)
    )

    # The same screens at the other size (looked at by hand: tmp_path's pictures).
    narrow = pages.open(servers[1], f"/wall/{tid}?pages=bounties", size="phone")
    # The four from the phone and the table screen's: the last won, newest first.
    expect(narrow.locator(".page-bounties .bounty-won")).to_have_count(5)
    narrow.screenshot(path=str(tmp_path / "wall-bounties-phone.png"), full_page=True)
    wide = pages.open(servers[0], f"/floor/{tid}", size="tv", user=FLOOR)
    open_table(wide, 1)
    bust_on_phone(wide, order[0])
    wide.screenshot(path=str(tmp_path / "floor-pick-tv.png"))
    wide.locator(".confirm-box").get_by_role("button", name="No").click()
    expect(wide.locator(".confirm-box .bounty-pick")).to_have_count(0)
    small_table = pages.tablet(servers[0], director, tid, 1, size="phone")
    expect(small_table.locator(f'.seat[data-seat="{winner}"] .bounty-head')).to_have_text("€110")
    small_table.screenshot(path=str(tmp_path / "table-bounties-phone.png"), full_page=True)

    # An undo gives the bounty back; the results file has the bounties column.
    director.ok(tid, {"type": "undo_bust", "player": seats[out], "reason": "wrong winner"})
    assert bounty(director, tid, seats[winner]) == (80, 20)
    export = director.client.get(f"/api/t/{tid}/export/results.csv").text
    rows_csv = list(csv.DictReader(io.StringIO(export.lstrip("\ufeff"))))
    assert {r["player"]: r["bounties"] for r in rows_csv}[seats[short]] == "0"

    # A bad eliminator from the API is refused naming the field.
    bad = director.command(
        tid, {"type": "bust", "player": seats[order[0]], "eliminators": ["P999"]}
    )
    assert bad.status_code in (404, 409, 422), bad.text
    assert bad.json()["error"]["field"] == "eliminators[0]", bad.text
