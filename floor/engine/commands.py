"""Commands: what floor staff, the director and the clock ask of a tournament.

A tagged union decoded by msgspec at the edges (HTTP bodies, websocket messages, scenario
events); ``decide`` turns one into events or refuses it with the reason.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

import msgspec
from msgspec import Meta

from .alternates_model import Capacity
from .flights import FlightRules
from .model import MAX_CHIPS, DealtGame, MoveReason
from .prize import Prize
from .rules import Structure

Name = Annotated[str, Meta(min_length=1, max_length=80)]
Reason = Annotated[str, Meta(min_length=1, max_length=500)]
Table_ = Annotated[int, Meta(ge=1, le=100_000)]
Seat_ = Annotated[int, Meta(ge=1, le=12)]
PlayerRef = Annotated[str, Meta(min_length=1, max_length=64)]
#: The staff account that sent a command, as the server's session names it: the server
#: sets it (a value sent with the command is replaced), the engine records it.
StaffName = Annotated[str, Meta(min_length=1, max_length=64)]
#: Where a player comes from, as the results databases list it ("CZ", "Czech Republic").
Country = Annotated[str, Meta(max_length=56)]
#: The staff's note on an entry ("pays at the cage"): never shown to the room.
Note = Annotated[str, Meta(max_length=200)]
#: The language a player reads and hears (issue 29.3): a screens' language code ("de",
#: "pt-br"), from the desk, an import's column or the player's phone.
Language = Annotated[str, Meta(pattern=r"^[a-z]{2,3}(-[a-z]{2})?$", max_length=6)]


#: Who may send a command, from the fewest rights up: a table screen (at its own table, with
#: or without a dealer signed in on it; the floor and the director too), the floor (and the
#: director), the director alone, or nobody (the server's own commands).
Sender = Literal["dealer", "floor", "director", "server"]


class _Command(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag_field="type"
):
    #: The least role that may send the command (``floor.server.permissions``), declared by
    #: each command itself, with no default here: nobody gets a command by default. A class
    #: variable: msgspec neither encodes nor decodes it (a command sent with one is refused
    #: as an unknown field).
    may_send: ClassVar[Sender]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # mypy cannot hold a subclass to set a class variable: the import does.
        if "may_send" not in vars(cls):
            raise TypeError(f"command {cls.__name__} declares no may_send: who may send it?")


class Register(_Command, frozen=True, tag="register"):
    """An entry: before the draw it waits for a seat, after it is seated at once."""

    may_send = "floor"
    name: Name
    player: PlayerRef | None = None
    special_needs: bool = False
    country: Country | None = None
    note: Note | None = None
    #: A ticket paying for the entry instead of the buy-in (reserved in the house's ledger).
    ticket: Annotated[str, Meta(min_length=1, max_length=80)] | None = None
    lang: Language | None = None


class NewEntry(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One entry of a list registered at once: what ``Register`` takes."""

    name: Name
    player: PlayerRef | None = None
    special_needs: bool = False
    country: Country | None = None
    note: Note | None = None
    lang: Language | None = None


class RegisterMany(_Command, frozen=True, tag="register_many"):
    """A list of entries (an imported spreadsheet) registered in order as one batch, each as
    ``register`` would; one refused entry refuses the list, naming its row
    (``floor.engine.entry_list``)."""

    may_send = "floor"
    entries: Annotated[tuple[NewEntry, ...], Meta(min_length=1, max_length=1000)]


class SetPrize(_Command, frozen=True, tag="set_prize"):
    """The director sets the money: buy-in, fee, guarantee, payouts, rebuys, add-ons and
    re-entries (None: no money tracked). What was sold keeps its price
    (``floor.engine.amendments``)."""

    may_send = "director"
    prize: Prize | None


class SetStructure(_Command, frozen=True, tag="set_structure"):
    """The director sets the blind structure: levels, antes, breaks and colour-ups. The
    steps played and the one in play stay as they are (``floor.engine.amendments``)."""

    may_send = "director"
    structure: Structure


class DrawSeats(_Command, frozen=True, tag="draw_seats"):
    """The initial draw of everybody registered; ``tables`` names the tables to use."""

    may_send = "director"
    tables: tuple[Table_, ...] | None = None


class OpenTable(_Command, frozen=True, tag="open_table"):
    may_send = "director"
    table: Table_ | None = None
    #: A table seats two at least: heads-up is the smallest game.
    seats: Annotated[int, Meta(ge=2, le=12)] | None = None


