"""Benchmark: commands per second through the store, against the embedded Valkey server.

What one command costs end to end: the engine decides it (a bust-out: validate, apply,
housekeeping) and replans, then ``Service.execute`` writes it with the append script (the
version check, the events, the version bump, the command's result for retries, the snapshot
when due, the publication), in one atomic step and one round trip. Measured with
``appendfsync always`` and with ``everysec``, each on its own ``EmbeddedServer`` in a temp dir:

* ``1 writer, 1 tournament``: one big field (3,000 players drawn), played down by the
  simulated floor one command at a time;
* ``N tournaments, 1 process``: N tournaments written concurrently by one process (one
  ``Service``, one connection pool, one asyncio task per tournament), as a floor server does;
* ``N processes``: N writer processes, one tournament each (``--processes``, 0 = skip);
* beside each, the baseline: bare ``SET`` + ``PUBLISH`` pairs, pipelined as a pair (one round
  trip), with the same concurrency and as many pairs as the store wrote commands.

Only the set-up (registrations, the draw, the first button reports) is untimed. In the timed
part the simulated floor busts players (``next_step`` with a bust chance of 1: no hands are
dealt) and carries out the plan's balancing, breaking and final-table moves between the
bust-outs; those moves are store commands too, so they are in the timed loop and in
"commands/s", and the bust-out latencies are the bust-outs' alone. "bust-outs/s" is the
bust-outs divided by the whole wall time, moves included: a conservative figure.

Round trips per command are the store's own counter (``RedisLog.round_trips``) and, as a check,
the requests the client actually sent (calls of redis-py's ``send_packed_command``: a
pipeline is one, a connection handshake or a script reload would show up here). "cpu us" is
the writer process's CPU time per command (``time.process_time``: engine, encoding, redis-py
and the event loop), which says how close one core is to saturation; "srv us" the server's
(``INFO cpu``, all its threads: the script, the AOF writes and fsyncs).

"On one core": when two CPUs or more are available, every writer process is pinned to one CPU
with ``os.sched_setaffinity`` and every thread of the Valkey server to another (other work on
the machine is not kept off them). The event loop is uvloop's unless ``--no-uvloop``; on the
machine this was written on it made the bare baseline 10-25% faster and the store about the
same (within run-to-run noise), since the store's time goes into the engine and redis-py.

Each scenario and its baseline run ``--repeat`` times (3; fresh tournaments each time); the
table shows the run with the median throughput, the target lines every run's rate. Under
``always`` the numbers follow the disk's fsync latency, so each fsync mode starts by printing
the fsync latency measured in the server's data directory, and ends with what the server did
meanwhile (AOF size, background AOF rewrites).

    .venv/bin/python bench/store_throughput.py [--quick] [--writers 4 8] [--processes 4]
    .venv/bin/python bench/store_throughput.py --help

Targets: one round trip per command, and at least 2,000 bust-outs per second under
``appendfsync always`` with several tournaments written concurrently by one process on one
core (the several-processes row is printed for information: processes sharing one core cost
more than tasks sharing one event loop).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import multiprocessing
import os
import random
import sys
import tempfile
import time
from collections.abc import Callable, Coroutine, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import msgspec
from redis.asyncio.connection import AbstractConnection

from floor.engine import commands as cmd
from floor.engine.autopilot import next_floor_action, next_step
from floor.engine.rules import Rules
from floor.redisdb.connection import connect
from floor.redisdb.embedded import EmbeddedServer
from floor.redisdb.log import RedisLog
from floor.redisdb.seeds import RedisSeeds
from floor.store.heads import ChainHeads
from floor.store.service import Service

RULES = msgspec.convert({"game": "holdem", "seats": 9, "final_table": 9}, Rules)
MODES = ("always", "everysec")
#: The baseline's payloads: about one bust-out's event, and one published batch.
BASE_VALUE = b"v" * 200
BASE_MESSAGE = b"m" * 1500

T = TypeVar("T")

# -- counting what goes on the wire --------------------------------------------------------

_sent = 0
_send_packed_command = AbstractConnection.send_packed_command


async def _counting_send(self: AbstractConnection, *args: Any, **kwargs: Any) -> None:
    global _sent
    _sent += 1
    await _send_packed_command(self, *args, **kwargs)


AbstractConnection.send_packed_command = _counting_send  # type: ignore[method-assign]


def sent() -> int:
    return _sent


# -- running an event loop ----------------------------------------------------------------


def run_async(main: Coroutine[Any, Any, T], use_uvloop: bool) -> T:
    factory: Callable[[], asyncio.AbstractEventLoop] | None = None
    if use_uvloop:
        import uvloop

        factory = uvloop.new_event_loop
    with asyncio.Runner(loop_factory=factory) as runner:
        return runner.run(main)


def have_uvloop() -> bool:
    try:
        import uvloop  # noqa: F401
    except ImportError:
        return False
    return True


# -- what a run measured ------------------------------------------------------------------


@dataclass
class Run:
    commands: int = 0
    busts: int = 0
    start: float = 0.0
    end: float = 0.0
    round_trips: int = 0
    sends: int = 0
    #: CPU seconds the writer process(es) used meanwhile (user + system).
    cpu: float = 0.0
    #: CPU seconds the server used meanwhile (NaN: not measured).
    server_cpu: float = float("nan")
    bust_lat: list[float] = field(default_factory=list)
    all_lat: list[float] = field(default_factory=list)

    @property
    def wall(self) -> float:
        return self.end - self.start

    def merge(self, other: Run) -> None:
        self.commands += other.commands
        self.busts += other.busts
        self.start = min(self.start, other.start) if self.start else other.start
        self.end = max(self.end, other.end)
        self.round_trips += other.round_trips
        self.sends += other.sends
        self.cpu += other.cpu
        self.bust_lat += other.bust_lat
        self.all_lat += other.all_lat


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# -- the store ------------------------------------------------------------------------------


async def set_up(store: Service, tid: str, players: int, seed: int) -> None:
    """Create, register, draw and report the first buttons: everything before the clock."""
    await store.create(tid, f"Bench {tid}", RULES)
    for i in range(players):
        await store.execute(tid, cmd.Register(name=f"Player {i}", player=f"P{i}"), f"reg-{i}")
    await store.execute(tid, cmd.DrawSeats(), "draw")
    rng = random.Random(f"{seed}:setup")
    n = 0
    while True:
        t, _ = await store.tournament(tid)
        action = next_floor_action(t, rng)
        if action is None:
            return
        n += 1
        await store.execute(tid, action, f"setup-{n}")


async def play(
    store: Service, tid: str, busts: int, seed: int, run: Run, heads: ChainHeads | None = None
) -> None:
    """The timed part: bust-outs and the plan's moves, ``busts`` bust-outs or to a winner.
    With ``heads``, the hash chain's head is brought up to date after every command, as a
    reader of the open API asking after each one would make a process do."""
    rng = random.Random(seed)
    clock = time.perf_counter
    n = 0
    while run.busts < busts:
        t, version = await store.tournament(tid)
        if heads is not None:
            await heads.head(tid, version)
        command = next_step(t, rng, bust_chance=1.0)
        if command is None:
            return
        n += 1
        start = clock()
        outcome = await store.execute(tid, command, f"c-{n}")
        took = clock() - start
        if not outcome.ok:
            raise RuntimeError(f"{tid}: {command!r} was refused: {outcome.error}")
        run.commands += 1
        run.all_lat.append(took)
        if isinstance(command, cmd.Bust):
            run.busts += 1
            run.bust_lat.append(took)


async def store_scenario(
    url: str,
    tournaments: int,
    players: int,
    busts: int,
    seed: int,
    chained: bool = False,
    fair: bool = False,
) -> Run:
    """``tournaments`` tournaments written concurrently by one Service in this process; with
    ``chained``, each one's chain head kept current after every command (``play``); with
    ``fair``, the draws committed (each tournament's seeds kept in Valkey, every draw made from
    the next seed and revealed in the log, as ``floor serve`` does)."""
    redis = connect(url)
    seeds = RedisSeeds(redis) if fair else None
    store = Service(RedisLog(redis), rng=random.Random(seed), seeds=seeds)
    # The store's own heads follow each batch it writes, as a server's do.
    heads: ChainHeads | None = store.heads if chained else None
    try:
        tids = [f"s{seed}-{i}" for i in range(tournaments)]
        await asyncio.gather(*(set_up(store, tid, players, seed + i) for i, tid in enumerate(tids)))
        runs = [Run() for _ in tids]
        if heads is not None:
            # The head first asked for before the timing (one read of the set-up's events), as
            # a wall opened before play: from then on it follows the batches.
            for tid in tids:
                _, version = await store.tournament(tid)
                await heads.head(tid, version)
        server_start = await server_cpu(redis)
        trips, wire, cpu = store.log.round_trips, sent(), time.process_time()
        start = time.monotonic()
        await asyncio.gather(
            *(
                play(store, tid, busts, seed + i, r, heads)
                for i, (tid, r) in enumerate(zip(tids, runs, strict=True))
            )
        )
        total = Run(start=start, end=time.monotonic())
        for r in runs:
            total.merge(r)
        total.start = start
        total.round_trips = store.log.round_trips - trips
        total.sends = sent() - wire
        total.cpu = time.process_time() - cpu
        total.server_cpu = await server_cpu(redis) - server_start
        return total
    finally:
        await redis.aclose()


async def server_cpu(redis: Any) -> float:
    """The server's CPU seconds so far (all its threads, user + system)."""
    info = await redis.info("cpu")
    return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])


