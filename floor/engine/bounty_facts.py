"""What every screen is told of a bounty tournament's bounties (the public facts' ``bounties``).

The pool and where it stands (won, paid, left on the heads of the players still in, unclaimed),
the largest bounties left (the wall's list) and the last bounties won, newest first. Worked out
with a full snapshot and after a batch that may have changed a bounty; a scan of the field, so
never for a batch that changed none (``touches``).
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence

import msgspec

from .bounty_fold import head
from .bounty_rules import BountyKind
from .events import (
    AddOnMade,
    BountyPaid,
    BustUndone,
    DealMade,
    Event,
    PlayerBusted,
    PlayerRegistered,
    PlayerUnregistered,
    PrizeChanged,
    RebuyMade,
    TournamentFinished,
)
from .model import PlayerId
from .prize import bounty_pool
from .state import Tournament

#: The largest bounties the wall lists, and the last ones won.
LARGEST = 10
LAST = 6

_TOUCHING = (
    PlayerBusted,
    BustUndone,
    PlayerRegistered,
    PlayerUnregistered,
    RebuyMade,
    AddOnMade,
    TournamentFinished,
    DealMade,
    BountyPaid,
    PrizeChanged,
)


class Held(msgspec.Struct, frozen=True, array_like=True):
    """``[player, bounty]``: a bounty on a player still in."""

    player: PlayerId
    bounty: int


class Won(msgspec.Struct, frozen=True, array_like=True):
    """``[busted, winners, amount, at]``: a bounty won at a bust-out (``amount`` paid and added
    in all)."""

    busted: PlayerId
    winners: list[PlayerId]
    amount: int
    at: float


class BountyFacts(msgspec.Struct, frozen=True, kw_only=True):
    kind: BountyKind
    #: The bounty each entry starts with.
    part: int
    currency: str
    pool: int
    won: int
    paid: int
    #: On the heads of the players still in.
    left: int
    unclaimed: int
    largest: list[Held]
    last: list[Won]


def touches(t: Tournament, events: Sequence[Event]) -> bool:
    """Whether these events may have changed a bounty tournament's bounties (never without
    bounties: the facts say None once, with the snapshot)."""
    s = t.state
    prize = s.structure.prize if s.structure is not None else None
    if prize is None or prize.bounty is None:
        # A change of the prize may have taken the bounties away: said as None.
        return any(isinstance(e, PrizeChanged) for e in events)
    return any(isinstance(e, _TOUCHING) for e in events)


def facts(t: Tournament) -> BountyFacts | None:
    """None without bounties."""
    s = t.state
    prize = s.structure.prize if s.structure is not None else None
    if prize is None or prize.bounty is None:
        return None
    b = prize.bounty
    left = 0
    held: list[Held] = []
    won: list[Won] = []
    for p in s.players.values():
        if p.busted:
            r = p.bounty
            if r is not None and r.to and p.bust is not None:
                won.append(
                    Won(
                        p.id,
                        [x.player for x in r.to],
                        sum(x.cash + x.added for x in r.to),
                        p.bust.at,
                    )
                )
            continue
        h = head(p, b)
        left += h
        if h:
            held.append(Held(p.id, h))
    book = s.bounties
    return BountyFacts(
        kind=b.kind,
        part=b.part,
        currency=prize.currency,
        pool=bounty_pool(prize, s.entries, s.rebuys, s.add_ons),
        won=book.won if book is not None else 0,
        paid=book.paid if book is not None else 0,
        left=left,
        unclaimed=book.unclaimed if book is not None else 0,
        largest=heapq.nlargest(LARGEST, held, key=lambda x: (x.bounty, x.player)),
        last=heapq.nlargest(LAST, won, key=lambda x: (x.at, x.busted)),
    )
