"""The ticket ledger: every ticket the house has issued, and what became of it.

A ticket is a seat in a target event worth its buy-in plus fee, issued by a satellite (its
seats, ``floor.engine.satellite``) or sold. It is used once, to register in its target instead
of a buy-in: the registration reserves it (a hold under the registration's command id,
``floor.engine.house``), and the tournament's answer settles the hold: written, the ticket is
used; refused, it is free again. Two registrations with one ticket at once: the house takes
the first hold and refuses the second. A ticket not used may expire or be refunded; a
transferable one may be handed to another player (a bound one is used by its holder only).
"""

from __future__ import annotations

from typing import Literal, assert_never

import msgspec

from ..errors import NotAllowed, refused
from ..model import PlayerId
from .tickets_events import (
    IssueTicketsClaim,
    TicketEvent,
    TicketExpired,
    TicketIssue,
    TicketRefunded,
    TicketSold,
    TicketTransferred,
    UseTicketClaim,
    WithdrawTicketClaim,
)

#: ``withdrawn``: a milestone seat's ticket, taken back with the undo of its award.
Status = Literal["issued", "used", "expired", "refunded", "withdrawn"]


class Ticket(msgspec.Struct, kw_only=True):
    """One ticket in the ledger."""

    issue: TicketIssue
    holder: PlayerId | None
    name: str
    status: Status = "issued"
    #: When it was issued, and when its status last changed.
    at: float = 0.0
    changed: float = 0.0
    #: Where it was used: the tournament, and the player registered with it.
    used_in: str | None = None
    used_by: PlayerId | None = None


class Ledger(msgspec.Struct, kw_only=True):
    tickets: dict[str, Ticket] = msgspec.field(default_factory=dict)


def apply_tickets(ledger: Ledger, event: TicketEvent) -> None:
    match event:
        case TicketSold(ticket=issue, at=at):
            _add(ledger, issue, at)
        case TicketExpired(ticket=tid, at=at):
            ledger.tickets[tid].status = "expired"
            ledger.tickets[tid].changed = at
        case TicketRefunded(ticket=tid, at=at):
            ledger.tickets[tid].status = "refunded"
            ledger.tickets[tid].changed = at
        case TicketTransferred(ticket=tid, holder=holder, name=name, at=at):
            ticket = ledger.tickets[tid]
            ticket.holder, ticket.name, ticket.changed = holder, name, at
        case _:
            assert_never(event)


def commit_use(ledger: Ledger, claim: UseTicketClaim, at: float) -> None:
    ticket = ledger.tickets.get(claim.ticket)
    if ticket is None:
        return  # checked when taken: a ticket is never taken out of the ledger
    ticket.status = "used"
    ticket.changed = at
    ticket.used_in = claim.tournament
    ticket.used_by = claim.player


def commit_issue(ledger: Ledger, claim: IssueTicketsClaim, at: float) -> None:
    for issue in claim.tickets:
        if issue.id not in ledger.tickets:
            _add(ledger, issue, at)


def commit_withdraw(ledger: Ledger, claim: WithdrawTicketClaim, at: float) -> None:
    ticket = ledger.tickets.get(claim.ticket)
    if ticket is None:
        return  # checked when taken: a ticket is never taken out of the ledger
    ticket.status = "withdrawn"
    ticket.changed = at


def _add(ledger: Ledger, issue: TicketIssue, at: float) -> None:
    ledger.tickets[issue.id] = Ticket(
        issue=issue, holder=issue.holder, name=issue.name, at=at, changed=at
    )


# The rules ------------------------------------------------------------------------------------


def ticket(ledger: Ledger, tid: str, field: str = "ticket") -> Ticket:
    found = ledger.tickets.get(tid)
    if found is None:
        raise refused(NotAllowed, "ticket_unknown", {"ticket": tid}, field=field)
    return found


def may_use(ledger: Ledger, claim: UseTicketClaim, held: set[str], now: float) -> None:
    """Refuse a registration with a ticket that is not there to use: unknown, used, reserved
    by another registration being decided, expired or refunded, for another event, or bound
    to another player."""
    t = ticket(ledger, claim.ticket)
    _free(t, held, now)
    if t.issue.target != claim.tournament:
        raise refused(
            NotAllowed,
            "ticket_other_event",
            {"ticket": claim.ticket, "target": t.issue.target},
            field="ticket",
        )
    if not t.issue.transferable and t.holder is not None and claim.player != t.holder:
        raise refused(
            NotAllowed, "ticket_bound", {"ticket": claim.ticket, "holder": t.holder}, field="ticket"
        )


def may_issue(ledger: Ledger, claim: IssueTicketsClaim, issuing: set[str]) -> None:
    for issue in claim.tickets:
        if issue.id in ledger.tickets or issue.id in issuing:
            raise refused(NotAllowed, "ticket_exists", {"ticket": issue.id}, field="ticket")


def may_withdraw(ledger: Ledger, claim: WithdrawTicketClaim, held: set[str], now: float) -> None:
    """A milestone seat's ticket may be taken back while nobody has used it, nor is using it."""
    _free(ticket(ledger, claim.ticket), held, now)


def may_change(ledger: Ledger, tid: str, held: set[str], now: float) -> Ticket:
    """A ticket that may be expired, refunded or transferred: issued, not reserved."""
    t = ticket(ledger, tid)
    _free(t, held, now, expiring=True)
    return t


def _free(t: Ticket, held: set[str], now: float, *, expiring: bool = False) -> None:
    tid = t.issue.id
    if t.status != "issued":
        raise refused(
            NotAllowed,
            "ticket_not_issued",
            {"ticket": tid, "ticket_status": t.status},
            field="ticket",
        )
    if tid in held:
        raise refused(NotAllowed, "ticket_held", {"ticket": tid}, field="ticket")
    if not expiring and t.issue.expires is not None and now >= t.issue.expires:
        raise refused(
            NotAllowed,
            "ticket_not_issued",
            {"ticket": tid, "ticket_status": "expired"},
            field="ticket",
        )
