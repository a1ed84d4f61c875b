"""Mystery bounties: the drawing of envelopes, without replacement, from the pool set in advance.

From the phase the director sets (``Bounty.mystery_from``: the money, a level, Day 2) each
bust-out that names its eliminators draws one envelope; its amount is split among them as a
knockout's bounty is (``bounty_rules.split``). Bust-outs before the phase pay nothing. The draw is
made here, when the bust-out is recorded, from the random source ``decide`` is given, and written
into the event (``PlayerBusted.envelope``): replay never draws again, an undo puts the envelope
back (``fold.bounty``). Only ``rng.randrange`` is used, over the envelopes left in order of
amount, so that a random source made from committed seeds draws the same envelope everywhere.
"""

from __future__ import annotations

import functools
import random

from .bounty_rules import Bounty, BountyBook, Envelope
from .errors import NotAllowed, refused
from .prize import Prize, payouts
from .state import Tournament


def pool(b: Bounty) -> int:
    """The envelopes' total, set in advance."""
    return sum(e.amount * e.count for e in b.envelopes)


@functools.lru_cache(maxsize=64)
def _lines(envelopes: tuple[Envelope, ...]) -> tuple[tuple[int, int], ...]:
    """The pool's lines as ``(amount, count)``, smallest amount first (asked at every draw)."""
    return tuple(sorted((e.amount, e.count) for e in envelopes))


def left(b: Bounty, book: BountyBook | None) -> list[tuple[int, int]]:
    """``(amount, count)`` of the envelopes still in the pool, smallest amount first (the
    envelopes left at the finish stay listed: given to the winner, ``BountyBook.rest``)."""
    drawn = book.drawn if book is not None else {}
    return [(amount, count - drawn.get(amount, 0)) for amount, count in _lines(b.envelopes)]


def drawing(t: Tournament, prize: Prize, b: Bounty, place: int) -> bool:
    """Whether a bust-out to ``place`` draws an envelope: the phase has started."""
    s = t.state
    match b.mystery_from:
        case "money":
            paid = len(payouts(prize, s.entries, s.rebuys, s.add_ons).places)
            return place <= paid
        case "level":
            assert b.mystery_level is not None and s.structure is not None
            # From the step of that level on (the break after it too; not the one before). By
            # the level's index, which counts up to it: ``level_played`` scans every step.
            try:
                return s.clock.level >= s.structure.level_index(b.mystery_level)
            except ValueError:
                # No such level in the structure: the drawing never starts.
                return False
        case "day2":
            # An event's Day 2 (its flights' field carried in), or a tournament played over
            # several days once its first has ended.
            return s.carried is not None or s.day_ended is not None


class Draws:
    """The envelopes drawn for the bust-outs of one command, one after another (several out in
    one hand draw without replacement among themselves too). With no ``rng``, a logged event's
    ``recorded`` envelope is checked instead of drawn."""

    def __init__(self, t: Tournament, prize: Prize, b: Bounty, rng: random.Random | None) -> None:
        self._t = t
        self._prize = prize
        self._b = b
        self._rng = rng
        self._taken: dict[int, int] = {}

    def take(self, place: int, recorded: int = 0) -> int:
        if not drawing(self._t, self._prize, self._b, place):
            return 0
        book = self._t.state.bounties
        drawn = book.drawn if book is not None else {}
        taken = self._taken
        lines: list[tuple[int, int]] = []
        total = 0
        for amount, count in _lines(self._b.envelopes):
            n = count - drawn.get(amount, 0) - taken.get(amount, 0)
            lines.append((amount, n))
            total += n
        if total <= 0:
            # Every envelope drawn: the bust-outs after pay nothing.
            return 0
        if self._rng is None:
            if dict(lines).get(recorded, 0) <= 0:
                raise refused(
                    NotAllowed,
                    "not_as_recorded",
                    {"name": "envelope", "value": recorded, "expected": "an envelope left"},
                    field="envelope",
                )
            amount = recorded
        else:
            amount = _nth(lines, self._rng.randrange(total))
        self._taken[amount] = self._taken.get(amount, 0) + 1
        return amount


def _nth(lines: list[tuple[int, int]], i: int) -> int:
    """The amount of the ``i``-th envelope left, counting in order of amount."""
    for amount, count in lines:
        if i < count:
            return amount
        i -= count
    raise IndexError(i)
