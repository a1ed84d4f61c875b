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

from . import mystery
from .bounty_rules import BountyKind
from .events import (
    AddOnMade,
    BountyPaid,
    BustUndone,
    DealMade,
    DealUndone,
    Event,
    LevelChanged,
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
    DealUndone,
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


class EnvelopesLeft(msgspec.Struct, frozen=True, array_like=True):
    """``[amount, left, count]``: a line of a mystery bounty's envelope pool, as it stands."""

    amount: int
    left: int
    count: int


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
    #: A mystery bounty (else empty, False): the envelopes left by amount (``pool``, ``won``
    #: and ``left`` are the envelopes'), whether the drawing has started, and the envelopes
    #: left at the finish that went to the winner.
    envelopes: list[EnvelopesLeft] = []
    drawing: bool = False
    rest: int = 0
    #: The bounties shared out in a deal at the final table.
    dealt: int = 0


def touches(t: Tournament, events: Sequence[Event]) -> bool:
    """Whether these events may have changed a bounty tournament's bounties (never without
    bounties: the facts say None once, with the snapshot)."""
    s = t.state
    prize = s.structure.prize if s.structure is not None else None
    if prize is None or prize.bounty is None:
        # A change of the prize may have taken the bounties away: said as None.
        return any(isinstance(e, PrizeChanged) for e in events)
    # A mystery bounty's drawing may start with a level.
    touching = (*_TOUCHING, LevelChanged) if prize.bounty.kind == "mystery" else _TOUCHING
    return any(isinstance(e, touching) for e in events)


def facts(t: Tournament) -> BountyFacts | None:
    """None without bounties. One pass over the field making no object per player: at
    10,000 entries it runs with every bust-out (what is left on the heads comes from the
    book: the pool less what was won and what is unclaimed)."""
    s = t.state
    prize = s.structure.prize if s.structure is not None else None
    if prize is None or prize.bounty is None:
        return None
    b = prize.bounty
    part = b.part
    grown: list[tuple[int, PlayerId]] = []
    plain: list[PlayerId] = []
    won: list[tuple[float, PlayerId]] = []
    for pid, p in s.players.items():
        r = p.bounty
        if p.busted:
            if r is not None and r.to and p.bust is not None:
                won.append((p.bust.at, pid))
        elif r is not None:
            grown.append((r.head, pid))
        elif len(plain) < LARGEST:
            # Untouched: the entry's part on the head, as every other untouched one.
            plain.append(pid)
    held = heapq.nlargest(LARGEST, [*grown, *((part, pid) for pid in plain)])
    last: list[Won] = []
    for at, pid in heapq.nlargest(LAST, won):
        r = s.players[pid].bounty
        assert r is not None
        last.append(Won(pid, [x.player for x in r.to], sum(x.cash + x.added for x in r.to), at))
    book = s.bounties
    won_total = book.won if book is not None else 0
    if b.kind == "mystery":
        envelopes = mystery.pool(b)
        rest = book.rest if book is not None else 0
        return BountyFacts(
            kind=b.kind,
            part=part,
            currency=prize.currency,
            pool=envelopes,
            won=won_total,
            paid=book.paid if book is not None else 0,
            left=envelopes - won_total,
            unclaimed=0,
            largest=[],
            last=last,
            envelopes=[
                EnvelopesLeft(amount, n, count)
                for (amount, n), count in zip(
                    mystery.left(b, book),
                    (e.count for e in sorted(b.envelopes, key=lambda e: e.amount)),
                    strict=True,
                )
            ],
            drawing=s.winner is None and mystery.drawing(t, prize, b, t.active),
            rest=rest,
        )
    pool = bounty_pool(prize, s.entries, s.rebuys, s.add_ons)
    unclaimed = book.unclaimed if book is not None else 0
    dealt = book.dealt if book is not None else 0
    return BountyFacts(
        kind=b.kind,
        part=part,
        currency=prize.currency,
        pool=pool,
        won=won_total,
        paid=book.paid if book is not None else 0,
        left=pool - won_total - unclaimed - dealt,
        unclaimed=unclaimed,
        largest=[Held(pid, h) for h, pid in held if h],
        last=last,
        dealt=dealt,
    )
