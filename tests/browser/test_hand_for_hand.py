"""Hand-for-hand across a room of 30 tables, on real Chromium against real servers.

270 players at 30 tables, 269 places paid: the console suggests hand-for-hand and the
director starts it. Tables 1 and 2 report through their table screens, the other 28 through
the floor's API. The wall shows the hand number and the tables still playing after every
report; a round nobody busts in deals the next hand everywhere; in the next, one player is
out at table 1 and one at table 2 with equal starting stacks: they share 269th place and its
prize, the bubble bursts and hand-for-hand ends on every screen.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import DIRECTOR, Pages, wait_for
from tests.e2e.conftest import Api, ServerProcess, add_user

pytestmark = pytest.mark.browser

SCREENS = Path(__file__).resolve().parents[2] / "docs" / "screens"

TID = "bubble"
TABLES = 30
PLAYERS = TABLES * 9
PAID = PLAYERS - 1
#: 270 entries of 100 EUR: 27,000 EUR; 269 places paid, all but the first at 0.25 %.
STRUCTURE: dict[str, Any] = {
    "name": "bubble",
    "starting_stack": 10_000,
    "chips": [25, 100],
    "levels": [{"type": "level", "small_blind": 25, "big_blind": 50, "minutes": 60}],
    "prize": {
        "currency": "EUR",
        "buy_in": 100,
        "payouts": [{"entries": PLAYERS, "percents": [33] + [0.25] * (PAID - 1)}],
    },
}


@pytest.fixture(scope="module")
def dealers(valkey: Any) -> tuple[tuple[str, str], tuple[str, str]]:
    """The dealers signing in on the two table screens."""
    add_user(valkey.url, "dee", "2468", "dealer")
    return ("dana", "4321"), ("dee", "2468")


def bubble_room(director: Api) -> None:
    r = director.client.post(
        "/api/tournaments",
        json={"id": TID, "name": "Bubble", "rules": "tda-2024", "structure": STRUCTURE},
    )
    assert r.status_code == 201, r.text
    entries = [{"name": f"Player {i:03d}", "player": f"P{i:03d}"} for i in range(PLAYERS)]
    director.ok(TID, {"type": "register_many", "entries": entries})
    director.ok(TID, {"type": "draw_seats"})
    for n in range(1, TABLES + 1):
        director.ok(TID, {"type": "button", "table": n, "seat": 1})
    director.ok(TID, {"type": "clock_start"})


def shoot(page: Page, name: str) -> None:
    """With ``FLOOR_SCREENSHOTS=1``, the page into docs/screens/."""
    if os.environ.get("FLOOR_SCREENSHOTS"):
        page.screenshot(path=str(SCREENS / f"{name}.png"))


def still_playing(wall: Page, tables: list[int]) -> None:
    expect(wall.locator(".h4h-tables li")).to_have_text([str(n) for n in tables])


def report(page: Page, out: dict[int, int] | None = None) -> None:
    """On a table screen: Hand done, the seats out tapped with their starting stacks, send."""
    page.locator('.table-actions [data-action="done"]').click()
    for seat, stack in (out or {}).items():
        page.locator(f'.table-seats .seat[data-seat="{seat}"]').click()
        page.get_by_label(f"Seat {seat} ·", exact=False).fill(str(stack))
    page.locator('.table-pick [data-action="send"]').click()


def test_a_room_of_30_tables_plays_hand_for_hand_until_the_bubble_bursts(
    servers: list[ServerProcess],
    director: Api,
    pages: Pages,
    dealers: tuple[tuple[str, str], tuple[str, str]],
) -> None:
    bubble_room(director)  # 270 left for 269 places: one from the money

    console = pages.open(servers[0], f"/director?t={TID}", size="desk", user=DIRECTOR)
    expect(console.locator(".h4h-due")).to_be_visible()
    console.locator(".h4h-due").scroll_into_view_if_needed()
    shoot(console, "director-h4h-due-desk")
    wall = pages.open(servers[1], f"/wall/{TID}", size="tv")
    screens = [
        pages.tablet(servers[i % 2], director, TID, i + 1, dealer=dealers[i]) for i in range(2)
    ]
    for screen in screens:
        screen.set_viewport_size({"width": 1280, "height": 800})  # a tablet, landscape
        expect(screen.locator(".table-seats .seat:not(.empty)")).to_have_count(9)

    console.once("dialog", lambda d: d.accept())
    console.get_by_role("button", name="Start hand-for-hand").click()
    expect(wall.locator(".h4h-hand")).to_have_text("Hand 1")
    expect(wall.locator(".h4h-deal")).to_be_visible()  # every table: deal now
    for screen in screens:
        expect(screen.locator(".notice-h4h-deal")).to_be_visible()
    shoot(screens[1], "table-h4h-deal-1280x800")

    # Round 1: nobody out. The table screens deal and report; the floor reports the rest.
    screens[0].locator('.table-actions [data-action="hand"]').click()
    expect(screens[0].locator(".notice-h4h-playing")).to_be_visible()
    report(screens[0])
    expect(screens[0].locator(".notice-h4h-wait")).to_be_visible()
    still_playing(wall, list(range(2, TABLES + 1)))
    for n in range(3, TABLES + 1):
        director.ok(TID, {"type": "hand_done", "table": n})
        still_playing(wall, [2, *range(n + 1, TABLES + 1)])
        if n == 12:
            shoot(wall, "wall-h4h-tv")
            shoot(screens[0], "table-h4h-wait-1280x800")
    report(screens[1])
    expect(wall.locator(".h4h-hand")).to_have_text("Hand 2")
    expect(wall.locator(".h4h-deal")).to_be_visible()
    for screen in screens:
        expect(screen.locator(".notice-h4h-deal")).to_be_visible()

    # Round 2: one out at table 1 and one at table 2, both with 5,000 at the start.
    state = director.state(TID)["state"]
    out1 = state["tables"]["1"]["occupants"]["4"]  # type: ignore[index]
    out2 = state["tables"]["2"]["occupants"]["7"]  # type: ignore[index]
    for n in range(3, TABLES + 1):
        director.ok(TID, {"type": "hand_done", "table": n})
        still_playing(wall, [1, 2, *range(n + 1, TABLES + 1)])
    report(screens[0], {4: 5_000})
    expect(wall.locator(".h4h-out")).to_contain_text("Player")
    expect(screens[0].locator('.seat[data-seat="4"]')).to_have_class("seat out")
    still_playing(wall, [2])
    report(screens[1], {7: 5_000})

    # The bubble burst: hand-for-hand is over everywhere, the clock runs again.
    expect(wall.locator(".h4h-wall")).to_be_hidden()
    for screen in screens:
        expect(screen.locator(".notice-h4h-wait, .notice-h4h-deal")).to_have_count(0)
        expect(screen.locator(".badge-h4h")).to_have_count(0)
    expect(console.locator(".h4h-due")).to_have_count(0)
    final = director.state(TID)["state"]
    assert final["hand_for_hand"] is None  # type: ignore[index]
    assert final["clock"]["running"]  # type: ignore[index]
    prizes = director.client.get(f"/api/t/{TID}/prizes").json()
    shared = {r["player"]: (r["place"], r["tied"], r["prize"]) for r in prizes["results"]}
    # 269th and 270th, shared: the 269th's prize split (the odd euro to one of them), the
    # 270th's nothing.
    assert {p: (place, tied) for p, (place, tied, _) in shared.items()} == {
        out1: (PAID, 2),
        out2: (PAID, 2),
    }
    total = _prize_of(prizes, PAID)
    assert sorted(prize for *_, prize in shared.values()) == [total // 2, total - total // 2]
    # The floor may still undo them until their tables deal the next hand.
    undo = wait_for(lambda: {u["player"] for u in _staff(director)["undo"]})
    assert undo == {out1, out2}


def _prize_of(prizes: dict[str, Any], place: int) -> int:
    return next(int(p["prize"]) for p in prizes["pool"]["places"] if p["place"] == place)


def _staff(api: Api) -> dict[str, Any]:
    body: dict[str, Any] = api.state(TID)
    return body["staff"]  # type: ignore[no-any-return]
