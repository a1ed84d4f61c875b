"""What the benchmarks share to run a `floor serve` of their own: an account made on the
command line, and waiting until the server answers."""

from __future__ import annotations

import http.client
import os
import subprocess
import sys
import time
from collections.abc import Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def add_user(redis_url: str, name: str, secret: str, role: str, env: Mapping[str, str]) -> None:
    """``floor user add`` on the Redis at ``redis_url``, the secret on stdin."""
    subprocess.run(
        [sys.executable, "-m", "floor", "user", "add", name, "--role", role, "--secret-stdin"],
        input=f"{secret}\n".encode(),
        env={**os.environ, **env, "REDIS_URL": redis_url},
        cwd=ROOT,
        check=True,
        capture_output=True,
    )


def wait_http(port: int, path: str = "/healthz", timeout: float = 60.0) -> None:
    """Until ``GET path`` answers 200 on the loopback ``port``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
            conn.request("GET", path)
            if conn.getresponse().status == 200:
                return
        except OSError:
            pass
        time.sleep(0.05)
    raise RuntimeError(f"nothing answers on port {port}")
