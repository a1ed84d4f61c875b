"""Lookups that name what is wrong: a player, a seated player, a table, a seat of it.

Every command's check and the import validator find players and tables through these, so
a missing player is refused with the same reason, field and words wherever it is named.
"""

from __future__ import annotations

from .errors import BadSeat, NotAllowed, UnknownPlayer, UnknownTable, refused
from .model import PlayerId, SeatNo, TableNo
from .state import Player, Table, Tournament


def player(t: Tournament, pid: PlayerId, field: str = "player") -> Player:
    """A player on record (in, waiting or out)."""
    p = t.state.players.get(pid)
    if p is None:
        raise refused(UnknownPlayer, "player_unknown", {"player": pid}, field=field)
    return p


def still_in(t: Tournament, pid: PlayerId, field: str = "player") -> Player:
    """A player still in (seated or waiting for a seat)."""
    p = player(t, pid, field)
    if p.busted:
        raise refused(NotAllowed, "player_out", {"player": pid}, field=field)
    return p


def seated(t: Tournament, pid: PlayerId, field: str = "player") -> Player:
    """A player still in who has a seat."""
    p = still_in(t, pid, field)
    if p.table is None:
        raise refused(NotAllowed, "player_unseated", {"player": pid}, field=field)
    return p


def table(t: Tournament, n: TableNo, field: str = "table") -> Table:
    found = t.state.tables.get(n)
    if found is None:
        raise refused(UnknownTable, "table_unknown", {"table": n}, field=field)
    return found


def unbroken_table(t: Tournament, n: TableNo, field: str = "table") -> Table:
    """A table that has not been broken (a breaking one still is a table)."""
    found = table(t, n, field)
    if found.status == "broken":
        raise refused(NotAllowed, "table_broken", {"table": found.number}, field=field)
    return found


def seat(at: Table, n: SeatNo, field: str = "seat") -> SeatNo:
    if not 1 <= n <= at.seats:
        raise refused(BadSeat, "seat_unknown", {"table": at.number, "seat": n}, field=field)
    return n
