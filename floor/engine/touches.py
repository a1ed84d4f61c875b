"""What each event touches: the records of the state it may change, one case per event.

Everything that must know which players or tables a batch changed (the patches screens
apply, the table views and facts sent with a batch, the phones following one player, the
player search's index) asks here, so that a new event is classified once: an event without a
case fails ``mypy --strict`` at ``assert_never``, and the patch property test
(``tests/unit/test_patches.py``) fails for a record changed but not named here.

The keyed collections of the state are named record by record (``players``, ``tables``,
``draws``, ``calls``, ``bags``); the rest of the state (the clock, the counts, the rulings, the
histories) is compared whole by whoever builds a patch, and needs nothing here.

Each case also returns what the event puts on the players' board of seat changes
(``BoardStep``s; ``NO_LINES``: nothing), so that the board is classified in the same place:
a case that says nothing of the board fails ``mypy --strict`` (a missing return). How a line
is built and kept is the board's (``board.add``, which asks ``board_steps``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final, Literal, NamedTuple, assert_never

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
    MoveCall,
    MoveCancelled,
    Moved,
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
from .model import PlayerId, SeatChange, TableNo


class MovedOn(NamedTuple):
    """A move carried out: a "move" line (its call, if any, is done)."""

    move: Moved
    reason: SeatChange


class CallMade(NamedTuple):
    """A move called: kept as the player's last call; called again, a "recalled" line."""

    call: MoveCall


class CallDropped(NamedTuple):
    """The player's last call forgotten without a line (the player is out)."""

    player: PlayerId


class CalledOff(NamedTuple):
    """The player's last call, if any, called off: a "called_off" line at its seat."""

    player: PlayerId


class AtSeat(NamedTuple):
    """A line of the player at their seat as the event left it."""

    kind: Literal["sit_out", "disqualified", "sit_out_over"]
    player: PlayerId


class AtTable(NamedTuple):
    """A line of a table."""

    kind: Literal["breaking", "broken", "final"]
    table: TableNo


BoardStep = MovedOn | CallMade | CallDropped | CalledOff | AtSeat | AtTable
BoardSteps = tuple[BoardStep, ...]


class _Never(tuple[BoardStep, ...]):
    """``NO_LINES``'s own type: an empty tuple told apart from ``()`` by identity."""

    __slots__ = ()


#: No event of the case's types ever puts anything on the board or changes its calls: return
#: it unconditionally (an event whose lines depend on its fields returns ``()`` when it has
#: none). ``board_steps`` remembers such types, so that the fold does not walk the match for
#: them again.
NO_LINES: Final[BoardSteps] = _Never()


class Touched:
    """The records a batch of events may have changed (a superset is safe, never a subset).

    ``all_*`` flags stand for every record of a collection: every busted player (places
    move with an entry), every table (the final table formed), every draw (cleared).
    ``views_all``: every table's view may show something new (a level, a game) though no
    table record changed. ``named``: players whose name came or changed.
    """

    __slots__ = (
        "all_busted",
        "all_draws",
        "all_tables",
        "bags",
        "calls",
        "draws",
        "named",
        "players",
        "restart",
        "seated_at",
        "tables",
        "views_all",
    )

    def __init__(self) -> None:
        self.players: set[PlayerId] = set()
        self.tables: set[TableNo] = set()
        self.draws: set[PlayerId] = set()
        self.calls: set[PlayerId] = set()
        self.bags: set[TableNo] = set()
        self.named: set[PlayerId] = set()
        #: Tables whose seated players (as the state after holds them) may have changed.
        self.seated_at: set[TableNo] = set()
        self.all_busted = False
        self.all_tables = False
        self.all_draws = False
        self.views_all = False
        #: A log starts: nothing held before it stands.
        self.restart = False

    @property
    def view_tables(self) -> set[TableNo] | None:
        """The tables whose view may have changed; None: any."""
        return None if self.views_all or self.all_tables else self.tables


def touched(events: Iterable[Event]) -> Touched:
    out = Touched()
    for e in events:
        touch(e, out)
    return out


#: Event types whose case returns ``NO_LINES``: learned as the fold meets them.
_OFF_BOARD: set[type[Event]] = set()


def board_steps(e: Event) -> BoardSteps:
    """What ``e`` puts on the board (``touch``'s answer, the records it touches set aside).

    The board folds every event, and the match tries its cases one by one (some sixty
    ``isinstance`` checks for the last): an event type seen off the board is not classified
    again."""
    if type(e) in _OFF_BOARD:
        return NO_LINES
    steps = touch(e, Touched())
    if steps is NO_LINES:
        _OFF_BOARD.add(type(e))
    return steps


