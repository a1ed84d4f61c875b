"""Which chip a table may race off at a step of the clock, and which replaces it (PFP 20).

At a colour-up break the chips leaving then; at any other step any chip in play that a larger
one staying in play can replace (a floor colouring up on its own). ``terms`` returns the race's
terms or a ``Why``; ``decide`` raises ``refusal(why)``, and the clock facts offer the chips
``offered`` names with the terms ``terms`` gives them.
"""

from __future__ import annotations

from typing import NamedTuple

from .errors import NotAllowed, refused
from .rules import Break, Structure
from .why import Why


class Terms(NamedTuple):
    leaving: int
    #: The smallest larger chip that stays: what the leaving ones are exchanged for.
    next_up: int
    #: The smallest chip that stays, which a player raced out of chips is given.
    smallest_in_play: int


def _chips(structure: Structure, step: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The chips leaving at ``step`` (a colour-up break's) and those in play before them."""
    current = structure.levels[step]
    going = current.color_up if isinstance(current, Break) else ()
    before = structure.chips_before(step) if going else structure.chips_in_play(step)
    return going, before


def offered(structure: Structure, step: int) -> tuple[int, ...]:
    """The chips to offer for a race at ``step``: a colour-up break's leaving chips, else
    every chip in play (those ``terms`` refuses are left out)."""
    going, before = _chips(structure, step)
    return going or before


def terms(structure: Structure, step: int, leaving: int | None) -> Terms | Why:
    """The race of ``leaving`` at ``step`` (None: the chip the break colours up)."""
    going, before = _chips(structure, step)
    if leaving is None:
        if not going:
            return Why("not_colour_up")
        if len(going) > 1:
            return Why("colour_up_which", {"chips": list(going)})
        leaving = going[0]
    elif leaving not in before:
        return Why("chip_not_in_play", {"chip": leaving, "chips": list(before)})
    staying = [d for d in before if d != leaving and d not in going]
    larger = [d for d in staying if d > leaving]
    if not larger:
        return Why("no_larger_chip", {"chip": leaving})
    return Terms(leaving, larger[0], min(staying))


def refusal(why: Why) -> NotAllowed:
    """What ``decide`` raises for ``why`` (its words are the reason's template)."""
    return refused(NotAllowed, why.reason, why.params, "leaving")


def _numbers(why: Why, name: str) -> list[int]:
    value = why.params[name]
    assert isinstance(value, list), (why.reason, name, value)
    return [int(x) for x in value]


def _listed(chips: list[int]) -> str:
    return ", ".join(f"{d:,}" for d in chips)
