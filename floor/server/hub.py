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
from .fanout import frame
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

    #: True for this process's own followers (not screens).
    internal: bool

    def push(self, data: bytes, framed: bytes | None = None) -> bool:
        """Send without waiting (``framed``: the same message as a websocket frame, built
        once for everybody); False when the screen is too far behind."""
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
        #: On a cluster: the read pending on each shard's pub/sub connection, by node name.
        self._reads: dict[str, asyncio.Task[dict[str, Any] | None]] = {}
        self._wake = asyncio.Event()
        #: Set when a subscription may have added a shard to read (on a cluster).
        self._new_shard = asyncio.Event()
        self._snapshots: dict[str, tuple[int, bytes]] = {}
        store.on_written = self._written
        store.before_load = self._subscribe

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
        await self._cancel_reads()
        with contextlib.suppress(Exception):
            await self._pubsub.aclose()

    @property
    def clients(self) -> int:
        """Screens connected to this process (not its own followers)."""
        return sum(not sub.internal for subs in self._subs.values() for sub in subs)

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
        """Follow a tournament's batches; a copy held from before is dropped (reloaded)."""
        if await self._subscribe(tid):
            # Anything written before the subscription took effect is not in our copy.
            self.store.forget(tid)

    async def _subscribe(self, tid: str) -> bool:
        """Subscribe to the tournament's channel; True if it was not followed yet.

        The store awaits this before it loads a tournament, so a process keeps every
        tournament it holds current, also one it only answers reads for.
        """
        if tid in self._channels:
            return False
        channel = Keys(tid).channel
        self._channels[tid] = channel
        try:
            await self._pubsub.ssubscribe(channel)
        except BaseException:
            # Not following after all (Redis away, a failover): forget the channel, or the
            # next join would take it as followed and its screens would get nothing live.
            self._channels.pop(tid, None)
            raise
        self._wake.set()
        self._new_shard.set()
        return True

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

    def _deliver(
        self, sub: Subscriber, first: int, last: int, data: bytes, framed: bytes | None = None
    ) -> bool:
        """Hand the batch to ``sub`` if it is the next one it needs; True if sent."""
        if sub.pending is not None:
            sub.pending.append((first, last, data))
            return False
        if last <= sub.seq:
            return False
        if first > sub.seq + 1:
            sub.pending = [(first, last, data)]
            since = sub.seq
            asyncio.get_running_loop().create_task(self._catch_up_safely(sub, since))
            return False
        if sub.push(data, framed):
            sub.seq = last
            self.metrics.messages_out += 1
            return True
        return False

    async def _catch_up_safely(self, sub: Subscriber, since: int | None) -> None:
        try:
            await self._catch_up(sub, since)
        except Exception:
            log.exception("catching up a screen failed", extra={"tournament": sub.tid})
            sub.drop(1011, "could not catch up: reconnect")

    # The reader and the heartbeat ----------------------------------------------------------

    async def _read(self) -> None:
        backoff = 0.05
        lost = False
        while True:
            if not self._channels:
                self._wake.clear()
                await self._wake.wait()
                continue
            try:
                if lost:
                    await self._resubscribe()
                    lost = False
                messages = await self._next_messages()
                backoff = 0.05
            except Exception as e:
                # Whatever the client raises here (the connection lost, a primary failed
                # over, a cluster slot not served for a moment, a pub/sub left without a
                # connection by a failed subscribe) the reader must not die: it starts
                # over with a fresh subscription until one holds.
                log.warning("pub/sub connection lost, reconnecting", extra={"error": str(e)})
                lost = True
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, 2.0)
                continue
            for msg in messages:
                if msg.get("type") == "smessage":
                    await self._on_batch(msg["data"])

    async def _next_messages(self) -> list[dict[str, Any]]:
        if not self._cluster:
            msg: dict[str, Any] | None = await self._pubsub.get_message(timeout=1.0)
            return [] if msg is None else [msg]
        # A cluster keeps one pub/sub connection per shard. ClusterPubSub's own
        # get_sharded_message polls them in turn, waiting out the timeout on each, so a
        # batch on one shard would wait for the quiet ones (two seconds with three
        # primaries). Instead one read is kept pending on every shard's connection and
        # whichever answers first is taken; the others stay pending for the next call.
        pubsub = self._pubsub
        for name in list(pubsub.node_pubsub_mapping):
            node = self.redis.get_node(node_name=name)  # type: ignore[attr-defined]
            if name not in self._reads and node is not None:
                self._reads[name] = asyncio.create_task(
                    pubsub.get_sharded_message(target_node=node, timeout=1.0)
                )
        if not self._reads:
            await asyncio.sleep(0.05)  # subscribing right now: nothing to read yet
            return []
        # Also wake when a new shard is subscribed, to start reading it too.
        self._new_shard.clear()
        new_shard = asyncio.ensure_future(self._new_shard.wait())
        try:
            await asyncio.wait(
                [*self._reads.values(), new_shard], return_when=asyncio.FIRST_COMPLETED
            )
        finally:
            new_shard.cancel()
        out: list[dict[str, Any]] = []
        error: BaseException | None = None
        for name, task in list(self._reads.items()):
            if task.done():
                del self._reads[name]
                if task.cancelled():
                    continue
                if task.exception() is not None:
                    error = error or task.exception()
                elif (msg := task.result()) is not None:
                    out.append(msg)
        if error is not None:
            raise error  # what came with it is caught up after resubscribing
        return out

    async def _cancel_reads(self) -> None:
        reads, self._reads = list(self._reads.values()), {}
        for task in reads:
            task.cancel()
        await asyncio.gather(*reads, return_exceptions=True)

    async def _resubscribe(self) -> None:
        """After losing pub/sub, batches may have been missed: subscribe afresh (raises
        when that fails too), then give every screen a fresh snapshot.

        A snapshot, not the events after the screen's number: the loss may have been a
        failover, and replication is asynchronous, so the newest events a screen was sent
        (published by the old primary) may be missing from the new primary's log, and
        other events may take their numbers there. The screen replaces its state.
        """
        await self._cancel_reads()
        with contextlib.suppress(Exception):
            await self._pubsub.aclose()
        if self._cluster:
            # A shard's primary may have failed over. Commands refresh the client's slot
            # map when they hit the dead node, but a subscription routes by the cached
            # map alone: without this it would keep asking the dead node for its slots.
            await self.redis.nodes_manager.initialize()  # type: ignore[attr-defined]
        self._pubsub = self.redis.pubsub()
        channels = list(self._channels.values())
        if channels:
            await self._pubsub.ssubscribe(*channels)
        for tid in self._channels:
            self.store.forget(tid)  # our copy may hold what the log lost, too
        for subs in list(self._subs.values()):
            for sub in list(subs):
                if sub.pending is None:
                    sub.pending = []
                    asyncio.get_running_loop().create_task(self._catch_up_safely(sub, None))

    async def _on_batch(self, data: bytes) -> None:
        try:
            header = batch_header(data)
        except msgspec.DecodeError:
            log.error("an unreadable batch on pub/sub was ignored")
            return
        await self.store.apply_published(data)
        self._fan_out(header.tournament, header.from_, header.to, data)

    def _written(self, data: bytes) -> None:
        """A batch this process just wrote: to its screens at once, before the writer's own
        answer (its phone is one of the screens too); the pub/sub echo is then skipped (the
        screens already have those numbers), while other processes' screens get the echo."""
        header = batch_header(data)
        self._fan_out(header.tournament, header.from_, header.to, data)

    def _fan_out(self, tid: str, first: int, last: int, data: bytes) -> None:
        subs = self._subs.get(tid)
        if not subs:
            return
        start = time.perf_counter()
        framed = frame(data)
        sent = sum(
            self._deliver(sub, first, last, data, framed) and not sub.internal for sub in list(subs)
        )
        if sent:  # the echo of a batch already handed out costs nothing worth counting
            spent = time.perf_counter() - start
            self.metrics.fanout.observe(spent)
            self.metrics.fanout_per_client.observe(spent / sent)

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(self.heartbeat)
            data = _encoder.encode(Heartbeat(server_time=self.clock()))
            framed = frame(data)
            for subs in list(self._subs.values()):
                for sub in list(subs):
                    sub.push(data, framed)
