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

from bisect import bisect_left, insort
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Annotated, Literal, assert_never

import msgspec

from . import bounty_fold
from .board import BoardLog
from .board import add as board_add
from .bounty_rules import BountyBook, PlayerBounty
from .chiprace import ChipRaceResult
from .events import (
    AddOnMade,
    BountyPaid,
    BustUndone,
    ButtonReported,
    CallsLapsed,
    ChipsRaced,
    ClockAdjusted,
    ClockPaused,
    ClockResumed,
    ClockStarted,
    DayEnded,
    DealMade,
    DealProposed,
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
    RacedPlayer,
    RebuyMade,
    RulingRecorded,
    SeatLockSet,
    SeatsAssigned,
    SeatsDrawn,
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

if TYPE_CHECKING:
    from .plan import Plan


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


class Player(msgspec.Struct, kw_only=True):
    id: PlayerId
    name: str
    table: TableNo | None = None
    seat: SeatNo | None = None
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
    note: Annotated[str | None, STAFF] = None
    #: A bounty tournament's record of the player's bounty (None: untouched, ``bounty_fold``).
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


class Tournament:
    """The state plus its indexes; ``apply`` is the only way it changes."""

    __slots__ = (
        "_balance_rank",
        "_break_rank",
        "_buckets",
        "_open_by_break",
        "_order",
        "_plan",
        "_reserved",
        "active",
        "breaking",
        "nonempty",
        "open_count",
        "small_tables",
        "state",
    )

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

    def _reindex(self) -> None:
        s = self.state
        rules = s.rules
        self._reserved = rules.reserved()
        self._order: dict[TableNo, int] = {}
        self._balance_rank: dict[TableNo, int] = {}
        self._break_rank: dict[TableNo, int] = {}
        self._buckets: list[list[tuple[int, TableNo]]] = [[] for _ in range(13)]
        #: Open tables as (break rank, table): the next to break is the first, without a scan
        #: of the room (a scan of a thousand tables was the slowest part of a bust-out).
        self._open_by_break: list[tuple[int, TableNo]] = []
        self.active = 0
        self.nonempty = 0
        self.open_count = 0
        #: Tables being broken, so that housekeeping need not scan the room.
        self.breaking: set[TableNo] = set()
        #: Tables with fewer seats than the break fill (opened small), for the same reason.
        self.small_tables: set[TableNo] = set()
        for table in s.tables.values():
            self._index_table(table)

    def _index_table(self, table: Table) -> None:
        n = table.number
        rules = self.state.rules
        self._order[n] = len(self._order)
        bo = rules.balance_order
        self._balance_rank[n] = bo.index(n) if bo and n in bo else (len(bo or ()) + n)
        ko = rules.break_order
        # Tables missing from an explicit break order (opened later) break first.
        self._break_rank[n] = ko.index(n) if ko and n in ko else -(n + 1_000_000 if ko else n)
        if table.seats < rules.fill:
            self.small_tables.add(n)
        self.active += table.count
        if table.count:
            self.nonempty += 1
        if table.status == "open":
            self.open_count += 1
            insort(self._open_by_break, (self._break_rank[n], n))
            self._bucket_add(table)
        elif table.status == "breaking":
            self.breaking.add(n)

    # Queries ---------------------------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        return self.state.rules

    def table(self, n: TableNo) -> Table:
        return self.state.tables[n]

    def player(self, pid: PlayerId) -> Player:
        return self.state.players[pid]

    def input_index(self, n: TableNo) -> int:
        return self._order[n]

    def balance_rank(self, n: TableNo) -> int:
        return self._balance_rank[n]

    def break_rank(self, n: TableNo) -> int:
        return self._break_rank[n]

    def first_to_break(self) -> TableNo | None:
        """The open table first in the break order, if any."""
        return self._open_by_break[0][1] if self._open_by_break else None

    @property
    def has_reserved_seats(self) -> bool:
        return bool(self._reserved)

    def is_reserved(self, table: TableNo, seat: SeatNo) -> bool:
        return (table, seat) in self._reserved

    def reserved_seats(self) -> list[tuple[TableNo, SeatNo]]:
        return sorted(self._reserved)

    def needs_reserved(self, p: Player) -> bool:
        """A player needs a reserved seat when flagged, or when they sit in one now."""
        if p.special_needs:
            return True
        return p.table is not None and (p.table, p.seat) in self._reserved

    def open_tables(self) -> Iterator[Table]:
        """Tables that receive players and are balanced: open or halted, in input order."""
        return (t for t in self.state.tables.values() if t.status == "open")

    def open_by_count(self, lowest: bool) -> Iterator[tuple[int, int, TableNo]]:
        """Open tables as (count, balance rank, table), fewest or most players first."""
        counts = range(len(self._buckets)) if lowest else range(len(self._buckets) - 1, -1, -1)
        for c in counts:
            for rank, n in self._buckets[c]:
                yield c, rank, n

    def extreme(self, overrides: dict[TableNo, int], lowest: bool) -> TableNo | None:
        """The open table with the most (or fewest) players, ties by balance order.

        ``overrides`` gives virtual counts for the few tables a plan has changed.
        """
        sign = 1 if lowest else -1
        best: tuple[int, int, TableNo] | None = None
        for c, rank, n in self.open_by_count(lowest):
            if n not in overrides:
                best = (sign * c, rank, n)
                break
        for n, vc in overrides.items():
            cand = (sign * vc, self._balance_rank[n], n)
            if best is None or cand < best:
                best = cand
        return None if best is None else best[2]

    def max_open_count(self) -> int:
        for c in range(len(self._buckets) - 1, -1, -1):
            if self._buckets[c]:
                return c
        return 0

    def tables_with_at_most(self, count: int) -> Iterator[TableNo]:
        for c in range(min(count, len(self._buckets) - 1) + 1):
            for _, n in self._buckets[c]:
                yield n

    @property
    def plan(self) -> Plan:
        """The current plan, computed once per change."""
        if self._plan is None:
            self._plan = _planner(self)
        return self._plan

    # Seating primitives ----------------------------------------------------------------------

    def _bucket_remove(self, table: Table) -> None:
        if table.status == "open":
            b = self._buckets[table.count]
            key = (self._balance_rank[table.number], table.number)
            del b[bisect_left(b, key)]

    def _bucket_add(self, table: Table) -> None:
        if table.status == "open":
            while table.count >= len(self._buckets):
                self._buckets.append([])
            insort(self._buckets[table.count], (self._balance_rank[table.number], table.number))

    def _sit(self, p: Player, table: Table, seat: SeatNo) -> None:
        self._bucket_remove(table)
        if not table.occupants:
            self.nonempty += 1
        table.occupants[seat] = p.id
        self._bucket_add(table)
        p.table = table.number
        p.seat = seat
        p.seated_bust_at = table.busted_at
        self.active += 1

    def _stand(self, p: Player) -> None:
        assert p.table is not None and p.seat is not None
        table = self.state.tables[p.table]
        self._bucket_remove(table)
        del table.occupants[p.seat]
        table.opened.append(p.seat)
        if len(table.opened) > 4 * table.seats:
            del table.opened[: len(table.opened) - 2 * table.seats]
        if busted_since(table, p) and (p.left_bust_at or 0.0) < (table.busted_at or 0.0):
            p.left_bust_at = table.busted_at
        if not table.occupants:
            self.nonempty -= 1
        self._bucket_add(table)
        p.table = None
        p.seat = None
        self.active -= 1

    def _set_status(self, table: Table, status: TableStatus) -> None:
        if table.status == status:
            return
        key = (self._break_rank[table.number], table.number)
        if table.status == "open":
            self._bucket_remove(table)
            self.open_count -= 1
            del self._open_by_break[bisect_left(self._open_by_break, key)]
        self.breaking.discard(table.number)
        table.status = status
        if status == "open":
            self._bucket_add(table)
            self.open_count += 1
            insort(self._open_by_break, key)
        elif status == "breaking":
            self.breaking.add(table.number)

    def _player(self, pid: PlayerId, name: str | None = None) -> Player:
        p = self.state.players.get(pid)
        if p is None:
            p = Player(id=pid, name=name or pid)
            self.state.players[pid] = p
            self.state.entries += 1
        return p

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
            case TournamentCreated():
                raise ValueError("tournament_created starts a log: it is not applied to a state")
            case _:
                assert_never(event)
        board_add(self.state.board, event, self.state.players)
        self._plan = None

    def _prize_changed(self, e: PrizeChanged) -> None:
        s = self.state
        assert s.structure is not None  # ``amendments``: money needs a structure
        s.structure = msgspec.structs.replace(s.structure, prize=e.prize)

    def _structure_changed(self, e: StructureChanged) -> None:
        self.state.structure = e.structure
        if e.remaining is not None:
            self.state.clock.remaining = e.remaining

    def _table_opened(self, e: TableOpened) -> None:
        table = Table(number=e.table, seats=e.seats)
        self.state.tables[e.table] = table
        self._index_table(table)

    def _table_set_up(self, e: TableSetUp) -> None:
        table = Table(number=e.table, seats=e.seats, positions=e.positions, opened=list(e.opened))
        self.state.tables[e.table] = table
        self._index_table(table)
        for seat, pid in sorted(e.occupants.items()):
            self._sit(self._player(pid), table, seat)
        self.state.drawn = True

    def _bounty(self, event: Event) -> None:
        """A bounty tournament's bounties, before the event changes the players."""
        s = self.state
        prize = s.structure.prize if s.structure is not None else None
        if prize is None or prize.bounty is None:
            return
        if s.bounties is None:
            s.bounties = BountyBook()
        bounty_fold.fold(s.bounties, prize.bounty, event, s.players, s.winner)

    def _player_registered(self, e: PlayerRegistered) -> None:
        # A new entry finishes above everyone already out: a place is the players still in when
        # the bust came, so each later entry moves every recorded place one down (a re-entry's
        # own earlier finish too, though its record is replaced below).
        # Nobody out, no place to move: a list of 1,300 entries is not 1,300 scans of the field.
        if e.shifts_places and self.state.busted:
            for other in self.state.players.values():
                if other.busted and other.bust is not None:
                    other.bust.place += 1
        p = self.state.players.get(e.player)
        if p is None:
            p = Player(
                id=e.player,
                name=e.name,
                special_needs=e.special_needs,
                stack=e.stack,
                country=e.country,
                note=e.note,
            )
            self.state.players[e.player] = p
        else:
            if p.busted:
                self.state.busted -= 1
            p.name = e.name
            p.busted = False
            p.bust = None
            p.moved = False
            p.excused = False
            p.locked = False
            p.special_needs = e.special_needs
            p.stack = e.stack
            p.counted = False
            p.counted_at = None
            p.left_bust_at = None
            p.country = e.country
            p.note = e.note
        p.entries = e.entry
        self.state.entries += 1

    def _seats_drawn(self, e: SeatsDrawn) -> None:
        for s in e.seats:
            self._sit(self.state.players[s.player], self.state.tables[s.table], s.seat)
        self.state.drawn = True
        self._field_point(e.at)

    def _field_point(self, at: float) -> None:
        self.state.field_history.append(FieldPoint(at, self.active))

    def _level_point(self, level: int, at: float) -> None:
        s = self.state
        s.level_history.append(LevelPoint(level, at, self.active, s.entries))

    def _player_seated(self, e: PlayerSeated) -> None:
        self._sit(self.state.players[e.player], self.state.tables[e.table], e.seat)
        self._field_point(e.at)

    def _player_renamed(self, e: PlayerRenamed) -> None:
        self.state.players[e.player].name = e.name
        self.state.renamed += 1

    def _player_unregistered(self, e: PlayerUnregistered) -> None:
        s = self.state
        p = s.players[e.player]
        if p.table is not None:
            self._stand(p)
        del s.players[e.player]
        s.draws.pop(e.player, None)
        s.calls.pop(e.player, None)
        s.rulings.drop(e.player)
        s.entries -= 1
        s.unregistered += 1
        s.rebuys -= e.rebuys
        s.add_ons -= e.add_ons
        s.chips_added += e.change
        # Every place recorded counted this entry among the players still in (a later entry
        # moved the places one down as it came): without it, each is one better.
        for other in s.players.values():
            if other.busted and other.bust is not None:
                other.bust.place -= 1
        self._field_point(e.at)

    def _player_busted(self, e: PlayerBusted) -> None:
        p = self.state.players[e.player]
        self._stand(p)
        p.busted = True
        p.bust = BustRecord(
            table=e.table,
            seat=e.seat,
            hand=e.hand,
            place=e.place,
            stack=e.stack if e.stack is not None else p.stack,
            shares=e.shares,
            at=e.at,
            at_final=e.table == self.state.final_table,
            level=self.state.clock.level if self.state.clock.started else None,
            by=e.by,
        )
        p.stack = 0
        table = self.state.tables.get(e.table)
        if table is not None:
            table.busted_at = e.at
        self.state.draws.pop(p.id, None)
        self.state.calls.pop(p.id, None)
        self.state.rulings.drop(p.id)
        self.state.busted += 1
        self._field_point(e.at)

    def _bust_undone(self, e: BustUndone) -> None:
        p = self.state.players[e.player]
        record = p.bust
        p.busted = False
        p.bust = None
        if record is not None:
            p.stack = record.stack
            for other in self.state.players.values():
                b = other.bust
                if b is None or not other.busted:
                    continue
                if b.place < record.place:
                    # Those who busted after this player move one place down (27th, not 26th).
                    b.place += 1
                elif b.place == record.place:
                    # Those who shared the place keep the places it covered but the best.
                    b.place += 1
                    b.shares -= 1
        self._sit(p, self.state.tables[e.table], e.seat)
        self.state.busted -= 1
        self._field_point(e.at)
        # Two players again: live, the clock still stopped where the finish stopped it.
        self.state.winner = None
        self.state.finished_at = None

    def _deal_made(self, e: DealMade) -> None:
        s = self.state
        s.deal = e
        s.deal_offer = None
        if e.ends:
            # The biggest stack at the deal is first: the tournament is won by the deal.
            self._tournament_finished(
                TournamentFinished(winner=e.shares[0].player, at=e.at, remaining=e.remaining)
            )

    def _tournament_finished(self, e: TournamentFinished) -> None:
        s = self.state
        s.winner = e.winner
        s.finished_at = e.at
        # The hand that made the winner is over: nobody is on the clock any more.
        s.time_calls.clear()
        if e.remaining is not None:
            c = s.clock
            c.running = False
            c.ends_at = None
            c.remaining = e.remaining

    def _table_bagged(self, e: TableBagged) -> None:
        self.state.bags[e.table] = e
        # A bag is the last count of the day: the stack Day 2 starts with.
        for b in e.bags:
            p = self.state.players[b.player]
            p.stack = b.stack
            p.counted = True
            p.counted_at = e.at

    def _field_carried(self, e: FieldCarried) -> None:
        s = self.state
        s.carried = e
        s.entries += e.entries
        s.rebuys += e.rebuys
        s.add_ons += e.add_ons
        s.chips_added += e.chips

    def _day_ended(self, e: DayEnded) -> None:
        s = self.state
        s.day_ended = e
        s.time_calls.clear()
        if e.remaining is not None:
            c = s.clock
            c.running = False
            c.ends_at = None
            c.remaining = e.remaining

    def _hand_started(self, e: HandStarted) -> None:
        table = self.state.tables[e.table]
        table.hand = e.hand
        table.hand_level = e.level
        if e.at is not None:
            table.hand_at = e.at
        table.button_reported = False
        if e.positions is not None:
            table.positions = e.positions
        players = self.state.players
        for pid in table.occupants.values():
            players[pid].excused = False
        self.state.rulings.hand_dealt(table.occupants.values())
        if self.state.hand_for_hand is not None:
            self.state.hand_for_hand.dealt_at(e.table)

    def _button_reported(self, e: ButtonReported) -> None:
        table = self.state.tables[e.table]
        table.positions = e.positions
        table.button_reported = True

    def _players_moved(self, e: PlayersMoved) -> None:
        players = self.state.players
        tables = self.state.tables
        # Everybody stands up before anybody sits down, so two players can swap seats.
        for m in e.moves:
            self._stand(players[m.player])
        for m in e.moves:
            p = players[m.player]
            self._sit(p, tables[m.to.table], m.to.seat)
            self.state.draws.pop(p.id, None)
            self.state.calls.pop(p.id, None)
            if e.reason in ("balance", "break"):
                p.moved = True
            if e.reason != "correction":
                p.moves += 1

    def _move_cancelled(self, e: MoveCancelled) -> None:
        if e.player is None:
            return
        self.state.calls.pop(e.player, None)
        if e.reason == "balance":
            self.state.players[e.player].excused = True
        else:
            self.state.draws.pop(e.player, None)

    def _moves_called(self, e: MovesCalled) -> None:
        s = self.state
        for c in e.calls:
            s.calls[c.player] = Called(
                from_table=c.from_.table,
                table=c.to.table,
                seat=c.to.seat,
                reason=c.reason,
                at=e.at,
                count=c.count,
            )
            drawn = s.draws.get(c.player)
            # A drawn seat called again elsewhere at its table: the draw is that seat now.
            if drawn is not None and c.to.seat is not None and c.to.seat != drawn.seat:
                s.draws[c.player] = Assignment(c.to.table, c.to.seat, drawn.reason)

    def _calls_lapsed(self, e: CallsLapsed) -> None:
        for pid in e.players:
            self.state.calls.pop(pid, None)

    def _seat_lock_set(self, e: SeatLockSet) -> None:
        self.state.players[e.player].locked = e.locked

    def _halt_waived(self, e: HaltWaived) -> None:
        self.state.tables[e.table].halt_waived = e.waived

    def _game_changed(self, e: GameChanged) -> None:
        self.state.current_game = e.game

    def _table_breaking(self, e: TableBreaking) -> None:
        self._set_status(self.state.tables[e.table], "breaking")

    def _seats_assigned(self, e: SeatsAssigned) -> None:
        draws = self.state.draws
        if e.reason == "final":
            self.state.final_drawn = True
        for pid in e.withdrawn:
            draws.pop(pid, None)
        for s in e.seats:
            draws[s.player] = Assignment(s.table, s.seat, e.reason)

    def _table_broken(self, e: TableBroken) -> None:
        self._set_status(self.state.tables[e.table], "broken")

    def _final_table_formed(self, e: FinalTableFormed) -> None:
        s = self.state
        s.final_table = e.table
        s.final_seats = e.seats
        s.final_drawn = False
        s.draws.clear()
        final = s.tables[e.table]
        self._bucket_remove(final)
        final.seats = max(final.seats, e.seats)
        if final.seats >= s.rules.fill:
            self.small_tables.discard(final.number)
        final.positions = None
        final.button_reported = False
        self._bucket_add(final)
        for table in s.tables.values():
            if table.number != e.table and table.status == "open":
                self._set_status(table, "breaking")

    def _clock_started(self, e: ClockStarted) -> None:
        c = self.state.clock
        c.started = True
        c.running = True
        c.level = e.level
        c.ends_at = e.ends_at
        c.remaining = e.ends_at - e.at
        self._level_point(e.level, e.at)

    def _clock_paused(self, e: ClockPaused) -> None:
        c = self.state.clock
        c.running = False
        c.ends_at = None
        c.remaining = e.remaining

    def _clock_resumed(self, e: ClockResumed) -> None:
        c = self.state.clock
        c.running = True
        c.ends_at = e.ends_at
        c.remaining = e.ends_at - e.at

    def _clock_adjusted(self, e: ClockAdjusted) -> None:
        c = self.state.clock
        c.ends_at = e.ends_at
        c.remaining = e.remaining

    def _level_changed(self, e: LevelChanged) -> None:
        c = self.state.clock
        c.level = e.level
        c.ends_at = e.ends_at
        c.remaining = e.remaining
        self._level_point(e.level, e.at)
        structure = self.state.structure
        if structure is not None and self.state.rules.game == "mixed":
            from .rules import Level

            step = structure.levels[e.level]
            if isinstance(step, Level) and step.game is not None:
                self.state.current_game = step.game

    def _time_called(self, e: TimeCalled) -> None:
        calls = self.state.time_calls
        calls[:] = [c for c in calls if (c.table, c.seat) != (e.table, e.seat)]
        calls.append(
            TimeCall(
                table=e.table,
                seat=e.seat,
                player=e.player,
                at=e.at,
                count_from=e.count_from,
                ends_at=e.ends_at,
            )
        )

    def _time_call_ended(self, e: TimeCallEnded) -> None:
        calls = self.state.time_calls
        calls[:] = [c for c in calls if (c.table, c.seat) != (e.table, e.seat)]

    def _stack_set(self, e: StackSet) -> None:
        p = self.state.players[e.player]
        p.stack = e.stack
        p.counted = True
        p.counted_at = e.at

    def _stacks_counted(self, e: StacksCounted) -> None:
        players = self.state.players
        for c in e.stacks:
            p = players[c.player]
            p.stack = c.stack
            p.counted = True
            p.counted_at = e.at

    def _rebuy_made(self, e: RebuyMade) -> None:
        self._bought(e).rebuys = e.count
        self.state.rebuys += 1

    def _add_on_made(self, e: AddOnMade) -> None:
        self._bought(e).add_ons = e.count
        self.state.add_ons += 1

    def _bought(self, e: RebuyMade | AddOnMade) -> Player:
        p = self.state.players[e.player]
        p.stack = e.stack
        self.state.chips_added += e.chips
        return p

    def _chips_raced(self, e: ChipsRaced) -> None:
        players = self.state.players
        who = {r.seat: r for r in e.players}
        for r in e.result.seats:
            raced = who[r.seat]
            p = players[raced.player]
            p.stack = r.stack
            if raced.counted:
                p.counted = True
                p.counted_at = e.at
        self.state.chips_added += e.change
        self.state.chip_races.append(
            RaceRecord(table=e.table, at=e.at, result=e.result, players=e.players)
        )
