"""The chain's heads a process keeps (``store.heads``): once asked for, a head follows
the batches the process writes with no read of the log, and is always the head the whole log
gives; one that missed a batch reads what it missed."""

from __future__ import annotations

import random
from typing import Any

import redis.asyncio as aioredis

from floor.engine import chain
from floor.engine.autopilot import next_step
from floor.redisdb.log import RedisLog
from floor.store.heads import ChainHeads
from floor.store.service import Service
from tests.integration.test_backup import played


class Counted(RedisLog):
    reads = 0

    async def read(self, tid: str, after: int, limit: int) -> Any:
        Counted.reads += 1
        return await super().read(tid, after, limit)


async def whole_log_head(store: Service, tid: str, version: int) -> bytes:
    events = await store.log.read(tid, 0, version)
    return chain.head(chain.genesis(tid), (data for _, data in events))


async def test_a_head_follows_the_batches_written_without_reading(redis: aioredis.Redis) -> None:
    store = Service(Counted(redis), rng=random.Random(2))
    await played(store, "heads", players=30, steps=10)
    heads = ChainHeads(store.log)
    store.listen(heads.observe)
    _, version = await store.tournament("heads")
    assert await heads.head("heads", version) == await whole_log_head(store, "heads", version)
    rng = random.Random(2)
    for i in range(40):
        t, _ = await store.tournament("heads")
        step = next_step(t, rng)
        assert step is not None
        await store.execute("heads", step, f"more-{i}")
        Counted.reads = 0
        _, version = await store.tournament("heads")
        head = await heads.head("heads", version)
        assert Counted.reads == 0, "the head was read from the log, not followed"
        assert head == await whole_log_head(store, "heads", version)


async def test_a_head_that_missed_a_batch_reads_what_it_missed(redis: aioredis.Redis) -> None:
    store = Service(Counted(redis), rng=random.Random(3))
    await played(store, "missed", players=30, steps=10)
    heads = ChainHeads(store.log)  # not listening: every batch is missed
    _, before = await store.tournament("missed")
    await heads.head("missed", before)
    await played_more(store, "missed", 25)
    _, version = await store.tournament("missed")
    Counted.reads = 0
    assert await heads.head("missed", version) == await whole_log_head(store, "missed", version)
    assert Counted.reads >= 1
    # A batch that does not follow the head kept is not taken: the head stays right.
    heads.observe(b'{"type":"events","tournament":"missed","from":1,"to":1,"events":[]}')
    heads.observe(b"not json")
    assert await heads.head("missed", version) == await whole_log_head(store, "missed", version)


async def played_more(store: Service, tid: str, steps: int) -> None:
    rng = random.Random(9)
    for i in range(steps):
        t, _ = await store.tournament(tid)
        step = next_step(t, rng)
        if step is None:
            return
        await store.execute(tid, step, f"later-{i}")
