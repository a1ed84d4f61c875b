"""What the benchmark servers share: the control protocol, CPU pinning, the event loop.

Both servers accept client websockets on any path but ``/control``. Optionally they read one
first message (a subscribe) and then send a snapshot (``--snapshot-bytes``), like the floor
server will. The controller opens one websocket on ``/control`` and sends text messages:

- ``A<payload>``: fan ``<payload>`` out to every client connection;
- ``1<payload>``: send it to one client connection only;
- ``?``: just report.

The server answers each with a JSON object ``{"n": clients sent to, "start": ns, "end": ns}``:
``start``/``end`` are ``time.monotonic_ns()`` right after the control message was received and
right after the fan-out finished (for a queue-based fan-out: after the last writer wrote), so
the controller can split its own trigger-to-last-client latency into trigger delivery,
server fan-out, and the receivers' tail.
"""

from __future__ import annotations

import argparse
import json
import os

from bench.wsload.receivers import raise_nofile

SNAPSHOT_SEQ_KEY = b'"seq":'


def snapshot(size: int) -> bytes:
    """A JSON snapshot of about ``size`` bytes (no ``"to":`` key, so it is never sequenced)."""
    head = b'{"type":"snapshot","seq":0,"tables":"'
    return head + b"x" * max(0, size - len(head) - 2) + b'"}'


def reply(n: int, start: int, end: int) -> str:
    return json.dumps({"n": n, "start": start, "end": end})


def add_common_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8765)
    p.add_argument("--cpu", type=int, default=None, help="pin the server to this CPU")
    p.add_argument("--read-first", action="store_true", help="read one message after connect")
    p.add_argument("--snapshot-bytes", type=int, default=0, help="send a snapshot on connect")
    p.add_argument("--ping-interval", type=float, default=None, help="keepalive pings (s)")
    p.add_argument("--backlog", type=int, default=4096)
    p.add_argument("--nice", type=int, default=None, help="nice value (-20: favour this process)")


def setup_process(cpu: int | None, nice: int | None = None) -> None:
    if cpu is not None:
        os.sched_setaffinity(0, {cpu})
    if nice is not None:
        os.setpriority(os.PRIO_PROCESS, 0, nice)
    raise_nofile()
