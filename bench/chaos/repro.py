"""Deterministic reproductions of what the chaos soak found, against real processes.

    .venv/bin/python -m bench.chaos.repro            # both
    .venv/bin/python -m bench.chaos.repro skew       # a snapshot ahead of its seq
    .venv/bin/python -m bench.chaos.repro last-bust  # the winner busted too
    .venv/bin/python -m bench.chaos.repro pool       # screens refused: "Too many connections"
    .venv/bin/python -m bench.chaos.repro stale      # a server answers a stale copy for good
    .venv/bin/python -m bench.chaos.repro load-race  # a batch lost while the copy is loaded

``skew`` (fixed in 8041f64 "A read waits for the command being written", which landed while
the soak was being written; kept as a regression check, it now prints "not reproduced"):
``Service.execute`` applies a command's events to the process's in-memory
``Tournament`` (``decide`` folds them in place) *before* the append script has run, while
``Service.tournament`` hands out that same object, with the old version, without the lock. For
the whole Redis round trip (normally a fsync; up to the 3 s call timeout when Redis hangs or
dies) every reader sees the new state labelled with the old sequence number: ``GET /api/t/{id}``
and, worse, the snapshot a joining screen gets. The screen then receives the command's events
(numbered after the snapshot) and applies them a second time, and shows a wrong state until
its next snapshot. If the write fails (Redis killed), readers were shown a change that never
happened. Here ``CLIENT PAUSE 2000 WRITE`` holds the append script (reads go on, so the
session lookup does) so that the window stays open long enough to look in.

``last-bust``: ``bust {player}`` of the last player left is accepted (place 1, nobody left),
while ``bust_same_hand`` refuses "nobody would be left". Two phones reporting the heads-up
bust-out at the same time (each busts the other player) end the tournament without a winner.

``pool``: the Redis client (``floor/redisdb/connection.py``) has ``max_connections=64`` and
redis-py's asyncio ``ConnectionPool`` does not wait for a free connection: the 65th concurrent
call fails at once with ``MaxConnectionsError("Too many connections")``, a ConnectionError,
which the store turns into ``Unavailable``. When a server restarts, its screens all come back
at once (each catch-up is an XRANGE): most are closed with 1011 "Redis is unreachable: Too
many connections" while Redis is up and idle (any other Redis call made in such a burst fails
the same way: a command would be answered 503).

``stale``: a process keeps its in-memory copy of a tournament current only from the pub/sub
batches, and it subscribes only while a screen (or the clock driver, on the process holding
the clock lease) follows the tournament there. A process that loaded the tournament for a
command or a read but has no screen on it never hears of later changes: ``GET /api/t/{id}``
(and the player search, the prizes, ...) answer the state at that load, for good (a command
sent there still lands: it loses the version race, reloads and decides again). Behind a load
balancer, a phone's reads go to such a process as often as not.

``load-race``: ``Service.apply_published`` drops a batch when the process holds no copy, and
that includes the time a copy is being loaded (``_entry`` -> ``load``: a pipeline, then an
XRANGE). A batch written after the XRANGE read and handed over before the load finishes is
lost: the copy stays one batch behind until the next batch shows the gap (a reload); in a
quiet moment (the clock paused, the last bust-out of the night) reads and the snapshots of
screens joining there stay behind. Loads are frequent: every lost version race, duplicate
or failed write, and every first subscription, forgets the copy. The soak saw it as a
server answering seq N-1 at the end (its screens, fed by the hub, were at N).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import shutil
import sys
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

from floor.redisdb.connection import connect as connect_redis
from floor.redisdb.embedded import EmbeddedServer, free_port

from .cluster import FloorServer, add_user

SECRET = "repro-director-secret"


class Valkey:
    """A Valkey of the repro's own on a TCP port (``appendfsync always``), no supervisor."""

    def __init__(self, data_dir: Path) -> None:
        self.port = free_port()
        self.server = EmbeddedServer(data_dir, port=self.port, appendfsync="always")
        self.url = f"redis://127.0.0.1:{self.port}"

    async def start(self) -> None:
        await asyncio.to_thread(self.server.start, 30.0)

    async def stop(self) -> None:
        await asyncio.to_thread(self.server.stop)


