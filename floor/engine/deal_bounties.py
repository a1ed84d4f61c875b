"""A knockout's bounties in a deal at the final table: in, or out, as the players choose.

In: the bounties on the heads of the players in the deal are added to what is shared out (an
ICM or chip-chop deal shares them by chips, a stack's chance of winning them; a custom deal's
shares add up to the prizes and them), and leave the heads: whatever is played after wins no
bounty. Out: they stay on the heads, to be won by play, or taken by each player in a deal that
ends the tournament (``fold.bounty``). A mystery bounty has no bounties on heads to put in.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

from .errors import NotAllowed, refused
from .events import DealMade, DealProposed
from .fold.bounty import head
from .state import Player, Tournament


def on_heads(t: Tournament, left: list[Player]) -> int | None:
    """The bounties on the heads of ``left``; None: no knockout bounties."""
    s = t.state
    prize = s.structure.prize if s.structure is not None else None
    b = prize.bounty if prize is not None else None
    if b is None or b.kind == "mystery":
        return None
    return sum(head(p, b) for p in left)


def in_deal(t: Tournament, left: list[Player], choice: Literal["in", "out"]) -> int:
    """What the deal shares out of the bounties (0: out)."""
    if choice == "out":
        return 0
    heads = on_heads(t, left)
    if heads is None:
        raise refused(NotAllowed, "deal_bounties_none", {}, field="bounties")
    return heads


def by_chips(amount: int, stacks: list[int]) -> list[Fraction]:
    """The bounties in a deal, each player's part by chips."""
    total = sum(stacks)
    return [Fraction(amount * s, total) for s in stacks]


def check(t: Tournament, left: list[Player], event: DealProposed | DealMade) -> None:
    """A logged deal's bounties are the ones on the heads of its players."""
    if not event.bounties:
        return
    heads = on_heads(t, left)
    if heads != event.bounties:
        raise refused(
            NotAllowed,
            "not_as_recorded",
            {"name": "bounties", "value": event.bounties, "expected": heads or 0},
            field="bounties",
        )
