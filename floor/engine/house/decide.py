"""The house's rules: what a tournament command claims in the house, and whether it may."""

from __future__ import annotations

from .. import commands as tc
from ..flights import Bagged as FlightBag
from ..flights import FlightRules, may_enter
from ..state import TournamentState
from .commands import HouseCommand, SettleHold, TakeHold
from .dealers_decide import decide_room
from .events import Claim, EntryClaim, Hold, HoldSettled, HoldTaken, HouseEvent, Sheet, SheetClaim
from .state import HouseState


def claim_of(t: TournamentState, command: tc.Command) -> Claim | None:
    """What ``command`` claims in the house when sent to ``t`` (None: nothing): an entry to
    a flight where nobody who bagged earlier may play another, a flight's bag sheet."""
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
            hold = Hold(id=hold_id, tournament=tid, command_id=cid, claim=claim, at=now)
            return [HoldTaken(hold=hold)]
        case SettleHold(hold=hold_id, committed=committed):
            if hold_id not in state.holds:
                return []  # settled before
            return [HoldSettled(hold=hold_id, committed=committed, at=now)]
        case _:
            return list(decide_room(state.room, command, now))


def _may_enter(state: HouseState, claim: EntryClaim) -> None:
    rules = FlightRules(stack_forward="no_flight_after_bag")
    bagged = state.bagged.get(claim.event, {})
    for player in claim.players:
        bags = (
            FlightBag(player=player, name="", flight=b.flight, order=b.order, stack=b.stack)
            for b in bagged.get(player, ())
        )
        may_enter(rules, player, bags, claim.order)