def touch(e: Event, into: Touched) -> BoardSteps:
    """Add what ``e`` may change to ``into``; return what it puts on the board."""
    t = into
    match e:
        case PlayerBusted(player=p, table=n, bounty_to=won):
            t.players.add(p)
            t.tables.add(n)
            t.draws.add(p)
            t.calls.add(p)
            # The eliminators' bounties (``bounty``).
            t.players.update(x.player for x in won)
            return (CallDropped(p),)
        case PlayersMoved(moves=moves, reason=reason):
            for m in moves:
                t.players.add(m.player)
                t.tables.update((m.from_.table, m.to.table))
                t.draws.add(m.player)
                t.calls.add(m.player)
            return tuple(MovedOn(m, reason) for m in moves)
        case HandStarted(table=n):
            t.tables.add(n)
            # The players excused from a move there are dealt in again.
            t.seated_at.add(n)
            return NO_LINES
        case ButtonReported(table=n) | HaltWaived(table=n) | TableOpened(table=n):
            t.tables.add(n)
            return NO_LINES
        case TableBreaking(table=n):
            t.tables.add(n)
            return (AtTable("breaking", n),)
        case TableBroken(table=n):
            t.tables.add(n)
            return (AtTable("broken", n),)
        case TableSetUp(table=n, occupants=occupants):
            t.tables.add(n)
            t.players.update(occupants.values())
            t.named.update(occupants.values())
            return NO_LINES
        case HandReported() | HandForHandDealt() | HandForHandStarted() | HandForHandEnded():
            return NO_LINES  # hand_for_hand, compared whole
        case SeatsAssigned(seats=seats, withdrawn=withdrawn):
            t.draws.update(x.player for x in seats)
            t.draws.update(withdrawn)
            return NO_LINES

        case PlayerRegistered(player=p, shifts_places=shifts):
            t.players.add(p)
            t.named.add(p)
            t.all_busted = t.all_busted or shifts
            return NO_LINES
        case PlayerRenamed(player=p):
            t.players.add(p)
            t.named.add(p)
            return NO_LINES
        case SpecialNeedsSet(player=p) | SeatLockSet(player=p) | StackSet(player=p):
            t.players.add(p)
            return NO_LINES
        case RebuyMade(player=p) | AddOnMade(player=p):
            t.players.add(p)
            return NO_LINES
        case SitOutEnded(player=p):
            t.players.add(p)
            return (AtSeat("sit_out_over", p),)
        case PlayerUnregistered(player=p, table=n):
            t.players.add(p)
            t.named.add(p)
            t.draws.add(p)
            t.calls.add(p)
            t.all_busted = True
            if n is not None:
                t.tables.add(n)
            return NO_LINES
        case BustUndone(player=p, table=n, bounty_from=bounty_from):
            t.players.add(p)
            t.tables.add(n)
            t.all_busted = True
            # The bounty goes back from its winners (and from the tournament's winner).
            t.players.update(bounty_from)
            return NO_LINES
        case PlayerSeated(player=p, table=n):
            t.players.add(p)
            t.tables.add(n)
            return NO_LINES
        case SeatsDrawn(seats=seats):
            for x in seats:
                t.players.add(x.player)
                t.tables.add(x.table)
            return NO_LINES
        case StacksCounted(stacks=stacks):
            t.players.update(c.player for c in stacks)
            return NO_LINES
        case ChipsRaced(players=raced):
            t.players.update(r.player for r in raced)
            return NO_LINES
        case TableBagged(table=n, bags=bags):
            t.bags.add(n)
            t.players.update(b.player for b in bags)
            return NO_LINES
        case MoveCancelled(player=p):
            if p is None:
                return ()
            t.calls.add(p)
            t.draws.add(p)
            t.players.add(p)
            return (CalledOff(p),)
        case MovesCalled(calls=calls):
            for c in calls:
                t.calls.add(c.player)
                t.draws.add(c.player)
            return tuple(CallMade(c) for c in calls)
        case CallsLapsed(players=players):
            t.calls.update(players)
            return tuple(CalledOff(p) for p in players)
        case FinalTableFormed(table=n):
            t.tables.add(n)
            t.all_tables = True
            t.all_draws = True
            return (AtTable("final", n),)
        case LevelChanged() | ClockStarted() | GameChanged():
            # A new level can leave any table's hand in progress at the old blinds.
            t.views_all = True
            return NO_LINES
        case RulingRecorded(penalties=penalties):
            # A disqualification puts the player out of the sit-outs; records the chips.
            t.players.update(x.player for x in penalties)
            # A warning is the player's own business; a sit-out or a disqualification the room's.
            return tuple(
                AtSeat("sit_out" if x.kind == "sit_out" else "disqualified", x.player)
                for x in penalties
                if x.kind != "warning"
            )
        case (
            ClockPaused()
            | ClockResumed()
            | ClockAdjusted()
            | TimeCalled()
            | TimeCallEnded()
            | TournamentClosed()
            | PrizeChanged()
            | StructureChanged()
            | FlightSet()
            | DayEnded()
            | FieldCarried()
            | DealProposed()
            | Announced()
            | AnnouncementCleared()
            | SatelliteEnded()
            | SeatsIssued()
            | DealUndone()
            | DrawsCommitted()
            | WitnessSet()
        ):
            return NO_LINES  # the clock, the counts, the money: compared whole
        case DrawMade(seated=pids):
            # The seats a committed draw gave: each record names the draw (``fair``).
            t.players.update(pids)
            return NO_LINES
        case BountyPaid(player=p) | TournamentFinished(winner=p):
            # A bounty paid; the winner's own bounty taken.
            t.players.add(p)
            return NO_LINES
        case DealMade(shares=shares):
            t.players.update(x.player for x in shares)
            return NO_LINES
        case (
            CapacitySet()
            | AlternateQueued()
            | AlternatesCalled()
            | AlternateSeated()
            | AlternatesLapsed()
            | AlternatesLeft()
        ):
            # The alternates' line, compared whole (a seat taken: the events after it).
            return NO_LINES
        case SeatAwarded(player=p, table=n):
            # Out of their seat with a seat won (``milestone``); the places after it move
            # when it is undone (``BustUndone``).
            t.players.add(p)
            t.tables.add(n)
            t.draws.add(p)
            t.calls.add(p)
            return NO_LINES
        case TournamentCreated():
            t.restart = True
            return NO_LINES
        case _:
            assert_never(e)
