"""What a command would do, decided on a copy of the tournament: nothing changes.

A screen asks before the floor confirms something whose outcome follows from a rule the
screen must not decide itself: players out in the same hand are placed by the stacks they
started it with, equal stacks sharing the place and its prizes. The preview is ``decide``
itself on a copy, so it says what the command will do when sent now (or why it would be
refused), and the results of the copy give each player's place and prize.
"""

from __future__ import annotations

import random

import msgspec

from ..commands import Command
from ..decide import decide
from ..events import PlayerBusted
from ..model import PlayerId
from ..state import Tournament
from .views import results


class PreviewFinish(msgspec.Struct, frozen=True, kw_only=True):
    """A player the command would bust: the place (shared by ``tied``) and the prize."""

    player: PlayerId
    place: int
    tied: int
    prize: int
    #: The stack the place was decided by (the stack at the start of the hand), if known.
    stack: int | None


class Preview(msgspec.Struct, frozen=True, kw_only=True):
    #: The players the command would bust, from the worst place to the best.
    finishes: list[PreviewFinish]
    #: Players left after it.
    left: int
    #: The currency of the prizes; None without prize settings.
    currency: str | None


def preview(t: Tournament, command: Command, now: float) -> Preview:
    """What ``command`` would do now; raises the ``RuleError`` it would be refused with."""
    copy = t.copy()
    # Housekeeping may draw seats: any draw will do, none of it is kept.
    events = decide(copy, command, now, random.Random(0))
    busted = {e.player: e for e in events if isinstance(e, PlayerBusted)}
    finishes = [
        PreviewFinish(
            player=f.player,
            place=f.place,
            tied=f.tied,
            prize=f.prize,
            stack=busted[f.player].stack,
        )
        # The worst place first, as the command calls them; a shared place in its own order
        # (where they sat: its odd currency units go to the first).
        for f in sorted(results(copy), key=lambda f: -f.place)
        if f.player in busted
    ]
    structure = copy.state.structure
    prize = structure.prize if structure is not None else None
    return Preview(
        finishes=finishes,
        left=copy.active,
        currency=prize.currency if prize is not None else None,
    )
