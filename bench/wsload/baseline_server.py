"""The baseline: a bare ``websockets`` (asyncio, uvloop) broadcast server.

Accepts client websockets on any path but ``/control`` (protocol in ``common.py``), keeps a
set of open connections, and on each ``A<payload>`` control message sends the payload to all
of them as one text frame each:

- ``--fanout broadcast`` (the baseline): ``websockets.broadcast(clients, payload, text=True)``;
- ``--fanout frame`` (a reference floor, not a baseline): the frame is encoded once and written
  to every connection's transport, skipping websockets' per-connection frame serialisation.

It times its own fan-out with ``time.monotonic_ns()`` and reports it on the control socket.
Compression is off (no permessage-deflate), as in every server here.

    python -m bench.wsload.baseline_server --port 8765 --cpu 0 [--fanout frame] \
        [--read-first] [--snapshot-bytes 2000]
"""

from __future__ import annotations

import argparse
import contextlib
import time

import uvloop
from websockets.asyncio.server import ServerConnection, broadcast, serve
from websockets.protocol import State

from bench.wsload.common import add_common_args, reply, setup_process, snapshot
from bench.wsload.receivers import encode_frame


async def main(args: argparse.Namespace) -> None:
    clients: set[ServerConnection] = set()
    snap = snapshot(args.snapshot_bytes) if args.snapshot_bytes else None
    use_frame = args.fanout == "frame"

    async def control(ws: ServerConnection) -> None:
        while True:
            try:
                msg = await ws.recv(decode=False)
            except Exception:
                return
            start = time.monotonic_ns()
            mode, payload = msg[:1], msg[1:]
            if mode == b"A":
                n = len(clients)
                if use_frame:
                    frame = encode_frame(0x1, payload, mask=False)
                    for c in clients:
                        if c.protocol.state is State.OPEN:
                            c.transport.write(frame)
                else:
                    broadcast(clients, payload, text=True)
            elif mode == b"1":
                n = 1 if clients else 0
                if n:
                    broadcast([next(iter(clients))], payload, text=True)
            else:
                n = len(clients)
            end = time.monotonic_ns()
            await ws.send(reply(n, start, end))

    async def handler(ws: ServerConnection) -> None:
        assert ws.request is not None
        if ws.request.path.startswith("/control"):
            await control(ws)
            return
        if args.read_first:
            await ws.recv()
        clients.add(ws)
        try:
            if snap is not None:
                await ws.send(snap, text=True)
            await ws.wait_closed()
        finally:
            clients.discard(ws)

    async with serve(
        handler,
        args.host,
        args.port,
        compression=None,
        ping_interval=args.ping_interval,
        ping_timeout=args.ping_interval,
        backlog=args.backlog,
        max_queue=16,
    ) as server:
        await server.serve_forever()


def run() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    add_common_args(p)
    p.add_argument("--fanout", choices=["broadcast", "frame"], default="broadcast")
    args = p.parse_args()
    setup_process(args.cpu, args.nice)
    with contextlib.suppress(KeyboardInterrupt):
        uvloop.run(main(args))


if __name__ == "__main__":
    run()
