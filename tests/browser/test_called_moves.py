"""Players see only what is settled: a planned move reaches a player's screen once called.

A player follows their own name on the player screen (public, another server process). The
floor phone shows the planned move with its state; the player is told nothing until the
floor taps "Call" beside it, and then within a second. A redirect after the call is refused
with the reason, until the floor calls the move again to the new seat.
"""

from __future__ import annotations

import json
import re

import httpx
import pytest
from playwright.sync_api import expect

from tests.browser.conftest import (
    FLOOR,
    Api,
    Pages,
    ServerProcess,
    name_of,
    new_tournament,
    occupants,
    strip_accents,
)

pytestmark = pytest.mark.browser

TID = "called"


def public_plan(server: ServerProcess) -> list[dict[str, object]]:
    """The plan's moves as anybody not signed in reads them."""
    r = httpx.get(f"{server.base}/api/t/{TID}", timeout=10.0)
    assert r.status_code == 200, r.text
    moves: list[dict[str, object]] = json.loads(r.content)["plan"]["moves"]
    return moves


def test_a_player_screen_sees_a_move_only_once_the_floor_calls_it(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    # 17 players at 9 and 8: a bust-out at the short table plans the full table's next big
    # blind to it.
    state = new_tournament(director, TID, 17)
    tables = state["state"]["tables"]
    short = min(tables.values(), key=lambda t: len(t["occupants"]))["number"]
    _, busted = sorted(occupants(director, TID, short).items())[0]
    director.ok(TID, {"type": "bust", "player": busted})
    (move,) = director.state(TID)["plan"]["moves"]  # type: ignore[index]
    mover = str(move["player"])
    name = name_of(director, TID, mover)
    assert move["called"] == 0
    assert public_plan(servers[1]) == []

    player = pages.open(servers[1], f"/player/{TID}")
    player.fill("#player-search", strip_accents(name.split()[-1]).lower())
    card = player.locator(".result-card", has_text=name)
    card.get_by_role("button", name="Follow").click()
    follow = player.locator(".follow-card")
    expect(follow).to_contain_text(name)
    expect(player.locator(".player-alert")).to_be_hidden()

    floor = pages.open(servers[0], f"/floor/{TID}", user=FLOOR)
    move_card = floor.locator(".move-card", has_text=name)
    expect(move_card.locator(".badge-move-planned")).to_have_text(re.compile("planned", re.I))
    # The room is still told nothing, however long it looks.
    expect(follow.locator(".planned")).to_have_count(0)
    assert public_plan(servers[1]) == []

    move_card.get_by_role("button", name="Call", exact=True).click()
    to = move["to"]  # type: ignore[index]
    expect(follow.locator(".planned")).to_contain_text(f"T{to['table']}", timeout=1000)
    expect(player.locator(".player-alert")).to_be_visible()
    expect(move_card.locator(".badge-move-called")).to_be_visible()
    assert [m["player"] for m in public_plan(servers[1])] == [mover]

    # A redirect now is refused with the reason; called again, every screen shows the change.
    free = sorted(s for s in range(1, 10) if s not in occupants(director, TID, int(to["table"])))
    other = next(s for s in free if s != to["seat"])
    refused = director.command(TID, {"type": "confirm", "player": mover, "seat": other})
    assert refused.status_code == 409, refused.text
    assert refused.json()["error"]["reason"] == "move_called"
    director.ok(TID, {"type": "call_move", "player": mover, "seat": other})
    expect(follow.locator(".planned")).to_contain_text(f"S{other}", timeout=1000)
    expect(move_card.locator(".badge-move-called_again")).to_be_visible()