class Bust(_Command, frozen=True, tag="bust"):
    """A player is out: named, or by table and seat (as a dealer sees it)."""

    may_send = "dealer"
    player: PlayerRef | None = None
    table: Table_ | None = None
    seat: Seat_ | None = None
    #: Who reported it (set by the server): a second phone is told who was first.
    by: StaffName | None = None
    #: Who won the pot the player was all-in for (several: a split pot): they win the bounty.
    eliminators: Annotated[tuple[PlayerRef, ...], Meta(max_length=11)] = ()


class Busted(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One of several players out in the same hand, with the chips they started it with."""

    player: PlayerRef
    #: The stack at the start of the hand; None: the stack the floor last recorded.
    stack: Annotated[int, Meta(ge=0)] | None = None
    #: Who won the pot this player was all-in for: they win this player's bounty.
    eliminators: Annotated[tuple[PlayerRef, ...], Meta(max_length=11)] = ()


class BustSameHand(_Command, frozen=True, tag="bust_same_hand"):
    """Several players out in the same hand (or the same hand-for-hand hand at several
    tables): the bigger starting stack places higher, equal stacks share the place."""

    may_send = "dealer"
    players: Annotated[tuple[Busted, ...], Meta(min_length=2, max_length=100)]
    #: Who reported it (set by the server).
    by: StaffName | None = None


class UndoBust(_Command, frozen=True, tag="undo_bust"):
    may_send = "floor"
    player: PlayerRef
    reason: Reason


class Hand(_Command, frozen=True, tag="hand"):
    """The table deals its next hand: positions advance, the right to dispute ends."""

    may_send = "dealer"
    table: Table_


class SeatOut(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A seat whose player is out in the hand reported, with the chips they started it with."""

    seat: Seat_
    #: The stack at the start of the hand; None: the stack the floor last counted.
    stack: Annotated[int, Meta(ge=0, le=MAX_CHIPS)] | None = None
    #: The seats at the table that won the pot this player was all-in for (a bounty
    #: tournament: they win the bounty).
    winners: Annotated[tuple[Seat_, ...], Meta(max_length=11)] = ()


class HandDone(_Command, frozen=True, tag="hand_done"):
    """Hand-for-hand: the table has played the round's hand, putting ``out`` out."""

    may_send = "dealer"
    table: Table_
    out: Annotated[tuple[SeatOut, ...], Meta(max_length=11)] = ()


class StartHandForHand(_Command, frozen=True, tag="start_hand_for_hand"):
    """The director starts hand-for-hand: every table deals one hand, then waits."""

    may_send = "director"


class EndHandForHand(_Command, frozen=True, tag="end_hand_for_hand"):
    """The director ends hand-for-hand before the bubble bursts."""

    may_send = "director"


class Button(_Command, frozen=True, tag="button"):
    """The floor reports the next hand's button (high-card draw, or unknown positions)."""

    may_send = "dealer"
    table: Table_
    seat: Seat_


class Confirm(_Command, frozen=True, tag="confirm"):
    """Carry out a planned move; ``seat`` redirects it to another free seat at that table.

    For a move that names no player (positions unknown), ``player`` is who the floor sends.
    """

    may_send = "floor"
    player: PlayerRef
    seat: Seat_ | None = None


class ConfirmAll(_Command, frozen=True, tag="confirm_all"):
    """Every planned move with this reason at once: the players stand up together."""

    may_send = "floor"
    reason: MoveReason


class Cancel(_Command, frozen=True, tag="cancel"):
    """The floor declines a planned move: another player is planned, or the seat redrawn."""

    may_send = "floor"
    player: PlayerRef


class CallMove(_Command, frozen=True, tag="call_move"):
    """The floor calls (announces) a planned move: the room is shown it from now on, and its
    destination stays as called. ``seat`` calls it to another free seat at that table; a
    move already called is called again that way, a change every screen shows.

    For a move that names no player (positions unknown), ``player`` is who the floor sends.
    """

    may_send = "floor"
    player: PlayerRef
    seat: Seat_ | None = None


class CallAll(_Command, frozen=True, tag="call_all"):
    """Call every planned move with this reason not called yet (a table break at once)."""

    may_send = "floor"
    reason: MoveReason


class WaiveHalt(_Command, frozen=True, tag="waive_halt"):
    may_send = "director"
    table: Table_
    waived: bool = True


class BreakTable(_Command, frozen=True, tag="break_table"):
    """The director breaks a table now."""

    may_send = "director"
    table: Table_


class StartFinal(_Command, frozen=True, tag="start_final"):
    """The director forms the final table now."""

    may_send = "director"


class LockSeat(_Command, frozen=True, tag="lock_seat"):
    may_send = "floor"
    player: PlayerRef
    locked: bool = True


class CorrectSeat(_Command, frozen=True, tag="correct_seat"):
    """A player found in the wrong seat moves to the right one with their stack (rule 5)."""

    may_send = "floor"
    player: PlayerRef
    table: Table_
    seat: Seat_


class RenamePlayer(_Command, frozen=True, tag="rename_player"):
    """Correct the name a player was registered under."""

    may_send = "floor"
    player: PlayerRef
    name: Name


class SetSpecialNeeds(_Command, frozen=True, tag="set_special_needs"):
    """Mark a player still in as needing a special-needs seat, or no longer."""

    may_send = "floor"
    player: PlayerRef
    special_needs: bool = True


class Unregister(_Command, frozen=True, tag="unregister"):
    """Withdraw a player's entry and refund it: before the draw, or while late registration
    is open (``floor.engine.players``)."""

    may_send = "floor"
    player: PlayerRef


class SetGame(_Command, frozen=True, tag="set_game"):
    may_send = "director"
    game: DealtGame


class SetStack(_Command, frozen=True, tag="set_stack"):
    may_send = "floor"
    player: PlayerRef
    # No more than a stack may hold: an export of a larger one would not import again.
    stack: Annotated[int, Meta(ge=0, le=MAX_CHIPS)]


class Count(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One stack of a count sheet: the player, named so a late resend counts nobody else."""

    player: PlayerRef
    stack: Annotated[int, Meta(ge=0, le=MAX_CHIPS)]


class CountTable(_Command, frozen=True, tag="count_table"):
    """The floor counted stacks at one table (a whole sheet, or one seat): seats not listed
    are not counted. ``at`` is when they were counted (the server's time as the phone knows
    it; None: now), so a count sent late stands at the time it was taken."""

    may_send = "floor"
    table: Table_
    stacks: Annotated[tuple[Count, ...], Meta(min_length=1, max_length=12)]
    # Bounded (year 2286): an infinite or far-off time is refused as the body's, not later.
    at: Annotated[float, Meta(ge=0, le=10_000_000_000)] | None = None


class Rebuy(_Command, frozen=True, tag="rebuy"):
    """A player still in buys the rebuy chips; declared before the deal (PFP 23)."""

    may_send = "floor"
    player: PlayerRef


class AddOn(_Command, frozen=True, tag="add_on"):
    """A player still in takes the add-on chips at the end of the rebuy period."""

    may_send = "floor"
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

    may_send = "floor"
    table: Table_
    seats: Annotated[tuple[RaceCount, ...], Meta(max_length=12)]
    leaving: Annotated[int, Meta(gt=0)] | None = None


class ClockStart(_Command, frozen=True, tag="clock_start"):
    may_send = "director"


class ClockPause(_Command, frozen=True, tag="clock_pause"):
    may_send = "director"


class ClockResume(_Command, frozen=True, tag="clock_resume"):
    may_send = "director"


class ClockAdjust(_Command, frozen=True, tag="clock_adjust"):
    """Add (positive) or remove (negative) time from the current level."""

    may_send = "director"
    seconds: Annotated[float, Meta(ge=-36_000, le=36_000)]


class ClockLevel(_Command, frozen=True, tag="clock_level"):
    """Go to the next (+1) or previous (-1) level, or to step ``to``."""

    may_send = "director"
    step: Literal[-1, 1] | None = None
    to: Annotated[int, Meta(ge=0)] | None = None


class Tick(_Command, frozen=True, tag="tick"):
    """The clock driver: write what is due now (level changes, expired time calls)."""

    may_send = "server"


class CallTime(_Command, frozen=True, tag="call_time"):
    """Time is called on a seat: up to a minute, then a ten-second count (PFP 24).

    ``seconds`` and ``count`` default to the rules' ``time_call_seconds`` and
    ``time_call_count``; the floor may give less (or more) time.
    """

    may_send = "floor"
    table: Table_
    seat: Seat_
    seconds: Annotated[int, Meta(ge=5, le=600)] | None = None
    count: Annotated[int, Meta(ge=0, le=60)] | None = None


class EndTimeCall(_Command, frozen=True, tag="end_time_call"):
    may_send = "floor"
    table: Table_
    seat: Seat_
    outcome: Literal["acted", "dead", "cancelled"] = "acted"


class SetFlight(_Command, frozen=True, tag="set_flight"):
    """The director makes the tournament a flight of ``event`` (``order`` 1 for Day 1A),
    under the event's rules: which bag goes forward, when the day ends."""

    may_send = "director"
    event: Annotated[str, Meta(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]
    order: Annotated[int, Meta(ge=1, le=100)]
    rules: FlightRules = msgspec.field(default_factory=FlightRules)


class Bag(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One survivor's bag on a table's sheet; the bag's number is optional."""

    player: PlayerRef
    stack: Annotated[int, Meta(ge=0, le=MAX_CHIPS)]
    bag: Annotated[str, Meta(min_length=1, max_length=20)] | None = None


class BagTable(_Command, frozen=True, tag="bag_table"):
    """The bag sheet of one table at the end of the day: every survivor there, once. Sent
    again it corrects the table's sheet, and says why."""

    may_send = "floor"
    table: Table_
    bags: Annotated[tuple[Bag, ...], Meta(max_length=12)]
    chips_on_table: Annotated[int, Meta(ge=0, le=MAX_CHIPS)] | None = None
    reason: Reason | None = None


class EndDay(_Command, frozen=True, tag="end_day"):
    """The director ends the day (the clock stops): refused while the flight's day is not
    over by its rules, unless ``now`` (a one-flight day stopped at the director's word)."""

    may_send = "director"
    now: bool = False


class CloseTournament(_Command, frozen=True, tag="close_tournament"):
    """The director closes a finished tournament: the last bust-out can no longer be undone
    and every later command is refused; the screens, the reads and the exports stay."""

    may_send = "director"


class Penalty(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A penalty a ruling gives one player (TDA 2024 rule 71, PFP 50): a warning, a sit-out
    of ``hands`` (missed hands), ``rounds`` (missed rounds) or ``minutes`` (one of them), or
    disqualification, which takes the player's chips out of the tournament: ``chips`` as
    counted when they were taken (None: the stack on record)."""

    player: PlayerRef
    kind: Literal["warning", "sit_out", "disqualification"]
    hands: Annotated[int, Meta(ge=1, le=100)] | None = None
    rounds: Annotated[int, Meta(ge=1, le=10)] | None = None
    minutes: Annotated[int, Meta(ge=1, le=600)] | None = None
    chips: Annotated[int, Meta(ge=0, le=MAX_CHIPS)] | None = None


class RecordRuling(_Command, frozen=True, tag="record_ruling"):
    """A floor ruling at a table: the players it names, the rule it applies (a rule id of the
    tournament's rulebook), a short note, and the penalties it gives (``rulings``). ``at``
    is when it was made (the server's time as the phone knows it; None: now): a sit-out of
    minutes runs from then."""

    may_send = "floor"
    table: Table_ | None = None
    players: Annotated[tuple[PlayerRef, ...], Meta(max_length=10)] = ()
    rule: Annotated[str, Meta(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$", max_length=40)] | None = None
    note: Annotated[str, Meta(max_length=500)] = ""
    penalties: Annotated[tuple[Penalty, ...], Meta(max_length=10)] = ()
    at: Annotated[float, Meta(ge=0)] | None = None


class EndSitOut(_Command, frozen=True, tag="end_sit_out"):
    """The floor lets a player sitting out back in before the sit-out is over."""

    may_send = "floor"
    player: PlayerRef


class DealAmount(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One player's amount in a deal the director adjusted."""

    player: PlayerRef
    amount: Annotated[int, Meta(ge=0, le=MAX_CHIPS)]


class ProposeDeal(_Command, frozen=True, tag="propose_deal"):
    """The director offers a deal at the final table: ICM or chip-chop shares the engine works
    out from the counted stacks, or ``custom`` amounts (``shares``, one per player left) that
    add up to the prizes still to be paid less ``left_to_play``, kept for the play after."""

    may_send = "director"
    method: Literal["icm", "chip_chop", "custom"]
    left_to_play: Annotated[int, Meta(ge=0, le=MAX_CHIPS)] = 0
    shares: Annotated[tuple[DealAmount, ...], Meta(max_length=12)] = ()
    #: A knockout's or a progressive knockout's bounties on the heads of the players in the
    #: deal: ``in`` adds them to what is shared out, ``out`` leaves them to be won by play.
    bounties: Literal["in", "out"] = "out"


class MakeDeal(_Command, frozen=True, tag="make_deal"):
    """The offer standing is made, with every player in it agreeing (``agreed``): the
    tournament ends by it, or plays on when something was left to play for."""

    may_send = "director"
    agreed: Annotated[tuple[PlayerRef, ...], Meta(max_length=12)]


class PayBounty(_Command, frozen=True, tag="pay_bounty"):
    """The cashier pays a player the bounties they have won and not yet been paid."""

    may_send = "floor"
    player: PlayerRef
    #: Who paid (set by the server).
    by: StaffName | None = None


# A flight's capacity and its alternates (``alternates``) -------------------------------------

#: An alternate's id in the line (``A12``).
AlternateRef = Annotated[str, Meta(min_length=1, max_length=16)]


class SetCapacity(_Command, frozen=True, tag="set_capacity"):
    """The flight's capacity and how its alternates are called (None: no limit)."""

    may_send = "director"
    capacity: Capacity | None = None


class QueueAlternate(_Command, frozen=True, tag="queue_alternate"):
    """Put a person in the alternates' line (a registration while the flight is full does
    this by itself): ``player`` for a busted player's re-entry."""

    may_send = "floor"
    name: Name
    player: PlayerRef | None = None


class JoinAlternates(_Command, frozen=True, tag="join_alternates"):
    """A person joins the line from the code on the wall: the server sends it for the public
    route, which limits it per address (``floor.server.routes_alternates``)."""

    may_send = "server"
    name: Name


class SeatAlternate(_Command, frozen=True, tag="seat_alternate"):
    """A called alternate came in time: registered and seated (drawn) at once."""

    may_send = "floor"
    alternate: AlternateRef


class DropAlternate(_Command, frozen=True, tag="drop_alternate"):
    """Take a person off the line (they leave; the buy-in is refunded)."""

    may_send = "floor"
    alternate: AlternateRef


# The director's announcements to the room (``announce``) ----------------------------------

#: What the director types for the room: a line or a screen, never longer than a wall shows.
AnnouncementText = Annotated[str, Meta(min_length=1, max_length=280)]


class Announce(_Command, frozen=True, tag="announce"):
    """The director's message to the room: a line across the wall and the player screens, or
    (``full``) the whole wall, until it is cleared or replaced."""

    may_send = "director"
    text: AnnouncementText
    full: bool = False


class ClearAnnouncement(_Command, frozen=True, tag="clear_announcement"):
    """The director's message comes off every screen."""

    may_send = "director"


class IssueSeats(_Command, frozen=True, tag="issue_seats"):
    """A satellite that has ended enters its seat winners' tickets in the house's ledger."""

    may_send = "director"


class UndoDeal(_Command, frozen=True, tag="undo_deal"):
    """The deal made is taken back (``deal_undo``), with why."""

    may_send = "director"
    reason: Reason


class SetWitness(_Command, frozen=True, tag="set_witness"):
    """The number a witness announces in the room before a draw: mixed into every draw from
    now on, so that the operator, who knows the seeds, cannot choose a draw's outcome."""

    may_send = "director"
    value: Annotated[str, Meta(min_length=1, max_length=64)]


class AwardSeat(_Command, frozen=True, tag="award_seat"):
    """A milestone satellite's seat to a seated player whose counted stack reached the
    milestone (``milestone``): they leave with their chips out of play."""

    may_send = "floor"
    player: PlayerRef
    #: Who awarded it (set by the server).
    by: StaffName | None = None


Command = (
    Register
    | RegisterMany
    | SetPrize
    | SetStructure
    | DrawSeats
    | OpenTable
    | Bust
    | BustSameHand
    | UndoBust
    | Hand
    | HandDone
    | StartHandForHand
    | EndHandForHand
    | Button
    | Confirm
    | ConfirmAll
    | Cancel
    | CallMove
    | CallAll
    | WaiveHalt
    | BreakTable
    | StartFinal
    | LockSeat
    | CorrectSeat
    | RenamePlayer
    | SetSpecialNeeds
    | Unregister
    | SetGame
    | SetStack
    | CountTable
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
    | CloseTournament
    | RecordRuling
    | EndSitOut
    | SetFlight
    | BagTable
    | EndDay
    | ProposeDeal
    | MakeDeal
    | PayBounty
    | SetCapacity
    | QueueAlternate
    | JoinAlternates
    | SeatAlternate
    | DropAlternate
    | Announce
    | ClearAnnouncement
    | IssueSeats
    | UndoDeal
    | SetWitness
    | AwardSeat
)
