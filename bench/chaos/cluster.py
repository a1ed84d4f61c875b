"""The processes under test: ``floor serve`` processes on one embedded Valkey, killed at will.

The Valkey is the one a venue runs: ``floor serve`` started without ``REDIS_URL`` (the
*keeper*, ``server-0``) runs it from its data directory with ``appendfsync always`` and its
supervisor (``floor.redisdb.supervisor``) restarts it when it dies; every other process
(the staff servers and the public edge, ``FLOOR_SERVES=public``) uses it through its unix
socket. Killing Valkey is a SIGKILL of the pid in its pidfile, and the keeper's supervisor
brings it back; killing the keeper leaves its Valkey running as an orphan, which the keeper
stops (SIGTERM: the AOF is fsynced) and starts afresh when it comes back.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

from floor.redisdb.embedded import PID_NAME, SOCK_NAME, free_port, running_url

ROOT = Path(__file__).resolve().parents[2]


class FloorServer:
    """``floor serve`` on a fixed port; stderr (JSON log lines) appended to ``log``.

    ``redis_url`` None: this process runs the embedded Valkey in ``data_dir`` (the keeper).
    """

    def __init__(
        self,
        name: str,
        redis_url: str | None,
        log: Path,
        heartbeat: float,
        *,
        serves: str = "everyone",
        env: dict[str, str] | None = None,
    ) -> None:
        self.name = name
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws = f"ws://127.0.0.1:{self.port}"
        self.redis_url = redis_url
        self.log = log
        self.heartbeat = heartbeat
        self.serves = serves
        self.env = env or {}
        self.proc: asyncio.subprocess.Process | None = None
        self.kills = 0
        self.starts = 0
        #: Set while the soak has it down: any other exit is the process's own (a crash, or
        #: the keeper giving up on its Valkey: status 69), and fails the soak.
        self.down_on_purpose = False

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc is not None else None

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.returncode is None

    @property
    def exited_by_itself(self) -> int | None:
        """The exit status of a process that ended without the soak ending it."""
        if self.proc is None or self.down_on_purpose:
            return None
        return self.proc.returncode

    async def start(self, within: float = 30.0, healthy: bool = False) -> float:
        """Start and wait until it answers HTTP (``/healthz`` may say 503 while Redis is
        down: the process is up all the same; ``healthy``: wait for a 200)."""
        env = {
            k: v
            for k, v in os.environ.items()
            if k not in ("REDIS_URL", "FLOOR_SERVES", "FLOOR_VALKEY_STATE_FILE")
        }
        env.update(
            {
                "FLOOR_HEARTBEAT": str(self.heartbeat),
                "FLOOR_LOG_LEVEL": "warning",
                "FLOOR_SERVES": self.serves,
                "PYTHONUNBUFFERED": "1",
                **self.env,
            }
        )
        if self.redis_url is not None:
            env["REDIS_URL"] = self.redis_url
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
        self.down_on_purpose = False
        wanted = (200,) if healthy else (200, 503)
        async with httpx.AsyncClient(timeout=1.0) as client:
            while time.monotonic() - t0 < within:
                if self.proc.returncode is not None:
                    raise RuntimeError(
                        f"{self.name} exited ({self.proc.returncode}); see {self.log}"
                    )
                try:
                    r = await client.get(self.base + "/healthz")
                    if r.status_code in wanted:
                        return time.monotonic() - t0
                except httpx.HTTPError:
                    pass
                await asyncio.sleep(0.05)
        raise RuntimeError(f"{self.name} did not come up within {within}s; see {self.log}")

    async def kill(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.down_on_purpose = True
            self.proc.kill()
            await self.proc.wait()
            self.kills += 1

    async def stop(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.down_on_purpose = True
            self.proc.terminate()
            try:
                await asyncio.wait_for(self.proc.wait(), 15)
            except TimeoutError:
                self.proc.kill()
                await self.proc.wait()

    async def health(self) -> dict[str, Any] | None:
        """``/healthz`` as JSON, whatever its status; None when it does not answer."""
        try:
            async with httpx.AsyncClient(timeout=2.0) as client:
                r = await client.get(self.base + "/healthz")
                body: dict[str, Any] = r.json()
                return body
        except (httpx.HTTPError, ValueError):
            return None

    async def healthy(self) -> bool:
        h = await self.health()
        return h is not None and h.get("status") == "ok"


class Valkey:
    """The keeper's embedded Valkey, seen from outside: its pid, its url, a SIGKILL."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self.kills = 0
        #: Times it came back after a kill (the keeper's supervisor restarted it).
        self.restarts = 0

    @property
    def url(self) -> str:
        url = running_url(self.data_dir)
        if url is None:
            # Down for the moment: the socket's path is the same whatever runs on it.
            return "unix://" + str((self.data_dir / SOCK_NAME).resolve())
        return url

    @property
    def pid(self) -> int | None:
        """The pid in the pidfile, if it is a live valkey-server (not a pid since reused)."""
        try:
            pid = int((self.data_dir / PID_NAME).read_text().strip())
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        except (OSError, ValueError):
            return None
        return pid if b"valkey" in cmdline else None

    async def kill(self) -> int:
        """SIGKILL the server as a crash would; the pid killed."""
        pid = self.pid
        if pid is None:
            raise RuntimeError(f"no valkey pidfile in {self.data_dir}")
        os.kill(pid, signal.SIGKILL)
        self.kills += 1
        # Wait until it is gone (its parent, the keeper, reaps it).
        for _ in range(200):
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                break
            await asyncio.sleep(0.01)
        return pid

    async def back(self, keeper: FloorServer, old_pid: int, within: float = 60.0) -> float:
        """Seconds until the keeper's supervisor has it running again (a new pid, and the
        keeper's ``/healthz`` ok)."""
        t0 = time.monotonic()
        while time.monotonic() - t0 < within:
            pid = self.pid
            if pid is not None and pid != old_pid and running_url(self.data_dir) is not None:
                h = await keeper.health()
                if h is not None and h.get("status") == "ok":
                    self.restarts += 1
                    return time.monotonic() - t0
            if keeper.exited_by_itself is not None:
                raise RuntimeError(
                    f"the keeper exited ({keeper.exited_by_itself}) instead of restarting Valkey"
                )
            await asyncio.sleep(0.05)
        raise RuntimeError(f"Valkey was not back within {within}s of its kill")

    def kill_orphan(self) -> None:
        """At the end, whatever happened: no Valkey left behind."""
        pid = self.pid
        if pid is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)


def add_user(redis_url: str, name: str, secret: str, role: str) -> None:
    subprocess.run(
        [sys.executable, "-m", "floor", "user", "add", name, "--role", role, "--secret-stdin"],
        input=secret.encode() + b"\n",
        cwd=ROOT,
        check=True,
        env={**os.environ, "REDIS_URL": redis_url},
        capture_output=True,
    )
