"""Deciding a command: validate it against the state, then return the events it causes.

``decide(t, command, now, rng)`` checks everything first and raises a ``RuleError`` naming the
field before any event is applied, so a refused command changes nothing. An accepted one is
applied to ``t`` as it is decided (housekeeping needs the new state to draw seats) and the
events are returned for the caller to store and publish.
"""

from __future__ import annotations

import random
from typing import assert_never

from . import (
    alternates,
    amendments,
    announce,
    bounty,
    calls,
    counts,
    day_end,
    deal,
    deal_undo,
    entry_list,
    fair,
    finish,
    hand_for_hand,
    lookups,
    milestone,
    players,
    rulings,
    satellite,
)
from .commands import (
    AddOn,
    Announce,
    AwardSeat,
    BagTable,
    BreakTable,
    Bust,
    BustSameHand,
    Button,
    CallAll,
    CallMove,
    CallTime,
    Cancel,
    ChipRace,
    ClearAnnouncement,
    ClockAdjust,
    ClockLevel,
    ClockPause,
    ClockResume,
    ClockStart,
    CloseTournament,
    Command,
    Confirm,
    ConfirmAll,
    CorrectSeat,
    CountTable,
    DrawSeats,
    DropAlternate,
    EndDay,
    EndHandForHand,
    EndSitOut,
    EndTimeCall,
    Hand,
    HandDone,
    IssueSeats,
    JoinAlternates,
    LockSeat,
    MakeDeal,
    OpenTable,
    PayBounty,
    ProposeDeal,
    QueueAlternate,
    Rebuy,
    RecordRuling,
    Register,
    RegisterMany,
    RenamePlayer,
    SeatAlternate,
    SetCapacity,
    SetFlight,
    SetGame,
    SetPrize,
    SetSpecialNeeds,
    SetStack,
    SetStructure,
    SetWitness,
    StartFinal,
    StartHandForHand,
    Tick,
    UndoBust,
    UndoDeal,
    Unregister,
    WaiveHalt,
)
from .events import CapacitySet, Event
from .features import busts, chips, entries, hands, moving, tables, timing
from .features.entries import registration
from .planner import housekeep
from .state import Tournament

#: ``registration`` is asked of every row an import previews (``entry_check``).
__all__ = ["decide", "registration"]


def decide(t: Tournament, command: Command, now: float, rng: random.Random) -> list[Event]:
    """The events ``command`` causes; raises ``RuleError`` (changing nothing) if refused."""
    if (refused := finish.bar(t, command)) is not None:
        raise refused
    if (refused := hand_for_hand.bar(t, command)) is not None:
        raise refused
    if (refused := day_end.bar(t, command)) is not None:
        raise refused
    if (refused := satellite.bar(t, command)) is not None:
        raise refused
    primary = _primary(t, command, now, rng)
    for e in primary:
        t.apply(e)
    events = primary + housekeep(t, rng)
    # A hand-for-hand round whose last table to report stopped playing is over.
    events += hand_for_hand.ending(t, now, rng)
    # Whatever left one player ends the tournament (the winner, the clock stopped); a
    # flight's day ends at its last level or its share of the field (the clock stopped).
    events += satellite.ending(t, now)
    events += finish.ending(t, now)
    events += day_end.ending(t, now)
    # Seats opened (or a level changed): the next alternates are called.
    return events + alternates.calling(t, now, events)


