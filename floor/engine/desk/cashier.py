"""The cashier's list: who is to be paid, in the order they come to the cashier (the first
out first, the winner last), with their place and prize (a deal's amount where one was made).
"""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from ..deal import place_by_deal
from ..money import finish_of, pool_of
from ..state import Tournament


class Owed(msgspec.Struct, frozen=True, kw_only=True):
    player: str
    name: str
    place: int
    amount: int
    paid: bool
    paid_at: float | None = None
    paid_by: str | None = None


class Cashier(msgspec.Struct, frozen=True, kw_only=True):
    currency: str | None
    rows: tuple[Owed, ...]
    paid: int
    owed: int


def to_pay(t: Tournament, paid: Iterable[tuple[str, float, str]]) -> Cashier:
    """The money finishers of ``t``; ``paid``: (player, when, by) of those paid already."""
    s = t.state
    pool = pool_of(s)
    done = {pid: (at, by) for pid, at, by in paid}
    if pool is None:
        return Cashier(currency=None, rows=(), paid=0, owed=0)
    places = len(pool.places)
    rows = []
    for p in s.players.values():
        out = p.busted and p.bust is not None and p.bust.place <= places
        if not (out or s.winner == p.id or p.id in done or place_by_deal(s, p.id)):
            continue
        finish = finish_of(t, p)
        if finish is None or not finish.prize:
            continue
        at, by = done.get(p.id, (None, None))
        rows.append(
            Owed(
                player=p.id,
                name=p.name,
                place=finish.place,
                amount=finish.prize,
                paid=p.id in done,
                paid_at=at,
                paid_by=by,
            )
        )
    rows.sort(key=lambda r: (-r.place, r.player))
    return Cashier(
        currency=pool.currency,
        rows=tuple(rows),
        paid=sum(r.amount for r in rows if r.paid),
        owed=sum(r.amount for r in rows if not r.paid),
    )
