"""The ledger's own commands decided (the director's: sell, expire, refund, transfer); a
registration's use of a ticket and a satellite's seats come as holds (``house.decide``)."""

from __future__ import annotations

from typing import assert_never

from ..errors import BadValue, NotAllowed
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
                raise BadValue("a ticket sold needs its id", field="id", reason="ticket_no_id")
            if tid in ledger.tickets:
                raise NotAllowed(
                    f"ticket {tid} is in the ledger already",
                    field="ticket",
                    reason="ticket_exists",
                    params={"ticket": tid},
                )
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
                raise NotAllowed(
                    f"ticket {tid} is bound to player {t.holder}",
                    field="ticket",
                    reason="ticket_bound",
                    params={"ticket": tid, "holder": t.holder},
                )
            return [TicketTransferred(ticket=tid, holder=holder, name=name, at=now)]
        case _:
            assert_never(command)
