"""What each event touches: the records of the state it may change, one case per event.

Everything that must know which players or tables a batch changed (the patches screens
apply, the table views and facts sent with a batch, the phones following one player, the
player search's index) asks here, so that a new event is classified once: an event without a
case fails ``mypy --strict`` at ``assert_never``, and the patch property test
(``tests/unit/test_patches.py``) fails for a record changed but not named here.

The keyed collections of the state are named record by record (``players``, ``tables``,
``draws``, ``calls``, ``bags``); the rest of the state (the clock, the counts, the rulings, the
histories) is compared whole by whoever builds a patch, and needs nothing here.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import assert_never

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
from .model import PlayerId, TableNo


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


def touch(e: Event, into: Touched) -> None:
    """Add what ``e`` may change to ``into``."""
    t = into
    match e:
        case PlayerBusted(player=p, table=n, bounty_to=won):
            t.players.add(p)
            t.tables.add(n)
            t.draws.add(p)
            t.calls.add(p)
            # The eliminators' bounties (``bounty``).
            t.players.update(x.player for x in won)
        case PlayersMoved(moves=moves):
            for m in moves:
                t.players.add(m.player)
                t.tables.update((m.from_.table, m.to.table))
                t.draws.add(m.player)
                t.calls.add(m.player)
        case HandStarted(table=n):
            t.tables.add(n)
            # The players excused from a move there are dealt in again.
            t.seated_at.add(n)
        case ButtonReported(table=n) | HaltWaived(table=n) | TableBreaking(table=n):
            t.tables.add(n)
        case TableBroken(table=n) | TableOpened(table=n):
            t.tables.add(n)
        case TableSetUp(table=n, occupants=occupants):
            t.tables.add(n)
            t.players.update(occupants.values())
            t.named.update(occupants.values())
        case HandReported() | HandForHandDealt() | HandForHandStarted() | HandForHandEnded():
            pass  # hand_for_hand, compared whole
        case SeatsAssigned(seats=seats, withdrawn=withdrawn):
            t.draws.update(x.player for x in seats)
            t.draws.update(withdrawn)

        case PlayerRegistered(player=p, shifts_places=shifts):
            t.players.add(p)
            t.named.add(p)
            t.all_busted = t.all_busted or shifts
        case PlayerRenamed(player=p):
            t.players.add(p)
            t.named.add(p)
        case SpecialNeedsSet(player=p) | SeatLockSet(player=p) | StackSet(player=p):
            t.players.add(p)
        case RebuyMade(player=p) | AddOnMade(player=p) | SitOutEnded(player=p):
            t.players.add(p)
        case PlayerUnregistered(player=p, table=n):
            t.players.add(p)
            t.named.add(p)
            t.draws.add(p)
            t.calls.add(p)
            t.all_busted = True
            if n is not None:
                t.tables.add(n)
        case BustUndone(player=p, table=n, bounty_from=bounty_from):
            t.players.add(p)
            t.tables.add(n)
            t.all_busted = True
            # The bounty goes back from its winners (and from the tournament's winner).
            t.players.update(bounty_from)
        case PlayerSeated(player=p, table=n):
            t.players.add(p)
            t.tables.add(n)
        case SeatsDrawn(seats=seats):
            for x in seats:
                t.players.add(x.player)
                t.tables.add(x.table)
        case StacksCounted(stacks=stacks):
            t.players.update(c.player for c in stacks)
        case ChipsRaced(players=raced):
            t.players.update(r.player for r in raced)
        case TableBagged(table=n, bags=bags):
            t.bags.add(n)
            t.players.update(b.player for b in bags)
        case MoveCancelled(player=p):
            if p is not None:
                t.calls.add(p)
                t.draws.add(p)
                t.players.add(p)
        case MovesCalled(calls=calls):
            for c in calls:
                t.calls.add(c.player)
                t.draws.add(c.player)
        case CallsLapsed(players=players):
            t.calls.update(players)
        case FinalTableFormed(table=n):
            t.tables.add(n)
            t.all_tables = True
            t.all_draws = True
        case LevelChanged() | ClockStarted() | GameChanged():
            # A new level can leave any table's hand in progress at the old blinds.
            t.views_all = True
        case RulingRecorded(penalties=penalties):
            # A disqualification puts the player out of the sit-outs; records the chips.
            t.players.update(x.player for x in penalties)
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
            pass  # the clock, the counts, the money: compared whole
        case DrawMade(seated=pids):
            # The seats a committed draw gave: each record names the draw (``fair``).
            t.players.update(pids)
        case BountyPaid(player=p) | TournamentFinished(winner=p):
            # A bounty paid; the winner's own bounty taken.
            t.players.add(p)
        case DealMade(shares=shares):
            t.players.update(x.player for x in shares)
        case (
            CapacitySet()
            | AlternateQueued()
            | AlternatesCalled()
            | AlternateSeated()
            | AlternatesLapsed()
            | AlternatesLeft()
        ):
            pass  # the alternates' line, compared whole (a seat taken: the events after it)
        case SeatAwarded(player=p, table=n):
            # Out of their seat with a seat won (``milestone``); the places after it move
            # when it is undone (``BustUndone``).
            t.players.add(p)
            t.tables.add(n)
            t.draws.add(p)
            t.calls.add(p)
        case TournamentCreated():
            t.restart = True
        case _:
            assert_never(e)
