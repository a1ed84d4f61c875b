"""A deal at the final table: the prizes still to be paid shared out by the players left.

The director offers a deal (``propose``) and the players agree to it (``make``). The shares
come from the counted stacks, each taken after the table's last reported hand and not made
old since (``count_age``): a stack from before the last hand is not the stack the players
are dealing on. Two ways to share, as the room asks for them:

- ICM (Malmuth-Harville): each player's chance of each place, a place at a time, is their
  stack over the chips of the players not yet placed; a share is the prizes weighed by
  those chances.
- Chip chop: each player is first given the lowest prize left, and the rest is split by
  chips.

``left_to_play`` is kept back from the deal and paid by the play that follows (to its
winner): it comes off the top prize before the shares are worked out, so the prizes in the
deal add up to the prizes left less it. Shares are money: each is rounded down to the
tournament's rounding unit and the units that leaves go to the largest remainders, so that
the shares add up to the prizes in the deal exactly. The director may adjust them (``custom``),
as long as they still do.

A deal that leaves nothing to play for ends the tournament: it places the players by their
chips at the deal (equal stacks by player id) and pays each their share. One that leaves
something plays on: each is paid their share, and the winner ``left_to_play`` besides.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import msgspec

from . import clock, deal_bounties
from .commands import MakeDeal, ProposeDeal
from .count_age import count_age
from .dispatch import decides, folds, validates
from .errors import NotAllowed, refused
from .events import DealMade, DealProposed, DealShare, Event
from .model import PlayerId
from .prize import payouts
from .state import Player, Tournament, TournamentState
from .why import Why

#: The most players a deal is worked out for: ICM weighs every set of players (2^n).
MOST_PLAYERS = 12


def icm(stacks: Sequence[int], prizes: Sequence[int]) -> list[Fraction]:
    """Each stack's ICM equity (Malmuth-Harville) in ``prizes`` (best first; places beyond
    them pay nothing), exactly. Worked out over the sets of players already placed (2^n),
    not over every finishing order (n!)."""
    n = len(stacks)
    total = sum(stacks)
    places = min(len(prizes), n)
    if total <= 0:
        # No chips to weigh by (the command never asks): the prizes in even shares.
        return [Fraction(sum(prizes[:places]), n)] * n
    equity = [Fraction(0)] * n
    # frontier[mask]: the chance the players in ``mask`` took the first places, in any order.
    frontier = {0: Fraction(1)}
    for place in range(places):
        nxt: dict[int, Fraction] = {}
        for mask, p in frontier.items():
            left = total - sum(stacks[i] for i in range(n) if mask >> i & 1)
            if left <= 0:
                continue
            for i in range(n):
                if mask >> i & 1 or stacks[i] <= 0:
                    continue
                q = p * Fraction(stacks[i], left)
                equity[i] += q * prizes[place]
                key = mask | 1 << i
                nxt[key] = nxt.get(key, Fraction(0)) + q
        frontier = nxt
    return equity


def chip_chop(stacks: Sequence[int], prizes: Sequence[int]) -> list[Fraction]:
    """Each player the lowest prize left, the rest of the prizes split by chips."""
    n = len(stacks)
    total = sum(stacks)
    paid = list(prizes[:n]) + [0] * (n - len(prizes[:n]))
    if total <= 0:
        return [Fraction(sum(paid), n)] * n
    lowest = min(paid)
    rest = sum(paid) - lowest * n
    return [lowest + Fraction(rest * s, total) for s in stacks]


def in_units(shares: Sequence[Fraction], total: int, unit: int) -> list[int]:
    """Shares as money adding up to ``total``: each rounded down to ``unit``, the units left
    one each to the largest remainders (the first of equal ones), and what is less than a
    unit to the biggest share."""
    amounts = [int(x // unit) * unit for x in shares]
    by_remainder = sorted(range(len(shares)), key=lambda i: (-(shares[i] - amounts[i]), i))
    for i in by_remainder[: max(0, (total - sum(amounts)) // unit)]:
        amounts[i] += unit
    top = max(range(len(shares)), key=lambda i: (shares[i], -i))
    amounts[top] += total - sum(amounts)
    return amounts


# The commands ----------------------------------------------------------------------------------


def players_left(s: TournamentState) -> list[Player]:
    """The players still in, biggest stack first (equal ones by id): the deal's order."""
    # From the tables' seats, not the whole field: at 10,000 entries the facts ask at every
    # batch once the final table is down to a deal.
    left = [s.players[pid] for table in s.tables.values() for pid in table.occupants.values()]
    return sorted(left, key=lambda p: (-(p.stack or 0), p.id))


