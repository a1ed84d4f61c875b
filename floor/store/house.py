"""The house's store: what spans tournaments, in a log of its own (``floor.engine.house``).

The house is one aggregate with its own keys, lock and log (on a cluster, a hash slot of its
own). This process keeps a copy of its state and brings it up to date from the log's tail
before each decision, so several processes share it without a bus: the append is made only
if the log is still at the version decided at, as a tournament's is.

``HouseSpan`` is what the tournaments' service calls for a command that claims something in
the house: a hold taken before the command is decided (refused: the command is refused with
the house's reason), settled once the tournament has answered. ``settle_stale`` settles a
hold whose process died between the two writes, from the tournament's kept result.
"""

from __future__ import annotations

import asyncio
import hashlib
import time
from collections.abc import Awaitable, Callable
from typing import Protocol

import msgspec

from ..engine.commands import Command
from ..engine.errors import RuleError
from ..engine.house.commands import HouseCommand, SettleHold, TakeHold
from ..engine.house.decide import claim_of, decide, sheets_of
from ..engine.house.events import HouseEvent, SheetClaim
from ..engine.house.state import HouseState, apply
from ..engine.state import Tournament
from .errors import Busy
from .outcome import Kept, Outcome, error_info
from .ports import Answered, Appended, Conflict, Written


class HouseAppend(msgspec.Struct, frozen=True, kw_only=True):
    """One house command's write, made only if the house is still at ``version``."""

    version: int
    command_id: str
    events: list[bytes]
    #: The state after the events, encoded, when one is due.
    snapshot: bytes | None = None


class HouseStored(msgspec.Struct, frozen=True, kw_only=True):
    """The newest snapshot (encoded) and its sequence number, and the events after it."""

    snapshot: bytes | None
    seq: int
    tail: list[tuple[int, bytes]]


class HouseLog(Protocol):
    """The house's log (``floor.redisdb.house_log``, ``floor.store.memory``)."""

    async def load(self) -> HouseStored: ...

    async def read(self, after: int, limit: int) -> list[tuple[int, bytes]]:
        """Up to ``limit`` events after sequence number ``after``."""
        ...

    async def append(self, append: HouseAppend) -> Appended:
        """The version check, the events and the snapshot, in one atomic step."""
        ...


#: A tournament's kept result for a command id (None: none kept).
ResultOf = Callable[[str, str], Awaitable[Kept | None]]

_encode = msgspec.json.Encoder().encode
_decode_event = msgspec.json.Decoder(HouseEvent).decode
_encode_state = msgspec.msgpack.Encoder().encode
_decode_state = msgspec.msgpack.Decoder(HouseState).decode
#: Events read at once while catching up.
_PAGE = 1000


def hold_id(tid: str, command_id: str) -> str:
    """The hold of one tournament command: a command id of the house's own (ids are 80
    characters at most, so the pair is digested)."""
    return "hold:" + hashlib.sha256(f"{tid}\n{command_id}".encode()).hexdigest()[:40]


