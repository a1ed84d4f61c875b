"""Checking a log written elsewhere: each event as the rules could have written it.

The live floor writes only what ``decide`` returned, so its log holds nothing the rules
refuse. A log brought from elsewhere (an export that ``floor import`` reads back) holds
whatever decodes: seat 99 at a 9-seat table, a stack of -5, every bust-out in place 1. Such
a log folds, and the screens then show what no floor could have seen.

``check(t, event, previous)`` refuses an event no command could have caused in the state
``t`` before it (a ``RuleError`` with the reason and parameters every refusal carries);
``replay(events)`` folds a whole log, checking every event first, and names the first one
refused (``InvalidEvent``).

Checked is what the state and the screens rely on: players and tables that exist, players
where the event says they are, seats that exist and are free, names and ids that show,
stacks and counts within their limits, hand numbers, bust-out places that follow the
players left, the clock's steps. Not checked is what the rules leave to chance or to the
floor: which seat a draw gave, which table broke, whether a move was the planned one or a
floor correction to another free seat.
"""

from __future__ import annotations

from collections.abc import Iterable

from . import finish
from .errors import FloorError, RuleError, refused
from .events import Event, TournamentCreated
from .features import busts
from .features.checks import MAX_ID, MAX_NAME, MAX_SEATS, MAX_TABLE, MIN_SEATS
from .registry import CHECKERS
from .state import Tournament

__all__ = [
    "MAX_ID",
    "MAX_NAME",
    "MAX_SEATS",
    "MAX_TABLE",
    "MIN_SEATS",
    "InvalidEvent",
    "check",
    "replay",
]


class InvalidEvent(RuleError):
    """Event ``number`` of a log (1 for the first) is one the rules could not have written:
    the refusal ``error`` said of it, with its code, reason and parameters."""

    number: int = 0
    kind: str = ""
    error: FloorError


def _invalid(number: int, kind: str, error: FloorError) -> InvalidEvent:
    invalid = error.recast(InvalidEvent, None, f"event {number} ({kind}): {error}")
    invalid.code = error.code  # the kind of the event's own refusal: a bad seat, a bad value
    invalid.number = number
    invalid.kind = kind
    invalid.error = error
    return invalid


def replay(events: Iterable[Event]) -> Tournament:
    """The tournament ``events`` fold to, each checked against the state before it."""
    t: Tournament | None = None
    previous: Event | None = None
    number = 0
    for number, event in enumerate(events, 1):
        try:
            if t is None:
                if not isinstance(event, TournamentCreated):
                    raise _log_start()
                t = Tournament.create(event)
            else:
                check(t, event, previous)
                t.apply(event)
        except FloorError as e:
            raise _invalid(number, _kind(event), e) from None
        previous = event
    if t is None:
        raise _invalid(1, "", _log_start())
    try:
        busts.share_closed(t, previous, None)
    except FloorError as e:
        assert previous is not None
        raise _invalid(number, _kind(previous), e) from None
    return t


def check(t: Tournament, event: Event, previous: Event | None = None) -> None:
    """Raise ``RuleError`` (or a subclass) if no command could have caused ``event`` in the
    state ``t``; ``previous`` is the event before it, which a shared bust-out place spans.

    The event's own check is its feature's (``registry``; ``tests/unit/test_dispatch.py``
    holds that every event but ``tournament_created`` has one).
    """
    busts.share_closed(t, previous, event)
    finish.check(t, event)
    if type(event) is TournamentCreated:
        raise _log_start()
    CHECKERS[type(event)](t, event, previous)


def _log_start() -> RuleError:
    return refused(RuleError, "log_start", {})


def _kind(event: Event) -> str:
    return str(type(event).__struct_config__.tag)
