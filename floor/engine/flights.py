"""The flights of a festival's main event: when a flight's day ends, and whose bag goes on.

An event starts in several flights (Day 1A, 1B...), each a tournament of its own sharing the
entry list (a player is the same id in every flight) and the prize pool. A flight's day ends
at its last level, or once a set share of its field is left; its survivors bag their chips
(``bagging``) and Day 2 seats them together (``day2``). A player who bagged in more than one
flight brings one bag forward, by the house's rule (``StackForward``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from .errors import NotAllowed, refused
from .model import PlayerId
from .rules import Structure

#: Which bag a player who bagged in several flights brings to Day 2:
#: ``best`` the biggest (ties: the earliest flight), ``first`` the earliest flight's, and
#: ``no_flight_after_bag`` a player who bagged may not enter a later flight at all.
StackForward = Literal["best", "first", "no_flight_after_bag"]
#: What ended a day: its last level played, its share of the field left, the director.
DayOver = Literal["last_level", "field_share", "director"]


class FlightRules(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """The event's house rules for its flights."""

    stack_forward: StackForward = "best"
    #: The level number the day ends after; None: only the share of the field ends it.
    last_level: Annotated[int, Meta(ge=1)] | None = None
    #: The day ends once at most this share of the field is left (0.15: 15 %); None: only
    #: the last level ends it.
    end_share: Annotated[float, Meta(gt=0, lt=1)] | None = None
    #: The total-chips check flags a table or the room off by more than this many chips.
    chip_tolerance: Annotated[int, Meta(ge=0)] = 0


class Bagged(msgspec.Struct, frozen=True, kw_only=True):
    """One survivor's bag at the end of a flight."""

    player: PlayerId
    name: str
    #: The flight's tournament id, and where the flight comes in the event (1A first).
    flight: str
    order: int
    stack: int
    bag: str | None = None
    special_needs: bool = False


class CheckFailed(msgspec.Struct, frozen=True, kw_only=True):
    """A flight's total-chips check that failed at the end of its day (``bagging.check``):
    the bags add up to ``counted`` where ``expected`` chips must exist, ``difference`` apart,
    more than the flight's ``tolerance``."""

    flight: str
    expected: int
    counted: int
    difference: int
    tolerance: int


class Flight(msgspec.Struct, frozen=True, kw_only=True):
    """A flight as Day 2 needs it: its field and money, and its survivors' bags."""

    id: str
    name: str
    order: int
    entries: int
    rebuys: int = 0
    add_ons: int = 0
    survivors: tuple[Bagged, ...] = ()
    #: Survivors still without a bag: Day 2 waits for them.
    unbagged: int = 0
    #: The room's total-chips check, where it failed: Day 2 needs the director's word.
    check_failed: CheckFailed | None = None


def day_over(
    rules: FlightRules, structure: Structure | None, step: int, left: int, field: int
) -> DayOver | None:
    """What makes the flight's day over with the clock at ``step`` and ``left`` of ``field``
    players still in; None while it goes on. The share is of the entries: with 15 % of
    1,000 the day ends at 150 left, never later than its last level."""
    if rules.end_share is not None and field > 0:
        target = math.floor(field * rules.end_share)
        if left <= target:
            return "field_share"
    if rules.last_level is not None and structure is not None:
        # The step after the last level (a break counts as the level before it) is past it.
        number, after = structure.level_played(min(step, len(structure.levels) - 1))
        if number > rules.last_level or (number == rules.last_level and after):
            return "last_level"
    return None


def may_enter(rules: FlightRules, player: PlayerId, bags: Iterable[Bagged], order: int) -> None:
    """Refuses an entry to the flight at ``order`` by a player who bagged in an earlier
    flight, where the house allows no flight after a bag; anything else may enter."""
    if rules.stack_forward != "no_flight_after_bag":
        return
    for b in bags:
        if b.player == player and b.order < order:
            raise refused(
                NotAllowed,
                "flight_after_bag",
                {"player": player, "flight": b.flight},
                field="player",
            )


def forward(rule: StackForward, bags: list[Bagged]) -> Bagged:
    """The bag one player brings forward of the bags they made (at least one).

    Where no flight is allowed after a bag, a second bag should never have been made: the
    first one stands, as if the later entry had been refused.
    """
    if rule == "best":
        return min(bags, key=lambda b: (-b.stack, b.order))
    return min(bags, key=lambda b: b.order)
