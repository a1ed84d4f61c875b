"""The cashier's list: who is to be paid, in the order they come to the cashier (the first
out first, the winner last), with their place and prize (a deal's amount where one was made),
the bounties they won (issue 27: the cashier pays what is owed of them) and the seat ticket a
satellite won them (the house's ledger holds it).
"""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from ..deal import place_by_deal
from ..money import finish_of, pool_of
from ..satellite import of as satellite_of
from ..satellite import seat_tickets
from ..state import Tournament, TournamentState


class Owed(msgspec.Struct, frozen=True, kw_only=True):
    player: str
    name: str
    place: int
    amount: int
    paid: bool
    paid_at: float | None = None
    paid_by: str | None = None
    #: Bounties won, and what of them is still owed (paid at the table, or by the cashier).
    bounty: int = 0
    bounty_owed: int = 0
    #: The seat ticket a satellite won, and the event it enters.
    ticket: str | None = None
    ticket_target: str | None = None
    #: The seat's worth, paid with the ticket, not in cash (``amount`` is the cash: a
    #: leftover shared by the seats, or nothing).
    seat: int = 0


class Cashier(msgspec.Struct, frozen=True, kw_only=True):
    currency: str | None
    rows: tuple[Owed, ...]
    paid: int
    owed: int
    #: Bounties still owed to the players listed (paid with their row).
    bounties_owed: int = 0


def _tickets(s: TournamentState) -> dict[str, str]:
    """The seat tickets a satellite won: player -> ticket (as issued, or as they will be)."""
    # A milestone's seats have their tickets from the award (``milestone``).
    won = {p.id: p.bust.seat_ticket for p in s.players.values() if p.bust and p.bust.seat_ticket}
    if s.seats_issued is not None:
        return won | {x.player: x.ticket for x in s.seats_issued.tickets}
    return won | {i.holder: i.id for i in seat_tickets(s) if i.holder is not None}


def to_pay(t: Tournament, paid: Iterable[tuple[str, float, str]]) -> Cashier:
    """The money finishers of ``t``; ``paid``: (player, when, by) of those paid already."""
    s = t.state
    pool = pool_of(s)
    done = {pid: (at, by) for pid, at, by in paid}
    if pool is None:
        return Cashier(currency=None, rows=(), paid=0, owed=0)
    places = len(pool.places)
    tickets = _tickets(s)
    sat = satellite_of(s)
    target = sat.target if sat is not None else None
    rows = []
    for p in s.players.values():
        won = p.bounty.won if p.bounty is not None else 0
        out = p.busted and p.bust is not None and (p.bust.place <= places or won > 0)
        if not (
            out or s.winner == p.id or p.id in done or place_by_deal(s, p.id) or p.id in tickets
        ):
            continue
        finish = finish_of(t, p)
        if finish is None or not (finish.prize or won or p.id in tickets):
            continue
        at, by = done.get(p.id, (None, None))
        ticket = tickets.get(p.id)
        seat = sat.seat if finish.seat and sat is not None else 0
        rows.append(
            Owed(
                player=p.id,
                name=p.name,
                place=finish.place,
                amount=max(0, (finish.prize or 0) - seat),
                paid=p.id in done,
                paid_at=at,
                paid_by=by,
                bounty=won,
                bounty_owed=max(0, won - p.bounty.paid) if p.bounty is not None else 0,
                ticket=ticket,
                ticket_target=target if ticket is not None else None,
                seat=seat,
            )
        )
    rows.sort(key=lambda r: (-r.place, r.player))
    return Cashier(
        currency=pool.currency,
        rows=tuple(rows),
        paid=sum(r.amount for r in rows if r.paid),
        owed=sum(r.amount for r in rows if not r.paid),
        bounties_owed=sum(r.bounty_owed for r in rows),
    )
