"""The dealer room's rules: the events of each of its commands, or why not.

Every command but a sign-in first brings the rotation up to ``now`` (what came due since it
was last written is made at its own instant), then makes its change, then serves at ``now``
whatever the change left without a dealer. The decision is made on a copy of the room.
"""

from __future__ import annotations

from typing import assert_never

from ..errors import NotAllowed, RuleError, refused
from ..model import Game
from .dealers import MAX_DEALERS, Dealer, Room, RoomTable, TableKey, copy_room, deals, table_key
from .dealers_commands import (
    ClockIn,
    ClockOut,
    MarkDealer,
    Move,
    Pin,
    RemoveDealer,
    RoomCommand,
    SaveDealer,
    ServerRoomCommand,
    SetEarlyList,
    SetFinalDealers,
    SetSettings,
    SignIn,
    SignOut,
    Swap,
    SyncTables,
    Tick,
)
from .dealers_events import (
    Advanced,
    ClockedIn,
    ClockedOut,
    DealerMarked,
    DealerRemoved,
    DealerSaved,
    EarlyListSet,
    FinalDealersSet,
    Pinned,
    Released,
    RoomEvent,
    Sat,
    SettingsSet,
    SignedIn,
    SignedOut,
    Swapped,
    Synced,
    TableChanged,
    TableJoined,
    TableLeft,
)
from .rotation import Rotation, next_due


def decide_room(
    room: Room, command: RoomCommand | ServerRoomCommand, now: float
) -> list[RoomEvent]:
    """The events of ``command`` at ``now``, or a ``RuleError`` (nothing changed)."""
    match command:
        case SignIn(dealer=did, tournament=tid, table=n):
            return [SignedIn(dealer=did, key=table_key(tid, n), at=now)]
        case SignOut(tournament=tid, table=n):
            key = table_key(tid, n)
            return [SignedOut(key=key, at=now)] if key in room.open_at else []
        case SyncTables() if command.version <= room.synced.get(command.tournament, -1):
            return []  # a batch seen before (every version is synced once)
        case _:
            pass
    due = next_due(room)
    r = Rotation(copy_room(room))
    r.advance(now)
    _change(r, command, now)
    if isinstance(command, Tick) and due is not None and due <= now and not r.events:
        r.emit(Advanced(at=now))  # nothing came of it: not looked at again
    return r.done(now)


def _change(r: Rotation, command: RoomCommand | ServerRoomCommand, now: float) -> None:
    room = r.room
    match command:
        case Tick():
            pass
        case SyncTables():
            _sync(r, command, now)
        case SaveDealer(dealer=did, name=name, games=games):
            held = room.dealers.get(did)
            if held is None and len(room.dealers) >= MAX_DEALERS:
                # Every command copies the room, and its screen lists every dealer.
                raise refused(NotAllowed, "dealer_room_full", {"most": MAX_DEALERS}, field="dealer")
            if held is None or (held.name, held.games) != (name, games):
                r.emit(DealerSaved(dealer=did, name=name, games=games))
        case RemoveDealer(dealer=did):
            d = _dealer(room, did)
            if d.status not in ("off", "home"):
                raise _busy(d)
            r.emit(DealerRemoved(dealer=did))
        case ClockIn(dealer=did):
            d = _dealer(room, did)
            if d.status not in ("off", "home"):
                raise refused(NotAllowed, "dealer_clocked_in", {"dealer": did}, field="dealer")
            r.emit(ClockedIn(dealer=did, at=now))
            r.serve(now)
        case ClockOut(dealer=did):
            d = _dealer(room, did)
            if d.status in ("off", "home"):
                raise refused(NotAllowed, "dealer_not_clocked_in", {"dealer": did}, field="dealer")
            r.emit(ClockedOut(dealer=did, at=now))
            r.serve(now)
        case MarkDealer(dealer=did, mark=mark):
            d = _dealer(room, did)
            if d.mark != mark:
                r.emit(DealerMarked(dealer=did, mark=mark, at=now))
                r.serve(now)
        case Swap(a=a, b=b):
            _swap(r, a, b, now)
        case Move(dealer=did, table=key):
            _move(r, did, key, now)
        case Pin(table=key, dealer=did):
            table = _table(room, key)
            if did is not None:
                _may_deal(_available(room, did), table)
            if table.pin != did:
                r.emit(Pinned(key=key, dealer=did))
        case SetSettings(settings=settings):
            if settings != room.settings:
                r.emit(SettingsSet(settings=settings))
                r.serve(now)
        case SetFinalDealers(tournament=tid, dealers=dealers):
            _once(dealers)
            for did in dealers:
                _dealer(room, did)
            if room.final_dealers.get(tid, ()) != dealers:
                r.emit(FinalDealersSet(tournament=tid, dealers=dealers))
        case SetEarlyList(dealers=dealers):
            _once(dealers)
            for did in dealers:
                _dealer(room, did)
            if room.early_list != dealers:
                r.emit(EarlyListSet(dealers=dealers))
        case SignIn() | SignOut():
            raise AssertionError("decided above")
        case _:
            assert_never(command)


