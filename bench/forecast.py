"""How fast the day forecaster answers, played as a staff process plays it.

A live day (``bench/forecasting/days.py``: a field drawn, its clock started, the first levels
played with bust-outs) is read (``live_day``) and its runs are handed to the worker processes
at nice 19 in chunks of ``CHUNK`` runs (``forecasts.CHUNK``), each chunk's outcomes summed up
in a worker, as ``floor.server.forecasts`` does. Timed from the read to the first useful
forecast (``FIRST_RUNS`` runs summed) and to the whole one, median of ``--repeat``.

The baseline, measured in the same run: the same runs played one after another in this
process (no pool), and a few runs of the lighter model played on the engine itself
(``engine_check.replay``: every bust-out and entry decided, the floor carrying out every
move), extrapolated to the same count: what the forecast would cost without the lighter model.

Then the staff's commands (``bench/forecast_staff.py``): a real ``floor serve`` holding a day
of ``--staff-players``, a bust, its undo and the clock adjusted sent over HTTP at a steady
rate, their p99 with the server idle beside their p99 while forecasts of 300 runs are played
in its niced workers, same run.

    .venv/bin/python bench/forecast.py [--repeat 3] [--engine-runs 2] [--staff-players 10000]

The issue's targets (10,000 players from level 4: 50 runs within 10 s, 300 within 60 s; 60
players: 300 runs within 2 s; the staff's command p99 beside a forecast within 1.5x idle)
are printed beside the figures, never asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import msgspec  # noqa: E402

from bench.forecast_staff import measure  # noqa: E402
from bench.forecasting.days import live  # noqa: E402
from floor.engine.state import Tournament  # noqa: E402
from floor.forecast import jobs, worker  # noqa: E402
from floor.forecast.engine_check import replay  # noqa: E402
from floor.forecast.live import live_day  # noqa: E402
from floor.forecast.model import FIRST_RUNS, Corrections, Settings  # noqa: E402
from floor.forecast.runs import Outcome, Trace, play  # noqa: E402
from floor.server.forecast_pool import WorkerPool, workers_for  # noqa: E402
from floor.server.forecasts import CHUNK  # noqa: E402

_json = msgspec.json.Encoder()


async def pooled(
    pool: WorkerPool, t: Tournament, now: float, runs: int, key: str
) -> tuple[float, float]:
    """Seconds to the first useful forecast and to the whole one, through the workers."""
    started = time.perf_counter()
    data = msgspec.msgpack.encode(live_day(t, now, 1))
    ask = _json.encode(
        worker.Ask(corrections=Corrections(), settings=Settings(), runs=runs, seed=7)
    )
    chunks = [(first, min(CHUNK, runs - first)) for first in range(0, runs, CHUNK)]
    done: dict[int, list[Outcome]] = {}
    first_at = 0.0
    pending: set[asyncio.Future[tuple[int, tuple[int, int, list[Outcome]]]]] = set()

    async def chunk(first: int, count: int) -> tuple[int, tuple[int, int, list[Outcome]]]:
        return first, await pool.call(worker.play, key, data, ask, first, count)

    while chunks or pending:
        while chunks and len(pending) < pool.workers:
            pending.add(asyncio.ensure_future(chunk(*chunks.pop(0))))
        finished, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
        for f in finished:
            first, (_, _, outcomes) = f.result()
            done[first] = outcomes
        played = [o for first in sorted(done) for o in done[first]]
        if not first_at and FIRST_RUNS <= len(played) < runs:
            await pool.call(worker.summarize, key, data, ask, played[:FIRST_RUNS], False)
            first_at = time.perf_counter() - started
    played = [o for first in sorted(done) for o in done[first]]
    await pool.call(worker.summarize, key, data, ask, played, True)
    whole = time.perf_counter() - started
    return first_at or whole, whole


def serial(t: Tournament, now: float, runs: int) -> float:
    started = time.perf_counter()
    p = jobs.prepare(live_day(t, now, 1), None, Corrections(), Settings(), runs, 7)
    jobs.finish(p, jobs.play_runs(p, 0, runs))
    return time.perf_counter() - started


def on_engine(t: Tournament, now: float, runs: int) -> float:
    """Seconds per run of the same day played on the engine."""
    p = jobs.prepare(live_day(t, now, 1), None, Corrections(), Settings(), runs, 7)
    traces: list[Trace] = []
    for i in range(runs):
        traces.append([])
        play(p.course, jobs.run_seed(7, i), traces[-1])
    started = time.perf_counter()
    for i, trace in enumerate(traces):
        replay(t, trace, i)
    return (time.perf_counter() - started) / runs


async def case(
    pool: WorkerPool, name: str, players: int, runs: int, repeat: int, engine_runs: int, target: str
) -> None:
    t, now = live(players, 4 if players > 100 else 2, seats=9)
    firsts, wholes, serials = [], [], []
    for i in range(repeat):
        first, whole = await pooled(pool, t, now, runs, f"bench:{name}:{i}")
        firsts.append(first)
        wholes.append(whole)
        serials.append(serial(t, now, runs))
    per_run = on_engine(t, now, engine_runs)
    print(
        f"{name}: {t.active:,} players left, {runs} runs on {pool.workers} workers at nice 19\n"
        f"  forecaster  first {FIRST_RUNS} runs {statistics.median(firsts):6.2f} s   "
        f"all {runs} runs {statistics.median(wholes):6.2f} s   (median of {repeat}; {target})\n"
        f"  baseline    {runs} runs in one process, no pool {statistics.median(serials):6.2f} s   "
        f"on the engine {per_run:6.2f} s a run: {runs} runs about {per_run * runs:,.0f} s "
        f"(from {engine_runs})",
        flush=True,
    )


async def main(args: argparse.Namespace) -> None:
    pool = WorkerPool(workers_for(args.workers))
    try:
        # The workers are started by a staff process's first forecast and kept: timed apart.
        started = time.perf_counter()
        await asyncio.gather(*(pool.call(worker.where) for _ in range(pool.workers)))
        print(f"{pool.workers} workers started in {time.perf_counter() - started:.2f} s (once)")
        await case(
            pool, "60 players", 60, 300, args.repeat, args.engine_runs, "target: 300 within 2 s"
        )
        await case(
            pool,
            "10,000 players from level 4",
            10_000,
            300,
            args.repeat,
            args.engine_runs,
            "target: 50 within 10 s, 300 within 60 s",
        )
    finally:
        pool.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--engine-runs", type=int, default=2)
    parser.add_argument("--workers", type=int, default=0, help="0: one per core, at most 4")
    parser.add_argument("--staff-players", type=int, default=10_000, help="0: no staff window")
    parser.add_argument("--staff-rate", type=float, default=20.0, help="commands a second")
    parser.add_argument("--staff-seconds", type=float, default=20.0, help="each window")
    parser.add_argument("--staff-only", action="store_true", help="the staff's windows only")
    args = parser.parse_args()
    if not args.staff_only:
        asyncio.run(main(args))
    if args.staff_players:
        measure(args.staff_players, 300, args.staff_rate, args.staff_seconds)
