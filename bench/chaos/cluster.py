"""The processes under test: one embedded Valkey on a TCP port and ``floor serve`` processes.

Both kinds are killed with SIGKILL (a crash) and started again on the same port (and, for
Valkey, the same data directory: the AOF with ``appendfsync always`` holds every write it
acknowledged).
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from pathlib import Path

import httpx

from floor.redisdb.embedded import EmbeddedServer, free_port

ROOT = Path(__file__).resolve().parents[2]


class Valkey:
    def __init__(self, data_dir: Path) -> None:
        self.port = free_port()
        self.server = EmbeddedServer(data_dir, port=self.port, appendfsync="always")
        self.url = f"redis://127.0.0.1:{self.port}"
        self.kills = 0
        self.starts = 0

    async def start(self) -> float:
        t0 = time.monotonic()
        await asyncio.to_thread(self.server.start, 30.0)
        self.starts += 1
        return time.monotonic() - t0

    async def kill(self) -> None:
        await asyncio.to_thread(self.server.kill)
        self.kills += 1

    @property
    def pid(self) -> int | None:
        return self.server.pid

    async def stop(self) -> None:
        await asyncio.to_thread(self.server.stop)


class FloorServer:
    """``floor serve`` on a fixed port; stderr (JSON log lines) appended to ``log``."""

    def __init__(self, name: str, redis_url: str, log: Path, heartbeat: float) -> None:
        self.name = name
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws = f"ws://127.0.0.1:{self.port}"
        self.redis_url = redis_url
        self.log = log
        self.heartbeat = heartbeat
        self.proc: asyncio.subprocess.Process | None = None
        self.kills = 0
        self.starts = 0

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc is not None else None

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.returncode is None

    async def start(self, within: float = 30.0) -> float:
        """Start and wait until it answers HTTP (``/healthz`` may say 503 while Redis is
        down: the process is up all the same)."""
        env = {
            **os.environ,
            "REDIS_URL": self.redis_url,
            "FLOOR_HEARTBEAT": str(self.heartbeat),
            "FLOOR_LOG_LEVEL": "warning",
            "PYTHONUNBUFFERED": "1",
        }
        t0 = time.monotonic()
        with self.log.open("ab") as log:
            log.write(f"--- chaos soak: starting {self.name} at {time.time():.3f} ---\n".encode())
            log.flush()
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "floor",
                "serve",
                "--port",
                str(self.port),
                cwd=ROOT,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=log,
                start_new_session=True,
            )
        self.starts += 1
        async with httpx.AsyncClient(timeout=1.0) as client:
            while time.monotonic() - t0 < within:
                if self.proc.returncode is not None:
                    raise RuntimeError(
                        f"{self.name} exited ({self.proc.returncode}); see {self.log}"
                    )
                try:
                    r = await client.get(self.base + "/healthz")
                    if r.status_code in (200, 503):
                        return time.monotonic() - t0
                except httpx.HTTPError:
                    pass
                await asyncio.sleep(0.05)
        raise RuntimeError(f"{self.name} did not come up within {within}s; see {self.log}")

    async def kill(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.proc.kill()
            await self.proc.wait()
            self.kills += 1

    async def stop(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.proc.terminate()
            try:
                await asyncio.wait_for(self.proc.wait(), 10)
            except TimeoutError:
                self.proc.kill()
                await self.proc.wait()

    async def healthy(self) -> bool:
        try:
            async with httpx.AsyncClient(timeout=2.0) as client:
                r = await client.get(self.base + "/healthz")
                return r.status_code == 200
        except httpx.HTTPError:
            return False


def add_user(redis_url: str, name: str, secret: str, role: str) -> None:
    subprocess.run(
        [sys.executable, "-m", "floor", "user", "add", name, "--role", role, "--secret-stdin"],
        input=secret.encode() + b"\n",
        cwd=ROOT,
        check=True,
        env={**os.environ, "REDIS_URL": redis_url},
        capture_output=True,
    )
