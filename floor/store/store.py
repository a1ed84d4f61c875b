"""The live state of every tournament in Redis: an event log with atomic, idempotent commands.

Each tournament is a Redis Stream of events (entry id = sequence number), a snapshot of the
state every ``snapshot_every`` events, and a meta hash with the version (the last sequence
number). A command is decided by the engine against the state at version V held in this
process, then written by one Lua script only if the tournament is still at V: events, version,
snapshot when due, the command's result for retries, and the publication to every server
process, in one atomic step and one round trip. On a conflict the state is reloaded and the
command decided again, so it is refused with the rule's reason when it no longer applies.

The process keeps each tournament it serves in memory (``Tournament`` plus its version) and
keeps it current from the events other processes publish (``apply_published``).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
import random
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import msgspec
import redis.asyncio as aioredis
import redis.exceptions as rex

from ..engine.commands import Command
from ..engine.decide import decide
from ..engine.errors import FloorError, RuleError
from ..engine.events import Event, TournamentCreated
from ..engine.rules import Rules, Structure
from ..engine.state import Tournament, TournamentState
from ..engine.views import touched_tables
from ..protocol import (
    EventsIn,
    decode_batch,
    decode_event,
    encode_derived,
    encode_event,
    events_message,
)
from .connection import is_cluster
from .keys import ARCHIVE, TOURNAMENTS, Keys, check_command_id

log = logging.getLogger(__name__)

_APPEND = (Path(__file__).with_name("append.lua")).read_text()

#: How many replicas must hold a command's events before it is acknowledged (0: none, the
#: default). Redis replicates asynchronously: without this, a command acknowledged just
#: before the primary dies may be missing on the replica Sentinel promotes.
WAIT_REPLICAS_VARIABLE = "FLOOR_REDIS_WAIT_REPLICAS"
#: How long a command waits for them before it is answered 503 (the phone resends it).
WAIT_TIMEOUT = 1.0
#: What a Redis call raises while Redis cannot answer (a 503: the phone resends).
_REDIS_DOWN = (
    rex.ConnectionError,
    rex.TimeoutError,
    OSError,
    rex.BusyLoadingError,
    # A cluster shard between losing its primary and a replica taking over: CLUSTERDOWN,
    # TRYAGAIN, or a slot the client's map has no node for.
    rex.ClusterError,
    rex.TryAgainError,
    rex.RedisClusterException,
    # On CLUSTERDOWN redis-py's cluster client closes every connection, also those other
    # requests are using at that moment: they fail with "the handler is closed".
    RuntimeError,
)


class StoreError(FloorError):
    """A storage failure (not a rule): the edges answer 4xx/5xx with its message."""

    code = "store"


class Unavailable(StoreError):
    """Redis cannot be reached or answered with an error; nothing was changed, or the
    command was written whole (a retry with the same command id tells which)."""

    code = "unavailable"


class NotFound(StoreError):
    code = "not_found"


class AlreadyExists(StoreError):
    code = "already_exists"


class IdReused(StoreError):
    """A command id already answered a different command: the new one was not applied."""

    code = "id_reused"


class Busy(StoreError):
    """Other writers kept winning the race; the command was not applied."""

    code = "busy"


class ErrorInfo(msgspec.Struct, frozen=True, kw_only=True):
    code: str
    message: str
    field: str | None = None


class Outcome(msgspec.Struct, frozen=True, kw_only=True):
    """What a command did: the sequence numbers of its events, or why it was refused.

    Kept in Redis under the command id, so a retry is answered with this same outcome.
    """

    ok: bool
    #: Sequence numbers of the command's events, ``first..last`` (none when last < first).
    first: int = 0
    last: int = 0
    error: ErrorInfo | None = None
    #: True when this answers a retry of a command already decided.
    duplicate: bool = False

    @property
    def events(self) -> int:
        return max(0, self.last - self.first + 1)


class Snapshot(msgspec.Struct, frozen=True):
    seq: int
    state: TournamentState


class Summary(msgspec.Struct, frozen=True, kw_only=True):
    """A tournament in the list of tournaments."""

    id: str
    name: str
    created_at: float
    status: str = "live"


class _Entry:
    __slots__ = ("lock", "t", "version")

    def __init__(self, t: Tournament, version: int) -> None:
        self.t = t
        self.version = version
        self.lock = asyncio.Lock()


class _Kept(Outcome, frozen=True, kw_only=True):
    """An outcome as kept under its command id, with a digest of the command it answered:
    a client that reuses an id for another command is told so, not handed the first
    answer as if its command had been applied. (Kept results without one still match.)"""

    digest: str = ""


def command_digest(command: Command) -> str:
    return hashlib.sha256(msgspec.json.encode(command)).hexdigest()[:24]


_outcome_encoder = msgspec.json.Encoder()
_kept_decoder = msgspec.json.Decoder(_Kept)


def _answer_again(raw: bytes, command_id: str | None, digest: str) -> Outcome:
    """The first answer to a retried command id, or ``IdReused`` for another command."""
    kept = _kept_decoder.decode(raw)
    if digest and kept.digest and kept.digest != digest:
        raise IdReused(
            f"the command id {command_id} was already used for another command: this one was "
            f"not applied; send it with a new id",
            field="id",
        )
    return Outcome(ok=kept.ok, first=kept.first, last=kept.last, error=kept.error, duplicate=True)


_snapshot_encoder = msgspec.msgpack.Encoder()
_snapshot_decoder = msgspec.msgpack.Decoder(Snapshot)


class Store:
    """Tournaments in Redis, and the ones this process serves, in memory."""

    def __init__(
        self,
        redis: aioredis.Redis,
        *,
        clock: Callable[[], float] = time.time,
        rng: random.Random | None = None,
        snapshot_every: int = 500,
        result_ttl: int = 7 * 24 * 3600,
        max_attempts: int = 8,
        wait_replicas: int | None = None,
        wait_timeout: float = WAIT_TIMEOUT,
    ) -> None:
        self.redis = redis
        self.clock = clock
        self.rng = rng if rng is not None else random.SystemRandom()
        self.snapshot_every = snapshot_every
        self.result_ttl = result_ttl
        self.max_attempts = max_attempts
        self.wait_replicas = _wait_replicas() if wait_replicas is None else wait_replicas
        self.wait_timeout = wait_timeout
        if self.wait_replicas and is_cluster(redis):
            # WAIT must follow the script on the same connection to the same primary; a
            # cluster client routes a keyless WAIT elsewhere, so it would prove nothing.
            raise ValueError(f"{WAIT_REPLICAS_VARIABLE} is not supported on a cluster")
        self._append = redis.register_script(_APPEND)
        self._entries: dict[str, _Entry] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        #: Redis round trips made, for the benchmarks.
        self.round_trips = 0
        #: Called with each batch this process wrote, as soon as Redis has it: the hub hands
        #: it to this process's screens at once instead of waiting for its pub/sub echo.
        self.on_written: Callable[[bytes], None] | None = None
        #: Awaited before a tournament is loaded into memory: the hub subscribes to it there,
        #: so that every process keeps what it holds current, screens or not.
        self.before_load: Callable[[str], Awaitable[object]] | None = None
        self._arriving: dict[str, list[EventsIn]] = {}

    # Reading ---------------------------------------------------------------------------------

    async def tournament(self, tid: str) -> tuple[Tournament, int]:
        """The tournament as this process holds it, and its version (loaded when missing).

        A command being written holds the entry's lock with its events already applied to
        our copy: a reader waits for the write, so it never sees a change that may not land.
        Use the result before the next ``await``: later changes are applied to it in place.
        """
        while True:
            entry = await self._entry(tid)
            async with entry.lock:
                if self._entries.get(tid) is entry:
                    return entry.t, entry.version

    async def _entry(self, tid: str) -> _Entry:
        entry = self._entries.get(tid)
        if entry is not None:
            return entry
        lock = self._loading.setdefault(tid, asyncio.Lock())
        async with lock:
            entry = self._entries.get(tid)
            while entry is None:
                if self.before_load is not None:
                    # Only for a tournament that exists: a follow for any id asked for
                    # would let a stranger pile up subscriptions.
                    if not await self._call(self.redis.exists(Keys(tid).meta)):
                        raise NotFound(f"there is no tournament {tid}", field="tournament")
                    # Follow the tournament's batches first, so none falls between what the
                    # load reads and the first batch we hear of.
                    await self.before_load(tid)
                self._arriving[tid] = []
                try:
                    t, version = await self.load(tid)
                    arrived = self._arriving[tid]
                finally:
                    del self._arriving[tid]
                caught_up = _catch_up(t, version, arrived)
                if caught_up is not None:
                    entry = self._entries[tid] = _Entry(t, caught_up)
        return entry

    def forget(self, tid: str) -> None:
        """Drop the in-memory copy; the next use reloads it from Redis."""
        self._entries.pop(tid, None)

    async def load(self, tid: str) -> tuple[Tournament, int]:
        """Snapshot plus the events after it: exactly the engine's state at the last event."""
        keys = Keys(tid)
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.get(keys.snapshot)
                pipe.hget(keys.meta, "version")
                raw_snapshot, raw_version = await pipe.execute()
            self.round_trips += 1
            if raw_version is None:
                raise NotFound(f"there is no tournament {tid}", field="tournament")
            if raw_snapshot is not None:
                snap = _snapshot_decoder.decode(raw_snapshot)
                t, seq = Tournament(snap.state), snap.seq
            else:
                t, seq = None, 0
            tail = stream_entries(await self.redis.xrange(keys.events, f"{seq + 1}-0", "+"))
            self.round_trips += 1
        except _REDIS_DOWN as e:
            raise Unavailable(f"Redis is unreachable: {e}") from e
        for _, data in tail:
            event = decode_event(data)
            if t is None:
                assert isinstance(event, TournamentCreated)
                t = Tournament.create(event)
            else:
                t.apply(event)
        if t is None:
            raise NotFound(f"there is no tournament {tid}", field="tournament")
        return t, tail[-1][0] if tail else seq

    async def events_since(self, tid: str, seq: int, limit: int = 1000) -> list[bytes] | None:
        """The events after ``seq`` as stored (JSON), or None when more than ``limit`` are
        missing (a fresh snapshot is cheaper then)."""
        keys = Keys(tid)
        try:
            raw = stream_entries(
                await self.redis.xrange(keys.events, f"{seq + 1}-0", "+", count=limit + 1)
            )
        except _REDIS_DOWN as e:
            raise Unavailable(f"Redis is unreachable: {e}") from e
        if len(raw) > limit:
            return None
        return [data for _, data in raw]

    async def summaries(self, archived: bool = False) -> list[Summary]:
        try:
            raw = await self.redis.hgetall(ARCHIVE if archived else TOURNAMENTS)
        except _REDIS_DOWN as e:
            raise Unavailable(f"Redis is unreachable: {e}") from e
        items = [msgspec.json.decode(v, type=Summary) for v in raw.values()]
        return sorted(items, key=lambda s: s.created_at)

    # Writing ---------------------------------------------------------------------------------

    async def create(
        self,
        tid: str,
        name: str,
        rules: Rules,
        structure: Structure | None = None,
        command_id: str | None = None,
    ) -> Outcome:
        keys = Keys(tid)
        created = TournamentCreated(
            id=tid, name=name, rules=rules, structure=structure, created_at=self.clock()
        )
        t = Tournament.create(created)
        outcome = await self._write(keys, 0, [created], t, command_id or f"create-{tid}")
        if not outcome.ok:
            raise AlreadyExists(f"tournament {tid} already exists", field="tournament")
        if not outcome.duplicate:
            self._entries[tid] = _Entry(t, outcome.last)
        # Listed after the log is written (another slot on a cluster): a retry lists it too.
        summary = Summary(id=tid, name=name, created_at=created.created_at)
        await self._call(self.redis.hset(TOURNAMENTS, tid, msgspec.json.encode(summary)))
        return outcome

    async def list_again(self, tid: str, name: str, created_at: float) -> None:
        """List a tournament whose creation is retried, unless it is listed or archived."""
        keys = Keys(tid)
        if await self._call(self.redis.hget(keys.meta, "status")) == b"archived":
            return
        summary = Summary(id=tid, name=name, created_at=created_at)
        await self._call(self.redis.hsetnx(TOURNAMENTS, tid, msgspec.json.encode(summary)))

    async def archive(self, tid: str) -> Summary:
        """Move a finished tournament from the list to the archive; its log stays.

        The list, the archive and the tournament's keys live in different cluster slots, so
        this is three writes, ordered so that a retry after a failure between them finishes
        the move: archived first, unlisted last, and an archived one answers again.
        """
        keys = Keys(tid)
        raw = await self._call(self.redis.hget(TOURNAMENTS, tid))
        if raw is None:
            kept = await self._call(self.redis.hget(ARCHIVE, tid))
            if kept is not None:
                return msgspec.json.decode(kept, type=Summary)
            raise NotFound(f"there is no live tournament {tid}", field="tournament")
        summary = msgspec.structs.replace(msgspec.json.decode(raw, type=Summary), status="archived")
        await self._call(self.redis.hset(ARCHIVE, tid, msgspec.json.encode(summary)))
        await self._call(self.redis.hset(keys.meta, "status", "archived"))
        await self._call(self.redis.hdel(TOURNAMENTS, tid))
        return summary

    async def execute(self, tid: str, command: Command, command_id: str | None = None) -> Outcome:
        """Decide ``command`` and write its events atomically; refusals are outcomes too.

        Raises ``NotFound`` and ``Unavailable`` (nothing was written, or a retry with the
        same ``command_id`` answers what was), and ``Busy`` after too many lost races.
        """
        keys = Keys(tid)
        cid = check_command_id(command_id) if command_id else None
        digest = command_digest(command) if cid else ""
        for _ in range(self.max_attempts):
            entry = await self._entry(tid)
            async with entry.lock:
                if self._entries.get(tid) is not entry:
                    continue
                version = entry.version
                try:
                    events = decide(entry.t, command, self.clock(), self.rng)
                except RuleError as e:
                    refusal = Outcome(ok=False, error=_error_info(e))
                    if cid is None:
                        return refusal
                    kept = await self._keep_refusal(keys, version, cid, refusal, digest)
                    if kept is not None:
                        return kept
                    # Decided on a copy that was behind: the command may apply now.
                    self.forget(tid)
                    continue
                if not events and cid is None:
                    return Outcome(ok=True, first=version + 1, last=version)
                try:
                    outcome = await self._write(keys, version, events, entry.t, cid, digest)
                except BaseException:
                    # The events may or may not be in Redis, and they are in our copy:
                    # reload before anybody reads it again.
                    self.forget(tid)
                    raise
                if outcome.duplicate or outcome.error is not None:
                    self.forget(tid)
                    return outcome
                if outcome.ok:
                    entry.version = outcome.last
                    return outcome
                self.forget(tid)  # lost the race: reload and decide again
        raise Busy(f"tournament {tid} is changing too fast: try again", field="tournament")

    async def _write(
        self,
        keys: Keys,
        version: int,
        events: list[Event],
        t: Tournament,
        command_id: str | None,
        digest: str = "",
    ) -> Outcome:
        """Run the append script. ``ok=False`` without error means a version conflict."""
        encoded = [encode_event(e) for e in events]
        last = version + len(events)
        due = version // self.snapshot_every != last // self.snapshot_every
        snapshot = _snapshot_encoder.encode(Snapshot(last, t.state)) if due else b""
        payload = (
            events_message(
                keys.tid, version + 1, encoded, encode_derived(t, touched_tables(events))
            )
            if encoded
            else b""
        )
        outcome = Outcome(ok=True, first=version + 1, last=last)
        kept = _Kept(ok=True, first=version + 1, last=last, digest=digest)
        result = _outcome_encoder.encode(kept)
        script_keys, script_args = self._append_call(
            keys,
            command_id or f"anon-{self.rng.getrandbits(64):x}",
            version,
            encoded,
            payload,
            result,
            snapshot,
        )
        if self.wait_replicas:
            reply = await self._call(self._append_replicated(script_keys, script_args))
        else:
            reply = await self._call(self._append(keys=script_keys, args=script_args))
        status, detail = reply[0], reply[1]
        if status == b"ok":
            if payload and self.on_written is not None:
                self.on_written(payload)
            return outcome
        if status == b"dup":
            return _answer_again(detail, command_id, digest)
        return Outcome(ok=False, first=0, last=int(detail))

    def _append_call(
        self,
        keys: Keys,
        command_id: str,
        version: int,
        encoded: list[bytes],
        payload: bytes,
        result: bytes,
        snapshot: bytes,
    ) -> tuple[list[str], list[Any]]:
        """The KEYS and ARGV of the append script (append.lua says what each one is)."""
        return (
            [keys.meta, keys.events, keys.snapshot, keys.command(command_id)],
            [
                version,
                len(encoded),
                keys.channel,
                payload,
                result,
                self.result_ttl,
                snapshot,
                *encoded,
            ],
        )

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

    async def _keep_refusal(
        self, keys: Keys, version: int, command_id: str, refusal: Outcome, digest: str
    ) -> Outcome | None:
        """Keep a refusal under its command id, so a retry gets the first answer; but only
        if it was decided at the tournament's current version (None when it was not).

        The append script with no events does it: a refusal decided on a stale copy would
        otherwise be the answer to every retry, even once the command applies.
        """
        kept = _outcome_encoder.encode(_Kept(ok=False, error=refusal.error, digest=digest))
        script_keys, script_args = self._append_call(keys, command_id, version, [], b"", kept, b"")
        reply = await self._call(self._append(keys=script_keys, args=script_args))
        status, detail = reply[0], reply[1]
        if status == b"ok":
            return refusal
        if status == b"dup":
            return _answer_again(detail, command_id, digest)
        return None

    async def _call(self, awaitable: Any) -> Any:
        self.round_trips += 1
        try:
            return await awaitable
        except _REDIS_DOWN as e:
            raise Unavailable(f"Redis is unreachable: {e}") from e
        except rex.ResponseError as e:
            raise Unavailable(f"Redis refused the write: {e}") from e

    # Keeping in step with other processes ---------------------------------------------------

    async def apply_published(self, payload: bytes) -> None:
        """Fold a batch another process (or this one) published into our copy, if held.

        While the copy is being loaded the batch is kept, and folded once the load is in.
        """
        batch = decode_batch(payload)
        entry = self._entries.get(batch.tournament)
        if entry is None:
            arriving = self._arriving.get(batch.tournament)
            if arriving is not None:
                arriving.append(batch)
            return
        async with entry.lock:
            if self._entries.get(batch.tournament) is not entry or batch.to <= entry.version:
                return
            if batch.from_ != entry.version + 1:
                self.forget(batch.tournament)  # a gap: reload on next use
                return
            for item in batch.events:
                entry.t.apply(item.event)
            entry.version = batch.to


def _catch_up(t: Tournament, version: int, batches: list[EventsIn]) -> int | None:
    """Fold the batches that came in while ``t`` was loaded at ``version``; the new version,
    or None when one is missing (the caller loads again)."""
    for batch in sorted(batches, key=lambda b: b.from_):
        if batch.to <= version:
            continue
        if batch.from_ > version + 1:
            return None
        for item in batch.events:
            if item.seq > version:
                t.apply(item.event)
                version = item.seq
    return version


def _wait_replicas() -> int:
    raw = os.environ.get(WAIT_REPLICAS_VARIABLE, "").strip() or "0"
    if not raw.isdigit():
        raise ValueError(f"{WAIT_REPLICAS_VARIABLE} must be a number of replicas, not {raw!r}")
    return int(raw)


def stream_entries(raw: Any) -> list[tuple[int, bytes]]:
    """Stream entries as (sequence number, event JSON): the entry id is ``<seq>-0``."""
    return [(int(entry_id.split(b"-")[0]), fields[b"e"]) for entry_id, fields in raw or ()]


def _error_info(e: FloorError) -> ErrorInfo:
    code = getattr(e, "code", "refused")
    return ErrorInfo(code=code, message=e.message, field=e.field)