def prizes_left(t: Tournament) -> tuple[int, ...]:
    """The prizes of the places the players left will take, best first."""
    s = t.state
    prize = s.structure.prize if s.structure is not None else None
    if prize is None:
        raise refused(NotAllowed, "deal_no_prize", {}, field="type")
    pool = payouts(prize, s.entries, s.rebuys, s.add_ons)
    return tuple(p.prize for p in pool.places[: t.active])


def _no_deal_yet(s: TournamentState) -> None:
    if s.deal is not None:
        raise refused(NotAllowed, "deal_made", {}, field="type")


def _adds_up(given: int, total: int) -> None:
    if given != total:
        raise refused(
            NotAllowed, "deal_shares_total", {"total": given, "expected": total}, field="shares"
        )


def _final(t: Tournament) -> list[Player]:
    s = t.state
    _no_deal_yet(s)
    left = players_left(s)
    tables = {p.table for p in left}
    if len(left) < 2 or len(tables) != 1 or len(left) > MOST_PLAYERS:
        raise refused(NotAllowed, "deal_not_final", {"left": len(left)}, field="type")
    return left


def _counted(s: TournamentState, p: Player) -> int:
    """``p``'s stack, counted after their table's last hand and not made old since."""
    table = s.tables.get(p.table) if p.table is not None else None
    hand_at = table.hand_at if table is not None else None
    if not p.counted or p.counted_at is None or p.stack is None:
        raise refused(NotAllowed, "deal_not_counted", {"player": p.id}, field="type")
    if count_age(s, p) is not None or (hand_at is not None and p.counted_at < hand_at):
        raise refused(NotAllowed, "deal_count_old", {"player": p.id}, field="type")
    return p.stack


def propose(t: Tournament, c: ProposeDeal, now: float) -> list[Event]:
    s = t.state
    left = _final(t)
    stacks = [_counted(s, p) for p in left]
    prizes = list(prizes_left(t))
    prizes += [0] * (len(left) - len(prizes))
    most = prizes[0] - prizes[-1]
    if c.left_to_play > most:
        raise refused(
            NotAllowed,
            "deal_left_too_much",
            {"left": c.left_to_play, "most": most},
            field="left_to_play",
        )
    in_deal = [prizes[0] - c.left_to_play, *prizes[1:]]
    bounties = deal_bounties.in_deal(t, left, c.bounties)
    total = sum(in_deal) + bounties
    if c.method == "custom":
        amounts = _custom(c, left, total)
    else:
        if sum(stacks) <= 0:
            raise refused(NotAllowed, "deal_not_counted", {"player": left[0].id}, field="type")
        exact = icm(stacks, in_deal) if c.method == "icm" else chip_chop(stacks, in_deal)
        if bounties:
            exact = [
                x + y for x, y in zip(exact, deal_bounties.by_chips(bounties, stacks), strict=True)
            ]
        prize = s.structure.prize if s.structure is not None else None
        unit = prize.round_to if prize is not None else 1
        amounts = in_units(exact, total, unit)
    shares = tuple(
        DealShare(player=p.id, stack=st, amount=a)
        for p, st, a in zip(left, stacks, amounts, strict=True)
    )
    return [
        DealProposed(
            method=c.method,
            prizes=tuple(prizes),
            left_to_play=c.left_to_play,
            shares=shares,
            at=now,
            bounties=bounties,
        )
    ]


def _custom(c: ProposeDeal, left: list[Player], total: int) -> list[int]:
    by_player: dict[PlayerId, int] = {}
    ids = {p.id for p in left}
    for i, x in enumerate(c.shares):
        if x.player not in ids or x.player in by_player:
            raise refused(
                NotAllowed, "deal_share_player", {"player": x.player}, field=f"shares[{i}].player"
            )
        by_player[x.player] = x.amount
    for p in left:
        if p.id not in by_player:
            raise refused(NotAllowed, "deal_share_missing", {"player": p.id}, field="shares")
    _adds_up(sum(by_player.values()), total)
    return [by_player[p.id] for p in left]


