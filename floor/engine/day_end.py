"""The end of a day: a flight set up, its day ended (the clock stops there), its bags.

``decide`` dispatches the commands here and asks ``ending`` after every command: a flight
whose day is over by its rules (its last level played, or its share of the field left) ends
there, as a tournament ends at its winner. After the end of the day nothing plays on: the
clock is not started again (Day 2 is a tournament of its own, ``day2``), and the bag sheets
are taken.
"""

from __future__ import annotations

from . import clock
from .bagging import check_sheet
from .commands import (
    BagTable,
    ClockAdjust,
    ClockLevel,
    ClockResume,
    ClockStart,
    Command,
    EndDay,
    SetFlight,
)
from .dispatch import decides, folds, validates
from .errors import NotAllowed, RuleError, refused
from .events import BagCount, DayEnded, Event, FlightSet, TableBagged
from .features import checks
from .flights import DayOver, day_over
from .state import Tournament


def set_flight(t: Tournament, c: SetFlight, now: float) -> list[Event]:
    if t.state.day_ended is not None:
        raise _ended()
    return [FlightSet(event=c.event, order=c.order, rules=c.rules, at=now)]


def over(t: Tournament) -> DayOver | None:
    """What makes the flight's day over now; None while it goes on (or it is no flight)."""
    s = t.state
    if s.flight is None or not s.drawn or not s.clock.started:
        return None
    # One record per player (a re-entry reuses it): those not out are the players left.
    left = len(s.players) - s.busted
    return day_over(s.flight.rules, s.structure, s.clock.level, left, s.entries)


def end_day(t: Tournament, c: EndDay, now: float) -> list[Event]:
    if t.state.day_ended is not None:
        raise _ended()
    by = over(t)
    if by is None and not c.now:
        raise refused(NotAllowed, "day_not_over", {}, field="now")
    return _stop(t, now, by or "director")


def ending(t: Tournament, now: float) -> list[Event]:
    """The end of the day a command has just brought, applied to ``t``; nothing before."""
    s = t.state
    if s.day_ended is not None or s.winner is not None:
        return []
    by = over(t)
    if by is None:
        return []
    return _stop(t, now, by)


def _stop(t: Tournament, now: float, by: DayOver) -> list[Event]:
    s = t.state
    events: list[Event] = []
    for change in clock.due(s, now):
        t.apply(change)
        events.append(change)
    remaining = clock.remaining(s.clock, now) if s.clock.running else None
    day = DayEnded(at=now, level=_last_level(t, by), by=by, remaining=remaining)
    t.apply(day)
    events.append(day)
    return events


def _last_level(t: Tournament, by: DayOver) -> int:
    s = t.state
    if by == "last_level" and s.flight is not None and s.flight.rules.last_level is not None:
        return s.flight.rules.last_level
    if s.structure is None:
        return 0
    number, _ = s.structure.level_played(min(s.clock.level, len(s.structure.levels) - 1))
    return number


def bag_table(t: Tournament, c: BagTable, now: float) -> list[Event]:
    s = t.state
    if s.day_ended is None:
        raise refused(NotAllowed, "day_not_ended", {})
    sheet = TableBagged(
        table=c.table,
        bags=tuple(BagCount(player=b.player, stack=b.stack, bag=b.bag) for b in c.bags),
        chips_on_table=c.chips_on_table,
        reason=c.reason,
        at=now,
    )
    check_sheet(t, sheet, s.bags.get(c.table))
    return [sheet]


def bar(t: Tournament, c: Command) -> RuleError | None:
    """Why ``c`` cannot be sent once the day has ended: the clock stays stopped."""
    if t.state.day_ended is None:
        return None
    if isinstance(c, ClockStart | ClockResume | ClockLevel | ClockAdjust):
        return _ended()
    return None


def _ended() -> NotAllowed:
    return refused(NotAllowed, "day_ended", {})


def check(t: Tournament, event: FlightSet | TableBagged | DayEnded) -> None:
    """Refuses an imported log's event no command could have written here (``validate``)."""
    s = t.state
    match event:
        case FlightSet():
            if s.day_ended is not None:
                raise _ended()
        case TableBagged():
            if s.day_ended is None:
                raise refused(NotAllowed, "day_not_ended", {})
            check_sheet(t, event, s.bags.get(event.table))
        case DayEnded():
            if s.day_ended is not None:
                raise _ended()


# Dispatch (``floor.engine.registry``) ------------------------------------------------------


def _flight_set(t: Tournament, e: FlightSet) -> None:
    t.state.flight = e


def _check_day_ended(t: Tournament, e: DayEnded) -> None:
    if e.remaining is not None:
        checks.not_negative("remaining", e.remaining)
    check(t, e)


DECIDES = (
    decides(BagTable, lambda t, c, now, rng: bag_table(t, c, now)),
    decides(EndDay, lambda t, c, now, rng: end_day(t, c, now)),
    decides(SetFlight, lambda t, c, now, rng: set_flight(t, c, now)),
)
CHECKS = (
    validates(FlightSet, check),
    validates(TableBagged, check),
    validates(DayEnded, _check_day_ended),
)
FOLDS = (
    folds(FlightSet, _flight_set),
    folds(TableBagged, Tournament._table_bagged),
    folds(DayEnded, Tournament._day_ended),
)