# -- the baseline ---------------------------------------------------------------------------


async def baseline_scenario(url: str, tasks: int, per_task: int) -> Run:
    """Bare SET + PUBLISH pairs, one pipeline (one round trip) each, ``tasks`` at a time."""
    redis = connect(url)
    clock = time.perf_counter
    lat: list[list[float]] = [[] for _ in range(tasks)]

    async def one(i: int) -> None:
        mine = lat[i]
        for k in range(per_task):
            start = clock()
            async with redis.pipeline(transaction=False) as pipe:
                pipe.set(f"bench:{{b{i}}}:{k % 1000}", BASE_VALUE)
                pipe.publish(f"bench:{{b{i}}}:live", BASE_MESSAGE)
                await pipe.execute()
            mine.append(clock() - start)

    try:
        server_start = await server_cpu(redis)  # and the connection handshake, uncounted
        wire, cpu = sent(), time.process_time()
        start = time.monotonic()
        await asyncio.gather(*(one(i) for i in range(tasks)))
        run = Run(start=start, end=time.monotonic(), sends=sent() - wire)
        run.cpu = time.process_time() - cpu
        run.server_cpu = await server_cpu(redis) - server_start
        run.commands = tasks * per_task
        run.round_trips = run.sends
        run.all_lat = [x for xs in lat for x in xs]
        return run
    finally:
        await redis.aclose()


