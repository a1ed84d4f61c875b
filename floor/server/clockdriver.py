"""The clock driver: writes level changes and expired time calls at the right moment.

Screens count down by themselves from the instant a level ends; the level change itself must
be written once, by one process, on time, also after a restart or a crash. So the processes
hold a lease (``ClockLease``): the holder renews it every second or so and drives every live
tournament's clock; if it dies, the lease expires within ``ttl`` and another process takes
over, writing whatever came due meanwhile (the engine times each change from the end of the
previous level, so a late write does not shift the schedule). A ``Tick`` is keyed by the
tournament's version, so even two drivers racing at a handover cannot write it twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import time
from collections.abc import Callable

from ..engine import alternates, rulings
from ..engine.commands import Tick
from ..engine.state import Tournament
from ..store.errors import StoreError
from ..store.house import House
from ..store.ports import Bus, ClockLease, Resubscribed
from ..store.service import Service
from .dealer_driver import RoomDriver

log = logging.getLogger(__name__)

#: Seconds between two looks for the house's holds a dead process left unsettled.
SWEEP_EVERY = 30.0


def next_due(t: Tournament) -> float | None:
    """When something next comes due: the end of the level, of a time call or of a sit-out
    of minutes. Nothing once the tournament has its winner: its clock stopped with the last
    bust-out."""
    s = t.state
    if s.winner is not None:
        return None
    times = [c.ends_at for c in s.time_calls]
    # A called alternate's time to take the seat: the next is called when it runs out.
    times += alternates.deadlines(s)
    if (sit_out := rulings.next_end(s)) is not None:
        times.append(sit_out)
    c = s.clock
    last_level = s.structure is None or c.level + 1 >= len(s.structure.levels)
    if c.running and c.ends_at is not None and not last_level:
        times.append(c.ends_at)
    return min(times) if times else None


class ClockDriver:
    """Holds the lease and writes what comes due, on the store it is given.

    It runs on a thread and an event loop of its own (``clock_thread``), with its own
    connections and its own copies of the tournaments, kept current from the bus: the
    server's loop may be busy with a command that registers a thousand players into a room
    of 10,000 (17 s), and a level change waiting behind it would be written that late.
    """

    def __init__(
        self,
        store: Service,
        lease: ClockLease,
        *,
        bus: Bus | None = None,
        house: House | None = None,
        room: RoomDriver | None = None,
        on_level: Callable[[str], None] | None = None,
        ttl: float = 5.0,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.lease = lease
        self.bus = bus
        #: Its holds left unsettled by a process that died are settled here (``settle_stale``).
        self.house = house
        #: The dealer room's tables and pushes (``dealer_driver``).
        self.room = room
        #: Told of each level change written here (the forecaster's forecast at each level):
        #: the driver sees every live tournament's, whatever screens are open on them.
        self.on_level = on_level
        self.ttl = ttl
        self.clock = clock
        self.node = f"{socket.gethostname()}:{os.getpid()}:{id(self):x}"
        self._held: set[str] = set()
        self._tasks: list[asyncio.Task[None]] = []
        self.holding = False

    async def start(self) -> None:
        self._tasks = [asyncio.create_task(self._run(), name="clock-driver")]
        if self.bus is not None:
            self._tasks.append(asyncio.create_task(self._read(self.bus), name="clock-bus"))

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if self.holding:
            # Hand over at once rather than after the lease runs out (unreleased, it runs
            # out within its ttl anyway).
            with contextlib.suppress(StoreError):
                await self.lease.release(self.node)
            self.holding = False

    async def _read(self, bus: Bus) -> None:
        """Our copies kept current: every batch of a tournament held, from any process."""
        async for item in bus.incoming():
            if isinstance(item, Resubscribed):
                self.store.forget_all()  # batches may have been missed: reload when used
                if self.room is not None:
                    self.room.lost()  # and the room looks at every tournament's tables again
            else:
                await self.store.apply_published(item)
                if self.room is not None:
                    # A batch that may change which tables play marks its tournament.
                    self.room.saw(item)

    async def _run(self) -> None:
        renew_every = self.ttl / 3
        last_scan = 0.0
        last_sweep = 0.0
        tids: list[str] = []
        while True:
            try:
                self.holding = await self.lease.hold(self.node, self.ttl)
            except StoreError as e:
                self.holding = False
                log.warning("clock lease unavailable", extra={"error": str(e)})
                await asyncio.sleep(renew_every)
                continue
            if not self.holding:
                if self.room is not None:
                    self.room.lost()
                await self._keep([])
                await asyncio.sleep(renew_every)
                continue
            now = self.clock()
            if now - last_scan > renew_every or not tids:
                with contextlib.suppress(StoreError):
                    # A closed tournament's clock never runs again: not followed at all.
                    tids = [s.id for s in await self.store.summaries() if s.status != "closed"]
                    await self._keep(tids)
                last_scan = now
            if self.house is not None and now - last_sweep > SWEEP_EVERY:
                last_sweep = now
                with contextlib.suppress(StoreError):
                    await self.house.settle_stale(self.store.log.result)
            wake = now + renew_every
            for tid in tids:
                due = await self._drive(tid)
                if due is not None:
                    wake = min(wake, due)
            if self.room is not None:
                try:
                    due = await self.room.drive(tids)
                    if due is not None:
                        wake = min(wake, due)
                except StoreError as e:
                    log.warning("dealer room could not write", extra={"error": e.message})
                except Exception:
                    # The level changes must go on whatever the dealer room's trouble.
                    log.exception("the dealer room's round failed")
            await asyncio.sleep(max(0.0, wake - self.clock()))

    async def _keep(self, tids: list[str]) -> None:
        """Hold copies of ``tids`` only: the others' copies and subscriptions go."""
        for tid in self._held - set(tids):
            self.store.forget(tid)
            if self.bus is not None:
                with contextlib.suppress(StoreError):
                    await self.bus.unfollow(tid)
        self._held = set(tids)

    def _level_changed(self, tid: str) -> None:
        if self.on_level is None:
            return
        try:
            self.on_level(tid)
        except Exception:
            # The level changes must go on whatever the listener's trouble.
            log.exception("a level change's listener failed", extra={"tournament": tid})

    async def _drive(self, tid: str) -> float | None:
        """Write what is due now; return when the next thing comes due."""
        try:
            t, version = await self.store.tournament(tid)
            due = next_due(t)
            if due is not None and due <= self.clock():
                level = t.state.clock.level
                outcome = await self.store.execute(tid, Tick(), f"tick:{tid}:{version}")
                if outcome.events:
                    log.info("clock", extra={"tournament": tid, "events": outcome.events})
                t, version = await self.store.tournament(tid)
                due = next_due(t)
                if t.state.clock.level != level:
                    self._level_changed(tid)
            return due
        except StoreError as e:
            log.warning(
                "clock driver could not write", extra={"tournament": tid, "error": e.message}
            )
            return None
