"""The ports in memory: the same semantics as the Redis implementation, for fast tests.

One ``MemoryServer`` plays the part of the Redis server; each simulated process makes its own
``MemoryLog``, ``MemoryBus`` and ``MemoryLease`` on it (and its own ``Service``), so races
between processes can be played out in one event loop. Every call yields to the loop before
and after its atomic step, as a round trip would, so that concurrent commands interleave.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable

import msgspec

from .errors import AlreadyExists, NotFound, Unavailable
from .house import HouseAppend, HouseStored
from .outcome import Kept
from .ports import (
    Answered,
    Append,
    Appended,
    Conflict,
    Resubscribed,
    Snapshot,
    Stored,
    Summary,
    Written,
)

_encode_snapshot = msgspec.msgpack.Encoder().encode
_decode_snapshot = msgspec.msgpack.Decoder(Snapshot).decode


class _Log:
    __slots__ = ("events", "snapshot", "snapshot_seq", "status")

    def __init__(self) -> None:
        #: The event with sequence number n at index n - 1.
        self.events: list[bytes] = []
        #: The newest snapshot, encoded: a copy, never the writer's live state.
        self.snapshot: bytes | None = None
        #: The house's snapshot's sequence number (a tournament's is inside its snapshot).
        self.snapshot_seq = 0
        self.status = "live"


class MemoryServer:
    """The shared storage of the simulated processes."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.logs: dict[str, _Log] = {}
        self.results: dict[tuple[str, str], Kept] = {}
        self.listed: dict[str, Summary] = {}
        self.archived: dict[str, Summary] = {}
        self.channels: dict[str, set[MemoryBus]] = {}
        self.lease: tuple[str, float] | None = None
        #: While True every call raises ``Unavailable`` (the server is away).
        self.down = False
        #: Calls made, as the Redis log counts its round trips.
        self.calls = 0

    async def round_trip(self) -> None:
        await asyncio.sleep(0)
        if self.down:
            raise Unavailable("the memory server is down")
        self.calls += 1

    def publish(self, tid: str, payload: bytes) -> None:
        for bus in self.channels.get(tid, ()):
            bus.deliver(payload)


class MemoryLog:
    """``EventLog`` on a ``MemoryServer``."""

    def __init__(self, server: MemoryServer) -> None:
        self.server = server

    async def exists(self, tid: str) -> bool:
        await self.server.round_trip()
        return tid in self.server.logs

    async def load(self, tid: str) -> Stored:
        await self.server.round_trip()
        log = self.server.logs.get(tid)
        if log is None:
            raise NotFound(f"there is no tournament {tid}", field="tournament")
        snapshot = None if log.snapshot is None else _decode_snapshot(log.snapshot)
        after = 0 if snapshot is None else snapshot.seq
        tail = [(seq, log.events[seq - 1]) for seq in range(after + 1, len(log.events) + 1)]
        stored = Stored(snapshot=snapshot, tail=tail)
        await asyncio.sleep(0)
        return stored

    async def version(self, tid: str) -> int:
        await self.server.round_trip()
        log = self.server.logs.get(tid)
        return 0 if log is None else len(log.events)

    async def read(self, tid: str, after: int, limit: int) -> list[tuple[int, bytes]]:
        await self.server.round_trip()
        log = self.server.logs.get(tid)
        events = [] if log is None else log.events
        first = max(after, 0) + 1
        return [(seq, events[seq - 1]) for seq in range(first, min(len(events), after + limit) + 1)]

    async def result(self, tid: str, command_id: str) -> Kept | None:
        await self.server.round_trip()
        return self.server.results.get((tid, command_id))

    async def append(self, tid: str, append: Append) -> Appended:
        # Copied before the first suspension: the snapshot is the writer's live state.
        snapshot = None if append.snapshot is None else _encode_snapshot(append.snapshot)
        await self.server.round_trip()
        server = self.server
        prior = server.results.get((tid, append.command_id))
        result: Appended
        if prior is not None:
            result = Answered(prior)
        else:
            log = server.logs.get(tid)
            version = 0 if log is None else len(log.events)
            if version != append.version:
                result = Conflict(version)
            else:
                if append.events:
                    if log is None:
                        log = server.logs[tid] = _Log()
                    log.events.extend(append.events)
                if snapshot is not None and log is not None:
                    log.snapshot = snapshot
                server.results[(tid, append.command_id)] = append.result
                if append.events:
                    server.publish(tid, append.payload)
                result = Written(version + len(append.events))
        await asyncio.sleep(0)
        return result

    async def restore(
        self, tid: str, events: list[bytes], snapshot: Snapshot, summary: Summary
    ) -> None:
        encoded = _encode_snapshot(snapshot)
        await self.server.round_trip()
        if tid in self.server.logs:
            raise AlreadyExists(f"tournament {tid} already exists", field="tournament")
        log = self.server.logs[tid] = _Log()
        log.events.extend(events)
        log.snapshot = encoded
        self.server.listed[tid] = summary

    async def summaries(self, archived: bool = False) -> list[Summary]:
        await self.server.round_trip()
        items = (self.server.archived if archived else self.server.listed).values()
        return sorted(items, key=lambda s: s.created_at)

    async def list_tournament(self, summary: Summary) -> None:
        await self.server.round_trip()
        self.server.listed[summary.id] = summary

    async def list_again(self, summary: Summary) -> None:
        await self.server.round_trip()
        log = self.server.logs.get(summary.id)
        if log is not None and log.status == "archived":
            return
        self.server.listed.setdefault(summary.id, summary)

    async def set_status(self, tid: str, status: str, winner: str | None) -> None:
        await self.server.round_trip()
        listed = self.server.listed.get(tid)
        if listed is not None:
            self.server.listed[tid] = msgspec.structs.replace(listed, status=status, winner=winner)

    async def archive(self, tid: str) -> Summary:
        await self.server.round_trip()
        server = self.server
        listed = server.listed.pop(tid, None)
        if listed is None:
            kept = server.archived.get(tid)
            if kept is not None:
                return kept
            raise NotFound(f"there is no live tournament {tid}", field="tournament")
        summary = msgspec.structs.replace(listed, status="archived")
        server.archived[tid] = summary
        log = server.logs.get(tid)
        if log is not None:
            log.status = "archived"
        return summary


