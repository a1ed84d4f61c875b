"""The refusals every feature shares: a table in play, a seat empty or taken, a value in range.

A command's check (``decide``) and a logged event's check (``validate``) call these, so a
refusal has one wording, one reason and one field wherever it is raised.
"""

from __future__ import annotations

from .. import lookups
from ..errors import BadSeat, BadValue, NotAllowed, Param, RuleError, refused
from ..model import MAX_CHIPS, PlayerId, Positions, SeatNo, TableNo
from ..names import check_player_id
from ..state import Player, Table, Tournament

#: The limits of a command's fields (``commands``): a name, an id, a table number, seats.
MAX_NAME = 80
MAX_ID = 64
MAX_TABLE = 100_000
MIN_SEATS, MAX_SEATS = 2, 12


# Tables and seats ---------------------------------------------------------------------------


def in_play(table: Table, field: str = "table") -> Table:
    """``table``, if it is open (not breaking, not broken)."""
    if table.status != "open":
        raise refused(
            NotAllowed,
            "table_not_open",
            {"table": table.number, "status": table.status},
            field=field,
        )
    return table


def open_table(t: Tournament, n: TableNo, field: str = "table") -> Table:
    return in_play(lookups.table(t, n, field), field)


def short(table: Table) -> NotAllowed:
    return refused(NotAllowed, "table_short", {"table": table.number}, field="table")


def playing(table: Table) -> Table:
    """``table``, open with a game: two players at least."""
    in_play(table)
    if table.count < 2:
        raise short(table)
    return table


def empty(table: TableNo, seat: SeatNo, field: str) -> BadSeat:
    return refused(BadSeat, "seat_empty", {"table": table, "seat": seat}, field=field)


def occupant(table: Table, seat: SeatNo, field: str = "seat") -> PlayerId:
    """Who sits in ``seat`` of ``table`` (a seat it has), refusing an empty one."""
    pid = table.occupants.get(lookups.seat(table, seat, field))
    if pid is None:
        raise empty(table.number, seat, field)
    return pid


def free(table: Table, seat: SeatNo, field: str) -> SeatNo:
    holder = table.occupants.get(seat)
    if holder is not None:
        raise taken(table.number, seat, holder, field)
    return seat


def taken(table: TableNo, seat: SeatNo, holder: PlayerId, field: str) -> BadSeat:
    return refused(
        BadSeat, "seat_taken", {"table": table, "seat": seat, "holder": holder}, field=field
    )


def positions(table: Table, said: Positions | None) -> None:
    if said is not None:
        lookups.seat(table, said.button, "positions.button")
        lookups.seat(table, said.small_blind, "positions.small_blind")
        lookups.seat(table, said.big_blind, "positions.big_blind")


# Players ------------------------------------------------------------------------------------


def unseated(t: Tournament, pid: PlayerId, field: str) -> Player:
    p = lookups.still_in(t, pid, field)
    if p.table is not None and p.seat is not None:
        raise refused(
            NotAllowed,
            "already_there",
            {"player": pid, "table": p.table, "seat": p.seat},
            field=field,
        )
    return p


def at(t: Tournament, pid: PlayerId, table: TableNo, seat: SeatNo, field: str = "player") -> Player:
    """A player seated at ``table`` ``seat``, as the command or the event says."""
    p = lookups.seated(t, pid, field)
    if (p.table, p.seat) != (table, seat):
        raise wrong_seat(p, table, seat, field)
    return p


def wrong_seat(p: Player, table: TableNo | None, seat: SeatNo | None, field: str) -> BadSeat:
    return refused(
        BadSeat,
        "bust_wrong_seat",
        {
            "player": p.id,
            "table": table,
            "seat": seat,
            "at_table": p.table,
            "at_seat": p.seat,
        },
        field=field,
    )


def listed_twice(pid: PlayerId, field: str) -> NotAllowed:
    return refused(NotAllowed, "player_listed_twice", {"player": pid}, field=field)


# Limits and the log -------------------------------------------------------------------------


def stack(chips: int, field: str = "stack") -> None:
    in_range("stack", chips, 0, MAX_CHIPS, field)


def not_negative(name: str, value: float) -> None:
    if not value >= 0:  # NaN too
        raise out_of_range(name, value, 0, None, name)


def in_range(name: str, value: int, least: int, most: int, field: str | None = None) -> None:
    if not least <= value <= most:
        raise out_of_range(name, value, least, most, field or name)


def out_of_range(name: str, value: float, least: int, most: int | None, field: str) -> BadValue:
    return refused(
        BadValue,
        "out_of_range",
        {"name": name, "value": value, "least": least, "most": most},
        field=field,
    )


def not_as_recorded(
    name: str, value: Param, expected: Param, field: str | None = None
) -> RuleError:
    """A logged event's field that is not what the state before it makes it."""
    return refused(
        RuleError,
        "not_as_recorded",
        {"name": name, "value": value, "expected": expected},
        field=field or name,
    )


def player_id(pid: PlayerId, field: str = "player") -> None:
    """An id a logged event names for a new player: one ``decide`` would have taken."""
    in_range("player id length", len(pid), 1, MAX_ID, field)
    try:
        check_player_id(pid)
    except BadValue as e:
        raise e.recast(BadValue, field) from None