# -- several processes ----------------------------------------------------------------------


def _process_main(
    url: str,
    tid_seed: int,
    players: int,
    busts: int,
    cpu: int | None,
    use_uvloop: bool,
    barrier: Any,
    results: Any,
) -> None:
    if cpu is not None:
        os.sched_setaffinity(0, {cpu})

    async def main() -> Run:
        redis = connect(url)
        store = Service(RedisLog(redis), rng=random.Random(tid_seed))
        tid = f"p{tid_seed}"
        try:
            await set_up(store, tid, players, tid_seed)
            await asyncio.to_thread(barrier.wait, 120)
            run = Run()
            trips, wire, cpu = store.log.round_trips, sent(), time.process_time()
            run.start = time.monotonic()
            await play(store, tid, busts, tid_seed, run)
            run.end = time.monotonic()
            run.cpu = time.process_time() - cpu
            run.round_trips = store.log.round_trips - trips
            run.sends = sent() - wire
            return run
        finally:
            await redis.aclose()

    try:
        run = run_async(main(), use_uvloop)
    except BaseException as e:
        with contextlib.suppress(Exception):
            barrier.abort()
        results.put(("error", repr(e)))
        raise
    results.put(("ok", msgspec.msgpack.encode(run.__dict__)))


def processes_scenario(
    url: str, processes: int, players: int, busts: int, seed: int, cpu: int | None, uv: bool
) -> Run:
    ctx = multiprocessing.get_context("spawn")
    barrier = ctx.Barrier(processes)
    results = ctx.Queue()
    procs = [
        ctx.Process(
            target=_process_main,
            args=(url, seed + i, players, busts, cpu, uv, barrier, results),
            daemon=True,
        )
        for i in range(processes)
    ]
    for p in procs:
        p.start()
    total = Run()
    try:
        for _ in procs:
            status, payload = results.get(timeout=600)
            if status != "ok":
                raise RuntimeError(f"a writer process failed: {payload}")
            total.merge(Run(**msgspec.msgpack.decode(payload)))
    finally:
        for p in procs:
            p.join(timeout=10)
            if p.is_alive():
                p.kill()
                p.join()
    return total


