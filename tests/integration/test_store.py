"""The command service on the Redis log against a real Valkey server: the log, snapshots,
conflicts, idempotent retries, what other processes publish."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Callable

import msgspec
import pytest
import pytest_asyncio
import redis.asyncio as aioredis

from floor.engine import commands as cmd
from floor.engine.autopilot import next_step
from floor.engine.rules import Rules
from floor.engine.state import Tournament
from floor.protocol import decode_batch, decode_event
from floor.redisdb.bus import RedisBus
from floor.redisdb.connection import connect
from floor.redisdb.keys import Keys
from floor.redisdb.log import RedisLog
from floor.store.errors import AlreadyExists, IdReused, NotFound, Unavailable
from floor.store.ports import Snapshot
from floor.store.service import Service

RULES = msgspec.convert({"game": "holdem", "seats": 9, "final_table": 9}, Rules)


def encoded(t: Tournament) -> bytes:
    return msgspec.msgpack.encode(t.state)


async def seated(store: Service, tid: str, players: int) -> None:
    await store.create(tid, "Test", RULES)
    for i in range(players):
        await store.execute(tid, cmd.Register(name=f"Player {i}", player=f"P{i}"), f"reg-{i}")
    outcome = await store.execute(tid, cmd.DrawSeats(), "draw")
    assert outcome.ok


async def play(store: Service, tid: str, steps: int, seed: int = 3) -> int:
    rng = random.Random(seed)
    done = 0
    for i in range(steps):
        t, _ = await store.tournament(tid)
        command = next_step(t, rng)
        if command is None:
            break
        outcome = await store.execute(tid, command, f"step-{seed}-{i}")
        assert outcome.ok, outcome
        done += 1
    return done


@pytest.fixture
def store(redis: aioredis.Redis) -> Service:
    return Service(RedisLog(redis), rng=random.Random(1), snapshot_every=25)


#: Another server process: its own client, log and copies (seeded).
Process = Callable[[int], Service]


@pytest_asyncio.fixture
async def process(redis_url: str, redis: aioredis.Redis) -> AsyncIterator[Process]:
    clients: list[aioredis.Redis] = []

    def make(seed: int) -> Service:
        clients.append(connect(redis_url))
        return Service(RedisLog(clients[-1]), rng=random.Random(seed))

    yield make
    for client in clients:
        await client.aclose()


async def test_reloading_gives_exactly_the_state_held_in_memory(store: Service) -> None:
    await seated(store, "t1", 60)
    assert await play(store, "t1", 150) == 150
    held, version = await store.tournament("t1")
    loaded, loaded_version = await store.load("t1")
    assert loaded_version == version
    assert encoded(loaded) == encoded(held)
    assert loaded.plan == held.plan


async def test_replaying_the_whole_stream_equals_the_snapshot_plus_tail(
    store: Service, redis: aioredis.Redis
) -> None:
    await seated(store, "t1", 40)
    await play(store, "t1", 90)
    keys = Keys("t1")
    raw = await redis.xrange(keys.events, "-", "+")
    assert [int(i.split(b"-")[0]) for i, _ in raw] == list(range(1, len(raw) + 1))
    replay = Tournament.fold(decode_event(f[b"e"]) for _, f in raw)
    loaded, version = await store.load("t1")
    assert version == len(raw)
    assert encoded(replay) == encoded(loaded)


async def test_a_snapshot_is_stored_every_n_events(store: Service, redis: aioredis.Redis) -> None:
    await seated(store, "t1", 30)
    await play(store, "t1", 60)
    keys = Keys("t1")
    meta = await redis.hgetall(keys.meta)
    version, seq = int(meta[b"version"]), int(meta[b"snapshot"])
    # Taken by the write that crossed the last multiple of 25.
    assert 25 * (version // 25) <= seq <= version
    snapshot = msgspec.msgpack.decode(await redis.get(keys.snapshot), type=Snapshot)
    assert snapshot.seq == seq
    raw = await redis.xrange(keys.events, "-", f"{seq}-0")
    replay = Tournament.fold(decode_event(f[b"e"]) for _, f in raw)
    assert msgspec.msgpack.encode(snapshot.state) == encoded(replay)


async def test_one_round_trip_per_command_when_the_state_is_held(store: Service) -> None:
    await seated(store, "t1", 30)
    assert isinstance(store.log, RedisLog)
    before = store.log.round_trips
    outcome = await store.execute("t1", cmd.Bust(player="P5"), "bust-5")
    assert outcome.ok
    assert store.log.round_trips - before == 1


async def test_two_floorpeople_busting_one_player_at_once_one_wins_one_is_told(
    process: Process, redis: aioredis.Redis
) -> None:
    a, b = process(1), process(2)
    await seated(a, "t1", 30)
    await b.tournament("t1")  # both processes hold the same version
    results = await asyncio.gather(
        a.execute("t1", cmd.Bust(player="P7"), "floor-a-1"),
        b.execute("t1", cmd.Bust(player="P7"), "floor-b-1"),
    )
    assert sorted(r.ok for r in results) == [False, True]
    refused = next(r for r in results if not r.ok)
    assert refused.error is not None
    assert refused.error.message == "P7 is already out"
    busts = [
        e
        for _, f in await redis.xrange(Keys("t1").events, "-", "+")
        if (e := decode_event(f[b"e"])) and type(e).__name__ == "PlayerBusted"
    ]
    assert len(busts) == 1


async def test_a_retried_command_is_answered_with_the_first_result_and_applied_once(
    process: Process,
) -> None:
    a, b = process(1), process(2)
    await seated(a, "t1", 30)
    first = await a.execute("t1", cmd.Bust(player="P1"), "phone-7:42")
    again = await a.execute("t1", cmd.Bust(player="P1"), "phone-7:42")
    elsewhere = await b.execute("t1", cmd.Bust(player="P1"), "phone-7:42")
    assert first.ok and not first.duplicate
    for retry in (again, elsewhere):
        assert retry.duplicate
        assert (retry.ok, retry.first, retry.last) == (first.ok, first.first, first.last)
    _, version = await a.load("t1")
    assert version == first.last


async def test_a_retried_refusal_is_answered_with_the_first_refusal(store: Service) -> None:
    await seated(store, "t1", 20)
    first = await store.execute("t1", cmd.Bust(player="nobody"), "c-1")
    again = await store.execute("t1", cmd.Bust(player="nobody"), "c-1")
    assert not first.ok and first.error is not None
    assert first.error.code == "unknown_player"
    assert again.duplicate and again.error == first.error


async def test_a_refusal_decided_on_a_copy_that_was_behind_is_decided_again(
    process: Process,
) -> None:
    """Process B still holds the tournament from before A registered a late player: B's
    bust of that player is decided again on the new state, and neither it nor its retry
    is answered with the stale "unknown player"."""
    a, b = process(1), process(2)
    await seated(a, "t1", 20)
    await b.tournament("t1")
    late = await a.execute("t1", cmd.Register(name="Late Comer", player="LATE"), "reg-late")
    assert late.ok
    first = await b.execute("t1", cmd.Bust(player="LATE"), "bust-late")
    again = await b.execute("t1", cmd.Bust(player="LATE"), "bust-late")
    assert first.ok, first
    assert again.duplicate and again.ok and (again.first, again.last) == (first.first, first.last)
    t, _ = await a.load("t1")
    assert t.player("LATE").busted


async def test_a_command_id_reused_for_another_command_is_refused_and_applies_nothing(
    store: Service,
) -> None:
    await seated(store, "t1", 20)
    first = await store.execute("t1", cmd.LockSeat(player="P1"), "k1")
    refused_first = await store.execute("t1", cmd.Bust(player="nobody"), "k2")
    _, version = await store.load("t1")

    for other, cid in ((cmd.LockSeat(player="P2"), "k1"), (cmd.Bust(player="P3"), "k2")):
        with pytest.raises(IdReused) as caught:
            await store.execute("t1", other, cid)
        assert f"the command id {cid} was already used for another command" in caught.value.message
    t, after = await store.load("t1")

    assert first.ok and not refused_first.ok
    assert after == version
    assert not t.player("P2").locked and not t.player("P3").busted


async def test_a_second_process_follows_the_published_events(
    process: Process, redis_url: str
) -> None:
    writer, reader = process(1), process(2)
    await seated(writer, "t1", 30)
    await reader.tournament("t1")
    bus = RedisBus(connect(redis_url))
    assert await bus.follow("t1")
    assert not await bus.follow("t1")
    await writer.execute("t1", cmd.Bust(player="P2"), "b-2")
    await writer.execute("t1", cmd.Bust(player="P3"), "b-3")
    incoming = bus.incoming()
    for _ in range(2):
        data = await asyncio.wait_for(anext(incoming), 5.0)
        assert isinstance(data, bytes), data
        batch = decode_batch(data)
        assert batch.events[0].seq == batch.from_
        await reader.apply_published(data)
    w, wv = await writer.tournament("t1")
    r, rv = await reader.tournament("t1")
    assert (rv, encoded(r)) == (wv, encoded(w))
    assert r.plan == w.plan
    await incoming.aclose()
    await bus.close()
    await bus.redis.aclose()


@pytest.mark.usefixtures("redis")  # an empty keyspace
async def test_the_process_that_creates_a_tournament_follows_what_others_write(
    redis_url: str,
) -> None:
    """The creator keeps the new tournament's copy, read until it writes again: it hears
    the batches another process writes from the first, with no reload."""
    clients = [connect(redis_url) for _ in range(2)]
    buses = [RedisBus(connect(redis_url)) for _ in range(2)]
    creator, other = (
        Service(RedisLog(c), bus=b, rng=random.Random(i))
        for i, (c, b) in enumerate(zip(clients, buses, strict=True))
    )
    try:
        await creator.create("t1", "Test", RULES)
        assert buses[0].following("t1")
        held, _ = await creator.tournament("t1")
        incoming = buses[0].incoming()
        await other.execute("t1", cmd.Register(name="Late Comer", player="L1"), "reg-l1")
        # The creation's own batch may come first (heard since the follow), then the other's.
        version = 1
        while version < 2:
            data = await asyncio.wait_for(anext(incoming), 5.0)
            assert isinstance(data, bytes), data
            await creator.apply_published(data)
            _, version = await creator.tournament("t1")
        t, version = await creator.tournament("t1")
        assert t is held  # folded in place, not reloaded
        assert version == 2 and t.player("L1").name == "Late Comer"
        await incoming.aclose()
    finally:
        for bus in buses:
            await bus.close()
            await bus.redis.aclose()
        for c in clients:
            await c.aclose()


async def test_events_since_gives_exactly_what_was_missed_or_none_when_too_old(
    store: Service,
) -> None:
    await seated(store, "t1", 20)
    _, version = await store.tournament("t1")
    await store.execute("t1", cmd.Bust(player="P1"), "b-1")
    await store.execute("t1", cmd.Bust(player="P2"), "b-2")
    missed = await store.events_since("t1", version)
    assert missed is not None
    assert [type(decode_event(e)).__name__ for e in missed][:2] == ["PlayerBusted"] * 2
    assert await store.events_since("t1", 0, limit=5) is None


async def test_tournaments_are_listed_and_archived_and_ids_are_unique(store: Service) -> None:
    await store.create("spring-main", "Spring Main Event", RULES)
    await store.create("side-1", "Side event", RULES)
    assert [s.id for s in await store.summaries()] == ["spring-main", "side-1"]
    with pytest.raises(AlreadyExists):
        await store.create("side-1", "Again", RULES, command_id="another")
    await store.archive("side-1")
    assert [s.id for s in await store.summaries()] == ["spring-main"]
    assert [s.status for s in await store.summaries(archived=True)] == ["archived"]


async def test_an_unknown_tournament_is_not_found(store: Service) -> None:
    with pytest.raises(NotFound, match="there is no tournament nope"):
        await store.execute("nope", cmd.Bust(player="P1"), "x")


async def test_redis_unreachable_fails_fast_with_a_clear_error() -> None:
    client = connect("redis://127.0.0.1:1", connect_timeout=0.5)
    store = Service(RedisLog(client), rng=random.Random(1))
    loop = asyncio.get_running_loop()
    start = loop.time()
    with pytest.raises(Unavailable, match="Redis is unreachable"):
        await store.execute("t1", cmd.Bust(player="P1"), "x")
    assert loop.time() - start < 3.0
    await client.aclose()


async def test_a_batch_published_while_the_copy_is_loading_is_not_lost(process: Process) -> None:
    writer, reader = process(1), process(2)
    await seated(writer, "t1", 30)
    published: list[bytes] = []
    writer.listen(published.append)
    real_load = reader.load

    async def load_then_a_batch_lands(tid: str) -> tuple[Tournament, int]:
        loaded = await real_load(tid)  # the copy as Redis has it now ...
        await writer.execute(tid, cmd.Bust(player="P4"), "b-4")  # ... then a write lands
        await reader.apply_published(published[-1])  # and its batch arrives mid-load
        return loaded

    reader.load = load_then_a_batch_lands  # type: ignore[method-assign]
    held, version = await reader.tournament("t1")
    w, wv = await writer.tournament("t1")
    assert version == wv
    assert encoded(held) == encoded(w)
    assert held.player("P4").busted
