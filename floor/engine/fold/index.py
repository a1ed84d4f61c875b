"""The indexes ``Tournament`` keeps beside its state, and the seating primitives its folds use.

Rebuilt on load and kept up to date by every fold, so that a bust-out at 10,000 players
costs microseconds, not a scan of every table.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Iterator
from typing import TYPE_CHECKING

from ..model import (
    PlayerId,
    SeatNo,
    TableNo,
    TableStatus,
)
from ..records import FieldPoint, LevelPoint, Player, Table, TournamentState, busted_since
from ..rules import Rules

if TYPE_CHECKING:
    from ..plan import Plan


class Indexed:
    """The state plus its indexes: the queries the planner asks and the primitives a fold uses."""

    __slots__ = (
        "_balance_rank",
        "_break_rank",
        "_buckets",
        "_open_by_break",
        "_order",
        "_plan",
        "_reserved",
        "active",
        "breaking",
        "nonempty",
        "open_count",
        "small_tables",
        "state",
    )

    state: TournamentState
    _plan: Plan | None

    def _reindex(self) -> None:
        s = self.state
        rules = s.rules
        self._reserved = rules.reserved()
        self._order: dict[TableNo, int] = {}
        self._balance_rank: dict[TableNo, int] = {}
        self._break_rank: dict[TableNo, int] = {}
        self._buckets: list[list[tuple[int, TableNo]]] = [[] for _ in range(13)]
        #: Open tables as (break rank, table): the next to break is the first, without a scan
        #: of the room (a scan of a thousand tables was the slowest part of a bust-out).
        self._open_by_break: list[tuple[int, TableNo]] = []
        self.active = 0
        self.nonempty = 0
        self.open_count = 0
        #: Tables being broken, so that housekeeping need not scan the room.
        self.breaking: set[TableNo] = set()
        #: Tables with fewer seats than the break fill (opened small), for the same reason.
        self.small_tables: set[TableNo] = set()
        for table in s.tables.values():
            self._index_table(table)

    def _index_table(self, table: Table) -> None:
        n = table.number
        rules = self.state.rules
        self._order[n] = len(self._order)
        bo = rules.balance_order
        self._balance_rank[n] = bo.index(n) if bo and n in bo else (len(bo or ()) + n)
        ko = rules.break_order
        # Tables missing from an explicit break order (opened later) break first.
        self._break_rank[n] = ko.index(n) if ko and n in ko else -(n + 1_000_000 if ko else n)
        if table.seats < rules.fill:
            self.small_tables.add(n)
        self.active += table.count
        if table.count:
            self.nonempty += 1
        if table.status == "open":
            self.open_count += 1
            insort(self._open_by_break, (self._break_rank[n], n))
            self._bucket_add(table)
        elif table.status == "breaking":
            self.breaking.add(n)

    @property
    def rules(self) -> Rules:
        return self.state.rules

    def table(self, n: TableNo) -> Table:
        return self.state.tables[n]

    def player(self, pid: PlayerId) -> Player:
        return self.state.players[pid]

    def input_index(self, n: TableNo) -> int:
        return self._order[n]

    def balance_rank(self, n: TableNo) -> int:
        return self._balance_rank[n]

    def break_rank(self, n: TableNo) -> int:
        return self._break_rank[n]

    def first_to_break(self) -> TableNo | None:
        """The open table first in the break order, if any."""
        return self._open_by_break[0][1] if self._open_by_break else None

    @property
    def has_reserved_seats(self) -> bool:
        return bool(self._reserved)

    def is_reserved(self, table: TableNo, seat: SeatNo) -> bool:
        return (table, seat) in self._reserved

    def reserved_seats(self) -> list[tuple[TableNo, SeatNo]]:
        return sorted(self._reserved)

    def needs_reserved(self, p: Player) -> bool:
        """A player needs a reserved seat when flagged, or when they sit in one now."""
        if p.special_needs:
            return True
        return p.table is not None and (p.table, p.seat) in self._reserved

    def open_tables(self) -> Iterator[Table]:
        """Tables that receive players and are balanced: open or halted, in input order."""
        return (t for t in self.state.tables.values() if t.status == "open")

    def open_by_count(self, lowest: bool) -> Iterator[tuple[int, int, TableNo]]:
        """Open tables as (count, balance rank, table), fewest or most players first."""
        counts = range(len(self._buckets)) if lowest else range(len(self._buckets) - 1, -1, -1)
        for c in counts:
            for rank, n in self._buckets[c]:
                yield c, rank, n

    def extreme(self, overrides: dict[TableNo, int], lowest: bool) -> TableNo | None:
        """The open table with the most (or fewest) players, ties by balance order.

        ``overrides`` gives virtual counts for the few tables a plan has changed.
        """
        sign = 1 if lowest else -1
        best: tuple[int, int, TableNo] | None = None
        for c, rank, n in self.open_by_count(lowest):
            if n not in overrides:
                best = (sign * c, rank, n)
                break
        for n, vc in overrides.items():
            cand = (sign * vc, self._balance_rank[n], n)
            if best is None or cand < best:
                best = cand
        return None if best is None else best[2]

    def max_open_count(self) -> int:
        for c in range(len(self._buckets) - 1, -1, -1):
            if self._buckets[c]:
                return c
        return 0

    def tables_with_at_most(self, count: int) -> Iterator[TableNo]:
        for c in range(min(count, len(self._buckets) - 1) + 1):
            for _, n in self._buckets[c]:
                yield n

    def _bucket_remove(self, table: Table) -> None:
        if table.status == "open":
            b = self._buckets[table.count]
            key = (self._balance_rank[table.number], table.number)
            del b[bisect_left(b, key)]

    def _bucket_add(self, table: Table) -> None:
        if table.status == "open":
            while table.count >= len(self._buckets):
                self._buckets.append([])
            insort(self._buckets[table.count], (self._balance_rank[table.number], table.number))

    def _sit(self, p: Player, table: Table, seat: SeatNo) -> None:
        self._bucket_remove(table)
        if not table.occupants:
            self.nonempty += 1
        table.occupants[seat] = p.id
        self._bucket_add(table)
        p.table = table.number
        p.seat = seat
        p.seated_bust_at = table.busted_at
        self.active += 1

    def _stand(self, p: Player) -> None:
        assert p.table is not None and p.seat is not None
        table = self.state.tables[p.table]
        self._bucket_remove(table)
        del table.occupants[p.seat]
        table.opened.append(p.seat)
        if len(table.opened) > 4 * table.seats:
            del table.opened[: len(table.opened) - 2 * table.seats]
        if busted_since(table, p) and (p.left_bust_at or 0.0) < (table.busted_at or 0.0):
            p.left_bust_at = table.busted_at
        if not table.occupants:
            self.nonempty -= 1
        self._bucket_add(table)
        p.table = None
        p.seat = None
        self.active -= 1

    def _set_status(self, table: Table, status: TableStatus) -> None:
        if table.status == status:
            return
        key = (self._break_rank[table.number], table.number)
        if table.status == "open":
            self._bucket_remove(table)
            self.open_count -= 1
            del self._open_by_break[bisect_left(self._open_by_break, key)]
        self.breaking.discard(table.number)
        table.status = status
        if status == "open":
            self._bucket_add(table)
            self.open_count += 1
            insort(self._open_by_break, key)
        elif status == "breaking":
            self.breaking.add(table.number)

    def _player(self, pid: PlayerId, name: str | None = None) -> Player:
        p = self.state.players.get(pid)
        if p is None:
            p = Player(id=pid, name=name or pid)
            self.state.players[pid] = p
            self.state.entries += 1
        return p

    def _field_point(self, at: float) -> None:
        self.state.field_history.append(FieldPoint(at, self.active))

    def _level_point(self, level: int, at: float) -> None:
        s = self.state
        s.level_history.append(LevelPoint(level, at, self.active, s.entries))
