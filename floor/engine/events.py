"""Events: every change to a tournament, as a tagged union.

The state is a fold of these events (``Tournament.apply``), so replaying a log gives the same
state and the same plan. Events record outcomes, never intentions: a random draw is recorded
with the seats it drew, a new hand with the positions it dealt, a level change with the instant
it ends. Applying an event therefore needs no random source and no clock.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from .chiprace import ChipRaceResult
from .model import (
    DealtGame,
    MoveReason,
    PlayerId,
    Positions,
    SeatChange,
    SeatNo,
    Spot,
    TableNo,
)
from .rules import Rules, Structure


class _Event(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    pass


class Seated(msgspec.Struct, frozen=True):
    """One player at one seat: an entry of a recorded draw."""

    player: PlayerId
    table: TableNo
    seat: SeatNo


class Moved(msgspec.Struct, frozen=True):
    player: PlayerId
    from_: Spot = msgspec.field(name="from")
    to: Spot = msgspec.field(name="to")


# Set-up ------------------------------------------------------------------------------------


class TournamentCreated(_Event, frozen=True, tag="tournament_created"):
    id: str
    name: str
    rules: Rules
    structure: Structure | None = None
    created_at: float = 0.0


class TableOpened(_Event, frozen=True, tag="table_opened"):
    table: TableNo
    seats: int


class TableSetUp(_Event, frozen=True, tag="table_set_up"):
    """A table as it stands, for scenarios and imports: seats, last hand, opened seats."""

    table: TableNo
    seats: int
    occupants: dict[SeatNo, PlayerId]
    positions: Positions | None = None
    opened: tuple[SeatNo, ...] = ()


class PlayerRegistered(_Event, frozen=True, tag="player_registered"):
    """An entry: a new player, a re-entry of a busted one, or an alternate."""

    player: PlayerId
    name: str
    special_needs: bool = False
    stack: int | None = None
    entry: int = 1
    #: This entry moves every recorded place one down (a place is the players still in at
    #: the bust, and this one is in too). Said by the event, so that logs written before
    #: entries did so fold to the same state as when they were written.
    shifts_places: bool = False


class SeatsDrawn(_Event, frozen=True, tag="seats_drawn"):
    """The initial random draw (TDA 2024 rule 7), recorded so it can be shown and replayed."""

    seats: tuple[Seated, ...]
    at: float = 0.0


class PlayerSeated(_Event, frozen=True, tag="player_seated"):
    """A late registration, alternate or re-entry seated from the same seat pool (rule 8)."""

    player: PlayerId
    table: TableNo
    seat: SeatNo
    at: float = 0.0


# Play --------------------------------------------------------------------------------------


class PlayerBusted(_Event, frozen=True, tag="player_busted"):
    player: PlayerId
    table: TableNo
    seat: SeatNo
    #: The table's hand number when the player busted: the bust can be undone until the next.
    hand: int
    place: int
    at: float = 0.0
    #: Players sharing ``place`` (busted in the same hand with equal stacks): they cover the
    #: places ``place`` to ``place + shares - 1`` and share their prizes.
    shares: int = 1
    #: The stack the player started the hand with, when it decided the place (same hand).
    stack: int | None = None


class BustUndone(_Event, frozen=True, tag="bust_undone"):
    player: PlayerId
    table: TableNo
    seat: SeatNo
    reason: str
    at: float = 0.0


class HandStarted(_Event, frozen=True, tag="hand_started"):
    """The table deals its next hand; ``positions`` are the new ones (None at stud)."""

    table: TableNo
    hand: int
    positions: Positions | None
    level: int | None = None


class ButtonReported(_Event, frozen=True, tag="button_reported"):
    """The next hand's button is at ``seat``; ``positions`` is the last hand as recorded."""

    table: TableNo
    seat: SeatNo
    positions: Positions


class PlayersMoved(_Event, frozen=True, tag="players_moved"):
    """Players carried out their moves together (one, or a whole final table at once)."""

    moves: tuple[Moved, ...]
    reason: SeatChange
    at: float = 0.0


class MoveCancelled(_Event, frozen=True, tag="move_cancelled"):
    """The floor declined a planned move; balance: another player goes, draws: redrawn."""

    player: PlayerId | None
    table: TableNo
    reason: MoveReason


class SeatLockSet(_Event, frozen=True, tag="seat_lock_set"):
    player: PlayerId
    locked: bool


class HaltWaived(_Event, frozen=True, tag="halt_waived"):
    table: TableNo
    waived: bool


