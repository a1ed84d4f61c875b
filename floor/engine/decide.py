"""Deciding a command: validate it against the state, then return the events it causes.

``decide(t, command, now, rng)`` checks everything first and raises a ``RuleError`` naming the
field before any event is applied, so a refused command changes nothing. An accepted one is
applied to ``t`` as it is decided (housekeeping needs the new state to draw seats) and the
events are returned for the caller to store and publish.
"""

from __future__ import annotations

import random

from . import alternates, day_end, finish, hand_for_hand, satellite
from .commands import Command
from .events import Event
from .features.entries import registration
from .planner import housekeep
from .registry import DECIDERS
from .state import Tournament

#: ``registration`` is asked of every row an import previews (``entry_check``).
__all__ = ["decide", "registration"]


def decide(t: Tournament, command: Command, now: float, rng: random.Random) -> list[Event]:
    """The events ``command`` causes; raises ``RuleError`` (changing nothing) if refused."""
    if (refused := finish.bar(t, command)) is not None:
        raise refused
    if (refused := hand_for_hand.bar(t, command)) is not None:
        raise refused
    if (refused := day_end.bar(t, command)) is not None:
        raise refused
    if (refused := satellite.bar(t, command)) is not None:
        raise refused
    primary = _primary(t, command, now, rng)
    for e in primary:
        t.apply(e)
    events = primary + housekeep(t, rng)
    # A hand-for-hand round whose last table to report stopped playing is over.
    events += hand_for_hand.ending(t, now, rng)
    # Whatever left one player ends the tournament (the winner, the clock stopped); a
    # flight's day ends at its last level or its share of the field (the clock stopped).
    events += satellite.ending(t, now)
    events += finish.ending(t, now)
    events += day_end.ending(t, now)
    # Seats opened (or a level changed): the next alternates are called.
    return events + alternates.calling(t, now, events)


def _primary(t: Tournament, c: Command, now: float, rng: random.Random) -> list[Event]:
    """The events of the command itself, before housekeeping: its feature's decision
    (``registry``; ``tests/unit/test_dispatch.py`` holds that every command has one)."""
    return DECIDERS[type(c)](t, c, now, rng)
