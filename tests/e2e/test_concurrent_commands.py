"""Commands sent at once to two server processes: each is retried on a lost race, never
refused for one (a 503 "busy"), and the optimistic concurrency still holds (no write lost,
nobody seated twice, no seat given twice).

Two processes write the same tournament's log: each decides on its own copy and appends only
if the log is still at the version it decided on; the loser decides again on the new state.
With 400 registrations at once, 4 were answered 503 "changing too fast": a bound on lost
races, not on time, refused them.
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter

import httpx
import redis

from floor.redisdb.embedded import EmbeddedServer
from floor.redisdb.keys import Keys

from .conftest import Api, ServerProcess, sign_in

REGISTRATIONS = 400


async def register_all(
    servers: list[ServerProcess], headers: dict[str, str], tid: str
) -> list[httpx.Response]:
    """Every registration at once, half to each process, each with its own command id."""
    limits = httpx.Limits(max_connections=REGISTRATIONS, max_keepalive_connections=0)
    clients = [
        httpx.AsyncClient(base_url=s.base, headers=headers, timeout=60.0, limits=limits)
        for s in servers
    ]
    try:
        start = asyncio.Event()

        async def register(i: int) -> httpx.Response:
            await start.wait()
            body = {
                "id": f"{tid}-reg-{i}",
                "command": {"type": "register", "name": f"Late {i}", "player": f"L{i}"},
            }
            for _ in range(20):
                r = await clients[i % len(clients)].post(f"/api/t/{tid}/commands", json=body)
                # Redis slow to answer a burst of new connections on a busy machine: a
                # phone resends the same command id (the answer says what was written).
                if r.status_code != 503 or r.json()["error"]["code"] != "unavailable":
                    return r
                await asyncio.sleep(0.1)
            return r

        tasks = [asyncio.create_task(register(i)) for i in range(REGISTRATIONS)]
        await asyncio.sleep(0.1)
        start.set()
        return await asyncio.gather(*tasks)
    finally:
        for c in clients:
            await c.aclose()


def test_registrations_at_once_on_two_processes_are_all_acknowledged_and_all_in_the_log(
    servers: list[ServerProcess], director: Api, valkey: EmbeddedServer
) -> None:
    tid = "rush"
    # Drawn already: each late entry is also seated (a table opened when the room is full),
    # so each registration's decision depends on every one before it.
    director.create(tid, 20)
    headers = sign_in(servers[1], "boss", "director-secret")
    answers = asyncio.run(register_all(servers, headers, tid))

    refused = [(r.status_code, r.text[:120]) for r in answers if r.status_code != 200]
    assert not refused, f"{len(refused)} of {REGISTRATIONS} refused: {refused[:3]}"
    acks = [r.json() for r in answers]

    # Each acknowledged registration is in the log at the numbers it was answered with, its
    # own player's event first; no two share a number.
    client = redis.Redis.from_url(valkey.url)
    try:
        stream = client.xrange(Keys(tid).events, "-", "+")
    finally:
        client.close()
    events = {int(i.split(b"-")[0]): json.loads(f[b"e"]) for i, f in stream}
    assert sorted(events) == list(range(1, len(events) + 1))
    owners: Counter[int] = Counter()
    for i, ack in enumerate(acks):
        first = events[ack["first"]]
        assert (first["type"], first["player"]) == ("player_registered", f"L{i}")
        owners.update(range(ack["first"], ack["last"] + 1))
    assert max(owners.values()) == 1

    # Every player once, each in a seat of their own, the tables and the players agreeing.
    state = director.state(tid)["state"]
    assert isinstance(state, dict)
    assert state["entries"] == 20 + REGISTRATIONS
    assert {f"L{i}" for i in range(REGISTRATIONS)} <= set(state["players"])
    seats = [
        (int(n), int(seat), pid)
        for n, table in state["tables"].items()
        for seat, pid in table["occupants"].items()
    ]
    assert len(seats) == len({(n, seat) for n, seat, _ in seats}) == 20 + REGISTRATIONS
    assert sorted(pid for _, _, pid in seats) == sorted(state["players"])
    for n, seat, pid in seats:
        p = state["players"][pid]
        assert (p["table"], p["seat"]) == (n, seat)
        assert seat <= state["tables"][str(n)]["seats"]
