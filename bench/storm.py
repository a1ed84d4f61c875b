"""Benchmark: a storm of public screens on a 10,000-player day, and a floorperson's commands.

A `floor serve` process (pinned to CPU 0, with the embedded Valkey, `appendfsync always`)
holds a 10,000-player tournament with a special-needs player (drawn, restored straight into
the log). A floorperson (a process of its own on CPU 1: a staff screen on the websocket,
commands over HTTP) sends a command every 100 ms for the whole run: button reports, hands,
bust-outs and the moves they call for. N public screens (`bench/storm_clients.py`: lean
raw-socket receivers doing what `web/js/conn.js` does, in two processes on CPU 1, each
screen from a loopback address of its own) then

1. connect at once: `GET /api/t/{id}/snapshot` (gzip), then the websocket with `since`;
2. after a few seconds live, all drop and reconnect at once with `since` (a wifi blip).

For each storm it prints the time until the last screen is live (hello, and holding the
version current when it said hello), the bytes each screen read to get there, the server's
CPU (and Valkey's), the catch-ups by source (ring, log, snapshot), and the staff command
latency (answer, and the batch on the staff screen) p50/p99 during the storm beside the
same commands on the idle server before it; and the server's CPU a second before the
screens and with every screen live between the storms. The baseline, in the same run: a
bare server (`bench/storm_baseline.py`, websockets on uvloop, pinned to CPU 0) sending the
very bytes floor sent (its gzipped snapshot, its hello, catch-ups of the sizes floor's
screens got) to the same number of the same receivers.

    .venv/bin/python bench/storm.py [--screens 1000,5000] [--players 10000] [--quick] [--edge]
        [--follow [--friends 200] [--room-screens 200]]

With ``--edge`` the screens connect to a public edge (``FLOOR_SERVES=public``, at nice 10 on
CPU 0; its websockets on websockets' own server, ``FLOOR_WS_PORT``), as the shipped nginx
config sends the players' phones, and the floorperson to a staff process of its own beside
it: the staff-first deployment. The bare server then runs at nice 10 too, like for like.

With ``--follow`` the N screens are phones following one player each on the follow feed
(``/ws/t/{id}/follow/{player}``, no HTTP snapshot): players spread over the field, and
``--friends`` of the N following one and the same player. A follower is live when it holds
its first ``follow`` message with every part (static, room, me); then the same drop and
reconnect. The baseline sends each receiver floor's follow hello and the very ``follow``
message floor sent it. After the storms, ``--room-screens`` room screens connect once to
the same server (snapshot and websocket, as without ``--follow``), so that a follower's
bytes and a room screen's read off one table.

Targets: staff p99 during the storm within 2x idle; every screen live within 1.5x the
baseline; a public screen's connect at 10,000 players at most 200 KB on the wire. It
prints the figures and the verdicts; it never fails the run on a timing.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import collections
import http.client
import json
import multiprocessing as mp
import os
import pickle
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import msgspec  # noqa: E402

from bench.serving import add_user, wait_http  # noqa: E402
from bench.storm_clients import Screens  # noqa: E402
from bench.wsload.receivers import WsClient, raise_nofile  # noqa: E402
from floor.engine import commands as cmd  # noqa: E402
from floor.engine.autopilot import next_floor_action, next_play  # noqa: E402
from floor.engine.decide import decide  # noqa: E402
from floor.engine.events import Event, TournamentCreated  # noqa: E402
from floor.engine.rules import Rules  # noqa: E402
from floor.engine.state import Tournament, TournamentState  # noqa: E402
from floor.protocol import decode_batch, encode_event  # noqa: E402
from floor.redisdb.connection import connect  # noqa: E402
from floor.redisdb.embedded import EmbeddedServer, free_port  # noqa: E402
from floor.redisdb.log import RedisLog  # noqa: E402
from floor.store.ports import Snapshot, Summary  # noqa: E402

TID = "storm"
#: Targets: the storm's staff p99 against idle, the last screen against the baseline, and
#: the bytes of one public screen's connect.
STAFF_RATIO, LIVE_RATIO, CONNECT_BYTES = 2.0, 1.5, 200 * 1024
SECRET = "storm-floor-secret"
#: The public edge's nice level (floor-public@.service), and the bare server's beside it.
EDGE_NICE = 10
#: FLOOR_METRICS_TOKEN of the bench's servers: the edge shows its metrics to the token only.
METRICS_TOKEN = "storm-metrics-token-" + "m" * 12

# Names as a festival's entries have them (diacritics, other scripts), one list of words each.
FIRST = (  # noqa: SIM905
    "Jiří Tomáš Eva Anna Jan Petr Lukáš Jakub Martin Pavel Josef Karel Marie Jana Hana Lucie "
    "Kateřina Tereza Michal David Ondřej Filip Adam Vojtěch Matěj Daniel Roman Zdeněk Miroslav "
    "Václav Alena Zuzana Veronika Barbora Klára Markéta Šárka Ivana Lenka Monika Olga Radek "
    "John Michael Sarah Emma Olivia Liam Noah James William Sophia Isabella Mia Charlotte "
    "Hans Jürgen Günther Wolfgang Stefan Klaus Ursula Heike Sabine Łukasz Piotr Agnieszka "
    "Ólafur Sigríður Björn Ingrid Lars Erik Nils Astrid Pierre Jean Élodie François Camille "
    "Giulia Marco Luca Francesca Sofía Alejandro Lucía Javier Carmen Diego Иван Ольга Σοφία"
).split()
LAST = (  # noqa: SIM905
    "Novák Svoboda Novotný Dvořák Černý Procházka Kučera Veselý Horák Němec Marek Pospíšil "
    "Pokorný Hájek Král Jelínek Růžička Beneš Fiala Sedláček Doležal Zeman Kolář Navrátil "
    "Čermák Vaněk Urban Blažek Kříž Kovář Bartoš Vlček Polák Musil Kopecký Šimek Konečný "
    "Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Wilson Taylor "
    "Müller Schmidt Schneider Fischer Weber Meyer Wagner Becker Kowalski Wiśniewski Wójcik "
    "Jónsson Sigurðsson Andersen Nielsen Hansen Johansson Dubois Lefèvre Moreau Rossi Russo "
    "Ferrari Bianchi García Fernández González Sánchez Pérez Петров Иванов Yılmaz O'Brien Ñúñez"
).split()


# The tournament --------------------------------------------------------------------------------


def build(players: int, seed: int = 1) -> tuple[list[Event], Tournament]:
    """A drawn room of ``players`` with names as a festival has them; P17 needs a reserved
    seat (special needs): the public sees every player but that flag."""
    rng = random.Random(seed)
    rules = msgspec.convert({"game": "holdem", "seats": 10, "final_table": 10}, Rules)
    created = TournamentCreated(id=TID, name="Storm", rules=rules, created_at=time.time())
    t = Tournament.create(created)
    events: list[Event] = [created]
    for i in range(players):
        name = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
        register = cmd.Register(name=name, player=f"P{i}", special_needs=i == 17)
        events += decide(t, register, created.created_at, rng)
    events += decide(t, cmd.DrawSeats(), created.created_at, rng)
    return events, t


async def restore(url: str, events: list[Event], t: Tournament) -> None:
    redis = connect(url)
    try:
        summary = Summary(id=TID, name=t.state.name, created_at=t.state.created_at)
        snapshot = Snapshot(len(events), t.state)
        await RedisLog(redis).restore(TID, [encode_event(e) for e in events], snapshot, summary)
    finally:
        await redis.aclose()


# Processes and their CPU -------------------------------------------------------------------------

_TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / _TICK


def peak_rss_mb(pid: int) -> float:
    text = Path(f"/proc/{pid}/status").read_text()
    match = re.search(r"VmHWM:\s+(\d+) kB", text)
    return int(match.group(1)) / 1024 if match else 0.0


def rss_mb(pid: int) -> float:
    text = Path(f"/proc/{pid}/status").read_text()
    match = re.search(r"VmRSS:\s+(\d+) kB", text)
    return int(match.group(1)) / 1024 if match else 0.0


def pin(cpu: int, nice: int | None = None) -> Any:
    def apply() -> None:
        os.sched_setaffinity(0, {cpu})
        if nice is not None:
            os.setpriority(os.PRIO_PROCESS, 0, nice)

    return apply


def sign_in(port: int, username: str, secret: str) -> str:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    body = json.dumps({"username": username, "secret": secret}).encode()
    conn.request("POST", "/api/signin", body, {"Content-Type": "application/json"})
    r = conn.getresponse()
    data = r.read()
    if r.status != 200:
        raise RuntimeError(f"sign-in: {r.status} {data[:200]!r}")
    token: str = json.loads(data)["token"]
    return token


def get(port: int, path: str, headers: dict[str, str]) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request("GET", path, headers=headers)
    r = conn.getresponse()
    return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()


# The floorperson -------------------------------------------------------------------------------


class _Snapshot(msgspec.Struct):
    seq: int
    state: TournamentState


def choose(t: Tournament, rng: random.Random) -> cmd.Command | None:
    """What a floorperson reports next: mostly a button or a move the plan calls for, now
    and then a bust-out (whose balancing moves follow)."""
    if rng.random() < 0.25:
        command = next_play(t, rng, bust_chance=1.0)
        if command is not None:
            return command
    return next_floor_action(t, rng) or next_play(t, rng, bust_chance=0.0)


def floorperson_main(port: int, token: str, interval: float, pipe: Connection) -> None:
    """Commands every ``interval`` seconds until told to stop; then the log, one row per
    command: (sent, answered, on the staff screen (ns, 0 if not seen in 5 s), last seq,
    HTTP status, -1 for no answer in 10 s), and what went wrong.

    The staff screen is read by a thread of its own, folding each batch into the copy the
    commands are chosen on, so that waiting for a batch never holds up a command."""
    os.sched_setaffinity(0, {1})
    os.setpriority(os.PRIO_PROCESS, 0, -5)
    auth = {"Authorization": f"Bearer {token}"}
    status, _, raw = get(port, f"/api/t/{TID}", auth)
    assert status == 200, raw[:200]
    snap = msgspec.json.decode(raw, type=_Snapshot)
    t = Tournament(snap.state)
    ws = WsClient(f"ws://127.0.0.1:{port}/ws/t/{TID}?since={snap.seq}", headers=auth, timeout=60)
    http_conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    rng = random.Random(7)
    rows: list[tuple[int, int, int, int, int]] = []
    errors: list[str] = []
    held = threading.Condition()
    #: The staff screen's number, and when each batch came (by its last number).
    screen = {"seq": snap.seq}
    arrived: list[tuple[int, int]] = []

    def read() -> None:
        while True:
            try:
                data = ws.recv()
            except (OSError, ConnectionError) as e:
                errors.append(f"staff screen: {e}")
                return
            at = time.monotonic_ns()
            if not data.startswith(b'{"type":"events"'):
                continue
            batch = decode_batch(data)
            with held:
                for item in batch.events:
                    if item.seq > screen["seq"]:
                        t.apply(item.event)
                        screen["seq"] = item.seq
                arrived.append((batch.to, at))
                held.notify_all()

    threading.Thread(target=read, daemon=True).start()
    n = 0
    next_at = time.monotonic()
    while not (pipe.poll() and pipe.recv() == "stop"):
        with held:
            command = choose(t, rng)
        if command is None:
            errors.append("nothing left to do")
            break
        n += 1
        # Ids of this run's own: a retried id for another command is refused (409).
        cid = f"storm-{os.getpid()}-{n}"
        body = json.dumps({"id": cid, "command": msgspec.to_builtins(command)})
        sent = time.monotonic_ns()
        try:
            http_conn.request(
                "POST", f"/api/t/{TID}/commands", body, {**auth, "Content-Type": "application/json"}
            )
            r = http_conn.getresponse()
            answer = r.read()
            code = r.status
        except (OSError, http.client.HTTPException) as e:
            # No answer (a timeout, a connection closed): a failed command, sent again anew.
            rows.append((sent, time.monotonic_ns(), 0, 0, -1))
            errors.append(f"{type(e).__name__}: {e}")
            http_conn.close()
            http_conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            continue
        answered = time.monotonic_ns()
        last = int(json.loads(answer).get("last", 0)) if code == 200 else 0
        shown = 0
        if code == 200 and last > 0:
            with held:
                held.wait_for(lambda: screen["seq"] >= last, 5.0)  # noqa: B023
                shown = min((at for to, at in arrived[-64:] if to >= last), default=0)
        rows.append((sent, answered, shown, last, code))
        next_at += interval
        time.sleep(max(0.0, next_at - time.monotonic()))
        next_at = max(next_at, time.monotonic() - interval)
    pipe.send((rows, errors))


# Reading the figures -----------------------------------------------------------------------------


@dataclass
class Round:
    """One storm as the screens saw it."""

    name: str
    started: int
    rows: list[dict[str, Any]]
    #: Per screen: when it was live and current (ns), and the bytes it read to get there.
    live: list[int]
    connect_bytes: list[int]
    cpu: float
    valkey_cpu: float
    ended: int


def analyse(
    name: str, started: int, rows: list[dict[str, Any]], committed: list[tuple[int, int]]
) -> tuple[list[int], list[int]]:
    """Per screen: the time it was live and current, and its connect's bytes. Current: it
    holds the version the floorperson's commands had reached when its hello came
    (``committed``: (answered ns, last seq), in order)."""
    times = [a for a, _ in committed]
    live, sizes = [], []
    for row in rows:
        if row["follow"]:  # live with its first whole follow message
            live.append(row["live"])
            sizes.append(row["live_bytes"])
            continue
        hello = row["hello"]
        k = bisect.bisect_right(times, hello)
        current = committed[k - 1][1] if k else 0
        last_t, last_bytes = hello, row["ws_hello_bytes"]
        for first, _to, at, cum in row["frames"]:
            if first <= current:
                last_t, last_bytes = max(last_t, at), cum
        live.append(last_t)
        sizes.append(row["http_bytes"] + last_bytes)
    return live, sizes


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


def ms(ns: float) -> float:
    return ns / 1e6


def kb(n: float) -> float:
    return n / 1024


def latencies(log: list[tuple[int, int, int, int, int]], start: int, end: int) -> dict[str, Any]:
    window = [r for r in log if start <= r[0] <= end]
    answers = [ms(r[1] - r[0]) for r in window if r[4] == 200]
    screens = [ms(r[2] - r[0]) for r in window if r[4] == 200 and r[2]]
    failed = sum(r[4] != 200 for r in window)
    return {
        "n": len(window),
        "failed": failed,
        "p50": statistics.median(answers) if answers else float("nan"),
        "p99": pct(answers, 0.99) if answers else float("nan"),
        "max": max(answers, default=float("nan")),
        "screen_p50": statistics.median(screens) if screens else float("nan"),
        "screen_p99": pct(screens, 0.99) if screens else float("nan"),
    }


# One size ---------------------------------------------------------------------------------------


def followed(n: int, players: int, friends: int) -> list[str]:
    """The player each of ``n`` followers follows: players spread over the field, and
    ``friends`` (at most a fifth) following one player, P1, spread among them."""
    friends = min(friends, n // 5)
    distinct = n - friends
    order = [f"P{(k * players) // distinct % players}" for k in range(distinct)]
    for j in range(friends):
        order.insert(j * n // friends, "P1")
    return order


def follow_hello(port: int, player: str) -> tuple[bytes, bytes]:
    """The follow feed's hello and first (whole) message, as a follower of ``player`` has them."""
    ws = WsClient(f"ws://127.0.0.1:{port}/ws/t/{TID}/follow/{player}", timeout=60)
    try:
        hello = ws.recv()
        while not (data := ws.recv()).startswith(b'{"type":"follow"'):
            pass
        return hello, data
    finally:
        ws.close()


