"""Web Push at a table break and at the bubble: how long until the last notification is
handed to the push service, and what it costs the staff's commands meanwhile.

A real ``floor serve`` on the embedded Valkey, with pushes on and a push service on this
machine (``tests/e2e/pushpoint.py``: it takes what floor posts as FCM would). ``--players``
registered and drawn at tables of 10, every one of them subscribed as a phone would (a P-256
key pair and an auth secret each), and a prize that pays ``--paid`` places. Then, in rounds:

- a table break that concerns 9 players: one player out at each of ten full tables, the
  tenth bust-out making room for a table of 9 elsewhere, which the room breaks then (the
  rules' own break, planned and carried out in that command's batch);
- the bubble: the field busted down to one over the places paid, then the bust-out that
  bursts it, which concerns every player left (``--paid``, 5,000 by default); the round ends
  with that bust-out undone and busted again, so the next round bursts it again.

Each notification is encrypted (RFC 8291) for its subscription and posted by the server's
sending process, off the event loop. The time is from the command's answer to the last of its
notifications arriving at the push service. Meanwhile the staff's commands (a clock adjusted
forward and back) are sent at ``--rate`` a second and timed from request to answer; the same
commands are timed with the server idle first. The p99 of each window is printed side by side
(target: within 2x of idle).

    .venv/bin/python -m bench.push [--players 5100] [--paid 5000] [--rounds 3] [--rate 20]
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import secrets
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx
from cryptography.hazmat.primitives.asymmetric import ec

from bench.forecast_staff import p99
from bench.serving import add_user, wait_http
from floor.engine.calc.payout_curve import percents
from floor.redisdb.embedded import EmbeddedServer, free_port
from tests.e2e import pushpoint

ROOT = Path(__file__).resolve().parents[1]
TID = "bench-push"
SECRET = "bench-director-secret"
#: One level longer than the bench: a bust-out is undone only within its level.
LONG = {
    "name": "bench-push",
    "starting_stack": 10_000,
    "chips": [25, 100],
    "levels": [{"type": "level", "small_blind": 25, "big_blind": 50, "minutes": 600}],
}


class Staff:
    """Commands over HTTP, each with an id of its own, timed from request to answer."""

    def __init__(self, client: httpx.Client, name: str) -> None:
        self.client = client
        self.name = name
        self.n = 0
        self.lock = threading.Lock()

    def command(self, command: dict[str, object]) -> float:
        with self.lock:
            self.n += 1
            n = self.n
        started = time.perf_counter()
        r = self.client.post(
            f"/api/t/{TID}/commands", json={"id": f"{self.name}-{n}", "command": command}
        )
        took = time.perf_counter() - started
        if r.status_code != 200:
            raise RuntimeError(f"{command['type']}: {r.status_code} {r.text[:300]}")
        return took


def clock_window(staff: Staff, rate: float, until: threading.Event, least: float) -> list[float]:
    """The clock adjusted forward and back at ``rate`` a second, for ``least`` seconds at
    least and until ``until`` is set: each command's time."""
    took: list[float] = []
    step = 1.0 / rate
    start = due = time.perf_counter()
    k = 0
    while k % 2 or not until.is_set() or time.perf_counter() - start < least:
        pause = due - time.perf_counter()
        if pause > 0:
            time.sleep(pause)
        took.append(staff.command({"type": "clock_adjust", "seconds": 1 if k % 2 == 0 else -1}))
        k += 1
        due += step
    return took


def shares(paid: int) -> list[float]:
    """The standard table's row for ``paid`` places; where its cents run out (5,000 places:
    the winner's share would go below zero) equal shares, when they add up to 100 exactly."""
    curve = list(percents(paid))
    if curve[0] > 0 and min(curve) > 0:
        return curve
    equal = round(100 / paid, 2)
    if abs(equal * paid - 100) > 1e-6:
        raise SystemExit(f"--paid {paid}: no payout table pays that many places")
    return [equal] * paid


def set_up(staff: Staff, players: int, paid: int) -> None:
    r = staff.client.post(
        "/api/tournaments",
        json={"id": TID, "name": TID, "rules": "tda-2024", "structure": LONG,
              "overrides": {"seats": 10}},
    )  # fmt: skip
    r.raise_for_status()
    prize = {
        "currency": "EUR",
        "buy_in": 100,
        "payouts": [
            {"entries": 2, "percents": [100]},
            {"entries": paid + 1, "percents": shares(paid)},
        ],
    }
    staff.command({"type": "set_prize", "prize": prize})
    for first in range(0, players, 1000):
        entries = [
            {"name": f"Player {i}", "player": f"P{i}"}
            for i in range(first, min(players, first + 1000))
        ]
        staff.command({"type": "register_many", "entries": entries})
    staff.command({"type": "draw_seats"})
    staff.command({"type": "clock_start"})


