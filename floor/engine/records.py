"""The records of a tournament's state: what the snapshot holds, as msgspec Structs.

``floor.engine.state`` re-exports them: ``from .state import Player`` keeps working.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from .alternates_model import AlternateLine
from .board import BoardLog
from .bounty_rules import BountyBook, PlayerBounty
from .calc.chiprace import ChipRaceResult
from .events import (
    Announced,
    DayEnded,
    DealMade,
    DealProposed,
    FieldCarried,
    FlightSet,
    RacedPlayer,
    SatelliteEnded,
    SeatsIssued,
    TableBagged,
)
from .hand_for_hand_round import HandForHand
from .model import (
    STAFF,
    DealtGame,
    MoveReason,
    PlayerId,
    Positions,
    SeatNo,
    Spot,
    TableNo,
    TableStatus,
)
from .rules import Rules, Structure
from .ruling_log import RulingLog


class BustRecord(msgspec.Struct, kw_only=True):
    table: TableNo
    seat: SeatNo
    hand: int
    place: int
    #: The stack before the bust, given back if the bust is undone: the stack the player
    #: started the hand with where the floor gave it (several out in one hand), else the
    #: last one recorded.
    stack: int | None = None
    #: Players sharing the place (busted in the same hand with equal stacks).
    shares: int = 1
    at: float = 0.0
    #: Busted at the final table once it had formed: undone, the player sits down again
    #: there (an earlier bust-out has no final seat to return to).
    at_final: bool = False
    #: The clock's step when the bust-out was recorded (None: the clock had not started):
    #: the right to undo it ends when the level changes (``undo``).
    level: int | None = None
    #: The staff account that reported it: a phone about to report it too is told so.
    by: str | None = None
    #: Not a bust-out: a milestone satellite's seat, won with ``stack`` chips taken out of
    #: play (``milestone``); ``place`` still counts the players in when they left.
    seat_won: bool = False
    #: That seat's ticket in the house's ledger (``SeatAwarded.seat_ticket``; public as a
    #: satellite's ``seats_issued`` is, and not named ``ticket``, a registration's ticket,
    #: which is the staff's).
    seat_ticket: str | None = None


class Player(msgspec.Struct, kw_only=True):
    id: PlayerId
    name: str
    table: TableNo | None = None
    seat: SeatNo | None = None
    #: The committed draw (``fair``) that gave this seat; None: a move the rules chose, or a
    #: tournament without committed draws.
    draw: int | None = None
    busted: bool = False
    special_needs: Annotated[bool, STAFF] = False
    #: A seat lock: never picked to move for balance.
    locked: Annotated[bool, STAFF] = False
    #: Made a confirmed balance or break move (the planner avoids moving them again).
    moved: bool = False
    #: The floor cancelled this player's balance move; excused until their table's next hand.
    excused: bool = False
    stack: int | None = None
    #: The stack was counted at the table (set by the floor, or by a chip race); until then
    #: it is what the player was given, which screens must not show as a count.
    counted: bool = False
    #: When the stack was last counted (a count or a chip race); None: not known.
    counted_at: float | None = None
    #: The latest bust-out at their table when the player sat down there (None: none): one
    #: since is theirs (``count_age``).
    seated_bust_at: float | None = None
    #: The latest bust-out at a table the player has left, made while they sat there (None:
    #: none): carried with them, it makes a count taken before it old (``count_age``).
    left_bust_at: float | None = None
    entries: int = 1
    rebuys: int = 0
    add_ons: int = 0
    bust: BustRecord | None = None
    #: Planned moves carried out (balance, break, final): how often the floor moved them.
    moves: int = 0
    #: Where the player comes from (for the results files), and the staff's note on the
    #: entry (never shown to the room: ``floor.server.redact``).
    country: str | None = None
    #: The language the player reads and hears (issue 29.3); None: the venue's locale's.
    lang: str | None = None
    note: Annotated[str | None, STAFF] = None
    #: A bounty tournament's record of the player's bounty (None: untouched, ``fold.bounty``).
    bounty: PlayerBounty | None = None

    @property
    def spot(self) -> Spot | None:
        if self.table is None or self.seat is None:
            return None
        return Spot(self.table, self.seat)


class Table(msgspec.Struct, kw_only=True):
    number: TableNo
    seats: int
    status: TableStatus = "open"
    #: The button and blinds of the last hand dealt; None = unknown positions.
    positions: Positions | None = None
    #: The positions were set by a button report and no hand has been dealt since: the
    #: button already sits on the next hand's seat (``positions.button_seat``).
    button_reported: bool = False
    occupants: dict[SeatNo, PlayerId] = msgspec.field(default_factory=dict)
    #: Empty seats in the order they opened, oldest first (stud balancing).
    opened: list[SeatNo] = msgspec.field(default_factory=list)
    #: Hands reported so far; a bust-out can be undone until this number moves on.
    hand: int = 0
    halt_waived: bool = False
    #: The clock level of the hand in progress: a new level applies from the next hand, so
    #: a table whose hand began before the level changed plays it at this one. None until a
    #: hand is reported on a started clock.
    hand_level: int | None = None
    #: When a player last busted here: the counts taken before are old (``count_age``).
    busted_at: float | None = None
    #: When the last hand was reported here: a deal is made on counts taken since (``deal``).
    hand_at: float | None = None

    @property
    def count(self) -> int:
        return len(self.occupants)


def busted_since(table: Table, p: Player) -> bool:
    """Whether a player busted at ``table`` since ``p`` sat down there."""
    return table.busted_at is not None and (
        p.seated_bust_at is None or table.busted_at > p.seated_bust_at
    )


class Assignment(msgspec.Struct, frozen=True):
    """A seat drawn for a player (break or final), kept while it still fits."""

    table: TableNo
    seat: SeatNo
    reason: Literal["break", "final"]


class Called(msgspec.Struct, kw_only=True):
    """A move the floor called (announced to the room): its destination is kept as called
    until the floor calls it again, carries it out or cancels it, or it no longer fits."""

    from_table: TableNo
    table: TableNo
    #: None: the floor shows the seat on arrival.
    seat: SeatNo | None
    reason: MoveReason
    at: float
    #: 1 for the first call, 2 and up after calls to another seat.
    count: int = 1


class ClockState(msgspec.Struct, kw_only=True):
    #: Index into the structure's steps (levels and breaks).
    level: int = 0
    started: bool = False
    running: bool = False
    #: When the current step ends, while running.
    ends_at: float | None = None
    #: Seconds left in the current step, while paused (or before the start).
    remaining: float = 0.0


class TimeCall(msgspec.Struct, kw_only=True):
    table: TableNo
    seat: SeatNo
    player: PlayerId | None
    at: float
    count_from: float
    ends_at: float


class RaceRecord(msgspec.Struct, frozen=True, kw_only=True):
    """A chip race run at a table, kept so the table can see its cards again."""

    table: TableNo
    at: float
    result: ChipRaceResult
    #: Who sat in each seat and their stack before, so the race can be shown after moves.
    players: tuple[RacedPlayer, ...] = ()


class FieldPoint(msgspec.Struct, array_like=True, frozen=True):
    """Players left at an instant (a chart point): ``[at, players_left]``."""

    at: float
    players_left: int


class LevelPoint(msgspec.Struct, array_like=True, frozen=True):
    """The field when a level began: ``[level, at, players_left, entries]``."""

    level: int
    at: float
    players_left: int
    entries: int


class FairDraws(msgspec.Struct, kw_only=True):
    """The committed chain of draw seeds and how far it is used (``fair``): public, so the
    wall and the open feed show the commitment and each seed as it is revealed."""

    spec: str
    #: The chain's head (``seed(0)``) and its length, as committed.
    head: str
    length: int
    at: float = 0.0
    #: Draws made; the last seed revealed (the head before the first).
    used: int = 0
    last_seed: str = ""
    #: The witness's number mixed into the draws from now on.
    witness: str = ""
    witness_at: float | None = None


class TournamentState(msgspec.Struct, kw_only=True):
    id: str
    name: str
    rules: Rules
    structure: Structure | None = None
    created_at: float = 0.0
    tables: dict[TableNo, Table] = msgspec.field(default_factory=dict)
    players: dict[PlayerId, Player] = msgspec.field(default_factory=dict)
    draws: dict[PlayerId, Assignment] = msgspec.field(default_factory=dict)
    #: The moves the floor has called, by player (``calls``).
    calls: dict[PlayerId, Called] = msgspec.field(default_factory=dict)
    final_table: TableNo | None = None
    #: Seats 1..final_seats of the final table are drawn.
    final_seats: int = 0
    #: The final table's seats have been drawn (a formed final table draws everybody once).
    final_drawn: bool = False
    current_game: DealtGame = "holdem"
    clock: ClockState = msgspec.field(default_factory=ClockState)
    time_calls: list[TimeCall] = msgspec.field(default_factory=list)
    #: The initial draw has been made: later entries are seated as they come.
    drawn: bool = False
    busted: int = 0
    entries: int = 0
    rebuys: int = 0
    add_ons: int = 0
    #: Chips put in play beyond the entries' starting stacks: rebuys, add-ons and what chip
    #: races added or took away. Chips in play = entries x starting stack + this.
    chips_added: int = 0
    chip_races: list[RaceRecord] = msgspec.field(default_factory=list)
    #: For the charts: players left after every change, and the field at each level start.
    field_history: list[FieldPoint] = msgspec.field(default_factory=list)
    level_history: list[LevelPoint] = msgspec.field(default_factory=list)
    #: Entries withdrawn and refunded (``players``): no longer in ``entries``.
    unregistered: int = 0
    #: Names corrected after registration: with the entries and the withdrawals, what tells
    #: a search index of the names (``floor.server.player_search``) it is out of date.
    renamed: int = 0
    #: The winner, once the last bust-out left one player (``floor.engine.finish``); an
    #: undone last bust-out clears it, a close makes it final.
    winner: PlayerId | None = None
    finished_at: float | None = None
    closed_at: float | None = None
    #: The day's rulings, the sit-outs running, the players disqualified (``rulings``).
    rulings: RulingLog = msgspec.field(default_factory=RulingLog)
    #: The event this tournament is a flight of (``flights``); None: a tournament alone.
    flight: FlightSet | None = None
    #: The end of the day's bag sheets, the last per table (``bagging``).
    bags: dict[TableNo, TableBagged] = msgspec.field(default_factory=dict)
    #: The day is over and the clock stopped there (``day_end``).
    day_ended: DayEnded | None = None
    #: Day 2 of an event: the field its flights carried in, with the flights whose chip
    #: check failed and the director's reason for going on (``day2``).
    carried: FieldCarried | None = None
    #: Hand-for-hand while it runs (``hand_for_hand``), None otherwise.
    hand_for_hand: HandForHand | None = None
    #: The board of seat changes players read (``board``): its last lines, folded here so
    #: that every process and every snapshot hold the same.
    board: BoardLog = msgspec.field(default_factory=BoardLog)
    #: The deal offered at the final table, until it is made or offered again (``deal``).
    deal_offer: DealProposed | None = None
    #: The deal made: the shares it pays, and whether it ended the tournament.
    deal: DealMade | None = None
    #: A bounty tournament's bounty money as a whole (None: no bounty changed yet).
    bounties: BountyBook | None = None
    #: The capacity and the alternates' line (``alternates``).
    alternates: AlternateLine = msgspec.field(default_factory=AlternateLine)
    #: The director's message to the room while it is shown (``announce``).
    announcement: Announced | None = None
    #: A satellite's end (its seat winners) and their tickets in the house (``satellite``).
    satellite_end: SatelliteEnded | None = None
    #: A milestone satellite's seats awarded so far, and the chips their winners took out of
    #: play (the chip check counts them against what must exist: ``milestone``).
    seats_won: int = 0
    chips_out: int = 0
    #: Every seat ever awarded at the milestone, undone or not: numbers their tickets, so that
    #: a seat awarded again after an undo never takes a withdrawn ticket's id.
    seat_awards: int = 0
    seats_issued: SeatsIssued | None = None
    #: The committed draw seeds (``fair``); None in a tournament from before them.
    fair: FairDraws | None = None