def listening(port: int) -> bool:
    """Whether something accepts connections on ``port`` (within a few seconds)."""
    deadline = time.monotonic() + 5
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return True
        except OSError:
            if time.monotonic() > deadline:
                return False
            time.sleep(0.1)


def metrics(port: int, token: str) -> dict[str, int]:
    _, _, raw = get(port, "/metrics", {"Authorization": f"Bearer {token}"})
    out = {}
    text = raw.decode()
    for how, n in re.findall(r'^floor_catch_ups_total\{source="(\w+)"\} (\d+)$', text, re.M):
        out[how] = int(n)
    for kind, view, n in re.findall(
        r'^floor_views_built_total\{message="(\w+)",view="(\w+)"\} (\d+)$', raw.decode(), re.M
    ):
        out[f"built {kind}/{view}"] = int(n)
    return out


def storm(
    screens: Screens,
    name: str,
    reconnect: bool,
    server_pid: int,
    valkey_pid: int | None,
    committed: Any,
    settle: float,
    timeout: float = 300.0,
) -> Round:
    cpu0 = cpu_seconds(server_pid)
    vk0 = cpu_seconds(valkey_pid) if valkey_pid else 0.0
    started = time.monotonic_ns()
    _ = screens.reconnect(timeout) if reconnect else screens.connect(timeout)
    time.sleep(settle)  # the catch-ups after the last hello
    ended = time.monotonic_ns()
    cpu = cpu_seconds(server_pid) - cpu0
    vk = (cpu_seconds(valkey_pid) - vk0) if valkey_pid else 0.0
    rows = screens.report()
    live, sizes = analyse(name, started, rows, committed())
    return Round(name, started, rows, live, sizes, cpu, vk, ended)


