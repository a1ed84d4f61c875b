"""Checking a log written elsewhere: each event as the rules could have written it.

The live floor writes only what ``decide`` returned, so its log holds nothing the rules
refuse. A log brought from elsewhere (an export that ``floor import`` reads back) holds
whatever decodes: seat 99 at a 9-seat table, a stack of -5, every bust-out in place 1. Such
a log folds, and the screens then show what no floor could have seen.

``check(t, event, previous)`` refuses an event no command could have caused in the state
``t`` before it (a ``RuleError`` with the reason and parameters every refusal carries);
``replay(events)`` folds a whole log, checking every event first, and names the first one
refused (``InvalidEvent``).

Checked is what the state and the screens rely on: players and tables that exist, players
where the event says they are, seats that exist and are free, names and ids that show,
stacks and counts within their limits, hand numbers, bust-out places that follow the
players left, the clock's steps. Not checked is what the rules leave to chance or to the
floor: which seat a draw gave, which table broke, whether a move was the planned one or a
floor correction to another free seat.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import assert_never

from . import (
    alternates,
    amendments,
    announce,
    bounty,
    day_end,
    deal,
    deal_undo,
    fair,
    finish,
    hand_for_hand,
    milestone,
    rulings,
    satellite,
)
from .errors import FloorError, NotAllowed, RuleError, refused
from .events import (
    AddOnMade,
    AlternateQueued,
    AlternatesCalled,
    AlternateSeated,
    AlternatesLapsed,
    AlternatesLeft,
    Announced,
    AnnouncementCleared,
    BountyPaid,
    BustUndone,
    ButtonReported,
    CallsLapsed,
    CapacitySet,
    ChipsRaced,
    ClockAdjusted,
    ClockPaused,
    ClockResumed,
    ClockStarted,
    DayEnded,
    DealMade,
    DealProposed,
    DealUndone,
    DrawMade,
    DrawsCommitted,
    Event,
    FieldCarried,
    FinalTableFormed,
    FlightSet,
    GameChanged,
    HaltWaived,
    HandForHandDealt,
    HandForHandEnded,
    HandForHandStarted,
    HandReported,
    HandStarted,
    LevelChanged,
    MoveCancelled,
    MovesCalled,
    PlayerBusted,
    PlayerRegistered,
    PlayerRenamed,
    PlayerSeated,
    PlayersMoved,
    PlayerUnregistered,
    PrizeChanged,
    RebuyMade,
    RulingRecorded,
    SatelliteEnded,
    SeatAwarded,
    SeatLockSet,
    SeatsAssigned,
    SeatsDrawn,
    SeatsIssued,
    SitOutEnded,
    SpecialNeedsSet,
    StacksCounted,
    StackSet,
    StructureChanged,
    TableBagged,
    TableBreaking,
    TableBroken,
    TableOpened,
    TableSetUp,
    TimeCalled,
    TimeCallEnded,
    TournamentClosed,
    TournamentCreated,
    TournamentFinished,
    WitnessSet,
)
from .features import busts, checks, chips, entries, hands, moving, tables, timing
from .features.checks import MAX_ID, MAX_NAME, MAX_SEATS, MAX_TABLE, MIN_SEATS
from .state import Tournament

__all__ = [
    "MAX_ID",
    "MAX_NAME",
    "MAX_SEATS",
    "MAX_TABLE",
    "MIN_SEATS",
    "InvalidEvent",
    "check",
    "replay",
]


class InvalidEvent(RuleError):
    """Event ``number`` of a log (1 for the first) is one the rules could not have written:
    the refusal ``error`` said of it, with its code, reason and parameters."""

    number: int = 0
    kind: str = ""
    error: FloorError


def _invalid(number: int, kind: str, error: FloorError) -> InvalidEvent:
    invalid = error.recast(InvalidEvent, None, f"event {number} ({kind}): {error}")
    invalid.code = error.code  # the kind of the event's own refusal: a bad seat, a bad value
    invalid.number = number
    invalid.kind = kind
    invalid.error = error
    return invalid


def replay(events: Iterable[Event]) -> Tournament:
    """The tournament ``events`` fold to, each checked against the state before it."""
    t: Tournament | None = None
    previous: Event | None = None
    number = 0
    for number, event in enumerate(events, 1):
        try:
            if t is None:
                if not isinstance(event, TournamentCreated):
                    raise _log_start()
                t = Tournament.create(event)
            else:
                check(t, event, previous)
                t.apply(event)
        except FloorError as e:
            raise _invalid(number, _kind(event), e) from None
        previous = event
    if t is None:
        raise _invalid(1, "", _log_start())
    try:
        busts.share_closed(t, previous, None)
    except FloorError as e:
        assert previous is not None
        raise _invalid(number, _kind(previous), e) from None
    return t


def check(t: Tournament, event: Event, previous: Event | None = None) -> None:
    """Raise ``RuleError`` (or a subclass) if no command could have caused ``event`` in the
    state ``t``; ``previous`` is the event before it, which a shared bust-out place spans.

    One case per event: an event added to the union without one fails ``mypy --strict``.
    """
    busts.share_closed(t, previous, event)
    finish.check(t, event)
    match event:
        case PlayerBusted():
            busts.check_player_busted(t, event, previous)
        case PlayersMoved():
            moving.check_players_moved(t, event)
        case HandStarted():
            hands.check_hand_started(t, event)
        case ButtonReported():
            hands.check_button_reported(t, event)
        case SeatsAssigned():
            moving.check_seats_assigned(t, event)
        case PlayerRegistered():
            entries.check_player_registered(t, event)
        case PlayerSeated():
            entries.check_player_seated(t, event)
        case TableBreaking():
            checks.open_table(t, event.table)
        case TableBroken():
            tables.check_table_broken(t, event)
        case StackSet():
            chips.check_stack_set(t, event)
        case StacksCounted():
            chips.check_stacks_counted(t, event)
        case LevelChanged():
            timing.check_level_changed(t, event)
        case TimeCalled():
            timing.check_time_called(t, event)
        case TimeCallEnded():
            timing.time_call(t, event.table, event.seat)
        case MoveCancelled():
            moving.check_move_cancelled(t, event)
        case MovesCalled():
            moving.check_moves_called(t, event)
        case CallsLapsed():
            moving.check_calls_lapsed(t, event)
        case BustUndone():
            busts.check_bust_undone(t, event)
        case RebuyMade() | AddOnMade():
            chips.check_bought(t, event)
        case ChipsRaced():
            chips.check_chips_raced(t, event)
        case SeatLockSet():
            moving.lockable(t, event.player)
        case HaltWaived():
            tables.check_halt_waived(t, event)
        case SeatsDrawn():
            entries.check_seats_drawn(t, event)
        case TableOpened():
            tables.new_table(t, event.table, event.seats)
        case TableSetUp():
            tables.check_table_set_up(t, event)
        case FinalTableFormed():
            tables.check_final_table_formed(t, event)
        case GameChanged():
            tables.mixed_game(t)
        case ClockStarted() | ClockPaused() | ClockResumed() | ClockAdjusted():
            timing.check_clock(t, event)
        case TournamentFinished():
            if event.remaining is not None:
                checks.not_negative("remaining", event.remaining)
        case TournamentClosed():
            pass  # ``finish.check``: only once there is a winner
        case PlayerRenamed() | SpecialNeedsSet() | PlayerUnregistered():
            entries.check_player_changed(t, event)
        case PrizeChanged() | StructureChanged():
            amendments.check(t.state, t.rules, event)
        case RulingRecorded() | SitOutEnded():
            rulings.check(t, event)
        case HandForHandStarted() | HandReported() | HandForHandDealt() | HandForHandEnded():
            hand_for_hand.check(t, event)
        case FieldCarried():
            for name in ("entries", "rebuys", "add_ons"):
                checks.not_negative(name, getattr(event, name))
            if event.checks and not (event.acknowledged or "").strip():
                # Day 2 is made from a failed check only on the director's reason (``day2``).
                raise refused(NotAllowed, "day2_ack_reason", {}, field="acknowledged")
        case FlightSet() | TableBagged() | DayEnded():
            if isinstance(event, DayEnded) and event.remaining is not None:
                checks.not_negative("remaining", event.remaining)
            day_end.check(t, event)
        case BountyPaid():
            bounty.check(t, event)
        case DealProposed() | DealMade():
            deal.check(t, event)
        case (
            CapacitySet()
            | AlternateQueued()
            | AlternatesCalled()
            | AlternateSeated()
            | AlternatesLapsed()
            | AlternatesLeft()
        ):
            alternates.check(t, event)
        case Announced() | AnnouncementCleared():
            announce.check(t, event)
        case SatelliteEnded() | SeatsIssued():
            satellite.check(t, event)
        case DealUndone():
            deal_undo.check(t, event)
        case DrawsCommitted() | DrawMade() | WitnessSet():
            fair.check(t, event)
        case SeatAwarded():
            milestone.check(t, event)
        case TournamentCreated():
            raise _log_start()
        case _:
            assert_never(event)


def _log_start() -> RuleError:
    return refused(RuleError, "log_start", {})


def _kind(event: Event) -> str:
    return str(type(event).__struct_config__.tag)
