"""The bounties as events change them: the fold's part for a bounty tournament.

``Tournament.apply`` calls ``fold`` (through ``BountyFolds._bounty``) before it applies the
event itself, so that a player unregistered or re-entering is still there as they were. The
amounts come from the events (``PlayerBusted.bounty_to``, worked out by ``bounty`` when the
bust-out was recorded): replay works nothing out again. A player's record is made the first
time their bounty changes; until then their bounty is the entry's ``part`` (``head``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Protocol

from ..bounty_rules import Bounty, BountyBook, PlayerBounty
from ..events import (
    AddOnMade,
    BountyPaid,
    BustUndone,
    DealMade,
    DealUndone,
    Event,
    PlayerBusted,
    PlayerRegistered,
    PlayerUnregistered,
    RebuyMade,
    TournamentFinished,
)
from ..model import PlayerId
from .index import Indexed


class HasBounty(Protocol):
    bounty: PlayerBounty | None
    busted: bool


def head(p: HasBounty, settings: Bounty) -> int:
    """The bounty on ``p``'s head now (0 once out; always 0 at a mystery bounty)."""
    if p.bounty is None:
        return 0 if p.busted or settings.kind == "mystery" else settings.part
    return p.bounty.head


def record(p: HasBounty, settings: Bounty) -> PlayerBounty:
    if p.bounty is None:
        p.bounty = PlayerBounty(head=0 if settings.kind == "mystery" else settings.part)
    return p.bounty


def fold(
    book: BountyBook,
    settings: Bounty,
    event: Event,
    players: Mapping[PlayerId, HasBounty],
    winner: PlayerId | None,
) -> None:
    # By the event's type, not a ``match``: this runs for every event of a bounty tournament,
    # and most change no bounty (a ``match`` of ten classes cost more than the bust-out's).
    step = (_MYSTERY if settings.kind == "mystery" else _STEPS).get(type(event))
    if step is not None:
        step(book, settings, event, players, winner)


def _registered(
    book: BountyBook, b: Bounty, e: Event, players: Mapping[PlayerId, HasBounty], _: object
) -> None:
    assert isinstance(e, PlayerRegistered)
    p = players.get(e.player)
    if p is not None:
        # A re-entry starts a fresh bounty; what the player won stays theirs.
        record(p, b).head = b.part


def _bought(
    book: BountyBook, b: Bounty, e: Event, players: Mapping[PlayerId, HasBounty], _: object
) -> None:
    assert isinstance(e, RebuyMade | AddOnMade)
    part = b.rebuy_part if isinstance(e, RebuyMade) else b.add_on_part
    record(players[e.player], b).head += part


def _unregistered(
    book: BountyBook, b: Bounty, e: Event, players: Mapping[PlayerId, HasBounty], _: object
) -> None:
    assert isinstance(e, PlayerUnregistered)
    # The refund takes the parts paid back out of the pool; a bounty grown beyond them (won
    # in play) stays in the pool, unclaimed.
    refunded = b.part + e.rebuys * b.rebuy_part + e.add_ons * b.add_on_part
    book.unclaimed += head(players[e.player], b) - refunded


def _finished(
    book: BountyBook, b: Bounty, e: Event, players: Mapping[PlayerId, HasBounty], _: object
) -> None:
    if isinstance(e, TournamentFinished):
        _own(book, b, players[e.winner])
    elif isinstance(e, DealMade):
        if e.bounties:
            # The bounties in the deal: shared out in it, off the heads.
            for x in e.shares:
                r = record(players[x.player], b)
                r.dealt = r.head
                book.dealt += r.head
                r.head = 0
        if e.ends:
            # A deal that ends the tournament: every player in it takes their own bounty.
            for x in e.shares:
                _own(book, b, players[x.player])


def undeal(
    book: BountyBook, b: Bounty, deal: DealMade, players: Mapping[PlayerId, HasBounty]
) -> None:
    """A deal undone: each player's own bounty (an ending deal) and the bounty they put in the
    deal back on their head."""
    for x in deal.shares:
        r = record(players[x.player], b)
        if deal.ends:
            r.head += r.own
            r.won -= r.own
            book.won -= r.own
            r.own = 0
        r.head += r.dealt
        book.dealt -= r.dealt
        r.dealt = 0


def _paid(
    book: BountyBook, b: Bounty, e: Event, players: Mapping[PlayerId, HasBounty], _: object
) -> None:
    assert isinstance(e, BountyPaid)
    record(players[e.player], b).paid += e.amount
    book.paid += e.amount


def _busted(
    book: BountyBook, settings: Bounty, e: Event, players: Mapping[PlayerId, HasBounty], _: object
) -> None:
    assert isinstance(e, PlayerBusted)
    busted = record(players[e.player], settings)
    # The whole bounty is taken (``e.bounty`` says so where the bust-out named a winner; a
    # disqualification's leaves it unclaimed).
    taken = busted.head
    busted.head = 0
    busted.taken = taken
    busted.to = e.bounty_to
    given = 0
    for x in e.bounty_to:
        w = record(players[x.player], settings)
        w.won += x.cash
        w.head += x.added
        book.won += x.cash
        if x.paid:
            w.paid += x.cash
            book.paid += x.cash
        given += x.cash + x.added
    book.unclaimed += taken - given


