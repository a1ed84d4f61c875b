"""The table screen (/table/{tid}/{table}), on real Chromium against real servers: a tablet
signed in once as its table's dealer shows the seats with names, the button and blinds; one
tap deals a hand (positions advance by the dead-button rule, on the server); several players
out in one hand are placed by their starting stacks; the button is reported by a tap; the
table's instructions come as they happen (a move from it with its seat, a time call's
count); a tap made offline is sent when the connection comes back.

``FLOOR_SCREENSHOTS=1`` also saves the screen at 1280x800, 1024x768 and 390x844 into
docs/screens/.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.browser.a11y import contrast, overflows, unnamed_controls
from tests.browser.conftest import FLOOR, Pages, new_tournament, occupants, open_table, wait_for
from tests.e2e.conftest import Api, ServerProcess

pytestmark = pytest.mark.browser

DEALER = ("dana", "4321")  # the e2e servers' dealer of table 1
SCREENS = Path(__file__).resolve().parents[2] / "docs" / "screens"
SIZES = {"1280x800": (1280, 800), "1024x768": (1024, 768), "phone": (390, 844)}


def table_screen(pages: Pages, server: ServerProcess, tid: str, size: str = "1280x800") -> Page:
    w, h = SIZES[size]
    page = pages.open(
        server, f"/table/{tid}/1", size="phone" if size == "phone" else "desk", user=DEALER
    )
    page.set_viewport_size({"width": w, "height": h})
    expect(page.locator(".table-seats .seat").first).to_be_visible()
    return page


def seat(page: Page, n: int) -> Locator:
    return page.locator(f'.table-seats .seat[data-seat="{n}"]')


def shoot(page: Page, name: str) -> None:
    if os.environ.get("FLOOR_SCREENSHOTS"):
        page.screenshot(path=str(SCREENS / f"{name}.png"))


def test_the_table_screen_deals_busts_and_reports_the_button(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    new_tournament(director, "tablet", 14)  # two tables of 7, the button at the first seat
    page = table_screen(pages, servers[0], "tablet")
    seats = occupants(director, "tablet", 1)
    first = min(seats)
    expect(page.locator(".table-seats .seat:not(.empty)")).to_have_count(7)
    expect(seat(page, first).locator(".seat-name")).to_have_text(
        director.state("tablet")["state"]["players"][seats[first]]["name"]  # type: ignore[index]
    )

    page.locator('.table-actions [data-action="hand"]').click()
    expect(page.locator(".hand-no")).to_have_text("Hand 1")
    # The server moved the button on: the screen shows where it put it.
    button = wait_for(lambda: director.state("tablet")["state"]["tables"]["1"]["positions"])  # type: ignore[index]
    expect(seat(page, button["button"]).locator(".mark-d")).to_be_visible()
    expect(seat(page, button["big_blind"]).locator(".mark-bb")).to_be_visible()
    shoot(page, "table-1280x800")

    # Two out in one hand: the bigger starting stack places higher.
    a, b = sorted(seats)[1:3]
    page.locator('.table-actions [data-action="out"]').click()
    seat(page, a).click()
    seat(page, b).click()
    page.get_by_label(f"Seat {a} ·", exact=False).fill("3000")
    page.get_by_label(f"Seat {b} ·", exact=False).fill("8000")
    shoot(page, "table-bust-1280x800")
    page.locator('.table-pick [data-action="send"]').click()
    expect(seat(page, a).locator(".seat-name")).to_have_text("empty")
    players = director.state("tablet")["state"]["players"]  # type: ignore[index]
    assert players[seats[a]]["bust"]["place"] == 14
    assert players[seats[b]]["bust"]["place"] == 13
    # The floor may undo them until this table's next hand: the screen says so.
    expect(page.locator(".notice-undo")).to_have_count(2)

    # Five here, seven there: the balancing move to this table, with its seat.
    expect(page.locator(".notice-move").first).to_contain_text("A player arrives at seat")
    expect(page.locator(".notice-move").first).to_contain_text("from table 2")
    # The button reported by a tap.
    page.locator('.table-actions [data-action="button"]').click()
    last = max(occupants(director, "tablet", 1))
    seat(page, last).click()
    wait_for(lambda: director.state("tablet")["state"]["tables"]["1"]["button_reported"])  # type: ignore[index]

    # A time call counts down on the table it is called at.
    director.ok(
        "tablet", {"type": "call_time", "table": 1, "seat": last, "seconds": 5, "count": 10}
    )
    expect(page.locator(".notice-time, .notice-count").first).to_contain_text(f"seat {last}")
    # Five seconds on, the ten-second count, in red.
    expect(page.locator(".notice-count")).to_be_visible(timeout=15_000)


def test_a_tap_made_offline_is_sent_when_the_connection_comes_back(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    new_tournament(director, "flaky", 14)
    page = table_screen(pages, servers[1], "flaky", size="phone")
    shoot(page, "table-phone")
    page.context.set_offline(True)
    page.locator('.table-actions [data-action="hand"]').click()
    expect(page.locator(".conn")).to_contain_text("1")  # one waiting to be sent
    page.context.set_offline(False)
    wait_for(lambda: director.state("flaky")["state"]["tables"]["1"]["hand"] == 1)  # type: ignore[index]
    expect(page.locator(".hand-no")).to_have_text("Hand 1")


def test_a_tablet_of_one_table_does_not_run_another(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    new_tournament(director, "other", 14)
    page = pages.open(servers[0], "/table/other/2", size="desk", user=DEALER)
    expect(page.locator(".table-signin")).to_contain_text("signed in for table 1")
    expect(page.get_by_role("link", name="Open table 1")).to_be_visible()
    page = pages.open(servers[0], "/table/other/1", size="desk")
    page.get_by_label("User name").fill(DEALER[0])
    page.get_by_label("Password or PIN").fill(DEALER[1])
    page.get_by_role("button", name="Sign in").click()
    expect(page.locator(".table-seats .seat:not(.empty)")).to_have_count(7)


def test_the_table_screen_at_1024x768(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    new_tournament(director, "small", 18)
    page = table_screen(pages, servers[0], "small", size="1024x768")
    expect(page.locator(".table-seats .seat:not(.empty)")).to_have_count(9)
    # Every seat and every tap fits the screen: nothing scrolls off it.
    assert page.evaluate("document.documentElement.scrollHeight") <= 768
    shoot(page, "table-1024x768")


def test_the_table_screen_reads_on_a_phone(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    """Every control named, every text in contrast, nothing wider than the phone."""
    new_tournament(director, "reads", 14)
    page = table_screen(pages, servers[1], "reads", size="phone")
    page.locator('.table-actions [data-action="out"]').click()
    page.locator(".table-seats .seat:not(.empty)").first.click()
    assert unnamed_controls(page) == []
    assert contrast(page)["problems"] == []
    assert overflows(page) == []


def test_the_floor_pairs_a_tablet_with_its_table_by_a_short_code(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    new_tournament(director, "paired", 14)
    floor = pages.open(servers[0], "/floor/paired", user=FLOOR)
    open_table(floor, 1)
    floor.get_by_role("button", name="Pair a table screen").click()
    code = floor.locator(".pair-digits").inner_text()
    assert len(code.replace(" ", "")) == 8
    floor.locator(".pair-digits").scroll_into_view_if_needed()
    shoot(floor, "floor-pair-phone")

    tablet = pages.open(servers[1], "/table/paired/1", size="desk")
    tablet.set_viewport_size({"width": 1280, "height": 800})
    shoot(tablet, "table-pair-1280x800")
    tablet.get_by_label("Pairing code").fill(code)
    tablet.get_by_role("button", name="Pair", exact=True).click()
    expect(tablet.locator(".table-seats .seat:not(.empty)")).to_have_count(7)
    expect(tablet.locator(".who-am-i")).to_contain_text("dana")
    # Once only: the same code on another device is refused.
    other = pages.open(servers[0], "/table/paired/1", size="desk")
    other.get_by_label("Pairing code").fill(code)
    other.get_by_role("button", name="Pair", exact=True).click()
    expect(other.locator(".pair-form .error-text")).to_contain_text("wrong, used or expired")
