"""Folding the clock: started, paused, resumed, adjusted, its levels, the time calls, and the
structure and prize it runs on."""

from __future__ import annotations

import msgspec

from ..events import (
    ClockAdjusted,
    ClockPaused,
    ClockResumed,
    ClockStarted,
    LevelChanged,
    PrizeChanged,
    StructureChanged,
    TimeCalled,
    TimeCallEnded,
)
from ..records import TimeCall
from .index import Indexed


class ClockFolds(Indexed):
    """The folds of the clock's events."""

    __slots__ = ()

    def _clock_started(self, e: ClockStarted) -> None:
        c = self.state.clock
        c.started = True
        c.running = True
        c.level = e.level
        c.ends_at = e.ends_at
        c.remaining = e.ends_at - e.at
        self._level_point(e.level, e.at)

    def _clock_paused(self, e: ClockPaused) -> None:
        c = self.state.clock
        c.running = False
        c.ends_at = None
        c.remaining = e.remaining

    def _clock_resumed(self, e: ClockResumed) -> None:
        c = self.state.clock
        c.running = True
        c.ends_at = e.ends_at
        c.remaining = e.ends_at - e.at

    def _clock_adjusted(self, e: ClockAdjusted) -> None:
        c = self.state.clock
        c.ends_at = e.ends_at
        c.remaining = e.remaining

    def _level_changed(self, e: LevelChanged) -> None:
        c = self.state.clock
        c.level = e.level
        c.ends_at = e.ends_at
        c.remaining = e.remaining
        self._level_point(e.level, e.at)
        structure = self.state.structure
        if structure is not None and self.state.rules.game == "mixed":
            from ..rules import Level

            step = structure.levels[e.level]
            if isinstance(step, Level) and step.game is not None:
                self.state.current_game = step.game

    def _time_called(self, e: TimeCalled) -> None:
        calls = self.state.time_calls
        calls[:] = [c for c in calls if (c.table, c.seat) != (e.table, e.seat)]
        calls.append(
            TimeCall(
                table=e.table,
                seat=e.seat,
                player=e.player,
                at=e.at,
                count_from=e.count_from,
                ends_at=e.ends_at,
            )
        )

    def _time_call_ended(self, e: TimeCallEnded) -> None:
        calls = self.state.time_calls
        calls[:] = [c for c in calls if (c.table, c.seat) != (e.table, e.seat)]

    def _prize_changed(self, e: PrizeChanged) -> None:
        s = self.state
        assert s.structure is not None  # ``amendments``: money needs a structure
        s.structure = msgspec.structs.replace(s.structure, prize=e.prize)

    def _structure_changed(self, e: StructureChanged) -> None:
        self.state.structure = e.structure
        if e.remaining is not None:
            self.state.clock.remaining = e.remaining
