"""Folding the moves: made, called, cancelled, lapsed, and the seats drawn for them."""

from __future__ import annotations

from ..events import (
    CallsLapsed,
    MoveCancelled,
    MovesCalled,
    PlayersMoved,
    SeatLockSet,
    SeatsAssigned,
)
from ..records import Assignment, Called
from .index import Indexed


class MoveFolds(Indexed):
    """The folds of the moves."""

    __slots__ = ()

    def _players_moved(self, e: PlayersMoved) -> None:
        players = self.state.players
        tables = self.state.tables
        # Everybody stands up before anybody sits down, so two players can swap seats.
        for m in e.moves:
            self._stand(players[m.player])
        for m in e.moves:
            p = players[m.player]
            self._sit(p, tables[m.to.table], m.to.seat)
            self.state.draws.pop(p.id, None)
            self.state.calls.pop(p.id, None)
            if e.reason in ("balance", "break"):
                p.moved = True
            if e.reason != "correction":
                p.moves += 1

    def _move_cancelled(self, e: MoveCancelled) -> None:
        if e.player is None:
            return
        self.state.calls.pop(e.player, None)
        if e.reason == "balance":
            self.state.players[e.player].excused = True
        else:
            self.state.draws.pop(e.player, None)

    def _moves_called(self, e: MovesCalled) -> None:
        s = self.state
        for c in e.calls:
            s.calls[c.player] = Called(
                from_table=c.from_.table,
                table=c.to.table,
                seat=c.to.seat,
                reason=c.reason,
                at=e.at,
                count=c.count,
            )
            drawn = s.draws.get(c.player)
            # A drawn seat called again elsewhere at its table: the draw is that seat now.
            if drawn is not None and c.to.seat is not None and c.to.seat != drawn.seat:
                s.draws[c.player] = Assignment(c.to.table, c.to.seat, drawn.reason)

    def _calls_lapsed(self, e: CallsLapsed) -> None:
        for pid in e.players:
            self.state.calls.pop(pid, None)

    def _seats_assigned(self, e: SeatsAssigned) -> None:
        draws = self.state.draws
        if e.reason == "final":
            self.state.final_drawn = True
        for pid in e.withdrawn:
            draws.pop(pid, None)
        for s in e.seats:
            draws[s.player] = Assignment(s.table, s.seat, e.reason)

    def _seat_lock_set(self, e: SeatLockSet) -> None:
        self.state.players[e.player].locked = e.locked
