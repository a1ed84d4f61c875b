"""A flight's capacity and its alternates: who waits, who is called, when their time is up.

A tournament with a capacity (``Capacity``: seats, or tables of the rule set's seats) seats no
more than that many at once. A registration while it is full (or while others wait) puts the
person in line instead (``queue``); the called alternates hold their seats, so that the room
is counted as the players still in plus the alternates called. When seats open the next are
called (``calling``): one by one as they open (``each``), or a wave at each level change
(``wave``), each with ``minutes`` to take the seat. The clock driver writes the end of that
time as it writes level changes (``deadlines``, ``lapsed``); whoever missed it leaves the line
and the next is called. When late registration closes, those still waiting are seated as
seats open or refunded at once (``Capacity.at_close``).

Everything here is pure: ``decide`` calls it with the time.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import msgspec

from . import clock, windows
from .alternates_fold import fold as alternates_fold
from .alternates_model import MAX_LINE, Alternate
from .commands import (
    DropAlternate,
    JoinAlternates,
    QueueAlternate,
    Register,
    SeatAlternate,
    SetCapacity,
)
from .dispatch import decides, folds, validates
from .errors import NotAllowed, refused
from .events import (
    AlternateEvent,
    AlternateQueued,
    AlternatesCalled,
    AlternateSeated,
    AlternatesLapsed,
    AlternatesLeft,
    CapacitySet,
    Event,
    LevelChanged,
    PlayerRegistered,
)
from .state import Tournament, TournamentState

#: ``decide``'s own registration: the checks of an entry, and the event (no seat drawn).
Registered = Callable[[Tournament, Register, float], PlayerRegistered]


def limit(s: TournamentState) -> int | None:
    cap = s.alternates.capacity
    return None if cap is None else cap.limit(s.rules.seats)


def held(s: TournamentState) -> int:
    """Seats taken or promised: the players still in, and the alternates called."""
    return len(s.players) - s.busted + len(s.alternates.called)


def open_seats(s: TournamentState) -> int | None:
    """Seats an alternate may be called to; None: no limit."""
    most = limit(s)
    return None if most is None else max(0, most - held(s))


def full(s: TournamentState) -> bool:
    """A registration now goes in line: the room is full, or others wait before it."""
    if s.alternates.waiting:
        return True
    free = open_seats(s)
    return free is not None and free <= 0


def _closed(s: TournamentState, now: float) -> bool:
    return windows.registration(s, clock.current_step(s, now)) is not None


class AlternateFacts(msgspec.Struct, frozen=True, kw_only=True):
    """What a screen shows of the capacity: the wall's code is up while ``full``."""

    full: bool
    #: Players at most at once (None: no limit), and seats taken or promised to the called.
    limit: int | None
    held: int


def facts(s: TournamentState) -> AlternateFacts | None:
    """None for a tournament without a capacity or a line (as before either)."""
    if s.alternates.capacity is None and not s.alternates.line:
        return None
    return AlternateFacts(full=full(s), limit=limit(s), held=held(s))


# Commands ---------------------------------------------------------------------------------


def queue(
    t: Tournament, c: Register | QueueAlternate | JoinAlternates, now: float, check: Registered
) -> list[Event]:
    """The person in line, with a registration's own checks first (a closed window, a
    re-entry's limits, the name as every screen shows it)."""
    s = t.state
    if not full(s):
        raise refused(NotAllowed, "alternates_not_full", {}, field="name")
    player = getattr(c, "player", None)
    registered = check(t, Register(name=c.name, player=player), now)
    line = s.alternates
    _room_in_line(s, "name")
    folded = registered.name.casefold()
    for a in line.line:
        if a.name.casefold() == folded or (player is not None and a.player == player):
            raise refused(
                NotAllowed, "alternate_in_line", {"alternate": a.id, "name": a.name}, field="name"
            )
    # A re-entry keeps the player's id; a new player gets one when seated.
    again = player if player is not None and player in s.players else None
    return [
        AlternateQueued(
            alternate=f"A{line.issued + 1}",
            name=registered.name,
            player=again,
            at=now,
            public=isinstance(c, JoinAlternates),
        )
    ]


def set_capacity(t: Tournament, capacity: CapacitySet) -> list[Event]:
    if capacity.capacity == t.state.alternates.capacity:
        raise refused(NotAllowed, "capacity_unchanged", {}, field="capacity")
    return [capacity]


def _alternate(s: TournamentState, ref: str) -> Alternate:
    a = s.alternates.find(ref)
    if a is None:
        raise refused(NotAllowed, "alternate_unknown", {"alternate": ref}, field="alternate")
    return a


# The checks a command and a logged event share.


def _room_in_line(s: TournamentState, field: str) -> None:
    if len(s.alternates.line) >= MAX_LINE:
        raise refused(NotAllowed, "alternates_line_full", {"most": MAX_LINE}, field=field)


