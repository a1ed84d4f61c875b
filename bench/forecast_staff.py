"""The staff's commands while a forecast runs (``bench/forecast.py --staff-players``).

A real ``floor serve`` on the embedded Valkey holds a day (``players`` registered, drawn,
its clock started); the staff's commands (a bust and its undo, the clock adjusted forward and
back) are sent over HTTP at a steady rate and each timed from the request to its answer:
once with the server idle, then while forecasts of ``runs`` runs are asked one after another
(the next as soon as one finishes) and played in the server's worker processes at nice 19.
The p99 of the two windows, measured in the same run, are printed side by side.
"""

from __future__ import annotations

import math
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

from bench.serving import add_user, wait_http
from floor.redisdb.embedded import EmbeddedServer, free_port

ROOT = Path(__file__).resolve().parents[1]
TID = "bench-staff"
SECRET = "bench-director-secret"


def p99(xs: list[float]) -> float:
    """Nearest rank: a latency one of the commands actually took."""
    s = sorted(xs)
    return s[max(0, math.ceil(0.99 * len(s)) - 1)]


class Staff:
    def __init__(self, client: httpx.Client) -> None:
        self.client = client
        self.n = 0
        #: The staff's next step (a bust, its undo, the clock forward, back): across windows.
        self.k = 0

    def command(self, command: dict[str, object]) -> float:
        self.n += 1
        started = time.perf_counter()
        r = self.client.post(
            f"/api/t/{TID}/commands", json={"id": f"staff-{self.n}", "command": command}
        )
        took = time.perf_counter() - started
        if r.status_code != 200:
            raise RuntimeError(f"{command['type']}: {r.status_code} {r.text[:300]}")
        return took


def set_up(staff: Staff, players: int) -> None:
    r = staff.client.post(
        "/api/tournaments", json={"id": TID, "name": TID, "config": "pfp-2014-main-event"}
    )
    r.raise_for_status()
    for first in range(0, players, 1000):
        entries = [
            {"name": f"Player {i}", "player": f"P{i}"}
            for i in range(first, min(players, first + 1000))
        ]
        staff.command({"type": "register_many", "entries": entries})
    staff.command({"type": "draw_seats"})
    staff.command({"type": "clock_start"})


def forecast(client: httpx.Client, runs: int) -> None:
    """One forecast of ``runs`` runs, asked as the director asks it, awaited to its end."""
    r = client.post(f"/api/t/{TID}/forecast", json={"runs": runs})
    r.raise_for_status()
    job = r.json()["id"]
    while True:
        time.sleep(0.25)
        state = client.get(f"/api/t/{TID}/forecast/jobs/{job}").json()["state"]
        if state != "running":
            return


def window(staff: Staff, rate: float, seconds: float, players: int) -> list[float]:
    """The staff's commands at ``rate`` a second for ``seconds``: each one's time."""
    took: list[float] = []
    step = 1.0 / rate
    due = time.perf_counter()
    end = due + seconds
    # Whole rounds, so that every bust is undone and the next window busts someone else.
    while due < end or staff.k % 4:
        pause = due - time.perf_counter()
        if pause > 0:
            time.sleep(pause)
        who = f"P{(staff.k // 4 * 7) % players}"
        kind = staff.k % 4
        if kind == 0:
            took.append(staff.command({"type": "bust", "player": who}))
        elif kind == 1:
            took.append(staff.command({"type": "undo_bust", "player": who, "reason": "bench"}))
        else:
            took.append(staff.command({"type": "clock_adjust", "seconds": 1 if kind == 2 else -1}))
        staff.k += 1
        due += step
    return took


def measure(players: int, runs: int, rate: float, seconds: float) -> None:
    with tempfile.TemporaryDirectory(prefix="floor-forecast-staff-") as tmp_name:
        tmp = Path(tmp_name)
        valkey = EmbeddedServer(tmp / "valkey")
        valkey.start()
        env = {**os.environ, "REDIS_URL": valkey.url, "FLOOR_LOG_LEVEL": "warning"}
        add_user(valkey.url, "bench", SECRET, "director", env)
        port = free_port()
        with (tmp / "serve.log").open("wb") as log:
            server = subprocess.Popen(
                [sys.executable, "-m", "floor", "serve", "--port", str(port)],
                env=env,
                cwd=ROOT,
                stdout=subprocess.DEVNULL,
                stderr=log,
            )
        try:
            wait_http(port)
            base = f"http://127.0.0.1:{port}"
            token = httpx.post(
                base + "/api/signin", json={"username": "bench", "secret": SECRET}
            ).json()["token"]
            headers = {"Authorization": f"Bearer {token}"}
            with (
                httpx.Client(base_url=base, headers=headers, timeout=60) as one,
                httpx.Client(base_url=base, headers=headers, timeout=60) as director,
            ):
                started = time.perf_counter()
                staff = Staff(one)
                set_up(staff, players)
                print(
                    f"staff commands: {players:,} players registered, drawn and started in "
                    f"{time.perf_counter() - started:.1f} s",
                    flush=True,
                )
                # The workers started and the level's own forecast made before the idle window.
                forecast(director, runs)
                idle = window(staff, rate, seconds, players)
                done = threading.Event()
                forecasts = 0

                def keep_forecasting() -> None:
                    nonlocal forecasts
                    while not done.is_set():
                        forecast(director, runs)
                        forecasts += 1

                behind = threading.Thread(target=keep_forecasting, daemon=True)
                behind.start()
                time.sleep(0.5)  # the first forecast's live day read, its runs handed out
                busy = window(staff, rate, seconds, players)
                done.set()
                behind.join(120)
            print(
                f"  idle           p99 {p99(idle) * 1000:6.1f} ms  median "
                f"{statistics.median(idle) * 1000:5.1f} ms  ({len(idle)} commands, "
                f"{rate:g}/s for {seconds:g} s)\n"
                f"  beside {runs} runs p99 {p99(busy) * 1000:6.1f} ms  median "
                f"{statistics.median(busy) * 1000:5.1f} ms  ({len(busy)} commands, "
                f"{forecasts} forecasts played meanwhile)\n"
                f"  ratio {p99(busy) / p99(idle):.2f}x (target: within 1.5x)",
                flush=True,
            )
        finally:
            server.terminate()
            server.wait(10)
            valkey.stop()
