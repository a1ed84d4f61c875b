"""What the rotation will do next, as the screens show it: who goes where next and when.

``forecast`` plays the rotation forward on a copy of the room, as if nothing else happened,
far enough that every dealer at a table knows where they go after their push ("push at 14:30,
go to table 42"). It runs the very code that will make those pushes, so the plan shown is the
plan made, until something changes (a table breaks, a dealer is marked sick): then it is
made again from the new state.

``alerts`` are what the dealer room must look at now: a dealer not signed in at the table
the rotation put them at (``signin_grace`` after the push), a table that waits for a dealer,
a final table without its chosen dealers.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from ..model import Game
from .dealers import (
    DealerId,
    Mark,
    Room,
    RoomSettings,
    RoomTable,
    Status,
    TableKey,
    copy_room,
)
from .dealers_events import Released, RoomEvent, Sat
from .rotation import Rotation, needed

#: Where a dealer goes next.
Step = Literal["table", "break", "home", "pool", "off"]
AlertKind = Literal["missing", "wrong", "waiting", "no_dealer", "final_unchosen"]


class Next(msgspec.Struct, frozen=True, kw_only=True):
    """A dealer's next move: they leave where they are at ``leaves`` (a push, a break's
    end; None: they are free now) for ``to``; at a table from ``arrives``."""

    leaves: float | None = None
    to: Step
    tournament: str | None = None
    table: int | None = None
    arrives: float | None = None
    #: A break's end, when ``to`` is a break.
    until: float | None = None


class DealerView(msgspec.Struct, frozen=True, kw_only=True):
    id: DealerId
    name: str
    games: tuple[Game, ...]
    status: Status
    since: float
    tournament: str | None
    table: int | None
    until: float | None
    #: Downs since the last break.
    downs: int
    clocked_in: float | None
    mark: Mark | None
    leaving: bool
    next: Next | None


class TableView(msgspec.Struct, frozen=True, kw_only=True):
    key: TableKey
    tournament: str
    table: int
    game: Game
    dealer: DealerId | None
    since: float | None
    #: The next push, and who comes in then.
    due: float | None
    coming: DealerId | None
    held: bool
    final: bool
    waiting: float | None
    pin: DealerId | None
    signed: DealerId | None
    signed_at: float | None


class Alert(msgspec.Struct, frozen=True, kw_only=True):
    kind: AlertKind
    key: TableKey
    tournament: str
    table: int
    #: The dealer the rotation put there (``missing``, ``wrong``), and who signed in.
    dealer: DealerId | None = None
    signed: DealerId | None = None
    since: float


class RoomView(msgspec.Struct, frozen=True, kw_only=True):
    """The dealer room's screen."""

    at: float
    settings: RoomSettings
    dealers: tuple[DealerView, ...]
    tables: tuple[TableView, ...]
    alerts: tuple[Alert, ...]
    #: Dealers the tables need now (``rotation.needed``), and dealers in the rotation.
    needed: int
    working: int
    final_dealers: dict[str, tuple[DealerId, ...]]
    early_list: tuple[DealerId, ...]


class Forecast(msgspec.Struct, frozen=True, kw_only=True):
    """The next push of each table (who comes in, when), and each dealer's next move."""

    coming: dict[TableKey, tuple[float, DealerId]]
    next: dict[DealerId, Next]


def horizon(settings: RoomSettings) -> float:
    """How far ahead a forecast looks: every dealer's next table, past a break."""
    return 2 * settings.push_every + settings.break_length


def forecast(room: Room, now: float, ahead: float | None = None) -> Forecast:
    """The rotation played forward from ``now`` on a copy of ``room`` (see the top)."""
    r = Rotation(copy_room(room), record=False)
    coming: dict[TableKey, tuple[float, DealerId]] = {}
    seen: dict[DealerId, list[Released | Sat]] = {}

    def watch(event: RoomEvent) -> None:
        if isinstance(event, Sat):
            coming.setdefault(event.key, (event.at, event.dealer))
            steps = seen.setdefault(event.dealer, [])
            if len(steps) < 3:
                steps.append(event)
        elif isinstance(event, Released):
            steps = seen.setdefault(event.dealer, [])
            if len(steps) < 3:
                steps.append(event)

    r.listeners.append(watch)
    r.advance(now + (horizon(room.settings) if ahead is None else ahead))
    nexts = {did: step for did, d in room.dealers.items() if (step := _next(room, did, seen))}
    return Forecast(coming=coming, next=nexts)


