"""The ticket ledger's commands, sent by the director (``tickets_decide``)."""

from __future__ import annotations

from typing import Annotated

import msgspec
from msgspec import Meta

from .tickets_events import TicketIssue

TicketId = Annotated[str, Meta(min_length=1, max_length=80, pattern=r"^[A-Za-z0-9._:-]+$")]
Holder = Annotated[str, Meta(min_length=1, max_length=64)]
HolderName = Annotated[str, Meta(max_length=120)]


class _Command(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    pass


class SellTicket(_Command, frozen=True, tag="sell_ticket", forbid_unknown_fields=True):
    """A ticket sold over the counter (its id given by the server when none is sent)."""

    target: Annotated[str, Meta(min_length=1, max_length=64)]
    value: Annotated[int, Meta(ge=0, le=10**12)]
    holder: Holder | None = None
    name: HolderName = ""
    transferable: bool = False
    expires: float | None = None
    id: TicketId | None = None

    def issue(self, tid: str) -> TicketIssue:
        return TicketIssue(
            id=tid,
            target=self.target,
            value=self.value,
            holder=self.holder,
            name=self.name,
            transferable=self.transferable,
            source="sold",
            expires=self.expires,
        )


class ExpireTicket(_Command, frozen=True, tag="expire_ticket", forbid_unknown_fields=True):
    ticket: TicketId


class RefundTicket(_Command, frozen=True, tag="refund_ticket", forbid_unknown_fields=True):
    ticket: TicketId


class TransferTicket(_Command, frozen=True, tag="transfer_ticket", forbid_unknown_fields=True):
    ticket: TicketId
    holder: Holder
    name: HolderName = ""


TicketCommand = SellTicket | ExpireTicket | RefundTicket | TransferTicket