# -- the server ------------------------------------------------------------------------------


@contextlib.contextmanager
def server(mode: str, cpu: int | None) -> Iterator[EmbeddedServer]:
    with tempfile.TemporaryDirectory(prefix=f"floor-bench-{mode}-") as tmp:
        srv = EmbeddedServer(Path(tmp), appendfsync=mode)  # type: ignore[arg-type]
        srv.start()
        try:
            if cpu is not None and srv.pid is not None:
                pin_all_threads(srv.pid, cpu)
            yield srv
        finally:
            srv.stop()


def pin_all_threads(pid: int, cpu: int) -> None:
    for task in os.listdir(f"/proc/{pid}/task"):
        with contextlib.suppress(ProcessLookupError):
            os.sched_setaffinity(int(task), {cpu})


# -- the report -----------------------------------------------------------------------------


@dataclass
class Row:
    mode: str
    scenario: str
    store: Run
    base: Run
    #: Bust-outs per second of every repetition.
    bust_rates: list[float]


def ms(x: float) -> str:
    return f"{x * 1e3:7.3f}"


def per_command(seconds: float, commands: int) -> str:
    return "     -" if math.isnan(seconds) else f"{seconds / commands * 1e6:6.0f}"


def print_table(rows: list[Row]) -> None:
    head = (
        f"{'fsync':9} {'scenario':26} {'cmds':>6} {'cmds/s':>8} {'busts/s':>8} "
        f"{'RT/cmd':>6} {'wire':>5} {'cpu us':>6} {'srv us':>6} {'bust p50':>8} "
        f"{'bust p99':>8} {'cmd p99':>8} | {'base/s':>8} {'b p50':>7} {'b p99':>7} "
        f"{'cpu us':>6} {'srv us':>6} {'store/base':>10}"
    )
    print(head)
    print("-" * len(head))
    for row in rows:
        s, b = row.store, row.base
        rate = s.commands / s.wall
        base_rate = b.commands / b.wall
        print(
            f"{row.mode:9} {row.scenario:26} {s.commands:6d} {rate:8.0f} {s.busts / s.wall:8.0f} "
            f"{s.round_trips / s.commands:6.2f} {s.sends / s.commands:5.2f} "
            f"{s.cpu / s.commands * 1e6:6.0f} {per_command(s.server_cpu, s.commands)} "
            f"{ms(percentile(s.bust_lat, 0.5)):>8} {ms(percentile(s.bust_lat, 0.99)):>8} "
            f"{ms(percentile(s.all_lat, 0.99)):>8} | {base_rate:8.0f} "
            f"{ms(percentile(b.all_lat, 0.5))} {ms(percentile(b.all_lat, 0.99))} "
            f"{b.cpu / b.commands * 1e6:6.0f} {per_command(b.server_cpu, b.commands)} "
            f"{rate / base_rate:10.2f}"
        )
    print(
        "(latencies in ms; RT/cmd = RedisLog.round_trips per command; wire = requests sent per "
        "command; cpu us = the writer's CPU time per command, event loop and client included; "
        "srv us = the server's)"
    )


@dataclass(frozen=True)
class Settings:
    players: int
    busts: int
    writers: list[int]
    field: int
    busts_each: int
    processes: int
    seed: int
    uvloop: bool
    writer_cpu: int | None
    server_cpu: int | None
    repeat: int


