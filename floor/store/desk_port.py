"""The ports behind the front desk: the player registry, identity kept apart, the desk's
takings by shift, the exclusion checks' log, the cashier's payments, the venue's settings
(``floor.redisdb.desk`` on Redis/Valkey), and the exclusion register (``ExclusionRegister``:
the imported list's adapter is ``floor.redisdb.exclusion``; a live register client, the Czech
RVO or Germany's OASIS, plugs in here).

Plain data only; the rules are the engine's (``floor.engine.desk``, ``engine.house.registry``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal, Protocol

import msgspec

from ..engine.desk.exclusion import Answer, Person, Result
from ..engine.desk.identity import Identity
from ..engine.desk.ledger import Entry, Shift
from ..engine.desk.settings import DeskSettings
from ..engine.house.registry import Record

#: What writing an entry did: written, already there (a retry), the sale it undoes was
#: undone before, or the shift is closed.
Written = Literal["written", "exists", "undone", "closed"]


class Check(msgspec.Struct, frozen=True, kw_only=True):
    """One exclusion check, as logged: who asked, when, the answer; never who was asked
    about beyond the entry's id, never a copy of the register."""

    at: float
    by: str
    desk: str
    tournament: str
    command: str
    result: Result
    reason: str = ""


class Payment(msgspec.Struct, frozen=True, kw_only=True):
    """A prize paid by the cashier."""

    tournament: str
    player: str
    place: int
    amount: int
    by: str
    at: float
    #: The bounties paid with the prize, and the seat ticket handed over.
    bounty: int = 0
    ticket: str | None = None


class ListInfo(msgspec.Struct, frozen=True, kw_only=True):
    imported_at: float
    rows: int
    by: str


#: The register's answer and what is known of its data, or None when it could not answer.
Asked = tuple[Answer, ListInfo | None] | None


class DeskStorage(Protocol):
    @property
    def answers(self) -> ExclusionRegister | None:
        """The register whose answer ``begin_asking`` brings in its round trip (the imported
        list kept beside the desk's records), or None: the desk then asks the register."""
        ...

    # The registry.
    async def add_player(self, record: Record) -> Record: ...
    async def player(self, pid: str) -> Record | None: ...
    async def find_players(self, prefix: str, most: int) -> list[Record]: ...
    async def erase_player(self, pid: str) -> bool: ...

    # Identity: one key per player, deleted by Valkey at ``expires_at``.
    async def put_identity(self, pid: str, identity: Identity, expires_at: float) -> None: ...
    async def identity(self, pid: str) -> Identity | None: ...

    # Shifts and their takings.
    async def open_shift(self, shift: Shift) -> None: ...
    async def shift(self, sid: str) -> Shift | None: ...
    async def close_shift(self, sid: str, counted: int, at: float) -> Shift | None: ...
    async def entry(self, cid: str) -> Entry | None: ...
    async def begin(self, cid: str, sid: str) -> tuple[Entry | None, Shift | None, DeskSettings]:
        """What a take reads first, in one round trip: the entry kept under ``cid``, the
        shift, the settings."""
        ...

    async def begin_asking(
        self, cid: str, sid: str, person: Person
    ) -> tuple[Entry | None, Shift | None, DeskSettings, Asked]:
        """``begin`` and ``answers``' answer about ``person``, in one round trip."""
        ...

    async def write_take(
        self,
        check: Check,
        record: Record | None,
        identity: Identity,
        expires_at: float,
        entry: Entry,
    ) -> Written:
        """What a take writes once the player is registered, at once: the check's log line,
        the new registry record (kept if one is there), the identity kept apart under
        ``entry.player`` until ``expires_at``, the sale as ``write_entry`` writes it."""
        ...

    async def write_entry(self, entry: Entry) -> Written: ...
    async def entries(self, sid: str) -> list[Entry]: ...
    async def undone_by(self, sale: str) -> str | None: ...

    # The checks' log, the cashier, the settings.
    async def log_check(self, check: Check) -> None: ...
    async def checks(self, most: int) -> list[Check]: ...
    async def pay(self, payment: Payment) -> bool: ...
    async def payments(self, tid: str) -> list[Payment]: ...
    async def settings(self) -> DeskSettings: ...
    async def set_settings(self, settings: DeskSettings) -> None: ...


class ExclusionRegister(Protocol):
    """A register of excluded people. ``answer`` says whether ``person`` is on it, with what
    is known of its data (an imported list's age; None for a live register), or raises
    ``Unavailable`` when it cannot say."""

    async def answer(self, person: Person) -> tuple[Answer, ListInfo | None]: ...
    async def info(self) -> ListInfo | None: ...


class ExclusionList(ExclusionRegister, Protocol):
    """A register the venue imports as a list: replaced whole at each import."""

    async def replace(self, digests: Iterable[str], info: ListInfo) -> None: ...
