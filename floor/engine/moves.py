"""Which seat a planned move, or a floor correction, may take (FLOOR-RULES 4 and 10.6).

A move is confirmed to the seat drawn for it or redirected to another free seat at the same
table: never one drawn for another move, and a seat kept for special needs only for a mover
who needs one. Each check returns None when the rule allows the seat, else a ``Why``;
``decide`` raises ``refusal(why, field)`` and the derived facts list the seats each move may
take.
"""

from __future__ import annotations

from collections.abc import Collection

from .errors import BadSeat, refused
from .model import PlayerId, SeatNo, Spot, TableNo
from .state import Tournament
from .why import Why


def planned_seats(t: Tournament) -> set[tuple[TableNo, SeatNo]]:
    """The seats the plan has drawn for its moves."""
    return {(m.to.table, m.to.seat) for m in t.plan.moves if m.to.seat is not None}


def planned_bar(planned: Collection[tuple[TableNo, SeatNo]], to: Spot) -> Why | None:
    """Why ``to`` is not free for a redirect or a correction: drawn for a move (``planned``)."""
    if (to.table, to.seat) in planned:
        return Why("seat_planned", {"table": to.table, "seat": to.seat})
    return None


def redirect_bar(
    t: Tournament, to: Spot, needs_reserved: bool, planned: Collection[tuple[TableNo, SeatNo]]
) -> Why | None:
    """Why a move may not be redirected to ``to``, a seat of its table other than the one
    drawn for it: drawn for another move, or kept for special needs and the mover (who
    ``needs_reserved`` or not) needs none."""
    why = planned_bar(planned, to)
    if why is None and not needs_reserved and t.is_reserved(to.table, to.seat):
        return Why("seat_reserved", {"table": to.table, "seat": to.seat})
    return why


def taken_bar(t: Tournament, to: Spot, moving: Collection[PlayerId]) -> Why | None:
    """Why a mover may not sit at ``to``: somebody sits there who is not ``moving`` away."""
    holder = t.table(to.table).occupants.get(to.seat)
    if holder is not None and holder not in moving:
        return Why("seat_taken", {"table": to.table, "seat": to.seat, "holder": holder})
    return None


def refusal(why: Why, field: str = "seat") -> BadSeat:
    """What ``decide`` raises for ``why``, about the request's ``field``."""
    return refused(BadSeat, why.reason, why.params, field)
