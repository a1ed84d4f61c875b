"""A screen outlives its server: the page reconnects by itself and catches up on what it missed.

This module kills a server process, so it has servers (and a Valkey) of its own.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import (
    DIRECTOR,
    FLOOR,
    Api,
    Pages,
    ServerProcess,
    new_tournament,
    occupants,
    sign_in,
)

pytestmark = pytest.mark.browser


def test_a_page_whose_server_restarts_reconnects_and_catches_up(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    first, second = servers
    new_tournament(director, "restart", 14)
    wall = pages.open(first, "/wall/restart?pages=tables", size="tv")
    floor = pages.open(first, "/floor/restart", user=FLOOR)
    tile = wall.locator('.tile[aria-label^="Table 1,"] .tile-count')
    seats = occupants(director, "restart", 1)
    expect(tile).to_have_text(f"{len(seats)}/9")

    first.kill()

    for page in (wall, floor):
        expect(page.locator(".conn")).not_to_have_attribute("data-status", "live")
        expect(page.locator(".conn")).to_contain_text(re.compile("Reconnecting|Offline"))
    # Meanwhile the floor goes on through the other process: two players are out.
    other = Api(second, sign_in(second, *DIRECTOR))
    for player in list(seats.values())[:2]:
        other.ok("restart", {"type": "bust", "player": player})
    other.client.close()

    first.start()  # the same port: the pages find it again by themselves

    for page in (wall, floor):
        expect(page.locator(".conn")).to_have_attribute("data-status", "live", timeout=20_000)
        expect(page.locator(".conn")).to_contain_text("Live")
    expect(tile).to_have_text(f"{len(seats) - 2}/9")
    expect(wall.locator(".wall-clock .stat", has_text="Players left").locator("dd")).to_have_text(
        "12 / 14"
    )
    # The floor phone is current too, and can act at once.
    floor.get_by_role("button", name=re.compile(r"^Table\b")).click()
    floor.locator(".pad-keys .key", has_text=re.compile("^1$")).click()
    floor.locator(".pad-keys .key.primary").click()
    expect(floor.locator(".table-head p.muted").first).to_contain_text(f"{len(seats) - 2} players")
    wall.reload()
    expect(wall.locator(".conn")).to_have_attribute("data-status", "live")
    expect(tile).to_have_text(f"{len(seats) - 2}/9")
