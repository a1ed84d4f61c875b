"""Chaos soak (issue #7, #24): a tournament played to its winner while its servers are killed.

A simulated tournament plays to its winner through the HTTP API, floor staff on staff
screens and the public on theirs (a third to a half of them on a public edge), while the
floor processes, the process that keeps the embedded Valkey and Valkey itself are
SIGKILLed at random moments. All on loopback, bounded in time. At the end it checks that
every acknowledged command is in the log, that replaying the log gives the servers' state
(and the reload), and that every screen shows exactly that state as its view shows it; it
prints what it did and exits 1 (loudly) if anything is off, or if there is no winner within
its budget.

    .venv/bin/python bench/chaos_soak.py            # full: 2,000 players, 1,000 screens
    .venv/bin/python bench/chaos_soak.py --quick    # in .ci/run: seed 24, about a minute
    .venv/bin/python bench/chaos_soak.py --seed 42 --players 500 --clients 200 --keep

The pieces (``bench/chaos/``):

* Topology (``cluster.py``): the *keeper*, ``floor serve`` without ``REDIS_URL``, runs the
  embedded Valkey (``appendfsync always``) with its supervisor, ``FLOOR_VALKEY_RESTARTS``
  ``--valkey-restarts`` within ``FLOOR_VALKEY_RESTART_WINDOW`` ``--valkey-window``; the
  other staff servers (``--servers`` in all, with the keeper) and ``--edges`` public edges
  (``FLOOR_SERVES=public``) use it through its socket (``FLOOR_HEARTBEAT`` short so screens
  notice a dead connection fast); a director account made with ``floor user add``.
* The floor: ``--floorpersons`` floorpersons (``floorperson.py``). They create the
  tournament (an inline structure of ``--level-minutes`` levels; the clock runs, so the clock
  driver writes level changes and its lease moves when its server dies), register the
  players (split between them), draw, start the clock, then each follows the tournament on
  a staff screen of its own (signed in: the moves not called yet and the seats drawn for
  them are the staff's), decides the next command as floor staff do (each move called, then
  carried out; otherwise a hand or a bust-out) and POSTs it to a staff server with a unique
  command id, resending the same id to the next server on a network error or a 503 until
  answered. 409s (the other floorperson got there first) are counted; more than a few fail
  the soak (the floor would be deciding on something else than the server). After the
  winner the clock is paused, so the log stops growing.
* The public's screens: ``--clients`` screens in ``--workers`` processes (``watchers.py``),
  each joining as a page does (the packed snapshot over HTTP, then ``/ws/t/{id}?since=``),
  even-numbered ones on an edge, reconnecting with ``since`` (with backoff, moving to the
  next server after three failures), recording digests of what they applied
  (``screen.py``); ``--full-screens`` of them also fold every event.
* Chaos (``kills.py``): ``--server-kills`` SIGKILLs of a floor process (a staff server or
  an edge), ``--keeper-kills`` of the keeper, ``--valkey-kills`` of Valkey (each after a
  healthy gap, more than the supervisor allows failed restarts), one of them with a floor
  process down at the same time, and ``--storms`` storms: every screen cut at once, all
  reconnecting with ``since`` together; each at a random point of the tournament's progress
  (seeded; the seed is printed).
* The checks (``verify.py``): see its docstring. Besides: every answer a 5xx other than 503
  (or a 401) fails the soak, and so does a floor process exiting by itself (the keeper
  giving up on its Valkey), the keeper's supervisor counting a failure, and a server's
  Redis connection pool running out ("Too many connections" in a close reason or the
  servers' logs, Redis being up).
* ``python -m bench.chaos.repro``: deterministic reproductions of what it found in ``floor/``.

Prints the chaos as it happens and a status line every ``--status-every`` seconds, then a
summary (kills and restarts, commands sent/acknowledged/refused/retried and why, screens'
connects/reconnects/snapshots/resyncs and how their connections ended, what was verified),
then PASSED, or FAILED with one line per problem (exit status 1; the run directory with the
servers' logs, the AOF and every distinct snapshot a screen got is kept for a look).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import shutil
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.chaos.cluster import FloorServer, Valkey, add_user  # noqa: E402
from bench.chaos.floorperson import Ack, Floorperson, Ledger, Phone, SoakFailure  # noqa: E402
from bench.chaos.kills import Chaos, say, watch_exits  # noqa: E402
from bench.chaos.screen import Screen, watchdog  # noqa: E402
from bench.chaos.verify import Verdict, check_log, check_screens, check_servers  # noqa: E402
from bench.chaos.watchers import STORM_WITHIN, drop_all  # noqa: E402

SECRET = "chaos-director-secret"
#: The seed of ``--quick`` unless one is given: the same run in CI every time.
QUICK_SEED = 24


def structure(level_minutes: float, levels: int = 60) -> dict[str, Any]:
    return {
        "name": "chaos-soak",
        "starting_stack": 20000,
        "chips": [25, 100, 500, 1000, 5000, 25000],
        "levels": [
            {
                "type": "level",
                "small_blind": 25 * (i + 1),
                "big_blind": 50 * (i + 1),
                "minutes": level_minutes,
            }
            for i in range(levels)
        ],
    }


# -- the watcher processes ------------------------------------------------------------------


class Watchers:
    """One worker process of screens (``bench.chaos.watchers``)."""

    def __init__(self, n: int, cfg: dict[str, Any], log: Path) -> None:
        self.n = n
        self.cfg = cfg
        self.log = log
        self.proc: asyncio.subprocess.Process | None = None
        self.status: dict[str, Any] = {}
        self.report: dict[str, Any] | None = None
        #: Storm answers (``watchers.storm``) by storm number.
        self.storms: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.done = asyncio.Event()
        self.reader: asyncio.Task[None] | None = None

    async def start(self) -> None:
        with self.log.open("ab") as err:
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "bench.chaos.watchers",
                json.dumps(self.cfg),
                cwd=ROOT,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=err,
                limit=1 << 28,
                start_new_session=True,
            )
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        while line := await self.proc.stdout.readline():
            msg = json.loads(line)
            if msg["type"] == "status":
                self.status = msg
            elif msg["type"] == "report":
                self.report = msg
            elif msg["type"] == "storm":
                answer = self.storms.get(msg["id"])
                if answer is not None and not answer.done():
                    answer.set_result(msg)
        self.done.set()
        for answer in self.storms.values():
            if not answer.done():
                answer.set_exception(SoakFailure(f"watcher process {self.n} exited"))

    async def storm(self, k: int) -> dict[str, Any]:
        """Drop all this process's screens at once; its answer once they are all back."""
        assert self.proc is not None and self.proc.stdin is not None
        answer = self.storms[k] = asyncio.get_running_loop().create_future()
        self.proc.stdin.write(json.dumps({"type": "storm", "id": k}).encode() + b"\n")
        await self.proc.stdin.drain()
        return await asyncio.wait_for(answer, STORM_WITHIN + 30)

    async def finish(self, target: int, within: float) -> list[dict[str, Any]]:
        assert self.proc is not None and self.proc.stdin is not None
        self.proc.stdin.write(
            json.dumps({"type": "finish", "target": target, "timeout": within}).encode() + b"\n"
        )
        await self.proc.stdin.drain()
        try:
            await asyncio.wait_for(self.done.wait(), within + 60)
        except TimeoutError:
            raise SoakFailure(f"watcher process {self.n} did not report; see {self.log}") from None
        if self.report is None:
            raise SoakFailure(
                f"watcher process {self.n} exited ({self.proc.returncode}) without a report; "
                f"see {self.log}"
            )
        screens: list[dict[str, Any]] = self.report["screens"]
        return screens

    async def kill(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.proc.kill()
            await self.proc.wait()


# -- the run ----------------------------------------------------------------------------------


async def guarded(work: Awaitable[Any], *guards: asyncio.Task[None]) -> Any:
    """``work``'s result, unless one of ``guards`` (``watch_exits``, the chaos) raises
    first: a floor process that died by itself, or a kill whose restart failed, would leave
    the floor waiting until the budget runs out."""
    task = asyncio.ensure_future(work)
    pending = {task, *guards}
    try:
        while not task.done():
            done, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
            for guard in done - {task}:
                if not guard.cancelled() and guard.exception() is not None:
                    guard.result()
        return task.result()
    finally:
        # Out of the budget, or a guard raised: the work stops before its clients close.
        if not task.done():
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)


