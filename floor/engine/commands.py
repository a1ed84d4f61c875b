"""Commands: what floor staff, the director and the clock ask of a tournament.

A tagged union decoded by msgspec at the edges (HTTP bodies, websocket messages, scenario
events); ``decide`` turns one into events or refuses it with the reason.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from .model import MAX_CHIPS, DealtGame, MoveReason

Name = Annotated[str, Meta(min_length=1, max_length=80)]
Reason = Annotated[str, Meta(min_length=1, max_length=500)]
Table_ = Annotated[int, Meta(ge=1, le=100_000)]
Seat_ = Annotated[int, Meta(ge=1, le=12)]
PlayerRef = Annotated[str, Meta(min_length=1, max_length=64)]


class _Command(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag_field="type"
):
    pass


class Register(_Command, frozen=True, tag="register"):
    """An entry: before the draw it waits for a seat, after it is seated at once."""

    name: Name
    player: PlayerRef | None = None
    special_needs: bool = False


class DrawSeats(_Command, frozen=True, tag="draw_seats"):
    """The initial draw of everybody registered; ``tables`` names the tables to use."""

    tables: tuple[Table_, ...] | None = None


class OpenTable(_Command, frozen=True, tag="open_table"):
    table: Table_ | None = None
    #: A table seats two at least: heads-up is the smallest game.
    seats: Annotated[int, Meta(ge=2, le=12)] | None = None


class Bust(_Command, frozen=True, tag="bust"):
    """A player is out: named, or by table and seat (as a dealer sees it)."""

    player: PlayerRef | None = None
    table: Table_ | None = None
    seat: Seat_ | None = None


class Busted(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One of several players out in the same hand, with the chips they started it with."""

    player: PlayerRef
    #: The stack at the start of the hand; None: the stack the floor last recorded.
    stack: Annotated[int, Meta(ge=0)] | None = None


class BustSameHand(_Command, frozen=True, tag="bust_same_hand"):
    """Several players out in the same hand (or the same hand-for-hand hand at several
    tables): the bigger starting stack places higher, equal stacks share the place."""

    players: Annotated[tuple[Busted, ...], Meta(min_length=2, max_length=100)]


class UndoBust(_Command, frozen=True, tag="undo_bust"):
    player: PlayerRef
    reason: Reason


class Hand(_Command, frozen=True, tag="hand"):
    """The table deals its next hand: positions advance, the right to dispute ends."""

    table: Table_


class Button(_Command, frozen=True, tag="button"):
    """The floor reports the next hand's button (high-card draw, or unknown positions)."""

    table: Table_
    seat: Seat_


class Confirm(_Command, frozen=True, tag="confirm"):
    """Carry out a planned move; ``seat`` redirects it to another free seat at that table.

    For a move that names no player (positions unknown), ``player`` is who the floor sends.
    """

    player: PlayerRef
    seat: Seat_ | None = None


class ConfirmAll(_Command, frozen=True, tag="confirm_all"):
    """Every planned move with this reason at once: the players stand up together."""

    reason: MoveReason


class Cancel(_Command, frozen=True, tag="cancel"):
    """The floor declines a planned move: another player is planned, or the seat redrawn."""

    player: PlayerRef


class WaiveHalt(_Command, frozen=True, tag="waive_halt"):
    table: Table_
    waived: bool = True


class BreakTable(_Command, frozen=True, tag="break_table"):
    """The director breaks a table now."""

    table: Table_


class StartFinal(_Command, frozen=True, tag="start_final"):
    """The director forms the final table now."""


class LockSeat(_Command, frozen=True, tag="lock_seat"):
    player: PlayerRef
    locked: bool = True


class CorrectSeat(_Command, frozen=True, tag="correct_seat"):
    """A player found in the wrong seat moves to the right one with their stack (rule 5)."""

    player: PlayerRef
    table: Table_
    seat: Seat_


class SetGame(_Command, frozen=True, tag="set_game"):
    game: DealtGame


class SetStack(_Command, frozen=True, tag="set_stack"):
    player: PlayerRef
    # No more than a stack may hold: an export of a larger one would not import again.
    stack: Annotated[int, Meta(ge=0, le=MAX_CHIPS)]


class Rebuy(_Command, frozen=True, tag="rebuy"):
    """A player still in buys the rebuy chips; declared before the deal (PFP 23)."""

    player: PlayerRef


class AddOn(_Command, frozen=True, tag="add_on"):
    """A player still in takes the add-on chips at the end of the rebuy period."""

    player: PlayerRef


class RaceCount(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One seat at a colour-up: the chips of the leaving denomination the floor counted."""

    seat: Seat_
    chips: Annotated[int, Meta(ge=0, le=10_000)]
    #: The value of the whole stack before the colour-up; None: the stack on record.
    stack: Annotated[int, Meta(gt=0)] | None = None


class ChipRace(_Command, frozen=True, tag="chip_race"):
    """The colour-up at one table: exchange the leaving chips, race the odd ones (PFP 20).

    ``leaving`` is the denomination going out; None takes it from the colour-up break the
    clock is at. Seats not listed hold none of it.
    """

    table: Table_
    seats: Annotated[tuple[RaceCount, ...], Meta(max_length=12)]
    leaving: Annotated[int, Meta(gt=0)] | None = None


class ClockStart(_Command, frozen=True, tag="clock_start"):
    pass


class ClockPause(_Command, frozen=True, tag="clock_pause"):
    pass


class ClockResume(_Command, frozen=True, tag="clock_resume"):
    pass


class ClockAdjust(_Command, frozen=True, tag="clock_adjust"):
    """Add (positive) or remove (negative) time from the current level."""

    seconds: Annotated[float, Meta(ge=-36_000, le=36_000)]


class ClockLevel(_Command, frozen=True, tag="clock_level"):
    """Go to the next (+1) or previous (-1) level, or to step ``to``."""

    step: Literal[-1, 1] | None = None
    to: Annotated[int, Meta(ge=0)] | None = None


class Tick(_Command, frozen=True, tag="tick"):
    """The clock driver: write what is due now (level changes, expired time calls)."""


class CallTime(_Command, frozen=True, tag="call_time"):
    """Time is called on a seat: up to a minute, then a ten-second count (PFP 24).

    ``seconds`` and ``count`` default to the rules' ``time_call_seconds`` and
    ``time_call_count``; the floor may give less (or more) time.
    """

    table: Table_
    seat: Seat_
    seconds: Annotated[int, Meta(ge=5, le=600)] | None = None
    count: Annotated[int, Meta(ge=0, le=60)] | None = None


class EndTimeCall(_Command, frozen=True, tag="end_time_call"):
    table: Table_
    seat: Seat_
    outcome: Literal["acted", "dead", "cancelled"] = "acted"


Command = (
    Register
    | DrawSeats
    | OpenTable
    | Bust
    | BustSameHand
    | UndoBust
    | Hand
    | Button
    | Confirm
    | ConfirmAll
    | Cancel
    | WaiveHalt
    | BreakTable
    | StartFinal
    | LockSeat
    | CorrectSeat
    | SetGame
    | SetStack
    | Rebuy
    | AddOn
    | ChipRace
    | ClockStart
    | ClockPause
    | ClockResume
    | ClockAdjust
    | ClockLevel
    | Tick
    | CallTime
    | EndTimeCall
)
