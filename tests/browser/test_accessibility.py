"""Accessibility basics on every page and every view of the floor phone: each control has an
accessible name, every text stands out from its background by 4.5:1 or more, and at twice the
text size a 390-pixel phone never has to scroll sideways.

One busy moment is set up for all of them: a halted table and moves planned, the colour-up
break with a chip race run at one table, a time call running, players out.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.a11y import contrast, large_text, overflows, unnamed_controls
from tests.browser.conftest import (
    DIRECTOR,
    FLOOR,
    TOOLS_STRUCTURE,
    Api,
    Pages,
    ServerProcess,
    new_tournament,
    occupants,
    open_table,
    pick_seat,
)

pytestmark = pytest.mark.browser

TID = "a11y"


@pytest.fixture(scope="module")
def scene(director: Api) -> dict[str, Any]:
    new_tournament(director, TID, 17, structure=TOOLS_STRUCTURE)
    director.ok(TID, {"type": "clock_start"})
    director.ok(TID, {"type": "clock_level", "to": 1})
    # Three out at table 2 (8 players): 9 against 5, table 2 halts and moves are planned.
    for player in list(occupants(director, TID, 2).values())[:3]:
        director.ok(TID, {"type": "bust", "player": player})
    # One of them called (the room is shown it), the other still planned (the staff alone).
    first = director.state(TID)["plan"]["moves"][0]  # type: ignore[index]
    director.ok(TID, {"type": "call_move", "player": first["player"]})
    seats = occupants(director, TID, 2)
    director.ok(
        TID,
        {"type": "chip_race", "table": 2, "seats": [{"seat": s, "chips": 3} for s in seats]},
    )
    seat = min(occupants(director, TID, 1))
    director.ok(TID, {"type": "call_time", "table": 1, "seat": seat, "seconds": 600})
    return director.state(TID)


# The pages and the views of each ----------------------------------------------------------------

View = tuple[str, Callable[[Page], None]]


def floor_views(page: Page) -> Iterator[str]:
    """Walk the floor phone through its views, yielding the name of each."""
    yield "moves"
    page.locator(".move-main").first.click()
    expect(page.locator(".why")).to_be_visible()
    yield "moves, a rule opened"
    open_table(page, 1)
    # The second seat with a player (the draw may leave any seat of a table of 8 empty, and
    # an empty seat sells no rebuy).
    taken = page.locator(".seats .seat-btn").evaluate_all(
        "els => els.flatMap((e, i) => e.classList.contains('empty') ? [] : [i + 1])"
    )
    pick_seat(page, taken[1])
    yield "table, a seat picked"
    page.get_by_role("button", name="Rebuy").click()
    expect(page.locator(".sale-confirm")).to_be_visible()
    yield "table, a rebuy to confirm"
    page.get_by_role("button", name="No", exact=True).click()
    page.get_by_role("button", name=re.compile(r"^Search")).click()
    page.get_by_label("Player name").fill("nov")
    expect(page.locator(".result-item").first).to_be_visible()
    yield "search"
    page.get_by_role("button", name=re.compile(r"^Tools")).click()
    page.get_by_role("button", name="Chip race", exact=True).click()
    yield "chip race, tables"
    page.get_by_role("button", name="Table 1", exact=True).click()
    page.locator(".race-pad-keys .key", has_text=re.compile("^7$")).click()
    yield "chip race, counting"
    page.get_by_role("button", name=re.compile("^Other table")).click()
    page.get_by_role("button", name="Table 2: raced").click()
    expect(page.locator(".race-result-box .pcard").first).to_be_visible()
    yield "chip race, a result"
    page.get_by_role("button", name="Pots", exact=True).click()
    page.get_by_label("Seat 1: chips put in").fill("500")
    page.get_by_label("Seat 2: chips put in").fill("1000")
    page.get_by_label("Seat 2: rank of the hand (1 = best)").fill("1")
    page.get_by_label("Button seat").fill("3")
    page.get_by_role("button", name="Split the pot").click()
    expect(page.locator(".pot-row .field-error").first).to_be_visible()  # seat 1 not ranked
    yield "pots, an error"
    page.get_by_label("Seat 1: rank of the hand (1 = best)").fill("2")
    page.get_by_role("button", name="Split the pot").click()
    expect(page.locator(".pot-list .pot").first).to_be_visible()
    yield "pots, split"
    page.get_by_role("button", name="Rulebook", exact=True).click()
    page.get_by_label("Search the rules").fill("zetony")
    expect(page.locator(".rule-item").first).to_be_visible()
    yield "rulebook, searched"
    page.locator(".rule-item").first.click()
    expect(page.locator(".rule-text")).to_be_visible()
    yield "rulebook, a rule"
    page.get_by_role("button", name=re.compile(r"^Sent")).click()
    yield "sent"


def every_view(pages: Pages, servers: list[ServerProcess]) -> Iterator[tuple[str, Page]]:
    """Every page (phone size) and every view of the floor phone, one after the other."""
    public = [
        ("start page", "/"),
        ("wall display", f"/wall/{TID}"),
        ("wall display, prizes", f"/wall/{TID}?pages=prizes"),
        ("player screen", f"/player/{TID}"),
        ("floor sign-in", f"/floor/{TID}"),
    ]
    for name, path in public:
        page = pages.open(servers[0], path, live=False)
        page.wait_for_load_state("networkidle")
        if name == "player screen":
            page.fill("#player-search", "novak")
            expect(page.locator(".result-card").first).to_be_visible()
        yield name, page
        page.context.close()
    page = pages.open(servers[0], f"/director?t={TID}", user=DIRECTOR)
    expect(page.locator("#s-prizes table").first).to_be_visible()
    yield "director console", page
    page.context.close()
    page = pages.open(servers[0], f"/floor/{TID}", user=FLOOR)
    for view in floor_views(page):
        yield f"floor phone: {view}", page


# The tests --------------------------------------------------------------------------------------


def test_every_form_control_has_an_accessible_name_on_every_page(
    scene: dict[str, Any], servers: list[ServerProcess], pages: Pages
) -> None:
    problems = {}
    for name, page in every_view(pages, servers):
        if found := unnamed_controls(page):
            problems[name] = found
    assert not problems, problems


def test_text_stands_out_from_its_background_by_at_least_4_5_to_1(
    scene: dict[str, Any], servers: list[ServerProcess], pages: Pages
) -> None:
    problems = {}
    checked = 0
    for name, page in every_view(pages, servers):
        result = contrast(page)
        checked += result["checked"]
        if result["problems"]:
            problems[name] = result["problems"]
    # The TV: the clock, the tiles (open, halted, breaking), the moves and the prizes.
    for path in (
        f"/wall/{TID}?pages=tables",
        f"/wall/{TID}?pages=moves",
        f"/wall/{TID}?pages=prizes",
    ):
        page = pages.open(servers[1], path, size="tv")
        expect(page.locator(".tile, .move-row, .payout-list").first).to_be_visible()
        result = contrast(page)
        checked += result["checked"]
        if result["problems"]:
            problems[path] = result["problems"]
    assert checked > 500
    assert not problems, problems


def test_at_twice_the_text_size_nothing_overflows_a_390_pixel_phone(
    scene: dict[str, Any], servers: list[ServerProcess], pages: Pages
) -> None:
    problems = {}
    for name, page in every_view(pages, servers):
        large_text(page, 200)
        if found := overflows(page):
            problems[name] = found
    assert not problems, problems
