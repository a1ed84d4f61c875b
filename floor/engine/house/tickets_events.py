"""The ticket ledger's events and claims (``tickets``): a ticket issued by a satellite or
sold, used once to enter its target event, expired, refunded, handed to another player."""

from __future__ import annotations

from typing import Literal

import msgspec

from ..model import PlayerId

#: Where a ticket came from.
Source = Literal["satellite", "sold"]


class _Event(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    pass


class TicketIssue(msgspec.Struct, frozen=True, kw_only=True):
    """One ticket as it is issued: a seat in ``target`` worth ``value`` (its buy-in plus fee)."""

    id: str
    #: The tournament the ticket enters, instead of its buy-in.
    target: str
    value: int
    #: Who holds it (a player id, the same in every tournament); None: whoever presents it.
    holder: PlayerId | None = None
    name: str = ""
    #: May be handed to another player (``TransferTicket``), as the house sets.
    transferable: bool = False
    source: Source = "sold"
    #: The satellite that won it ("" for a ticket sold).
    origin: str = ""
    #: After this moment it may no longer be used (None: no end).
    expires: float | None = None


class UseTicketClaim(msgspec.Struct, frozen=True, kw_only=True, tag="use_ticket"):
    """A registration in ``tournament`` paid by a ticket, reserved until the tournament has
    answered: committed, the ticket is used; released, it may be used again."""

    ticket: str
    tournament: str
    player: PlayerId | None = None
    #: The flight entry the same registration claims, checked with the ticket (``EntryClaim``
    #: is ``events``'s; kept apart here so that this module imports none of the house).
    entry_event: str | None = None
    entry_order: int = 0


class IssueTicketsClaim(msgspec.Struct, frozen=True, kw_only=True, tag="issue_tickets"):
    """A satellite's seats, entered in the ledger once the satellite has recorded them."""

    tickets: tuple[TicketIssue, ...]


class WithdrawTicketClaim(msgspec.Struct, frozen=True, kw_only=True, tag="withdraw_ticket"):
    """A milestone seat's ticket taken back with the undo of its award (``milestone``), once
    the tournament has written the undo: it may no longer be used."""

    ticket: str


class TicketSold(_Event, frozen=True, tag="ticket_sold"):
    ticket: TicketIssue
    at: float


class TicketExpired(_Event, frozen=True, tag="ticket_expired"):
    ticket: str
    at: float


class TicketRefunded(_Event, frozen=True, tag="ticket_refunded"):
    ticket: str
    at: float


class TicketTransferred(_Event, frozen=True, tag="ticket_transferred"):
    ticket: str
    holder: PlayerId
    at: float
    name: str = ""


TicketEvent = TicketSold | TicketExpired | TicketRefunded | TicketTransferred
