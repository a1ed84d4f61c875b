"""Benchmark: what each route's worst case costs the event loop, and the clock meanwhile.

A real ``floor serve`` (uvloop, as shipped) runs under the loop watchdog of
``tests/e2e/loop_watch.py``: a beat every 5 ms reads the CPU time of the loop's thread, and
every stretch of 1 ms or more it spent without a break is a hold. The rooms are those of
``tests/e2e/worst_rooms.py`` (10,000 players, a flight of 10,000 bagged), the probes those of
``tests/e2e/worst_cases.py`` (every route at its worst case: the largest bodies, 100,000
entries, the hostile spreadsheets). A clock runs one-second levels, so a level change comes
due every second: a reader of its stream in Redis (``XREAD BLOCK``, a process of its own)
sees each ``level_changed`` the moment it is written, and its lateness is that moment less
the instant the level ended (``at``). That clock runs in a small tournament of its own
(``CLOCK``): one in the room, changing level every second, would race every command sent to
the room, and the driver writes each tournament's changes alike.

Each probe runs once, then again until 1.5 s have passed (so a level change came due
during it); for each it prints the worst hold (CPU and wall, and where the loop's thread
was) and the worst lateness of the level changes due while it ran, beside the baseline: the
same server, idle, for 10 s, in the same run. Target: no hold above 50 ms, no level change
more than 1 s late.

    .venv/bin/python bench/loop_watchdog.py [--only KEY_PREFIX] [--idle 10]

It never fails on a figure; answers that are not what the tests expect are listed after.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import multiprocessing.process
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import httpx
import redis

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.serving import add_user  # noqa: E402
from floor.engine.events import LevelChanged  # noqa: E402
from floor.protocol import decode_event  # noqa: E402
from floor.redisdb.embedded import EmbeddedServer  # noqa: E402
from floor.redisdb.keys import Keys  # noqa: E402
from tests.e2e import worst_cases  # noqa: E402
from tests.e2e.loop_watch import Hold, WatchedServer  # noqa: E402
from tests.e2e.worst_rooms import CLOCK, ROOM, build  # noqa: E402

TARGET_HOLD = 0.050
TARGET_LATE = 1.0
#: Each probe's window lasts at least this long, so that a level change comes due in it.
WINDOW = 1.5


def read_changes(url: str, tid: str, out: str) -> None:
    """In a process of its own (the benchmark's own work would delay its reading): each
    level change of ``tid`` as it is written, as "due written" lines in ``out``."""
    client = redis.Redis.from_url(url)
    key = Keys(tid).events
    last = client.xinfo_stream(key)["last-generated-id"]
    with open(out, "a", buffering=1) as f:
        while True:
            for _, entries in client.xread({key: last}, block=1000) or []:
                written = time.time()
                for entry_id, fields in entries:
                    last = entry_id
                    event = decode_event(fields[b"e"])
                    if isinstance(event, LevelChanged) and event.by == "clock":
                        f.write(f"{event.at} {written}\n")


@dataclass
class Changes:
    """Every level change of the clock's tournament as it is written: (due, written)."""

    url: str
    path: Path
    process: multiprocessing.process.BaseProcess | None = None

    def start(self) -> None:
        context = multiprocessing.get_context("spawn")
        self.process = context.Process(
            target=read_changes, args=(self.url, CLOCK, str(self.path)), daemon=True
        )
        self.process.start()

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()

    def late(self, start: float, end: float) -> list[float]:
        """How late each change due between ``start`` and ``end`` was written."""
        if not self.path.exists():
            return []
        seen = [tuple(map(float, line.split())) for line in self.path.read_text().splitlines()]
        return [written - due for due, written in seen if start <= due <= end]


def _hold(holds: list[Hold]) -> str:
    if not holds:
        return f"{'-':>8} {'-':>8}  (none of 1 ms or more)"
    worst = max(holds, key=lambda h: h.cpu)
    flag = "  over" if worst.cpu > TARGET_HOLD else ""
    return f"{worst.cpu * 1000:8.1f} {worst.wall * 1000:8.1f}  {worst.where[:60]}{flag}"


def _late(late: list[float]) -> str:
    if not late:
        return f"{'-':>9}"
    flag = "*" if max(late) > TARGET_LATE else " "
    return f"{max(late) * 1000:8.0f}{flag} ({len(late)})"


async def _probes(
    server: WatchedServer, changes: Changes, world: worst_cases.World, only: str, idle: float
) -> None:
    print(f"\n{'probe':<44} {'late ms (n)':>14}  {'hold cpu':>8} {'wall ms':>8}  where")
    start = time.time()
    await asyncio.sleep(idle)
    end = time.time()
    print(
        f"{'baseline: the server idle, ' + f'{idle:.0f} s':<44} "
        f"{_late(changes.late(start, end)):>14}  {_hold(server.holds.between(start, end))}"
    )
    for key in worst_cases.order():
        if not key.startswith(only):
            continue
        start = time.time()
        runs = 0
        while True:
            world.strict = False
            kept = len(world.notes)
            await worst_cases.run(world, key)
            if runs:
                del world.notes[kept:]  # a repeat may find its work done: not the probe's
            runs += 1
            if time.time() - start >= WINDOW:
                break
        end = time.time()
        await asyncio.sleep(0.3)  # a hold that ends after the answer
        holds = server.holds.between(start, end + 0.3)
        keys = worst_cases.covered(key)
        label = key if len(keys) == 1 else f"{key} (+{len(keys) - 1})"
        print(
            f"{label[:44]:<44} {_late(changes.late(start, end)):>14}  {_hold(holds)}   x{runs}",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="", help="probes whose key starts with this")
    parser.add_argument("--idle", type=float, default=10.0, help="seconds of the baseline")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        valkey = EmbeddedServer(Path(tmp) / "valkey")
        valkey.start()
        server = WatchedServer(valkey.url, Path(tmp) / "server.log", least=0.001)
        changes = Changes(valkey.url, Path(tmp) / "changes.txt")
        try:
            started = time.perf_counter()
            versions = asyncio.run(build(valkey.url))
            files = worst_cases.Files.make()
            print(f"rooms {versions} and files made in {time.perf_counter() - started:.0f} s")
            add_user(valkey.url, "boss", "director-secret", "director", {})
            add_user(valkey.url, "fred", "floor-secret", "floor", {})
            server.start(timeout=120)
            tokens = {}
            for name, secret in (("boss", "director-secret"), ("fred", "floor-secret")):
                r = httpx.post(
                    f"{server.base}/api/signin", json={"username": name, "secret": secret}
                )
                tokens[name] = r.json()["token"]
            world = worst_cases.World(
                server.base, tokens["boss"], tokens["fred"], files, strict=False
            )
            # Warm: the room loaded, as a server that has been running has it.
            httpx.get(f"{server.base}/api/t/{ROOM}", timeout=60)
            body = {"id": "clock", "command": {"type": "clock_start"}}
            headers = {"Authorization": f"Bearer {tokens['boss']}"}
            r = httpx.post(f"{server.base}/api/t/{CLOCK}/commands", json=body, headers=headers)
            assert r.status_code == 200, r.text
            changes.start()
            asyncio.run(_probes(server, changes, world, args.only, args.idle))
            print(
                f"\ntarget: holds of {TARGET_HOLD * 1000:.0f} ms at most ('over'), "
                f"level changes {TARGET_LATE:.0f} s late at most ('*')"
            )
            if world.notes:
                print("\nanswers the tests would refuse:")
                for note in world.notes:
                    print(f"  {note}")
        finally:
            changes.stop()
            server.stop()
            valkey.stop()


if __name__ == "__main__":
    main()
