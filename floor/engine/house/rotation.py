"""The room's rotation: every table's dealer pushed after ``push_every`` by the next dealer
free, breaks every ``break_every`` downs, early outs as the room shrinks.

``Rotation`` works on a copy of the room (``dealers.copy_room``) and emits events in time
order, applying each as it goes, so that a decision sees what the ones before it did. Each
moment is made at its own instant, however late it is written: a push due at 14:30 written
at 14:30:04 (the clock driver late, or a restart in between) is recorded at 14:30 and the next
one is due at 15:00, so a decision made late, or twice, changes nothing.

At a moment: the breaks that end there end (their dealers join the pool, in the order they
became free), then every table due is served, the ones waiting longest and the house's
first (a final table, then the tournaments in ``priority``) first: the next dealer in the
pool who deals the table's game comes in (the dealer room's pin first), and the dealer
pushed out goes on break after ``break_every`` downs, home if an early out, else to the pool,
where a table served later at the same moment may take them ("push at 14:30, go to table 42").
With nobody free, breaks are shortened (the longest rested first, never below ``min_rest``)
or the table waits (``when_short``; after ``max_wait`` it shortens a break too).
"""

from __future__ import annotations

import bisect
import heapq
import math
from collections.abc import Callable, Iterable

from .dealers import Dealer, DealerId, Room, RoomSettings, RoomTable, TableKey, deals
from .dealers_events import (
    Advanced,
    ClockedIn,
    ClockedOut,
    DealerMarked,
    DealerRemoved,
    DealerSaved,
    Destination,
    FinalDealersSet,
    Leaving,
    Pinned,
    Released,
    RoomEvent,
    Sat,
    SettingsSet,
    Swapped,
    TableChanged,
    TableJoined,
    TableLeft,
    Waiting,
    apply_room,
)

# Heap entries: (instant, kind, key); kinds in the order a moment takes them.
_BREAK_ENDS = 0
_DUE = 1
_WAKE = 2
#: Moments one decision may make: far more than a day of a 10,000-player room's pushes.
MAX_MOMENTS = 1_000_000


def needed(tables: int, settings: RoomSettings) -> int:
    """Dealers ``tables`` tables need to play without a wait: each dealer deals
    ``break_every`` downs of ``push_every`` and rests ``break_length``. (Pure: the forecaster
    asks it for every half hour of a day.)"""
    if tables <= 0:
        return 0
    work = settings.push_every * settings.break_every
    return math.ceil(tables * (work + settings.break_length) / work - 1e-9)


def needed_by_slot(tables: Iterable[int], settings: RoomSettings) -> list[int]:
    """``needed`` for each slot of a day (the tables expected per half hour, say)."""
    return [needed(n, settings) for n in tables]


def next_due(room: Room) -> float | None:
    """When the rotation next has something to do (a push, a break's end, a waiting table's
    next chance), or None."""
    s = room.settings
    times: list[float] = []
    short = False
    for table in room.tables.values():
        if table.dealer is None or table.waiting is not None:
            short = True
            if table.waiting is not None and s.when_short == "tables_wait":
                times.append(table.waiting + s.max_wait)
        elif not table.held and table.due is not None:
            times.append(table.due)
    for d in room.dealers.values():
        if d.status == "break" and d.until is not None:
            times.append(d.until)
            if short:
                times.append(d.since + s.min_rest)
    later = [t for t in times if t > room.at]
    return min(later) if later else None


