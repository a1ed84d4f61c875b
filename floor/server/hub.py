"""The fan-out hub: every batch of events, from any process, to every screen of this process.

Each process subscribes (sharded pub/sub) to the tournaments its screens watch. A batch
arrives as the bytes the writing process encoded; the hub folds it into this process's copy
of the tournament and hands the same bytes to every screen, without waiting on any of them:
each screen has a bounded queue, and one that falls behind is dropped and resynchronises
when it reconnects. Screens that miss a batch (a gap in the sequence numbers) are caught up
from the event log, or sent a fresh snapshot when too much is missing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any, Protocol

import msgspec
import redis.asyncio as aioredis
import redis.exceptions as rex

from ..engine.state import Tournament
from ..protocol import batch_header, encode_derived, events_message
from ..store.connection import is_cluster
from ..store.keys import Keys
from ..store.store import Store
from . import views
from .metrics import Metrics

log = logging.getLogger(__name__)

#: More missing events than this and a screen gets a snapshot instead of a catch-up.
CATCH_UP_LIMIT = 2000


class Subscriber(Protocol):
    """A screen (or an internal follower) watching one tournament."""

    tid: str
    #: The last sequence number it has been given.
    seq: int
    #: Batches held back while it is being caught up; None when live.
    pending: list[tuple[int, int, bytes]] | None

    def push(self, data: bytes) -> bool:
        """Queue a message without waiting; False when the screen is too far behind."""
        ...

    def drop(self, code: int, reason: str) -> None:
        """Disconnect: the screen reconnects and resynchronises."""
        ...


class Heartbeat(msgspec.Struct, frozen=True, tag="heartbeat", tag_field="type"):
    server_time: float


_encoder = msgspec.json.Encoder()


class Hub:
    def __init__(
        self,
        store: Store,
        redis: aioredis.Redis,
        metrics: Metrics,
        *,
        heartbeat: float = 10.0,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.redis = redis
        self.metrics = metrics
        self.heartbeat = heartbeat
        self.clock = clock
        self._subs: dict[str, set[Subscriber]] = {}
        self._channels: dict[str, str] = {}
        self._pubsub: Any = redis.pubsub()
        self._cluster = is_cluster(redis)
        self._tasks: list[asyncio.Task[None]] = []
        self._wake = asyncio.Event()
        self._snapshots: dict[str, tuple[int, bytes]] = {}

    # Life cycle ------------------------------------------------------------------------------

    async def start(self) -> None:
        self._tasks = [
            asyncio.create_task(self._read(), name="hub-reader"),
            asyncio.create_task(self._beat(), name="hub-heartbeat"),
        ]

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        with contextlib.suppress(Exception):
            await self._pubsub.aclose()

    @property
    def clients(self) -> int:
        return sum(len(s) for s in self._subs.values())

    # Joining and leaving ---------------------------------------------------------------------

    async def join(self, sub: Subscriber, since: int | None) -> None:
        """Start following: a snapshot (or what was missed since ``since``), then live."""
        tid = sub.tid
        await self._follow(tid)
        sub.pending = []
        self._subs.setdefault(tid, set()).add(sub)
        try:
            await self._catch_up(sub, since)
        except BaseException:
            self.leave(sub)
            raise

    def resync(self, sub: Subscriber, since: int) -> None:
        """The screen asked again (it saw a gap): catch it up from ``since``."""
        if sub.pending is None:
            sub.pending = []
            asyncio.get_running_loop().create_task(self._catch_up_safely(sub, since))

    def leave(self, sub: Subscriber) -> None:
        subs = self._subs.get(sub.tid)
        if subs is None:
            return
        subs.discard(sub)
        if not subs:
            del self._subs[sub.tid]
            asyncio.get_running_loop().create_task(self._unfollow_later(sub.tid))

    async def _follow(self, tid: str) -> None:
        if tid in self._channels:
            return
        channel = Keys(tid).channel
        self._channels[tid] = channel
        await self._pubsub.ssubscribe(channel)
        self._wake.set()
        # Anything written before the subscription took effect is not in our copy.
        self.store.forget(tid)

    async def _unfollow_later(self, tid: str, grace: float = 30.0) -> None:
        await asyncio.sleep(grace)
        if tid in self._subs or tid not in self._channels:
            return
        channel = self._channels.pop(tid)
        self._snapshots.pop(tid, None)
        with contextlib.suppress(rex.RedisError, OSError):
            await self._pubsub.sunsubscribe(channel)
        # Without the channel our copy goes stale: reload it when next needed.
        self.store.forget(tid)

    # Catching up ---------------------------------------------------------------------------

    async def _catch_up(self, sub: Subscriber, since: int | None) -> None:
        """Bring ``sub`` to the current version, then release the batches held meanwhile."""
        tid = sub.tid
        while True:
            t, version = await self.store.tournament(tid)
            missed = None
            if since is not None and since <= version:
                missed = await self.store.events_since(tid, since, limit=CATCH_UP_LIMIT)
                t, version = await self.store.tournament(tid)
            if missed is not None and since is not None and len(missed) >= version - since:
                missed = missed[: version - since]
                if missed:
                    sub.push(events_message(tid, since + 1, missed, encode_derived(t)))
                sub.seq = version
            else:
                sub.push(self._snapshot(tid, t, version))
                sub.seq = version
            self.metrics.resyncs += 1
            held = sub.pending or []
            sub.pending = None
            gap = False
            for first, last, data in held:
                if last <= sub.seq:
                    continue
                if first > sub.seq + 1:
                    gap = True
                    break
                sub.push(data)
                sub.seq = last
            if not gap:
                return
            sub.pending = []
            since = sub.seq

    def _snapshot(self, tid: str, t: Tournament, version: int) -> bytes:
        """Encoded once per version, however many screens join at that version."""
        cached = self._snapshots.get(tid)
        if cached is not None and cached[0] == version:
            return cached[1]
        data = views.snapshot(tid, t, version)
        self._snapshots[tid] = (version, data)
        return data

    def _deliver(self, sub: Subscriber, first: int, last: int, data: bytes) -> None:
        if sub.pending is not None:
            sub.pending.append((first, last, data))
            return
        if last <= sub.seq:
            return
        if first > sub.seq + 1:
            sub.pending = [(first, last, data)]
            since = sub.seq
            asyncio.get_running_loop().create_task(self._catch_up_safely(sub, since))
            return
        if sub.push(data):
            sub.seq = last
            self.metrics.messages_out += 1

    async def _catch_up_safely(self, sub: Subscriber, since: int) -> None:
        try:
            await self._catch_up(sub, since)
        except Exception:
            log.exception("catching up a screen failed", extra={"tournament": sub.tid})
            sub.drop(1011, "could not catch up: reconnect")

    # The reader and the heartbeat ----------------------------------------------------------

    async def _read(self) -> None:
        backoff = 0.05
        while True:
            if not self._channels:
                self._wake.clear()
                await self._wake.wait()
                continue
            try:
                msg = await self._next_message()
                backoff = 0.05
            except (rex.ConnectionError, rex.TimeoutError, OSError) as e:
                log.warning("pub/sub connection lost, reconnecting", extra={"error": str(e)})
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, 2.0)
                await self._resubscribe()
                continue
            if msg is None or msg.get("type") != "smessage":
                continue
            await self._on_batch(msg["data"])

    async def _next_message(self) -> dict[str, Any] | None:
        if self._cluster:
            # A cluster keeps one pub/sub connection per shard; this reads from all of them.
            msg: dict[str, Any] | None = await self._pubsub.get_sharded_message(timeout=1.0)
        else:
            msg = await self._pubsub.get_message(timeout=1.0)
        return msg

    async def _resubscribe(self) -> None:
        """After losing pub/sub, batches may have been missed: catch every screen up."""
        with contextlib.suppress(rex.RedisError, OSError):
            await self._pubsub.aclose()
        self._pubsub = self.redis.pubsub()
        channels = list(self._channels.values())
        try:
            if channels:
                await self._pubsub.ssubscribe(*channels)
        except (rex.RedisError, OSError):
            return
        for tid, subs in list(self._subs.items()):
            self.store.forget(tid)
            for sub in list(subs):
                if sub.pending is None:
                    sub.pending = []
                    asyncio.get_running_loop().create_task(self._catch_up_safely(sub, sub.seq))

    async def _on_batch(self, data: bytes) -> None:
        try:
            header = batch_header(data)
        except msgspec.DecodeError:
            log.error("an unreadable batch on pub/sub was ignored")
            return
        await self.store.apply_published(data)
        subs = self._subs.get(header.tournament)
        if not subs:
            return
        start = time.perf_counter()
        for sub in list(subs):
            self._deliver(sub, header.from_, header.to, data)
        spent = time.perf_counter() - start
        self.metrics.fanout.observe(spent)
        self.metrics.fanout_per_client.observe(spent / len(subs))

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(self.heartbeat)
            data = _encoder.encode(Heartbeat(server_time=self.clock()))
            for subs in list(self._subs.values()):
                for sub in list(subs):
                    sub.push(data)
