"""What a flood of wrong sign-ins costs the staff (issue 24, finding 3): a real sign-in's time
and the staff's commands' p50/p90, with nobody guessing and while attackers guess.

One ``floor serve`` (its embedded Valkey, the production argon2 cost, the default request
limits) trusting this machine as its proxy, so that each attacker names its address in
``X-Forwarded-For``. Two floods:

- ``spread``: every guess from an address of its own /64 and a name of its own, the worst
  case for the limits (each guess is let through and hashed);
- ``one-64``: every guess from an address inside one /64 (what the probe did with 59 dealer
  PINs): after five, the guesses wait, and are refused before any hashing.

While they run, the director signs in from a browser that signed in before (its
``floor_known`` cookie) and the floor sends commands, ten a second. The attackers run in a
process of their own at nice 19, so that their own client's work takes none of the CPU the
server and the staff need (an attacker's machine is not the server's). The baseline is the
same measured with nobody guessing, in the same run. The probe's figures before this change, on
two cores: a sign-in went from 0.15 s to about 1 s and the commands' p90 from 8.5 to 173 ms
with twelve attackers.

    .venv/bin/python bench/signin_flood.py [--attackers 12] [--seconds 20]
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.serving import ROOT, add_user, wait_http
from floor.redisdb.embedded import EmbeddedServer, free_port

DIRECTOR = ("boss", "director-secret")
FLOOR = ("fred", "floor-secret")
TID = "flood"


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def guess(client: httpx.AsyncClient, mode: str, counter: itertools.count[int]) -> int:
    n = next(counter)
    if mode == "spread":
        address = f"2001:db8:{n // 65536 % 65536:x}:{n % 65536:x}::1"
        name = f"guess{n}"
    else:
        address = f"2001:db8:24:6:{n % 65536:x}::{n // 65536 + 1:x}"
        name = "fred"
    r = await client.post(
        "/api/signin",
        json={"username": name, "secret": "not the password"},
        headers={"X-Forwarded-For": address},
    )
    return r.status_code


async def attacker(base: str, mode: str, until: float, counter: itertools.count[int]) -> list[int]:
    statuses = []
    async with httpx.AsyncClient(base_url=base, timeout=30) as client:
        while time.monotonic() < until:
            statuses.append(await guess(client, mode, counter))
    return statuses


async def staff(base: str, token: str, until: float) -> list[float]:
    """Commands at ten a second: each a time call started and ended at table 1."""
    took = []
    headers = {"Authorization": f"Bearer {token}"}
    async with httpx.AsyncClient(base_url=base, headers=headers, timeout=30) as client:
        i = 0
        while time.monotonic() < until:
            kind = "call_time" if i % 2 == 0 else "end_time_call"
            start = time.perf_counter()
            r = await client.post(
                f"/api/t/{TID}/commands",
                json={"command": {"type": kind, "table": 1, "seat": 1}},
            )
            took.append(time.perf_counter() - start)
            assert r.status_code in (200, 409), r.text
            i += 1
            await asyncio.sleep(max(0.0, 0.1 - took[-1]))
    return took


async def signins(base: str, cookies: httpx.Cookies, until: float) -> list[float]:
    """The director signing in again and again from the browser that signed in before."""
    took = []
    async with httpx.AsyncClient(base_url=base, cookies=cookies, timeout=60) as client:
        while time.monotonic() < until:
            start = time.perf_counter()
            r = await client.post(
                "/api/signin",
                json={"username": DIRECTOR[0], "secret": DIRECTOR[1]},
                headers={"X-Forwarded-For": "2001:db8:24:6::beef"},
            )
            took.append(time.perf_counter() - start)
            assert r.status_code == 200, r.text
            await asyncio.sleep(1.0)
    return took


async def attack(base: str, mode: str, attackers: int, seconds: float) -> None:
    """The attackers alone (``--attack``): prints how many guesses, and how many refused."""
    until = time.monotonic() + seconds
    counter = itertools.count(random.randrange(1 << 20))
    results = await asyncio.gather(
        *(attacker(base, mode, until, counter) for _ in range(attackers))
    )
    guesses = [s for r in results for s in r]
    print(len(guesses), sum(s == 429 for s in guesses))


async def phase(
    base: str, token: str, cookies: httpx.Cookies, mode: str | None, attackers: int, seconds: float
) -> dict[str, object]:
    until = time.monotonic() + seconds
    flood = None
    if mode is not None:
        args = ["--attack", mode, "--base", base, "--attackers", str(attackers)]
        flood = await asyncio.create_subprocess_exec(
            "nice",
            "-n",
            "19",
            sys.executable,
            __file__,
            *args,
            "--seconds",
            str(seconds),
            stdout=asyncio.subprocess.PIPE,
        )
    commands, logins = await asyncio.gather(
        staff(base, token, until), signins(base, cookies, until)
    )
    guesses, refused = 0, 0
    if flood is not None:
        out, _ = await asyncio.wait_for(flood.communicate(), seconds + 120)
        guesses, refused = (int(x) for x in out.split())
    return {
        "commands": len(commands),
        "command_p50_ms": 1000 * statistics.median(commands),
        "command_p90_ms": 1000 * quantile(commands, 0.9),
        "signin_median_s": statistics.median(logins),
        "signin_max_s": max(logins),
        "guesses": guesses,
        "refused": refused,
    }


def hashes(base: str, token: str) -> int:
    """The server's argon2 hashes so far (-1: a server from before it counted them)."""
    text = httpx.get(base + "/metrics", headers={"Authorization": f"Bearer {token}"}).text
    for line in text.splitlines():
        if line.startswith("floor_signin_hashes_total "):
            return int(line.split()[1])
    return -1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--attackers", type=int, default=12)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--attack", choices=["spread", "one-64"], help=argparse.SUPPRESS)
    parser.add_argument("--base", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.attack:
        asyncio.run(attack(args.base, args.attack, args.attackers, args.seconds))
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        valkey = EmbeddedServer(Path(tmp) / "valkey")
        valkey.start()
        port = free_port()
        env = {
            "REDIS_URL": valkey.url,
            "FLOOR_TRUSTED_PROXIES": "127.0.0.1",
            "FLOOR_LOG_LEVEL": "warning",
        }
        server = None
        try:
            for name, secret, role in (
                ("boss", DIRECTOR[1], "director"),
                ("fred", FLOOR[1], "floor"),
            ):
                add_user(valkey.url, name, secret, role, env)
            server = subprocess.Popen(
                [sys.executable, "-m", "floor", "serve", "--port", str(port)],
                cwd=ROOT,
                env={**os.environ, **env},
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            wait_http(port)
            base = f"http://127.0.0.1:{port}"
            boss = httpx.Client(base_url=base, timeout=60)
            r = boss.post("/api/signin", json={"username": DIRECTOR[0], "secret": DIRECTOR[1]})
            director = r.json()["token"]
            cookies = boss.cookies  # floor_known: this browser signed in before
            floor = httpx.post(
                base + "/api/signin", json={"username": FLOOR[0], "secret": FLOOR[1]}
            ).json()["token"]
            auth = {"Authorization": f"Bearer {director}"}
            body = {"id": TID, "name": TID, "rules": "tda-2024", "structure": "demo-fast"}
            assert httpx.post(base + "/api/tournaments", json=body, headers=auth).status_code == 201
            entries = [{"name": f"Player {i}", "player": f"P{i}"} for i in range(100)]
            for command in ({"type": "register_many", "entries": entries}, {"type": "draw_seats"}):
                r = httpx.post(
                    f"{base}/api/t/{TID}/commands", json={"command": command}, headers=auth
                )
                assert r.status_code == 200, r.text
            cores = len(os.sched_getaffinity(0))
            print(
                f"cores {cores}, argon2 at the production cost, {args.attackers} attackers, "
                f"{args.seconds:.0f} s a phase"
            )
            print(
                f"{'phase':<10} {'guesses':>8} {'refused':>8} {'hashes':>7} "
                f"{'cmd p50':>9} {'cmd p90':>9} {'sign-in median':>15} {'max':>7}"
            )
            for mode in (None, "spread", "one-64"):
                before = hashes(base, director)
                got = asyncio.run(phase(base, floor, cookies, mode, args.attackers, args.seconds))
                spent = hashes(base, director) - before if before >= 0 else -1
                print(
                    f"{mode or 'idle':<10} {got['guesses']:>8} {got['refused']:>8} {spent:>7} "
                    f"{got['command_p50_ms']:>7.1f}ms {got['command_p90_ms']:>7.1f}ms "
                    f"{got['signin_median_s']:>14.3f}s {got['signin_max_s']:>6.3f}s"
                )
            boss.close()
        finally:
            if server is not None:
                server.terminate()
                server.wait(10)
            valkey.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
