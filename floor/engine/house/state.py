"""The house's state, a fold of its events."""

from __future__ import annotations

from typing import assert_never

import msgspec

from ..model import PlayerId, TableNo
from .dealers import Room
from .dealers_events import apply_room
from .events import EntryClaim, Hold, HoldSettled, HoldTaken, HouseEvent, Sheet, SheetClaim
from .tickets import Ledger, apply_tickets, commit_issue, commit_use, commit_withdraw
from .tickets_events import (
    IssueTicketsClaim,
    TicketExpired,
    TicketRefunded,
    TicketSold,
    TicketTransferred,
    UseTicketClaim,
    WithdrawTicketClaim,
)


class Bagged(msgspec.Struct, frozen=True, kw_only=True):
    """One bag of one player, as the house indexes it."""

    flight: str
    order: int
    table: TableNo
    stack: int


class HouseState(msgspec.Struct, kw_only=True):
    #: The flights' bag sheets, by flight and table, as last sent.
    sheets: dict[str, dict[TableNo, Sheet]] = msgspec.field(default_factory=dict)
    #: Who bagged in which flight, by event and player: the entries' check reads it.
    bagged: dict[str, dict[PlayerId, list[Bagged]]] = msgspec.field(default_factory=dict)
    #: Holds not settled yet, by id.
    holds: dict[str, Hold] = msgspec.field(default_factory=dict)
    #: The dealer room: its dealers, its tables, its rotation and downs (``dealers``).
    room: Room = msgspec.field(default_factory=Room)
    #: The ticket ledger (``tickets``).
    tickets: Ledger = msgspec.field(default_factory=Ledger)


def apply(state: HouseState, event: HouseEvent) -> None:
    match event:
        case HoldTaken(hold=hold):
            state.holds[hold.id] = hold
        case HoldSettled(hold=hold_id, committed=committed):
            settled = state.holds.pop(hold_id, None)
            if settled is not None and committed:
                _commit(state, settled, event.at)
        case TicketSold() | TicketExpired() | TicketRefunded() | TicketTransferred():
            apply_tickets(state.tickets, event)
        case _:
            apply_room(state.room, event)


def _commit(state: HouseState, hold: Hold, at: float) -> None:
    claim = hold.claim
    match claim:
        case SheetClaim(sheet=sheet):
            _index(state, sheet)
        case EntryClaim():
            pass  # checked when taken: nothing is kept of an entry
        case UseTicketClaim():
            commit_use(state.tickets, claim, at)
        case IssueTicketsClaim():
            commit_issue(state.tickets, claim, at)
        case WithdrawTicketClaim():
            commit_withdraw(state.tickets, claim, at)
        case _:
            assert_never(claim)


def _index(state: HouseState, sheet: Sheet) -> None:
    tables = state.sheets.setdefault(sheet.flight, {})
    before = tables.get(sheet.table)
    tables[sheet.table] = sheet
    by_player = state.bagged.setdefault(sheet.event, {})
    if before is not None:
        for player, _ in before.bags:
            marks = [
                b
                for b in by_player.get(player, ())
                if not (b.flight == sheet.flight and b.table == sheet.table)
            ]
            if marks:
                by_player[player] = marks
            else:
                by_player.pop(player, None)
    for player, stack in sheet.bags:
        mark = Bagged(flight=sheet.flight, order=sheet.order, table=sheet.table, stack=stack)
        by_player.setdefault(player, []).append(mark)