def make(t: Tournament, c: MakeDeal, now: float) -> list[Event]:
    s = t.state
    left = _final(t)
    offer = s.deal_offer
    current = [(p.id, p.stack) for p in left]
    if (
        offer is None
        or [(x.player, x.stack) for x in offer.shares] != current
        or (offer.bounties and offer.bounties != deal_bounties.on_heads(t, left))
    ):
        raise refused(NotAllowed, "deal_no_offer", {}, field="type")
    agreed = set(c.agreed)
    for x in offer.shares:
        if x.player not in agreed:
            raise refused(NotAllowed, "deal_not_agreed", {"player": x.player}, field="agreed")
    for i, pid in enumerate(c.agreed):
        if pid not in {x.player for x in offer.shares}:
            raise refused(NotAllowed, "deal_share_player", {"player": pid}, field=f"agreed[{i}]")
    # What is left to play for is won by playing on; a deal that leaves nothing ends it.
    ends = offer.left_to_play == 0
    events: list[Event] = []
    if ends:
        for change in clock.due(s, now):
            t.apply(change)
            events.append(change)
    remaining = clock.remaining(s.clock, now) if ends and s.clock.running else None
    events.append(
        DealMade(
            method=offer.method,
            prizes=offer.prizes,
            left_to_play=offer.left_to_play,
            shares=offer.shares,
            agreed=tuple(x.player for x in offer.shares),
            ends=ends,
            at=now,
            remaining=remaining,
            bounties=offer.bounties,
        )
    )
    return events


# What the deal pays --------------------------------------------------------------------------


def place_by_deal(s: TournamentState, pid: PlayerId) -> int | None:
    """The place an ending deal gives ``pid`` (by chips at the deal); None otherwise."""
    deal = s.deal
    if deal is None or not deal.ends:
        return None
    for i, x in enumerate(deal.shares):
        if x.player == pid:
            return i + 1
    return None


def deal_prize(s: TournamentState, pid: PlayerId, place: int) -> int | None:
    """What ``pid`` is paid by the deal finishing in ``place``; None: not in a deal."""
    deal = s.deal
    if deal is None:
        return None
    for x in deal.shares:
        if x.player == pid:
            return x.amount + (deal.left_to_play if place == 1 else 0)
    return None


def check(t: Tournament, event: DealProposed | DealMade) -> None:
    """What an imported log may hold of a deal: shares that add up to the prizes in it."""
    _no_deal_yet(t.state)
    total = sum(event.prizes) - event.left_to_play + event.bounties
    _adds_up(sum(x.amount for x in event.shares), total)
    deal_bounties.check(t, players_left(t.state), event)


# What the director's console is sent ---------------------------------------------------------


class DealPlayer(msgspec.Struct, frozen=True, array_like=True):
    """``[player, stack, why not]``: a player left, their counted stack (None: not counted),
    and why that count cannot be dealt on (None: it can)."""

    player: PlayerId
    stack: int | None
    why: Why | None = None


class DealFacts(msgspec.Struct, frozen=True, kw_only=True):
    """The final table as a deal sees it: the players left biggest stack first, the prizes
    left, the most that may be kept back to play for, and why no deal can be offered now."""

    players: list[DealPlayer]
    prizes: list[int]
    most_left: int
    why: Why | None = None
    #: The bounties on the heads of the players left, that a deal may share out (None: no
    #: knockout bounties).
    bounties: int | None = None


def facts(t: Tournament) -> DealFacts | None:
    """None away from the final table, without prizes, or once a deal is made (the state's
    ``deal`` says it then)."""
    s = t.state
    # Most of a day there are far more players left than a deal takes: nothing to scan.
    if t.active > MOST_PLAYERS or t.active < 2 or s.deal is not None or s.winner is not None:
        return None
    try:
        left = _final(t)
        prizes = list(prizes_left(t))
    except NotAllowed:
        return None
    prizes += [0] * (len(left) - len(prizes))
    players: list[DealPlayer] = []
    first: Why | None = None
    for p in left:
        why: Why | None = None
        try:
            _counted(s, p)
        except NotAllowed as e:
            why = Why(e.reason, dict(e.params))  # type: ignore[arg-type]
        first = first or why
        players.append(DealPlayer(p.id, p.stack if p.counted else None, why))
    return DealFacts(
        players=players,
        prizes=prizes,
        most_left=prizes[0] - prizes[-1],
        why=first,
        bounties=deal_bounties.on_heads(t, left),
    )


# Dispatch (``floor.engine.registry``) ------------------------------------------------------


def _proposed(t: Tournament, e: DealProposed) -> None:
    t.state.deal_offer = e


DECIDES = (
    decides(ProposeDeal, lambda t, c, now, rng: propose(t, c, now)),
    decides(MakeDeal, lambda t, c, now, rng: make(t, c, now)),
)
CHECKS = (
    validates(DealProposed, check),
    validates(DealMade, check),
)
FOLDS = (
    folds(DealProposed, _proposed),
    folds(DealMade, Tournament._deal_made),
)