def _undone(
    book: BountyBook,
    settings: Bounty,
    e: Event,
    players: Mapping[PlayerId, HasBounty],
    winner: object,
) -> None:
    assert isinstance(e, BustUndone)
    if isinstance(winner, str):
        # The last bust-out undone: the winner's own bounty goes back on their head.
        w = record(players[winner], settings)
        w.head += w.own
        w.won -= w.own
        book.won -= w.own
        w.own = 0
    busted = record(players[e.player], settings)
    given = 0
    for x in busted.to:
        w = record(players[x.player], settings)
        w.won -= x.cash
        w.head -= x.added
        book.won -= x.cash
        if x.paid:
            w.paid -= x.cash
            book.paid -= x.cash
        given += x.cash + x.added
    book.unclaimed -= busted.taken - given
    busted.head += busted.taken
    busted.taken = 0
    busted.to = ()


def _own(book: BountyBook, settings: Bounty, p: HasBounty) -> None:
    r = record(p, settings)
    r.own = r.head
    r.won += r.head
    book.won += r.head
    r.head = 0


_Step = Callable[[BountyBook, Bounty, Event, Mapping[PlayerId, HasBounty], object], None]
_STEPS: dict[type, _Step] = {
    PlayerBusted: _busted,
    BustUndone: _undone,
    PlayerRegistered: _registered,
    RebuyMade: _bought,
    AddOnMade: _bought,
    PlayerUnregistered: _unregistered,
    TournamentFinished: _finished,
    DealMade: _finished,
    BountyPaid: _paid,
}


def _drew(
    book: BountyBook, b: Bounty, e: Event, players: Mapping[PlayerId, HasBounty], _: object
) -> None:
    """A mystery bounty's bust-out: the envelope drawn, split among its winners."""
    assert isinstance(e, PlayerBusted)
    busted = record(players[e.player], b)
    busted.envelope = e.envelope
    busted.to = e.bounty_to
    if not e.envelope:
        return
    book.drawn[e.envelope] = book.drawn.get(e.envelope, 0) + 1
    for x in e.bounty_to:
        w = record(players[x.player], b)
        w.won += x.cash
        w.drew = (*w.drew, e.envelope)
        book.won += x.cash
        if x.paid:
            w.paid += x.cash
            book.paid += x.cash


def _put_back(
    book: BountyBook, b: Bounty, e: Event, players: Mapping[PlayerId, HasBounty], winner: object
) -> None:
    """An undone mystery bust-out: its envelope back in the pool (and, the last bust-out
    undone, the envelopes left that went to the winner)."""
    assert isinstance(e, BustUndone)
    if isinstance(winner, str):
        w = record(players[winner], b)
        w.won -= w.own
        book.won -= w.own
        book.rest -= w.own
        w.own = 0
    busted = record(players[e.player], b)
    amount = busted.envelope
    if amount:
        for x in busted.to:
            w = record(players[x.player], b)
            w.won -= x.cash
            drew = list(w.drew)
            drew.remove(amount)
            w.drew = tuple(drew)
            book.won -= x.cash
            if x.paid:
                w.paid -= x.cash
                book.paid -= x.cash
        book.drawn[amount] -= 1
        if not book.drawn[amount]:
            del book.drawn[amount]
    busted.envelope = 0
    busted.to = ()


def _rest(
    book: BountyBook, b: Bounty, e: Event, players: Mapping[PlayerId, HasBounty], _: object
) -> None:
    """A mystery bounty's finish: the envelopes left go to the winner, or stay with the house
    (and after a deal that ends the tournament: there is no one winner to give them to)."""
    if not isinstance(e, TournamentFinished) or b.envelopes_left != "winner":
        return
    drawn = sum(amount * count for amount, count in book.drawn.items())
    rest = sum(x.amount * x.count for x in b.envelopes) - drawn
    w = record(players[e.winner], b)
    w.own = rest
    w.won += rest
    book.won += rest
    book.rest += rest


_MYSTERY: dict[type, _Step] = {
    PlayerBusted: _drew,
    BustUndone: _put_back,
    TournamentFinished: _rest,
    BountyPaid: _paid,
}


class BountyFolds(Indexed):
    """The fold's part for a bounty tournament's bounties."""

    __slots__ = ()

    def _bounty(self, event: Event) -> None:
        """A bounty tournament's bounties, before the event changes the players."""
        s = self.state
        prize = s.structure.prize if s.structure is not None else None
        if prize is None or prize.bounty is None:
            return
        if s.bounties is None:
            s.bounties = BountyBook()
        if isinstance(event, DealUndone) and s.deal is not None and prize.bounty.kind != "mystery":
            undeal(s.bounties, prize.bounty, s.deal, s.players)
        fold(s.bounties, prize.bounty, event, s.players, s.winner)
