"""Events: every change to a tournament, as a tagged union.

The state is a fold of these events (``Tournament.apply``), so replaying a log gives the same
state and the same plan. Events record outcomes, never intentions: a random draw is recorded
with the seats it drew, a new hand with the positions it dealt, a level change with the instant
it ends. Applying an event therefore needs no random source and no clock.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from .alternates_model import Capacity
from .bounty_rules import BountyShare
from .calc.chiprace import ChipRaceResult
from .flights import CheckFailed, DayOver, FlightRules
from .model import (
    STAFF,
    DealtGame,
    MoveReason,
    PlayerId,
    Positions,
    SeatChange,
    SeatNo,
    Spot,
    TableNo,
)
from .plan import Place
from .prize import Prize
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
    special_needs: Annotated[bool, STAFF] = False
    stack: int | None = None
    entry: int = 1
    #: This entry moves every recorded place one down (a place is the players still in at
    #: the bust, and this one is in too). Said by the event, so that logs written before
    #: entries did so fold to the same state as when they were written.
    shifts_places: bool = False
    #: Where the player comes from, and the staff's note (never shown to the room).
    country: str | None = None
    note: Annotated[str | None, STAFF] = None
    #: The ticket this entry was paid with instead of a buy-in (``house.tickets``).
    ticket: Annotated[str | None, STAFF] = None
    #: The language the player reads and hears (``commands.Language``); None: the venue's.
    lang: str | None = None


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


# A player after registration (``players``) ---------------------------------------------------


class PlayerRenamed(_Event, frozen=True, tag="player_renamed"):
    """The name a player was registered under, corrected."""

    player: PlayerId
    name: str
    #: The name before, so that the log says what was corrected.
    was: str


class SpecialNeedsSet(_Event, frozen=True, tag="special_needs_set"):
    """A player marked (or no longer marked) as needing a special-needs seat."""

    player: PlayerId
    special_needs: Annotated[bool, STAFF]


class PlayerUnregistered(_Event, frozen=True, tag="player_unregistered"):
    """An entry withdrawn and refunded: the player leaves the field as if never entered."""

    player: PlayerId
    #: The name, kept here: the player is no longer in the state to say it.
    name: str
    #: Where the player sat; None before the draw.
    table: TableNo | None = None
    seat: SeatNo | None = None
    #: What was paid back (the entry, rebuys and add-ons with their fees); None without
    #: prize settings.
    refund: int | None = None
    #: The rebuys and add-ons refunded with the entry: no longer in the prize pool.
    rebuys: int = 0
    add_ons: int = 0
    #: The change to the chips in play beyond the entries' starting stacks: one entry's
    #: stack fewer is counted, and the player's own chips leave with them.
    change: int = 0
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
    #: The staff account that reported the bust-out (None: not known, or the clock's rules).
    by: str | None = None
    #: Who won the pot the player was all-in for (empty: not named, or a disqualification).
    eliminators: tuple[PlayerId, ...] = ()
    #: The bounty taken off the player, and what each eliminator got of it (``bounty``):
    #: worked out when the bust-out was recorded, so that replay never works it out again.
    bounty: int = 0
    bounty_to: tuple[BountyShare, ...] = ()
    #: A mystery bounty: the envelope drawn for this bust-out (0: none drawn), recorded so that
    #: replay never draws again (``mystery``).
    envelope: int = 0


class BustUndone(_Event, frozen=True, tag="bust_undone"):
    player: PlayerId
    table: TableNo
    seat: SeatNo
    reason: str
    at: float = 0.0
    #: The players the bounty goes back from: its winners, and the tournament's winner
    #: whose own bounty goes back on their head (``bounty``).
    bounty_from: tuple[PlayerId, ...] = ()


class HandStarted(_Event, frozen=True, tag="hand_started"):
    """The table deals its next hand; ``positions`` are the new ones (None at stud)."""

    table: TableNo
    hand: int
    positions: Positions | None
    level: int | None = None
    #: When the hand was reported (None in logs written before): a count taken before it is
    #: not the stack a deal is made on (``deal``).
    at: float | None = None


class HandOut(msgspec.Struct, frozen=True, kw_only=True):
    """A player out in a hand-for-hand hand, placed when every table has played it."""

    table: TableNo
    seat: SeatNo
    player: PlayerId
    #: The chips the player started the hand with: the bigger stack places higher.
    stack: int
    #: Who won the pot the player was all-in for (``bounty``).
    eliminators: tuple[PlayerId, ...] = ()


class HandForHandStarted(_Event, frozen=True, tag="hand_for_hand_started"):
    """The director starts hand-for-hand: every open table deals one hand at a time."""

    at: float = 0.0
    #: The clock ran and was stopped for it: hand-for-hand's end starts it again.
    paused_clock: bool = False


class HandReported(_Event, frozen=True, tag="hand_reported"):
    """A table has played the round's hand-for-hand hand, with the players it put out."""

    table: TableNo
    round: int
    out: tuple[HandOut, ...] = ()