#: The house's log among the tournaments' (never a tournament id: they start alphanumeric).
HOUSE = "@house"


class MemoryHouseLog:
    """``HouseLog`` on a ``MemoryServer``."""

    def __init__(self, server: MemoryServer) -> None:
        self.server = server

    async def load(self) -> HouseStored:
        await self.server.round_trip()
        log = self.server.logs.get(HOUSE)
        if log is None:
            return HouseStored(snapshot=None, seq=0, tail=[])
        seq = log.snapshot_seq
        tail = [(n, log.events[n - 1]) for n in range(seq + 1, len(log.events) + 1)]
        return HouseStored(snapshot=log.snapshot, seq=seq, tail=tail)

    async def read(self, after: int, limit: int) -> list[tuple[int, bytes]]:
        await self.server.round_trip()
        log = self.server.logs.get(HOUSE)
        events = [] if log is None else log.events
        last = min(len(events), after + limit)
        return [(n, events[n - 1]) for n in range(max(after, 0) + 1, last + 1)]

    async def append(self, append: HouseAppend) -> Appended:
        await self.server.round_trip()
        server = self.server
        prior = server.results.get((HOUSE, append.command_id))
        result: Appended
        log = server.logs.setdefault(HOUSE, _Log())
        if prior is not None:
            result = Answered(prior)
        elif len(log.events) != append.version:
            result = Conflict(len(log.events))
        else:
            log.events.extend(append.events)
            last = len(log.events)
            if append.snapshot is not None:
                log.snapshot, log.snapshot_seq = append.snapshot, last
            server.results[(HOUSE, append.command_id)] = Kept(
                ok=True, first=append.version + 1, last=last
            )
            result = Written(last)
        await asyncio.sleep(0)
        return result


class MemoryBus:
    """``Bus`` on a ``MemoryServer``: one simulated process's subscriptions."""

    def __init__(self, server: MemoryServer) -> None:
        self.server = server
        self._followed: set[str] = set()
        self._queue: asyncio.Queue[bytes | Resubscribed] = asyncio.Queue()

    def following(self, tid: str) -> bool:
        return tid in self._followed

    async def follow(self, tid: str) -> bool:
        if tid in self._followed:
            return False
        await self.server.round_trip()
        self._followed.add(tid)
        self.server.channels.setdefault(tid, set()).add(self)
        return True

    async def unfollow(self, tid: str) -> None:
        self._followed.discard(tid)
        channel = self.server.channels.get(tid)
        if channel is not None:
            channel.discard(self)

    def deliver(self, payload: bytes) -> None:
        self._queue.put_nowait(payload)

    def lose_connection(self) -> None:
        """What a lost connection does: the batches not read yet are gone, and the reader
        is told it follows again."""
        while not self._queue.empty():
            self._queue.get_nowait()
        self._queue.put_nowait(Resubscribed())

    async def incoming(self) -> AsyncIterator[bytes | Resubscribed]:
        while True:
            yield await self._queue.get()

    async def close(self) -> None:
        for tid in list(self._followed):
            await self.unfollow(tid)


class MemoryLease:
    """``ClockLease`` on a ``MemoryServer``, expiring by the server's clock."""

    def __init__(self, server: MemoryServer) -> None:
        self.server = server

    async def hold(self, holder: str, ttl: float) -> bool:
        await self.server.round_trip()
        now = self.server.clock()
        lease = self.server.lease
        if lease is None or lease[1] <= now or lease[0] == holder:
            self.server.lease = (holder, now + ttl)
            return True
        return False

    async def release(self, holder: str) -> None:
        await self.server.round_trip()
        lease = self.server.lease
        if lease is not None and lease[0] == holder:
            self.server.lease = None