class GameChanged(_Event, frozen=True, tag="game_changed"):
    game: DealtGame


# Plan housekeeping: what the engine decides after a change ------------------------------------


class TableBreaking(_Event, frozen=True, tag="table_breaking"):
    table: TableNo
    #: "rule" when the counts call for it, "director" when broken on purpose.
    by: Literal["rule", "director"] = "rule"


class SeatsAssigned(_Event, frozen=True, tag="seats_assigned"):
    """Seats drawn for a break or for the final table (the TDA 2-step random draw)."""

    reason: Literal["break", "final"]
    seats: tuple[Seated, ...]
    #: Players whose earlier draw no longer fits and for whom no seat was left.
    withdrawn: tuple[PlayerId, ...] = ()


class TableBroken(_Event, frozen=True, tag="table_broken"):
    table: TableNo


class FinalTableFormed(_Event, frozen=True, tag="final_table_formed"):
    table: TableNo
    seats: int


# The clock ---------------------------------------------------------------------------------


class ClockStarted(_Event, frozen=True, tag="clock_started"):
    at: float
    level: int
    ends_at: float


class ClockPaused(_Event, frozen=True, tag="clock_paused"):
    at: float
    remaining: float


class ClockResumed(_Event, frozen=True, tag="clock_resumed"):
    at: float
    ends_at: float


class ClockAdjusted(_Event, frozen=True, tag="clock_adjusted"):
    """Time added (positive) or removed (negative) from the current level."""

    seconds: float
    ends_at: float | None
    remaining: float


class LevelChanged(_Event, frozen=True, tag="level_changed"):
    at: float
    level: int
    #: When the new level ends if the clock runs; None while paused.
    ends_at: float | None
    remaining: float
    by: Literal["clock", "director"] = "clock"


# Time calls (PFP 24) -----------------------------------------------------------------------


class TimeCalled(_Event, frozen=True, tag="time_called"):
    table: TableNo
    seat: SeatNo
    player: PlayerId | None
    at: float
    #: The end of the minute and of the ten-second count after it.
    ends_at: float
    count_from: float


class TimeCallEnded(_Event, frozen=True, tag="time_call_ended"):
    table: TableNo
    seat: SeatNo
    at: float
    outcome: Literal["acted", "dead", "cancelled"]


# Chips -------------------------------------------------------------------------------------


class StackSet(_Event, frozen=True, tag="stack_set"):
    player: PlayerId
    stack: int


class _Bought(_Event, frozen=True):
    """Chips bought by a player still in: added to their stack and to the chips in play."""

    player: PlayerId
    chips: int
    price: int
    #: The player's how-manieth purchase of this kind it is (1 for the first).
    count: int
    #: The stack after it (None when the stack is not tracked).
    stack: int | None
    at: float = 0.0


class RebuyMade(_Bought, frozen=True, tag="rebuy_made"):
    """A rebuy, declared before the deal (PFP 23)."""


class AddOnMade(_Bought, frozen=True, tag="add_on_made"):
    """The add-on, at the end of the rebuy period."""


class RacedPlayer(msgspec.Struct, frozen=True):
    """Who sat in a seat of a chip race, and their stack before it."""

    seat: SeatNo
    player: PlayerId
    stack: int


class ChipsRaced(_Event, frozen=True, tag="chips_raced"):
    """The colour-up at one table: the exchange and the race as dealt, the cards included.

    Each player's stack becomes ``result.seats[i].stack``; ``change`` is the chips in play
    after minus before (the race's rounding, and a chip for anybody kept in).
    """

    table: TableNo
    players: tuple[RacedPlayer, ...]
    result: ChipRaceResult
    change: int
    at: float = 0.0


Event = (
    TournamentCreated
    | TableOpened
    | TableSetUp
    | PlayerRegistered
    | SeatsDrawn
    | PlayerSeated
    | PlayerBusted
    | BustUndone
    | HandStarted
    | ButtonReported
    | PlayersMoved
    | MoveCancelled
    | SeatLockSet
    | HaltWaived
    | GameChanged
    | TableBreaking
    | SeatsAssigned
    | TableBroken
    | FinalTableFormed
    | ClockStarted
    | ClockPaused
    | ClockResumed
    | ClockAdjusted
    | LevelChanged
    | TimeCalled
    | TimeCallEnded
    | StackSet
    | RebuyMade
    | AddOnMade
    | ChipsRaced
)
