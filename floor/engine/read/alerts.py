"""What a batch of events asks of somebody: the alerts a phone is woken for.

A player is alerted for what they must act on: a move the floor called for them, their table
breaking, bag time (the day is over), their payout ready (out in the money, or the winner),
and the bubble bursting (every player left is in the money). The staff are alerted for what
is theirs: a time call or a table to break, by table; the server gives each table's alerts to
the floorperson whose section holds it (``floor.server.push_notify``).

Only what the room may see: a move is an alert once called (the room is shown called moves
alone), never while planned. Pure: the events of one batch and the tournament after it in,
the alerts out; the caller decides who is subscribed and sends.

``SEAT_READY`` is the alert for an alternate whose seat is ready: no event says so yet (the
alternates' list is still to come), so nothing makes it; its text and its place are here.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final, Literal

import msgspec

from ..events import (
    DayEnded,
    Event,
    MovesCalled,
    PlayerBusted,
    TableBreaking,
    TimeCalled,
    TournamentFinished,
)
from ..model import PlayerId, TableNo
from ..money import finish_of, in_the_money
from ..state import Tournament

PlayerKind = Literal[
    "move_called", "table_breaking", "bag_time", "payout_ready", "in_the_money", "seat_ready"
]
StaffKind = Literal["time_called", "table_breaking"]

#: An alternate's seat is ready (no event makes it yet: see the top).
SEAT_READY: Final = "seat_ready"


class PlayerAlert(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One alert for one player; the fields a kind does not use stay None."""

    kind: PlayerKind
    player: PlayerId
    table: TableNo | None = None
    seat: int | None = None
    #: ``move_called``: 2 and up when called again to another seat.
    count: int | None = None
    #: ``payout_ready``: the place and prize; ``in_the_money``: the places paid.
    place: int | None = None
    prize: int | None = None
    currency: str | None = None
    places: int | None = None
    #: ``bag_time``: the last level played.
    level: int | None = None


class StaffAlert(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One alert for the floorperson of ``table``'s section."""

    kind: StaffKind
    table: TableNo
    seat: int | None = None


def for_players(events: Iterable[Event], t: Tournament) -> list[PlayerAlert]:
    """The players' alerts of a batch, ``t`` being the tournament after it. A player gets at
    most one alert of a kind per batch (a move called twice in one batch: the last call)."""
    out: dict[tuple[str, PlayerId], PlayerAlert] = {}
    s = t.state
    busted: list[PlayerId] = []

    def add(alert: PlayerAlert) -> None:
        out[(alert.kind, alert.player)] = alert

    for e in events:
        match e:
            case MovesCalled(calls=calls):
                for call in calls:
                    add(
                        PlayerAlert(
                            kind="move_called",
                            player=call.player,
                            table=call.to.table,
                            seat=call.to.seat,
                            count=call.count if call.count > 1 else None,
                        )
                    )
            case TableBreaking(table=table):
                for pid in _seated_at(t, table):
                    add(PlayerAlert(kind="table_breaking", player=pid, table=table))
            case DayEnded(level=level):
                for p in s.players.values():
                    if not p.busted and p.table is not None:
                        add(PlayerAlert(kind="bag_time", player=p.id, table=p.table, level=level))
            case PlayerBusted(player=pid):
                busted.append(pid)
            case TournamentFinished(winner=pid):
                busted.append(pid)
            case _:
                pass
    for pid in busted:
        out_player = s.players.get(pid)
        done = finish_of(t, out_player) if out_player is not None else None
        if done is not None and done.prize:
            add(
                PlayerAlert(
                    kind="payout_ready",
                    player=pid,
                    place=done.place,
                    prize=done.prize,
                    currency=done.currency,
                )
            )
    if busted:
        burst = in_the_money(t)
        # The bubble burst in this batch: it is one of this batch's bust-outs that burst it.
        if burst is not None and set(burst.players) & set(busted):
            for p in s.players.values():
                if not p.busted:
                    add(PlayerAlert(kind="in_the_money", player=p.id, places=burst.places))
    return list(out.values())


def for_staff(events: Iterable[Event]) -> list[StaffAlert]:
    """The staff's alerts of a batch, by table."""
    out: list[StaffAlert] = []
    for e in events:
        match e:
            case TimeCalled(table=table, seat=seat):
                out.append(StaffAlert(kind="time_called", table=table, seat=seat))
            case TableBreaking(table=table):
                out.append(StaffAlert(kind="table_breaking", table=table))
            case _:
                pass
    return out


def _seated_at(t: Tournament, table: TableNo) -> list[PlayerId]:
    found = t.state.tables.get(table)
    if found is None:
        return []
    seated = list(found.occupants.values())
    if seated:
        return seated
    # Moved off already in the same batch (a break carried out at once): the break's movers.
    return [m.player for m in t.plan.moves if m.player is not None and m.from_.table == table]
