"""The dealer room's events, and their fold into ``Room`` (``apply_room``).

Events record outcomes: a push names the dealer who came in and the instant the next push is
due, a break the instant it ends. Applying one reads no clock and draws nothing.
"""

from __future__ import annotations

from typing import Literal, assert_never

import msgspec

from ..model import Game
from .dealers import (
    Dealer,
    DealerId,
    Down,
    Mark,
    Room,
    RoomSettings,
    RoomTable,
    TableKey,
)


class _Event(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    pass


# The people ----------------------------------------------------------------------------------


class DealerSaved(_Event, frozen=True, tag="dealer_saved"):
    """A dealer added to the room, or their name or games corrected."""

    dealer: DealerId
    name: str
    games: tuple[Game, ...]


class DealerRemoved(_Event, frozen=True, tag="dealer_removed"):
    dealer: DealerId


class ClockedIn(_Event, frozen=True, tag="clocked_in"):
    dealer: DealerId
    at: float


class ClockedOut(_Event, frozen=True, tag="clocked_out"):
    """The dealer left the room (clocked out at the dealer room's screen)."""

    dealer: DealerId
    at: float


class DealerMarked(_Event, frozen=True, tag="dealer_marked"):
    """Late, sick or absent (out of the rotation), or back (``mark`` None)."""

    dealer: DealerId
    mark: Mark | None
    at: float


# The tables ----------------------------------------------------------------------------------


class TableJoined(_Event, frozen=True, tag="room_table_joined"):
    """A tournament's table started playing in the room (it needs a dealer)."""

    key: TableKey
    tournament: str
    table: int
    game: Game
    at: float


class TableLeft(_Event, frozen=True, tag="room_table_left"):
    """The table stopped playing (broken, or its tournament's day over): its down ends."""

    key: TableKey
    at: float


class TableChanged(_Event, frozen=True, tag="room_table_changed"):
    """Hand-for-hand started or ended (``held``), the table became the final, its game."""

    key: TableKey
    held: bool
    final: bool
    game: Game
    at: float


class Synced(_Event, frozen=True, tag="room_synced"):
    """The room's tables of ``tournament`` are those of its version ``version``."""

    tournament: str
    version: int


# The rotation --------------------------------------------------------------------------------


class Sat(_Event, frozen=True, tag="dealer_sat"):
    """``dealer`` deals at ``key`` from ``at``; pushed at ``due``. Whoever dealt there was
    released just before."""

    dealer: DealerId
    key: TableKey
    at: float
    due: float


#: Where a dealer goes from a table, a break or the pool.
Destination = Literal["pool", "break", "home", "off"]


class Released(_Event, frozen=True, tag="dealer_released"):
    """``dealer`` leaves their table (a down counted), their break (``shortened`` when it
    ends before its time) or the pool, for ``to``; a break ends at ``until``."""

    dealer: DealerId
    at: float
    to: Destination
    until: float | None = None
    shortened: bool = False


class Waiting(_Event, frozen=True, tag="room_table_waiting"):
    """No dealer is free for the table (its push, or its first dealer): it waits from
    ``since``; None: it waits no more."""

    key: TableKey
    since: float | None


class Leaving(_Event, frozen=True, tag="dealer_leaving"):
    """An early out: the dealer goes home at their next push."""

    dealer: DealerId
    at: float


class Swapped(_Event, frozen=True, tag="dealers_swapped"):
    """The dealer room swapped two tables' dealers; each table keeps its push."""

    a: TableKey
    b: TableKey
    at: float


class Pinned(_Event, frozen=True, tag="dealer_pinned"):
    """The dealer room's choice for the next push at ``key`` (None: the rotation's)."""

    key: TableKey
    dealer: DealerId | None


class Advanced(_Event, frozen=True, tag="room_advanced"):
    """The rotation has made everything due up to ``at``."""

    at: float


# The dealer room's settings and lists --------------------------------------------------------


class SettingsSet(_Event, frozen=True, tag="room_settings_set"):
    settings: RoomSettings


class FinalDealersSet(_Event, frozen=True, tag="final_dealers_set"):
    tournament: str
    dealers: tuple[DealerId, ...]


class EarlyListSet(_Event, frozen=True, tag="early_list_set"):
    dealers: tuple[DealerId, ...]


# Downs, as dealt -----------------------------------------------------------------------------


class SignedIn(_Event, frozen=True, tag="dealer_signed_in"):
    """``dealer`` signed in at the table screen of ``key``: their down there starts; the
    table's last down (another dealer's) ends, and so does the dealer's own elsewhere."""

    dealer: DealerId
    key: TableKey
    at: float


class SignedOut(_Event, frozen=True, tag="dealer_signed_out"):
    """Whoever was signed in at ``key`` signed out (or the screen was ended or moved)."""

    key: TableKey
    at: float


RoomEvent = (
    DealerSaved
    | DealerRemoved
    | ClockedIn
    | ClockedOut
    | DealerMarked
    | TableJoined
    | TableLeft
    | TableChanged
    | Synced
    | Sat
    | Released
    | Waiting
    | Leaving
    | Swapped
    | Pinned
    | Advanced
    | SettingsSet
    | FinalDealersSet
    | EarlyListSet
    | SignedIn
    | SignedOut
)


def apply_room(room: Room, event: RoomEvent) -> None:
    match event:
        case DealerSaved(dealer=did, name=name, games=games):
            held = room.dealers.get(did)
            if held is None:
                room.dealers[did] = Dealer(id=did, name=name, games=games)
            else:
                held.name, held.games = name, games
        case DealerRemoved(dealer=did):
            room.dealers.pop(did, None)
        case ClockedIn(dealer=did, at=at):
            d = room.dealers[did]
            d.status, d.since, d.clocked_in, d.mark = "pool", at, at, None
            d.downs, d.leaving, d.until, d.table = 0, False, None, None
        case ClockedOut(dealer=did, at=at):
            _off(room, room.dealers[did], at, "off")
        case DealerMarked(dealer=did, mark=mark, at=at):
            d = room.dealers[did]
            d.mark = mark
            if mark is not None and d.status != "off":
                _off(room, d, at, "off")
        case TableJoined(key=key, tournament=tid, table=n, game=game, at=at):
            table = RoomTable(key=key, tournament=tid, table=n, game=game, opened=at, waiting=at)
            i = room.open_at.get(key)
            if i is not None:  # a dealer signed in on its screen before it played
                table.signed, table.signed_at = room.downs[i].dealer, room.downs[i].start
            room.tables[key] = table
        case TableLeft(key=key, at=at):
            _end_down(room, key, at)
            table = room.tables.pop(key)
            if table.dealer is not None:  # released first by the rotation; kept whole anyway
                d = room.dealers[table.dealer]
                d.table, d.status, d.since = None, "pool", at
        case TableChanged(key=key, held=held, final=final, game=game, at=at):
            table = room.tables[key]
            if table.held and not held and table.due is not None and table.due < at:
                table.due = at  # the pushes held meanwhile are made at once
            table.held, table.final, table.game = held, final, game
        case Synced(tournament=tid, version=version):
            room.synced[tid] = version
        case Sat(dealer=did, key=key, at=at, due=due):
            d = room.dealers[did]
            table = room.tables[key]
            d.status, d.since, d.table, d.until = "dealing", at, key, None
            table.dealer, table.since, table.due, table.waiting = did, at, due, None
            if table.pin == did:
                table.pin = None
        case Released(dealer=did, at=at, to=to, until=until):
            d = room.dealers[did]
            if d.status == "dealing":
                d.downs += 1
            _leave_table(room, d)
            if to == "break":
                d.status, d.since, d.until, d.downs = "break", at, until, 0
            elif to == "pool":
                d.status, d.since, d.until = "pool", at, None
            else:
                _off(room, d, at, to)
        case Waiting(key=key, since=since):
            room.tables[key].waiting = since
        case Leaving(dealer=did):
            room.dealers[did].leaving = True
        case Swapped(a=a, b=b):
            ta, tb = room.tables[a], room.tables[b]
            ta.dealer, tb.dealer = tb.dealer, ta.dealer
            for table in (ta, tb):
                if table.dealer is not None:
                    room.dealers[table.dealer].table = table.key
        case Pinned(key=key, dealer=did):
            room.tables[key].pin = did
        case Advanced(at=at):
            room.at = max(room.at, at)
        case SettingsSet(settings=settings):
            room.settings = settings
        case FinalDealersSet(tournament=tid, dealers=dealers):
            if dealers:
                room.final_dealers[tid] = dealers
            else:
                room.final_dealers.pop(tid, None)
        case EarlyListSet(dealers=dealers):
            room.early_list = dealers
        case SignedIn(dealer=did, key=key, at=at):
            now_open = room.open_at.get(key)
            if now_open is not None and room.downs[now_open].dealer == did:
                return  # signed in again on the same screen: the same down goes on
            _end_down(room, key, at)
            for other_key, i in list(room.open_at.items()):
                if room.downs[i].dealer == did:
                    _end_down(room, other_key, at)
            of, _, number = key.rpartition("/")
            room.open_at[key] = len(room.downs)
            room.downs.append(Down(dealer=did, tournament=of, table=int(number), start=at))
            here = room.tables.get(key)
            if here is not None:
                here.signed, here.signed_at = did, at
        case SignedOut(key=key, at=at):
            _end_down(room, key, at)
        case _:
            assert_never(event)


def _end_down(room: Room, key: TableKey, at: float) -> None:
    i = room.open_at.pop(key, None)
    if i is not None:
        room.downs[i] = msgspec.structs.replace(room.downs[i], end=max(at, room.downs[i].start))
    table = room.tables.get(key)
    if table is not None:
        table.signed, table.signed_at = None, None


def _leave_table(room: Room, d: Dealer) -> None:
    if d.table is not None:
        table = room.tables.get(d.table)
        if table is not None and table.dealer == d.id:
            table.dealer, table.since = None, None
        d.table = None


def _off(room: Room, d: Dealer, at: float, to: Literal["home", "off"]) -> None:
    if d.status == "dealing":
        d.downs += 1
    _leave_table(room, d)
    d.status, d.since, d.until, d.leaving = to, at, None, False
    for table in room.tables.values():
        if table.pin == d.id:
            table.pin = None