def floor_size(
    n: int, args: argparse.Namespace, valkey: EmbeddedServer, tmp: Path, log: Path
) -> dict[str, Any]:
    port = free_port()
    env = {
        **os.environ,
        "REDIS_URL": valkey.url,
        "FLOOR_HEARTBEAT": "30",
        "FLOOR_CLIENT_QUEUE": "1024",
        "FLOOR_LOG_LEVEL": "warning",
        # The edge shows its metrics to a scraper with the token only (not to a session).
        "FLOOR_METRICS_TOKEN": METRICS_TOKEN,
    }
    server = subprocess.Popen(
        [sys.executable, "-m", "floor", "serve", "--port", str(port)],
        env=env,
        cwd=ROOT,
        preexec_fn=pin(0),
        stdout=subprocess.DEVNULL,
        stderr=log.open("ab"),
    )
    # With --edge the screens go to a public edge (FLOOR_SERVES=public) at a lower priority
    # on the same CPU, as deploy/nginx/floor.conf and floor-public@.service set it up; the
    # floorperson stays on the staff process.
    ws_port = free_port()
    edge = (
        subprocess.Popen(
            [sys.executable, "-m", "floor", "serve", "--port", str(edge_port := free_port())],
            env={**env, "FLOOR_SERVES": "public", "FLOOR_WS_PORT": str(ws_port)},
            cwd=ROOT,
            preexec_fn=pin(0, nice=args.edge_nice),
            stdout=subprocess.DEVNULL,
            stderr=log.open("ab"),
        )
        if args.edge
        else None
    )
    public_port = edge_port if edge is not None else port
    public = edge if edge is not None else server
    result: dict[str, Any] = {"n": n, "edge": edge is not None}
    try:
        wait_http(port)
        wait_http(public_port)
        # The edge's websockets on websockets' own server (FLOOR_WS_PORT); an edge of before
        # served them on its HTTP port.
        sockets_port = ws_port if edge is not None and listening(ws_port) else public_port
        result["ws_port"] = sockets_port != public_port
        token = sign_in(port, "floor1", SECRET)
        # The snapshot a screen starts from, and the full one, as a reader with gzip gets them.
        _, headers, body = get(public_port, f"/api/t/{TID}/snapshot", {"Accept-Encoding": "gzip"})
        _, _, full = get(public_port, f"/api/t/{TID}", {})
        _, _, full_gz = get(public_port, f"/api/t/{TID}", {"Accept-Encoding": "gzip"})
        _, _, packed = get(public_port, f"/api/t/{TID}/snapshot", {})
        result["sizes"] = {
            "full": len(full),
            "full_gz": len(full_gz),
            "packed": len(packed),
            "packed_gz": len(body),
        }
        (tmp / "snapshot.gz").write_bytes(body)
        seq0 = int(headers["floor-seq"])
        hello = WsClient(f"ws://127.0.0.1:{sockets_port}/ws/t/{TID}?packed=1&since={seq0}")
        (tmp / "hello.json").write_bytes(hello.recv())
        hello.close()
        result["seq0"] = seq0
        players = followed(n, args.players, args.friends) if args.follow else None
        if players is not None:
            _, _, whole = get(public_port, f"/api/t/{TID}/follow/P0", {})
            result["sizes"]["follow"] = len(whole)
            result["follow_hello"], result["follow_sample"] = follow_hello(sockets_port, "P0")
            result["followed"] = players
        rss0 = rss_mb(public.pid)

        ctx = mp.get_context("spawn")
        parent, child = ctx.Pipe()
        person = ctx.Process(
            target=floorperson_main, args=(port, token, args.interval, child), daemon=True
        )
        person.start()
        child.close()
        screens = Screens(
            "127.0.0.1",
            public_port,
            n,
            None if players is not None else f"/api/t/{TID}/snapshot",
            f"/ws/t/{TID}",
            workers=2,
            concurrency=args.concurrency,
            cpus={1},
            follow=players,
            ws_port=sockets_port,
        )
        room_round: Round | None = None
        with screens:
            time.sleep(2.0)  # the floorperson's first commands, the receivers spawned
            idle_from, idle_cpu = time.monotonic_ns(), cpu_seconds(public.pid)
            time.sleep(args.idle)
            idle_to, idle_cpu = time.monotonic_ns(), cpu_seconds(public.pid) - idle_cpu
            before = metrics(public_port, METRICS_TOKEN)

            # The floorperson's commands so far, for telling catch-ups from live batches;
            # read through a second copy of the log the floorperson keeps (its answers).
            answered: list[tuple[int, int]] = []

            def committed() -> list[tuple[int, int]]:
                return answered

            # The floorperson reports only at the end: until then a screen's "current" is
            # judged by the batches it got, which carry the same numbers (see analyse).
            connect_round = storm(
                screens,
                "connect",
                False,
                public.pid,
                valkey.pid,
                committed,
                2.0,
                args.storm_timeout,
            )
            after_connect = metrics(public_port, METRICS_TOKEN)
            # Every screen live, the floorperson's batches going out: the server's CPU.
            held_cpu, held_from = cpu_seconds(public.pid), time.monotonic()
            time.sleep(args.hold)
            held_cpu = (cpu_seconds(public.pid) - held_cpu) / (time.monotonic() - held_from)
            reconnect_round = storm(
                screens,
                "reconnect",
                True,
                public.pid,
                valkey.pid,
                committed,
                2.0,
                args.storm_timeout,
            )
            after = metrics(public_port, METRICS_TOKEN)
            if players is not None and args.room_screens:
                # Room screens beside the followers, once, for their bytes (after the
                # storms: outside the windows the staff's figures are taken in).
                room = Screens(
                    "127.0.0.1",
                    public_port,
                    min(n, args.room_screens),
                    f"/api/t/{TID}/snapshot",
                    f"/ws/t/{TID}",
                    workers=1,
                    concurrency=args.concurrency,
                    cpus={1},
                    first=n,
                    ws_port=sockets_port,
                )
                with room:
                    time.sleep(1.0)
                    room_round = storm(room, "room", False, public.pid, valkey.pid, committed, 2.0)
            time.sleep(1.0)
            parent.send("stop")
            person_log, person_errors = parent.recv()
            person.join(10)
        answered[:] = [(r[1], r[3]) for r in person_log if r[4] == 200]
        if args.dump:
            rounds = {r.name: (r.started, r.ended) for r in (connect_round, reconnect_round)}
            dump = {"idle": (idle_from, idle_to), "rounds": rounds, "commands": person_log}
            Path(args.dump).with_suffix(f".{n}.json").write_text(json.dumps(dump))
        for round_ in (connect_round, reconnect_round, room_round):
            if round_ is not None:
                round_.live, round_.connect_bytes = analyse(
                    round_.name, round_.started, round_.rows, answered
                )
        if players is not None:
            # What floor sent each follower, for the baseline to send the same.
            follow = {
                "hello": result["follow_hello"],
                "sample": result["follow_sample"],
                "rounds": [
                    [row["whole"] for row in r.rows] for r in (connect_round, reconnect_round)
                ],
            }
            (tmp / f"follow.{n}.pickle").write_bytes(pickle.dumps(follow))
            for round_ in (connect_round, reconnect_round):
                for row in round_.rows:
                    row["whole"] = None
        result.update(
            room=room_round,
            idle=latencies(person_log, idle_from, idle_to),
            rounds=[connect_round, reconnect_round],
            staff=[
                latencies(person_log, r.started, r.ended) for r in (connect_round, reconnect_round)
            ],
            catch_ups=[
                delta(before, after_connect),
                delta(after_connect, after),
            ],
            rss=(rss0, peak_rss_mb(public.pid)),
            cpu_per_s=(idle_cpu / ((idle_to - idle_from) / 1e9), held_cpu),
            commands=len(person_log),
            errors=person_errors,
        )
    finally:
        stop(server)
        if edge is not None:
            stop(edge)
    return result