@contextlib.asynccontextmanager
async def _workdir() -> AsyncIterator[Path]:
    tmp = Path(tempfile.mkdtemp(prefix="floor-repro-"))
    try:
        yield tmp
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


@contextlib.asynccontextmanager
async def _one_server() -> AsyncIterator[tuple[Valkey, FloorServer, httpx.AsyncClient]]:
    """A Valkey, one floor server and the director's client, all stopped afterwards."""
    async with _workdir() as tmp:
        valkey = Valkey(tmp / "valkey")
        await valkey.start()
        await asyncio.to_thread(add_user, valkey.url, "boss", SECRET, "director")
        server = FloorServer("server", valkey.url, tmp / "server.log", heartbeat=2.0)
        await server.start()
        client = httpx.AsyncClient(base_url=server.base, timeout=30.0)
        try:
            r = await client.post("/api/signin", json={"username": "boss", "secret": SECRET})
            client.headers["Authorization"] = f"Bearer {r.json()['token']}"
            yield valkey, server, client
        finally:
            await client.aclose()
            await server.stop()
            await valkey.stop()


async def _command(
    client: httpx.AsyncClient, tid: str, cid: str, command: dict[str, Any]
) -> httpx.Response:
    return await client.post(f"/api/t/{tid}/commands", json={"id": cid, "command": command})


async def skew() -> bool:
    async with _one_server() as (valkey, server, client):
        redis = connect_redis(valkey.url)
        try:
            return await _skew(server, client, redis)
        finally:
            await redis.aclose()


async def _skew(server: FloorServer, client: httpx.AsyncClient, redis: Any) -> bool:
    tid = "skew"
    r = await client.post("/api/tournaments", json={"id": tid, "rules": "tda-2024"})
    assert r.status_code == 201, r.text
    # A screen, so that the server follows the tournament (its copy is kept, not reloaded).
    ws1 = await connect(f"{server.ws}/ws/t/{tid}", compression=None, max_size=None)
    await ws1.recv()
    await ws1.recv()
    r = await _command(client, tid, "r1", {"type": "register", "name": "A", "player": "A"})
    print("register A:", r.status_code, r.json())
    # Writes (and the append script) wait for 2 s; reads (the session lookup) go on.
    await redis.execute_command("CLIENT", "PAUSE", 2000, "WRITE")  # type: ignore[no-untyped-call]
    post = asyncio.create_task(
        _command(client, tid, "r2", {"type": "register", "name": "B", "player": "B"})
    )
    await asyncio.sleep(0.5)
    snap = json.loads((await client.get(f"/api/t/{tid}")).content)
    print(
        f"GET while 'register B' is in flight: seq {snap['seq']}, players "
        f"{sorted(snap['state']['players'])}, entries {snap['state']['entries']}"
    )
    ws = await connect(f"{server.ws}/ws/t/{tid}", compression=None, max_size=None)
    json.loads(await ws.recv())  # hello
    first = json.loads(await ws.recv())
    print(
        f"a screen joining now gets: snapshot seq {first['seq']}, players "
        f"{sorted(first['state']['players'])}, entries {first['state']['entries']}"
    )
    r = await post
    print("the phone's answer:", r.status_code, r.text[:120])
    later = []
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 3.0
    while (left := deadline - loop.time()) > 0:
        try:
            message = json.loads(await asyncio.wait_for(ws.recv(), left))
        except TimeoutError:
            break
        if message["type"] == "events":
            later += [e for e in message["events"] if e["seq"] > first["seq"]]
    print(
        "then the screen gets: "
        + (
            ", ".join(f"{e['seq']} {e['event']['type']} {e['event'].get('player')}" for e in later)
            or "nothing more"
        )
    )
    entries = first["state"]["entries"] + sum(
        1 for e in later if e["event"]["type"] == "player_registered"
    )
    final = json.loads((await client.get(f"/api/t/{tid}")).content)
    print(
        f"applying them as docs/protocol.md says, the screen counts {entries} entries; "
        f"the server {final['state']['entries']} (seq {final['seq']})"
    )
    await ws.close()
    await ws1.close()
    bad = first["seq"] < final["seq"] and "B" in first["state"]["players"]
    print(
        "BUG REPRODUCED: the snapshot held an event numbered after its seq"
        if bad
        else "not reproduced"
    )
    return bad