class House:
    """The house's state as this process holds it, and its commands."""

    def __init__(
        self,
        log: HouseLog,
        *,
        clock: Callable[[], float] = time.time,
        snapshot_every: int = 200,
        max_attempts: int = 8,
    ) -> None:
        self.log = log
        self.clock = clock
        self.snapshot_every = snapshot_every
        self.max_attempts = max_attempts
        self._state: HouseState | None = None
        self._version = 0
        self._lock = asyncio.Lock()

    @property
    def version(self) -> int:
        """The house's version as this process last read it."""
        return self._version

    async def state(self) -> HouseState:
        """The house now (read from the log's tail first). Use it before the next await."""
        async with self._lock:
            return await self._current()

    async def execute(self, command: HouseCommand, command_id: str) -> list[HouseEvent]:
        """Decide ``command`` on the current state and write its events; a ``RuleError``
        says why not (nothing written)."""
        for _ in range(self.max_attempts):
            async with self._lock:
                state = await self._current()
                events = decide(state, command, self.clock())
                if not events:
                    return []
                version = self._version
                last = version + len(events)
                for e in events:
                    apply(state, e)
                due = version // self.snapshot_every != last // self.snapshot_every
                append = HouseAppend(
                    version=version,
                    command_id=command_id,
                    events=[_encode(e) for e in events],
                    snapshot=_encode_state(state) if due else None,
                )
                try:
                    written = await self.log.append(append)
                except BaseException:
                    self._state = None  # applied here, maybe not there: load again
                    raise
                match written:
                    case Written(version=now_at):
                        self._version = now_at
                        return events
                    case Answered():
                        # This command id was written before (a retry, or another process
                        # that decided the same thing first): nothing more to write.
                        self._state = None
                        return []
                    case Conflict():
                        # Another process wrote first: decide again on the state the log holds.
                        self._state = None
                    case _:
                        raise AssertionError(written)
        raise Busy("the house is changing too fast: try again", field="house")

    async def _current(self) -> HouseState:
        if self._state is None:
            stored = await self.log.load()
            state = HouseState() if stored.snapshot is None else _decode_state(stored.snapshot)
            version = stored.seq
            for seq, data in stored.tail:
                apply(state, _decode_event(data))
                version = seq
            self._state, self._version = state, version
            return state
        while True:
            tail = await self.log.read(self._version, _PAGE)
            for seq, data in tail:
                apply(self._state, _decode_event(data))
                self._version = seq
            if len(tail) < _PAGE:
                return self._state

    async def index_sheets(self, t: Tournament) -> int:
        """Index a flight's bag sheets as they stand (a log brought in whole from an export:
        no command of it passed through the house). Returns how many."""
        sheets = sheets_of(t.state)
        for sheet in sheets:
            cid = f"sheet:{sheet.table}:{len(sheet.bags)}"
            hid = hold_id(t.state.id, cid)
            claim = SheetClaim(sheet=sheet)
            await self.execute(
                TakeHold(hold=hid, tournament=t.state.id, command_id=cid, claim=claim), hid
            )
            await self.execute(SettleHold(hold=hid, committed=True), hid + ":settle")
        return len(sheets)

    async def settle_stale(self, result_of: ResultOf, older_than: float = 300.0) -> int:
        """Settle the holds taken more than ``older_than`` seconds ago whose process never
        settled them, from the tournament's kept result for the command: committed if it was
        written, released if it was refused or never written (a retry takes a new hold).
        Returns how many were settled."""
        now = self.clock()
        stale = [h for h in (await self.state()).holds.values() if now - h.at >= older_than]
        for hold in stale:
            kept = await result_of(hold.tournament, hold.command_id)
            committed = kept is not None and kept.ok
            await self.execute(SettleHold(hold=hold.id, committed=committed), hold.id + ":settle")
        return len(stale)


class HouseSpan:
    """The tournaments' service's way into the house (``Service.execute``'s ``span``)."""

    def __init__(self, house: House) -> None:
        self.house = house

    async def hold(
        self, tid: str, command_id: str, t: Tournament, command: Command
    ) -> Outcome | bool:
        """Take the hold ``command`` needs (True), or say there is none to take (False), or
        the house's refusal of the command (an outcome)."""
        claim = claim_of(t.state, command)
        if claim is None:
            return False
        hid = hold_id(tid, command_id)
        take = TakeHold(hold=hid, tournament=tid, command_id=command_id, claim=claim)
        try:
            await self.house.execute(take, hid)
        except RuleError as e:
            return Outcome(ok=False, error=error_info(e))
        return True

    async def settle(self, tid: str, command_id: str, committed: bool) -> None:
        hid = hold_id(tid, command_id)
        await self.house.execute(SettleHold(hold=hid, committed=committed), hid + ":settle")
