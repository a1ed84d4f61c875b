"""The clock and the time calls: started, paused, resumed, adjusted, moved to a level; a
player on the clock.

Each command's decision (``decide`` calls it) and each logged event's check (``validate``
calls it) live here together, calling the same refusals.
"""

from __future__ import annotations

import random

from .. import (
    alternates,
    clock,
    lookups,
    rulings,
)
from ..commands import (
    CallTime,
    ClockAdjust,
    ClockLevel,
    ClockPause,
    ClockResume,
    ClockStart,
    EndTimeCall,
    Tick,
)
from ..dispatch import decides, folds, validates
from ..errors import (
    NotAllowed,
    refused,
)
from ..events import (
    ClockAdjusted,
    ClockPaused,
    ClockResumed,
    ClockStarted,
    Event,
    LevelChanged,
    TimeCalled,
    TimeCallEnded,
)
from ..model import SeatNo, TableNo
from ..state import TimeCall, Tournament
from . import checks


def clock_start(t: Tournament, c: ClockStart, now: float, rng: random.Random) -> list[Event]:
    return [clock.start(t.state, now)]


def clock_pause(t: Tournament, c: ClockPause, now: float, rng: random.Random) -> list[Event]:
    due = clock.due(t.state, now)
    return [*due, clock.pause(t.state, now, due)]


def clock_resume(t: Tournament, c: ClockResume, now: float, rng: random.Random) -> list[Event]:
    return [clock.resume(t.state, now)]


def clock_adjust(t: Tournament, c: ClockAdjust, now: float, rng: random.Random) -> list[Event]:
    due = clock.due(t.state, now)
    return [*due, clock.adjust(t.state, c.seconds, now, due)]


def clock_level(t: Tournament, c: ClockLevel, now: float, rng: random.Random) -> list[Event]:
    if (c.step is None) == (c.to is None):
        raise refused(NotAllowed, "step_or_to", {}, field="step")
    index = c.to if c.to is not None else t.state.clock.level + (c.step or 0)
    return [clock.go_to(t.state, index, now, field="to" if c.to is not None else "step")]


def tick(t: Tournament, c: Tick, now: float, rng: random.Random) -> list[Event]:
    events: list[Event] = list(clock.due(t.state, now))
    for call in t.state.time_calls:
        if call.ends_at <= now:
            events.append(
                TimeCallEnded(table=call.table, seat=call.seat, at=call.ends_at, outcome="dead")
            )
    return events + rulings.due(t.state, now) + alternates.lapsed(t.state, now)


def call_time(t: Tournament, c: CallTime, now: float, rng: random.Random) -> list[Event]:
    table = checks.open_table(t, c.table)
    pid = checks.occupant(table, c.seat)
    for call in t.state.time_calls:
        # A second call would restart the clock and give the player more time; one that has
        # run out (its end not yet written by the clock) or was on another player does not.
        if (call.table, call.seat, call.player) == (table.number, c.seat, pid) and (
            call.ends_at > now
        ):
            raise refused(
                NotAllowed,
                "time_already_called",
                {"table": table.number, "seat": c.seat},
                field="seat",
            )
    seconds = c.seconds if c.seconds is not None else t.rules.time_call_seconds
    count = c.count if c.count is not None else t.rules.time_call_count
    return [
        TimeCalled(
            table=table.number,
            seat=c.seat,
            player=pid,
            at=now,
            count_from=now + seconds,
            ends_at=now + seconds + count,
        )
    ]


def end_time_call(t: Tournament, c: EndTimeCall, now: float, rng: random.Random) -> list[Event]:
    time_call(t, c.table, c.seat)
    return [TimeCallEnded(table=c.table, seat=c.seat, at=now, outcome=c.outcome)]


def time_call(t: Tournament, table: TableNo, seat: SeatNo) -> TimeCall:
    """The time call running at ``table`` ``seat``."""
    for call in t.state.time_calls:
        if (call.table, call.seat) == (table, seat):
            return call
    raise refused(NotAllowed, "no_time_call", {"table": table, "seat": seat}, field="seat")


def check_level_changed(t: Tournament, e: LevelChanged) -> None:
    clock.step_of(t.state, e.level, "level")
    checks.not_negative("remaining", e.remaining)


def check_time_called(t: Tournament, e: TimeCalled) -> None:
    table = checks.open_table(t, e.table)
    holder = checks.occupant(table, e.seat)
    if e.player is not None and e.player != holder:
        raise checks.wrong_seat(lookups.seated(t, e.player), table.number, e.seat, "player")


def check_clock(
    t: Tournament, e: ClockStarted | ClockPaused | ClockResumed | ClockAdjusted
) -> None:
    s = t.state
    match e:
        case ClockStarted():
            clock.startable(s)
            clock.step_of(t.state, e.level, "level")
        case ClockPaused():
            clock.pausable(s)
            checks.not_negative("remaining", e.remaining)
        case ClockResumed():
            clock.resumable(s)
        case ClockAdjusted():
            clock.structure_of(s)
            checks.not_negative("remaining", e.remaining)


# Dispatch (``floor.engine.registry``) ------------------------------------------------------

DECIDES = (
    decides(Tick, tick),
    decides(CallTime, call_time),
    decides(EndTimeCall, end_time_call),
    decides(ClockStart, clock_start),
    decides(ClockPause, clock_pause),
    decides(ClockResume, clock_resume),
    decides(ClockAdjust, clock_adjust),
    decides(ClockLevel, clock_level),
)
CHECKS = (
    validates(LevelChanged, check_level_changed),
    validates(TimeCalled, check_time_called),
    validates(TimeCallEnded, lambda t, e: time_call(t, e.table, e.seat)),
    validates(ClockStarted, check_clock),
    validates(ClockPaused, check_clock),
    validates(ClockResumed, check_clock),
    validates(ClockAdjusted, check_clock),
)
FOLDS = (
    folds(LevelChanged, Tournament._level_changed),
    folds(TimeCalled, Tournament._time_called),
    folds(TimeCallEnded, Tournament._time_call_ended),
    folds(ClockStarted, Tournament._clock_started),
    folds(ClockPaused, Tournament._clock_paused),
    folds(ClockResumed, Tournament._clock_resumed),
    folds(ClockAdjusted, Tournament._clock_adjusted),
)
