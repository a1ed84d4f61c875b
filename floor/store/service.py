"""The command service: each tournament an event log, each command decided and written whole.

A command is authorized and decided by the engine against the state at version V held in
this process, then appended only if the log is still at V: events, version, snapshot when
due, the command's result for retries and the batch for every process, in one atomic step
(``EventLog.append``). On a conflict the state is reloaded and the command authorized and
decided again, so it is refused with the rule's reason when it no longer applies, and
applied on the new state when it still does: a race lost to another process is never a
refusal (``Busy`` only after ``busy_after`` seconds of lost races).

The process keeps each tournament it serves in memory (``Tournament`` plus its version) and
keeps it current from the batches other processes publish (``apply_published``, fed by the
server from the bus). Each batch this process writes is handed to its listeners at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import Awaitable, Callable
from typing import Protocol, assert_never

from ..engine import chain, fair, finish
from ..engine.commands import Command, RegisterMany
from ..engine.decide import decide
from ..engine.errors import RuleError
from ..engine.events import Event, TournamentCreated
from ..engine.read.patch import Marks, build, marks
from ..engine.rules import Rules, Structure
from ..engine.state import Tournament
from ..engine.touches import touched
from ..protocol import EventsApplied, decode_batch, decode_event, encode_derived, encode_event
from ..protocol import events_message as _events_message
from .draws import Draws, SeedKeeper, Source
from .errors import AlreadyExists, Busy, IdReused, NotFound, StoreError, Unavailable
from .heads import ChainHeads
from .ids import check_command_id, check_tournament_id
from .outcome import Kept, Outcome, command_digest, error_info
from .ports import Answered, Append, Bus, Conflict, EventLog, Snapshot, Summary, Written

#: Events read from the log per call of ``events_since``.
READ_PAGE = 500

#: Raises (``Forbidden``, say) unless the command may be sent, judged on the tournament as
#: the command is decided on it: called in the tournament's lock, on every attempt.
Authorize = Callable[[Tournament], None]

#: The batch published with a command's events: (tournament, first sequence number, the
#: events as JSON, the state after them, the events, the marks of the state before them:
#: None for a tournament's first batch).
PayloadBuilder = Callable[[str, int, list[bytes], Tournament, list[Event], Marks | None], bytes]

#: Told each batch this process wrote, as soon as the log has it.
BatchListener = Callable[[bytes], None]

#: The longest pause before deciding again after a lost race (1, 2, 4... ms, at random below).
RACE_PAUSE_CAP = 0.05


class Span(Protocol):
    """What a command claims outside its tournament (``floor.store.house.HouseSpan``)."""

    async def hold(
        self, tid: str, command_id: str, t: Tournament, command: Command
    ) -> Outcome | bool:
        """Take the hold ``command`` needs (True), none needed (False), or its refusal."""
        ...

    async def settle(self, tid: str, command_id: str, committed: bool) -> None: ...


#: Called in the tournament's lock after authorization, before ``decide``: a refusal, or None.
_Before = Callable[[Tournament], Awaitable[Outcome | None]]


def batch_payload(
    tid: str,
    first: int,
    encoded: list[bytes],
    t: Tournament,
    events: list[Event],
    before: Marks | None,
) -> bytes:
    """The events batch of ``floor.protocol``: what the events changed in the state for each
    role (``engine.patch``), and the derived facts of the tables touched."""
    patches = None if before is None else build(t, before, touched(events))
    return _events_message(tid, first, encoded, encode_derived(t, events), patches)


class _Entry:
    __slots__ = ("lock", "t", "version")

    def __init__(self, t: Tournament, version: int) -> None:
        self.t = t
        self.version = version
        self.lock = asyncio.Lock()


class _Loading:
    """The lock of one tournament's load, and how many callers hold or wait for it."""

    __slots__ = ("lock", "waiting")

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.waiting = 0


