"""The bus on Redis: each tournament's batches on a sharded pub/sub channel.

The append script publishes a command's batch in the same atomic step as its events
(``floor.redisdb.log``); this process subscribes to the channels of the tournaments it holds
and reads what arrives. A lost connection (a restart, a failover, a cluster slot not served
for a moment) is retried here with backoff until a fresh subscription holds, then told to
the reader as ``Resubscribed``: what was published meanwhile is lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Any

import redis.exceptions as rex
from redis.asyncio.client import PubSub

from ..store.ports import Resubscribed
from .connection import Client, is_cluster
from .errors import REDIS_DOWN, unreachable
from .keys import Keys

log = logging.getLogger(__name__)


class _WatchedPubSub(PubSub):
    """A pub/sub connection that tells when redis-py reconnected it by itself: it subscribes
    again on its own, and what was published meanwhile is lost without a word."""

    reconnected = False

    async def on_connect(self, connection: Any) -> None:
        # Called on reconnections only: the first connection is made before it is registered.
        self.reconnected = True
        await super().on_connect(connection)


class RedisBus:
    """``Bus`` on Redis or Valkey (one server, Sentinel, or a cluster)."""

    def __init__(self, redis: Client) -> None:
        self.redis = redis
        self._channels: dict[str, str] = {}
        self._cluster = is_cluster(redis)
        self._pubsub: Any = self._new_pubsub()
        #: On a cluster: the read pending on each shard's pub/sub connection, by node name.
        self._reads: dict[str, asyncio.Task[dict[str, Any] | None]] = {}
        self._wake = asyncio.Event()
        #: Set when a subscription may have added a shard to read (on a cluster).
        self._new_shard = asyncio.Event()

    def following(self, tid: str) -> bool:
        return tid in self._channels

    async def follow(self, tid: str) -> bool:
        if tid in self._channels:
            return False
        channel = Keys(tid).channel
        self._channels[tid] = channel
        try:
            await self._pubsub.ssubscribe(channel)
        except BaseException as e:
            # Not following after all (Redis away, a failover): forget the channel, or the
            # next follow would take it as followed and nothing would arrive for it.
            self._channels.pop(tid, None)
            if isinstance(e, (rex.RedisError, *REDIS_DOWN)):
                raise unreachable(e) from e
            raise
        self._wake.set()
        self._new_shard.set()
        return True

    async def unfollow(self, tid: str) -> None:
        channel = self._channels.pop(tid, None)
        if channel is not None:
            with contextlib.suppress(rex.RedisError, OSError):
                await self._pubsub.sunsubscribe(channel)

    async def close(self) -> None:
        await self._cancel_reads()
        with contextlib.suppress(Exception):
            await self._pubsub.aclose()

    async def incoming(self) -> AsyncIterator[bytes | Resubscribed]:
        backoff = 0.05
        lost = False
        while True:
            if not self._channels:
                self._wake.clear()
                await self._wake.wait()
                continue
            resubscribed = False
            try:
                if lost:
                    await self._resubscribe()
                    lost, resubscribed = False, True
                messages = [] if resubscribed else await self._next_messages()
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
            if getattr(self._pubsub, "reconnected", False):
                self._pubsub.reconnected = False
                resubscribed = True
            if resubscribed:
                yield Resubscribed()
            for msg in messages:
                if msg.get("type") == "smessage":
                    yield msg["data"]

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

    def _new_pubsub(self) -> Any:
        if self._cluster:
            # One connection per shard, made inside the client: a lost one raises instead.
            return self.redis.pubsub()
        return _WatchedPubSub(self.redis.connection_pool)

    async def _resubscribe(self) -> None:
        """Subscribe afresh on a new pub/sub connection (raises when that fails too)."""
        await self._cancel_reads()
        with contextlib.suppress(Exception):
            await self._pubsub.aclose()
        if self._cluster:
            # A shard's primary may have failed over. Commands refresh the client's slot
            # map when they hit the dead node, but a subscription routes by the cached
            # map alone: without this it would keep asking the dead node for its slots.
            await self.redis.nodes_manager.initialize()  # type: ignore[attr-defined]
        self._pubsub = self._new_pubsub()
        channels = list(self._channels.values())
        if channels:
            await self._pubsub.ssubscribe(*channels)
