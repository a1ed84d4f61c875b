"""The ports' contract, held by both implementations: Redis (a real Valkey) and memory.

Each test runs twice, once per backend; a "process" is a fresh set of ports on the same
storage (on Redis a client of its own). What the command service relies on is here: the
append is all or nothing, conditional on the version, answered again for its command id; a
refusal is kept only at the current version; the batch goes out on the bus with the events;
the lease is held by one process at a time.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass

import msgspec
import pytest
import pytest_asyncio
import redis.asyncio as aioredis

from floor.engine.events import TournamentCreated
from floor.engine.rules import Rules
from floor.engine.state import Tournament
from floor.redisdb.bus import RedisBus
from floor.redisdb.connection import connect
from floor.redisdb.lease import RedisLease
from floor.redisdb.log import RedisLog
from floor.store.errors import AlreadyExists, NotFound
from floor.store.memory import MemoryBus, MemoryLease, MemoryLog, MemoryServer
from floor.store.outcome import ErrorInfo, Kept
from floor.store.ports import (
    Answered,
    Append,
    Bus,
    ClockLease,
    Conflict,
    EventLog,
    Resubscribed,
    Snapshot,
    Summary,
    Written,
)

RULES = msgspec.convert({"game": "holdem", "seats": 9, "final_table": 9}, Rules)


@dataclass
class Backend:
    name: str
    log: Callable[[], EventLog]
    bus: Callable[[], Bus]
    lease: Callable[[], ClockLease]
    #: Cut the pub/sub connections of every bus made so far.
    lose_connections: Callable[[], Awaitable[None]]


@pytest_asyncio.fixture(params=["memory", "redis"])
async def backend(request: pytest.FixtureRequest, redis_url: str) -> AsyncIterator[Backend]:
    if request.param == "memory":
        server = MemoryServer()
        buses: list[MemoryBus] = []

        def memory_bus() -> Bus:
            buses.append(MemoryBus(server))
            return buses[-1]

        async def lose() -> None:
            for bus in buses:
                bus.lose_connection()

        yield Backend(
            "memory",
            lambda: MemoryLog(server),
            memory_bus,
            lambda: MemoryLease(server),
            lose,
        )
        return
    admin = connect(redis_url)
    await admin.flushall()
    clients: list[aioredis.Redis] = [admin]
    redis_buses: list[RedisBus] = []

    def client() -> aioredis.Redis:
        clients.append(connect(redis_url))
        return clients[-1]

    def redis_bus() -> Bus:
        redis_buses.append(RedisBus(client()))
        return redis_buses[-1]

    async def lose() -> None:
        await admin.execute_command("CLIENT", "KILL", "TYPE", "pubsub")

    yield Backend(
        "redis", lambda: RedisLog(client()), redis_bus, lambda: RedisLease(client()), lose
    )
    for bus in redis_buses:
        await bus.close()
    for c in clients:
        await c.aclose()


def created(tid: str = "t1") -> bytes:
    event = TournamentCreated(id=tid, name="Test", rules=RULES, structure=None, created_at=1.0)
    return msgspec.json.encode(event)


def state() -> Snapshot:
    t = Tournament.create(msgspec.json.decode(created(), type=TournamentCreated))
    return Snapshot(3, t.state)


def ok(version: int, events: int, cid: str) -> Append:
    return Append(
        version=version,
        command_id=cid,
        events=[f'{{"n":{version + i + 1}}}'.encode() for i in range(events)],
        result=Kept(ok=True, first=version + 1, last=version + events, digest=cid),
        payload=f"batch {cid}".encode(),
    )


def refusal(version: int, cid: str) -> Append:
    error = ErrorInfo(code="unknown_player", message="P9 is not in the tournament")
    return Append(version=version, command_id=cid, events=[], result=Kept(ok=False, error=error))


async def test_an_append_is_made_only_at_the_version_it_was_decided_at(backend: Backend) -> None:
    log = backend.log()
    assert not await log.exists("t1")
    assert await log.version("t1") == 0
    assert await log.append("t1", ok(0, 1, "c1")) == Written(1)
    assert await log.append("t1", ok(1, 2, "c2")) == Written(3)
    assert await log.exists("t1")
    assert await log.append("t1", ok(1, 1, "c3")) == Conflict(3)
    assert await log.version("t1") == 3
    stored = await backend.log().load("t1")
    assert stored.snapshot is None
    assert stored.tail == [(1, b'{"n":1}'), (2, b'{"n":2}'), (3, b'{"n":3}')]


async def test_a_command_id_is_answered_with_its_first_result_and_writes_nothing_again(
    backend: Backend,
) -> None:
    log = backend.log()
    first = ok(0, 2, "c1")
    assert await log.append("t1", first) == Written(2)
    # From another process, at another version: the same answer, nothing written.
    other = backend.log()
    assert await other.append("t1", ok(2, 1, "c1")) == Answered(first.result)
    assert await other.append("t1", ok(0, 2, "c1")) == Answered(first.result)
    assert await log.version("t1") == 2


async def test_a_refusal_is_kept_only_when_decided_at_the_current_version(
    backend: Backend,
) -> None:
    log = backend.log()
    await log.append("t1", ok(0, 2, "c1"))
    stale = refusal(1, "r1")
    assert await log.append("t1", stale) == Conflict(2)
    # Not kept: the command decided again with the same id may still apply.
    assert await log.append("t1", ok(2, 1, "r1")) == Written(3)
    current = refusal(3, "r2")
    assert await log.append("t1", current) == Written(3)
    assert await log.append("t1", ok(3, 1, "r2")) == Answered(current.result)
    assert await log.version("t1") == 3


async def test_a_snapshot_is_loaded_with_the_events_after_it(backend: Backend) -> None:
    log = backend.log()
    await log.append("t1", ok(0, 1, "c1"))
    with_snapshot = msgspec.structs.replace(ok(1, 2, "c2"), snapshot=state())
    assert await log.append("t1", with_snapshot) == Written(3)
    await log.append("t1", ok(3, 2, "c3"))
    stored = await backend.log().load("t1")
    assert stored.snapshot is not None
    assert stored.snapshot.seq == 3
    assert msgspec.msgpack.encode(stored.snapshot.state) == msgspec.msgpack.encode(state().state)
    assert [seq for seq, _ in stored.tail] == [4, 5]
    with pytest.raises(NotFound, match="there is no tournament t2"):
        await log.load("t2")


async def test_reading_gives_the_events_after_a_number_up_to_a_limit(backend: Backend) -> None:
    log = backend.log()
    await log.append("t1", ok(0, 5, "c1"))
    assert [seq for seq, _ in await log.read("t1", 0, 100)] == [1, 2, 3, 4, 5]
    assert [seq for seq, _ in await log.read("t1", 2, 2)] == [3, 4]
    assert await log.read("t1", 5, 10) == []
    assert await log.read("t2", 0, 10) == []


async def test_the_batch_goes_out_with_the_events_to_the_processes_that_follow(
    backend: Backend,
) -> None:
    log = backend.log()
    following, other = backend.bus(), backend.bus()
    assert await following.follow("t1")
    assert not await following.follow("t1")
    assert following.following("t1") and not other.following("t1")
    await other.follow("t2")
    incoming = following.incoming()
    await log.append("t1", refusal(0, "r0"))  # no events, no batch
    await log.append("t1", ok(0, 1, "c1"))
    await log.append("t2", ok(0, 1, "elsewhere"))
    await log.append("t1", ok(1, 1, "c2"))
    got = [await asyncio.wait_for(anext(incoming), 5.0) for _ in range(2)]
    assert got == [b"batch c1", b"batch c2"]
    await following.unfollow("t1")
    assert not following.following("t1")
    await incoming.aclose()


async def test_a_bus_that_lost_its_connection_says_so_and_follows_again(
    backend: Backend,
) -> None:
    log = backend.log()
    bus = backend.bus()
    await bus.follow("t1")
    incoming = bus.incoming()
    await log.append("t1", ok(0, 1, "c1"))
    assert await asyncio.wait_for(anext(incoming), 5.0) == b"batch c1"
    await backend.lose_connections()
    assert await asyncio.wait_for(anext(incoming), 10.0) == Resubscribed()
    await log.append("t1", ok(1, 1, "c2"))
    assert await asyncio.wait_for(anext(incoming), 5.0) == b"batch c2"
    await incoming.aclose()


async def test_tournaments_are_listed_archived_and_listed_again_only_when_live(
    backend: Backend,
) -> None:
    log = backend.log()
    first = Summary(id="spring", name="Spring", created_at=1.0)
    side = Summary(id="side", name="Side", created_at=2.0)
    await log.list_tournament(side)
    await log.list_tournament(first)
    assert [s.id for s in await log.summaries()] == ["spring", "side"]
    await log.append("side", ok(0, 1, "create-side"))
    archived = await log.archive("side")
    assert archived.status == "archived"
    assert await log.archive("side") == archived  # a retry finishes the move
    assert await log.summaries(archived=True) == [archived]
    await log.list_again(side)
    assert [s.id for s in await log.summaries()] == ["spring"]
    await log.list_again(Summary(id="spring", name="Renamed", created_at=9.0))
    assert [s.name for s in await log.summaries()] == ["Spring"]
    with pytest.raises(NotFound, match="there is no live tournament nope"):
        await log.archive("nope")


async def test_a_restored_log_is_whole_and_an_existing_one_is_not_overwritten(
    backend: Backend,
) -> None:
    log = backend.log()
    events = [created(), *[f'{{"n":{n}}}'.encode() for n in range(2, 2501)]]
    summary = Summary(id="t1", name="Test", created_at=1.0)
    await log.restore("t1", events, Snapshot(2500, state().state), summary)
    stored = await backend.log().load("t1")
    assert stored.snapshot is not None and stored.snapshot.seq == 2500 and stored.tail == []
    assert await log.version("t1") == 2500
    assert [data for _, data in await log.read("t1", 0, 5000)] == events
    assert await log.summaries() == [summary]
    with pytest.raises(AlreadyExists):
        await log.restore("t1", events[:1], Snapshot(1, state().state), summary)
    assert await log.version("t1") == 2500


async def test_the_clock_lease_is_held_by_one_process_at_a_time(backend: Backend) -> None:
    a, b = backend.lease(), backend.lease()
    assert await a.hold("a", 30.0)
    assert await a.hold("a", 30.0)  # renewed
    assert not await b.hold("b", 30.0)
    await b.release("b")  # not b's to release
    assert not await b.hold("b", 30.0)
    await a.release("a")
    assert await b.hold("b", 30.0)
    assert not await a.hold("a", 30.0)


async def test_a_lease_not_renewed_runs_out_and_another_takes_it(backend: Backend) -> None:
    a, b = backend.lease(), backend.lease()
    assert await a.hold("a", 0.05)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 5.0
    while not await b.hold("b", 30.0):
        assert loop.time() < deadline, "the lease never ran out"
        await asyncio.sleep(0.02)
    assert not await a.hold("a", 0.05)
