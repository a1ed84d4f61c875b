"""The day forecaster in a staff process: its jobs, one at a time per tournament, played by
the worker processes; its records kept beside the log; a new forecast at every level.

A job (``request``) reads the live day on the loop (``forecast.live``: references and one walk
over the players), names itself the tournament's current job in the storage, and hands its
runs to the workers chunk by chunk (``forecast_pool``): the loop awaits their answers and
nothing else. After every chunk it asks the storage whether it is still the current job: a
new what-if, in this process or in another, stops the one running (its record says
``cancelled``). The first ``FIRST_RUNS`` runs make a first forecast at once, shown while the
rest are played. A what-if plays the day as it stands beside the day changed, run for run with
the same luck (``jobs.run_seed``), so the two differ by the change.

Every staff process looks, every ``SCHEDULE_EVERY`` seconds, at the tournaments it follows
(a console or a screen open on it, a command sent through it), and at once at those whose
level the clock driver of this process has just changed (``level_changed``: the lease's
holder drives every live tournament, whatever screens are open): a tournament at a level
without a forecast kept gets one, claimed in the storage so that one process makes it, and
not while another job runs there (a director's what-if is not cancelled by the clock). The
day's end gets one more, for the truth. A public edge computes nothing: it reads the wall's line.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
import zlib
from collections.abc import Callable
from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from ..forecast import whatif, worker
from ..forecast.live import live_day
from ..forecast.model import (
    DEFAULT_RUNS,
    FIRST_RUNS,
    MAX_RUNS,
    CannotForecast,
    Corrections,
    LiveDay,
    Range,
    Settings,
    WhatIf,
)
from ..forecast.runs import Outcome
from ..forecast.truth import Checked, Kept, Truth, checked
from ..store.errors import StoreError
from ..store.forecasts_port import ForecastStorage
from ..store.service import Service
from .forecast_pool import WorkerPool
from .hub import Hub

log = logging.getLogger(__name__)

#: Runs per chunk handed to a worker: small enough that a stop comes soon, large enough that
#: a chunk's passage costs little beside its runs.
CHUNK = 25
JOB_TTL = 6 * 3600
LEVEL_CLAIM_TTL = 12 * 3600
SCHEDULE_EVERY = 10.0

JobState = Literal["running", "done", "cancelled", "failed"]
NULL = msgspec.Raw(b"null")


class Ask(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """``POST /api/t/{id}/forecast``: a what-if (or none: the current forecast again), the
    director's corrections of the assumptions, and how many runs."""

    what_if: WhatIf | None = None
    corrections: Corrections = msgspec.field(default_factory=Corrections)
    runs: Annotated[int, Meta(ge=10, le=MAX_RUNS)] = DEFAULT_RUNS


class Worker(msgspec.Struct, array_like=True, frozen=True):
    """Where a job's runs were played: ``[pid, niceness]``."""

    pid: int
    nice: int


class Job(msgspec.Struct, frozen=True, kw_only=True):
    """A forecast job: its state and, once it has them, its forecasts (JSON as the worker
    wrote it)."""

    id: str
    tournament: str
    state: JobState
    by: Literal["director", "level"]
    what_if: WhatIf | None
    corrections: Corrections
    runs: int
    played: int = 0
    started_at: float
    finished_at: float | None = None
    #: The forecast asked (a what-if's, or the current one), the first runs' while running;
    #: JSON ``null`` until there is one (a decoder takes a ``Raw`` whole, null included).
    forecast: msgspec.Raw = msgspec.field(default_factory=lambda: NULL)
    #: A what-if's day as it stands, played with the same luck.
    baseline: msgspec.Raw = msgspec.field(default_factory=lambda: NULL)
    workers: tuple[Worker, ...] = ()
    error: str | None = None


class View(msgspec.Struct, frozen=True, kw_only=True):
    """``GET /api/t/{id}/forecast``: everything the console shows of the forecaster."""

    tournament: str
    settings: Settings
    current: msgspec.Raw | None
    job: msgspec.Raw | None
    truth: msgspec.Raw | None
    #: Each forecast kept (one per level) beside what happened.
    checked: list[Checked]
    #: Whether this process plays forecasts (a public edge does not).
    computes: bool


