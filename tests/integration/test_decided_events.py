"""The service hands its caller the events a command wrote (``Service.execute``'s
``decided``), exactly as the log holds them: the desk builds the seat card from them without
reading them back. A retry answered with the first outcome, a refusal and a race lost to
another process hand back nothing that was not written by that call."""

from __future__ import annotations

import random

import msgspec
import redis.asyncio as aioredis

from floor.engine import commands as cmd
from floor.engine.events import Event, PlayerRegistered, PlayerSeated
from floor.engine.rules import Rules
from floor.protocol import decode_event
from floor.redisdb.connection import connect
from floor.redisdb.log import RedisLog
from floor.store.outcome import Outcome
from floor.store.service import Service

RULES = msgspec.convert({"game": "holdem", "seats": 9, "final_table": 9}, Rules)


async def logged(store: Service, tid: str, outcome: Outcome) -> list[Event]:
    page = await store.log.read(tid, outcome.first - 1, outcome.events)
    return [decode_event(data) for _, data in page]


async def drawn(store: Service, tid: str) -> None:
    await store.create(tid, "Test", RULES)
    for i in range(4):
        await store.execute(tid, cmd.Register(name=f"Player {i}", player=f"P{i}"), f"reg-{i}")
    assert (await store.execute(tid, cmd.DrawSeats(), "draw")).ok


async def test_a_registration_hands_back_its_seat_as_the_log_holds_it(
    redis: aioredis.Redis,
) -> None:
    store = Service(RedisLog(redis), rng=random.Random(1))
    await drawn(store, "t1")
    decided: list[Event] = []
    outcome = await store.execute(
        "t1", cmd.Register(name="Late", player="L1"), "late-1", decided=decided
    )
    assert outcome.ok and not outcome.duplicate
    assert decided == await logged(store, "t1", outcome)
    seated = [e for e in decided if isinstance(e, PlayerSeated) and e.player == "L1"]
    assert len(seated) == 1
    t, _ = await store.tournament("t1")
    assert (t.state.players["L1"].table, t.state.players["L1"].seat) == (
        seated[0].table,
        seated[0].seat,
    )
    assert any(isinstance(e, PlayerRegistered) and e.player == "L1" for e in decided)
    # The retry is answered with the first outcome; its events were written by the first call.
    again: list[Event] = []
    retried = await store.execute(
        "t1", cmd.Register(name="Late", player="L1"), "late-1", decided=again
    )
    assert retried.duplicate and (retried.first, retried.last) == (outcome.first, outcome.last)
    assert again == []
    # A refusal writes nothing, and hands back nothing.
    refused: list[Event] = []
    no = await store.execute(
        "t1", cmd.Register(name="Late again", player="L1"), "late-2", decided=refused
    )
    assert not no.ok and refused == []


async def test_a_race_lost_hands_back_only_the_events_written_on_the_new_state(
    redis: aioredis.Redis, redis_url: str
) -> None:
    store = Service(RedisLog(redis), rng=random.Random(1))
    await drawn(store, "t2")
    other_client = connect(redis_url)
    try:
        other = Service(RedisLog(other_client), rng=random.Random(2))
        # The other process holds its copy, then this one writes: the other's next command is
        # decided on a copy that is behind, loses the race, and is decided again.
        await other.tournament("t2")
        assert (await store.execute("t2", cmd.Register(name="A", player="A1"), "a-1")).ok
        decided: list[Event] = []
        outcome = await other.execute(
            "t2", cmd.Register(name="B", player="B1"), "b-1", decided=decided
        )
        assert outcome.ok
        assert decided == await logged(other, "t2", outcome)
        assert [e.player for e in decided if isinstance(e, PlayerRegistered)] == ["B1"]
    finally:
        await other_client.aclose()
