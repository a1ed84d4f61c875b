"""Following one player on the live server: ``/ws/t/{id}/follow/{player}`` and its HTTP read.

A phone that follows one player is sent that player, the clock and the board, never the
room's players, and after each batch only the parts that changed. Real ``floor serve``
processes, real websockets, the embedded Valkey.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
import websockets

from tests.e2e.conftest import Api, ServerProcess, settled

PLAYERS = 60


async def receive(ws: Any, timeout: float = 5.0) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), timeout))
        if message["type"] != "heartbeat":
            return message


async def follow_until(ws: Any, done: Any, timeout: float = 5.0) -> dict[str, Any]:
    """Follow messages until ``done(parts)`` holds of the parts merged so far."""
    parts: dict[str, Any] = {}
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not done(parts):
        message = await receive(ws, deadline - loop.time())
        assert message["type"] == "follow", message
        parts.update({k: message[k] for k in ("static", "room", "me") if k in message})
        parts["seq"] = message["seq"]
    return parts


def table_mate(director: Api, tid: str, player: str) -> str:
    players: dict[str, Any] = director.state(tid)["state"]["players"]  # type: ignore[index]
    table = players[player]["table"]
    return next(pid for pid, p in players.items() if p["table"] == table and pid != player)


async def test_a_follower_is_sent_their_seat_the_clock_and_the_board_not_the_room(
    servers: list[ServerProcess], director: Api
) -> None:
    director.create("fol", PLAYERS)
    secret = {"type": "register", "name": "Wheel Chair", "player": "W1", "special_needs": True}
    director.ok("fol", secret)
    director.ok("fol", {"type": "clock_start"})
    server = servers[1]  # not the writer: its copy is kept by the bus
    state: dict[str, Any] = director.state("fol")["state"]  # type: ignore[assignment]
    settled(server, "fol", int(httpx.head(servers[0].base + "/api/t/fol").headers["floor-seq"]))
    me = state["players"]["P7"]
    async with websockets.connect(server.ws + "/ws/t/fol/follow/P7") as ws:
        hello = await receive(ws)
        assert hello["type"] == "hello" and hello["role"] == "public"
        raw = await asyncio.wait_for(ws.recv(), 5.0)
        first_raw = raw.decode() if isinstance(raw, bytes) else raw
        first = json.loads(first_raw)
        assert first["type"] == "follow" and {"static", "room", "me"} <= first.keys()
        assert first["me"]["player"]["name"] == "Player 7"
        assert (first["me"]["table"]["number"], first["me"]["player"]["seat"]) == (
            me["table"],
            me["seat"],
        )
        assert first["room"]["stats"]["players_left"] == PLAYERS + 1
        assert first["room"]["clock"]["running"] is True
        assert first["static"]["structure"]["levels"]
        # None of the room's other players, and nothing of the staff's.
        assert "Player 12" not in first_raw and "Wheel Chair" not in first_raw
        assert '"special_needs":true' not in first_raw
        assert first["room"]["facts"]["search"] == {}

        # A bust-out elsewhere: the room's numbers change, the follower's own part does not.
        other = table_mate(director, "fol", "P7")
        director.ok("fol", {"type": "bust", "player": other})
        parts = await follow_until(
            ws, lambda p: "room" in p and p["room"]["stats"]["players_left"] == PLAYERS
        )
        assert "static" not in parts

        # The whole message again over HTTP, as the websocket's first held it.
        r = httpx.get(server.base + "/api/t/fol/follow/P7")
        assert r.status_code == 200 and r.headers["cache-control"] == "no-store"
        read = r.json()
        assert read["me"]["player"]["id"] == "P7" and read["seq"] >= parts["seq"]

        metrics = httpx.get(server.base + "/metrics", headers=director.client.headers).text
        assert "\nfloor_followers 1\n" in metrics

        # Resync: every part again.
        await ws.send(json.dumps({"type": "resync"}))
        again = await receive(ws)
        assert {"static", "room", "me"} <= again.keys()


async def test_a_follower_is_told_their_move_once_called_and_it_reaches_the_board(
    servers: list[ServerProcess], director: Api
) -> None:
    # Two tables of nine; two out at one makes a balance move from the other, whose
    # next big blind is known once its button is reported.
    director.create("mov", 18)
    director.ok("mov", {"type": "clock_start"})
    players: dict[str, Any] = director.state("mov")["state"]["players"]  # type: ignore[index]
    by_table: dict[int, list[str]] = {}
    for pid, p in players.items():
        by_table.setdefault(p["table"], []).append(pid)
    short, long = sorted(by_table)
    seats = sorted(players[pid]["seat"] for pid in by_table[long])
    director.ok("mov", {"type": "button", "table": long, "seat": seats[0]})
    for pid in by_table[short][:2]:
        director.ok("mov", {"type": "bust", "player": pid})
    planned = [m for m in director.state("mov")["plan"]["moves"] if m["player"]]  # type: ignore[index]
    assert planned, "a balance move with the player named"
    mover, target = planned[0]["player"], planned[0]["to"]["table"]
    table = director.state("mov")["state"]["tables"][str(target)]  # type: ignore[index]
    free = next(n for n in range(1, table["seats"] + 1) if str(n) not in table["occupants"])
    server = servers[1]
    settled(server, "mov", int(httpx.head(servers[0].base + "/api/t/mov").headers["floor-seq"]))
    async with websockets.connect(server.ws + f"/ws/t/mov/follow/{mover}") as ws:
        await receive(ws)  # hello
        first = await receive(ws)
        # Planned, not called: the room (and the follower) is not shown it yet.
        assert first["me"]["move"] is None
        director.ok("mov", {"type": "call_move", "player": mover, "seat": free})
        parts = await follow_until(ws, lambda p: p.get("me", {}).get("move") is not None)
        to = parts["me"]["move"]["to"]
        director.ok("mov", {"type": "confirm", "player": mover})

        def moved(p: dict[str, Any]) -> bool:
            me, room = p.get("me") or {}, p.get("room") or first["room"]
            return (me.get("player") or {}).get("table") == to["table"] and any(
                e["kind"] == "move" and e.get("player") == mover for e in room["board"]
            )

        parts = await follow_until(ws, moved)
        line = next(e for e in parts["room"]["board"] if e.get("player") == mover)
        assert line["name"] == players[mover]["name"] and line["to"]["table"] == to["table"]
        assert parts["me"]["move"] is None

    # The room's screens read the same board when they join (``web/js/board.js``).
    board = httpx.get(server.base + "/api/t/mov/board").json()
    assert board["tournament"] == "mov" and board["seq"] >= parts["seq"]
    assert board["board"][0] == line or line in board["board"]


async def test_following_nobody_or_nothing_is_refused_with_the_reason(
    servers: list[ServerProcess], director: Api
) -> None:
    director.create("nob", 4)
    server = servers[0]
    r = httpx.get(server.base + "/api/t/nob/follow/NOPE")
    assert r.status_code == 404 and "NOPE" in r.json()["error"]["message"]
    r = httpx.get(server.base + "/api/t/nowhere/follow/P1")
    assert r.status_code == 404
    r = httpx.get(server.base + "/api/t/nob/follow/" + "x" * 65)
    assert r.status_code in (400, 422) and r.json()["error"]["field"] == "player"
    async with websockets.connect(server.ws + "/ws/t/nob/follow/NOPE") as ws:
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await ws.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4004
    async with websockets.connect(server.ws + "/ws/t/nob/follow/P1") as ws:
        await receive(ws)
        await receive(ws)
        await ws.send('{"type":"command","id":"x","command":{"type":"clock_start"}}')
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await receive(ws)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1003


async def test_phones_connecting_write_no_log_line_each(
    servers: list[ServerProcess], director: Api
) -> None:
    """A storm of phones is not a storm of log lines from the loop the staff share; the
    server still says where it listens, and its commands are logged."""
    director.create("quiet", 4)
    server = servers[0]
    for path in ("/ws/t/quiet/follow/P1", "/ws/t/quiet?packed=1"):
        for _ in range(3):
            async with websockets.connect(server.ws + path) as ws:
                await receive(ws)
    logged = server.log.read_text()
    assert "connection open" not in logged and "[accepted]" not in logged
    assert "floor serving on http://" in logged and '"msg":"command"' in logged