def stop(proc: subprocess.Popen[bytes]) -> None:
    """SIGTERM, then SIGKILL: closing thousands of sockets gracefully may take a while."""
    proc.terminate()
    try:
        proc.wait(30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)


def delta(before: dict[str, int], after: dict[str, int]) -> dict[str, int]:
    return {k: after[k] - before.get(k, 0) for k in after if after[k] != before.get(k, 0)}


def catch_up_sizes(round_: Round) -> list[int]:
    """The median screen's catch-up frames (after hello, before live): their sizes."""
    per: list[list[int]] = []
    for row, live in zip(round_.rows, round_.live, strict=True):
        sizes, prev = [], row["ws_hello_bytes"]
        for _first, _to, at, cum in row["frames"]:
            if at <= live and cum > prev:
                sizes.append(cum - prev - 4)  # less the frame's own header, about
                prev = cum
        per.append(sizes)
    per.sort(key=sum)
    return per[len(per) // 2]


def baseline_size(n: int, args: argparse.Namespace, tmp: Path, floor: dict[str, Any]) -> Round:
    """The same bytes from a bare server to the same receivers (connect, then reconnect)."""
    port = free_port()
    connect_round, reconnect_round = floor["rounds"]
    players = floor.get("followed")
    follow = ["--follow", str(tmp / f"follow.{n}.pickle")] if players is not None else []
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "bench.storm_baseline",
            "--port",
            str(port),
            "--cpu",
            "0",
            "--body",
            str(tmp / "snapshot.gz"),
            "--hello",
            str(tmp / "hello.json"),
            "--seq",
            str(floor["seq0"]),
            "--connect",
            ",".join(map(str, catch_up_sizes(connect_round))),
            "--reconnect",
            ",".join(map(str, catch_up_sizes(reconnect_round))),
            *follow,
            # Beside the edge, at the edge's nice level on the same CPU: like for like.
            *(["--nice", str(args.edge_nice)] if floor["edge"] else []),
        ],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                get(port, f"/api/t/{TID}/snapshot", {})
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        screens = Screens(
            "127.0.0.1",
            port,
            n,
            None if players is not None else f"/api/t/{TID}/snapshot",
            f"/ws/t/{TID}",
            workers=2,
            concurrency=args.concurrency,
            cpus={1},
            follow=players,
        )
        with screens:
            time.sleep(2.0)

            # Every frame the bare server sends is a catch-up: "current" is the last one.
            def everything() -> list[tuple[int, int]]:
                return [(0, 2**62)]

            rounds = [
                storm(
                    screens, "connect", False, proc.pid, None, everything, 2.0, args.storm_timeout
                ),
                storm(
                    screens, "reconnect", True, proc.pid, None, everything, 2.0, args.storm_timeout
                ),
            ]
        floor["baseline"] = rounds
        return rounds[0]
    finally:
        stop(proc)


