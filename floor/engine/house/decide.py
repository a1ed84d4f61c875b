"""The house's rules: what a tournament command claims in the house, and whether it may."""

from __future__ import annotations

import msgspec

from .. import commands as tc
from ..flights import Bagged as FlightBag
from ..flights import FlightRules, may_enter
from ..milestone import award_claim, undo_claim
from ..satellite import seat_tickets
from ..state import TournamentState
from .commands import HouseCommand, SettleHold, TakeHold
from .dealers_decide import decide_room
from .events import Claim, EntryClaim, Hold, HoldSettled, HoldTaken, HouseEvent, Sheet, SheetClaim
from .state import HouseState
from .tickets import may_issue, may_use, may_withdraw
from .tickets_commands import ExpireTicket, RefundTicket, SellTicket, TransferTicket
from .tickets_decide import decide_tickets
from .tickets_events import IssueTicketsClaim, UseTicketClaim, WithdrawTicketClaim


def claim_of(t: TournamentState, command: tc.Command) -> Claim | None:
    """What ``command`` claims in the house when sent to ``t`` (None: nothing): a ticket a
    registration is paid with, a satellite's seats, an entry to a flight where nobody who
    bagged earlier may play another, a flight's bag sheet."""
    if (tickets := ticket_claim(t, command)) is not None:
        return tickets
    flight = t.flight
    if flight is None:
        return None
    match command:
        case tc.Register(player=player) if player is not None:
            players: tuple[str, ...] = (player,)
        case tc.RegisterMany(entries=entries):
            players = tuple(e.player for e in entries if e.player is not None)
        case tc.BagTable(table=table, bags=bags):
            sheet = Sheet(
                flight=t.id,
                event=flight.event,
                order=flight.order,
                table=table,
                bags=tuple((b.player, b.stack) for b in bags),
            )
            return SheetClaim(sheet=sheet)
        case _:
            return None
    if not players or flight.rules.stack_forward != "no_flight_after_bag":
        return None
    return EntryClaim(event=flight.event, order=flight.order, players=players)


def ticket_claim(t: TournamentState, command: tc.Command) -> Claim | None:
    """A registration with a ticket (with the flight entry it claims too), a satellite's
    seats entered in the ledger (``satellite.seat_tickets``), a milestone's seat's ticket,
    or its undo taking that ticket back (``milestone``)."""
    match command:
        case tc.Register(ticket=ticket, player=player) if ticket is not None:
            entry = claim_of(t, msgspec.structs.replace(command, ticket=None))
            entry_event, order = (
                (entry.event, entry.order) if isinstance(entry, EntryClaim) else (None, 0)
            )
            return UseTicketClaim(
                ticket=ticket,
                tournament=t.id,
                player=player,
                entry_event=entry_event,
                entry_order=order,
            )
        case tc.IssueSeats():
            issues = seat_tickets(t)
            return IssueTicketsClaim(tickets=issues) if issues else None
        case tc.AwardSeat():
            # A milestone's seat: its ticket is issued with it (``milestone``).
            return award_claim(t, command)
        case tc.UndoBust():
            return undo_claim(t, command)
        case _:
            return None


def sheets_of(t: TournamentState) -> list[Sheet]:
    """A flight's bag sheets as the house indexes them (a log brought in from an export)."""
    flight = t.flight
    if flight is None:
        return []
    return [
        Sheet(
            flight=t.id,
            event=flight.event,
            order=flight.order,
            table=table,
            bags=tuple((b.player, b.stack) for b in sheet.bags),
        )
        for table, sheet in sorted(t.bags.items())
    ]


def decide(state: HouseState, command: HouseCommand, now: float) -> list[HouseEvent]:
    """The events of ``command``, or a ``RuleError`` that says why not (nothing changed)."""
    match command:
        case TakeHold(hold=hold_id, tournament=tid, command_id=cid, claim=claim):
            if hold_id in state.holds:
                return []  # the same command sent again: its hold stands
            if isinstance(claim, EntryClaim):
                _may_enter(state, claim)
            elif isinstance(claim, UseTicketClaim):
                may_use(state.tickets, claim, held_tickets(state), now)
                if claim.entry_event is not None and claim.player is not None:
                    players = (claim.player,)
                    entry = EntryClaim(
                        event=claim.entry_event, order=claim.entry_order, players=players
                    )
                    _may_enter(state, entry)
            elif isinstance(claim, IssueTicketsClaim):
                may_issue(state.tickets, claim, _issuing(state))
            elif isinstance(claim, WithdrawTicketClaim):
                may_withdraw(state.tickets, claim, held_tickets(state), now)
            hold = Hold(id=hold_id, tournament=tid, command_id=cid, claim=claim, at=now)
            return [HoldTaken(hold=hold)]
        case SettleHold(hold=hold_id, committed=committed):
            if hold_id not in state.holds:
                return []  # settled before
            return [HoldSettled(hold=hold_id, committed=committed, at=now)]
        case SellTicket() | ExpireTicket() | RefundTicket() | TransferTicket():
            return list(decide_tickets(state.tickets, command, held_tickets(state), now))
        case _:
            return list(decide_room(state.room, command, now))


def held_tickets(state: HouseState) -> set[str]:
    """The tickets reserved by a registration being decided, or being taken back with the
    undo of a milestone's seat."""
    return {
        h.claim.ticket
        for h in state.holds.values()
        if isinstance(h.claim, UseTicketClaim | WithdrawTicketClaim)
    }


def _issuing(state: HouseState) -> set[str]:
    return {
        i.id
        for h in state.holds.values()
        if isinstance(h.claim, IssueTicketsClaim)
        for i in h.claim.tickets
    }


def _may_enter(state: HouseState, claim: EntryClaim) -> None:
    rules = FlightRules(stack_forward="no_flight_after_bag")
    bagged = state.bagged.get(claim.event, {})
    for player in claim.players:
        bags = (
            FlightBag(player=player, name="", flight=b.flight, order=b.order, stack=b.stack)
            for b in bagged.get(player, ())
        )
        may_enter(rules, player, bags, claim.order)
