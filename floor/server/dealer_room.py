"""The dealer room as this process serves it: its commands (through the house) and the
views its screens read, each made once per house version.

The plan the screens show (``rotation_plan.forecast``) plays the rotation forward: for a room
of 600 tables that is some milliseconds of pure Python, so it is made on a worker thread from
a copy of the room, once per version, and shared by every screen that asks meanwhile.
"""

from __future__ import annotations

import asyncio
import zoneinfo
from collections.abc import Callable
from datetime import date, tzinfo
from functools import lru_cache

import msgspec

from ..engine.errors import BadValue, refused
from ..engine.house.commands import HouseCommand
from ..engine.house.dealers import Dealer, DealerId, Room, RoomSettings, copy_room, table_key
from ..engine.house.downs import Sheet, sheet
from ..engine.house.events import HouseEvent
from ..engine.house.rotation_plan import Forecast, Next, forecast, next_push, room_view
from ..store.house import House

_encode = msgspec.json.Encoder().encode


class Person(msgspec.Struct, frozen=True):
    id: DealerId
    name: str


class TableDealers(msgspec.Struct, frozen=True, kw_only=True):
    """What a table screen shows: who deals here now (planned, and signed in), the next
    push and who comes then, and where the dealer pushed out goes."""

    at: float
    tournament: str
    table: int
    #: The table plays in the dealer room (else the rest is empty).
    playing: bool
    dealer: Person | None = None
    signed: Person | None = None
    due: float | None = None
    coming: Person | None = None
    #: Where the dealer here now goes at the push.
    then: Next | None = None
    held: bool = False
    waiting: float | None = None
    #: Seconds between pushes: a screen shows seconds when they are short.
    push_every: float = 0.0


class OwnDealer(msgspec.Struct, frozen=True, kw_only=True):
    """What a dealer's phone shows: where they are and what comes next."""

    at: float
    dealer: Person
    status: str
    tournament: str | None = None
    table: int | None = None
    #: Their push at the table they deal at, or their break's end.
    due: float | None = None
    until: float | None = None
    next: Next | None = None
    push_every: float = 0.0


@lru_cache(maxsize=64)
def zone_of(name: str) -> tzinfo:
    """The house's time zone (``BadValue`` naming it when this server has no such zone)."""
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        raise refused(BadValue, "zone_unknown", {"zone": name}, field="settings.zone") from None


def _person(room: Room, did: DealerId | None) -> Person | None:
    if did is None:
        return None
    d = room.dealers.get(did)
    return Person(did, d.name if d is not None else did)


class DealerRoom:
    """The dealer room's commands and views, over the house."""

    def __init__(self, house: House, *, clock: Callable[[], float] | None = None) -> None:
        self.house = house
        self.clock = clock or house.clock
        #: The forecast of one house version, made once (a task shared by the askers).
        self._plan: tuple[int, asyncio.Task[Forecast]] | None = None
        #: The room's view, encoded, of one version and one second.
        self._view: tuple[int, int, bytes] | None = None

    async def execute(self, command: HouseCommand, command_id: str) -> list[HouseEvent]:
        return await self.house.execute(command, command_id)

    async def room(self) -> Room:
        return (await self.house.state()).room

    async def plan(self) -> tuple[Room, Forecast]:
        """The room now and its forecast (made at most once per house version)."""
        room = await self.room()
        version = self.house.version
        held = self._plan
        if held is None or held[0] != version:
            copy = copy_room(room)
            task = asyncio.ensure_future(asyncio.to_thread(forecast, copy, self.clock()))
            self._plan = held = (version, task)
        return room, await asyncio.shield(held[1])

    async def view(self) -> bytes:
        """The dealer room's screen (``RoomView``), encoded."""
        room, plan = await self.plan()
        now = self.clock()
        version = self.house.version
        held = self._view
        if held is not None and held[0] == version and held[1] == int(now):
            return held[2]
        data = _encode(room_view(room, now, plan))
        self._view = (version, int(now), data)
        return data

    async def at_table(self, tournament: str, number: int) -> TableDealers:
        room, plan = await self.plan()
        now = self.clock()
        table = room.tables.get(table_key(tournament, number))
        if table is None:
            return TableDealers(at=now, tournament=tournament, table=number, playing=False)
        due, coming = next_push(table, plan)
        return TableDealers(
            at=now,
            tournament=tournament,
            table=number,
            playing=True,
            dealer=_person(room, table.dealer),
            signed=_person(room, table.signed),
            due=due,
            coming=_person(room, coming),
            then=None if table.dealer is None else plan.next.get(table.dealer),
            held=table.held,
            waiting=table.waiting,
            push_every=room.settings.push_every,
        )

    async def own(self, did: DealerId) -> OwnDealer | None:
        """A dealer's own view, or None if the room has no such dealer."""
        room, plan = await self.plan()
        d: Dealer | None = room.dealers.get(did)
        if d is None:
            return None
        table = None if d.table is None else room.tables.get(d.table)
        due = None
        if table is not None:
            due = next_push(table, plan)[0]
        return OwnDealer(
            at=self.clock(),
            dealer=Person(d.id, d.name),
            status=d.status,
            tournament=None if table is None else table.tournament,
            table=None if table is None else table.table,
            due=due,
            until=d.until,
            next=plan.next.get(did),
            push_every=room.settings.push_every,
        )

    async def sheet(self, period: date | None) -> Sheet:
        room = await self.room()
        zone = zone_of(room.settings.zone)
        return sheet(room, zone, self.clock(), period)


def check_settings(settings: RoomSettings) -> RoomSettings:
    """The settings, their zone known to this server (``BadValue`` otherwise)."""
    zone_of(settings.zone)
    return settings
