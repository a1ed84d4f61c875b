"""A watchdog on a real server's event loop: how long its thread computes without a break.

``python -m tests.e2e.loop_watch REPORT serve --port N`` runs ``floor serve`` (uvloop, the
guarded HTTP protocol, everything as shipped) with one thing added to the application's
lifespan: a beat, a callback the loop runs every few milliseconds. Each beat reads
``time.thread_time()``, the CPU time of the loop's own thread: what it spent since the last
beat is what the callbacks run in between cost, the one that held the loop included (the
selector's waiting costs no CPU, and neither do the thread pool or a worker process). uvloop
runs its callbacks in C, where asyncio's debug hook (``slow_callback_duration``) cannot time
them; a beat bounds every callback's own CPU time from above, which is what a test of "no
callback holds the loop past a limit" needs, and it counts CPU, not wall time, so a busy
machine does not make it fail.

A hold of ``LOOP_WATCH_LEAST`` seconds or more (0.005 by default) is written to REPORT as a
JSON line: when it ended (``time.time()``), its CPU and wall seconds, and where the loop's
thread was while it held (sampled by a thread of the watchdog: the innermost frame of
floor's code).

The tests and ``bench/loop_watchdog.py`` read REPORT with ``Holds``.
"""

from __future__ import annotations

import asyncio
import collections
import os
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import msgspec

from tests.e2e.conftest import ROOT, ServerProcess

#: Seconds between beats: the finest hold the watchdog can tell from a busy loop.
EVERY = 0.005
#: While the loop has not beaten for this long, the sampler looks where its thread is.
SAMPLE_AFTER = 0.02
_FLOOR = str(ROOT / "floor") + os.sep


class Hold(msgspec.Struct, frozen=True):
    """One hold of the loop: it ended at ``end`` (``time.time()``)."""

    end: float
    cpu: float
    wall: float
    where: str

    @property
    def start(self) -> float:
        return self.end - self.wall


class LoopWatch:
    """The beat and its sampler, in the server process."""

    def __init__(self, report: Path, least: float) -> None:
        self.report = report.open("a", buffering=1)
        self.least = least
        self.loop: asyncio.AbstractEventLoop | None = None
        self.handle: asyncio.TimerHandle | None = None
        self.thread = threading.get_ident()
        self.cpu = 0.0
        self.wall = 0.0
        self.seen: collections.Counter[str] = collections.Counter()
        self.stopped = threading.Event()

    def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.thread = threading.get_ident()
        self.cpu, self.wall = time.thread_time(), time.monotonic()
        self.handle = self.loop.call_later(EVERY, self._beat)
        threading.Thread(target=self._sample, name="loop-watch", daemon=True).start()

    def stop(self) -> None:
        self.stopped.set()
        if self.handle is not None:
            self.handle.cancel()
        self.report.close()

    def _beat(self) -> None:
        cpu, wall = time.thread_time(), time.monotonic()
        held = cpu - self.cpu
        if held >= self.least:
            where = self.seen.most_common(1)[0][0] if self.seen else ""
            hold = Hold(end=time.time(), cpu=held, wall=wall - self.wall, where=where)
            self.report.write(msgspec.json.encode(hold).decode() + "\n")
        self.seen.clear()
        assert self.loop is not None
        self.handle = self.loop.call_later(EVERY, self._beat)
        # Counted from here: the watchdog's own writing is not the next hold's.
        self.cpu, self.wall = time.thread_time(), time.monotonic()

    def _sample(self) -> None:
        while not self.stopped.wait(SAMPLE_AFTER / 2):
            if time.monotonic() - self.wall < SAMPLE_AFTER:
                continue
            frame = sys._current_frames().get(self.thread)
            where = ""
            while frame is not None:
                if frame.f_code.co_filename.startswith(_FLOOR) and not where:
                    name = frame.f_code.co_filename[len(str(ROOT)) + 1 :]
                    where = f"{name}:{frame.f_lineno} {frame.f_code.co_name}"
                    break
                frame = frame.f_back
            self.seen[where or "(outside floor's code)"] += 1


def watched(create_app: Callable[[], Any], report: Path, least: float) -> Callable[[], Any]:
    """``create_app`` whose application runs a ``LoopWatch`` while it serves."""

    def create() -> Any:
        app = create_app()
        inner = app.router.lifespan_context

        @asynccontextmanager
        async def lifespan(a: Any) -> AsyncIterator[Any]:
            async with inner(a) as state:
                watch = LoopWatch(report, least)
                watch.start()
                try:
                    yield state
                finally:
                    watch.stop()

        app.router.lifespan_context = lifespan
        return app

    return create


def main(argv: list[str]) -> int:
    report, *floor_args = argv
    from floor import cli
    from floor.server import wiring

    least = float(os.environ.get("LOOP_WATCH_LEAST", "0.005"))
    # uvicorn imports "floor.server.wiring:create_app" by name: this process's copy of it.
    wiring.create_app = watched(wiring.create_app, Path(report), least)  # type: ignore[assignment]
    return cli.main(floor_args)


# The reading side ---------------------------------------------------------------------------


class Holds:
    """What a watched server's REPORT says, read as it grows."""

    def __init__(self, report: Path) -> None:
        self.report = report
        self.offset = 0
        self.all: list[Hold] = []

    def read(self) -> list[Hold]:
        """Every hold written so far (the new lines read)."""
        if self.report.exists():
            with self.report.open("rb") as f:
                f.seek(self.offset)
                data = f.read()
            complete = data[: data.rfind(b"\n") + 1]
            self.offset += len(complete)
            self.all += [msgspec.json.decode(line, type=Hold) for line in complete.splitlines()]
        return self.all

    def between(self, start: float, end: float) -> list[Hold]:
        """The holds that overlap ``start`` to ``end`` (``time.time()``)."""
        return [h for h in self.read() if h.end >= start and h.start <= end]


class WatchedServer(ServerProcess):
    """``floor serve`` under the watchdog; its holds in ``self.holds``."""

    def __init__(self, redis_url: str, log: Path, least: float = 0.005, **env: str) -> None:
        super().__init__(redis_url, log, **env)
        self.report = log.with_suffix(".holds")
        self.least = least
        self.holds = Holds(self.report)

    def start(self, timeout: float = 30.0) -> None:
        env = {
            **os.environ,
            "REDIS_URL": self.redis_url,
            "FLOOR_HEARTBEAT": "1",
            "FLOOR_LOG_LEVEL": "info",
            "LOOP_WATCH_LEAST": str(self.least),
            **self.env,
        }
        command = [sys.executable, "-m", "tests.e2e.loop_watch", str(self.report)]
        with self.log.open("ab") as log:
            self.proc = subprocess.Popen(
                [*command, "serve", "--port", str(self.port), *self.args],
                cwd=ROOT,
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=log,
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"floor serve exited: {self.log.read_text()[-2000:]}")
            try:
                if httpx.get(self.base + "/healthz", timeout=0.5).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        raise RuntimeError(f"floor serve did not come up: {self.log.read_text()[-2000:]}")

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
