"""The plan: what the floor should do next. Recomputed after every change, never stored.

A planned move is a proposal until the floor calls it (announces it to the room) or carries
it out. The room (the wall, player screens, a follower's phone) is shown only the called
ones (``settled``): a player who gets up must find the seat they were told.
"""

from __future__ import annotations

import msgspec

from .model import MoveReason, PlayerId, SeatNo, TableNo


class Place(msgspec.Struct, frozen=True):
    """A table and maybe a seat: ``seat`` is None where the floor picks it."""

    table: TableNo
    seat: SeatNo | None


class PlannedMove(msgspec.Struct, frozen=True, kw_only=True):
    """A proposal for the floor to confirm, redirect or cancel.

    ``player`` is None for "the next big blind" of a table whose positions are unknown
    (or, at stud, a move whose seat the floor must pick); ``from.seat`` is None then too.
    ``why`` cites the rule the move follows, for screens to explain it; ``rule`` is that
    rule's id in the rulebook (``GET /api/rulebook/{rule}``), for a link to its full text.
    """

    player: PlayerId | None
    from_: Place = msgspec.field(name="from")
    to: Place
    reason: MoveReason
    why: str
    rule: str = ""
    #: How many times the floor has called this move: 0 planned (the staff alone see it),
    #: 1 called, 2 and up called again to another seat. A called move keeps its destination.
    called: int = 0
    #: When it was last called.
    called_at: float | None = None


class Halt(msgspec.Struct, frozen=True, kw_only=True):
    table: TableNo
    short: int
    why: str
    rule: str = ""


class Plan(msgspec.Struct, frozen=True, kw_only=True):
    moves: tuple[PlannedMove, ...] = ()
    halted: tuple[Halt, ...] = ()
    final_table: TableNo | None = None

    def move_of(self, player: PlayerId) -> PlannedMove | None:
        for m in self.moves:
            if m.player == player:
                return m
        return None

    @property
    def halted_tables(self) -> tuple[TableNo, ...]:
        return tuple(h.table for h in self.halted)

    def settled(self) -> Plan:
        """The plan as the room is shown it: the moves the floor has called, no others."""
        if all(m.called for m in self.moves):
            return self
        moves = tuple(m for m in self.moves if m.called)
        return Plan(moves=moves, halted=self.halted, final_table=self.final_table)

    def at_table(self, table: TableNo) -> Plan:
        """The plan as table ``table``'s screen is shown it: the called moves, and the moves
        from or to that table before they are called (its dealer holds the seat, or tells the
        player to get ready), no others."""
        if all(m.called or table in (m.from_.table, m.to.table) for m in self.moves):
            return self
        moves = tuple(m for m in self.moves if m.called or table in (m.from_.table, m.to.table))
        return Plan(moves=moves, halted=self.halted, final_table=self.final_table)

    def touches(self, table: TableNo) -> bool:
        """Whether a move not called yet comes from or goes to ``table``."""
        return any(not m.called and table in (m.from_.table, m.to.table) for m in self.moves)