# Printing -----------------------------------------------------------------------------------------


def preamble(result: dict[str, Any], args: argparse.Namespace) -> None:
    s = result["sizes"]
    print(
        f"\n{args.players} players, a special-needs player among them; a command every "
        f"{args.interval * 1000:.0f} ms; "
        + (
            f"the staff's server and the public edge (nice {args.edge_nice}; its websockets "
            + ("on websockets' own server" if result.get("ws_port") else "in uvicorn")
            + f") on CPU 0 with Valkey, the bare server at nice {args.edge_nice} too, "
            if result["edge"]
            else "server on CPU 0 with Valkey, "
        )
        + "screens and the floorperson on CPU 1"
    )
    print(
        f"public snapshot: full {kb(s['full']):.0f} KB ({kb(s['full_gz']):.0f} KB gzipped), "
        f"packed {kb(s['packed']):.0f} KB ({kb(s['packed_gz']):.0f} KB gzipped, what a "
        f"screen reads)"
    )
    if "follow" in s:
        print(
            f"a follower's whole message (GET /api/t/{TID}/follow/P0): {kb(s['follow']):.1f} KB; "
            f"followers follow players spread over the field, {args.friends} (at most a fifth) "
            f"of them one player (P1)"
        )


def report(results: list[dict[str, Any]]) -> list[tuple[str, bool]]:
    """Each size's figures (printed as it is done); the verdicts."""
    verdicts: list[tuple[str, bool]] = []
    for r in results:
        n = r["n"]
        idle = r["idle"]
        players = r.get("followed")
        who = "public screens"
        if players is not None:
            who = f"followers of {len(set(players))} players"
        print(
            f"\n{n} {who} ({r['commands']} commands in all; server memory "
            f"{r['rss'][0]:.0f} MB before the screens, {r['rss'][1]:.0f} MB at its peak; "
            f"its CPU {r['cpu_per_s'][0]:.2f} s a second before the screens, "
            f"{r['cpu_per_s'][1]:.2f} s with every screen live between the storms)"
        )
        if r["errors"]:
            print(f"  the floorperson: {len(r['errors'])} problems, e.g. {r['errors'][:3]}")
        print(
            f"  idle server: staff command p50 {idle['p50']:.1f} ms, p99 {idle['p99']:.1f} ms "
            f"(batch on the staff screen p50 {idle['screen_p50']:.1f} ms, p99 "
            f"{idle['screen_p99']:.1f} ms; {idle['n']} commands)"
        )
        header = (
            f"  {'storm':>9} | {'last live s':>11} {'median':>7} | {'bare last s':>11} "
            f"{'ratio':>5} | {'KB/screen med':>13} {'max':>6} | {'CPU s':>6} {'bare':>5} "
            f"{'valkey':>6} | {'staff p50':>9} {'p99':>6} {'x idle':>6} {'screen p99':>10}"
        )
        print(header)
        for k, round_ in enumerate(r["rounds"]):
            bare = r["baseline"][k]
            staff = r["staff"][k]
            last = ms(max(round_.live) - round_.started) / 1000
            med = ms(statistics.median(round_.live) - round_.started) / 1000
            bare_last = ms(max(bare.live) - bare.started) / 1000
            ratio = last / bare_last if bare_last else float("inf")
            staff_ratio = staff["p99"] / idle["p99"]
            print(
                f"  {round_.name:>9} | {last:>11.2f} {med:>7.2f} | {bare_last:>11.2f} "
                f"{ratio:>5.2f} | {kb(statistics.median(round_.connect_bytes)):>13.1f} "
                f"{kb(max(round_.connect_bytes)):>6.1f} | {round_.cpu:>6.2f} {bare.cpu:>5.2f} "
                f"{round_.valkey_cpu:>6.2f} | {staff['p50']:>9.1f} {staff['p99']:>6.1f} "
                f"{staff_ratio:>6.2f} {staff['screen_p99']:>10.1f}"
            )
            closes = sum(len(row["closes"]) for row in round_.rows)
            # Why the server closed them (a code's count): the cut as too slow, a catch-up
            # refused, a restart each have their own.
            codes = collections.Counter(code for row in round_.rows for code in row["closes"])
            snapshots = sum(row["snapshots"] for row in round_.rows)
            given_up = sum(row["given_up"] for row in round_.rows)
            counters = "catch-ups"
            if players is not None:
                early = sum(row["early"] > 0 for row in round_.rows)
                behind = sum(row["behind"] for row in round_.rows)
                counters = (
                    f"followers sent a part before the whole message {early} (the whole one "
                    f"older than that part {behind}); server counters"
                )
            print(
                f"  {'':>9}   {counters} {r['catch_ups'][k]}; screens closed by the server "
                f"{closes} (by code {dict(sorted(codes.items()))}), given up {given_up}, "
                f"snapshots over the websocket {snapshots}; "
                f"staff commands {staff['n']} ({staff['failed']} failed)"
            )
            verdicts += [
                (f"{n} screens, {round_.name}: staff p99 {staff_ratio:.2f}x idle "
                 f"(target {STAFF_RATIO:g}x)", staff_ratio <= STAFF_RATIO),
                (f"{n} screens, {round_.name}: last screen live {ratio:.2f}x the bare server "
                 f"(target {LIVE_RATIO:g}x)", ratio <= LIVE_RATIO),
            ]  # fmt: skip
            if round_.name == "connect":
                worst = max(round_.connect_bytes)
                one = "a follower's" if players is not None else "a public screen's"
                verdicts.append(
                    (
                        f"{n} screens: {one} connect {kb(worst):.1f} KB at most "
                        f"(target {kb(CONNECT_BYTES):.0f} KB)",
                        worst <= CONNECT_BYTES,
                    )
                )
        if players is not None:
            saving(r)
    return verdicts