class HandForHandDealt(_Event, frozen=True, tag="hand_for_hand_dealt"):
    """Every table has reported: the next hand-for-hand hand (``round``) is dealt."""

    round: int


class HandForHandEnded(_Event, frozen=True, tag="hand_for_hand_ended"):
    """Hand-for-hand is over: the bubble burst, or the director ended it."""

    by: Literal["bubble", "director"]
    at: float = 0.0


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


class MoveCall(msgspec.Struct, frozen=True, kw_only=True):
    """One planned move as the floor announced it to the room."""

    player: PlayerId
    from_: Spot = msgspec.field(name="from")
    #: The table and seat called; a seat of None: the floor shows the seat on arrival.
    to: Place
    reason: MoveReason
    #: 1 for the first call; 2 and up: called again to another seat, a change every screen
    #: shows as one.
    count: int = 1


class MovesCalled(_Event, frozen=True, tag="moves_called"):
    """The floor called planned moves: from now on the room is shown them, and each
    destination stays as called until the floor calls the move again."""

    calls: tuple[MoveCall, ...]
    at: float = 0.0


class CallsLapsed(_Event, frozen=True, tag="calls_lapsed"):
    """Called moves the plan can no longer keep (the destination broke or began breaking,
    the final table formed, the seat was taken): the room is told they are off."""

    players: tuple[PlayerId, ...]


class SeatLockSet(_Event, frozen=True, tag="seat_lock_set"):
    player: PlayerId
    locked: Annotated[bool, STAFF]


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
    #: When it was counted; None in logs written before counts had a time.
    at: float | None = None


class CountedStack(msgspec.Struct, frozen=True):
    player: PlayerId
    stack: int


class StacksCounted(_Event, frozen=True, tag="stacks_counted"):
    """The floor counted these stacks at ``table`` at the instant ``at``."""

    table: TableNo
    stacks: tuple[CountedStack, ...]
    at: float


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
    #: False: nobody counted the stack (the race ran on the stack the player was given),
    #: so the stack after it is not a count either.
    counted: bool = True


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


# Rulings and penalties (``rulings``) ----------------------------------------------------------


class PenaltyGiven(msgspec.Struct, frozen=True, kw_only=True):
    """A penalty of a ruling as it stands: a sit-out's end (``ends_at`` for minutes), a
    disqualification's chips taken out (None: stacks not known) and the place it gave. A
    sit-out of ``rounds`` says its ``hands`` too: a hand per player seated at the player's
    table when it was given, per round (TDA 2024 rule 71A)."""

    player: PlayerId
    kind: Literal["warning", "sit_out", "disqualification"]
    hands: int | None = None
    rounds: int | None = None
    minutes: int | None = None
    ends_at: float | None = None
    chips: int | None = None
    place: int | None = None


