"""The event log on Redis: a Stream per tournament, a snapshot, a meta hash, one append script.

Each tournament is a Redis Stream of events (entry id = sequence number), a snapshot of the
state every so many events, and a meta hash with the version (the last sequence number).
``append.lua`` writes a command whole only if the tournament is still at the version it was
decided at: events, version, snapshot, the result for retries and the publication on the
tournament's channel (the bus, ``floor.redisdb.bus``), in one atomic step and one round trip.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import redis.exceptions as rex

from ..store.errors import AlreadyExists, NotFound, Unavailable
from ..store.outcome import Kept
from ..store.ports import (
    Answered,
    Append,
    Appended,
    Conflict,
    Snapshot,
    Stored,
    Summary,
    Written,
)
from .connection import Client, is_cluster
from .errors import call
from .keys import ARCHIVE, TOURNAMENTS, Keys

_APPEND = (Path(__file__).with_name("append.lua")).read_text()

#: How many replicas must hold a command's events before it is acknowledged (0: none, the
#: default). Redis replicates asynchronously: without this, a command acknowledged just
#: before the primary dies may be missing on the replica Sentinel promotes.
WAIT_REPLICAS_VARIABLE = "FLOOR_REDIS_WAIT_REPLICAS"
#: How long a command waits for them before it is answered 503 (the phone resends it).
WAIT_TIMEOUT = 1.0
#: How long a command's result is kept for retries.
RESULT_TTL = 7 * 24 * 3600

_encode = msgspec.json.Encoder().encode
_decode_kept = msgspec.json.Decoder(Kept).decode
_encode_snapshot = msgspec.msgpack.Encoder().encode
_decode_snapshot = msgspec.msgpack.Decoder(Snapshot).decode
_decode_summary = msgspec.json.Decoder(Summary).decode


def encode_snapshot(snapshot: Snapshot) -> bytes:
    return _encode_snapshot(snapshot)


def decode_snapshot(data: bytes) -> Snapshot:
    return _decode_snapshot(data)


def stream_entries(raw: Any) -> list[tuple[int, bytes]]:
    """Stream entries as (sequence number, event JSON): the entry id is ``<seq>-0``."""
    return [(int(entry_id.split(b"-")[0]), fields[b"e"]) for entry_id, fields in raw or ()]


def wait_replicas_from_env() -> int:
    raw = os.environ.get(WAIT_REPLICAS_VARIABLE, "").strip() or "0"
    if not raw.isdigit():
        raise ValueError(f"{WAIT_REPLICAS_VARIABLE} must be a number of replicas, not {raw!r}")
    return int(raw)


class RedisLog:
    """``EventLog`` on Redis or Valkey (one server, Sentinel, or a cluster)."""

    def __init__(
        self,
        redis: Client,
        *,
        result_ttl: int = RESULT_TTL,
        wait_replicas: int | None = None,
        wait_timeout: float = WAIT_TIMEOUT,
    ) -> None:
        self.redis = redis
        self.result_ttl = result_ttl
        self.wait_replicas = wait_replicas_from_env() if wait_replicas is None else wait_replicas
        self.wait_timeout = wait_timeout
        if self.wait_replicas and is_cluster(redis):
            # WAIT must follow the script on the same connection to the same primary; a
            # cluster client routes a keyless WAIT elsewhere, so it would prove nothing.
            raise ValueError(f"{WAIT_REPLICAS_VARIABLE} is not supported on a cluster")
        self._append = redis.register_script(_APPEND)
        #: Redis round trips made, for the benchmarks.
        self.round_trips = 0

    async def _call(self, awaitable: Any) -> Any:
        self.round_trips += 1
        return await call(awaitable)

    # Reading ---------------------------------------------------------------------------------

    async def exists(self, tid: str) -> bool:
        return bool(await self._call(self.redis.exists(Keys(tid).meta)))

    async def load(self, tid: str) -> Stored:
        keys = Keys(tid)

        async def snapshot_and_version() -> list[Any]:
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.get(keys.snapshot)
                pipe.hget(keys.meta, "version")
                replies: list[Any] = await pipe.execute()
            return replies

        raw_snapshot, raw_version = await self._call(snapshot_and_version())
        if raw_version is None:
            raise NotFound(f"there is no tournament {tid}", field="tournament")
        snapshot = None if raw_snapshot is None else _decode_snapshot(raw_snapshot)
        after = 0 if snapshot is None else snapshot.seq
        raw = await self._call(self.redis.xrange(keys.events, f"{after + 1}-0", "+"))
        return Stored(snapshot=snapshot, tail=stream_entries(raw))

    async def version(self, tid: str) -> int:
        raw = await self._call(self.redis.hget(Keys(tid).meta, "version"))
        return 0 if raw is None else int(raw)

    async def read(self, tid: str, after: int, limit: int) -> list[tuple[int, bytes]]:
        raw = await self._call(
            self.redis.xrange(Keys(tid).events, f"{after + 1}-0", "+", count=limit)
        )
        return stream_entries(raw)

    async def summaries(self, archived: bool = False) -> list[Summary]:
        raw = await self._call(self.redis.hgetall(ARCHIVE if archived else TOURNAMENTS))
        items = [_decode_summary(v) for v in raw.values()]
        return sorted(items, key=lambda s: s.created_at)

    # Writing ---------------------------------------------------------------------------------

    async def result(self, tid: str, command_id: str) -> Kept | None:
        raw = await self._call(self.redis.get(Keys(tid).command(command_id)))
        return None if raw is None else _decode_kept(raw)

    async def append(self, tid: str, append: Append) -> Appended:
        snapshot = b"" if append.snapshot is None else _encode_snapshot(append.snapshot)
        return await self.append_to(
            Keys(tid),
            version=append.version,
            command_id=append.command_id,
            events=append.events,
            result=append.result,
            snapshot=snapshot,
            payload=append.payload,
        )

    async def append_to(
        self,
        keys: Keys,
        *,
        version: int,
        command_id: str,
        events: list[bytes],
        result: Kept,
        snapshot: bytes,
        payload: bytes,
    ) -> Appended:
        """The append script on any log's keys (a tournament's, the house's)."""
        # append.lua says what each one is.
        script_keys = [keys.meta, keys.events, keys.snapshot, keys.command(command_id)]
        script_args: list[Any] = [
            version,
            len(events),
            keys.channel,
            payload,
            _encode(result),
            self.result_ttl,
            snapshot,
            *events,
        ]
        if self.wait_replicas and result.ok:
            reply = await self._call(self._append_replicated(script_keys, script_args))
        else:
            reply = await self._call(self._append(keys=script_keys, args=script_args))
        status, detail = reply[0], reply[1]
        if status == b"ok":
            return Written(int(detail))
        if status == b"dup":
            return Answered(_decode_kept(detail))
        return Conflict(int(detail))

    async def _append_replicated(self, keys: list[str], args: list[Any]) -> Any:
        """The append script, answered only once ``wait_replicas`` replicas hold its write.

        ``WAIT`` counts the replicas that have every write made so far on its connection,
        so it is pipelined behind the script on the same one. Raises ``Unavailable`` when
        too few confirm in time: the events are written (and published) on the primary but
        the command is not acknowledged; the phone resends it with the same command id,
        and that retry is acknowledged once replicated (a failover may instead lose the
        write, and the retry then writes it anew).
        """
        reply, acked = await self._replicated(
            lambda pipe: pipe.evalsha(self._append.sha, len(keys), *keys, *args)
        )
        if reply[0] == b"dup":
            # The first attempt may be on the primary only. Any later write on this
            # connection comes after it in the replication stream: once that is
            # replicated, so is the first attempt. Refreshing the result's expiry will do.
            _, acked = await self._replicated(lambda pipe: pipe.expire(keys[3], self.result_ttl))
        if reply[0] != b"conflict" and int(acked) < self.wait_replicas:
            raise Unavailable(
                f"written, but {acked} of {self.wait_replicas} replicas confirmed it within "
                f"{self.wait_timeout:g} s: send the command again with the same id"
            )
        return reply

    async def _replicated(self, queue: Callable[[Any], object]) -> tuple[Any, Any]:
        """Run one command then ``WAIT`` in one pipeline: (its reply, replicas that have it)."""
        for attempt in range(2):
            async with self.redis.pipeline(transaction=False) as pipe:
                queue(pipe)
                pipe.wait(self.wait_replicas, int(self.wait_timeout * 1000))
                reply, acked = await pipe.execute(raise_on_error=False)
            if isinstance(reply, rex.NoScriptError) and attempt == 0:
                # A promoted replica (or a restarted server) has not seen the script yet.
                await self.redis.script_load(_APPEND)
                continue
            for item in (reply, acked):
                if isinstance(item, Exception):
                    raise item
            break
        return reply, acked

    async def restore(
        self, tid: str, events: list[bytes], snapshot: Snapshot, summary: Summary
    ) -> None:
        keys = Keys(tid)
        redis = self.redis
        if await self._call(redis.exists(keys.meta, keys.events)):
            raise AlreadyExists(f"tournament {tid} already exists", field="tournament")

        async def add(first: int, chunk: list[bytes]) -> None:
            async with redis.pipeline(transaction=False) as pipe:
                for seq, event in enumerate(chunk, start=first):
                    pipe.xadd(keys.events, {"e": event}, id=f"{seq}-0")
                await pipe.execute()

        for start in range(0, len(events), 1000):
            await self._call(add(start + 1, events[start : start + 1000]))
        await self._call(redis.set(keys.snapshot, _encode_snapshot(snapshot)))
        # The meta hash is written last: until then the tournament does not exist for anybody.
        version = len(events)
        await self._call(redis.hset(keys.meta, mapping={"version": version, "snapshot": version}))
        await self._call(redis.hset(TOURNAMENTS, tid, _encode(summary)))

    async def list_tournament(self, summary: Summary) -> None:
        await self._call(self.redis.hset(TOURNAMENTS, summary.id, _encode(summary)))

    async def list_again(self, summary: Summary) -> None:
        keys = Keys(summary.id)
        if await self._call(self.redis.hget(keys.meta, "status")) == b"archived":
            return
        await self._call(self.redis.hsetnx(TOURNAMENTS, summary.id, _encode(summary)))

    async def set_status(self, tid: str, status: str, winner: str | None) -> None:
        meta = Keys(tid).meta
        raw = await self._call(self.redis.hget(TOURNAMENTS, tid))
        if raw is None:
            return
        summary = msgspec.structs.replace(_decode_summary(raw), status=status, winner=winner)
        await self._call(self.redis.hset(TOURNAMENTS, tid, _encode(summary)))
        # The list and the meta sit in other cluster slots: no one atomic step. An archive
        # marks the meta before it unlists, so one that ran meanwhile is seen here and its
        # unlisting (which our write may have undone) made again.
        if await self._call(self.redis.hget(meta, "status")) == b"archived":
            await self._call(self.redis.hdel(TOURNAMENTS, tid))

    async def archive(self, tid: str) -> Summary:
        """The list, the archive and the tournament's keys live in different cluster slots,
        so this is three writes, ordered so that a retry after a failure between them
        finishes the move: archived first, unlisted last, and an archived one answers again.
        """
        keys = Keys(tid)
        raw = await self._call(self.redis.hget(TOURNAMENTS, tid))
        if raw is None:
            kept = await self._call(self.redis.hget(ARCHIVE, tid))
            if kept is not None:
                return _decode_summary(kept)
            raise NotFound(f"there is no live tournament {tid}", field="tournament")
        summary = msgspec.structs.replace(_decode_summary(raw), status="archived")
        await self._call(self.redis.hset(ARCHIVE, tid, _encode(summary)))
        await self._call(self.redis.hset(keys.meta, "status", "archived"))
        await self._call(self.redis.hdel(TOURNAMENTS, tid))
        return summary
