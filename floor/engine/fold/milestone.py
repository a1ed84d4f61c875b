"""Folding a milestone satellite's seat: the winner leaves their seat with their chips out of
play (``milestone``); an undo of it is a bust-out's undo (``PlayerFolds._bust_undone``)."""

from __future__ import annotations

from ..events import SeatAwarded
from ..records import BustRecord
from .index import Indexed


class MilestoneFolds(Indexed):
    """The fold of a seat awarded at a milestone."""

    __slots__ = ()

    def _seat_awarded(self, e: SeatAwarded) -> None:
        s = self.state
        p = s.players[e.player]
        self._stand(p)
        # Out of the field as a bust-out is (the players left, the planner, the undo), but
        # with a seat won: ``seat_won`` keeps them apart wherever places and prizes are shown.
        p.busted = True
        p.bust = BustRecord(
            table=e.table,
            seat=e.seat,
            hand=e.hand,
            place=e.place,
            stack=e.stack,
            at=e.at,
            at_final=e.table == s.final_table,
            level=s.clock.level if s.clock.started else None,
            by=e.by,
            seat_won=True,
            seat_ticket=e.seat_ticket,
        )
        p.stack = 0
        s.draws.pop(p.id, None)
        s.calls.pop(p.id, None)
        s.rulings.drop(p.id)
        s.busted += 1
        s.seats_won += 1
        s.seat_awards += 1
        s.chips_out += e.stack
        self._field_point(e.at)
