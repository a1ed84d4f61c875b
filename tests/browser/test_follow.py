"""Following one player on the player screen: the phone holds that player, not the room.

At a festival of thousands, each phone follows one name. Once "Follow" is tapped the page
speaks ``/ws/t/{id}/follow/{player}`` (``floor/server/routes_follow.py``): the player's seat,
the clock and the board, a few kilobytes, never the room's other players. The floor calls
the followed player's move: the phone says where to go, then that they have been moved.
"Stop following" brings the whole room back; a reload while following stays lean.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, WebSocket, WebSocketRoute, expect

from tests.browser.conftest import (
    NAMES,
    Api,
    Pages,
    ServerProcess,
    name_of,
    new_tournament,
    wait_for,
)

pytestmark = pytest.mark.browser

TID = "festival"
#: A field big enough that the room is heavy and one player is not.
PLAYERS = 1_200
SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screens"


def name(i: int) -> str:
    # Zero-padded: no name is part of another ("Player 0091" is not in "Player 0917").
    return NAMES[i] if i < len(NAMES) else f"Player {i:04d}"


@dataclass
class Sockets:
    """The websockets a page opens, and what each received."""

    opened: list[str] = field(default_factory=list)
    received: dict[str, list[str]] = field(default_factory=dict)

    def watch(self, page: Page) -> None:
        page.on("websocket", self._opened)

    def _opened(self, ws: WebSocket) -> None:
        self.opened.append(ws.url)
        frames = self.received.setdefault(ws.url, [])

        def got(payload: str | bytes) -> None:
            frames.append(payload if isinstance(payload, str) else payload.decode())

        ws.on("framereceived", got)

    def following(self, pid: str) -> list[str]:
        return [u for u in self.opened if u.endswith(f"/ws/t/{TID}/follow/{pid}")]

    def room(self) -> list[str]:
        return [u for u in self.opened if re.search(rf"/ws/t/{TID}\?", u)]


def shot(page: Page, name: str, *, full_page: bool = False) -> None:
    """A screenshot for docs/screens, when asked for (FLOOR_SHOTS=1)."""
    if os.environ.get("FLOOR_SHOTS") != "1":
        return
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full_page)


def setup(director: Api) -> tuple[dict[str, Any], str, dict[str, int]]:
    """1,200 players drawn, the clock running, two out at one table: a balance move planned
    from a table whose button is known, so it names its player. Returns the state, the
    player planned to move and the move's destination."""
    r = director.client.post(
        "/api/tournaments",
        json={
            "id": TID,
            "name": "Festival Main Event",
            "rules": "tda-2024",
            "structure": "demo-fast",
        },
    )
    assert r.status_code == 201, r.text
    for start in range(0, PLAYERS, 1000):
        entries = [
            {"name": name(i), "player": f"P{i}"} for i in range(start, min(PLAYERS, start + 1000))
        ]
        director.ok(TID, {"type": "register_many", "entries": entries})
    director.ok(TID, {"type": "draw_seats"})
    director.ok(TID, {"type": "clock_start"})
    state: dict[str, Any] = director.state(TID)["state"]  # type: ignore[assignment]
    tables = state["tables"]
    short = min(tables.values(), key=lambda t: (len(t["occupants"]), t["number"]))
    for pid in sorted(short["occupants"].values())[:2]:
        director.ok(TID, {"type": "bust", "player": pid})
    # The next big blind of a table is known once its button is: report it where moves come from.
    for m in director.state(TID)["plan"]["moves"]:  # type: ignore[union-attr]
        table = tables[str(m["from"]["table"])]
        director.ok(
            TID,
            {"type": "button", "table": table["number"], "seat": min(map(int, table["occupants"]))},
        )
    planned = [m for m in director.state(TID)["plan"]["moves"] if m["player"]]  # type: ignore[union-attr]
    assert planned, "a balance move with its player named"
    move = planned[0]
    state = director.state(TID)["state"]  # type: ignore[assignment]
    return state, str(move["player"]), move["to"]


