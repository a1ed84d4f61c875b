"""The ledger's own commands decided (the director's: sell, expire, refund, transfer); a
registration's use of a ticket and a satellite's seats come as holds (``house.decide``)."""

from __future__ import annotations

from typing import assert_never

from ..errors import BadValue, NotAllowed, refused
from .tickets import Ledger, may_change
from .tickets_commands import ExpireTicket, RefundTicket, SellTicket, TicketCommand, TransferTicket
from .tickets_events import (
    TicketEvent,
    TicketExpired,
    TicketRefunded,
    TicketSold,
    TicketTransferred,
)


def decide_tickets(
    ledger: Ledger, command: TicketCommand, held: set[str], now: float
) -> list[TicketEvent]:
    match command:
        case SellTicket(id=tid):
            if tid is None:
                raise refused(BadValue, "ticket_no_id", {}, field="id")
            if tid in ledger.tickets:
                raise refused(NotAllowed, "ticket_exists", {"ticket": tid}, field="ticket")
            return [TicketSold(ticket=command.issue(tid), at=now)]
        case ExpireTicket(ticket=tid):
            may_change(ledger, tid, held, now)
            return [TicketExpired(ticket=tid, at=now)]
        case RefundTicket(ticket=tid):
            may_change(ledger, tid, held, now)
            return [TicketRefunded(ticket=tid, at=now)]
        case TransferTicket(ticket=tid, holder=holder, name=name):
            t = may_change(ledger, tid, held, now)
            if not t.issue.transferable:
                raise refused(
                    NotAllowed, "ticket_bound", {"ticket": tid, "holder": t.holder}, field="ticket"
                )
            return [TicketTransferred(ticket=tid, holder=holder, name=name, at=now)]
        case _:
            assert_never(command)