class WallLine(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """``GET /api/t/{id}/forecast/wall``: the wall's line, when the director shows it:
    the next moment expected (``money``, ``final_table`` or ``day_end``) and when (the median)."""

    shown: bool
    what: Literal["money", "final_table", "day_end"] | None = None
    at: float | None = None
    made_at: float | None = None


class _Moment(msgspec.Struct, frozen=True):
    at: Range
    happened: float | None = None


class _End(msgspec.Struct, frozen=True):
    at: _Moment


class _Current(msgspec.Struct, frozen=True):
    """The parts of the current forecast the wall's line needs."""

    made_at: float
    money: _Moment
    final_table: _Moment
    day_end: _End


_json = msgspec.json.Encoder()
_job = msgspec.json.Decoder(Job)
_settings = msgspec.json.Decoder(Settings)
_kept = msgspec.json.Decoder(Kept)
_current = msgspec.json.Decoder(_Current)
_truth = msgspec.json.Decoder(Truth)


class Forecasts:
    """The forecaster of one process (``pool`` None: a public edge, which computes nothing)."""

    def __init__(
        self,
        store: Service,
        storage: ForecastStorage,
        hub: Hub,
        pool: WorkerPool | None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.storage = storage
        self.hub = hub
        self.pool = pool
        self.clock = clock
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._scheduler: asyncio.Task[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        #: The tournaments the clock driver changed the level of, until their forecast starts.
        self._changed: set[str] = set()
        self._wake = asyncio.Event()

    # Life cycle -------------------------------------------------------------------------------

    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        if self.pool is not None:
            self._scheduler = asyncio.create_task(self._schedule(), name="forecast-levels")

    async def stop(self) -> None:
        tasks = [t for t in (self._scheduler, *self._tasks.values()) if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self.pool is not None:
            self.pool.close()

    # Reading ------------------------------------------------------------------------------------

    async def settings(self, tid: str) -> Settings:
        raw = await self.storage.get(tid, "settings")
        return _settings.decode(raw) if raw else Settings()

    async def set_settings(self, tid: str, settings: Settings) -> Settings:
        await self.storage.put(tid, "settings", _json.encode(settings))
        return settings

    async def view(self, tid: str) -> View:
        settings = await self.settings(tid)
        current = await self.storage.get(tid, "current")
        truth = await self.storage.get(tid, "truth")
        job_id = await self.storage.current_job(tid)
        job = await self.storage.job(tid, job_id) if job_id else None
        kept = await self.storage.kept(tid)
        rows: list[Checked] = []
        if truth is not None and kept:
            briefs = [_kept.decode(data) for _, data in sorted(kept.items())]
            rows = checked(briefs, _truth.decode(truth))
        return View(
            tournament=tid,
            settings=settings,
            current=msgspec.Raw(current) if current else None,
            job=msgspec.Raw(job) if job else None,
            truth=msgspec.Raw(truth) if truth else None,
            checked=rows,
            computes=self.pool is not None,
        )

    async def job(self, tid: str, job_id: str) -> Job | None:
        raw = await self.storage.job(tid, job_id)
        return _job.decode(raw) if raw else None

    async def wall(self, tid: str) -> WallLine:
        settings = await self.settings(tid)
        if not settings.wall:
            return WallLine(shown=False)
        raw = await self.storage.get(tid, "current")
        if raw is None:
            return WallLine(shown=False)
        current = _current.decode(raw)
        what: Literal["money", "final_table", "day_end"]
        for what, m in (
            ("money", current.money),
            ("final_table", current.final_table),
            ("day_end", current.day_end.at),
        ):
            if m.happened is None and m.at.p50 is not None and m.at.p50 > current.made_at:
                return WallLine(shown=True, what=what, at=m.at.p50, made_at=current.made_at)
        return WallLine(shown=False)

    # Asking ---------------------------------------------------------------------------------

    async def request(self, tid: str, ask: Ask, by: Literal["director", "level"]) -> Job:
        """Start a forecast (a new one stops the one running); refused when there is nothing
        to forecast or the what-if does not fit the day."""
        if self.pool is None:
            raise CannotForecast("this process serves the public and plays no forecast")
        t, version = await self.store.tournament(tid)
        now = self.clock()
        # On the state as it stands, before the next await (it changes in place).
        day = live_day(t, now, version)
        if ask.what_if is not None:
            whatif.check(ask.what_if, day)
        settings = await self.settings(tid)
        job = Job(
            id=uuid.uuid4().hex,
            tournament=tid,
            state="running",
            by=by,
            what_if=ask.what_if,
            corrections=ask.corrections,
            runs=ask.runs,
            started_at=now,
        )
        await self.storage.start_job(tid, job.id, _json.encode(job), JOB_TTL)
        running = self._tasks.pop(tid, None)
        if running is not None:
            running.cancel()
        task = asyncio.create_task(self._run(tid, job, day, settings), name=f"forecast-{tid}")
        self._tasks[tid] = task
        task.add_done_callback(lambda done: self._done(tid, done))
        return job

    def _done(self, tid: str, task: asyncio.Task[None]) -> None:
        if self._tasks.get(tid) is task:
            del self._tasks[tid]

    # Playing ----------------------------------------------------------------------------------

    async def _run(self, tid: str, job: Job, day: LiveDay, settings: Settings) -> None:
        pool = self.pool
        assert pool is not None
        # The same luck for every forecast made at a level: a what-if and the current
        # forecast differ by the change, and a forecast asked again is the same forecast.
        seed = zlib.crc32(f"{tid}:{day.step}".encode())
        data = msgspec.msgpack.encode(day)
        series: dict[str, tuple[str, bytes]] = {}
        if job.what_if is not None:
            series["what_if"] = (
                f"{job.id}:w",
                _json.encode(
                    worker.Ask(
                        what_if=job.what_if,
                        corrections=job.corrections,
                        settings=settings,
                        runs=job.runs,
                        seed=seed,
                    )
                ),
            )
        series["current"] = (
            f"{job.id}:c",
            _json.encode(
                worker.Ask(corrections=job.corrections, settings=settings, runs=job.runs, seed=seed)
            ),
        )
        outcomes: dict[str, dict[int, list[Outcome]]] = {name: {} for name in series}
        workers: set[Worker] = set()
        chunks = [
            (name, first, min(CHUNK, job.runs - first))
            for first in range(0, job.runs, CHUNK)
            for name in series
        ]
        state = job
        pending: set[asyncio.Task[tuple[str, int, tuple[int, int, list[Outcome]]]]] = set()
        shown_first = False
        try:
            while chunks or pending:
                while chunks and len(pending) < pool.workers:
                    name, first, count = chunks.pop(0)
                    key, ask = series[name]
                    chunk = self._chunk(name, first, key, data, ask, count)
                    pending.add(asyncio.ensure_future(chunk))
                done, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
                for finished in done:
                    name, first, (pid, nice, chunk_runs) = finished.result()
                    outcomes[name][first] = chunk_runs
                    workers.add(Worker(pid, nice))
                if await self.storage.current_job(tid) != job.id:
                    raise asyncio.CancelledError  # a newer job, from any process
                played = min(sum(len(x) for x in o.values()) for o in outcomes.values())
                if FIRST_RUNS <= played < job.runs and not shown_first:
                    shown_first = True
                    state = await self._summed(
                        tid, state, series, data, outcomes, played, workers, False
                    )
            state = await self._summed(tid, state, series, data, outcomes, job.runs, workers, True)
            await self._keep(tid, state, day)
        except asyncio.CancelledError:
            for task in pending:
                task.cancel()
            await self._finish(tid, state, "cancelled", workers)
            raise
        except StoreError as e:
            log.warning("a forecast could not be kept", extra={"tournament": tid, "error": str(e)})
        except Exception as e:
            log.exception("a forecast failed", extra={"tournament": tid})
            await self._finish(tid, state, "failed", workers, error=str(e))

    async def _chunk(
        self, name: str, first: int, key: str, data: bytes, ask: bytes, count: int
    ) -> tuple[str, int, tuple[int, int, list[Outcome]]]:
        pool = self.pool
        assert pool is not None
        return name, first, await pool.call(worker.play, key, data, ask, first, count)

    async def _summed(
        self,
        tid: str,
        state: Job,
        series: dict[str, tuple[str, bytes]],
        data: bytes,
        outcomes: dict[str, dict[int, list[Outcome]]],
        runs: int,
        workers: set[Worker],
        complete: bool,
    ) -> Job:
        """The forecasts of the first ``runs`` runs of each series, summed up in a worker."""
        pool = self.pool
        assert pool is not None
        out: dict[str, tuple[bytes, bytes]] = {}
        for name, (key, ask) in series.items():
            runs_played = [o for first in sorted(outcomes[name]) for o in outcomes[name][first]]
            out[name] = await pool.call(
                worker.summarize, key, data, ask, runs_played[:runs], complete
            )
        forecast, truth = out["what_if"] if "what_if" in out else out["current"]
        state = msgspec.structs.replace(
            state,
            state="done" if complete else "running",
            played=runs,
            finished_at=self.clock() if complete else None,
            forecast=msgspec.Raw(forecast),
            baseline=msgspec.Raw(out["current"][0]) if "what_if" in out else NULL,
            workers=tuple(sorted(workers, key=lambda w: w.pid)),
        )
        await self.storage.put_job(tid, state.id, _json.encode(state), JOB_TTL)
        if complete:
            current, truth = out["current"]
            await self.storage.put(tid, "current", current)
            await self.storage.put(tid, "truth", truth)
        return state

    async def _keep(self, tid: str, state: Job, day: LiveDay) -> None:
        """The first complete forecast of the day as it stands at a level is kept for it."""
        if day.day_ended_at is not None or day.winner_at is not None:
            return
        current = state.baseline if state.what_if is not None else state.forecast
        if current != NULL:
            await self.storage.keep(tid, day.step, bytes(current))

    async def _finish(
        self,
        tid: str,
        state: Job,
        outcome: JobState,
        workers: set[Worker],
        error: str | None = None,
    ) -> None:
        ended = msgspec.structs.replace(
            state,
            state=outcome,
            finished_at=self.clock(),
            workers=tuple(sorted(workers, key=lambda w: w.pid)),
            error=error,
        )
        with contextlib.suppress(StoreError):
            await self.storage.put_job(tid, state.id, _json.encode(ended), JOB_TTL)

    # A forecast at every level -------------------------------------------------------------------

    def level_changed(self, tid: str) -> None:
        """The clock driver changed ``tid``'s level: its forecast, soon. Called from the
        clock's own thread (``clock_thread``), so handed to this loop."""
        loop = self._loop
        if loop is None or self.pool is None:
            return
        with contextlib.suppress(RuntimeError):  # the loop closed: the process stops
            loop.call_soon_threadsafe(self._changed_now, tid)

    def _changed_now(self, tid: str) -> None:
        self._changed.add(tid)
        self._wake.set()

    async def _schedule(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), SCHEDULE_EVERY)
            self._wake.clear()
            try:
                await self.levels()
            except StoreError as e:
                log.warning("forecasts at levels skipped", extra={"error": str(e)})
            except Exception:
                log.exception("forecasts at levels failed")

    async def levels(self) -> list[str]:
        """Start a forecast for each followed tournament, and each the clock driver changed
        the level of, at a level without one (or at its day's end): the tournaments started."""
        started = []
        for summary in await self.store.summaries():
            tid = summary.id
            if summary.status == "closed":
                self._changed.discard(tid)
                continue
            if not self.hub.bus.following(tid) and tid not in self._changed:
                continue
            t, _ = await self.store.tournament(tid)
            s = t.state
            if s.structure is None or not s.drawn or not s.clock.started:
                self._changed.discard(tid)
                continue
            over = s.day_ended is not None or s.winner is not None
            key = "end" if over else str(s.clock.level)
            if not over and s.clock.level in await self.storage.kept(tid):
                self._changed.discard(tid)
                continue
            if await self._busy(tid):
                continue  # a director's what-if runs: the level's forecast comes after it
            self._changed.discard(tid)
            if not await self.storage.claim(tid, key, LEVEL_CLAIM_TTL):
                continue
            try:
                await self.request(tid, Ask(), "level")
            except CannotForecast:
                continue
            started.append(tid)
        return started

    async def _busy(self, tid: str) -> bool:
        job_id = await self.storage.current_job(tid)
        if job_id is None:
            return False
        job = await self.job(tid, job_id)
        return job is not None and job.state == "running" and self.clock() - job.started_at < 600