class Rotation:
    """The rotation over ``room`` (a copy: it is changed), from ``room.at`` on."""

    def __init__(self, room: Room, *, record: bool = True) -> None:
        self.room = room
        self.events: list[RoomEvent] = []
        self.record = record
        #: Called with each event as it is applied (a forecast's eye).
        self.listeners: list[Callable[[RoomEvent], None]] = []
        self._heap: list[tuple[float, int, str]] = []
        #: The final-table dealers, each to the final table they were chosen for.
        self._final: dict[DealerId, TableKey] = {}
        #: The dealer room's pins: each pinned dealer to the table they come to.
        self._pinned: dict[DealerId, TableKey] = {}
        #: Dealers in the pool and on a break, and the tables that wait or have no dealer:
        #: kept as events change them, so that a moment looks at these alone. The pool is
        #: kept in the order its dealers came to it, (since, id), with each one's place: a
        #: push takes the first free dealer there without looking at the rest (a room of
        #: 5,000 dealers whose 1,000 tables were pushed together looked at every one for
        #: each table: 11 s of the engine for one round of pushes).
        self._queue: list[tuple[float, DealerId]] = []
        self._queued: dict[DealerId, tuple[float, DealerId]] = {}
        self._resting: set[DealerId] = set()
        self._needy: set[TableKey] = set()
        self._index()
        self._from = room.at
        s = room.settings
        for table in room.tables.values():
            self._schedule_table(table)
            self._reneed(table.key)
            if table.waiting is not None and s.when_short == "tables_wait":
                self._push(table.waiting + s.max_wait, _WAKE, "")
        for d in room.dealers.values():
            self._schedule_break(d)
            self._restatus(d.id)
        heapq.heapify(self._heap)

    # Emitting ---------------------------------------------------------------------------------

    def emit(self, event: RoomEvent) -> None:
        tables, dealers = self._touches(event)
        apply_room(self.room, event)
        if self.record:
            self.events.append(event)
        for listen in self.listeners:
            listen(event)
        for key in tables:
            self._reneed(key)
        for did in dealers:
            self._restatus(did)
        s = self.room.settings
        match event:
            case Sat(key=key, dealer=did):
                self._schedule_table(self.room.tables[key])
                if self._pinned.get(did) == key:
                    del self._pinned[did]
            case Released(dealer=did):
                d = self.room.dealers[did]
                self._schedule_break(d)
                if d.status in ("home", "off"):
                    self._pinned.pop(did, None)
            case Waiting(since=since) if since is not None and s.when_short == "tables_wait":
                self._push(since + s.max_wait, _WAKE, "")
            case TableChanged(key=key):
                self._schedule_table(self.room.tables[key])
                self._index()
            case Pinned() | TableJoined() | TableLeft() | FinalDealersSet() | SettingsSet():
                self._index()
            case _:
                pass

    def _touches(self, event: RoomEvent) -> tuple[list[TableKey], list[DealerId]]:
        """The tables and dealers ``event`` may change (read before it is applied)."""
        room = self.room
        match event:
            case Swapped(a=a, b=b):
                return [a, b], []
            case Sat(dealer=did, key=key):
                held = room.dealers[did].table
                return [key] if held is None else [key, held], [did]
            case (
                Released(dealer=did)
                | ClockedIn(dealer=did)
                | ClockedOut(dealer=did)
                | DealerMarked(dealer=did)
                | Leaving(dealer=did)
                | DealerSaved(dealer=did)
                | DealerRemoved(dealer=did)
            ):
                d = room.dealers.get(did)
                return ([] if d is None or d.table is None else [d.table]), [did]
            case (
                Waiting(key=key) | TableJoined(key=key) | TableLeft(key=key) | TableChanged(key=key)
            ):
                return [key], []
            case _:
                return [], []

    def _reneed(self, key: TableKey) -> None:
        table = self.room.tables.get(key)
        if table is not None and (table.dealer is None or table.waiting is not None):
            self._needy.add(key)
        else:
            self._needy.discard(key)

    def _restatus(self, did: DealerId) -> None:
        d = self.room.dealers.get(did)
        status = None if d is None else d.status
        place = (d.since, did) if d is not None and status == "pool" else None
        held = self._queued.get(did)
        if held != place:
            if held is not None:
                del self._queue[bisect.bisect_left(self._queue, held)]
                del self._queued[did]
            if place is not None:
                bisect.insort(self._queue, place)
                self._queued[did] = place
        (self._resting.add if status == "break" else self._resting.discard)(did)

    def _push(self, at: float, kind: int, key: str) -> None:
        heapq.heappush(self._heap, (at, kind, key))

    def _schedule_table(self, table: RoomTable) -> None:
        if table.dealer is not None and table.due is not None and not table.held:
            self._push(table.due, _DUE, table.key)

    def _schedule_break(self, d: Dealer) -> None:
        if d.status == "break" and d.until is not None:
            self._push(d.until, _BREAK_ENDS, d.id)
            if d.since + self.room.settings.min_rest < d.until:
                self._push(d.since + self.room.settings.min_rest, _WAKE, "")

    def _index(self) -> None:
        room = self.room
        self._final = {
            did: key
            for key, table in room.tables.items()
            if table.final
            for did in room.final_dealers.get(table.tournament, ())
        }
        self._pinned = {t.pin: key for key, t in room.tables.items() if t.pin is not None}

    # Time -------------------------------------------------------------------------------------

    def advance(self, now: float) -> None:
        """Everything due after ``room.at`` up to ``now``, each at its own instant."""
        heap = self._heap
        room = self.room
        for _ in range(MAX_MOMENTS):
            while heap and not self._live(heap[0]):
                heapq.heappop(heap)
            if not heap or heap[0][0] > now:
                return
            t = heap[0][0]
            ends: list[DealerId] = []
            dues: list[TableKey] = []
            while heap and heap[0][0] <= t:
                entry = heapq.heappop(heap)
                if not self._live(entry):
                    continue
                if entry[1] == _BREAK_ENDS:
                    ends.append(entry[2])
                elif entry[1] == _DUE:
                    dues.append(entry[2])
            for did in sorted(set(ends)):
                self.emit(Released(dealer=did, at=t, to="pool"))
            self.serve(t, dues)
            room.at = max(room.at, t)
        raise AssertionError("the rotation did not settle")

    def _live(self, entry: tuple[float, int, str]) -> bool:
        at, kind, key = entry
        if at <= self.room.at:
            return False
        if kind == _BREAK_ENDS:
            d = self.room.dealers.get(key)
            return d is not None and d.status == "break" and d.until == at
        if kind == _DUE:
            table = self.room.tables.get(key)
            return (
                table is not None
                and table.dealer is not None
                and table.waiting is None
                and not table.held
                and table.due == at
            )
        return True

    def serve(self, t: float, dues: Iterable[TableKey] = ()) -> None:
        """Serve at ``t`` the tables ``dues`` and every table that waits or has no dealer:
        the ones waiting longest and the house's first."""
        room = self.room
        keys = set(dues)
        for key in self._needy:
            table = room.tables[key]
            if table.dealer is None or not table.held:
                keys.add(key)
        pending = sorted(keys, key=self._rank)
        progress = True
        while pending and progress:
            progress = False
            still = []
            for key in pending:
                if self._push_at(room.tables[key], t):
                    progress = True
                else:
                    still.append(key)
            pending = still
        for key in pending:
            if room.tables[key].waiting is None:
                self.emit(Waiting(key=key, since=t))

    def serve_due(self, now: float) -> None:
        """Serve every table due by ``now`` (after a change made at ``now``: a table's
        hand-for-hand over, a dealer gone)."""
        dues = [
            key
            for key, table in self.room.tables.items()
            if table.dealer is not None
            and not table.held
            and table.due is not None
            and table.due <= now
        ]
        self.serve(now, dues)

    def _rank(self, key: TableKey) -> tuple[int, int, float, TableKey]:
        table = self.room.tables[key]
        priority = self.room.settings.priority
        order = priority.index(table.tournament) if table.tournament in priority else len(priority)
        since = table.waiting if table.waiting is not None else table.due or table.opened
        return (0 if table.final else 1, order, since, key)

    # A push -----------------------------------------------------------------------------------

    def _push_at(self, table: RoomTable, t: float) -> bool:
        """The table's push (or its first dealer) at ``t``; False: nobody is free."""
        out = table.dealer
        coming = self.pick(table, t, exclude=out)
        if coming is None:
            return False
        if out is not None:
            to, until = self.destination(self.room.dealers[out], t)
            self.emit(Released(dealer=out, at=t, to=to, until=until))
        due = t + self.room.settings.push_every
        self.emit(Sat(dealer=coming, key=table.key, at=t, due=due))
        return True

    def destination(self, d: Dealer, t: float) -> tuple[Destination, float | None]:
        """Where a dealer goes from a table at ``t``: home (an early out), on break after
        ``break_every`` downs, else the pool."""
        s = self.room.settings
        if d.leaving:
            return "home", None
        if d.downs + 1 >= s.break_every:
            return "break", t + s.break_length
        return "pool", None

    def _free_for(self, d: Dealer, table: RoomTable, exclude: DealerId | None) -> bool:
        if d.id == exclude or d.mark is not None or d.leaving or not deals(d.games, table.game):
            return False
        final = self._final.get(d.id)
        if final is not None and final != table.key:
            return False
        pinned = self._pinned.get(d.id)
        if pinned is not None and pinned != table.key:
            return False
        if table.final:
            chosen = self.room.final_dealers.get(table.tournament, ())
            if chosen and d.id not in chosen:
                return False
        return True

    def pick(self, table: RoomTable, t: float, exclude: DealerId | None) -> DealerId | None:
        """The dealer who comes to ``table`` at ``t``: the pinned one if free, else the one
        longest in the pool (a dealer of mixed games last, but at a mixed table); with nobody
        there, one called back from a break (see the top)."""
        room = self.room
        if table.pin is not None:
            pinned = room.dealers.get(table.pin)
            if (
                pinned is not None
                and pinned.status == "pool"
                and self._free_for(pinned, table, exclude)
            ):
                return pinned.id
        # The longest in the pool first; a dealer of mixed games deals another table last
        # (the mixed tables want them): the first of them free is kept for want of another.
        mixed: DealerId | None = None
        for _, did in self._queue:
            d = room.dealers[did]
            last = "mixed" in d.games and table.game != "mixed"
            if (not last or mixed is None) and self._free_for(d, table, exclude):
                if not last:
                    return did
                mixed = did
        if mixed is not None:
            return mixed
        s = room.settings
        waited = table.waiting is not None and t - table.waiting >= s.max_wait
        if s.when_short != "shorten_breaks" and not waited:
            return None
        rested: Dealer | None = None
        for did in self._resting:
            d = room.dealers[did]
            if (
                t - d.since >= s.min_rest
                and self._free_for(d, table, exclude)
                and (rested is None or (d.since, d.id) < (rested.since, rested.id))
            ):
                rested = d
        if rested is None:
            return None
        self.emit(Released(dealer=rested.id, at=t, to="pool", shortened=True))
        return rested.id

    # Early outs -------------------------------------------------------------------------------

    def early_outs(self, t: float) -> None:
        """Send home, in the house's order, the dealers the room no longer needs (beyond
        ``reserve``): at once from the pool or a break, at their next push from a table.
        The final tables' chosen dealers stay."""
        room = self.room
        s = room.settings
        active = [
            d
            for d in room.dealers.values()
            if d.status in ("pool", "dealing", "break") and d.mark is None and not d.leaving
        ]
        surplus = len(active) - needed(len(room.tables), s) - s.reserve
        if surplus <= 0:
            return
        for d in early_order(room, [d for d in active if d.id not in self._final])[:surplus]:
            if d.status == "dealing":
                self.emit(Leaving(dealer=d.id, at=t))
            else:
                self.emit(Released(dealer=d.id, at=t, to="home"))

    def done(self, now: float) -> list[RoomEvent]:
        """The events made, with the instant the rotation was brought to (if any)."""
        if self.events and now > self._from and not isinstance(self.events[-1], Advanced):
            self.emit(Advanced(at=now))
        return self.events


def early_order(room: Room, dealers: list[Dealer]) -> list[Dealer]:
    """``dealers`` in the order they go home early (``RoomSettings.early_outs``)."""
    how = room.settings.early_outs
    if how == "last_in":
        return sorted(dealers, key=lambda d: (-(d.clocked_in or 0.0), d.id))
    if how == "list":
        listed = {did: i for i, did in enumerate(room.early_list)}
        n = len(listed)
        return sorted(dealers, key=lambda d: (listed.get(d.id, n), d.clocked_in or 0.0, d.id))
    return sorted(dealers, key=lambda d: (d.clocked_in or 0.0, d.id))