def test_a_phone_follows_one_player_of_a_thousand_on_their_own_socket(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    state, mover, to = setup(director)
    me = state["players"][mover]
    my_name = me["name"]
    others = [p["name"] for pid, p in state["players"].items() if pid != mover]
    server = servers[1]  # not the writer: its copy comes over the bus
    room = httpx.get(f"{server.base}/api/t/{TID}/snapshot", timeout=10.0)
    assert room.status_code == 200

    sockets = Sockets()
    ctx = pages.context(server, size="phone")
    page = ctx.new_page()
    page.on("pageerror", lambda e: pages.errors.append(f"player: {e}"))
    sockets.watch(page)
    page.goto(f"/player/{TID}")
    expect(page.locator(".conn").first).to_have_attribute("data-status", "live")
    assert sockets.room(), "not following anybody, the page holds the room"

    # Found by the page's own search (the server's), followed with the button.
    page.fill("#player-search", my_name)
    card = page.locator(".result-card", has_text=my_name)
    expect(card).to_have_count(1)
    card.get_by_role("button", name=re.compile("^Follow")).click()
    follow = page.locator(".follow-card")
    expect(follow.locator(".result-name")).to_have_text(my_name)
    expect(follow.locator(".seat-big")).to_have_text(f"Table{me['table']}Seat{me['seat']}")
    expect(page.locator(".conn").first).to_have_attribute("data-status", "live")
    (url,) = sockets.following(mover)
    # The clock and the field as the room has them, from the follower's parts.
    expect(page.locator(".player-clock .clock-level")).to_contain_text("Level 1")
    expect(page.locator(".player-clock .clock-stats")).to_contain_text(
        f"{PLAYERS - 2:,} / {PLAYERS:,}"
    )
    expect(page.locator(".player-board")).to_contain_text("No seat changes yet")
    # What came on the follow socket: this player, the clock, the board; nobody else.
    received = "".join(sockets.received[url])
    assert '"type":"follow"' in received and my_name in received
    assert len(received.encode()) < 30_000, len(received.encode())
    assert len(received.encode()) * 10 < len(room.content), (len(received), len(room.content))
    assert [n for n in others if n in received] == []
    assert page.evaluate("() => window.floorPlayer.conn.following") == mover
    assert page.evaluate("() => Object.keys(window.floorPlayer.conn.state.players)") == [mover]

    # The floor calls the move to a seat it picks: the phone says where, at once.
    target = state["tables"][str(to["table"])]
    free = [n for n in range(1, target["seats"] + 1) if str(n) not in target["occupants"]]
    seat = free[-1]
    director.ok(TID, {"type": "call_move", "player": mover, "seat": seat})
    alert = page.locator(".player-alert")
    expect(alert.locator(".alert-title")).to_have_text("Get ready to move")
    expect(alert.locator(".alert-seat")).to_have_text(f"Table {to['table']}Seat {seat}")
    expect(follow.locator(".planned")).to_contain_text(f"T{to['table']} S{seat}")
    alert.get_by_role("button", name="OK").click()
    expect(alert).to_be_hidden()

    # Carried out: moved, said big, and the board has the line with the name.
    director.ok(TID, {"type": "confirm", "player": mover})
    expect(alert.locator(".alert-title")).to_have_text("You have been moved")
    expect(alert.locator(".alert-seat")).to_have_text(f"Table {to['table']}Seat {seat}")
    alert.get_by_role("button", name="OK").click()
    expect(follow.locator(".seat-big")).to_have_text(f"Table{to['table']}Seat{seat}")
    expect(follow.locator(".planned")).to_have_count(0)
    line = page.locator(".player-board .move-row:not(.pending)").first
    expect(line).to_contain_text(my_name)
    expect(line).to_contain_text(f"T{me['table']} S{me['seat']}")
    expect(line).to_contain_text(f"T{to['table']} S{seat}")
    received = "".join(sockets.received[url])
    assert [n for n in others if n in received] == []

    # The floor counts two stacks elsewhere: the chip leaders, by name, though the page holds
    # no other player (the leaders' names come with the room's part).
    counted = sorted(state["tables"][str(me["table"])]["occupants"].items())
    (_, big), (_, small) = [(s, p) for s, p in counted if p != mover][:2]
    director.ok(
        TID,
        {
            "type": "count_table",
            "table": me["table"],
            "stacks": [{"player": big, "stack": 31_500}, {"player": small, "stack": 8_200}],
        },
    )
    leaders = page.locator(".player-leaders .leaders-list li")
    expect(leaders).to_have_count(2)
    expect(leaders.nth(0)).to_contain_text(state["players"][big]["name"])
    expect(leaders.nth(0)).to_contain_text("31,500")
    expect(leaders.nth(1)).to_contain_text(state["players"][small]["name"])
    # Read at a glance: the field's count with its thousands grouped.
    meta = page.locator(".player-leaders .leaders-meta")
    expect(meta).to_contain_text(re.compile(r"2 of 1,\d{3} counted"))
    assert page.evaluate("() => Object.keys(window.floorPlayer.conn.state.players)") == [mover]

    # Anybody else is still found, by the server's search: their seat as it answered.
    friend = state["players"][small]
    page.fill("#player-search", friend["name"])
    found = page.locator(".result-card", has_text=friend["name"])
    expect(found.locator(".seat-big")).to_have_text(f"Table{friend['table']}Seat{friend['seat']}")
    page.fill("#player-search", my_name)
    expect(page.locator(".result-card", has_text=my_name)).to_have_count(1)
    shot(page, "player-follow-phone", full_page=True)

    # A page opened already following (a phone's saved follow), laid out wide: one socket,
    # nothing of the room, the board from the server's with the name.
    tv_sockets = Sockets()
    tv_ctx = pages.context(servers[0], size="tv")
    saved = json.dumps({"id": mover, "name": my_name})
    tv_ctx.add_init_script(f"localStorage.setItem('floor.follow.{TID}', {json.dumps(saved)});")
    tv = tv_ctx.new_page()
    # Its follow socket passes through here: refused while `cut` is set (the venue's wifi gone).
    cut: list[bool] = []

    def through(ws: WebSocketRoute) -> None:
        if cut:
            ws.close(code=1006)
        else:
            ws.connect_to_server()

    tv.route_web_socket(re.compile(rf"/ws/t/{TID}/follow/"), through)
    tv.on("pageerror", lambda e: pages.errors.append(f"player tv: {e}"))
    tv_snapshots: list[str] = []
    tv.on("request", lambda r: tv_snapshots.append(r.url) if r.url.endswith("/snapshot") else None)
    tv_sockets.watch(tv)
    tv.goto(f"/player/{TID}")
    expect(tv.locator(".conn").first).to_have_attribute("data-status", "live")
    expect(tv.locator(".follow-card .seat-big")).to_have_text(f"Table{to['table']}Seat{seat}")
    expect(tv.locator(".player-board .move-row").first).to_contain_text(my_name)
    assert tv_sockets.following(mover) and not tv_sockets.room() and tv_snapshots == []
    shot(tv, "player-follow-tv")

    # Cut off, then moved while away: once back, every part comes again, and the page says
    # the move it missed.
    cut.append(True)
    tv.evaluate("() => window.floorPlayer.conn.reconnect(true)")
    expect(tv.locator(".conn").first).to_have_attribute("data-status", "reconnecting")
    other = next(n for n in free if n != seat)
    director.ok(TID, {"type": "correct_seat", "player": mover, "table": to["table"], "seat": other})
    expect(tv.locator(".follow-card .seat-big")).to_have_text(f"Table{to['table']}Seat{seat}")
    cut.clear()
    tv_alert = tv.locator(".player-alert")
    expect(tv_alert.locator(".alert-title")).to_have_text("You have been moved", timeout=20_000)
    expect(tv_alert.locator(".alert-seat")).to_have_text(f"Table {to['table']}Seat {other}")
    expect(tv.locator(".conn").first).to_have_attribute("data-status", "live")
    expect(alert.locator(".alert-title")).to_have_text("You have been moved")  # the phone too
    alert.get_by_role("button", name="OK").click()
    seat = other
    tv_ctx.close()

    # A reload while following comes back following: the socket of one, no room fetched.
    snapshots: list[str] = []
    page.on("request", lambda r: snapshots.append(r.url) if r.url.endswith("/snapshot") else None)
    rooms = len(sockets.room())
    page.reload()
    expect(follow.locator(".seat-big")).to_have_text(f"Table{to['table']}Seat{seat}")
    expect(page.locator(".conn").first).to_have_attribute("data-status", "live")
    expect(line).to_contain_text(my_name)
    assert len(sockets.following(mover)) == 2
    assert len(sockets.room()) == rooms and snapshots == []

    # Stop following: the room again, on its own socket, every player found in it.
    follow.get_by_role("button", name="Stop following").click()
    expect(follow).to_be_hidden()
    wait_for(lambda: len(sockets.room()) > rooms, page)
    expect(page.locator(".conn").first).to_have_attribute("data-status", "live")
    wait_for(
        lambda: (
            page.evaluate("() => Object.keys(window.floorPlayer.conn.state.players).length")
            == PLAYERS
        ),
        page,
    )
    assert page.evaluate("() => window.floorPlayer.conn.following") is None
    expect(line).to_contain_text(my_name)  # the room's board, folded on the page again
    assert page.evaluate("() => localStorage.getItem('floor.follow.festival')") is None


def test_a_followed_name_withdrawn_is_said_and_the_page_goes_back_to_the_room(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    new_tournament(director, "withdrawn", 20, buttons=False)
    sockets = Sockets()
    ctx = pages.context(servers[1], size="phone")
    page = ctx.new_page()
    page.on("pageerror", lambda e: pages.errors.append(f"player: {e}"))
    sockets.watch(page)
    page.goto("/player/withdrawn")
    withdrawn = name_of(director, "withdrawn", "P17")
    page.fill("#player-search", withdrawn)
    page.locator(".result-card", has_text=withdrawn).get_by_role(
        "button", name=re.compile("^Follow")
    ).click()
    follow = page.locator(".follow-card")
    expect(follow.locator(".seat-big")).to_be_visible()
    # The seat first shown is the room's copy, held until the follow socket's first message:
    # withdrawn before that socket opened, the name would be refused at its handshake instead.
    wait_for(lambda: page.evaluate("() => window.floorPlayer.conn.me != null"), page)

    # The entry withdrawn (late registration is open): the follower is told, not left waiting.
    director.ok("withdrawn", {"type": "unregister", "player": "P17"})
    expect(follow).to_contain_text("This name is no longer registered here.")
    expect(follow.locator(".seat-big")).to_have_count(0)

    # Opened again, the name is not there to follow: the page holds the room instead.
    page.reload()
    expect(follow).to_be_hidden()
    expect(page.locator(".toast")).to_have_text("This name is no longer registered here.")
    expect(page.locator(".conn").first).to_have_attribute("data-status", "live")
    assert [u for u in sockets.opened if re.search(r"/ws/t/withdrawn\?", u)]
    assert page.evaluate("() => window.floorPlayer.conn.following") is None
    assert page.evaluate("() => localStorage.getItem('floor.follow.withdrawn')") is None


def test_a_moved_alert_gives_way_to_the_winner(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    tid = "lastmove"
    state = new_tournament(director, tid, 4, buttons=False)
    players = state["state"]["players"]
    followed = "P1"
    page = pages.open(servers[1], f"/player/{tid}")
    page.evaluate(
        "([key, who]) => localStorage.setItem(key, JSON.stringify(who))",
        [f"floor.follow.{tid}", {"id": followed, "name": name_of(director, tid, followed)}],
    )
    page.reload()
    expect(page.locator(".follow-card .seat-big")).to_be_visible()
    table = players[followed]["table"]
    taken = {p["seat"] for p in players.values() if p["table"] == table}
    free = next(n for n in range(1, 10) if n not in taken)
    director.ok(tid, {"type": "correct_seat", "player": followed, "table": table, "seat": free})
    alert = page.locator(".player-alert")
    expect(alert).to_contain_text("You have been moved")

    # Everybody else out: the winner is shown, and the alert to go somewhere is gone.
    for pid in players:
        if pid != followed:
            director.ok(tid, {"type": "bust", "player": pid})
    expect(page.locator(".finish-banner")).to_be_visible()
    expect(alert).to_be_hidden()