def subscribe(base: str, point: RemotePoint, players: int) -> None:
    """Every player's phone opted in, as the player screen's one tap does."""
    with httpx.Client(base_url=base, timeout=30) as phone:
        for i in range(players):
            sub = point.phone().subscription()
            r = phone.put(f"/api/t/{TID}/push/P{i}", json=sub)
            if r.status_code not in (200, 201):
                raise RuntimeError(f"opt-in P{i}: {r.status_code} {r.text[:300]}")


def seated(client: httpx.Client) -> dict[str, int]:
    state = client.get(f"/api/t/{TID}").json()["state"]
    return {p: int(n) for n, tb in state["tables"].items() for p in tb["occupants"].values()
            if tb["status"] == "open"}  # fmt: skip


class RemotePoint:
    """The local push service in a process of its own: its HTTP parsing of thousands of
    posts would otherwise share this process's interpreter with the staff's commands being
    timed, and count against the server. Only the count and the last arrival cross over."""

    def __init__(self) -> None:
        ctx = multiprocessing.get_context("spawn")
        self.count = ctx.Value("l", 0)
        self.last = ctx.Value("d", 0.0)
        self.reset = ctx.Event()
        self.stop = ctx.Event()
        ready = ctx.Queue()
        self.proc = ctx.Process(
            target=_serve_point, args=(self.count, self.last, self.reset, self.stop, ready)
        )
        self.proc.start()
        self.origin: str = ready.get(timeout=30)

    def phone(self) -> pushpoint.Phone:
        return pushpoint.Phone(
            f"{self.origin}/push/{secrets.token_urlsafe(12)}",
            ec.generate_private_key(ec.SECP256R1()),
            secrets.token_bytes(16),
        )

    def clear(self) -> None:
        self.reset.set()
        while self.reset.is_set():
            time.sleep(0.005)

    def wait(self, count: int, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while self.count.value < count:
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.count.value} pushes arrived, not {count}")
            time.sleep(0.01)

    def close(self) -> None:
        self.stop.set()
        self.proc.join(10)


def _serve_point(count: Any, last: Any, reset: Any, stop: Any, ready: Any) -> None:
    # It stands for the push services across the internet, which cost this machine nothing:
    # it takes only what the cores have left.
    os.nice(19)
    point = pushpoint.start()
    ready.put(point.origin)
    while not stop.is_set():
        with point.lock:
            if reset.is_set():
                point.deliveries.clear()
                reset.clear()
            count.value = len(point.deliveries)
            last.value = max((d.at for d in point.deliveries), default=0.0)
        time.sleep(0.005)
    point.close()


def playing(client: httpx.Client) -> list[str]:
    """Every player still in, by number (at an open table or one being broken)."""
    players = client.get(f"/api/t/{TID}").json()["state"]["players"].values()
    return sorted((p["id"] for p in players if not p["busted"]), key=lambda p: int(p[1:]))


def one_round(
    staff: Staff, point: RemotePoint, command: dict[str, object], count: int, rate: float
) -> tuple[float, int, list[float]]:
    """``command``'s notifications (``count`` concerned, and any other its batch made: a
    table the room breaks at that bust-out): the time from its answer to the last arriving,
    how many arrived, and the staff's commands timed meanwhile."""
    point.clear()
    done = threading.Event()
    busy: list[float] = []
    behind = threading.Thread(
        target=lambda: busy.extend(clock_window(staff, rate, done, 1.0)), daemon=True
    )
    behind.start()
    staff.command(command)
    answered = time.time()
    point.wait(count, 300.0)
    done.set()
    behind.join(60)
    # Whatever else the batch made arrives meanwhile; the last of them is the time.
    time.sleep(1.0)
    return point.last.value - answered, point.count.value, busy