class Service:
    """Tournaments in an event log, and the ones this process serves, in memory."""

    def __init__(
        self,
        log: EventLog,
        *,
        bus: Bus | None = None,
        clock: Callable[[], float] = time.time,
        rng: random.Random | None = None,
        snapshot_every: int = 500,
        busy_after: float = 30.0,
        payload: PayloadBuilder = batch_payload,
        seeds: SeedKeeper | None = None,
    ) -> None:
        self.log = log
        #: Followed before a tournament is loaded, so that every process keeps what it holds
        #: current, screens or not (None: the copies are kept current by nobody but us).
        self.bus = bus
        self.clock = clock
        self.rng = rng if rng is not None else random.SystemRandom()
        self.snapshot_every = snapshot_every
        #: Seconds a command keeps being decided again after losing races, before ``Busy``.
        self.busy_after = busy_after
        #: The pauses after a lost race (not ``rng``: a seeded service decides the same
        #: whatever races it lost).
        self._jitter = random.Random()
        self.payload = payload
        self._entries: dict[str, _Entry] = {}
        #: The loads under way, by tournament, while anyone waits for one: an id nobody has
        #: (any stranger may ask for one) leaves nothing here.
        self._loading: dict[str, _Loading] = {}
        self._arriving: dict[str, list[EventsApplied]] = {}
        self._listeners: list[BatchListener] = []
        #: The hash chain's heads (``heads``), following every batch written here.
        self.heads = ChainHeads(log)
        self._listeners.append(self.heads.observe)
        #: Draws anyone can check (``draws``): with a keeper of seeds, each new tournament
        #: commits to a chain of them and every draw uses the next.
        self.draws = Draws(seeds, self.heads) if seeds is not None else None

    def listen(self, listener: BatchListener) -> None:
        """Hand ``listener`` each batch this process writes, before the writer is answered:
        the server gives it to its own screens at once rather than at its echo on the bus."""
        self._listeners.append(listener)

    # Reading ---------------------------------------------------------------------------------

    async def tournament(self, tid: str) -> tuple[Tournament, int]:
        """The tournament as this process holds it, and its version (loaded when missing).

        A command being written holds the entry's lock with its events already applied to
        our copy: a reader waits for the write, so it never sees a change that may not land.
        Use the result before the next ``await``: later changes are applied to it in place.
        """
        while True:
            entry = await self._entry(tid)
            async with entry.lock:
                if self._entries.get(tid) is entry:
                    return entry.t, entry.version

    async def _entry(self, tid: str) -> _Entry:
        entry = self._entries.get(tid)
        if entry is not None:
            return entry
        loading = self._loading.get(tid)
        if loading is None:
            loading = self._loading[tid] = _Loading()
        loading.waiting += 1
        try:
            async with loading.lock:
                entry = self._entries.get(tid)
                while entry is None:
                    if self.bus is not None and not self.bus.following(tid):
                        # Only for a tournament that exists: a follow for any id asked for
                        # would let a stranger pile up subscriptions.
                        if not await self.log.exists(check_tournament_id(tid)):
                            raise NotFound(f"there is no tournament {tid}", field="tournament")
                        # Follow the tournament's batches first, so none falls between what the
                        # load reads and the first batch we hear of.
                        await self.bus.follow(tid)
                    self._arriving[tid] = []
                    try:
                        t, version = await self.load(tid)
                        arrived = self._arriving[tid]
                    finally:
                        del self._arriving[tid]
                    caught_up = _catch_up(t, version, arrived)
                    if caught_up is not None:
                        entry = self._entries[tid] = _Entry(t, caught_up)
            return entry
        finally:
            loading.waiting -= 1
            if not loading.waiting and self._loading.get(tid) is loading:
                del self._loading[tid]

    async def private_copy(self, tid: str) -> tuple[Tournament, int]:
        """A copy of the tournament that nothing else changes, and its version, for work
        that grows with its input to run off the event loop (an imported list's preview).

        Made on a worker thread (a room of 10,000 takes 100 ms to copy) while the entry's
        lock is held: every change takes that lock, so none lands while the copy is read.
        """
        while True:
            entry = await self._entry(tid)
            async with entry.lock:
                if self._entries.get(tid) is entry:
                    return await asyncio.to_thread(entry.t.copy), entry.version

    def forget(self, tid: str) -> None:
        """Drop the in-memory copy; the next use reloads it from the log."""
        self._entries.pop(tid, None)

    def forget_all(self) -> None:
        """Drop every in-memory copy (the bus lost batches: any copy may be behind)."""
        self._entries.clear()

    async def load(self, tid: str) -> tuple[Tournament, int]:
        """Snapshot plus the events after it: exactly the engine's state at the last event."""
        stored = await self.log.load(check_tournament_id(tid))
        t: Tournament | None = None
        seq = 0
        if stored.snapshot is not None:
            t, seq = Tournament(stored.snapshot.state), stored.snapshot.seq
        for _, data in stored.tail:
            event = decode_event(data)
            if t is None:
                assert isinstance(event, TournamentCreated)
                t = Tournament.create(event)
            else:
                t.apply(event)
        if t is None:
            raise NotFound(f"there is no tournament {tid}", field="tournament")
        return t, stored.tail[-1][0] if stored.tail else seq

    async def events_since(self, tid: str, seq: int, limit: int = 1000) -> list[bytes] | None:
        """The events after ``seq`` as stored (JSON), or None when more than ``limit`` are
        missing (a fresh snapshot is cheaper then)."""
        check_tournament_id(tid)
        out: list[bytes] = []
        # A page at a time: each reply is read (and its entries made) in one go on the event
        # loop, 5,000 events in 120 ms; a page of 500 costs a tenth of that.
        while True:
            want = min(READ_PAGE, limit + 1 - len(out))
            # Sequence numbers are the stream's ids, one after another.
            page = await self.log.read(tid, seq + len(out), want)
            out += [data for _, data in page]
            if len(page) < want or len(out) > limit:
                return None if len(out) > limit else out

    async def summaries(self, archived: bool = False) -> list[Summary]:
        return await self.log.summaries(archived)

    # Writing ---------------------------------------------------------------------------------

    async def create(
        self,
        tid: str,
        name: str,
        rules: Rules,
        structure: Structure | None = None,
        command_id: str | None = None,
        then: Callable[[TournamentCreated, float, random.Random], list[Event]] | None = None,
    ) -> Outcome:
        """Write a new tournament's log: its creation, and what ``then`` says follows it in
        the same write (Day 2's tables, players and seats: ``engine.day2.first_events``)."""
        check_tournament_id(tid)
        now = self.clock()
        created = TournamentCreated(
            id=tid, name=name, rules=rules, structure=structure, created_at=now
        )
        # Committed in the creation's own write: before anyone can register.
        commitment = await self.draws.commitment(tid, now) if self.draws is not None else None

        def made() -> tuple[Tournament, list[Event]]:
            t = Tournament.create(created)
            events: list[Event] = [created]
            if commitment is not None:
                t.apply(commitment)
                events.append(commitment)
            later: list[Event] = []
            if then is not None and commitment is not None and self.draws is not None:
                # Day 2's redraw: the chain's first seed, after the creation and commitment.
                link = chain.head(chain.genesis(tid), map(encode_event, events))
                source = self.draws.first(tid, link)
                later = then(created, now, source.rng)
                later = fair.creation_draw(later, source.rng, source.drawn, now)
            elif then is not None:
                later = then(created, now, self.rng)
            for e in later:
                t.apply(e)
                events.append(e)
            return t, events

        # What follows the creation grows with it (Day 2 seats thousands): made on a worker
        # thread, from nothing anyone else holds yet.
        t, events = made() if then is None else await asyncio.to_thread(made)
        if self.bus is not None and not self.bus.following(tid):
            # The copy kept below is read until the next write here: unfollowed, it would
            # miss what other processes write, and a later follow (a screen, the clock)
            # would drop it for a reload, rebuilding every view of the room.
            await self.bus.follow(tid)
        outcome = await self._write(
            tid, 0, events, t, command_id or f"create-{tid}", off_loop=then is not None
        )
        if not outcome.ok:
            raise AlreadyExists(f"tournament {tid} already exists", field="tournament")
        if not outcome.duplicate:
            self._entries[tid] = _Entry(t, outcome.last)
        # Listed after the log is written (another slot on a cluster): a retry lists it too.
        await self.log.list_tournament(Summary(id=tid, name=name, created_at=created.created_at))
        return outcome

    async def list_again(self, tid: str, name: str, created_at: float) -> None:
        """List a tournament whose creation is retried, unless it is listed or archived."""
        summary = Summary(id=check_tournament_id(tid), name=name, created_at=created_at)
        await self.log.list_again(summary)

    async def archive(self, tid: str) -> Summary:
        """Move a finished tournament from the list to the archive; its log stays."""
        return await self.log.archive(check_tournament_id(tid))

    async def execute(
        self,
        tid: str,
        command: Command,
        command_id: str | None = None,
        *,
        authorize: Authorize | None = None,
        span: Span | None = None,
        decided: list[Event] | None = None,
    ) -> Outcome:
        """Authorize and decide ``command`` and write its events atomically; refusals are
        outcomes too, what ``authorize`` raises is raised (nothing was decided then).

        ``decided``, when given, is handed the events this call wrote (the draw's record
        included), as the log now holds them: a caller that needs them (the desk's seat
        card) reads nothing back. It stays empty for a retry answered with the first
        outcome (``duplicate``): those events are in the log, written by the first call.

        A race lost to another process (the log moved on between the decision and the
        write) is run again on the new state, after a short random pause, for as long as
        ``busy_after`` seconds: registrations sent at once to several processes all land,
        each decided on every one written before it.

        With ``span``, what the command claims outside the tournament is held before it is
        decided (in the tournament's lock, after authorization) and settled by its answer;
        a hold whose write cannot be known (``Unavailable``) stays for a retry with the
        same id, or for ``House.settle_stale``.

        Raises ``NotFound`` and ``Unavailable`` (nothing was written, or a retry with the
        same ``command_id`` answers what was), and ``Busy`` after losing races for
        ``busy_after`` seconds.
        """
        check_tournament_id(tid)
        cid = check_command_id(command_id) if command_id else None
        if span is None:
            return await self._execute(tid, command, cid, authorize, None, decided)
        # A hold is kept under the command's id: one without is given one.
        cid = cid or f"span-{self.rng.getrandbits(64):x}"
        held = False

        async def hold(t: Tournament) -> Outcome | None:
            nonlocal held
            if held:
                return None
            got = await span.hold(tid, cid, t, command)
            if isinstance(got, Outcome):
                return got
            held = got
            return None

        try:
            outcome = await self._execute(tid, command, cid, authorize, hold, decided)
        except Unavailable:
            raise
        except BaseException:
            # Nothing was written (a refusal of who asks, races lost for too long, a failure
            # in decide): the hold goes.
            if held:
                with contextlib.suppress(StoreError):
                    await span.settle(tid, cid, False)
            raise
        if held:
            # The command stands whatever becomes of this: an unsettled hold is settled later.
            with contextlib.suppress(StoreError):
                await span.settle(tid, cid, outcome.ok)
        return outcome

    async def _execute(
        self,
        tid: str,
        command: Command,
        cid: str | None,
        authorize: Authorize | None,
        before: _Before | None,
        decided: list[Event] | None = None,
    ) -> Outcome:
        digest = command_digest(command) if cid else ""
        loop = asyncio.get_running_loop()
        give_up_at: float | None = None
        lost = 0
        while True:
            entry = await self._entry(tid)
            async with entry.lock:
                if self._entries.get(tid) is not entry:
                    # Reloaded while we waited: wait on the copy that replaced it. No race
                    # was lost (a command queued behind many sees many reloads).
                    continue
                outcome = await self._attempt(
                    tid, entry, command, cid, digest, authorize, before, decided
                )
            if outcome is not None:
                return outcome
            # Lost the race (or decided on a copy that was behind): the copy is reloaded and
            # the command decided again. The pause, random and growing, lets the winner's
            # burst pass rather than meet it again at once.
            lost += 1
            now = loop.time()
            if give_up_at is None:
                give_up_at = now + self.busy_after
            elif now > give_up_at:
                raise Busy(f"tournament {tid} is changing too fast: try again", field="tournament")
            await asyncio.sleep(self._jitter.uniform(0, min(RACE_PAUSE_CAP, 0.001 * 2**lost)))

    async def _attempt(
        self,
        tid: str,
        entry: _Entry,
        command: Command,
        cid: str | None,
        digest: str,
        authorize: Authorize | None,
        before: _Before | None,
        decided: list[Event] | None = None,
    ) -> Outcome | None:
        """Decide and write ``command`` on ``entry`` (its lock held): the outcome, or None
        when it must be decided again on a fresh copy (which is then forgotten)."""
        version = entry.version
        if authorize is not None and not await self._authorized(tid, version, entry.t, authorize):
            return None
        if before is not None and (refused := await before(entry.t)) is not None:
            return refused
        status = finish.status(entry.t.state)
        # What the batch's patch is made against (``engine.patch``).
        before_state = marks(entry.t.state)
        # A command whose cost grows with its body is decided on a copy, on a worker thread:
        # the loop serves everyone else meanwhile, and the copy held here is whole until the
        # events are written (readers wait for the lock as always).
        source = await self._source(tid, version, entry.t)
        rng = self.rng if source is None else source.rng
        t = await asyncio.to_thread(entry.t.copy) if _grows(command) else entry.t
        now = self.clock()
        try:
            if t is entry.t:
                events = decide(t, command, now, rng)
            else:
                events = await asyncio.to_thread(decide, t, command, now, rng)
        except RuleError as e:
            # A refusal is raised before anything is applied: the copy is whole.
            refusal = Outcome(ok=False, error=error_info(e))
            if cid is None:
                return refusal
            kept = await self._keep_refusal(tid, version, cid, refusal, digest)
            if kept is not None:
                return kept
            # Decided on a copy that was behind: the command may apply now.
            self.forget(tid)
            return None
        except BaseException:
            # Any other failure may come after decide applied part of the change to our
            # copy (the housekeeping runs on the state the command left): the log never got
            # it, so the copy must go, or the retry is decided on it.
            self.forget(tid)
            raise
        if source is not None:
            # The seed spent, revealed after the events it drew, with what it was made from.
            events = fair.made(t, command, events, source.rng, source.drawn, now)
        if not events and cid is None:
            return Outcome(ok=True, first=version + 1, last=version)
        try:
            outcome = await self._write(
                tid,
                version,
                events,
                t,
                cid,
                digest,
                before=before_state,
                off_loop=t is not entry.t,
            )
        except BaseException:
            # The events may or may not be in the log, and they are in our copy: reload
            # before anybody reads it again.
            self.forget(tid)
            raise
        if outcome.duplicate or outcome.error is not None:
            self.forget(tid)
            return outcome
        if outcome.ok:
            entry.t = t
            entry.version = outcome.last
            if decided is not None:
                decided.extend(events)
            if finish.status(entry.t.state) != status:
                await self._list_status(tid, entry.t)
            return outcome
        self.forget(tid)  # lost the race: reload and decide again
        return None

    async def _source(self, tid: str, version: int, t: Tournament) -> Source | None:
        if self.draws is None or t.state.fair is None:
            return None
        return await self.draws.source(tid, version, t)

    async def _list_status(self, tid: str, t: Tournament) -> None:
        """The list says the tournament finished, closed or is live again (the start page
        and the console read it there). The command is written whatever becomes of this:
        a list left behind is not worth an error on a command that stands."""
        s = t.state
        won = finish.winner(s)
        with contextlib.suppress(Unavailable):
            await self.log.set_status(tid, finish.status(s), None if won is None else won.name)

    async def _authorized(
        self, tid: str, version: int, t: Tournament, authorize: Authorize
    ) -> bool:
        """Run ``authorize`` on our copy; False when it refused a copy that was behind the
        log (the caller reloads and asks again), and what it raised when the copy is current."""
        try:
            authorize(t)
        except Exception:
            if await self.log.version(tid) == version:
                raise
            self.forget(tid)
            return False
        return True

    async def _write(
        self,
        tid: str,
        version: int,
        events: list[Event],
        t: Tournament,
        command_id: str | None,
        digest: str = "",
        *,
        before: Marks | None = None,
        off_loop: bool = False,
    ) -> Outcome:
        """Append the events; ``ok=False`` without error means a version conflict.

        ``before``: the marks of the state before the events (none for a first batch).
        ``off_loop``: ``t`` is a copy nobody else holds, and the events many (a list of
        entries, a Day 2): they and the batch for the screens are encoded on a worker thread.
        """
        first, last = version + 1, version + len(events)
        cid = command_id or f"anon-{self.rng.getrandbits(64):x}"

        def prepare() -> Append:
            encoded = [encode_event(e) for e in events]
            due = version // self.snapshot_every != last // self.snapshot_every
            payload = self.payload(tid, first, encoded, t, events, before) if encoded else b""
            return Append(
                version=version,
                command_id=cid,
                events=encoded,
                result=Kept(ok=True, first=first, last=last, digest=digest),
                snapshot=Snapshot(last, t.state) if due else None,
                payload=payload,
            )

        append = await asyncio.to_thread(prepare) if off_loop else prepare()
        payload = append.payload
        result = await self.log.append(tid, append)
        match result:
            case Written():
                if payload:
                    for listener in self._listeners:
                        listener(payload)
                return Outcome(ok=True, first=first, last=last)
            case Answered(kept):
                return _answer_again(kept, command_id, digest)
            case Conflict(current):
                return Outcome(ok=False, first=0, last=current)
            case _:
                assert_never(result)

    async def _keep_refusal(
        self, tid: str, version: int, command_id: str, refusal: Outcome, digest: str
    ) -> Outcome | None:
        """Keep a refusal under its command id, so a retry gets the first answer; but only
        if it was decided at the tournament's current version (None when it was not)."""
        kept = Kept(ok=False, error=refusal.error, digest=digest)
        append = Append(version=version, command_id=command_id, events=[], result=kept)
        match await self.log.append(tid, append):
            case Written():
                return refusal
            case Answered(first):
                return _answer_again(first, command_id, digest)
            case Conflict():
                return None
            case other:
                assert_never(other)

    # Keeping in step with other processes ---------------------------------------------------

    async def apply_published(self, payload: bytes) -> None:
        """Fold a batch another process (or this one) published into our copy, if held.

        While the copy is being loaded the batch is kept, and folded once the load is in.
        """
        batch = decode_batch(payload)
        entry = self._entries.get(batch.tournament)
        if entry is None:
            arriving = self._arriving.get(batch.tournament)
            if arriving is not None:
                arriving.append(batch)
            return
        async with entry.lock:
            if self._entries.get(batch.tournament) is not entry or batch.to <= entry.version:
                return
            if batch.from_ != entry.version + 1:
                self.forget(batch.tournament)  # a gap: reload on next use
                return
            for item in batch.events:
                entry.t.apply(item.event)
            entry.version = batch.to


def _grows(command: Command) -> bool:
    """Whether deciding ``command`` costs more the more it holds, beyond what the room costs:
    a list of 1,000 entries into a room of 10,000 replans the room for each, 17 s in all."""
    return isinstance(command, RegisterMany)


def _answer_again(kept: Kept, command_id: str | None, digest: str) -> Outcome:
    """The first answer to a retried command id, or ``IdReused`` for another command."""
    if digest and kept.digest and kept.digest != digest:
        raise IdReused(
            f"the command id {command_id} was already used for another command: this one was "
            f"not applied; send it with a new id",
            field="id",
        )
    return Outcome(ok=kept.ok, first=kept.first, last=kept.last, error=kept.error, duplicate=True)


def _catch_up(t: Tournament, version: int, batches: list[EventsApplied]) -> int | None:
    """Fold the batches that came in while ``t`` was loaded at ``version``; the new version,
    or None when one is missing (the caller loads again)."""
    for batch in sorted(batches, key=lambda b: b.from_):
        if batch.to <= version:
            continue
        if batch.from_ > version + 1:
            return None
        for item in batch.events:
            if item.seq > version:
                t.apply(item.event)
                version = item.seq
    return version
