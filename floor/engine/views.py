"""What a table shows: its status, next big blind and waiting players (FLOOR-RULES 1-3).

Derived from the state and the plan, never stored; shared by ``floor scenario`` and screens.
"""

from __future__ import annotations

import msgspec

from .model import FLOP_GAMES, PlayerId, ShownStatus
from .positions import next_big_blind as _next_bb
from .positions import waiting_seats
from .state import Table, Tournament


def shown_status(t: Tournament, table: Table) -> ShownStatus:
    if table.status == "open" and table.number in t.plan.halted_tables:
        return "halted"
    return table.status


def _dealing_flop(t: Tournament) -> bool:
    return t.state.current_game in FLOP_GAMES


def next_big_blind(t: Tournament, table: Table) -> PlayerId | None:
    """The player in the next hand's big blind; None when unknown, at stud, or nobody sits."""
    if table.positions is None or not table.occupants or not _dealing_flop(t):
        return None
    seat = _next_bb(table.positions, table.seats, table.occupants)
    return None if seat is None else table.occupants[seat]


def waiting(t: Tournament, table: Table) -> list[PlayerId]:
    """Players not dealt the next hand: seated between the next button and small blind."""
    if table.positions is None or table.count < 3 or not _dealing_flop(t):
        return []
    seats = waiting_seats(table.positions, table.seats, table.occupants)
    return [table.occupants[s] for s in seats]


class FieldStats(msgspec.Struct, frozen=True, kw_only=True):
    """The numbers on the wall display: players left of entries, the average stack."""

    players_left: int
    entries: int
    tables_in_play: int
    #: Chips in play: every entry's starting stack (None without a structure).
    chips: int | None
    average_stack: int | None


def field_stats(t: Tournament) -> FieldStats:
    s = t.state
    chips = s.entries * s.structure.starting_stack if s.structure is not None else None
    left = t.active
    return FieldStats(
        players_left=left,
        entries=s.entries,
        tables_in_play=t.open_count,
        chips=chips,
        average_stack=None if chips is None or not left else round(chips / left),
    )
