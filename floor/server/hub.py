"""The fan-out hub: every batch of events, from any process, to every screen of this process.

Each process follows, on the bus (``floor.store.ports.Bus``), the tournaments it holds. A
batch arrives as the bytes the writing process encoded; the hub folds it into this process's copy
of the tournament and hands the same bytes to every screen, without waiting on any of them:
each screen has a bounded queue, and one that falls behind is dropped and resynchronises
when it reconnects.

Screens that miss batches (a gap in the sequence numbers, a reconnection with ``since``) are
caught up, cheapest first: from the batches this process keeps (``ring``: the frames already
sent, sent again, nothing read or built), else from the event log (at most a few reads at
once, through a gate and a Redis pool of their own for the public: ``gate``), else with a
snapshot. A packed snapshot already built serves as long as the batches after it are few
and held: it is sent with them, so a crowd joining while commands come every 100 ms costs a
snapshot now and then, not one per version.

A screen joined with ``fetch=True`` (the public edge's) is never sent a snapshot on its
socket: where one is due it is sent ``fetch_snapshot``, a hundred bytes naming the gzipped
packed snapshot over HTTP, and it comes back with ``resync`` from that snapshot's number. A
200-byte handshake cost the server a 3.3 MB snapshot before, into the kernel's buffers of a
socket that need never read it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Coroutine
from typing import Any, Protocol, TypeVar
from urllib.parse import quote

import msgspec

from ..engine.state import Tournament
from ..protocol import batch_header, catch_up_message
from ..store.ports import Bus, EventLog, Resubscribed
from ..store.service import Service
from .fanout import frame
from .gate import Gate
from .metrics import Metrics
from .redact import View
from .ring import Batch, Ring
from .views import RoleViews, Views

log = logging.getLogger(__name__)

#: More missing events than this and a screen gets a snapshot instead of a catch-up.
CATCH_UP_LIMIT = 2000
#: A snapshot already built is sent again (with the batches after it) while those batches
#: come to less than this: beyond, a screen would be sent more in batches than a fresh
#: snapshot saves (a packed 10,000-player snapshot is 120 KB gzipped).
SNAPSHOT_REUSE_BYTES = 32 * 1024
#: Catch-ups read from the log at once, and queued, by the public and by the staff.
PUBLIC_READS, PUBLIC_READS_WAITING = 4, 32
STAFF_READS, STAFF_READS_WAITING = 8, 256


def _shown_within(batches: list[Batch], view: View, most: int) -> bool:
    """Whether ``batches`` come to ``most`` bytes or less as ``view`` is shown them.

    As shown, not the staff's size: at 10,000 players a command's batch is some 20 KB as the
    staff see it (the room's facts) and 1 KB as the public does, so a public edge judged by
    the staff's rebuilt the room's snapshot every second batch, 75 to 172 times in a storm
    of 5,000 screens connecting (bench/storm.py --edge)."""
    total = 0
    for batch in batches:
        total += len(batch.views.view(view).data)
        if total > most:
            return False
    return True


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


class FetchSnapshot(
    msgspec.Struct, frozen=True, kw_only=True, tag="fetch_snapshot", tag_field="type"
):
    """In place of a snapshot: read it over HTTP (``url``, gzipped, packed), then send
    ``resync`` with its ``seq``; ``seq`` here is the version the server holds now."""

    tournament: str
    seq: int
    url: str


def fetch_snapshot(tid: str, version: int) -> bytes:
    return _encoder.encode(
        FetchSnapshot(tournament=tid, seq=version, url=f"/api/t/{quote(tid, safe='')}/snapshot")
    )


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
        public_log: EventLog | None = None,
        public_reads: Gate | None = None,
        staff_reads: Gate | None = None,
    ) -> None:
        self.store = store
        self.bus = bus
        self.metrics = metrics
        self.heartbeat = heartbeat
        self.clock = clock
        #: Where public catch-ups are read (a Redis pool of their own: see ``wiring``), and
        #: how many at once; staff catch-ups read through the store, with their own gate.
        self.public_log = public_log if public_log is not None else store.log
        self.reads: dict[View, Gate] = {
            "public": public_reads or Gate(PUBLIC_READS, PUBLIC_READS_WAITING),
            "staff": staff_reads or Gate(STAFF_READS, STAFF_READS_WAITING),
        }
        self._subs: dict[str, set[Subscriber]] = {}
        self._tasks: list[asyncio.Task[None]] = []
        #: The view each subscriber is shown (the staff one unless joined as another).
        self._view_of: dict[Subscriber, View] = {}
        #: Subscribers sent snapshots packed (``views.PackedSnapshotOut``).
        self._packed: set[Subscriber] = set()
        #: Subscribers sent ``fetch_snapshot`` where a snapshot is due (see the top).
        self._fetching: set[Subscriber] = set()
        #: The latest batches of each tournament followed (see ``ring``).
        self._rings: dict[str, Ring] = {}
        #: Subscriptions under way, by tournament (see ``_follow``), and catch-ups being
        #: read, by tournament, since and version (see ``_missed``).
        self._following: dict[str, asyncio.Future[None]] = {}
        self._reading: dict[
            tuple[str, int, int, View], asyncio.Future[tuple[int, Views] | None]
        ] = {}
        self.views = RoleViews(metrics)
        #: Called with each batch heard on the bus, after the store folded it (the chain's
        #: heads follow them: ``store.heads``).
        self.heard: list[Callable[[bytes], None]] = []
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

    async def join(
        self,
        sub: Subscriber,
        since: int | None,
        view: View = "staff",
        packed: bool = False,
        fetch: bool = False,
    ) -> None:
        """Start following: a snapshot (``packed`` or full; with ``fetch`` where to read
        it), or what was missed since ``since``, then live, each message as ``view`` is
        shown it."""
        tid = sub.tid
        await self._follow(tid)
        sub.pending = []
        self._view_of[sub] = view
        if packed:
            self._packed.add(sub)
        if fetch:
            self._fetching.add(sub)
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
        self._packed.discard(sub)
        self._fetching.discard(sub)
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
        if self.bus.following(tid) and tid not in self._following:
            return  # followed already: a crowd joining costs no task each
        await _shared(self._following, tid, lambda: self._subscribe(tid))

    async def _subscribe(self, tid: str) -> None:
        if await self.bus.follow(tid):
            # Anything written before the subscription took effect is not in our copy.
            self.store.forget(tid)
            # The batches kept stay: they are a gapless run of the log (the ring starts
            # over at a gap) and are used only while they reach the version held.

    async def _unfollow_later(self, tid: str, grace: float = 30.0) -> None:
        await asyncio.sleep(grace)
        if tid in self._subs or not self.bus.following(tid):
            return
        self.views.forget(tid)
        self._rings.pop(tid, None)
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
            if since is not None and since != version:
                held = self._held(tid, since, version)
                if held is not None:
                    self.metrics.caught_up("ring")
                    for batch in held:
                        message = batch.views.view(view)
                        sub.push(message.data, message.framed)
                    current = True
                elif since < version:
                    missed = await self._missed(tid, t, since, version, view)
                    if missed is not None:
                        self.metrics.caught_up("log")
                        version, views = missed
                        message = views.view(view)
                        sub.push(message.data, message.framed)
                        current = True
                    else:
                        t, version = await self.store.tournament(tid)
            if not current and sub.internal:
                pass  # a follower of this process needs no message, only the copy kept current
            elif not current and sub in self._fetching:
                self.metrics.caught_up("fetch")
                sub.push(fetch_snapshot(tid, version))
            elif not current:
                self.metrics.caught_up("snapshot")
                _, snapshot, after = self.snapshot_for(tid, t, version, sub in self._packed, view)
                for views in (snapshot, *(batch.views for batch in after)):
                    message = views.view(view)
                    sub.push(message.data, message.framed)
            sub.seq = version
            self.metrics.resyncs += 1
            held_back = sub.pending or []
            sub.pending = None
            gap = False
            for first, last, data in held_back:
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

    def _held(self, tid: str, since: int, version: int) -> list[Batch] | None:
        """The batches after ``since`` up to ``version``, if this process holds them all."""
        ring = self._rings.get(tid)
        if ring is None or ring.last != version:
            return None
        return ring.after(since)

    def snapshot_for(
        self, tid: str, t: Tournament, version: int, packed: bool, view: View
    ) -> tuple[int, Views, list[Batch]]:
        """A snapshot and the batches after it that bring it to ``version`` (``t``'s):
        (the snapshot's own version, the snapshot, the batches), for a screen of ``view``.

        A packed snapshot built last serves while the batches after it are held and few (as
        ``view`` is shown them); else one is built at ``version``. Building a 10,000-player
        room is some milliseconds of a loop the staff's commands share: with a command every
        100 ms and screens joining all the while, building one per version would cost that
        at every command.
        """
        # Packed snapshots only: the screens of web/ that ask for them fold the batches that
        # follow; a full snapshot stays the state at ``version``, for tools as before.
        held = self.views.held_snapshot(tid, packed) if packed else None
        if held is not None and held.source is t and held.version <= version:
            after = self._held(tid, held.version, version) if held.version < version else []
            if after is not None and _shown_within(after, view, SNAPSHOT_REUSE_BYTES):
                return held.version, held.views, after
        return version, self.views.snapshot(tid, t, version, packed), []

    async def _missed(
        self, tid: str, t: Tournament, since: int, version: int, view: View
    ) -> tuple[int, Views] | None:
        """The events after ``since`` (up to the version they reach), or None when too many,
        or when the log is being read by as many of ``view``'s screens as may (see ``gate``).

        Read and built once for all the screens asking together: after a restart the screens
        of a room reconnect at once, from the same number.
        """
        kept = self.views.catch_up(tid, t, since, version)
        if kept is not None:
            return version, kept
        # The staff never wait behind the public's reads, even for the same events.
        key = (tid, since, version, view)
        running = self._reading.get(key)
        if running is not None:
            return await asyncio.shield(running)
        # A table screen reads as the staff do: a few, never behind the room's crowd.
        gate = self.reads["public" if view == "public" else "staff"]
        if not gate.enter():
            self.metrics.caught_up("refused")
            return None
        log = self.public_log if view == "public" else self.store.log
        return await _shared(
            self._reading, key, lambda: gate.run(self._read_missed(log, tid, since))
        )

    async def _read_missed(self, log: EventLog, tid: str, since: int) -> tuple[int, Views] | None:
        raw = await log.read(tid, since, CATCH_UP_LIMIT + 1)
        t, version = await self.store.tournament(tid)
        if len(raw) > CATCH_UP_LIMIT or len(raw) < version - since:
            return None
        missed = [data for _, data in raw[: version - since]]
        data = catch_up_message(tid, since + 1, missed, t)
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
        self._rings.clear()  # and so may the batches kept
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
        for listener in self.heard:
            listener(data)
        self._fan_out(header.tournament, header.from_, header.to, data)

    def _written(self, data: bytes) -> None:
        """A batch this process just wrote: to its screens at once, before the writer's own
        answer (its phone is one of the screens too); the pub/sub echo is then skipped (the
        screens already have those numbers), while other processes' screens get the echo."""
        header = batch_header(data)
        self._fan_out(header.tournament, header.from_, header.to, data)

    def _fan_out(self, tid: str, first: int, last: int, data: bytes) -> None:
        ring = self._rings.get(tid)
        if ring is not None and ring.last is not None and last <= ring.last:
            return  # the echo of a batch this process wrote: every screen has it
        # Each view of the batch is built (and framed) once, for the first screen that needs
        # it, and kept for the screens that will reconnect having missed it.
        batch = Views(data, "batch", self.metrics)
        if ring is None:
            ring = self._rings[tid] = Ring()
        ring.add(first, last, batch)
        subs = self._subs.get(tid)
        if not subs:
            return
        start = time.perf_counter()
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
