"""The dealer room's part of the clock driver: the room follows the tournaments' tables, and
its pushes are written when due, by the process that holds the clock lease.

Every batch of a tournament the driver follows passes through ``saw`` (the driver's thread
reads them from the bus to keep its copies current, ``clockdriver``): one that may change
which tables play (a table opened, broken, hand-for-hand, the final) marks the tournament.
At its next round the driver reads its copy of each marked tournament and, when the tables
differ from the room's, sends the house a ``SyncTables`` with the tournament's version: each
version is taken once, whichever process sends it and however often, so a batch seen twice
(or by a driver that took over) changes nothing. Every ``RECONCILE`` seconds, whenever the
lease is taken and whenever the bus may have lost batches, every tournament is looked at
again, so that a batch missed meanwhile is made up for.

Pushes are written as level changes are: when the room's next moment comes
(``rotation.next_due``), a ``Tick`` under an id of the house's version, so that two drivers
at a handover cannot both write it; each push is recorded at its own instant however late
the tick (``rotation``).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

import msgspec

from ..engine.house.dealers_commands import SyncTables, Tick
from ..engine.house.dealers_sync import TABLE_EVENTS, differs, sync_of
from ..engine.house.rotation import next_due
from ..store.errors import NotFound, StoreError
from ..store.house import House
from ..store.service import Service

log = logging.getLogger(__name__)

#: Seconds between two looks at every tournament's tables.
RECONCILE = 30.0


class _Typed(msgspec.Struct):
    type: str = ""


class _Sequenced(msgspec.Struct):
    event: _Typed


class _Batch(msgspec.Struct):
    """Of a batch, its tournament and its events' types: the rest is skipped, not decoded."""

    tournament: str = ""
    events: list[_Sequenced] = msgspec.field(default_factory=list)


_batch = msgspec.json.Decoder(_Batch)


class RoomDriver:
    def __init__(self, store: Service, house: House) -> None:
        self.store = store
        self.house = house
        #: Tournaments whose tables may have changed since the room last looked.
        self._marked: set[str] = set()
        #: Tournaments followed at the last round: one new to it is looked at whole (its
        #: batches before it was followed were not seen).
        self._known: set[str] = set()
        self._reconciled: float | None = None

    def saw(self, data: bytes) -> None:
        """A batch read from the bus: one that may change tables marks its tournament."""
        try:
            batch = _batch.decode(data)
        except msgspec.DecodeError:
            return
        if batch.tournament and any(s.event.type in TABLE_EVENTS for s in batch.events):
            self._marked.add(batch.tournament)

    def lost(self) -> None:
        """The lease went elsewhere, or the bus lost batches: at the next round held, look
        at everything again."""
        self._reconciled = None
        self._marked.clear()
        self._known.clear()

    async def drive(self, tids: Iterable[str]) -> float | None:
        """Bring the room's tables up to the tournaments' and write what is due; return when
        the room next has something to do."""
        now = self.house.clock()
        followed = list(tids)
        if self._reconciled is None or now - self._reconciled >= RECONCILE:
            self._reconciled = now
            room = (await self.house.state()).room
            gone = {t.tournament for t in room.tables.values()} - set(followed)
            marked = set(followed) | gone
        else:
            marked, self._marked = self._marked | (set(followed) - self._known), set()
        self._known = set(followed)
        for tid in sorted(marked):
            await self._sync(tid)
        room = (await self.house.state()).room
        due = next_due(room)
        if due is not None and due <= self.house.clock():
            await self.house.execute(Tick(), f"room-tick:{self.house.version}")
            room = (await self.house.state()).room
            due = next_due(room)
        return due

    async def _sync(self, tid: str) -> None:
        room = (await self.house.state()).room
        try:
            t, version = await self.store.tournament(tid)
            command = sync_of(t.state, version)
        except NotFound:
            # Gone (archived): its tables play no more.
            command = SyncTables(tournament=tid, version=room.synced.get(tid, 0) + 1, tables=())
        except StoreError:
            self._marked.add(tid)  # the storage away: next round
            return
        if command.version <= room.synced.get(tid, -1) or not differs(room, command):
            return
        await self.house.execute(command, f"room-sync:{tid}:{command.version}")
        log.info(
            "dealer room synced",
            extra={"tournament": tid, "version": command.version, "tables": len(command.tables)},
        )