class RulingRecorded(_Event, frozen=True, tag="ruling_recorded"):
    """A floor ruling, the day's ``number``-th: a disqualification in it is followed by the
    player's ``player_busted`` with the same place."""

    number: int
    table: TableNo | None
    #: The table's hand number when the ruling was made (None: no table named).
    hand: int | None
    players: tuple[PlayerId, ...]
    rule: str | None
    #: The floor's own words; the public is sent None (staff text).
    note: Annotated[str | None, STAFF]
    penalties: tuple[PenaltyGiven, ...]
    at: float


class SitOutEnded(_Event, frozen=True, tag="sit_out_ended"):
    """A player's sit-out is over: its minutes ran out, the table dealt its hands, or the
    floor let the player back in."""

    player: PlayerId
    ruling: int
    how: Literal["time", "hands", "floor"]
    at: float


# Money and structure changed (``amendments``) -------------------------------------------------


class PrizeChanged(_Event, frozen=True, tag="prize_changed"):
    """The director set the money (None: no money tracked from now on)."""

    prize: Prize | None
    at: float = 0.0


class StructureChanged(_Event, frozen=True, tag="structure_changed"):
    """The director set the blind structure; ``structure`` is it whole, with the prize
    settings in force. ``remaining``: the clock's time in its step before the start (the
    whole of the new step); None once the clock has started (its step is unchanged)."""

    structure: Structure
    remaining: float | None = None
    at: float = 0.0


# The end ---------------------------------------------------------------------------------


class TournamentFinished(_Event, frozen=True, tag="tournament_finished"):
    """The last bust-out left one player: the winner (first place). The clock stops here:
    ``remaining`` is what was left of its step when it ran (None: it stood already), kept
    as a pause keeps it, so an undone last bust-out finds the clock paused where it was."""

    winner: PlayerId
    at: float
    remaining: float | None = None


class TournamentClosed(_Event, frozen=True, tag="tournament_closed"):
    """The director closed a finished tournament: the results stand, nothing more is sent."""

    at: float


# Flights, bag and tag (``day_end``) ------------------------------------------------------


class FlightSet(_Event, frozen=True, tag="flight_set"):
    """The tournament is a flight of an event (``event`` groups them, ``order`` is where
    it comes: 1 for Day 1A), under the event's house rules for flights."""

    event: str
    order: int
    rules: FlightRules
    at: float = 0.0


class BagCount(msgspec.Struct, frozen=True, kw_only=True):
    """One survivor's bagged chips, and the bag's number if the house tags them."""

    player: PlayerId
    stack: int
    bag: str | None = None


class TableBagged(_Event, frozen=True, tag="table_bagged"):
    """A table's bag sheet at the end of the day; a sheet sent again replaces the table's
    earlier one and says why (``reason``). ``chips_on_table``: the racks counted as one."""

    table: TableNo
    bags: tuple[BagCount, ...]
    chips_on_table: int | None = None
    reason: str | None = None
    at: float = 0.0


class DayEnded(_Event, frozen=True, tag="day_ended"):
    """The day is over (its last level played, or its share of the field left, or the
    director's word): the clock stops, as at a finish (``remaining`` as there)."""

    at: float
    #: The last level the day played (the one in progress counts): Day 2 starts after it.
    level: int = 0
    by: DayOver = "director"
    remaining: float | None = None


class FieldCarried(_Event, frozen=True, tag="field_carried"):
    """Day 2 of an event carries its flights' field (``day2``): the entries, rebuys and
    add-ons beyond its own players' registrations (the pool and the paid places are the
    event's), and the chips its bags hold beyond the field's starting stacks (negative:
    less), so that the chips in play (entries x starting stack + ``chips_added``) are the
    bags' sum."""

    entries: int = 0
    rebuys: int = 0
    add_ons: int = 0
    chips: int = 0
    at: float = 0.0
    #: The flights whose total-chips check failed, and the director's reason (and account)
    #: for making Day 2 from them all the same.
    checks: tuple[CheckFailed, ...] = ()
    acknowledged: str | None = None
    by: str | None = None


# A deal at the final table (``deal``) ------------------------------------------------------


