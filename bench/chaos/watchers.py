"""A worker process of watching screens: ``python -m bench.chaos.watchers '<config JSON>'``.

Config: ``{"tid", "servers": [HTTP base URLs], "homes": [the server each screen joins first,
by index], "first": global index of its first screen, "count", "full": [global indexes that
fold], "ramp": seconds over which the screens join, "seed"}``. They are the public's screens
(the wall, players' phones): not signed in.

stdout, JSON lines: ``{"type": "status", ...}`` every second, then ``{"type": "report",
"screens": [...]}`` once asked. stdin, JSON lines: ``{"type": "finish", "target": V,
"timeout": s}``: wait (up to ``timeout``) until every screen is connected and shows ``V``,
then report and exit. ``{"type": "storm", "id": k}``: drop every connected screen at once
(each reconnects with ``since`` right away), then ``{"type": "storm", "id": k, "dropped": n,
"back_s": s}`` once each dropped screen is connected again and shows at least what it
showed before (``back_s`` null if that took more than ``STORM_WITHIN`` seconds).
"""

from __future__ import annotations

import asyncio
import gc
import json
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx

from .screen import Screen, watchdog

STORM_WITHIN = 60.0


def emit(obj: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(obj, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def status(screens: list[Screen], started: int) -> dict[str, Any]:
    counts: Counter[str] = Counter()
    for s in screens:
        counts.update(s.counts)
    seqs = [s.seq for s in screens if s.seq >= 0]
    return {
        "type": "status",
        "started": started,
        "connected": sum(1 for s in screens if s.connected),
        "min_seq": min(seqs) if seqs else -1,
        "max_seq": max(seqs) if seqs else -1,
        "counts": dict(counts),
    }


async def main(cfg: dict[str, Any]) -> None:
    loop = asyncio.get_running_loop()
    commands: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

    def read_stdin() -> None:
        for line in sys.stdin:
            if line.strip():
                loop.call_soon_threadsafe(commands.put_nowait, json.loads(line))
        loop.call_soon_threadsafe(commands.put_nowait, {"type": "eof"})

    threading.Thread(target=read_stdin, daemon=True).start()

    servers: list[str] = cfg["servers"]
    homes: list[int] = cfg["homes"]
    full = set(cfg.get("full", []))
    first, count = cfg["first"], cfg["count"]
    dump = Path(cfg["dump"]) if cfg.get("dump") else None
    # One pool for the snapshots read over HTTP (a storm's screens reconnect with since).
    http = httpx.AsyncClient(
        timeout=httpx.Timeout(15.0, connect=2.0),
        limits=httpx.Limits(max_connections=64, max_keepalive_connections=16),
    )
    screens = [
        Screen(
            i,
            servers,
            cfg["tid"],
            homes[i - first],
            full=i in full,
            seed=cfg["seed"],
            dump=dump,
            http=http,
        )
        for i in range(first, first + count)
    ]
    ramp = float(cfg.get("ramp", 0.0))
    tasks: list[asyncio.Task[None]] = []

    async def start_all() -> None:
        t0 = loop.time()
        for k, s in enumerate(screens):
            at = t0 + ramp * k / max(1, len(screens))
            delay = at - loop.time()
            if delay > 0:
                await asyncio.sleep(delay)
            tasks.append(loop.create_task(s.run()))

    starter = loop.create_task(start_all())
    dog = loop.create_task(watchdog(screens))

    async def report_status() -> None:
        while True:
            emit(status(screens, len(tasks)))
            await asyncio.sleep(1.0)

    reporter = loop.create_task(report_status())
    storms: list[asyncio.Task[None]] = []
    while True:
        command = await commands.get()
        if command["type"] == "eof":
            return
        if command["type"] == "storm":
            storms.append(loop.create_task(storm(screens, int(command["id"]))))
        if command["type"] == "finish":
            break
    for task in storms:
        task.cancel()
    await starter
    target = int(command["target"])
    deadline = loop.time() + float(command.get("timeout", 60.0))
    while loop.time() < deadline:
        if all(s.connected and s.seq >= target for s in screens):
            break
        await asyncio.sleep(0.1)
    reporter.cancel()
    dog.cancel()
    # Each screen's record as it stands at this instant, before closing anything.
    reports = [s.report() for s in screens]
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    emit({"type": "report", "screens": reports, "at": time.time()})


async def storm(screens: list[Screen], k: int) -> None:
    """Every connected screen dropped at once; reported when they are all back."""
    dropped, back_s = await drop_all(screens)
    emit({"type": "storm", "id": k, "dropped": dropped, "back_s": back_s})


async def drop_all(screens: list[Screen]) -> tuple[int, float | None]:
    """Drop every connected screen at once: how many, and the seconds until each is
    connected again showing at least what it showed (None: not within STORM_WITHIN)."""
    loop = asyncio.get_running_loop()
    before = {s: (s.counts["connects"], s.seq) for s in screens if s.connected}
    dropped = [s for s in before if s.drop()]
    t0 = loop.time()

    def back(s: Screen) -> bool:
        connects, seq = before[s]
        return s.connected and s.counts["connects"] > connects and s.seq >= seq

    while loop.time() - t0 < STORM_WITHIN:
        if all(back(s) for s in dropped):
            return len(dropped), loop.time() - t0
        await asyncio.sleep(0.05)
    return len(dropped), None


def run() -> None:
    cfg = json.loads(sys.argv[1])
    gc.freeze()
    try:
        import uvloop
    except ImportError:
        asyncio.run(main(cfg))
        return
    uvloop.run(main(cfg))


if __name__ == "__main__":
    run()
