"""The table screen (/table/{tid}/{table}), on real Chromium against real servers: a tablet
paired once with its table (a dealer signed in on it) shows the seats with names, the button
and blinds; one tap deals a hand (positions advance by the dead-button rule, on the server);
several players out in one hand are placed by their starting stacks; the button is reported
by a tap; the table's instructions come as they happen (a move from it with its seat, a time
call's count); a tap made offline is sent when the connection comes back. A tablet runs its
own table of its own tournament alone; the director lists, moves and ends tablets.

``FLOOR_SCREENSHOTS=1`` also saves the screen at 1280x800, 1024x768 and 390x844 into
docs/screens/.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.browser.a11y import contrast, overflows, unnamed_controls
from tests.browser.conftest import (
    DIRECTOR,
    FLOOR,
    Pages,
    new_tournament,
    occupants,
    open_table,
    wait_for,
)
from tests.e2e.conftest import Api, ServerProcess

pytestmark = pytest.mark.browser

DEALER = ("dana", "4321")  # the e2e servers' dealer
SCREENS = Path(__file__).resolve().parents[2] / "docs" / "screens"
SIZES = {"1280x800": (1280, 800), "1024x768": (1024, 768), "phone": (390, 844)}


def table_screen(
    pages: Pages, server: ServerProcess, director: Api, tid: str, size: str = "1280x800"
) -> Page:
    w, h = SIZES[size]
    page = pages.tablet(
        server, director, tid, 1, size="phone" if size == "phone" else "desk", dealer=DEALER
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
    page = table_screen(pages, servers[0], director, "tablet")
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
    page = table_screen(pages, servers[1], director, "flaky", size="phone")
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
    """Not another table of its tournament, nor its table of another tournament."""
    new_tournament(director, "other", 14)
    new_tournament(director, "mine", 14)
    for path in ("/table/other/2", "/table/mine/1"):
        page = pages.tablet(servers[0], director, "other", 1, path=path)
        expect(page.locator(".table-signin")).to_contain_text(
            "This screen belongs to table 1 of other"
        )
        expect(page.get_by_role("link", name="Open table 1")).to_have_attribute(
            "href", "/table/other/1"
        )
        expect(page.locator(".table-app")).to_be_hidden()
    # A dealer signs in on the paired screen with a PIN, and out again.
    page = pages.tablet(servers[0], director, "other", 1)
    expect(page.locator(".who-am-i")).to_have_text("Table 1 · paired screen · No dealer signed in")
    page.get_by_role("button", name="Dealer sign-in").click()
    assert unnamed_controls(page) == [] and contrast(page)["problems"] == []
    page.get_by_label("Dealer", exact=True).fill(DEALER[0])
    page.get_by_label("PIN").fill("0000")
    page.get_by_role("button", name="Sign in at this table").click()
    expect(page.locator(".dealer-form .error-text")).to_have_text("Wrong name or PIN.")
    page.get_by_label("PIN").fill(DEALER[1])
    page.get_by_role("button", name="Sign in at this table").click()
    expect(page.locator(".who-am-i")).to_have_text("Dealer: dana")
    expect(page.locator(".table-seats .seat:not(.empty)")).to_have_count(7)
    page.get_by_role("button", name="Dealer out").click()
    expect(page.locator(".who-am-i")).to_contain_text("No dealer signed in")
    expect(page.locator(".table-seats .seat:not(.empty)")).to_have_count(7)


def test_the_table_screen_at_1024x768(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    new_tournament(director, "small", 18)
    page = table_screen(pages, servers[0], director, "small", size="1024x768")
    expect(page.locator(".table-seats .seat:not(.empty)")).to_have_count(9)
    # Every seat and every tap fits the screen: nothing scrolls off it.
    assert page.evaluate("document.documentElement.scrollHeight") <= 768
    shoot(page, "table-1024x768")


def test_the_table_screen_reads_on_a_phone(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    """Every control named, every text in contrast, nothing wider than the phone."""
    new_tournament(director, "reads", 14)
    page = table_screen(pages, servers[1], director, "reads", size="phone")
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
    assert len(code.replace(" ", "")) == 9
    floor.locator(".pair-digits").scroll_into_view_if_needed()
    shoot(floor, "floor-pair-phone")

    tablet = pages.open(servers[1], "/table/paired/1", size="desk")
    tablet.set_viewport_size({"width": 1280, "height": 800})
    shoot(tablet, "table-pair-1280x800")
    tablet.get_by_label("Pairing code").fill(code)
    tablet.get_by_role("button", name="Pair", exact=True).click()
    expect(tablet.locator(".table-seats .seat:not(.empty)")).to_have_count(7)
    expect(tablet.locator(".who-am-i")).to_contain_text("Table 1 · paired screen")
    # Once only: the same code on another device is refused.
    other = pages.open(servers[0], "/table/paired/1", size="desk")
    other.get_by_label("Pairing code").fill(code)
    other.get_by_role("button", name="Pair", exact=True).click()
    expect(other.locator(".pair-form .error-text")).to_contain_text("wrong, used or expired")


def device_of(page: Page) -> str:
    return str(page.evaluate("fetch('/api/me').then((r) => r.json()).then((p) => p.device)"))


def test_the_director_lists_moves_and_ends_tablets_from_the_console(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    new_tournament(director, "lists", 14)
    new_tournament(director, "lists-b", 14)
    tablet = pages.tablet(servers[1], director, "lists", 2, dealer=DEALER)
    other = pages.tablet(servers[1], director, "lists-b", 1)
    console = pages.open(servers[0], "/director?t=lists", size="desk", user=DIRECTOR, live=False)
    mine = console.locator(f'.tablet-item[data-device="{device_of(tablet)}"]')
    theirs = console.locator(f'.tablet-item[data-device="{device_of(other)}"]')
    # This tournament's first; another one's named.
    expect(console.locator(".tablet-list .tablet-item").first).to_have_attribute(
        "data-device", device_of(tablet)
    )
    expect(mine).to_contain_text("Table 2")
    expect(mine).to_contain_text("dealer dana")
    expect(mine).to_contain_text("seen just now")
    expect(theirs).to_contain_text("Test lists-b")
    console.locator("#s-tablets").scroll_into_view_if_needed()
    shoot(console, "director-tablets-desk")
    assert unnamed_controls(console) == [] and contrast(console)["problems"] == []

    # Moved to table 1 of the other tournament, with no new code: the screen says where it
    # belongs now, and its own page runs that table.
    mine.get_by_role("button", name="Move the screen of table 2").click()
    mine.get_by_label("Tournament").select_option("lists-b")
    mine.get_by_label("Table", exact=True).fill("1")
    mine.get_by_role("button", name="Move it").click()
    expect(tablet.locator(".table-signin")).to_contain_text(
        "This screen belongs to table 1 of lists-b"
    )
    tablet.get_by_role("link", name="Open table 1").click()
    expect(tablet.locator(".table-seats .seat:not(.empty)")).to_have_count(7)
    expect(tablet.locator(".who-am-i")).to_contain_text("No dealer signed in")
    expect(mine).to_contain_text("Test lists-b")
    expect(mine).to_contain_text("no dealer signed in")

    # Ended with a tap: its screen closes at once and asks for a new code.
    console.once("dialog", lambda d: d.accept())
    mine.get_by_role("button", name="End the screen of table 1").click()
    expect(mine).to_have_count(0)
    expect(tablet.locator(".table-signin")).to_contain_text("ended by the director")
    expect(tablet.get_by_label("Pairing code")).to_be_visible()
    expect(tablet.locator(".table-app")).to_be_hidden()
    expect(other.locator(".table-seats .seat:not(.empty)")).to_have_count(7)
    expect(theirs).to_be_visible()
