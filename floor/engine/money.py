"""The money: the bubble bursting, and what a player finished with.

The bubble bursts with the bust-out of the last player who is not paid (the place one below
the last paid, alone or sharing it in one hand): from then on every player left wins a prize.
The room is told at that moment, on the wall and on the phones, for ``MONEY_SECONDS``
(``in_the_money``, a public fact the screens render as a banner; an undo of that bust-out takes
it back). A player's own phone shows their place and their prize once they are out, or have
won (``finish_of``).
"""

from __future__ import annotations

import msgspec

from . import milestone
from .deal import deal_prize, place_by_deal
from .model import PlayerId
from .prize import PrizePool, payouts, shared_prizes
from .state import Player, Tournament, TournamentState

#: How long the screens say "in the money" after the bubble burst.
MONEY_SECONDS = 60.0


class InTheMoney(msgspec.Struct, frozen=True, kw_only=True):
    """The bubble burst at ``at``: the ``places`` paid are the players left (and fewer)."""

    places: int
    at: float
    #: The screens show the moment until then.
    until: float
    #: Who burst it: the player out in the place below the last paid (several: a place shared).
    players: tuple[PlayerId, ...]


class PlayerFinish(msgspec.Struct, frozen=True, kw_only=True):
    """A player's result: the place (shared with ``tied - 1`` others) and the prize (None
    without prize settings; 0: not paid)."""

    place: int
    tied: int
    prize: int | None
    currency: str | None
    #: A satellite's seat (won at its end, or at its milestone): the prize is the seat's worth.
    seat: bool = False


def pool_of(s: TournamentState) -> PrizePool | None:
    prize = s.structure.prize if s.structure is not None else None
    if prize is None:
        return None
    return payouts(prize, s.entries, s.rebuys, s.add_ons)


def in_the_money(t: Tournament, pool: PrizePool | None = None) -> InTheMoney | None:
    """The bubble's bursting, once it has; None before, without a prize, or with every entry
    paid (no bubble to burst). ``pool``: the pool if already worked out."""
    s = t.state
    pool = pool if pool is not None else pool_of(s)
    places = len(pool.places) if pool is not None else 0
    # The seats won at a milestone are no longer played for (``milestone``).
    places -= min(places, s.seats_won)
    # Before the bubble (the most of a day) this is all it costs: no scan of the field.
    if not places or t.active > places or s.entries <= places:
        return None
    bubble = places + 1
    burst = [
        p
        for p in s.players.values()
        if p.busted and p.bust is not None and p.bust.place <= bubble < p.bust.place + p.bust.shares
    ]
    if not burst:
        return None
    at = min(p.bust.at for p in burst if p.bust is not None)
    return InTheMoney(
        places=places,
        at=at,
        until=at + MONEY_SECONDS,
        players=tuple(sorted(p.id for p in burst)),
    )


def _seat_left(s: TournamentState, pid: PlayerId) -> tuple[int, int] | None:
    """A player left at a satellite's end: their rank among those left, and how many share
    the places above the busted (each a seat)."""
    end = s.satellite_end
    seated = end.seats if end is not None else milestone.winners(s)
    p = s.players[pid]
    if pid not in seated or (p.busted and not milestone.won(p)):
        return None
    # The milestone's winners hold a seat from the moment they won it (``milestone``).
    left = [x for x in seated if not s.players[x].busted or milestone.won(s.players[x])]
    return left.index(pid), len(left)


def finish_of(t: Tournament, p: Player) -> PlayerFinish | None:
    """``p``'s place and prize once out, or as the winner; None while still playing."""
    s = t.state
    seated = False
    by_deal = place_by_deal(s, p.id)
    if by_deal is not None:
        place, tied, rank = by_deal, 1, 0
    elif s.winner == p.id:
        place, tied, rank = 1, 1, 0
    elif (seat := _seat_left(s, p.id)) is not None:
        place, tied, rank = 1, seat[1], seat[0]
        seated = True
    elif p.busted and p.bust is not None:
        place, tied = milestone.Standing(s).place(p.bust.place), p.bust.shares
        rank = 0
        if tied > 1:
            # The odd units of a shared prize go to the first in table and seat order (the
            # results' own order, ``views.results``): a scan only for a place shared.
            group = sorted(
                (x.bust.table, x.bust.seat, x.id)
                for x in s.players.values()
                if x.busted and x.bust is not None and x.bust.place == p.bust.place
            )
            rank = [x[2] for x in group].index(p.id)
            tied = len(group)
    else:
        return None
    pool = pool_of(s)
    if pool is None:
        return PlayerFinish(place=place, tied=tied, prize=None, currency=None, seat=seated)
    dealt = deal_prize(s, p.id, place)
    return PlayerFinish(
        place=place,
        tied=tied,
        prize=shared_prizes(pool, place, tied)[rank] if dealt is None else dealt,
        currency=pool.currency,
        seat=seated,
    )
