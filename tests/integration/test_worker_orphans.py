"""A server killed outright leaves no worker behind: the forecaster's worker processes and
the push sender end soon after the process that spawned them (``server.parent_watch``)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: A parent as the server is one: the real pool classes, a worker started, then it waits to
#: be killed. It prints its worker's process id.
PARENTS = {
    "forecast": """
        import asyncio, time
        from floor.forecast import worker
        from floor.server.forecast_pool import WorkerPool

        async def main():
            pool = WorkerPool(1)
            pid, _ = await pool.call(worker.where)
            print(pid, flush=True)
            time.sleep(600)

        asyncio.run(main())
    """,
    "push": """
        import asyncio, os, time
        from cryptography.hazmat.primitives.asymmetric import ec
        from cryptography.hazmat.primitives.serialization import (
            Encoding, NoEncryption, PrivateFormat)
        from floor.server.push_sender import PushSender

        async def main():
            key = ec.generate_private_key(ec.SECP256R1())
            pem = key.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption())
            sender = PushSender(pem, "mailto:floor@example.org", threads=1)
            pid = await asyncio.wrap_future(sender._executor().submit(os.getpid))
            print(pid, flush=True)
            time.sleep(600)

        asyncio.run(main())
    """,
}


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie is gone in all but name: its parent (init here) reaps it.
    try:
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.parametrize("kind", sorted(PARENTS))
def test_a_killed_servers_worker_leaves_with_it(kind: str) -> None:
    parent = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(PARENTS[kind])],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert parent.stdout is not None
        line = parent.stdout.readline()
        assert line.strip().isdigit(), f"no worker started: {line!r}"
        child = int(line)
        assert child != parent.pid and _alive(child)
        parent.send_signal(signal.SIGKILL)
        parent.wait(10)
        deadline = time.monotonic() + 30
        while _alive(child) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not _alive(child), f"the {kind} worker {child} outlived its server"
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait(10)
        if parent.stdout is not None:
            parent.stdout.close()
