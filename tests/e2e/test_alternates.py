"""A full flight's alternates over real servers: the wall's code puts people in line (limited
per address), a bust-out calls the next, the clock driver ends a called alternate's time, the
public sees the line on its websocket, and the route at its worst case."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect

from floor.redisdb.embedded import EmbeddedServer
from tests.e2e import worst_cases
from tests.e2e.conftest import Api, ServerProcess, add_user, sign_in


@pytest.fixture(scope="module")
def limited(
    valkey: EmbeddedServer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServerProcess]:
    """A server that limits this machine's address too, two joins a minute."""
    add_user(valkey.url, "boss", "director-secret", "director")
    add_user(valkey.url, "fred", "floor-secret", "floor")
    log = tmp_path_factory.mktemp("alternates") / "server.log"
    proc = ServerProcess(
        valkey.url, log, FLOOR_LIMITS_EXEMPT="none", FLOOR_ALTERNATES_RATE="2", FLOOR_RATE_LIMIT="0"
    )
    proc.start()
    try:
        yield proc
    finally:
        proc.stop()


@pytest.fixture(scope="module")
def boss(limited: ServerProcess) -> Iterator[Api]:
    api = Api(limited, sign_in(limited, "boss", "director-secret"))
    yield api
    api.client.close()


def _full_flight(boss: Api, tid: str, seats: int, **capacity: Any) -> None:
    boss.create(tid, seats)
    boss.ok(tid, {"type": "set_capacity", "capacity": {"seats": seats, **capacity}})


def _line(boss: Api, tid: str) -> list[dict[str, Any]]:
    state: Any = boss.state(tid)["state"]
    line: list[dict[str, Any]] = state["alternates"]["line"]
    return line


async def _public_line(server: ServerProcess, tid: str) -> list[dict[str, Any]]:
    async with connect(f"{server.ws}/ws/t/{tid}", compression=None) as ws:
        while (m := json.loads(await asyncio.wait_for(ws.recv(), 10)))["type"] != "snapshot":
            pass
    line: list[dict[str, Any]] = m["state"]["alternates"]["line"]
    return line


def test_the_walls_code_puts_people_in_line_limited_per_address(
    limited: ServerProcess, boss: Api
) -> None:
    tid = "alt-rate"
    boss.create(tid, 4, capacity={"seats": 4})  # set with the new tournament
    url = f"{limited.base}/api/t/{tid}/alternates"
    r = httpx.post(url, json={"name": "Ann Walk"})
    assert r.status_code == 201, r.text
    assert r.json() == {"alternate": "A1", "name": "Ann Walk", "place": 1}
    r = httpx.post(url, json={"name": "ann walk"})
    assert r.status_code == 409 and r.json()["error"]["reason"] == "alternate_in_line"
    r = httpx.post(url, json={"name": "Bob Walk"})
    assert r.status_code == 429, r.text
    assert [a["name"] for a in asyncio.run(_public_line(limited, tid))] == ["Ann Walk"]
    # The desk's registration while full joins the same line, behind them.
    boss.ok(tid, {"type": "register", "name": "Cy Desk"})
    assert [a["id"] for a in _line(boss, tid)] == ["A1", "A2"]


def test_a_bust_out_calls_the_next_and_the_clock_driver_ends_a_missed_call(
    limited: ServerProcess, boss: Api
) -> None:
    tid = "alt-call"
    _full_flight(boss, tid, 4, minutes=0.1)  # six seconds to take the seat
    for name in ("Ann Late", "Bob Later"):
        boss.ok(tid, {"type": "register", "name": name})
    boss.ok(tid, {"type": "bust", "player": "P0"})
    line = _line(boss, tid)
    assert [(a["id"], a["called_at"] is not None) for a in line] == [("A1", True), ("A2", False)]
    deadline = time.monotonic() + 30
    while [a["id"] for a in _line(boss, tid)] != ["A2"]:
        assert time.monotonic() < deadline, _line(boss, tid)
        time.sleep(0.2)
    (a2,) = _line(boss, tid)
    assert a2["called_at"] is not None
    boss.ok(tid, {"type": "seat_alternate", "alternate": "A2"})
    state: Any = boss.state(tid)["state"]
    assert [p["name"] for p in state["players"].values() if p["table"]].count("Bob Later") == 1
    assert state["alternates"]["lapsed"] == 1 and state["alternates"]["seated"] == 1


def test_the_floor_may_not_set_the_capacity(limited: ServerProcess, boss: Api) -> None:
    _full_flight(boss, "alt-rights", 2)
    fred = Api(limited, sign_in(limited, "fred", "floor-secret"))
    with fred.client:
        r = fred.command("alt-rights", {"type": "set_capacity", "capacity": {"seats": 9}})
        assert r.status_code == 403
        r = fred.command("alt-rights", {"type": "join_alternates", "name": "Sneaky"})
        assert r.status_code == 403
    r = boss.command("alt-rights", {"type": "set_capacity", "capacity": {"seats": 9, "tables": 1}})
    assert r.status_code == 422 and r.json()["error"]["field"] == "command.capacity"


def test_the_route_at_its_worst_case(valkey: EmbeddedServer, limited: ServerProcess) -> None:
    """The worst case's probe, on a server that does not limit this machine."""
    log = limited.log.with_name("worst.log")
    proc = ServerProcess(valkey.url, log)
    proc.start()
    try:
        tokens = [
            sign_in(proc, name, secret)["Authorization"].removeprefix("Bearer ")
            for name, secret in (("boss", "director-secret"), ("fred", "floor-secret"))
        ]
        world = worst_cases.World(proc.base, *tokens, worst_cases.Files())

        async def run() -> None:
            async with httpx.AsyncClient(base_url=proc.base, timeout=60) as http:
                await worst_cases.PROBES["POST /api/t/{tid}/alternates"](world, http)

        asyncio.run(run())
    finally:
        proc.stop()
