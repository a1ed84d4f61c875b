"""Player management through the screens (issue 16, defects 8 and 9): on the director console
and on the floor phone a player's name is corrected, special needs marked, the player moved
by hand with their stack and unregistered with a refund; every search says how many players
match and how many it shows."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import (
    DIRECTOR,
    FLOOR,
    TOOLS_STRUCTURE,
    Api,
    Pages,
    ServerProcess,
    new_tournament,
    open_table,
    pick_seat,
    wait_for,
)

pytestmark = pytest.mark.browser


def player(api: Api, tid: str, pid: str) -> dict[str, Any] | None:
    found: dict[str, Any] | None = api.state(tid)["state"]["players"].get(pid)  # type: ignore[union-attr]
    return found


def free_seat(api: Api, tid: str, table: int) -> int:
    tb = api.state(tid)["state"]["tables"][str(table)]  # type: ignore[index]
    return min(s for s in range(1, tb["seats"] + 1) if str(s) not in tb["occupants"])


def manage(page: Page, api: Api, tid: str, pid: str, name: str, stack: int) -> None:
    """In the open panel: rename, mark special needs, move to table 2 by hand, unregister."""
    panel = page.get_by_role("dialog")
    expect(panel.locator("#manage-title")).to_have_text(name)

    panel.locator("#manage-name").fill(f"{name} Jr.")
    panel.get_by_role("button", name="Save name").click()
    expect(panel.locator("#manage-title")).to_have_text(f"{name} Jr.")
    assert wait_for(lambda: (player(api, tid, pid) or {}).get("name") == f"{name} Jr.", page)

    panel.get_by_role("button", name="Mark special needs").click()
    expect(panel.get_by_role("button", name="Unmark special needs")).to_be_visible()
    assert wait_for(lambda: (player(api, tid, pid) or {}).get("special_needs"), page)

    seat = free_seat(api, tid, 2)
    panel.locator("#manage-table").select_option("2")
    panel.locator("#manage-seat").select_option(str(seat))
    panel.get_by_role("button", name="Move…").click()
    ask = panel.get_by_role("alertdialog")
    expect(ask).to_contain_text(f"to T2 S{seat} with their stack ({stack:,})")
    ask.get_by_role("button", name="Yes, move").click()
    expect(panel.locator(".manage-where")).to_contain_text(f"T2 S{seat}")
    moved = player(api, tid, pid) or {}
    assert (moved["table"], moved["seat"], moved["stack"]) == (2, seat, stack)

    before = api.state(tid)["stats"]["prize_pool"]  # type: ignore[index]
    expect(panel.locator(".manage-refund")).to_contain_text("€110")
    panel.get_by_role("button", name="Unregister and refund…").click()
    panel.get_by_role("alertdialog").get_by_role(
        "button", name="Yes, unregister and refund"
    ).click()
    expect(panel).to_contain_text("No longer in the tournament")
    assert player(api, tid, pid) is None
    after = api.state(tid)["stats"]["prize_pool"]  # type: ignore[index]
    assert before - after == TOOLS_STRUCTURE["prize"]["buy_in"]
    panel.get_by_role("button", name="Close").click()
    expect(panel).to_be_hidden()


def test_the_director_edits_marks_moves_and_unregisters_a_player_from_the_console(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    state = new_tournament(director, "manage-desk", 30, structure=TOOLS_STRUCTURE)
    pid = next(p for p, x in state["state"]["players"].items() if x["name"] == "Tomáš Novák")
    director.ok("manage-desk", {"type": "set_stack", "player": pid, "stack": 12_345})
    page = pages.open(servers[0], "/director?t=manage-desk", size="desk", user=DIRECTOR)

    page.fill("#player-filter", "novak")
    count = page.locator("#s-players .search-count")
    expect(count).to_have_text("2 players match “novak”")
    expect(page.locator("#s-players tbody tr")).to_have_count(2)
    page.fill("#player-filter", "a")
    expect(count).to_contain_text(re.compile(r"^\d+ players match “a”$"))
    page.fill("#player-filter", "tomas novak")
    page.get_by_role("button", name="Manage Tomáš Novák").click()

    manage(page, director, "manage-desk", pid, "Tomáš Novák", 12_345)


def test_the_floor_manages_a_player_from_a_seat_and_finds_how_many_match(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    state = new_tournament(director, "manage-phone", 30, structure=TOOLS_STRUCTURE)
    seats = state["state"]["tables"]["1"]["occupants"]
    seat = min(int(s) for s in seats)
    pid = seats[str(seat)]
    name = state["state"]["players"][pid]["name"]
    phone = pages.open(servers[1], "/floor/manage-phone", user=FLOOR)

    phone.get_by_role("button", name=re.compile(r"^Search\b")).click()
    phone.fill("#floor-search", "player")
    expect(phone.locator(".search-count")).to_have_text(
        "6 players match “player”"  # Player 24 to Player 29
    )
    phone.fill("#floor-search", "a")
    total = wait_for(
        lambda: director.client.get("/api/t/manage-phone/players", params={"q": "a"}).json()
    )["total"]
    assert total > 20
    expect(phone.locator(".search-count")).to_have_text(
        f"{total} players match “a” — showing 20; type more to narrow"
    )
    expect(phone.locator(".results .result-item")).to_have_count(20)

    open_table(phone, 1)
    pick_seat(phone, seat)
    phone.get_by_role("button", name=f"Manage {name}").click()
    manage(phone, director, "manage-phone", pid, name, 10_000)


def test_the_player_screen_says_how_many_match_and_to_type_more(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    new_tournament(director, "manage-count", 45, buttons=False)
    screen = pages.open(servers[1], "/player/manage-count")

    screen.fill("#player-search", "player")
    count = screen.locator(".search-count")
    expect(count).to_have_text("21 players match “player” — showing 20; type more to narrow")
    expect(screen.locator(".result-card")).to_have_count(20)
    screen.fill("#player-search", "player 3")
    expect(count).to_have_text("11 players match “player 3”")  # Player 30 to 39, Player 43
    expect(screen.locator(".result-card").first).to_contain_text("Player 3")
