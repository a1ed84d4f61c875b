"""Chip counts and same-hand bust-outs on the floor phone, on real Chromium against real
servers: two players out in one hand with equal stacks share a place and its prize, as the
server's preview says before the floorperson confirms; a count sheet of a table shows on the
wall's chip leaders and feeds the chip race; "Button here" shows the button where it was put.
"""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from tests.browser.conftest import (
    FLOOR,
    TOOLS_STRUCTURE,
    Pages,
    name_of,
    new_tournament,
    occupants,
    open_table,
)
from tests.e2e.conftest import Api, ServerProcess

#: Five entries of 100 EUR: 500 EUR paying 200 / 150 / 100 / 50.
FOUR_PAID: dict[str, Any] = {
    "name": "four-paid",
    "starting_stack": 10_000,
    "chips": [25, 100],
    "levels": [{"type": "level", "small_blind": 25, "big_blind": 50, "minutes": 30}],
    "prize": {
        "currency": "EUR",
        "buy_in": 100,
        "payouts": [{"entries": 5, "percents": [40, 30, 20, 10]}],
    },
}


def seat_button(page: Any, seat: int) -> Any:
    return page.locator(".seats .seat-btn").nth(seat - 1)


def test_two_players_out_in_one_hand_with_equal_stacks_share_the_place_and_its_prize(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    new_tournament(director, "samehand", 5, structure=FOUR_PAID)
    seats = occupants(director, "samehand", 1)
    (s1, p1), (s2, p2) = sorted(seats.items())[:2]
    # One of them was counted at 4,000 earlier: the phone fills that stack in.
    director.ok(
        "samehand",
        {"type": "count_table", "table": 1, "stacks": [{"player": p1, "stack": 4_000}]},
    )
    floor = pages.open(servers[0], "/floor/samehand", user=FLOOR)
    open_table(floor, 1)

    floor.get_by_role("button", name="Several out this hand").click()
    seat_button(floor, s1).click()
    seat_button(floor, s2).click()
    expect(seat_button(floor, s1)).to_have_attribute("aria-pressed", "true")
    panel = floor.get_by_role("region", name="Out in the same hand")
    first, second = (panel.get_by_label("Stack at the start of the hand").nth(i) for i in (0, 1))
    expect(first).to_have_value("4000")
    expect(second).to_have_value("")
    # Nobody counted the second stack: the server's preview asks for it by name.
    preview = panel.locator(".same-preview")
    expect(preview).to_contain_text(
        f"the stack {name_of(director, 'samehand', p2)} started the hand with is needed"
    )

    confirm = floor.get_by_role("button", name="2 out in this hand")
    expect(confirm).to_be_disabled()  # the server would refuse it

    second.fill("4,000")
    places = preview.locator(".same-places li")
    expect(places).to_have_count(2)
    for row in places.all():
        expect(row.locator(".same-place")).to_have_text("4th–5th")
        expect(row.locator(".same-prize")).to_contain_text("€25")  # (50 + 0) / 2
        expect(row.locator(".same-prize")).to_contain_text("shared by 2")
    expect(preview).to_contain_text("3 players left after this hand")
    assert director.state("samehand")["stats"]["players_left"] == 5  # type: ignore[index]

    confirm.click()
    floor.get_by_role("button", name="Yes, they are out").click()

    expect(panel).to_have_count(0)
    players = director.state("samehand")["state"]["players"]  # type: ignore[index]
    busts = {p: (players[p]["bust"]["place"], players[p]["bust"]["shares"]) for p in (p1, p2)}
    assert busts == {p1: (4, 2), p2: (4, 2)}
    prizes = {
        r["player"]: r["prize"]
        for r in director.client.get("/api/t/samehand/prizes").json()["results"]
    }
    assert (prizes[p1], prizes[p2]) == (25, 25)


def test_a_count_sheet_shows_on_the_walls_chip_leaders_and_feeds_the_chip_race(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    new_tournament(director, "counts", 20, structure=TOOLS_STRUCTURE)
    director.ok("counts", {"type": "clock_start"})
    director.ok("counts", {"type": "clock_level", "to": 1})  # the colour-up break: 25s leave
    (s1, p1), (s2, p2), (s3, _) = sorted(occupants(director, "counts", 1).items())[:3]
    wall = pages.open(servers[1], "/wall/counts?pages=chips", size="tv")
    chips = wall.locator(".page-chips")
    expect(chips.locator(".chips-list")).to_have_text("No stack counted yet")
    floor = pages.open(servers[0], "/floor/counts", user=FLOOR)
    open_table(floor, 1)

    floor.get_by_role("button", name="Count chips").click()
    sheet = floor.get_by_role("form", name="Chip count · Table 1")
    expect(sheet.locator(".count-row")).to_have_count(len(occupants(director, "counts", 1)))
    sheet.get_by_label(re.compile(f"^Seat {s1}, ")).fill("31 500")
    sheet.get_by_label(re.compile(f"^Seat {s1}, ")).press("Enter")  # the next seat, not saved
    expect(sheet.get_by_label(re.compile(f"^Seat {s2}, "))).to_be_focused()
    sheet.get_by_label(re.compile(f"^Seat {s2}, ")).fill("8200")
    sheet.get_by_label(re.compile(f"^Seat {s3}, ")).fill("12a")
    expect(sheet.get_by_role("button", name=re.compile("^Save"))).to_be_disabled()
    expect(sheet.locator(".count-error").nth(2)).to_have_text("Digits only (separators are fine)")
    sheet.get_by_label(re.compile(f"^Seat {s3}, ")).fill("")  # not counted after all
    sheet.get_by_role("button", name="Save 2 counts").click()
    expect(sheet).to_have_count(0)

    players = director.state("counts")["state"]["players"]  # type: ignore[index]
    assert (players[p1]["stack"], players[p1]["counted"]) == (31_500, True)
    assert (players[p2]["stack"], players[p2]["counted"]) == (8_200, True)
    assert players[p1]["counted_at"] is not None
    leaders = chips.locator(".chips-row")
    expect(leaders).to_have_count(2)
    expect(leaders.nth(0).locator(".who")).to_have_text(name_of(director, "counts", p1))
    expect(leaders.nth(0).locator(".stack")).to_have_text("31,500")
    expect(leaders.nth(1).locator(".stack")).to_have_text("8,200")
    expect(chips.locator(".chips-meta")).to_contain_text("2 of 20 counted · average 19,850")
    for part in (".who", ".bb", ".at"):
        size = (
            leaders.nth(0)
            .locator(part)
            .evaluate("(el) => parseFloat(getComputedStyle(el).fontSize)")
        )
        assert size >= 27, part  # 2.5 % of 1080: read from five metres
    player = pages.open(servers[1], "/player/counts", size="phone")
    rows = player.locator(".player-leaders .leaders-list li")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text(name_of(director, "counts", p1))
    expect(rows.nth(0)).to_contain_text("31,500")
    expect(rows.nth(1)).to_contain_text("8,200")
    expect(player.locator(".player-leaders .leaders-meta")).to_contain_text("average 19,850")

    # The chip race takes the counts; a seat nobody counted says so.
    floor.get_by_role("button", name=re.compile("^Tools")).click()
    floor.get_by_role("button", name="Chip race", exact=True).click()
    floor.get_by_role("button", name="Table 1", exact=True).click()
    stacks = floor.locator(".race-stack")
    expect(stacks.nth(0)).to_contain_text("31,500")
    expect(stacks.nth(1)).to_contain_text("8,200")
    expect(stacks.nth(2)).to_contain_text("not counted")
    floor.locator(".race-pad-keys .key", has_text=re.compile("^1$")).click()  # seat 1: one 25
    floor.get_by_role("button", name="Next seat").click()
    floor.get_by_role("button", name="Next seat").click()
    floor.locator(".race-pad-keys .key", has_text=re.compile("^3$")).click()  # seat 3: three
    floor.get_by_role("button", name="Race this table").click()
    floor.get_by_role("button", name="Yes, race").click()

    result = floor.locator(".race-result-box .race-result")
    expect(result.locator(".race-summary")).to_be_visible()
    race = director.state("counts")["state"]["chip_races"][-1]  # type: ignore[index]
    before = {r["player"]: (r["stack"], r["counted"]) for r in race["players"]}
    assert before[p1] == (31_500, True)
    assert before[p2] == (8_200, True)
    uncounted = [r for r in race["players"] if not r["counted"]]
    assert uncounted and all(r["stack"] == 10_000 for r in uncounted)  # as given, no count
    expect(result.locator(".race-seat-result").nth(2)).to_contain_text("not counted")


def test_button_here_on_seat_4_shows_the_button_on_seat_4(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    new_tournament(director, "button", 9, buttons=False)
    floor = pages.open(servers[0], "/floor/button", user=FLOOR)
    open_table(floor, 1)

    seat_button(floor, 4).click()
    floor.get_by_role("button", name="Button here").click()

    expect(seat_button(floor, 4).locator(".dealer-btn")).to_be_visible()
    expect(floor.locator(".seats .dealer-btn")).to_have_count(1)
    expect(seat_button(floor, 4)).to_have_accessible_name(re.compile(", button$"))
    floor.get_by_role("button", name="New hand dealt").click()
    expect(seat_button(floor, 4).locator(".dealer-btn")).to_be_visible()  # dealt from seat 4


def test_hand_for_hand_players_out_at_two_tables_are_picked_table_by_table(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    new_tournament(director, "h4h", 20, structure=TOOLS_STRUCTURE)
    (s1, p1), (s2, p2) = (min(occupants(director, "h4h", n).items()) for n in (1, 2))
    floor = pages.open(servers[0], "/floor/h4h", user=FLOOR)
    open_table(floor, 1)
    floor.get_by_role("button", name="Several out this hand").click()
    seat_button(floor, s1).click()

    floor.get_by_role("button", name="Other table").click()
    expect(floor.locator(".same-note")).to_contain_text("Same hand: 1 player picked.")
    for key in ("2", "Open"):
        floor.locator(".pad-keys .key", has_text=re.compile(f"^{key}$")).click()
    seat_button(floor, s2).click()
    panel = floor.get_by_role("region", name="Out in the same hand")
    expect(panel.locator(".same-row")).to_have_count(2)
    stacks = panel.get_by_label("Stack at the start of the hand")
    stacks.nth(0).fill("3000")
    stacks.nth(1).fill("5000")
    places = panel.locator(".same-places li")
    expect(places.nth(0)).to_contain_text(f"19th{name_of(director, 'h4h', p2)}")
    expect(places.nth(1)).to_contain_text(f"20th{name_of(director, 'h4h', p1)}")
    panel.get_by_role("button", name="2 out in this hand").click()
    floor.get_by_role("button", name="Yes, they are out").click()

    expect(panel).to_have_count(0)
    players = director.state("h4h")["state"]["players"]  # type: ignore[index]
    assert (players[p1]["bust"]["place"], players[p2]["bust"]["place"]) == (20, 19)
    assert (players[p1]["bust"]["table"], players[p2]["bust"]["table"]) == (1, 2)
