"""A satellite's prizes: seats in a target event, each worth its buy-in plus fee.

The seats are as many as the pool holds whole (``pool // seat``); what is left over goes as
the house sets: to the next finisher (``leftover = "next"``, the default) as a cash prize, or
split among the seat winners (``"split"``, rounded down to the prize unit, the odd units to
the first of them). Kept apart from ``prize`` so that the money module stays about money.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta

TournamentRef = Annotated[str, Meta(min_length=1, max_length=64)]


class Satellite(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """The prizes are seats in ``target``, each worth ``seat`` (its buy-in plus fee)."""

    #: The tournament the seats enter (its id).
    target: TournamentRef
    seat: Annotated[int, Meta(gt=0, le=10**12)]
    #: The money left over once the seats are taken out of the pool.
    leftover: Literal["next", "split"] = "next"
    #: The tickets may be handed to another player (False: bound to the winner).
    transferable: bool = False
    #: A milestone satellite: a counted stack of this many chips wins a seat at once, and the
    #: player leaves with their chips out of play (``milestone``); None: seats only at the end.
    milestone: Annotated[int, Meta(gt=0, le=10**15)] | None = None


def seat_count(satellite: Satellite, pool: int) -> int:
    return pool // satellite.seat


def amounts(satellite: Satellite, pool: int, unit: int) -> list[int]:
    """The prize of each paid place, first first: a seat's worth for each seat winner, then
    the leftover as the house sets (a place of its own, or shared by the seats)."""
    seats = seat_count(satellite, pool)
    left = pool - seats * satellite.seat
    if seats == 0:
        return [pool] if pool else []
    if satellite.leftover == "next" or left == 0:
        return [satellite.seat] * seats + ([left] if left else [])
    each = left // seats // unit * unit
    odd = left - each * seats
    out = [satellite.seat + each] * seats
    out[0] += odd
    return out
