"""The ports of the command service: the event log of each tournament, the bus that carries
every batch to every server process, and the clock lease.

The service (``floor.store.service``) decides; an implementation keeps and carries:
``floor.redisdb`` on Redis/Valkey (the log's append and the bus's publication are one atomic
script there), ``floor.store.memory`` in memory for fast tests. What a backend needs of its
own (a cluster's slots, replicas to wait for, a script to reload) stays inside it.

Every method may raise ``Unavailable`` (``floor.store.errors``) when the backend cannot
answer; nothing was changed then, or an append was made whole (a retry with the same
command id tells which).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Protocol

import msgspec

from ..engine.state import TournamentState
from .outcome import Kept


class Snapshot(msgspec.Struct, frozen=True):
    """The state at sequence number ``seq``."""

    seq: int
    state: TournamentState


class Stored(msgspec.Struct, frozen=True, kw_only=True):
    """A tournament as its log holds it: the newest snapshot (None before the first) and the
    events after it, as ``(seq, event JSON)``; their fold is the state at the last event."""

    snapshot: Snapshot | None
    tail: list[tuple[int, bytes]]


class Summary(msgspec.Struct, frozen=True, kw_only=True):
    """A tournament in the list of tournaments."""

    id: str
    name: str
    created_at: float
    #: "live", "finished" or "closed" (``engine.finish.status``) while listed; "archived".
    status: str = "live"
    #: The winner's name once the tournament has one.
    winner: str | None = None


class Append(msgspec.Struct, frozen=True, kw_only=True):
    """One command's write: all of it, or (when the tournament is no longer at ``version``,
    or ``command_id`` was answered before) none of it."""

    #: The version (last sequence number) the command was decided at.
    version: int
    #: Kept with ``result``: a second append with this id is answered with the first result.
    command_id: str
    #: The events as JSON, numbered ``version + 1`` on. None at all: a refusal, kept under
    #: the id only if it was decided at the current version (decided on a copy that was
    #: behind, it would otherwise answer every retry, even once the command applies).
    events: list[bytes]
    result: Kept
    #: The state after the events, when one is due. It is the service's live copy, changed
    #: by the next command: an implementation copies (encodes) it before it suspends.
    snapshot: Snapshot | None = None
    #: The batch published on the bus with the events, built once by the writer for every
    #: process and screen (empty when there are no events).
    payload: bytes = b""


class Written(msgspec.Struct, frozen=True):
    """The append was made; the tournament is now at ``version``."""

    version: int


class Conflict(msgspec.Struct, frozen=True):
    """Nothing was written: the tournament is at ``version``, not the one decided at."""

    version: int


class Answered(msgspec.Struct, frozen=True):
    """Nothing was written: the command id already has a result, ``kept``."""

    kept: Kept


Appended = Written | Conflict | Answered


class EventLog(Protocol):
    """The tournaments' logs. A tournament exists once its first event is appended."""

    async def exists(self, tid: str) -> bool: ...

    async def load(self, tid: str) -> Stored:
        """The newest snapshot and the events after it; ``NotFound`` when there is none."""
        ...

    async def version(self, tid: str) -> int:
        """The last sequence number (0: no such tournament)."""
        ...

    async def read(self, tid: str, after: int, limit: int) -> list[tuple[int, bytes]]:
        """Up to ``limit`` events after sequence number ``after``, in order, as stored."""
        ...

    async def result(self, tid: str, command_id: str) -> Kept | None:
        """The result kept for a command id (None: none, or no longer)."""
        ...

    async def append(self, tid: str, append: Append) -> Appended:
        """In one atomic step: the id check, the version check, the events, the new version,
        the snapshot, the result and the publication of ``payload`` on the bus."""
        ...

    async def restore(
        self, tid: str, events: list[bytes], snapshot: Snapshot, summary: Summary
    ) -> None:
        """Write a whole log (a backup read back) and list it; ``AlreadyExists`` if there
        is one. Until the last step it does not exist for anybody."""
        ...

    async def summaries(self, archived: bool = False) -> list[Summary]:
        """The live tournaments (or the archived ones), oldest first."""
        ...

    async def list_tournament(self, summary: Summary) -> None:
        """List (or list again, renamed) a live tournament."""
        ...

    async def list_again(self, summary: Summary) -> None:
        """List a tournament whose creation is retried, unless it is listed or archived."""
        ...

    async def set_status(self, tid: str, status: str, winner: str | None) -> None:
        """Say in the list that a tournament finished, was closed or is live again; an
        archived one, or one not listed, is left as it is."""
        ...

    async def archive(self, tid: str) -> Summary:
        """Move a tournament from the list to the archive (again: its summary as archived);
        ``NotFound`` when it is in neither. Its log stays."""
        ...


class Resubscribed(msgspec.Struct, frozen=True):
    """The bus lost its connection and follows again: batches may have been missed, and
    after a failover the log may have lost some that were published. Reload, resend."""


class Bus(Protocol):
    """Every batch appended, to every process that follows its tournament."""

    def following(self, tid: str) -> bool: ...

    async def follow(self, tid: str) -> bool:
        """Receive the tournament's batches from now on; True if it was not followed yet."""
        ...

    async def unfollow(self, tid: str) -> None: ...

    def incoming(self) -> AsyncIterator[bytes | Resubscribed]:
        """The batches of the tournaments followed, as published, for as long as the
        iteration runs; a lost connection is retried inside, then told by ``Resubscribed``."""
        ...

    async def close(self) -> None: ...


class ClockLease(Protocol):
    """Which process drives the tournaments' clocks: one at a time, taken over when it dies."""

    async def hold(self, holder: str, ttl: float) -> bool:
        """Take the lease, or renew it for ``ttl`` seconds; False while another holds it."""
        ...

    async def release(self, holder: str) -> None:
        """Give it up at once, if ``holder`` holds it."""
        ...