def homes(clients: int, staff: int, edges: int) -> list[int]:
    """The server each public screen joins first, as an index into staff servers then
    edges: with an edge, every other screen is on one (phones behind nginx), the rest on
    the staff servers (the edge down, or none deployed)."""
    out = []
    for i in range(clients):
        if edges and i % 2 == 0:
            out.append(staff + (i // 2) % edges)
        else:
            out.append((i // 2 if edges else i) % staff)
    return out


async def soak(args: argparse.Namespace, run_dir: Path, v: Verdict, info: dict[str, Any]) -> None:
    """The run; ``v`` and ``info`` are filled as it goes (so a failure still reports)."""
    seed: int = args.seed
    rng = random.Random(seed)
    tid = f"chaos-{seed}"[:40]
    run = f"s{seed}"

    valkey = Valkey(run_dir / "valkey")
    keeper = FloorServer(
        "server-0",
        None,
        run_dir / "server-0.log",
        args.heartbeat,
        env={
            "FLOOR_DATA_DIR": str(valkey.data_dir),
            "FLOOR_APPENDFSYNC": "always",
            "FLOOR_VALKEY_RESTARTS": str(args.valkey_restarts),
            "FLOOR_VALKEY_RESTART_WINDOW": str(args.valkey_window),
        },
    )
    servers: list[FloorServer] = [keeper]
    watchers: list[Watchers] = []
    tasks: list[asyncio.Task[Any]] = []
    phones: list[Phone] = []
    info["valkey"] = valkey
    info["servers"] = servers
    try:
        # Every process at once: the others find Valkey on the keeper's socket when it is up.
        url = valkey.url
        staff = [keeper] + [
            FloorServer(f"server-{i}", url, run_dir / f"server-{i}.log", args.heartbeat)
            for i in range(1, args.servers)
        ]
        bare = [
            FloorServer(f"bare-{i}", url, run_dir / f"bare-{i}.log", args.heartbeat)
            for i in range(args.bare_servers)
        ]
        edges = [
            FloorServer(
                f"edge-{i}", url, run_dir / f"edge-{i}.log", args.heartbeat, serves="public"
            )
            for i in range(args.edges)
        ]
        servers += staff[1:] + bare + edges
        await asyncio.gather(keeper.start(healthy=True), *(s.start() for s in servers[1:]))
        await asyncio.to_thread(add_user, url, "boss", SECRET, "director")
        guard = asyncio.create_task(watch_exits(servers))
        tasks.append(guard)
        say(
            f"valkey kept by {keeper.name} (appendfsync always, FLOOR_VALKEY_RESTARTS "
            f"{args.valkey_restarts} in FLOOR_VALKEY_RESTART_WINDOW {args.valkey_window:g}s, "
            f"{url}); "
            + ", ".join(
                f"{s.name} on port {s.port}" + (" (public edge)" if s in edges else "")
                for s in servers
            )
        )
        # Commands go to every staff server; staff screens watch the first --servers; the
        # public's screens those and the edges.
        bases = [s.base for s in staff + bare]
        ledger = Ledger()
        info["ledger"] = ledger
        phones = [
            Phone(f"floorperson {k}", bases, "boss", SECRET, tid, ledger, k % len(bases), seed=seed)
            for k in range(args.floorpersons)
        ]
        for p in phones:
            await p.sign_in()
        info["token"] = phones[0].token

        body = {
            "id": tid,
            "name": f"Chaos soak {seed}",
            "rules": "tda-2024",
            "structure": structure(args.level_minutes),
        }
        r = await phones[0].request("POST", "/api/tournaments", body, "create")
        if r.status_code != 201:
            raise SoakFailure(f"creating the tournament: {r.status_code} {r.text}")
        created = r.json()
        ledger.acks[f"create-{tid}"] = Ack(
            f"create-{tid}",
            "create",
            True,
            created["first"],
            created["last"],
            None,
            created["duplicate"],
            1,
            201,
        )
        say(f"tournament {tid} created; {args.players} players to register")

        # The floorpersons' own staff screens (full folds, in this process).
        dump = run_dir / "snapshots"
        dump.mkdir()
        staff_bases = [s.base for s in staff]
        views = [
            Screen(
                -1 - k,
                staff_bases,
                tid,
                k % len(staff_bases),
                full=True,
                seed=seed,
                dump=dump,
                token=phones[k].token,
            )
            for k in range(args.floorpersons)
        ]
        tasks += [asyncio.create_task(s.run()) for s in views]
        tasks.append(asyncio.create_task(watchdog(views)))
        view = views[0]

        # The public's screens, joining over --ramp seconds.
        screen_bases = staff_bases + [s.base for s in edges]
        home_of = homes(args.clients, len(staff), len(edges))
        per = [
            args.clients // args.workers + (1 if w < args.clients % args.workers else 0)
            for w in range(args.workers)
        ]
        step = max(1, args.clients // max(1, args.full_screens))
        full = list(range(0, args.clients, step))[: args.full_screens]
        first = 0
        for w, count in enumerate(per):
            cfg = {
                "tid": tid,
                "servers": screen_bases,
                "homes": home_of[first : first + count],
                "first": first,
                "count": count,
                "full": [i for i in full if first <= i < first + count],
                "ramp": args.ramp,
                "seed": seed,
                "dump": str(dump),
            }
            watchers.append(Watchers(w, cfg, run_dir / f"watchers-{w}.log"))
            first += count
        await asyncio.gather(*(w.start() for w in watchers))
        joined = time.monotonic() + args.ramp + 1.0
        on_edges = sum(1 for h in home_of if h >= len(staff))
        say(
            f"{args.clients} public screens in {args.workers} processes joining over "
            f"{args.ramp:g}s, {on_edges} of them on the edge ({len(full)} fold every event); "
            f"{len(views)} staff screens"
        )

        players: int = args.players

        def progress() -> float:
            """A fifth for the registrations (quick), the rest for the bust-outs."""
            t = view.t
            if t is None:
                return 0.0
            s = t.state
            return 0.2 * s.entries / players + 0.8 * s.busted / max(1, players - 1)

        async def storm(k: int) -> tuple[int, float | None]:
            """Every screen of every process cut at once; when the last one is back."""
            wait = joined - time.monotonic()
            if wait > 0:  # a storm is every screen: not before they have all joined
                await asyncio.sleep(wait)
            say(f"CHAOS: storm {k}: every screen cut at once at seq {view.seq}")
            t0 = time.monotonic()
            answers = await asyncio.gather(drop_all(views), *(w.storm(k) for w in watchers))
            dropped = answers[0][0] + sum(a["dropped"] for a in answers[1:])
            waits = [answers[0][1], *(a["back_s"] for a in answers[1:])]
            if any(w is None for w in waits):
                return dropped, None
            return dropped, time.monotonic() - t0

        chaos = Chaos(
            rng,
            valkey,
            keeper,
            [s for s in servers if s is not keeper],
            server_kills=args.server_kills,
            valkey_kills=args.valkey_kills,
            keeper_kills=args.keeper_kills,
            storms=args.storms,
            progress=progress,
            seq=lambda: view.seq,
            storm=storm,
        )
        info["chaos"] = chaos
        floor = [
            Floorperson(
                k,
                phones[k],
                views[k],
                run,
                seed,
                args.bust_chance,
                gate=chaos.gate,
                of=args.floorpersons,
            )
            for k in range(args.floorpersons)
        ]
        say(f"chaos plan (kind@progress): {chaos.describe()}")
        chaos_task = asyncio.create_task(chaos.run())
        info["chaos_task"] = chaos_task
        status_task = asyncio.create_task(print_status(view, ledger, watchers, chaos, args))
        tasks.append(status_task)

        t_play = time.monotonic()
        await guarded(
            asyncio.gather(
                *(fp.register(list(range(k, players, len(floor)))) for k, fp in enumerate(floor))
            ),
            guard,
            chaos_task,
        )
        draw = await floor[0].send({"type": "draw_seats"}, f"{run}-draw")
        if not draw.ok:
            raise SoakFailure(f"the draw was refused: {draw}")
        say(f"{players} registered and drawn (seq {draw.last}) in {time.monotonic() - t_play:.1f}s")
        info["registration_s"] = time.monotonic() - t_play
        clock = await floor[0].send({"type": "clock_start"}, f"{run}-clock-start")
        if not clock.ok:
            raise SoakFailure(f"clock_start was refused: {clock}")
        for fp in floor:
            fp.need = clock.last
        t_game = time.monotonic()
        await guarded(asyncio.gather(*(fp.play() for fp in floor)), guard, chaos_task)
        info["play_s"] = time.monotonic() - t_game
        pause = await floor[0].send({"type": "clock_pause"}, f"{run}-clock-pause")
        say(
            f"a winner after {info['play_s']:.1f}s of play; clock paused "
            f"({'ok' if pause.ok else pause.code}); stopping the chaos"
        )
        await guarded(chaos.stop(chaos_task), guard)
        info["kills_missed"] = len(chaos.plan) - len(chaos.done)
        for k, (dropped, back_s) in enumerate(chaos.storms, start=1):
            if back_s is None:
                v.fail(
                    f"storm {k}: of the {dropped} screens dropped, some were not connected and "
                    f"current again within {STORM_WITHIN:g}s"
                )

        # Settle: every process up and answering; the log no longer grows.
        for s in servers:
            if not s.running:
                await s.start()
        deadline = time.monotonic() + 60
        while not all([await s.healthy() for s in servers]):
            if time.monotonic() > deadline:
                raise SoakFailure("the servers are not healthy 60 s after the chaos stopped")
            await asyncio.sleep(0.2)
        version = await settled_version(valkey.url, tid)
        say(f"settled: the log ends at seq {version}; waiting for every screen")
        for fp in floor:
            await fp.caught_up(version, "the end", within=60)
        reports: list[dict[str, Any]] = []
        for part in await asyncio.gather(*(w.finish(version, 60.0) for w in watchers)):
            reports += part
        status_task.cancel()
        info["reports"] = reports
        info["views"] = [s.report() for s in views]

        # The checks.
        say("verifying")
        check_keeper(await keeper.health(), chaos, args, v, info)
        check_floor(ledger, v)
        stream, fold = await check_log(valkey.url, tid, ledger.acks, v)
        if fold is not None:
            assert phones[0].token is not None
            await check_servers(
                {s.name: s.base for s in staff + bare},
                {s.name: s.base for s in edges},
                phones[0].token,
                tid,
                version,
                stream,
                fold,
                v,
            )
            info["screen_stats"] = check_screens(stream, fold, reports, version, v, "screen", dump)
            v.facts["screen_closes_pool_exhausted"] = info["screen_stats"].get("pool_closes", 0)
            check_screens(stream, fold, info["views"], version, v, "floorperson screen", dump)
        info["logs"] = scan_logs(servers, v)
        if info["kills_missed"]:
            v.fail(f"{info['kills_missed']} planned kills did not happen before the end")
    finally:
        chaos_run = info.get("chaos_task")
        if chaos_run is not None and not chaos_run.done():
            # Not cancelled: a restart under way runs in a thread, which would outlive it.
            info["chaos"].stopping.set()
            info["chaos"].open.set()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(chaos_run), 30)
        if "ledger" in info:
            ledger = info["ledger"]
            if ledger.counts["unexpected_answers"]:
                v.fail(
                    f"{ledger.counts['unexpected_answers']} answers were a 5xx other than 503 or a "
                    f"401 (each was resent, as a phone would): {ledger.findings[:3]}"
                )
            else:
                v.notes += ledger.findings
        if servers and "logs" not in info:
            info["logs"] = scan_logs(servers, v)
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for p in phones:
            await p.close()
        await asyncio.gather(*(w.kill() for w in watchers), return_exceptions=True)
        # The keeper last: stopping it stops Valkey.
        await asyncio.gather(*(s.stop() for s in servers[1:]), return_exceptions=True)
        await keeper.stop()
        valkey.kill_orphan()


def check_keeper(
    health: dict[str, Any] | None,
    chaos: Chaos,
    args: argparse.Namespace,
    v: Verdict,
    info: dict[str, Any],
) -> None:
    """The keeper's supervisor restarted Valkey after every kill, counted none of those
    restarts as failed (each came after a healthy gap), and did not give up although more
    kills than ``FLOOR_VALKEY_RESTARTS`` fell within its window (as it said after the last
    of them; the keeper may have been killed since); the keeper's Valkey runs at the end."""
    now = (health or {}).get("valkey")
    v.check(
        now is not None and now["state"] == "running",
        f"the keeper's Valkey is not running at the end: {health}",
    )
    if not args.valkey_kills:
        return
    seen = chaos.supervisor
    if not v.check(seen is not None, "the keeper's /healthz said nothing of Valkey"):
        return
    assert seen is not None
    info["supervisor"] = seen
    kills = chaos.supervised_kills
    v.check(
        seen["restarts"] == kills,
        f"the keeper's supervisor restarted Valkey {seen['restarts']} times for {kills} kills",
    )
    v.check(
        seen["failures"] == 0,
        f"the supervisor counted {seen['failures']} failed restarts after healthy gaps",
    )
    if args.valkey_kills > seen["max_failures"]:
        v.check(
            kills > seen["max_failures"],
            f"only {kills} Valkey kills fell in one keeper's life: the supervisor's limit of "
            f"{seen['max_failures']} was not crossed",
        )
    v.facts["valkey_restarts_by_the_supervisor"] = (
        f"{seen['restarts']} (FLOOR_VALKEY_RESTARTS {seen['max_failures']}, window "
        f"{args.valkey_window:g}s, {seen['failures']} counted as failed)"
    )


def check_floor(ledger: Ledger, v: Verdict) -> None:
    """The floorpersons decide on what the server decides on: a refusal is a race between
    the two of them, not the rule. (On a public screen they sent tens of thousands of
    confirms of moves the server no longer had, and never reached the winner.)"""
    c = ledger.counts
    v.check(
        c["refused"] <= max(20, c["acknowledged"] // 20),
        f"{c['refused']} of the floorpersons' commands were refused against "
        f"{c['acknowledged']} acknowledged ({ledger.refusals.most_common(3)}): they decide on "
        "something else than the server",
    )


def scan_logs(servers: list[FloorServer], v: Verdict) -> Counter[str]:
    """What the servers logged, by level and message; errors and tracebacks become notes.

    Redis calls refused by the servers' own connection pool ("Too many connections": the
    pool does not wait for a free connection) fail the soak: Redis was not away.
    """
    seen: Counter[str] = Counter()
    pool = 0
    for s in servers:
        if not s.log.exists():
            continue
        for line in s.log.read_text(errors="replace").splitlines():
            if line.startswith("--- chaos soak:"):
                continue
            try:
                record = json.loads(line)
                key = f"{record.get('level')}: {record.get('msg')}"
            except ValueError:
                record = None
                key = "not JSON (a traceback?)"
            seen[key] += 1
            if "Too many connections" in line:
                pool += 1
            if (record is None or record.get("level") in ("error", "critical")) and seen[key] <= 3:
                if record is not None:
                    error = str(record.get("error", "")).strip().splitlines()
                    line = f"{record.get('time')} {key}" + (f" ({error[-1]})" if error else "")
                v.notes.append(f"{s.name} logged: {line[:300]}")
    closes = v.facts.get("screen_closes_pool_exhausted", 0)
    if pool or closes:
        v.fail(
            f"the servers' Redis connection pool ran out ('Too many connections', Redis being up): "
            f"{pool} log lines, {closes} screens closed with that reason (more were closed with "
            "'could not catch up'); see python -m bench.chaos.repro pool"
        )
    return seen


async def settled_version(redis_url: str, tid: str) -> int:
    """The log's last sequence number once it has not changed for a second."""
    from floor.redisdb.connection import connect
    from floor.redisdb.keys import Keys

    client = connect(redis_url)
    try:
        last = -1
        while True:
            version = int(await client.hget(Keys(tid).meta, "version") or 0)
            if version == last:
                return version
            last = version
            await asyncio.sleep(1.0)
    finally:
        await client.aclose()


async def print_status(
    view: Screen, ledger: Ledger, watchers: list[Watchers], chaos: Chaos, args: argparse.Namespace
) -> None:
    while True:
        await asyncio.sleep(args.status_every)
        t = view.t
        left = t.active if t is not None and t.state.drawn else None
        st = [w.status for w in watchers if w.status]
        connected = sum(s["connected"] for s in st)
        started = sum(s["started"] for s in st)
        seqs = [s["min_seq"] for s in st if s["min_seq"] >= 0]
        c = ledger.counts
        say(
            f"seq {view.seq}"
            + (
                f", {left} players left"
                if left is not None
                else f", {t.state.entries if t else 0} registered"
            )
            + f" | commands acked {c['acknowledged']} refused {c['refused']} retried "
            f"{c['commands_retried']} | screens {connected}/{started} connected, slowest at "
            f"{min(seqs) if seqs else '-'} | kills {len(chaos.done)}/{len(chaos.plan)}"
        )


def summary(args: argparse.Namespace, v: Verdict, info: dict[str, Any], took: float) -> None:
    print()
    print("=" * 78)
    bare = f" (+{args.bare_servers} without screens)" if args.bare_servers else ""
    print(
        f"chaos soak, seed {args.seed}: {args.players} players, {args.clients} screens in "
        f"{args.workers} processes, {args.servers} floor servers{bare}, {args.floorpersons} "
        f"floorpersons; {took:.1f}s"
    )
    chaos: Chaos | None = info.get("chaos")
    if chaos is not None:
        valkey: Valkey = info["valkey"]
        servers: list[FloorServer] = info["servers"]
        print(
            f"chaos:    floor processes killed {sum(s.kills for s in servers)} and restarted "
            f"{sum(s.starts for s in servers) - len(servers)} times ("
            + ", ".join(f"{s.name}: {s.kills}" for s in servers)
            + f"; the keeper {chaos.counts['keeper_kills']}); valkey killed {valkey.kills} "
            f"and back {valkey.restarts} times by the keeper's supervisor"
            + (
                f"; the floor held {chaos.held:.1f}s for Valkey's healthy gaps"
                if chaos.held
                else ""
            )
        )
        supervisor = info.get("supervisor")
        if supervisor:
            print(
                f"          the supervisor after the last Valkey kill: {supervisor['state']}, "
                f"{supervisor['restarts']} restarts, {supervisor['failures']} failed, gives up "
                f"at {supervisor['max_failures']}"
            )
        if chaos.storms:
            backs = [b for _, b in chaos.storms if b is not None]
            print(
                f"storms:   {len(chaos.storms)} (every screen cut at once): "
                + ", ".join(
                    f"{d} dropped, back in {b:.2f}s" if b is not None else f"{d} dropped, NOT back"
                    for d, b in chaos.storms
                )
                + (f"; slowest {max(backs):.2f}s" if backs else "")
            )
    ledger: Ledger | None = info.get("ledger")
    if ledger is not None:
        c = ledger.counts
        print(
            f"commands: sent {c['commands_sent']}, acknowledged {c['acknowledged']}, refused "
            f"{c['refused']}, retried {c['commands_retried']} ({c['retries']} resends; "
            f"answered as duplicates {c['answered_as_duplicate']}); sign-ins {c['sign_ins']}"
        )
        print(
            "          resent after: "
            + ", ".join(f"{k} {n}" for k, n in ledger.retry_reasons.most_common())
        )
        print(
            "          refusals: "
            + (", ".join(f"{k} {n}" for k, n in ledger.refusals.most_common()) or "none")
        )
        print("          by type: " + ", ".join(f"{k} {n}" for k, n in ledger.kinds.most_common()))
        if "registration_s" in info:
            print(
                f"          registration + draw {info['registration_s']:.1f}s, "
                f"play {info.get('play_s', 0):.1f}s"
            )
    reports: list[dict[str, Any]] | None = info.get("reports")
    if reports is not None:
        counts: Counter[str] = Counter()
        closes: Counter[str] = Counter()
        reasons: Counter[str] = Counter()
        for r in reports:
            counts.update(r["counts"])
            closes.update(r["closes"])
            reasons.update(r.get("close_reasons", {}))
        print(
            f"screens:  {len(reports)}: snapshots over HTTP {counts['http_snapshots']} (failed "
            f"{counts['failed_snapshot_reads']}), connects {counts['connects']}, reconnects "
            f"{counts['reconnects']} (with since {counts['connects_with_since']}), failed "
            f"connects {counts['failed_connects']}, server switches {counts['server_switches']}, "
            f"silences {counts['silences']}"
        )
        print(
            f"          snapshots {counts['snapshots']}, batches {counts['batches']}, events "
            f"applied {counts['events']} (skipped as seen {counts['events_skipped']}), gaps -> "
            f"resyncs {counts['resyncs']}, regressions {counts['regressions']}, heartbeats "
            f"{counts['heartbeats']}"
        )
        print(
            "          connections ended by: "
            + ", ".join(f"{k} {n}" for k, n in closes.most_common())
        )
        if reasons:
            print(
                "          closed by the server because: "
                + "; ".join(f"{k!r} x{n}" for k, n in reasons.most_common(5))
            )
        stats = info.get("screen_stats", {})
        if stats:
            print(
                f"          verified {stats.get('segments', 0)} segments covering "
                f"{stats.get('events_verified', 0)} applied events; {stats.get('full_folds', 0)} "
                f"full folds compared"
            )
    views: list[dict[str, Any]] | None = info.get("views")
    if views:
        late = sorted(got - due for _, due, got in views[0]["level_changes"])
        if late:
            print(
                f"clock:    {len(late)} level changes seen by floorperson 0's screen, "
                f"{late[len(late) // 2]:.2f}s after they were due (median), at most {late[-1]:.2f}s"
            )
    logs: Counter[str] | None = info.get("logs")
    if logs:
        print("servers:  logged " + ", ".join(f"{k!r} x{n}" for k, n in logs.most_common(8)))
    for k, (name, value) in enumerate(sorted(v.facts.items())):
        print(("log:      " if k == 0 else "          ") + f"{name} {value}")
    for note in v.notes:
        print(f"NOTE:     {note}")
    print("=" * 78)


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="the run of .ci/run: about a minute")
    p.add_argument(
        "--seed", type=int, default=None, help=f"default: random (printed; quick {QUICK_SEED})"
    )
    p.add_argument("--players", type=int, default=None, help="default 2000 (quick 200)")
    p.add_argument("--clients", type=int, default=None, help="default 1000 (quick 100)")
    p.add_argument(
        "--workers", type=int, default=None, help="screen processes, default 4 (quick 2)"
    )
    p.add_argument(
        "--servers",
        type=int,
        default=2,
        help="staff floor serve processes, the keeper of Valkey among them (default 2)",
    )
    p.add_argument("--edges", type=int, default=1, help="public edges (FLOOR_SERVES=public)")
    p.add_argument(
        "--bare-servers",
        type=int,
        default=0,
        help="more floor serve processes that get commands and reads but no screens",
    )
    p.add_argument("--floorpersons", type=int, default=2)
    p.add_argument("--full-screens", type=int, default=None, help="screens that fold (8; quick 4)")
    p.add_argument(
        "--server-kills", type=int, default=None, help="of floor processes, default 10 (quick 4)"
    )
    p.add_argument("--keeper-kills", type=int, default=1, help="of the keeper, default 1")
    p.add_argument("--valkey-kills", type=int, default=None, help="default 6 (quick 3)")
    p.add_argument(
        "--valkey-restarts",
        type=int,
        default=2,
        help="the keeper's FLOOR_VALKEY_RESTARTS (default 2: fewer than the Valkey kills)",
    )
    p.add_argument(
        "--valkey-window",
        type=float,
        default=None,
        help="the keeper's FLOOR_VALKEY_RESTART_WINDOW, default the budget (every kill in it)",
    )
    p.add_argument(
        "--storms",
        type=int,
        default=None,
        help="times every screen is cut at once and reconnects, default 4 (quick 2)",
    )
    p.add_argument("--budget", type=float, default=None, help="seconds, default 1800 (quick 120)")
    p.add_argument("--bust-chance", type=float, default=0.8, help="autopilot: bust vs deal a hand")
    p.add_argument("--level-minutes", type=float, default=0.25, help="of each blind level")
    p.add_argument("--heartbeat", type=float, default=2.0, help="FLOOR_HEARTBEAT of the servers")
    p.add_argument("--ramp", type=float, default=None, help="seconds the screens take to join")
    p.add_argument("--status-every", type=float, default=5.0)
    p.add_argument("--keep", action="store_true", help="keep the run directory (logs, AOF)")
    args = p.parse_args(argv)
    quick = args.quick
    defaults = {
        "players": (2000, 200),
        "clients": (1000, 100),
        "workers": (4, 2),
        "full_screens": (8, 4),
        "server_kills": (10, 4),
        "valkey_kills": (6, 3),
        "storms": (4, 2),
        "budget": (1800.0, 120.0),
        "ramp": (20.0, 4.0),
    }
    for name, (full, small) in defaults.items():
        if getattr(args, name) is None:
            setattr(args, name, small if quick else full)
    if args.valkey_window is None:
        args.valkey_window = args.budget
    if args.seed is None:
        args.seed = QUICK_SEED if quick else random.SystemRandom().randrange(1, 10**6)
    if args.servers < 1 or args.edges < 0 or args.clients < 0 or args.floorpersons < 1:
        p.error("--servers and --floorpersons must be at least 1, --edges and --clients 0 or more")
    return args


async def amain(args: argparse.Namespace) -> int:
    run_dir = Path(tempfile.mkdtemp(prefix=f"floor-chaos-{args.seed}-"))
    say(
        f"chaos soak: seed {args.seed} (repeat with --seed {args.seed}); budget "
        f"{args.budget:g}s; run directory {run_dir}"
    )
    t0 = time.monotonic()
    info: dict[str, Any] = {}
    v = Verdict()
    try:
        await asyncio.wait_for(soak(args, run_dir, v, info), args.budget)
    except TimeoutError:
        v.fail(f"the soak did not finish within its budget of {args.budget:g}s")
    except SoakFailure as e:
        v.fail(str(e))
    except Exception as e:  # the soak itself broke: say so, as loudly
        import traceback

        traceback.print_exc()
        v.fail(f"the soak crashed: {type(e).__name__}: {e}")
    took = time.monotonic() - t0
    summary(args, v, info, took)
    if v.failures:
        print("\n" + "!" * 78)
        print(f"CHAOS SOAK FAILED (seed {args.seed}): {len(v.failures)} problem(s)")
        for f in v.failures:
            print(f"  FAIL: {f}")
        print(f"logs and the AOF are kept in {run_dir}")
        print("!" * 78)
        return 1
    print(f"CHAOS SOAK PASSED (seed {args.seed}) in {took:.1f}s")
    if args.keep:
        print(f"run directory kept: {run_dir}")
    else:
        shutil.rmtree(run_dir, ignore_errors=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    try:
        import uvloop
    except ImportError:
        return asyncio.run(amain(args))
    return uvloop.run(amain(args))


if __name__ == "__main__":
    sys.exit(main())
