"""Benchmark: the front desk beside bare registrations, in one run.

Ten desks take ``--players`` players into one flight at once (``POST /api/desk/take``: the
exclusion check against an imported list, the registry, the seat drawn by ``register``, the
identity kept apart, the sale, the seat card's data), and, beside it, the same registrations
as bare API calls (``POST /api/t/{id}/commands`` with ``register``) into a twin flight, ten
clients at once, on the same server and Valkey. Both flights are drawn before, so every
registration draws a seat (opening tables as the room fills). The printing itself is the
browser's and is not measured here.

Prints each run's wall time, the median and 99th percentile of a call, what the desk adds
to the bare call, the CPU the server and Valkey spend per call of each (from /proc: on a
shared machine the timings swing with whatever else runs, the work per call does not), the
server's CPU by thread (the event loop's is the main thread), the Valkey round trips per
call under load and of one call of each (``--trips`` calls sent one at a time; both
counted by Valkey's ``total_reads_processed``), and the counts that must hold: no seat
given twice, no player twice. The two sides run interleaved in ``--slices`` parts (ten), so
that a quieter or busier moment of a shared machine falls on both. The bare registration is
the desk's: name, player and language. ``--flights N`` spreads both sides over N flights
(the issue's measure is one).
It prints, never fails the run on a timing.

    .venv/bin/python bench/desk.py [--players 1000] [--desks 10] [--flights 1] [--slices 10]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import redis

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from floor.redisdb.embedded import EmbeddedServer
from tests.e2e.conftest import ServerProcess, add_user, sign_in

PRIZE = {
    "currency": "EUR",
    "buy_in": 500,
    "fee": 50,
    "payouts": [{"entries": 3, "percents": [50, 30, 20]}],
}
LIST_ROWS = 10_000


def create(base: str, boss: dict[str, str], tid: str) -> None:
    with httpx.Client(base_url=base, headers=boss, timeout=30) as c:
        body = {"id": tid, "name": tid, "rules": "tda-2024", "structure": "demo-fast"}
        assert c.post("/api/tournaments", json=body).status_code == 201
        n = 0

        def send(command: dict[str, Any]) -> None:
            nonlocal n
            n += 1
            r = c.post(
                f"/api/t/{tid}/commands", json={"id": f"{tid}-setup-{n}", "command": command}
            )
            assert r.status_code == 200, r.text

        send({"type": "set_prize", "prize": PRIZE})
        for i in range(10):
            send({"type": "register", "name": f"Early {i}", "player": f"E{i}"})
        send({"type": "draw_seats"})


def flight(name: str, k: int, flights: int) -> str:
    return name if flights == 1 else f"{name}-{k}"


def person(i: int) -> dict[str, Any]:
    identity = {
        "doc_type": "id_card",
        "doc_number": f"B{i:08d}",
        "birth_date": "1984-02-03",
        "country": "CZ",
    }
    return {
        "given_names": f"Given{i}",
        "surname": f"Bench{i}",
        "language": "cs",
        "consent": True,
        "identity": identity,
        "method": "cash" if i % 2 else "card",
        "amount": 550,
    }


def _seconds(stat: str) -> float:
    """The CPU seconds (user and system) in a ``/proc/.../stat`` line (Linux's /proc)."""
    fields = stat.rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu(pid: int | None) -> float:
    """The CPU seconds process ``pid`` has used so far."""
    return 0.0 if pid is None else _seconds(Path(f"/proc/{pid}/stat").read_text())


def thread_cpu(pid: int | None) -> dict[str, float]:
    """The CPU seconds each thread of process ``pid`` has used so far, by the thread's name
    (threads of one name summed; the main thread is the event loop's)."""
    if pid is None:
        return {}
    out: dict[str, float] = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            text = (task / "stat").read_text()
        except OSError:
            continue
        name = "loop" if task.name == str(pid) else text.split("(", 1)[1].rsplit(")", 1)[0]
        out[name] = out.get(name, 0.0) + _seconds(text)
    return out


def run(
    calls: list[tuple[httpx.Client, str, dict[str, Any]]], desks: int
) -> tuple[float, list[float], int]:
    """Send every call, ``desks`` at once; the wall time, each call's seconds, the failures."""
    times: list[float] = []
    failed = 0

    def one(call: tuple[httpx.Client, str, dict[str, Any]]) -> None:
        nonlocal failed
        client, path, body = call
        start = time.perf_counter()
        r = client.post(path, json=body)
        times.append(time.perf_counter() - start)
        if r.status_code not in (200, 201):
            failed += 1

    start = time.perf_counter()
    with ThreadPoolExecutor(max_workers=desks) as pool:
        list(pool.map(one, calls))
    return time.perf_counter() - start, times, failed


def trips(url: str, calls: list[tuple[httpx.Client, str, dict[str, Any]]]) -> float:
    """Valkey's reads per call, the calls sent one at a time: each read is one round trip
    (a pipeline or a script is one), the session's lookup included, as every call pays it."""
    with redis.Redis.from_url(url) as r:

        def reads() -> int:
            return int(r.info("stats")["total_reads_processed"])

        before = reads()
        for client, path, body in calls:
            got = client.post(path, json=body)
            assert got.status_code in (200, 201), got.text
        # Less this count's own INFO call.
        return (reads() - before - 1) / len(calls)


def counts(base: str, tid: str) -> tuple[int, int, int]:
    state = httpx.get(f"{base}/api/t/{tid}", timeout=30).json()["state"]
    seated = [(p["table"], p["seat"]) for p in state["players"].values() if p["table"] is not None]
    names = [p["name"] for p in state["players"].values()]
    return len(seated), len(seated) - len(set(seated)), len(names) - len(set(names))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--desks", type=int, default=10)
    parser.add_argument("--trips", type=int, default=20)
    parser.add_argument("--slices", type=int, default=10)
    # The measure is one flight; with several, takes into different flights are
    # registered at once (each flight has its own lock).
    parser.add_argument("--flights", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        valkey = EmbeddedServer(Path(tmp) / "valkey")
        valkey.start()
        server = ServerProcess(valkey.url, Path(tmp) / "server.log", FLOOR_RATE_LIMIT="0")
        try:
            add_user(valkey.url, "boss", "director-secret", "director")
            for d in range(args.desks):
                add_user(valkey.url, f"desk{d}", f"desk-secret-{d}", "desk")
                add_user(valkey.url, f"floor{d}", f"floor-secret-{d}", "floor")
            server.start()
            boss = sign_in(server, "boss", "director-secret")
            bare_ids = [flight("bench-bare", k, args.flights) for k in range(args.flights)]
            desk_ids = [flight("bench-desk", k, args.flights) for k in range(args.flights)]
            for tid in bare_ids + desk_ids:
                create(server.base, boss, tid)
            rows = "".join(f"Listed{i},Person{i},1970-01-01,L{i:08d}\n" for i in range(LIST_ROWS))
            r = httpx.post(
                f"{server.base}/api/desk/exclusions",
                content=rows.encode(),
                headers=boss,
                timeout=60,
            )
            assert r.status_code == 200, r.text
            clients = [
                httpx.Client(
                    base_url=server.base,
                    headers=sign_in(server, f"desk{d}", f"desk-secret-{d}"),
                    timeout=60,
                )
                for d in range(args.desks)
            ]
            shifts = [
                c.post("/api/desk/shifts", json={"desk": f"D{d}", "float": 0}).json()["id"]
                for d, c in enumerate(clients)
            ]
            # The bare calls as the floor sends them (a desk's account sends no bare command).
            floors = [
                httpx.Client(
                    base_url=server.base,
                    headers=sign_in(server, f"floor{d}", f"floor-secret-{d}"),
                    timeout=60,
                )
                for d in range(args.desks)
            ]
            bare = [
                (
                    floors[i % args.desks],
                    f"/api/t/{bare_ids[i % args.flights]}/commands",
                    {
                        "id": f"bare-{i}",
                        "command": {
                            "type": "register",
                            "name": f"Given{i} Bench{i}",
                            "player": f"B{i}",
                            # The desk's registration keeps the player's language too.
                            "lang": "cs",
                        },
                    },
                )
                for i in range(args.players + args.trips)
            ]
            desk = [
                (
                    clients[i % args.desks],
                    "/api/desk/take",
                    {
                        "id": f"desk-{i}",
                        "shift": shifts[i % args.desks],
                        "tournament": desk_ids[i % args.flights],
                        **person(i),
                    },
                )
                for i in range(args.players + args.trips)
            ]
            # Interleaved in ``--slices`` parts, so that neither side runs on a warmer server,
            # a fuller Valkey or a quieter moment of a shared machine (with halves, runs of
            # the same code differed by 25 points).
            # The last ``--trips`` of each, counted apart.
            bare, bare_trips = bare[: args.players], bare[args.players :]
            desk, desk_trips = desk[: args.players], desk[args.players :]
            size = -(-args.players // args.slices)
            results: dict[str, tuple[float, list[float], int]] = {
                "bare": (0.0, [], 0),
                "desk": (0.0, [], 0),
            }
            # The CPU the server and Valkey spend on each slice: on a shared machine the
            # times above swing with whatever else runs; the work done per call does not.
            pids = {"server": server.proc.pid if server.proc else None, "valkey": valkey.pid}
            spent: dict[tuple[str, str], float] = {}
            # And by the server's threads (the event loop's, the clock's, ...), and Valkey's
            # reads (one a round trip, as ``trips`` counts them).
            by_thread: dict[tuple[str, str], float] = {}
            loaded: dict[str, int] = {}
            server_pid = pids["server"]
            with redis.Redis.from_url(valkey.url) as stats:
                for part in (slice(k, k + size) for k in range(0, args.players, size)):
                    for name, calls in (("bare", bare[part]), ("desk", desk[part])):
                        before = {k: cpu(pid) for k, pid in pids.items()}
                        threads = thread_cpu(server_pid)
                        reads = int(stats.info("stats")["total_reads_processed"])
                        wall, times, failed = run(calls, args.desks)
                        reads = int(stats.info("stats")["total_reads_processed"]) - reads - 1
                        loaded[name] = loaded.get(name, 0) + reads
                        for k, pid in pids.items():
                            spent[name, k] = spent.get((name, k), 0.0) + cpu(pid) - before[k]
                        for thread, seconds in thread_cpu(server_pid).items():
                            key = (name, thread)
                            by_thread[key] = (
                                by_thread.get(key, 0.0) + seconds - threads.get(thread, 0.0)
                            )
                        w0, t0, f0 = results[name]
                        results[name] = (w0 + wall, t0 + times, f0 + failed)
            print(
                f"{args.desks} desks, {args.players} players each way into {args.flights} "
                "flight(s), one server, one Valkey"
            )
            print(
                f"{'':6} {'wall s':>8} {'per s':>8} {'median ms':>10} {'p99 ms':>8} {'failed':>7}"
            )
            for name in ("bare", "desk"):
                wall, times, failed = results[name]
                ordered = sorted(times)
                p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
                median = statistics.median(ordered) * 1e3
                rate = len(times) / wall
                print(
                    f"{name:6} {wall:8.2f} {rate:8.1f} {median:10.1f} {p99 * 1e3:8.1f} {failed:7d}"
                )
            bare_med = statistics.median(results["bare"][1])
            desk_med = statistics.median(results["desk"][1])
            added = (desk_med / bare_med - 1) * 100
            walls = (results["desk"][0] / results["bare"][0] - 1) * 100
            print(
                f"the desk adds {added:.0f}% to the bare call's median "
                f"({walls:.0f}% to the wall time; the target: under 20%)"
            )
            per = {key: value / args.players * 1e3 for key, value in spent.items()}
            server_added = (per["desk", "server"] / per["bare", "server"] - 1) * 100
            print(
                "CPU ms per call: "
                + ", ".join(
                    f"{name} {per[name, 'server']:.2f} server + {per[name, 'valkey']:.2f} Valkey"
                    for name in ("bare", "desk")
                )
                + f" (the desk adds {server_added:.0f}% to the server's)"
            )
            names = sorted(
                {t for _, t in by_thread}, key=lambda t: -by_thread.get(("desk", t), 0.0)
            )
            print(
                "server CPU ms per call by thread (bare / desk): "
                + ", ".join(
                    f"{t} {by_thread.get(('bare', t), 0.0) / args.players * 1e3:.2f}"
                    f" / {by_thread.get(('desk', t), 0.0) / args.players * 1e3:.2f}"
                    for t in names
                    if max(by_thread.get((n, t), 0.0) for n in ("bare", "desk")) > 0
                )
            )
            print(
                f"Valkey round trips per call under load ({args.desks} at once): "
                f"bare {loaded['bare'] / args.players:.2f}, "
                f"desk {loaded['desk'] / args.players:.2f}"
            )
            if args.trips:
                print(
                    f"Valkey round trips per call ({args.trips} calls one at a time): "
                    f"bare {trips(valkey.url, bare_trips):.1f}, "
                    f"desk {trips(valkey.url, desk_trips):.1f}"
                )
            for tid in bare_ids + desk_ids:
                seated, seats_twice, names_twice = counts(server.base, tid)
                twice = f"{seats_twice} seats given twice, {names_twice} players twice"
                print(f"{tid}: {seated} seated, {twice}")
            for c in [*clients, *floors]:
                c.close()
        finally:
            server.stop()
            valkey.stop()


if __name__ == "__main__":
    main()