class DealShare(msgspec.Struct, frozen=True, kw_only=True):
    """One player's part of a deal: the stack it was made on and the amount agreed."""

    player: PlayerId
    stack: int
    amount: int


class DealProposed(_Event, frozen=True, tag="deal_proposed"):
    """The director's offer of a deal to the players left: ``prizes``, the prizes still to be
    paid, best first, share out but ``left_to_play``, which the play that follows wins."""

    method: Literal["icm", "chip_chop", "custom"]
    prizes: tuple[int, ...]
    left_to_play: int
    shares: tuple[DealShare, ...]
    at: float = 0.0
    #: The bounties on the heads of the players in the deal, shared out in it (0: out of the
    #: deal, to be won by play; ``deal_bounties``).
    bounties: int = 0


class DealMade(_Event, frozen=True, tag="deal_made"):
    """The offer standing, agreed by every player in it (``agreed``): the tournament ends
    (``ends``: places by the chips at the deal) or plays on for ``left_to_play``."""

    method: Literal["icm", "chip_chop", "custom"]
    prizes: tuple[int, ...]
    left_to_play: int
    #: Biggest stack first: the places the deal gives when it ends the tournament.
    shares: tuple[DealShare, ...]
    agreed: tuple[PlayerId, ...]
    ends: bool
    at: float = 0.0
    #: The clock's step left when an ending deal stopped it.
    remaining: float | None = None
    #: The bounties shared out in the deal (``DealProposed.bounties``).
    bounties: int = 0


# Bounties (``bounty``) -----------------------------------------------------------------------


class BountyPaid(_Event, frozen=True, tag="bounty_paid"):
    """The cashier paid ``player`` the bounties they had won and not yet been paid."""

    player: PlayerId
    amount: int
    at: float = 0.0
    by: str | None = None


# A flight's capacity and its alternates (``alternates``) -------------------------------------


class CapacitySet(_Event, frozen=True, tag="capacity_set"):
    """The capacity in force from now on (None: no limit, as without one)."""

    capacity: Capacity | None = None


class AlternateQueued(_Event, frozen=True, tag="alternate_queued"):
    """A registration while the flight is full: the person goes to the end of the line."""

    alternate: str
    name: str
    player: PlayerId | None = None
    at: float = 0.0
    #: From the code on the wall (a public write), not at the desk.
    public: bool = False


class AlternatesCalled(_Event, frozen=True, tag="alternates_called"):
    """Seats opened: these alternates are called, each to take a seat before ``ends_at``."""

    alternates: tuple[str, ...]
    at: float = 0.0
    ends_at: float = 0.0


class AlternateSeated(_Event, frozen=True, tag="alternate_seated"):
    """A called alternate took the seat: registered as ``player`` by the events after it."""

    alternate: str
    player: PlayerId
    at: float = 0.0


class AlternatesLapsed(_Event, frozen=True, tag="alternates_lapsed"):
    """Called alternates whose time ran out: out of the line, the next are called."""

    alternates: tuple[str, ...]
    at: float = 0.0


class AlternatesLeft(_Event, frozen=True, tag="alternates_left"):
    """Alternates out of the line unseated: the staff took one off (``dropped``), or late
    registration closed with the house refunding those still waiting (``closed``)."""

    alternates: tuple[str, ...]
    refunded: bool = True
    why: Literal["dropped", "closed"] = "dropped"
    at: float = 0.0


AlternateEvent = (
    CapacitySet
    | AlternateQueued
    | AlternatesCalled
    | AlternateSeated
    | AlternatesLapsed
    | AlternatesLeft
)


# The director's announcements to the room (``announce``) ----------------------------------


class Announced(_Event, frozen=True, tag="announced"):
    """The director's message, shown until cleared or replaced: a line, or the whole wall."""

    text: str
    full: bool = False
    at: float = 0.0


class AnnouncementCleared(_Event, frozen=True, tag="announcement_cleared"):
    """The director's message is off the screens."""

    at: float = 0.0


# A satellite (``satellite``) ---------------------------------------------------------------