async def last_bust() -> bool:
    tid = "lastbust"
    async with _one_server() as (_, _, client):
        r = await client.post("/api/tournaments", json={"id": tid, "rules": "tda-2024"})
        assert r.status_code == 201, r.text
        for p in ("A", "B"):
            await _command(client, tid, f"reg-{p}", {"type": "register", "name": p, "player": p})
        await _command(client, tid, "draw", {"type": "draw_seats"})
        a = await _command(client, tid, "bust-A", {"type": "bust", "player": "A"})
        b = await _command(client, tid, "bust-B", {"type": "bust", "player": "B"})
        print("bust A:", a.status_code, a.text)
        print("bust B (the last player left):", b.status_code, b.text)
        state = json.loads((await client.get(f"/api/t/{tid}")).content)
        print(
            "players left:",
            state["stats"]["players_left"],
            {p: v["bust"]["place"] for p, v in state["state"]["players"].items() if v.get("bust")},
        )
        bad = b.status_code == 200
        print("BUG REPRODUCED: the winner was busted (expected 409)" if bad else "not reproduced")
        return bad


async def pool() -> bool:
    tid = "pool"
    async with _one_server() as (valkey, server, client):
        r = await client.post("/api/tournaments", json={"id": tid, "rules": "tda-2024"})
        assert r.status_code == 201, r.text
        for i in range(20):
            await _command(
                client, tid, f"r{i}", {"type": "register", "name": f"{i}", "player": f"P{i}"}
            )

        async def screen() -> str:
            try:
                async with connect(
                    f"{server.ws}/ws/t/{tid}?since=1", compression=None, open_timeout=30
                ) as ws:
                    await ws.recv()  # hello
                    message = json.loads(await ws.recv())
                    return str(message["type"])
            except Exception as e:
                code = getattr(getattr(e, "rcvd", None), "code", None)
                reason = getattr(getattr(e, "rcvd", None), "reason", "")
                return f"closed {code} {reason}" if code else type(e).__name__

        outcomes = await asyncio.gather(*(screen() for _ in range(400)))
        counts: dict[str, int] = {}
        for o in outcomes:
            counts[o] = counts.get(o, 0) + 1
        print("400 screens reconnecting at once with ?since=1 (as after a server restart):", counts)
        pong = await connect_redis(valkey.url).ping()
        print(f"meanwhile Redis is up and idle (PING: {pong})")
        bad = any("Too many connections" in o for o in outcomes)
        print("BUG REPRODUCED: the Redis pool ran out" if bad else "not reproduced")
        return bad


async def stale() -> bool:
    tmp = Path(tempfile.mkdtemp(prefix="floor-repro-"))
    valkey = Valkey(tmp / "valkey")
    await valkey.start()
    await asyncio.to_thread(add_user, valkey.url, "boss", SECRET, "director")
    a = FloorServer("a", valkey.url, tmp / "a.log", heartbeat=2.0)
    b = FloorServer("b", valkey.url, tmp / "b.log", heartbeat=2.0)
    ca = httpx.AsyncClient(base_url=a.base, timeout=30.0)
    cb = httpx.AsyncClient(base_url=b.base, timeout=30.0)
    tid = "stale"
    try:
        # A first, holding the clock lease (the lease holder follows every tournament for
        # its clock, so its copy is kept current); B neither holds it nor has a screen.
        await a.start()
        for _ in range(100):
            if (await ca.get("/healthz")).json().get("clock_lease"):
                break
            await asyncio.sleep(0.1)
        await b.start()
        r = await ca.post("/api/signin", json={"username": "boss", "secret": SECRET})
        for c in (ca, cb):
            c.headers["Authorization"] = f"Bearer {r.json()['token']}"
        r = await ca.post("/api/tournaments", json={"id": tid, "rules": "tda-2024"})
        assert r.status_code == 201, r.text
        for i in range(3):
            await _command(
                ca, tid, f"r{i}", {"type": "register", "name": f"{i}", "player": f"P{i}"}
            )
            got_a = json.loads((await ca.get(f"/api/t/{tid}")).content)
            got_b = json.loads((await cb.get(f"/api/t/{tid}")).content)
            print(
                f"after register {i} (sent to A): GET from A: seq {got_a['seq']}, "
                f"{got_a['state']['entries']} entries; GET from B: seq {got_b['seq']}, "
                f"{got_b['state']['entries']} entries"
            )
        await asyncio.sleep(5)
        late = json.loads((await cb.get(f"/api/t/{tid}")).content)
        print(f"5 s later, GET from B: seq {late['seq']} (the log is at {got_a['seq']})")
        bad = bool(late["seq"] < got_a["seq"])
        print(
            "BUG REPRODUCED: a server with no screen on the tournament answers a stale copy"
            if bad
            else "not reproduced"
        )
        return bad
    finally:
        await ca.aclose()
        await cb.aclose()
        await asyncio.gather(a.stop(), b.stop())
        await valkey.stop()
        shutil.rmtree(tmp, ignore_errors=True)