def _sync(r: Rotation, command: SyncTables, now: float) -> None:
    room = r.room
    tid = command.tournament
    wanted: dict[TableKey, Game] = {table_key(tid, p.table): p.game for p in command.tables}
    gone = sorted(k for k, t in room.tables.items() if t.tournament == tid and k not in wanted)
    for key in gone:
        dealer = room.tables[key].dealer
        if dealer is not None:
            to, until = r.destination(room.dealers[dealer], now)
            r.emit(Released(dealer=dealer, at=now, to=to, until=until))
        r.emit(TableLeft(key=key, at=now))
    for key, game in sorted(wanted.items()):
        table = room.tables.get(key)
        if table is None:
            n = int(key.rpartition("/")[2])
            r.emit(TableJoined(key=key, tournament=tid, table=n, game=game, at=now))
            table = room.tables[key]
        final = command.final is not None and table.table == command.final
        if (table.held, table.final, table.game) != (command.held, final, game):
            r.emit(TableChanged(key=key, held=command.held, final=final, game=game, at=now))
    r.emit(Synced(tournament=tid, version=command.version))
    if gone:
        r.early_outs(now)
    r.serve_due(now)


def _swap(r: Rotation, a: TableKey, b: TableKey, now: float) -> None:
    room = r.room
    if a == b:
        raise refused(NotAllowed, "swap_same", {}, field="b")
    ta, tb = _table(room, a), _table(room, b)
    for table, field in ((ta, "a"), (tb, "b")):
        if table.dealer is None:
            raise refused(NotAllowed, "swap_no_dealer", {"table": table.table}, field=field)
    assert ta.dealer is not None and tb.dealer is not None
    _may_deal(room.dealers[ta.dealer], tb)
    _may_deal(room.dealers[tb.dealer], ta)
    r.emit(Swapped(a=a, b=b, at=now))


def _move(r: Rotation, did: str, key: TableKey, now: float) -> None:
    room = r.room
    table = _table(room, key)
    d = _available(room, did)
    if d.status == "dealing":
        raise _busy(d)
    _may_deal(d, table)
    if table.dealer is not None:
        to, until = r.destination(room.dealers[table.dealer], now)
        r.emit(Released(dealer=table.dealer, at=now, to=to, until=until))
    if d.status == "break":
        r.emit(Released(dealer=did, at=now, to="pool", shortened=True))
    due = table.due if table.due is not None and table.due > now else None
    r.emit(Sat(dealer=did, key=key, at=now, due=due or now + room.settings.push_every))
    r.serve(now)


# Checks ------------------------------------------------------------------------------------


def _dealer(room: Room, did: str) -> Dealer:
    d = room.dealers.get(did)
    if d is None:
        raise refused(RuleError, "dealer_unknown", {"dealer": did}, field="dealer")
    return d


def _available(room: Room, did: str) -> Dealer:
    """A dealer clocked in and not marked out of the rotation."""
    d = _dealer(room, did)
    if d.status in ("off", "home") or d.mark is not None:
        raise refused(NotAllowed, "dealer_unavailable", {"dealer": did}, field="dealer")
    return d


def _table(room: Room, key: TableKey) -> RoomTable:
    table = room.tables.get(key)
    if table is None:
        raise refused(RuleError, "room_table_unknown", {"table": key}, field="table")
    return table


def _may_deal(d: Dealer, table: RoomTable) -> None:
    if not deals(d.games, table.game):
        raise refused(
            NotAllowed, "dealer_game", {"dealer": d.id, "game": table.game}, field="dealer"
        )


def _busy(d: Dealer) -> NotAllowed:
    return refused(NotAllowed, "dealer_busy", {"dealer": d.id, "state": d.status}, field="dealer")


def _once(dealers: tuple[str, ...]) -> None:
    seen: set[str] = set()
    for did in dealers:
        if did in seen:
            raise refused(NotAllowed, "dealer_listed_twice", {"dealer": did}, field="dealers")
        seen.add(did)
