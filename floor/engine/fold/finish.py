"""Folding the end of a tournament or a day: the winner, a deal (and its undoing), a
satellite's end, the day ended."""

from __future__ import annotations

from ..events import (
    DayEnded,
    DealMade,
    SatelliteEnded,
    TournamentFinished,
)
from .index import Indexed


class FinishFolds(Indexed):
    """The folds of the finish."""

    __slots__ = ()

    def _deal_made(self, e: DealMade) -> None:
        s = self.state
        s.deal = e
        s.deal_offer = None
        if e.ends:
            # The biggest stack at the deal is first: the tournament is won by the deal.
            self._tournament_finished(
                TournamentFinished(winner=e.shares[0].player, at=e.at, remaining=e.remaining)
            )

    def _deal_undone(self) -> None:
        s = self.state
        if s.deal is not None and s.deal.ends:
            # The deal's winner is no winner any more; the clock stays stopped (paused).
            s.winner = None
            s.finished_at = None
        s.deal = None

    def _satellite_ended(self, e: SatelliteEnded) -> None:
        """The clock stops as at the end of a day (``satellite``)."""
        self.state.satellite_end = e
        self.state.finished_at = e.at
        self._day_ended(DayEnded(at=e.at, remaining=e.remaining))
        self.state.day_ended = None

    def _tournament_finished(self, e: TournamentFinished) -> None:
        s = self.state
        s.winner = e.winner
        s.finished_at = e.at
        # The hand that made the winner is over: nobody is on the clock any more.
        s.time_calls.clear()
        if e.remaining is not None:
            c = s.clock
            c.running = False
            c.ends_at = None
            c.remaining = e.remaining

    def _day_ended(self, e: DayEnded) -> None:
        s = self.state
        s.day_ended = e
        s.time_calls.clear()
        if e.remaining is not None:
            c = s.clock
            c.running = False
            c.ends_at = None
            c.remaining = e.remaining