def _next(room: Room, did: DealerId, seen: dict[DealerId, list[Released | Sat]]) -> Next | None:
    """A dealer's next move from the first events the forecast made of them: pushed out of
    their table (``leaves``), a break (``until``, its end as made: shortened perhaps), then
    the table they come to (or home)."""
    d = room.dealers[did]
    if d.status in ("off", "home"):
        return None
    leaves: float | None = None
    until = d.until if d.status == "break" else None
    dealing, resting = d.status == "dealing", d.status == "break"
    for step in seen.get(did, []):
        if isinstance(step, Sat):
            if dealing:
                continue  # seated again where they are: not a move
            tid, _, number = step.key.rpartition("/")
            return Next(
                leaves=leaves,
                to="table",
                tournament=tid,
                table=int(number),
                arrives=step.at,
                until=until,
            )
        if step.to in ("home", "off"):
            return Next(leaves=step.at if dealing else leaves, to=step.to, until=until)
        if dealing:  # pushed out of their table, to a break or the pool
            dealing = False
            leaves = step.at
            if step.to == "break":
                resting, until = True, step.until
        elif resting:  # the break ends (shortened, perhaps)
            resting = False
            until = step.at
    if d.status == "dealing" and leaves is None:
        return None  # nothing planned within the forecast
    return Next(leaves=leaves, to="break" if resting else "pool", until=until)


def alerts(room: Room, now: float) -> list[Alert]:
    """What the dealer room must look at now (see the top), the oldest first."""
    grace = room.settings.signin_grace
    out: list[Alert] = []
    for table in room.tables.values():
        if table.dealer is None:
            out.append(_alert(table, "no_dealer", table.waiting or table.opened))
            continue
        if table.waiting is not None:
            out.append(_alert(table, "waiting", table.waiting, table.dealer))
        since = table.since or table.opened
        if table.signed != table.dealer and now - since >= grace:
            kind: AlertKind = "missing" if table.signed is None else "wrong"
            out.append(_alert(table, kind, since, table.dealer))
        if table.final and not room.final_dealers.get(table.tournament):
            out.append(_alert(table, "final_unchosen", table.opened))
    # By table number, not by key: table 3 before table 20.
    out.sort(key=lambda a: (a.since, a.tournament, a.table, a.kind))
    return out


def _alert(table: RoomTable, kind: AlertKind, since: float, dealer: str | None = None) -> Alert:
    return Alert(
        kind=kind,
        key=table.key,
        tournament=table.tournament,
        table=table.table,
        dealer=dealer,
        signed=table.signed,
        since=since,
    )


def next_push(table: RoomTable, plan: Forecast) -> tuple[float | None, DealerId | None]:
    """When ``table``'s next push comes and who comes in then. A table waiting with nobody
    dealing has no push: only a dealer the plan sends, and when (its last dealer's push time
    stays on the table and would read as a push with nobody there)."""
    coming = plan.coming.get(table.key)
    if coming is not None:
        return coming
    return (table.due if table.dealer is not None else None), None


def room_view(room: Room, now: float, plan: Forecast) -> RoomView:
    dealers = tuple(
        DealerView(
            id=d.id,
            name=d.name,
            games=d.games,
            status=d.status,
            since=d.since,
            tournament=None if d.table is None else d.table.rpartition("/")[0],
            table=None if d.table is None else int(d.table.rpartition("/")[2]),
            until=d.until,
            downs=d.downs,
            clocked_in=d.clocked_in,
            mark=d.mark,
            leaving=d.leaving,
            next=plan.next.get(d.id),
        )
        for d in sorted(room.dealers.values(), key=lambda d: (d.name.casefold(), d.id))
    )
    tables = tuple(
        TableView(
            key=t.key,
            tournament=t.tournament,
            table=t.table,
            game=t.game,
            dealer=t.dealer,
            since=t.since,
            due=next_push(t, plan)[0],
            coming=next_push(t, plan)[1],
            held=t.held,
            final=t.final,
            waiting=t.waiting,
            pin=t.pin,
            signed=t.signed,
            signed_at=t.signed_at,
        )
        for t in sorted(room.tables.values(), key=lambda t: (t.tournament, t.table))
    )
    working = sum(
        1 for d in room.dealers.values() if d.status in ("pool", "dealing", "break") and not d.mark
    )
    return RoomView(
        at=now,
        settings=room.settings,
        dealers=dealers,
        tables=tables,
        alerts=tuple(alerts(room, now)),
        needed=needed(len(room.tables), room.settings),
        working=working,
        final_dealers=dict(room.final_dealers),
        early_list=room.early_list,
    )