async def load_race() -> bool:
    """In one process, with the interleaving the event loop allows: a Service loading the
    tournament (its XRANGE answered, the coroutine not yet resumed) while the pub/sub reader
    hands it the batch another process just wrote."""
    import random

    import msgspec

    from floor.engine import commands as cmd
    from floor.engine.rules import Rules
    from floor.redisdb.keys import Keys
    from floor.redisdb.log import RedisLog
    from floor.store.service import Service

    tmp = Path(tempfile.mkdtemp(prefix="floor-repro-"))
    valkey = Valkey(tmp / "valkey")
    await valkey.start()
    rules = msgspec.convert({"game": "holdem", "seats": 9, "final_table": 9}, Rules)
    a = Service(RedisLog(connect_redis(valkey.url)), rng=random.Random(1))
    b = Service(RedisLog(connect_redis(valkey.url)), rng=random.Random(2))
    listener = connect_redis(valkey.url)
    pubsub = listener.pubsub()
    try:
        await a.create("t", "T", rules)
        await a.execute("t", cmd.Register(name="A", player="A"), "ra")
        await pubsub.ssubscribe(Keys("t").channel)
        real_xrange = b.log.redis.xrange
        hooked: list[bool] = []

        async def xrange(*args: Any, **kwargs: Any) -> Any:
            reply = await real_xrange(*args, **kwargs)
            if not hooked:
                hooked.append(True)
                await a.execute("t", cmd.Register(name="B", player="B"), "rb")
                while (m := await pubsub.get_message(timeout=2.0)) and m["type"] != "smessage":
                    pass
                assert m is not None
                await b.apply_published(m["data"])  # what B's hub does with the batch
            return reply

        b.log.redis.xrange = xrange  # type: ignore[method-assign]
        _, loaded = await b.tournament("t")
        b.log.redis.xrange = real_xrange  # type: ignore[method-assign]
        _, written = await a.tournament("t")
        await asyncio.sleep(1.0)
        t, later = await b.tournament("t")
        print(
            f"the log is at {written}; B loaded version {loaded} while the batch of {written} "
            f"arrived; a second later B holds version {later}, players {sorted(t.state.players)}"
        )
        bad = later < written
        print(
            "BUG REPRODUCED: the batch that came during the load was dropped; B stays behind "
            "until another batch arrives"
            if bad
            else "not reproduced"
        )
        return bad
    finally:
        await pubsub.aclose()  # type: ignore[no-untyped-call]
        await listener.aclose()
        await a.log.redis.aclose()
        await b.log.redis.aclose()
        await valkey.stop()
        shutil.rmtree(tmp, ignore_errors=True)


async def main(which: list[str]) -> int:
    found = 0
    if not which or "skew" in which:
        print("== skew: a snapshot that holds an in-flight command's events")
        found += await skew()
    if not which or "last-bust" in which:
        print("== last-bust: busting the last player left")
        found += await last_bust()
    if not which or "stale" in which:
        print("== stale: reads from a server that no screen of the tournament is connected to")
        found += await stale()
    if not which or "load-race" in which:
        print("== load-race: a batch arriving while a server loads the tournament")
        found += await load_race()
    if not which or "pool" in which:
        print("== pool: many screens reconnecting at once")
        found += await pool()
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1:])))
