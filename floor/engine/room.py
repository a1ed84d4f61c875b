"""Room at the open tables for players to be seated (FLOOR-RULES 5 and 10.6).

One rule, asked three ways: the planner breaks a table as soon as the others can seat
everybody at the break fill (``room``); a table opened now must not break at once (``room``
again); the director may break any table but the last whose players fit the free seats of
the others (``unbreakable``, which the derived facts show and ``break_bar`` refuses by).

A seat of an open table is room while it is counted (up to the break fill, or every seat when
the director breaks a table) and not spoken for by a seat the plan drew for a mover. A free
seat kept for special needs is room only for a player who needs one, and for as many of the
players to be seated as need one: a table of 6 with one such seat free holds 5 others, or 6
when one of the players to be seated needs it.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

from .errors import NotAllowed, refused
from .model import SeatNo, TableNo
from .moves import planned_seats
from .state import Table, Tournament
from .why import Why


class Room:
    """The seats of the open tables, counted once: the room without any one of them is then
    asked at no cost (the derived facts ask it for every table after every batch).

    ``fill``: the seats counted at a table (the break fill); None: every seat. ``spoken``:
    empty seats drawn for a move, room for nobody else. Only the tables that hold fewer than
    they count (opened small under the fill, keeping a seat, seats spoken for) are looked at
    one by one, so the planner's check costs nothing in a room of a thousand plain tables.
    """

    __slots__ = ("_fill", "_needing", "_ordinary", "_seats", "_spare", "_t")

    def __init__(
        self,
        t: Tournament,
        fill: int | None,
        spoken: Collection[tuple[TableNo, SeatNo]] = (),
    ) -> None:
        self._t = t
        self._fill = fill
        tables = t.state.tables
        kept: dict[TableNo, int] = {}
        for r in t.rules.reserved_seats:
            table = tables.get(r.table)
            # A table opened with fewer seats has no such seat to keep.
            if (
                table is not None
                and r.seat <= table.seats
                and r.seat not in table.occupants
                and (r.table, r.seat) not in spoken
            ):
                kept[r.table] = kept.get(r.table, 0) + 1
        drawn: dict[TableNo, int] = {}
        for n, seat in spoken:
            table = tables.get(n)
            if table is not None and seat <= table.seats and seat not in table.occupants:
                drawn[n] = drawn.get(n, 0) + 1
        #: The tables that hold fewer than they count (opened small under the fill, keeping a
        #: seat, or with seats spoken for): (seats anybody may take, seats only who needs
        #: one may take). Every other open table holds what it counts, for anybody.
        self._seats: dict[TableNo, tuple[int, int]] = {}
        irregular = kept.keys() | drawn.keys() if kept or drawn else set()
        if fill is None:
            ordinary = sum(tb.seats for tb in t.open_tables())
        else:
            ordinary = t.open_count * fill
            irregular = irregular | t.small_tables if irregular else t.small_tables
        spare = 0
        for n in irregular:
            table = tables[n]
            if table.status != "open":
                continue
            counted = table.seats if fill is None else min(fill, table.seats)
            usable = table.seats - drawn.get(n, 0)
            anybody = min(counted, usable - kept.get(n, 0))
            needy = min(counted, usable) - anybody
            self._seats[n] = (anybody, needy)
            ordinary += anybody - (table.seats if fill is None else fill)
            spare += needy
        self._ordinary = ordinary
        self._spare = spare
        self._needing: dict[TableNo, int] = {}

    def holds(self, without: Table | None, sources: Iterable[TableNo]) -> int:
        """Players the open tables but ``without`` hold, those to be seated coming from
        ``without`` and the tables ``sources`` (a free reserved seat holds one of them who
        needs one)."""
        ordinary, spare = self._ordinary, self._spare
        if without is not None and without.status == "open":
            own = self._seats.get(without.number)
            if own is None:
                fill = self._fill
                ordinary -= without.seats if fill is None else min(fill, without.seats)
            else:
                ordinary -= own[0]
                spare -= own[1]
        if spare:
            # Asked only where a reserved seat is free elsewhere, so rarely.
            needing = sum(self._needs(n) for n in sources)
            if without is not None:
                needing += self._needs(without.number)
            ordinary += min(spare, needing)
        return ordinary

    def _needs(self, n: TableNo) -> int:
        """Players at table ``n`` who need a reserved seat."""
        count = self._needing.get(n)
        if count is None:
            t = self._t
            players = t.state.players
            occupants = t.table(n).occupants.values()
            count = sum(1 for pid in occupants if t.needs_reserved(players[pid]))
            self._needing[n] = count
        return count


def room(t: Tournament, without: TableNo | None = None) -> int:
    """Players the open tables (but ``without``) can seat at the break fill, those to be
    seated being the players at ``without`` and at the breaking tables (FLOOR-RULES 5: the
    others "can seat everybody")."""
    return Room(t, t.rules.fill).holds(None if without is None else t.table(without), t.breaking)


def unbreakable(t: Tournament) -> dict[TableNo, int]:
    """Open tables the director cannot break now, each with the free seats the other open
    tables have for its players: the last table in play (none elsewhere), and any whose
    players the others cannot seat in seats not drawn for a move, every seat counted (where
    the players of a table the director breaks are drawn)."""
    space = Room(t, None, planned_seats(t))
    last = t.open_count < 2
    # Players seated at the open tables (those of the breaking ones wait for seats elsewhere).
    seated = t.active - sum(t.table(n).count for n in t.breaking)
    out = {}
    for table in t.open_tables():
        count = table.count
        # What the others hold, less the players already seated there.
        free = space.holds(table, ()) - (seated - count)
        if last or free < count:
            out[table.number] = free
    return out


def break_bar(t: Tournament, table: Table) -> Why | None:
    """Why the director cannot break open ``table`` now (``unbreakable`` lists it), or None."""
    free = unbreakable(t).get(table.number)
    if free is None:
        return None
    if t.open_count < 2:
        return Why("last_table", {"table": table.number})
    return Why("break_no_room", {"room": free, "players": table.count})


def refusal(why: Why) -> NotAllowed:
    """What ``decide`` raises for ``why`` (its words are the reason's template)."""
    return refused(NotAllowed, why.reason, why.params, "table")
