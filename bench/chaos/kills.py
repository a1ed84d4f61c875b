"""The chaos itself: kills and storms at seeded points of the tournament's progress.

Kinds (``Chaos.plan``, each at a random point of its own slice of the progress, 0 = created,
1 = a winner, so that they spread over the whole run):

* ``server``: SIGKILL of a floor process (a staff server or the public edge, not the keeper),
  started again on the same port 0.2-2 s later (in the background: the next kill picks a
  process that is up);
* ``keeper``: SIGKILL of the process that runs the embedded Valkey (its Valkey runs on as an
  orphan; the keeper, back, stops it and starts its own): placed after every Valkey kill,
  so that they all fall in one keeper's life;
* ``valkey``: SIGKILL of Valkey, brought back by the keeper's supervisor; never sooner than
  ``STABLE`` + 1 s after it last came back (a healthy gap: the supervisor counts a restart
  that did not hold as failed, and gives up after ``FLOOR_VALKEY_RESTARTS`` failures within
  ``FLOOR_VALKEY_RESTART_WINDOW``), so that more kills than it allows failed restarts land
  in one window and it must not give up. While a Valkey kill waits for its gap at its point,
  the floorpersons wait (``gate``): every planned kill happens, at its point of the game;
* ``both``: a Valkey kill while a floor process is down;
* ``storm``: every screen cut at once, as when the venue's wifi blips.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

from floor.redisdb.supervisor import STABLE

from .cluster import FloorServer, Valkey
from .watchers import STORM_WITHIN

#: Between a Valkey's return and its next kill: more than the supervisor's ``STABLE``.
HEALTHY_GAP = STABLE + 1.0
#: How far past a kill's point the floor may get while the kill before is still under way.
LAG = 0.03

_T0 = time.monotonic()


def say(text: str) -> None:
    print(f"[{time.monotonic() - _T0:7.1f}s] {text}", flush=True)


class Chaos:
    def __init__(
        self,
        rng: random.Random,
        valkey: Valkey,
        keeper: FloorServer,
        servers: list[FloorServer],
        *,
        server_kills: int,
        valkey_kills: int,
        keeper_kills: int,
        storms: int,
        progress: Callable[[], float],
        seq: Callable[[], int],
        storm: Callable[[int], Awaitable[tuple[int, float | None]]],
    ) -> None:
        self.rng = rng
        self.valkey = valkey
        self.keeper = keeper
        #: The floor processes a ``server`` kill picks from: all but the keeper.
        self.servers = servers
        self.progress = progress
        self.seq = seq
        self.storm = storm
        # The Valkey kills spread evenly over the game (each needs its healthy gap), every
        # keeper kill after the last of them (so that they all fall in the life of the
        # supervisor that started with the soak), the rest anywhere: each at a random point
        # of its own slice of the progress.
        lo, hi = 0.02, 0.9
        outages = ["valkey"] * valkey_kills
        if server_kills and valkey_kills:
            outages[-1] = "both"  # one Valkey outage with a floor process down at the same time
        keepers = ["keeper"] * keeper_kills
        last = hi - 0.1 if keepers and outages else hi
        self.plan = _spread(rng, outages, lo + 0.05, last, jitter=0.5)
        after = max((at for at, _ in self.plan), default=lo)
        self.plan += _spread(rng, keepers, after + 0.02, hi)
        others = ["server"] * server_kills + ["storm"] * storms
        rng.shuffle(others)
        self.plan += _spread(rng, others, lo, hi)
        self.plan.sort()
        self.done: list[str] = []
        self.counts: Counter[str] = Counter()
        #: Per storm: screens dropped, seconds until all were back (None: not within a minute).
        self.storms: list[tuple[int, float | None]] = []
        #: Valkey kills since the keeper last started (all restarts by its supervisor).
        self.valkey_kills_by_keeper = 0
        #: When a Valkey kill is next allowed: at once with a supervisor that has not restarted
        #: it yet (a kill then is no failed restart), else the healthy gap after its return.
        self.valkey_ready_at = 0.0
        #: The keeper's supervisor as its ``/healthz`` said after the last Valkey kill, and
        #: the Valkey kills it had seen then.
        self.supervisor: dict[str, Any] | None = None
        self.supervised_kills = 0
        #: Seconds the floor was held: for a healthy gap, or for a kill it had got ahead of.
        self.held = 0.0
        self.held_for_gaps = 0.0
        #: The point of the next kill not under way yet (None: none is left).
        self.next_at: float | None = None
        #: Set when ``next_at`` moves on.
        self.moved = asyncio.Event()
        self.open = asyncio.Event()
        self.open.set()
        self.stopping = asyncio.Event()
        #: The floor processes being started again after their kill.
        self._restarting: dict[FloorServer, asyncio.Task[None]] = {}

    def describe(self) -> str:
        return ", ".join(f"{k}@{p:.2f}" for p, k in self.plan)

    async def gate(self, k: int = 0) -> None:
        """What floorperson ``k`` waits on before each command: a Valkey kill waiting for its
        healthy gap, or one it has got ahead of (the one before is still restarting what it
        killed), so that every kill happens at its point of the game."""
        t0 = time.monotonic()
        await self.open.wait()
        while (
            self.next_at is not None
            and not self.stopping.is_set()
            and self.progress() > self.next_at + LAG
        ):
            self.moved.clear()
            await self.moved.wait()
        if k == 0:
            self.held += time.monotonic() - t0

    async def run(self) -> None:
        for i, (at, kind) in enumerate(self.plan):
            self._next(at)
            while self.progress() < at:
                if self.stopping.is_set():
                    return
                await asyncio.sleep(0.05)
            if self.stopping.is_set():
                return
            if kind in ("valkey", "both"):
                wait = self.valkey_ready_at - time.monotonic()
                if wait > 0:
                    say(f"CHAOS: the floor waits {wait:.1f}s for Valkey's healthy gap")
                    self.open.clear()
                    try:
                        await asyncio.sleep(wait)
                    finally:
                        self.open.set()
                    self.held_for_gaps += wait
            # The floor goes on meanwhile, up to the next kill's point.
            self._next(self.plan[i + 1][0] if i + 1 < len(self.plan) else None)
            await asyncio.sleep(self.rng.uniform(0.0, 0.5))  # a random moment, mid-command
            await self.act(kind)
            self._restarted()
        self._next(None)

    def _next(self, at: float | None) -> None:
        self.next_at = at
        self.moved.set()

    async def act(self, kind: str) -> None:
        rng = self.rng
        if kind == "storm":
            k = len(self.storms) + 1
            dropped, back_s = await self.storm(k)
            self.storms.append((dropped, back_s))
            self.counts["storms"] += 1
            say(
                f"CHAOS: storm {k}: {dropped} screens dropped, "
                + (
                    f"all back and current in {back_s:.2f}s"
                    if back_s is not None
                    else f"NOT all back within {STORM_WITHIN:g}s"
                )
            )
            self.done.append(kind)
            return
        if kind == "keeper":
            await self._kill_keeper()
            self.done.append(kind)
            return
        server = await self._pick() if kind in ("server", "both") else None
        if server is not None:
            pid = server.pid
            await server.kill()
            self.counts["server_kills"] += 1
            say(f"CHAOS: SIGKILL {server.name} (pid {pid}, port {server.port}) at seq {self.seq()}")
        if kind in ("valkey", "both"):
            old = await self.valkey.kill()
            self.counts["valkey_kills"] += 1
            self.valkey_kills_by_keeper += 1
            say(f"CHAOS: SIGKILL valkey (pid {old}) at seq {self.seq()}; the keeper restarts it")
            took = await self.valkey.back(self.keeper, old)
            self.valkey_ready_at = time.monotonic() + HEALTHY_GAP
            health = await self.keeper.health()
            self.supervisor = None if health is None else health.get("valkey")
            self.supervised_kills = self.valkey_kills_by_keeper
            say(
                f"CHAOS: valkey back after {took:.2f}s (pid {self.valkey.pid}; restart "
                f"{self.valkey_kills_by_keeper} by this keeper)"
            )
        if server is not None:
            # Started again in the background: the next kill does not wait for a process
            # that takes seconds to import and answer (it picks one that is up).
            pause = rng.uniform(0.2, 2.0)
            self._restarting[server] = asyncio.create_task(self._restart(server, pause))
        self.done.append(kind)

    async def _restart(self, server: FloorServer, pause: float) -> None:
        await asyncio.sleep(pause)
        took = await server.start()
        self.counts["server_restarts"] += 1
        say(
            f"CHAOS: {server.name} restarted after {pause:.2f}s down "
            f"(pid {server.pid}, answering in {took:.2f}s)"
        )

    def _restarted(self) -> None:
        """Forget the restarts done; raise what a failed one raised."""
        for server, task in list(self._restarting.items()):
            if task.done():
                del self._restarting[server]
                task.result()

    async def _pick(self) -> FloorServer:
        """A floor process to kill, among those up."""
        while True:
            self._restarted()
            up = [s for s in self.servers if s not in self._restarting]
            if up:
                return self.rng.choice(up)
            await asyncio.wait(self._restarting.values(), return_when=asyncio.FIRST_COMPLETED)

    async def _kill_keeper(self) -> None:
        keeper = self.keeper
        pid, valkey_pid = keeper.pid, self.valkey.pid
        await keeper.kill()
        self.counts["keeper_kills"] += 1
        say(
            f"CHAOS: SIGKILL {keeper.name}, the keeper of Valkey (pid {pid}; its Valkey "
            f"{valkey_pid} runs on, unwatched) at seq {self.seq()}"
        )
        pause = self.rng.uniform(0.2, 2.0)
        await asyncio.sleep(pause)
        took = await keeper.start(healthy=True)
        self.valkey_kills_by_keeper = 0
        self.valkey_ready_at = 0.0
        self.counts["keeper_restarts"] += 1
        say(
            f"CHAOS: {keeper.name} restarted after {pause:.2f}s down (pid {keeper.pid}; it "
            f"stopped the orphan and started Valkey {self.valkey.pid}; healthy in {took:.2f}s)"
        )

    async def stop(self, task: asyncio.Task[None]) -> None:
        """No new kills; wait for the one under way to restart what it killed."""
        self.stopping.set()
        self.open.set()
        self._next(None)
        try:
            await task
        finally:
            restarts = list(self._restarting.values())
            self._restarting.clear()
            for failed in await asyncio.gather(*restarts, return_exceptions=True):
                if isinstance(failed, BaseException):
                    raise failed


def _spread(
    rng: random.Random, kinds: list[str], lo: float, hi: float, jitter: float = 1.0
) -> list[tuple[float, str]]:
    """Each of ``kinds`` at a random point of its own equal slice of ``lo..hi`` (of the
    middle ``jitter`` of it: a half keeps neighbours half a slice apart at least)."""
    width = (hi - lo) / max(1, len(kinds))
    return [
        (lo + width * (i + 0.5 + jitter * (rng.random() - 0.5)), k) for i, k in enumerate(kinds)
    ]


async def watch_exits(servers: list[FloorServer]) -> None:
    """Raises as soon as a floor process exits without the soak ending it (a crash, or the
    keeper giving up on its Valkey: exit status 69)."""
    from .floorperson import SoakFailure

    while True:
        await asyncio.sleep(0.2)
        for s in servers:
            status = s.exited_by_itself
            if status is not None:
                raise SoakFailure(
                    f"{s.name} exited by itself with status {status}"
                    + (" (it gave up on its Valkey)" if status == 69 else "")
                    + f"; see {s.log}"
                )