def measure(players: int, paid: int, rounds: int, rate: float, idle_seconds: float) -> None:
    point = RemotePoint()
    with tempfile.TemporaryDirectory(prefix="floor-bench-push-") as tmp_name:
        tmp = Path(tmp_name)
        valkey = EmbeddedServer(tmp / "valkey")
        valkey.start()
        env = {
            **os.environ,
            "REDIS_URL": valkey.url,
            "FLOOR_LOG_LEVEL": "warning",
            "FLOOR_PUSH_SERVICES": point.origin,
            "FLOOR_PUSH_SUBJECT": "mailto:bench@venue.example",
            # Every phone of the bench opts in from this one address.
            "FLOOR_PUSH_RATE": "100000000",
        }
        add_user(valkey.url, "bench", SECRET, "director", env)
        port = free_port()
        with (tmp / "serve.log").open("wb") as log:
            server = subprocess.Popen(
                [sys.executable, "-m", "floor", "serve", "--port", str(port)],
                env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=log,
            )  # fmt: skip
        try:
            wait_http(port)
            base = f"http://127.0.0.1:{port}"
            token = httpx.post(
                base + "/api/signin", json={"username": "bench", "secret": SECRET}
            ).json()["token"]
            headers = {"Authorization": f"Bearer {token}"}
            with (
                httpx.Client(base_url=base, headers=headers, timeout=60) as one,
                httpx.Client(base_url=base, headers=headers, timeout=60) as other,
            ):
                staff, writer = Staff(one, "staff"), Staff(other, "writer")
                started = time.perf_counter()
                set_up(writer, players, paid)
                subscribe(base, point, players)
                print(
                    f"push: {players:,} players registered, drawn, started and subscribed in "
                    f"{time.perf_counter() - started:.1f} s; {paid:,} places paid",
                    flush=True,
                )
                # The sending process started (on the first message) before anything is timed.
                first, _ = seated(one).popitem()
                writer.command({"type": "bust", "player": first})
                writer.command({"type": "undo_bust", "player": first, "reason": "bench"})
                stop = threading.Event()
                stop.set()
                idle = clock_window(staff, rate, stop, idle_seconds)

                # Tables of 10, the room breaking the highest-numbered table first: each round
                # busts one player there, then one at each of nine other full tables; the
                # ninth of those makes room for its 9 players and the room breaks it then
                # (the rules' own break): that bust-out is timed, the 9 players concerned.
                breaks: list[float] = []
                break_sent: list[int] = []
                break_busy: list[float] = []
                for _ in range(rounds):
                    at = seated(one)
                    by_table: dict[int, list[str]] = {}
                    for p, n in at.items():
                        by_table.setdefault(n, []).append(p)
                    full = [by_table[n] for n in sorted(by_table, reverse=True)
                            if len(by_table[n]) == 10][:10]  # fmt: skip
                    for ps in full[:9]:
                        writer.command({"type": "bust", "player": min(ps)})
                    took, n, busy = one_round(
                        staff, point, {"type": "bust", "player": min(full[9])}, 9, rate
                    )
                    breaks.append(took)
                    break_sent.append(n)
                    break_busy.extend(busy)

                # Down to one over the places paid: no notification but the bubble's.
                left = playing(one)
                for p in left[: len(left) - paid - 1]:
                    writer.command({"type": "bust", "player": p})
                bubble = playing(one)[-1]
                bubbles: list[float] = []
                bubble_sent: list[int] = []
                bubble_busy: list[float] = []
                for i in range(rounds):
                    if i:
                        writer.command({"type": "undo_bust", "player": bubble, "reason": "bench"})
                    took, n, busy = one_round(
                        staff, point, {"type": "bust", "player": bubble}, paid, rate
                    )
                    bubbles.append(took)
                    bubble_sent.append(n)
                    bubble_busy.extend(busy)
            print(
                f"  table break, 9 players:   last handed over {statistics.median(breaks):6.3f} s "
                f"after the answer (median of {rounds}; worst {max(breaks):.3f} s; "
                f"{max(break_sent)} notifications at most)\n"
                f"  bubble, {paid:,} players: last handed over {statistics.median(bubbles):6.2f} s "
                f"after the answer (median of {rounds}; worst {max(bubbles):.2f} s; "
                f"{max(bubble_sent):,} notifications at most, "
                f"{paid / statistics.median(bubbles):,.0f} a second)\n"
                f"  staff p99 idle             {p99(idle) * 1000:6.1f} ms  median "
                f"{statistics.median(idle) * 1000:5.1f} ms  ({len(idle)} commands, {rate:g}/s)\n"
                f"  staff p99 beside breaks    {p99(break_busy) * 1000:6.1f} ms  "
                f"({len(break_busy)} commands)  ratio {p99(break_busy) / p99(idle):.2f}x\n"
                f"  staff p99 beside bubbles   {p99(bubble_busy) * 1000:6.1f} ms  median "
                f"{statistics.median(bubble_busy) * 1000:5.1f} ms  ({len(bubble_busy)} commands)  "
                f"ratio {p99(bubble_busy) / p99(idle):.2f}x (target: within 2x)",
                flush=True,
            )
        finally:
            server.terminate()
            server.wait(10)
            valkey.stop()
            point.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=5_100)
    parser.add_argument("--paid", type=int, default=5_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--rate", type=float, default=20.0, help="staff commands a second")
    parser.add_argument("--idle", type=float, default=10.0, help="seconds of the idle window")
    args = parser.parse_args()
    if not 9 < args.paid < args.players:
        parser.error("--paid must be over 9 and under --players")
    measure(args.players, args.paid, args.rounds, args.rate, args.idle)


if __name__ == "__main__":
    main()
