"""The house's events: every change to it, as a tagged union (the house's fold is
``state.apply``)."""

from __future__ import annotations

import msgspec

from ..model import PlayerId, TableNo
from .dealers_events import RoomEvent
from .tickets_events import IssueTicketsClaim, TicketEvent, UseTicketClaim, WithdrawTicketClaim


class _Event(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    pass


class Sheet(msgspec.Struct, frozen=True, kw_only=True):
    """A table's bag sheet of one flight, as the house indexes it: who bagged what."""

    flight: str
    #: The event the flight belongs to, and where the flight comes in it (1 for Day 1A).
    event: str
    order: int
    table: TableNo
    #: (player, chips) of every bag on the sheet.
    bags: tuple[tuple[PlayerId, int], ...]


class EntryClaim(msgspec.Struct, frozen=True, kw_only=True, tag="entry"):
    """Players entering a flight of an event where nobody who bagged in an earlier flight
    may play another (``flights.StackForward``)."""

    event: str
    order: int
    players: tuple[PlayerId, ...]


class SheetClaim(msgspec.Struct, frozen=True, kw_only=True, tag="sheet"):
    """A flight's bag sheet, indexed once the tournament has it (a later sheet for the same
    table replaces the earlier one)."""

    sheet: Sheet


#: What a tournament command claims in the house.
Claim = EntryClaim | SheetClaim | UseTicketClaim | IssueTicketsClaim | WithdrawTicketClaim


class Hold(msgspec.Struct, frozen=True, kw_only=True):
    """A claim taken by one tournament command, until the tournament's answer settles it."""

    #: The hold's own id (``hold_id``: the tournament and the command id, digested).
    id: str
    tournament: str
    command_id: str
    claim: Claim
    at: float


class HoldTaken(_Event, frozen=True, tag="hold_taken"):
    hold: Hold


class HoldSettled(_Event, frozen=True, tag="hold_settled"):
    """The tournament acknowledged the command (``committed``: its claim takes effect) or
    refused it (the claim is dropped)."""

    hold: str
    committed: bool
    at: float


#: The house's events: its holds, the dealer room's (``dealers_events``), the ticket
#: ledger's (``tickets_events``).
HouseEvent = HoldTaken | HoldSettled | RoomEvent | TicketEvent