def _called(s: TournamentState, ref: str) -> Alternate:
    """Alternate ``ref``, called to take a seat (only a called one takes it: the line goes in
    order)."""
    a = _alternate(s, ref)
    if a.called_at is None:
        raise refused(NotAllowed, "alternate_not_called", {"alternate": a.id}, field="alternate")
    return a


def seat(
    t: Tournament,
    c: SeatAlternate,
    now: float,
    register: Callable[[Register], list[Event]],
) -> list[Event]:
    """A called alternate took the seat: registered (the window is not asked: the seat was
    theirs when it opened) and seated as any late entry."""
    a = _called(t.state, c.alternate)
    events = register(Register(name=a.name, player=a.player))
    first = events[0]
    assert isinstance(first, PlayerRegistered)
    return [AlternateSeated(alternate=a.id, player=first.player, at=now), *events]


def drop(t: Tournament, c: DropAlternate, now: float) -> list[Event]:
    a = _alternate(t.state, c.alternate)
    return [AlternatesLeft(alternates=(a.id,), refunded=True, why="dropped", at=now)]


# What the clock and every command bring ----------------------------------------------------


def deadlines(s: TournamentState) -> list[float]:
    """When a called alternate's time runs out (the clock driver writes it)."""
    return [a.ends_at for a in s.alternates.line if a.ends_at is not None]


def lapsed(s: TournamentState, now: float) -> list[Event]:
    """The called alternates whose time is up by ``now`` (a ``Tick``)."""
    gone = tuple(a.id for a in s.alternates.line if a.ends_at is not None and a.ends_at <= now)
    return [AlternatesLapsed(alternates=gone, at=now)] if gone else []


def calling(t: Tournament, now: float, before: Sequence[Event]) -> list[Event]:
    """The calls (and refunds at the close) that the batch ``before`` brings, applied to
    ``t``: every command's last word, as ``finish.ending`` is."""
    s = t.state
    line = s.alternates
    if not line.line or s.winner is not None or s.day_ended is not None:
        return []
    cap = line.capacity
    events: list[Event] = []
    if cap is not None and cap.at_close == "refund" and line.waiting and _closed(s, now):
        ids = tuple(a.id for a in line.waiting)
        events.append(AlternatesLeft(alternates=ids, refunded=True, why="closed", at=now))
    else:
        waiting = line.waiting
        free = open_seats(s)
        n = len(waiting) if free is None else min(free, len(waiting))
        if cap is not None and cap.call == "wave":
            due = 0
            if any(isinstance(e, LevelChanged) for e in before):
                due = cap.wave or n
            # A seat its alternate let lapse goes to the next at once, not at the next level.
            due += sum(len(e.alternates) for e in before if isinstance(e, AlternatesLapsed))
            n = min(n, due)
        if n > 0:
            minutes = cap.minutes if cap is not None else 5.0
            ids = tuple(a.id for a in waiting[:n])
            events.append(AlternatesCalled(alternates=ids, at=now, ends_at=now + minutes * 60))
    for e in events:
        t.apply(e)
    return events


# An imported log ------------------------------------------------------------------------------


def check(t: Tournament, e: AlternateEvent) -> None:
    """Refuses an alternates event no command could have written here (``validate``)."""
    s = t.state
    line = s.alternates
    match e:
        case CapacitySet():
            pass
        case AlternateQueued():
            _room_in_line(s, "alternate")
            if e.alternate != f"A{line.issued + 1}":
                raise refused(
                    NotAllowed,
                    "not_as_recorded",
                    {"name": "alternate", "value": e.alternate, "expected": f"A{line.issued + 1}"},
                    field="alternate",
                )
        case AlternatesCalled():
            for ref in e.alternates:
                if _alternate(s, ref).called_at is not None:
                    raise refused(
                        NotAllowed, "alternate_called", {"alternate": ref}, field="alternates"
                    )
        case AlternateSeated():
            _called(s, e.alternate)
        case AlternatesLapsed() | AlternatesLeft():
            for ref in e.alternates:
                _alternate(s, ref)


# Dispatch (``floor.engine.registry``) ------------------------------------------------------


def _fold(t: Tournament, e: AlternateEvent) -> None:
    t.state.alternates = alternates_fold(t.state.alternates, e)


DECIDES = (
    decides(SetCapacity, lambda t, c, now, rng: set_capacity(t, CapacitySet(capacity=c.capacity))),
    decides(DropAlternate, lambda t, c, now, rng: drop(t, c, now)),
)
CHECKS = (
    validates(CapacitySet, check),
    validates(AlternateQueued, check),
    validates(AlternatesCalled, check),
    validates(AlternateSeated, check),
    validates(AlternatesLapsed, check),
    validates(AlternatesLeft, check),
)
FOLDS = (
    folds(CapacitySet, _fold),
    folds(AlternateQueued, _fold),
    folds(AlternatesCalled, _fold),
    folds(AlternateSeated, _fold),
    folds(AlternatesLapsed, _fold),
    folds(AlternatesLeft, _fold),
)