def saving(r: dict[str, Any]) -> None:
    """A follower's connect beside a room screen's, from the same run."""
    follower = r["rounds"][0].connect_bytes
    bare = r["baseline"][0].connect_bytes
    med = statistics.median(follower)
    lines = [
        (f"follower ({r['n']}, the connect above)", med, max(follower)),
        ("follower from the bare server (same bytes)", statistics.median(bare), max(bare)),
    ]
    room: Round | None = r["room"]
    if room is not None:
        room_med = statistics.median(room.connect_bytes)
        lines.append(
            (f"room screen ({len(room.rows)}, after the storms)", room_med, max(room.connect_bytes))
        )
    lines.append(("room snapshot alone (packed, gzipped)", r["sizes"]["packed_gz"], None))
    print(
        f"  {'connect, bytes per screen':<44} | {'median KB':>9} {'max KB':>7} | {'x follower':>10}"
    )
    for name, median, most in lines:
        top = f"{kb(most):>7.1f}" if most is not None else f"{'':>7}"
        print(f"  {name:<44} | {kb(median):>9.1f} {top} | {median / med:>10.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--screens", default="1000,5000")
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--interval", type=float, default=0.1, help="seconds between commands")
    parser.add_argument("--idle", type=float, default=10.0, help="seconds of idle commands")
    parser.add_argument("--hold", type=float, default=5.0, help="seconds live between storms")
    parser.add_argument(
        "--concurrency", type=int, default=1000, help="handshakes under way at once, in all"
    )
    parser.add_argument("--quick", action="store_true", help="1,000 screens only")
    parser.add_argument(
        "--edge-nice",
        type=int,
        default=EDGE_NICE,
        help="the edge's nice level, and the bare server's beside it (default 10, as "
        "floor-public@.service runs it; 0 on a machine where other work runs at 10)",
    )
    parser.add_argument(
        "--edge",
        action="store_true",
        help="the screens on a public edge (FLOOR_SERVES=public, nice 10), the staff apart",
    )
    parser.add_argument(
        "--follow",
        action="store_true",
        help="the screens follow one player each on the follow feed (no room snapshot)",
    )
    parser.add_argument(
        "--friends", type=int, default=200, help="with --follow: followers of one player (P1)"
    )
    parser.add_argument(
        "--room-screens",
        type=int,
        default=200,
        help="with --follow: room screens connecting once after the storms, for their bytes",
    )
    parser.add_argument("--dump", help="write each size's commands and phases to this path")
    parser.add_argument(
        "--storm-timeout",
        type=float,
        default=300.0,
        help="seconds a storm may take until every screen is live before the run gives up",
    )
    args = parser.parse_args()
    sizes = [1000] if args.quick else [int(x) for x in args.screens.split(",")]
    raise_nofile()
    os.sched_setaffinity(0, {1})

    with tempfile.TemporaryDirectory(prefix="floor-storm-") as tmp_name:
        tmp = Path(tmp_name)
        valkey = EmbeddedServer(tmp / "valkey", appendfsync="always")
        valkey.start()
        assert valkey.pid is not None
        for task in Path(f"/proc/{valkey.pid}/task").iterdir():
            os.sched_setaffinity(int(task.name), {0})
        env = {**os.environ, "REDIS_URL": valkey.url}
        add_user(valkey.url, "floor1", SECRET, "floor", env)
        started = time.monotonic()
        events, t = build(args.players)
        asyncio.run(restore(valkey.url, events, t))
        print(
            f"built and restored {args.players} players ({len(events)} events) in "
            f"{time.monotonic() - started:.1f} s",
            flush=True,
        )
        verdicts = []
        try:
            for k, n in enumerate(sizes):
                print(f"{n} screens: floor...", flush=True)
                result = floor_size(n, args, valkey, tmp, tmp / "serve.log")
                print(f"{n} screens: the bare server...", flush=True)
                baseline_size(n, args, tmp, result)
                if k == 0:
                    preamble(result, args)
                verdicts += report([result])
                sys.stdout.flush()
        finally:
            valkey.stop()
            log = tmp / "serve.log"
            if log.exists() and log.stat().st_size:
                print("server log (tail):\n" + log.read_text()[-3000:])
                # Each kind of error once, whole: the tail may hold the end of one alone.
                seen: set[str] = set()
                for line in log.read_text().splitlines():
                    kind = line.split('"msg":', 1)[-1][:80]
                    if '"level":"error"' in line and kind not in seen:
                        seen.add(kind)
                        print(line[:4000])
    print("\nverdicts:")
    for text, met in verdicts:
        print(f"  {'meets ' if met else 'misses'}  {text}")


if __name__ == "__main__":
    main()
