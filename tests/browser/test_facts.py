"""The screens show what the server derives (floor/engine/read/derived.py), and decide nothing.

The floor phone lists the bust-outs the server says can be undone and the seats it says a
move may be redirected to; the director console greys out the break of a table the server
says has no room elsewhere, with the server's numbers; the clock panel shows the server's
next level and break.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import (
    DIRECTOR,
    FLOOR,
    Api,
    Pages,
    ServerProcess,
    name_of,
    new_tournament,
    occupants,
    open_table,
)

pytestmark = pytest.mark.browser


def staff(api: Api, tid: str) -> dict[str, Any]:
    facts: dict[str, Any] = api.state(tid)["staff"]  # type: ignore[assignment]
    return facts


def test_the_floor_phone_offers_to_undo_a_bust_out_until_the_tables_next_hand(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    new_tournament(director, "undo", 14)
    seats = occupants(director, "undo", 1)
    victim = seats[min(seats)]
    name = name_of(director, "undo", victim)
    director.ok("undo", {"type": "bust", "player": victim})
    assert [u["player"] for u in staff(director, "undo")["undo"]] == [victim]
    floor = pages.open(servers[0], "/floor/undo", user=FLOOR)
    open_table(floor, 1)
    row = floor.locator(".undo .undo-row")
    expect(row).to_have_count(1)
    expect(row.locator("label")).to_contain_text(f"Why undo {name}")
    expect(row.locator("label")).to_contain_text("until table 1 deals its next hand")

    director.ok("undo", {"type": "hand", "table": 1})
    expect(row).to_have_count(0)
    assert staff(director, "undo")["undo"] == []


def test_a_move_is_redirected_only_to_the_seats_the_server_offers(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    # 17 players at 9 and 8: a bust at the short table plans the full one's next big blind.
    state = new_tournament(director, "redirect", 17)
    tables = state["state"]["tables"]
    short = min(tables.values(), key=lambda t: len(t["occupants"]))["number"]
    director.ok("redirect", {"type": "bust", "player": occupants(director, "redirect", short)[
        min(occupants(director, "redirect", short))
    ]})  # fmt: skip
    snapshot = director.state("redirect")
    (move,) = snapshot["plan"]["moves"]  # type: ignore[index]
    (choice,) = snapshot["staff"]["seats"]  # type: ignore[index]
    assert choice["table"] == move["to"]["table"] == short
    floor = pages.open(servers[0], "/floor/redirect", user=FLOOR)
    floor.get_by_role("button", name=re.compile("^Moves")).click()
    card = floor.locator(".move-card", has_text=name_of(director, "redirect", move["player"]))
    card.get_by_role("button", name="Other seat").click()
    offered = card.locator(".picker .seat-btn .seat-no").all_inner_texts()
    assert sorted(int(x) for x in offered) == sorted(choice["free"] + choice["reserved"])
    seat = max(choice["free"])
    card.locator(".picker .seat-btn", has_text=re.compile(rf"^{seat}")).click()
    expect(floor.locator(".move-card")).to_have_count(0)
    assert occupants(director, "redirect", short)[seat] == move["player"]


def test_the_director_cannot_break_a_table_the_others_have_no_room_for(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    # 21 players at three tables of 9: 7 each, 4 free seats at the others. Tables break by
    # themselves at 7 a table (break_fill), so the director may break one the rule keeps.
    new_tournament(director, "room", 21, overrides={"break_fill": 7})
    assert staff(director, "room")["unbreakable"] == {"1": 4, "2": 4, "3": 4}
    console = pages.open(servers[0], "/director?t=room", size="desk", user=DIRECTOR)
    button = console.locator(".dtable").first.get_by_role("button", name="Break now")
    expect(button).to_be_disabled()
    expect(button).to_have_attribute("title", "The other tables have 4 free seats for 7 players")
    for table in (2, 2, 3, 3):
        seats = occupants(director, "room", table)
        director.ok("room", {"type": "bust", "player": seats[max(seats)]})
    assert "1" not in staff(director, "room")["unbreakable"]
    expect(button).to_be_enabled()


def test_the_clock_panel_shows_the_servers_next_level_and_break(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    """Level, next level and the break countdown are the server's clock facts."""
    new_tournament(director, "facts-clock", 12)
    director.ok("facts-clock", {"type": "clock_start"})
    wall = pages.open(servers[0], "/wall/facts-clock", size="tv")
    facts = wall.evaluate("window.floorWall.conn.facts.clock")
    state = director.state("facts-clock")
    assert facts == state["facts"]["clock"]  # type: ignore[index]
    expect(wall.locator(".wall-clock .clock-level")).to_contain_text("Level 1")
    expect(wall.locator(".wall-clock .clock-next")).to_contain_text("Level 2")
