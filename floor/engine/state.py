"""The tournament aggregate: its state, a fold of events, with the indexes the planner needs.

``TournamentState`` is the stored record (a msgspec Struct: the snapshot in Redis is this,
encoded). ``Tournament`` wraps it with indexes that are rebuilt on load and kept up to date by
``apply``, so that a bust-out at 10,000 players costs microseconds, not a scan of every table.

The state is mutable on purpose: copying a 10,000-player state per event would cost more than
the whole rule work. Commands are validated in full before their first event is applied (see
``decide``), so a refused command leaves the state untouched; a caller that must keep the old
version (to retry after a write conflict) reloads it or takes ``copy()``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, assert_never

import msgspec

from .alternates_fold import fold as alternates_fold
from .board import add as board_add
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
from .fair_fold import fold as fair_fold
from .fair_fold import seated as fair_seated
from .hand_for_hand_round import HandForHand
from .model import (
    DealtGame,
)
from .rules import Rules, Structure

if TYPE_CHECKING:
    from .plan import Plan


from .fold.bounty import BountyFolds
from .fold.chips import ChipFolds
from .fold.clock import ClockFolds
from .fold.finish import FinishFolds
from .fold.milestone import MilestoneFolds
from .fold.moves import MoveFolds
from .fold.players import PlayerFolds
from .fold.tables import TableFolds
from .records import (
    Assignment,
    BustRecord,
    Called,
    ClockState,
    FieldPoint,
    LevelPoint,
    Player,
    RaceRecord,
    Table,
    TimeCall,
    TournamentState,
    busted_since,
)

#: The records live in ``records``; every module imports them from here as before.
__all__ = [
    "Assignment",
    "BustRecord",
    "Called",
    "ClockState",
    "FieldPoint",
    "LevelPoint",
    "Player",
    "RaceRecord",
    "Table",
    "TimeCall",
    "Tournament",
    "TournamentState",
    "busted_since",
    "register_planner",
]


def _first_game(rules: Rules, structure: Structure | None) -> DealtGame:
    if rules.game != "mixed":
        return rules.game
    if structure is not None:
        from .rules import Level

        for step in structure.levels:
            if isinstance(step, Level) and step.game is not None:
                return step.game
    return "holdem"


def _no_planner(t: Tournament) -> Plan:
    raise RuntimeError("no planner registered: import floor.engine.planner")


#: Computes ``Tournament.plan``: the planner reads the state, so the state does not import it;
#: ``floor.engine.planner`` registers itself when imported (the package imports it).
_planner: Callable[[Tournament], Plan] = _no_planner


def register_planner(planner: Callable[[Tournament], Plan]) -> None:
    global _planner
    _planner = planner


class Tournament(
    PlayerFolds,
    TableFolds,
    MoveFolds,
    ClockFolds,
    ChipFolds,
    FinishFolds,
    BountyFolds,
    MilestoneFolds,
):
    """The state plus its indexes; ``apply`` is the only way it changes."""

    __slots__ = ()

    def __init__(self, state: TournamentState) -> None:
        self.state = state
        self._plan: Plan | None = None
        self._reindex()

    # Construction ----------------------------------------------------------------------------

    @classmethod
    def create(cls, event: TournamentCreated) -> Tournament:
        state = TournamentState(
            id=event.id,
            name=event.name,
            rules=event.rules,
            structure=event.structure,
            created_at=event.created_at,
            current_game=_first_game(event.rules, event.structure),
        )
        if event.structure is not None:
            # Before the start the clock shows the whole first level.
            state.clock.remaining = event.structure.levels[0].minutes * 60.0
        return cls(state)

    @classmethod
    def fold(cls, events: Iterable[Event]) -> Tournament:
        it = iter(events)
        first = next(it)
        if not isinstance(first, TournamentCreated):
            raise ValueError("an event log starts with tournament_created")
        t = cls.create(first)
        for e in it:
            t.apply(e)
        return t

    def copy(self) -> Tournament:
        return Tournament(
            msgspec.msgpack.decode(msgspec.msgpack.encode(self.state), type=TournamentState)
        )

    @property
    def plan(self) -> Plan:
        """The current plan, computed once per change."""
        if self._plan is None:
            self._plan = _planner(self)
        return self._plan

    # Applying events -------------------------------------------------------------------------

    def apply(self, event: Event) -> None:
        """Change the state by one event.

        One case per event: an event added to the union without one fails ``mypy --strict``
        at ``assert_never``. The most frequent events come first (the cases are tried in order).
        """
        self._bounty(event)
        match event:
            case PlayerBusted():
                self._player_busted(event)
            case PlayersMoved():
                self._players_moved(event)
            case HandStarted():
                self._hand_started(event)
            case ButtonReported():
                self._button_reported(event)
            case HandReported():
                assert self.state.hand_for_hand is not None
                self.state.hand_for_hand.reported(event)
            case HandForHandDealt():
                assert self.state.hand_for_hand is not None
                self.state.hand_for_hand.next_round(event.round)
            case HandForHandStarted():
                self.state.hand_for_hand = HandForHand(
                    started_at=event.at, paused_clock=event.paused_clock
                )
            case HandForHandEnded():
                self.state.hand_for_hand = None
            case SeatsAssigned():
                self._seats_assigned(event)
            case PlayerRegistered():
                self._player_registered(event)
            case PlayerRenamed():
                self._player_renamed(event)
            case SpecialNeedsSet():
                self.state.players[event.player].special_needs = event.special_needs
            case PlayerUnregistered():
                self._player_unregistered(event)
            case PlayerSeated():
                self._player_seated(event)
            case TableBreaking():
                self._table_breaking(event)
            case TableBroken():
                self._table_broken(event)
            case StackSet():
                self._stack_set(event)
            case StacksCounted():
                self._stacks_counted(event)
            case LevelChanged():
                self._level_changed(event)
            case TimeCalled():
                self._time_called(event)
            case TimeCallEnded():
                self._time_call_ended(event)
            case MoveCancelled():
                self._move_cancelled(event)
            case MovesCalled():
                self._moves_called(event)
            case CallsLapsed():
                self._calls_lapsed(event)
            case BustUndone():
                self._bust_undone(event)
            case RebuyMade():
                self._rebuy_made(event)
            case AddOnMade():
                self._add_on_made(event)
            case ChipsRaced():
                self._chips_raced(event)
            case SeatLockSet():
                self._seat_lock_set(event)
            case HaltWaived():
                self._halt_waived(event)
            case SeatsDrawn():
                self._seats_drawn(event)
            case TableOpened():
                self._table_opened(event)
            case TableSetUp():
                self._table_set_up(event)
            case FinalTableFormed():
                self._final_table_formed(event)
            case GameChanged():
                self._game_changed(event)
            case ClockStarted():
                self._clock_started(event)
            case ClockPaused():
                self._clock_paused(event)
            case ClockResumed():
                self._clock_resumed(event)
            case ClockAdjusted():
                self._clock_adjusted(event)
            case TournamentFinished():
                self._tournament_finished(event)
            case FlightSet():
                self.state.flight = event
            case TableBagged():
                self._table_bagged(event)
            case DayEnded():
                self._day_ended(event)
            case FieldCarried():
                self._field_carried(event)
            case TournamentClosed():
                self.state.closed_at = event.at
            case DealProposed():
                self.state.deal_offer = event
            case DealMade():
                self._deal_made(event)
            case (
                CapacitySet()
                | AlternateQueued()
                | AlternatesCalled()
                | AlternateSeated()
                | AlternatesLapsed()
                | AlternatesLeft()
            ):
                self.state.alternates = alternates_fold(self.state.alternates, event)
            case Announced():
                self.state.announcement = event
            case AnnouncementCleared():
                self.state.announcement = None
            case SatelliteEnded():
                self._satellite_ended(event)
            case SeatsIssued():
                self.state.seats_issued = event
            case DealUndone():
                self._deal_undone()
            case DrawsCommitted() | DrawMade() | WitnessSet():
                self.state.fair = fair_fold(self.state.fair, event)
            case PrizeChanged():
                self._prize_changed(event)
            case StructureChanged():
                self._structure_changed(event)
            case RulingRecorded():
                self.state.chips_added -= self.state.rulings.record(event)
            case SitOutEnded():
                self.state.rulings.end(event)
            case BountyPaid():
                pass  # the bounties only (``_bounty``)
            case SeatAwarded():
                self._seat_awarded(event)
            case TournamentCreated():
                raise ValueError("tournament_created starts a log: it is not applied to a state")
            case _:
                assert_never(event)
        if self.state.fair is not None:
            fair_seated(event, self.state.players)
        board_add(self.state.board, event, self.state.players)
        self._plan = None