def _primary(t: Tournament, c: Command, now: float, rng: random.Random) -> list[Event]:
    """The events of the command itself, before housekeeping.

    One case per command: a command added to the union without one fails ``mypy --strict``
    at ``assert_never``. The most frequent commands come first (the cases are tried in order).
    """
    match c:
        case Bust():
            return busts.bust(t, c, now, rng)
        case Confirm():
            return moving.confirm(t, c, now, rng)
        case Hand():
            return hands.hand(t, c, now, rng) + rulings.hands_over(t, c.table, now)
        case Button():
            return hands.button(t, c, now, rng)
        case HandDone():
            return hand_for_hand.hand_done(t, c, now, rng)
        case StartHandForHand():
            return hand_for_hand.start(t, c, now)
        case EndHandForHand():
            return hand_for_hand.end(t, c, now, rng)
        case Register():
            return entries.register(t, c, now, rng)
        case RegisterMany():
            return entry_list.register_many(t, c, now, rng, entries.register)
        case SetPrize():
            return amendments.set_prize(t.state, c, now)
        case SetStructure():
            return amendments.set_structure(t.state, t.rules, c, now)
        case Tick():
            return timing.tick(t, c, now, rng)
        case SetStack():
            return chips.set_stack(t, c, now, rng)
        case CountTable():
            return counts.count_table(t, c, now)
        case ConfirmAll():
            return moving.confirm_all(t, c, now, rng)
        case BustSameHand():
            return busts.bust_same_hand(t, c, now, rng)
        case UndoBust():
            return busts.undo_bust(t, c, now, rng)
        case Cancel():
            return moving.cancel(t, c, now, rng)
        case CallMove():
            return moving.call_move(t, c, now, rng)
        case CallAll():
            return [calls.call_all(t, c.reason, now)]
        case CorrectSeat():
            return moving.correct_seat(t, c, now, rng)
        case LockSeat():
            return moving.lock_seat(t, c, now, rng)
        case RenamePlayer():
            return players.rename(lookups.player(t, c.player), c.name)
        case SetSpecialNeeds():
            return players.set_special_needs(lookups.player(t, c.player), c.special_needs)
        case Unregister():
            return players.unregister(t, lookups.player(t, c.player), now)
        case CallTime():
            return timing.call_time(t, c, now, rng)
        case EndTimeCall():
            return timing.end_time_call(t, c, now, rng)
        case Rebuy():
            return chips.rebuy(t, c, now, rng)
        case AddOn():
            return chips.add_on(t, c, now, rng)
        case ChipRace():
            return chips.race_chips(t, c, now, rng)
        case DrawSeats():
            return entries.draw_seats(t, c, now, rng)
        case OpenTable():
            return tables.open_table(t, c, now, rng)
        case WaiveHalt():
            return tables.waive_halt(t, c, now, rng)
        case BreakTable():
            return tables.break_table(t, c, now, rng)
        case StartFinal():
            return tables.start_final(t, c, now, rng)
        case SetGame():
            return tables.set_game(t, c, now, rng)
        case ClockStart():
            return timing.clock_start(t, c, now, rng)
        case ClockPause():
            return timing.clock_pause(t, c, now, rng)
        case ClockResume():
            return timing.clock_resume(t, c, now, rng)
        case ClockAdjust():
            return timing.clock_adjust(t, c, now, rng)
        case ClockLevel():
            return timing.clock_level(t, c, now, rng)
        case CloseTournament():
            return finish.close(t, now)
        case RecordRuling():
            return rulings.record(t, c, now)
        case EndSitOut():
            return rulings.end(t, c, now)
        case BagTable():
            return day_end.bag_table(t, c, now)
        case EndDay():
            return day_end.end_day(t, c, now)
        case SetFlight():
            return day_end.set_flight(t, c, now)
        case ProposeDeal():
            return deal.propose(t, c, now)
        case MakeDeal():
            return deal.make(t, c, now)
        case PayBounty():
            return bounty.pay(t, c, now)
        case SetCapacity():
            return alternates.set_capacity(t, CapacitySet(capacity=c.capacity))
        case QueueAlternate() | JoinAlternates():
            return alternates.queue(t, c, now, entries.registered)
        case SeatAlternate():
            return alternates.seat(t, c, now, lambda r: entries.register(t, r, now, rng, held=True))
        case DropAlternate():
            return alternates.drop(t, c, now)
        case Announce():
            return announce.say(t, c, now)
        case ClearAnnouncement():
            return announce.clear(t, c, now)
        case IssueSeats():
            return satellite.issue(t, c, now)
        case UndoDeal():
            return deal_undo.undo(t, c, now)
        case SetWitness():
            return fair.witness(t, c, now)
        case AwardSeat():
            return milestone.award(t, c, now)
        case _:
            assert_never(c)