class SatelliteEnded(_Event, frozen=True, tag="satellite_ended"):
    """A satellite is over: the players left are no more than its seats. ``seats`` are the
    seat winners (the players left, with any busted in the last hand whose place is a seat),
    best place first; the clock stops as at a finish (``remaining`` as there)."""

    seats: tuple[PlayerId, ...]
    at: float
    remaining: float | None = None


class SeatTicket(msgspec.Struct, frozen=True, kw_only=True, array_like=True):
    ticket: str
    player: PlayerId


class DealUndone(_Event, frozen=True, tag="deal_undone"):
    """The deal made is taken back (``deal_undo``): its shares no longer pay, and a deal that
    had ended the tournament gives it back its players (the clock paused where it stopped)."""

    reason: str
    at: float = 0.0


class SeatsIssued(_Event, frozen=True, tag="seats_issued"):
    """The seats' tickets entered in the house's ledger, one per seat winner."""

    tickets: tuple[SeatTicket, ...]
    at: float


# Draws anyone can check (``fair``) ------------------------------------------------------------


class DrawsCommitted(_Event, frozen=True, tag="draws_committed"):
    """The head of the tournament's chain of secret seeds, published before its first entry:
    each draw uses the next seed and reveals it (``fair``)."""

    spec: str
    head: str
    length: int
    at: float = 0.0


class DrawMade(_Event, frozen=True, tag="draw_made"):
    """The decision whose ``events`` just before this one drew something (a seat, a break,
    the final table): the seed it used, revealed, what it was mixed with (the chain's link
    before those events, the witness's number) and the players it gave a seat. ``decided`` is
    the command as JSON, the staff's: with it the whole log's holder decides it again."""

    index: int
    seed: str
    link: str
    spec: str
    events: int
    seated: tuple[PlayerId, ...] = ()
    witness: str = ""
    decided: Annotated[str | None, STAFF] = None
    at: float = 0.0


class WitnessSet(_Event, frozen=True, tag="witness_set"):
    """The number a witness announced in the room, mixed into every draw from now on."""

    value: str
    at: float = 0.0


# A milestone satellite (``milestone``) -----------------------------------------------------


class SeatAwarded(_Event, frozen=True, tag="seat_awarded"):
    """A milestone satellite's seat to a player whose counted ``stack`` reached the milestone:
    they leave their seat with those chips out of play. ``place``: the players still in when
    they left (as a bust-out's), so that an undo moves the places after it as a bust-out's."""

    player: PlayerId
    table: TableNo
    seat: SeatNo
    hand: int
    place: int
    stack: int
    at: float = 0.0
    by: str | None = None
    #: The seat's ticket, issued in the house's ledger with the award (``milestone``).
    seat_ticket: str | None = None


Event = (
    TournamentCreated
    | TableOpened
    | TableSetUp
    | PlayerRegistered
    | SeatsDrawn
    | PlayerSeated
    | PlayerRenamed
    | SpecialNeedsSet
    | PlayerUnregistered
    | PlayerBusted
    | BustUndone
    | HandStarted
    | HandForHandStarted
    | HandReported
    | HandForHandDealt
    | HandForHandEnded
    | ButtonReported
    | PlayersMoved
    | MoveCancelled
    | MovesCalled
    | CallsLapsed
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
    | StacksCounted
    | RebuyMade
    | AddOnMade
    | ChipsRaced
    | TournamentFinished
    | TournamentClosed
    | PrizeChanged
    | StructureChanged
    | RulingRecorded
    | SitOutEnded
    | FlightSet
    | TableBagged
    | DayEnded
    | FieldCarried
    | DealProposed
    | DealMade
    | BountyPaid
    | CapacitySet
    | AlternateQueued
    | AlternatesCalled
    | AlternateSeated
    | AlternatesLapsed
    | AlternatesLeft
    | Announced
    | AnnouncementCleared
    | SatelliteEnded
    | SeatsIssued
    | DealUndone
    | DrawsCommitted
    | DrawMade
    | WitnessSet
    | SeatAwarded
)