def measure(mode: str, cfg: Settings) -> list[Row]:
    """Every scenario, each beside its baseline, on a fresh server with this fsync mode.

    Each pair runs ``cfg.repeat`` times (fresh tournaments each time); the row keeps the pair
    whose store throughput is the median, and the range of all of them.
    """
    rows: list[Row] = []
    with server(mode, cfg.server_cpu) as srv:
        url = srv.url
        print(f"  {mode:9} environment: {environment(srv.data_dir)}", flush=True)

        def in_loop(main: Coroutine[Any, Any, Run]) -> Run:
            return run_async(main, cfg.uvloop)

        def seed(rep: int, offset: int) -> int:
            return cfg.seed + 100_000 * rep + offset

        scenarios: list[tuple[str, Callable[[int], Run], int]] = [
            (
                "1 writer, 1 tournament",
                lambda rep: in_loop(store_scenario(url, 1, cfg.players, cfg.busts, seed(rep, 0))),
                1,
            )
        ]

        def concurrent(w: int) -> Callable[[int], Run]:
            return lambda rep: in_loop(
                store_scenario(url, w, cfg.field, cfg.busts_each, seed(rep, 100 * w))
            )

        for w in cfg.writers:
            scenarios.append((f"{w} tournaments, 1 process", concurrent(w), w))
        # The same as the first, with every tournament's hash chain head read after each
        # command (issue 32: at most 10% fewer bust-outs a second than without).
        first = cfg.writers[0]
        # The same with the draws committed (issue 32.1: a seed per draw, revealed).
        scenarios.append(
            (
                f"{first} tournaments, committed draws",
                lambda rep: in_loop(
                    store_scenario(
                        url,
                        first,
                        cfg.field,
                        cfg.busts_each,
                        seed(rep, 100 * first + 70),
                        fair=True,
                    )
                ),
                first,
            )
        )
        scenarios.append(
            (
                f"{first} tournaments, chain read",
                lambda rep: in_loop(
                    store_scenario(
                        url, first, cfg.field, cfg.busts_each, seed(rep, 100 * first + 50), True
                    )
                ),
                first,
            )
        )
        if cfg.processes:
            name = f"{cfg.processes} processes" + (", 1 core" if cfg.writer_cpu is not None else "")
            scenarios.append(
                (
                    name,
                    lambda rep: processes_scenario(
                        url,
                        cfg.processes,
                        cfg.field,
                        cfg.busts_each,
                        seed(rep, 10_000),
                        cfg.writer_cpu,
                        cfg.uvloop,
                    ),
                    cfg.processes,
                )
            )
        for name, scenario, concurrency in scenarios:
            pairs: list[tuple[Run, Run]] = []
            for rep in range(cfg.repeat):
                run = scenario(rep)
                per_task = max(1, run.commands // concurrency)
                base = in_loop(baseline_scenario(url, concurrency, per_task))
                pairs.append((run, base))
                print(
                    f"  {mode:9} {name:26} {run.commands} commands ({run.busts} bust-outs) in "
                    f"{run.wall:.2f}s; baseline {base.commands} pairs in {base.wall:.2f}s",
                    flush=True,
                )
            pairs.sort(key=lambda pair: pair[0].commands / pair[0].wall)
            run, base = pairs[len(pairs) // 2]
            rows.append(Row(mode, name, run, base, [r.busts / r.wall for r, _ in pairs]))
        print(f"  {mode:9} server: {server_info(url)}", flush=True)
    return rows


def environment(directory: Path) -> str:
    """The disk's fsync latency where the AOF lives, and the machine's load: the context the
    numbers were taken in (``always`` waits for an fsync per event-loop turn of the server)."""
    lat: list[float] = []
    path = directory / "fsync-probe"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    try:
        for _ in range(300):
            os.write(fd, BASE_VALUE * 5)
            start = time.perf_counter()
            os.fsync(fd)
            lat.append(time.perf_counter() - start)
    finally:
        os.close(fd)
        path.unlink()
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    return (
        f"fsync of a 1 KB append p50 {ms(percentile(lat, 0.5)).strip()} ms, "
        f"p99 {ms(percentile(lat, 0.99)).strip()} ms; load average {load} "
        f"on {os.cpu_count()} CPUs"
    )


def server_info(url: str) -> str:
    """What the server did meanwhile that costs time: AOF rewrites (a fork), delayed fsyncs."""

    async def info() -> dict[str, Any]:
        redis = connect(url)
        try:
            return await redis.info("persistence")
        finally:
            await redis.aclose()

    got = asyncio.run(info())
    return (
        f"AOF {got.get('aof_current_size', 0) / 2**20:.0f} MiB, "
        f"{got.get('aof_rewrites', 0)} AOF rewrite(s), "
        f"{got.get('aof_delayed_fsync', 0)} delayed fsync(s)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a short run (a few seconds)")
    parser.add_argument("--players", type=int, help="the single tournament's field (3000)")
    parser.add_argument("--busts", type=int, help="bust-outs timed in the single run (2000)")
    parser.add_argument("--writers", type=int, nargs="+", help="concurrent tournaments (4 8)")
    parser.add_argument("--field", type=int, help="players per concurrent tournament (1000)")
    parser.add_argument("--busts-each", type=int, help="bust-outs per concurrent one (500)")
    parser.add_argument("--processes", type=int, help="writer processes, 0 = skip (4)")
    parser.add_argument("--modes", nargs="+", choices=MODES, default=list(MODES))
    parser.add_argument("--no-uvloop", action="store_true")
    parser.add_argument("--no-pin", action="store_true", help="do not pin to CPUs")
    parser.add_argument("--repeat", type=int, help="runs of each scenario, median kept (3)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    quick = args.quick
    cpus = sorted(os.sched_getaffinity(0))
    pin = len(cpus) >= 2 and not args.no_pin
    cfg = Settings(
        players=args.players or (1000 if quick else 3000),
        busts=args.busts or (400 if quick else 2000),
        writers=args.writers or ([4] if quick else [4, 8]),
        field=args.field or (400 if quick else 1000),
        busts_each=args.busts_each or (150 if quick else 500),
        processes=args.processes if args.processes is not None else (0 if quick else 4),
        seed=args.seed,
        uvloop=not args.no_uvloop and have_uvloop(),
        writer_cpu=cpus[0] if pin else None,
        server_cpu=cpus[1] if pin else None,
        repeat=args.repeat or (1 if quick else 3),
    )
    if cfg.writer_cpu is not None:
        os.sched_setaffinity(0, {cfg.writer_cpu})
    print(f"python {sys.version.split()[0]}, event loop: {'uvloop' if cfg.uvloop else 'asyncio'}")
    if cfg.writer_cpu is not None:
        print(
            f"writer process(es) pinned to CPU {cfg.writer_cpu}, "
            f"valkey-server (all its threads) to CPU {cfg.server_cpu}"
        )
    else:
        print(f"not pinned (CPUs available: {cpus})")
    print(
        f"single: {cfg.players} players drawn, {cfg.busts} bust-outs timed; concurrent: "
        f"{cfg.field} players each, {cfg.busts_each} bust-outs each; 9-seat hold'em; "
        "the plan's moves are carried out in the timed loop"
    )
    print()
    rows = [row for mode in args.modes for row in measure(mode, cfg)]
    print()
    print_table(rows)
    print()
    report_targets(rows)


def report_targets(rows: list[Row]) -> None:
    trips = max(r.store.round_trips / r.store.commands for r in rows)
    wire = max(r.store.sends / r.store.commands for r in rows)
    one_trip = trips <= 1.0 and wire <= 1.01
    print(
        f"target: one round trip per command: {'met' if one_trip else 'MISSED'} "
        f"(worst: {trips:.3f} by the store's count, {wire:.3f} requests sent)"
    )
    always = [r for r in rows if r.mode == "always" and not r.scenario.startswith("1 writer")]
    for r in always:
        rate = r.store.busts / r.store.wall
        commands = r.store.commands / r.store.wall
        spread = ", ".join(f"{x:.0f}" for x in sorted(r.bust_rates))
        in_process = r.scenario.endswith("1 process")
        verdict = ("met" if rate >= 2000 else "MISSED") if in_process else "for information"
        print(
            f"target: >= 2,000 bust-outs/s, several writers on one core, always, {r.scenario}: "
            f"{verdict} (median {rate:.0f}/s of runs at {spread}; {commands:.0f} commands/s "
            "counting the moves)"
        )
    for mode in {r.mode for r in rows}:
        plain = next((r for r in rows if r.mode == mode and r.scenario.endswith("1 process")), None)
        chained = next(
            (r for r in rows if r.mode == mode and r.scenario.endswith("chain read")), None
        )
        if plain is None or chained is None:
            continue
        a = plain.store.busts / plain.store.wall
        b = chained.store.busts / chained.store.wall
        verdict = "met" if b >= 0.9 * a else "MISSED"
        print(
            f"target: the chain costs at most 10% of bust-outs/s, {mode}: {verdict} "
            f"({b:.0f}/s with the head read after every command beside {a:.0f}/s without, "
            f"{b / a:.2f}x)"
        )
        fair = next(
            (r for r in rows if r.mode == mode and r.scenario.endswith("committed draws")), None
        )
        if fair is not None:
            c = fair.store.busts / fair.store.wall
            verdict = "met" if c >= 0.9 * a else "MISSED"
            print(
                f"target: committed draws cost at most 10% of bust-outs/s, {mode}: {verdict} "
                f"({c:.0f}/s with every draw from its seed beside {a:.0f}/s without, "
                f"{c / a:.2f}x)"
            )
    if not any(r.scenario.endswith("1 process") for r in always):
        print("target: >= 2,000 bust-outs/s, several writers, always: not measured")


if __name__ == "__main__":
    main()
