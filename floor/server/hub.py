"""The fan-out hub: every batch of events, from any process, to every screen of this process.

Each process follows, on the bus (``floor.store.ports.Bus``), the tournaments it holds. A
batch arrives as the bytes the writing process encoded; the hub folds it into this process's copy
of the tournament and hands the same bytes to every screen, without waiting on any of them:
each screen has a bounded queue, and one that falls behind is dropped and resynchronises
when it reconnects. Screens that miss a batch (a gap in the sequence numbers) are caught up
from the event log, or sent a fresh snapshot when too much is missing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Coroutine
from typing import Any, Protocol, TypeVar

import msgspec

from ..engine.state import Tournament
from ..protocol import batch_header, encode_derived, events_message
from ..store.ports import Bus, Resubscribed
from ..store.service import Service
from .fanout import frame
from .metrics import Metrics
from .redact import View
from .views import RoleViews, Views

log = logging.getLogger(__name__)

#: More missing events than this and a screen gets a snapshot instead of a catch-up.
CATCH_UP_LIMIT = 2000


class Subscriber(Protocol):
    """A screen (or an internal follower) watching one tournament."""

    tid: str
    #: The last sequence number it has been given.
    seq: int
    #: Batches held back while it is being caught up; None when live.
    pending: list[tuple[int, int, bytes]] | None

    #: True for this process's own followers (not screens).
    internal: bool

    def push(self, data: bytes, framed: bytes | None = None) -> bool:
        """Send without waiting (``framed``: the same message as a websocket frame, built
        once for everybody); False when the screen is too far behind."""
        ...

    def drop(self, code: int, reason: str) -> None:
        """Disconnect: the screen reconnects and resynchronises."""
        ...


K = TypeVar("K")
T = TypeVar("T")


async def _shared(
    running: dict[K, asyncio.Future[T]], key: K, start: Callable[[], Coroutine[Any, Any, T]]
) -> T:
    """What ``start()`` returns, started once for all the callers asking while it runs."""
    future = running.get(key)
    if future is None:
        future = running[key] = asyncio.ensure_future(start())
        future.add_done_callback(lambda done: _finished(running, key, done))
    # Shielded: one caller going away (a screen closing) must not cancel it for the others.
    return await asyncio.shield(future)


def _finished(running: dict[K, asyncio.Future[T]], key: K, done: asyncio.Future[T]) -> None:
    running.pop(key, None)
    if not done.cancelled():
        done.exception()  # each caller raises it; taken here too, should none be left


class Heartbeat(msgspec.Struct, frozen=True, tag="heartbeat", tag_field="type"):
    server_time: float


_encoder = msgspec.json.Encoder()


class Hub:
    def __init__(
        self,
        store: Service,
        bus: Bus,
        metrics: Metrics,
        *,
        heartbeat: float = 10.0,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.bus = bus
        self.metrics = metrics
        self.heartbeat = heartbeat
        self.clock = clock
        self._subs: dict[str, set[Subscriber]] = {}
        self._tasks: list[asyncio.Task[None]] = []
        #: The view each subscriber is shown (the staff one unless joined as another).
        self._view_of: dict[Subscriber, View] = {}
        #: Subscriptions under way, by tournament (see ``_follow``), and catch-ups being
        #: read, by tournament, since and version (see ``_missed``).
        self._following: dict[str, asyncio.Future[None]] = {}
        self._reading: dict[tuple[str, int, int], asyncio.Future[tuple[int, Views] | None]] = {}
        self.views = RoleViews(metrics)
        store.listen(self._written)

    # Life cycle ------------------------------------------------------------------------------

    async def start(self) -> None:
        self._tasks = [
            asyncio.create_task(self._read(), name="hub-reader"),
            asyncio.create_task(self._beat(), name="hub-heartbeat"),
        ]

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await self.bus.close()

    @property
    def clients(self) -> int:
        """Screens connected to this process (not its own followers)."""
        return sum(not sub.internal for subs in self._subs.values() for sub in subs)

    # Joining and leaving ---------------------------------------------------------------------

    async def join(self, sub: Subscriber, since: int | None, view: View = "staff") -> None:
        """Start following: a snapshot (or what was missed since ``since``), then live, each
        message as ``view`` is shown it."""
        tid = sub.tid
        await self._follow(tid)
        sub.pending = []
        self._view_of[sub] = view
        self._subs.setdefault(tid, set()).add(sub)
        try:
            await self._catch_up(sub, since)
        except BaseException:
            self.leave(sub)
            raise

    def resync(self, sub: Subscriber, since: int | None) -> None:
        """The screen asked again (it saw a gap): catch it up from ``since`` (None: send a
        snapshot)."""
        if sub.pending is None:
            sub.pending = []
            asyncio.get_running_loop().create_task(self._catch_up_safely(sub, since))

    def leave(self, sub: Subscriber) -> None:
        self._view_of.pop(sub, None)
        subs = self._subs.get(sub.tid)
        if subs is None:
            return
        subs.discard(sub)
        if not subs:
            del self._subs[sub.tid]
            asyncio.get_running_loop().create_task(self._unfollow_later(sub.tid))

    async def _follow(self, tid: str) -> None:
        """Follow a tournament's batches; a copy held from before is dropped (reloaded).

        Screens joining while the subscription is under way wait for it too: went ahead, they
        were sent the copy about to be dropped, and the whole room's snapshot was built twice.
        """
        await _shared(self._following, tid, lambda: self._subscribe(tid))

    async def _subscribe(self, tid: str) -> None:
        if await self.bus.follow(tid):
            # Anything written before the subscription took effect is not in our copy.
            self.store.forget(tid)

    async def _unfollow_later(self, tid: str, grace: float = 30.0) -> None:
        await asyncio.sleep(grace)
        if tid in self._subs or not self.bus.following(tid):
            return
        self.views.forget(tid)
        await self.bus.unfollow(tid)
        # Without the channel our copy goes stale: reload it when next needed.
        self.store.forget(tid)

    # Catching up ---------------------------------------------------------------------------

    async def _catch_up(self, sub: Subscriber, since: int | None) -> None:
        """Bring ``sub`` to the current version, then release the batches held meanwhile."""
        tid = sub.tid
        view = self._view_of.get(sub, "staff")
        while True:
            t, version = await self.store.tournament(tid)
            # Nothing missed: what comes next arrives live (held in ``pending`` meanwhile).
            current = since == version
            if since is not None and since < version:
                missed = await self._missed(tid, t, since, version)
                if missed is not None:
                    version, views = missed
                    message = views.view(view)
                    sub.push(message.data, message.framed)
                    current = True
                else:
                    t, version = await self.store.tournament(tid)
            if not current:
                message = self.views.snapshot(tid, t, version).view(view)
                sub.push(message.data, message.framed)
            sub.seq = version
            self.metrics.resyncs += 1
            held = sub.pending or []
            sub.pending = None
            gap = False
            for first, last, data in held:
                if last <= sub.seq:
                    continue
                if first > sub.seq + 1:
                    gap = True
                    break
                sub.push(data)
                sub.seq = last
            if not gap:
                return
            sub.pending = []
            since = sub.seq

    async def _missed(
        self, tid: str, t: Tournament, since: int, version: int
    ) -> tuple[int, Views] | None:
        """The events after ``since`` (up to the version they reach), or None when too many.

        Read and built once for all the screens asking together: after a restart the screens
        of a room reconnect at once, from the same number.
        """
        kept = self.views.catch_up(tid, t, since, version)
        if kept is not None:
            return version, kept
        return await _shared(
            self._reading, (tid, since, version), lambda: self._read_missed(tid, since)
        )

    async def _read_missed(self, tid: str, since: int) -> tuple[int, Views] | None:
        missed = await self.store.events_since(tid, since, limit=CATCH_UP_LIMIT)
        t, version = await self.store.tournament(tid)
        if missed is None or len(missed) < version - since:
            return None
        data = events_message(tid, since + 1, missed[: version - since], encode_derived(t))
        return version, self.views.keep_catch_up(tid, t, since, version, data)

    def _deliver(self, sub: Subscriber, first: int, last: int, batch: Views) -> bool:
        """Hand the batch to ``sub`` if it is the next one it needs; True if sent."""
        if sub.pending is not None:
            sub.pending.append((first, last, batch.view(self._view_of.get(sub, "staff")).data))
            return False
        if last <= sub.seq:
            return False
        message = batch.view(self._view_of.get(sub, "staff"))
        if first > sub.seq + 1:
            sub.pending = [(first, last, message.data)]
            since = sub.seq
            asyncio.get_running_loop().create_task(self._catch_up_safely(sub, since))
            return False
        if sub.push(message.data, message.framed):
            sub.seq = last
            self.metrics.messages_out += 1
            return True
        return False

    async def _catch_up_safely(self, sub: Subscriber, since: int | None) -> None:
        try:
            await self._catch_up(sub, since)
        except Exception:
            log.exception("catching up a screen failed", extra={"tournament": sub.tid})
            sub.drop(1011, "could not catch up: reconnect")

    # The reader and the heartbeat ----------------------------------------------------------

    async def _read(self) -> None:
        async for item in self.bus.incoming():
            if isinstance(item, Resubscribed):
                self._resubscribed()
            else:
                await self._on_batch(item)

    def _resubscribed(self) -> None:
        """The bus lost its connection, so batches may have been missed: give every screen a
        fresh snapshot.

        A snapshot, not the events after the screen's number: the loss may have been a
        failover, and replication is asynchronous, so the newest events a screen was sent
        (published by the old primary) may be missing from the new primary's log, and
        other events may take their numbers there. The screen replaces its state.
        """
        self.store.forget_all()  # our copies may hold what the log lost, too
        for subs in list(self._subs.values()):
            for sub in list(subs):
                if sub.pending is None:
                    sub.pending = []
                    asyncio.get_running_loop().create_task(self._catch_up_safely(sub, None))

    async def _on_batch(self, data: bytes) -> None:
        try:
            header = batch_header(data)
        except msgspec.DecodeError:
            log.error("an unreadable batch on pub/sub was ignored")
            return
        await self.store.apply_published(data)
        self._fan_out(header.tournament, header.from_, header.to, data)

    def _written(self, data: bytes) -> None:
        """A batch this process just wrote: to its screens at once, before the writer's own
        answer (its phone is one of the screens too); the pub/sub echo is then skipped (the
        screens already have those numbers), while other processes' screens get the echo."""
        header = batch_header(data)
        self._fan_out(header.tournament, header.from_, header.to, data)

    def _fan_out(self, tid: str, first: int, last: int, data: bytes) -> None:
        subs = self._subs.get(tid)
        if not subs:
            return
        start = time.perf_counter()
        # Each view of the batch is built (and framed) once, for the first screen that needs
        # it: the echo of a batch every screen already has builds nothing.
        batch = Views(data, "batch", self.metrics)
        sent = sum(
            self._deliver(sub, first, last, batch) and not sub.internal for sub in list(subs)
        )
        if sent:  # the echo of a batch already handed out costs nothing worth counting
            spent = time.perf_counter() - start
            self.metrics.fanout.observe(spent)
            self.metrics.fanout_per_client.observe(spent / sent)

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(self.heartbeat)
            data = _encoder.encode(Heartbeat(server_time=self.clock()))
            framed = frame(data)
            for subs in list(self._subs.values()):
                for sub in list(subs):
                    sub.push(data, framed)
