"""The same broadcast server as ``baseline_server``, as a Starlette app on uvicorn.

Same control protocol (``common.py``), same clients, uvicorn on uvloop + httptools with
``ws_per_message_deflate=False``, and one of two websocket implementations
(``--ws websockets-sansio`` or the legacy ``--ws websockets``). Fan-out techniques
(``--fanout``):

- ``await``: ``for ws in clients: await ws.send_text(text)``: the plain Starlette way;
- ``queue``: each connection has a bounded ``asyncio.Queue`` and a writer task doing
  ``await ws.send_text(...)``; the fan-out puts into every queue (the fan-out time runs until
  the last writer has written: that is when the message is on every socket);
- ``sync``: like ``websockets.broadcast``: for each connection, synchronously serialise the
  frame with the connection's own websockets protocol object and write it to its transport
  (sansio: ``conn.send_text`` + ``transport.write(data_to_send())``; legacy:
  ``write_frame_sync``), skipping Starlette's and uvicorn's ASGI ``send`` path;
- ``frame``: encode the frame once, ``transport.write(frame)`` on every open connection.

``sync`` and ``frame`` reach the uvicorn protocol object through a tiny outer ASGI middleware
that stores ``send.__self__`` (uvicorn's protocol instance) in the scope: see ``ExposeProtocol``.

    python -m bench.wsload.starlette_server --port 8766 --cpu 0 --ws websockets-sansio \
        --fanout sync [--read-first] [--snapshot-bytes 2000]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import time
import warnings
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect
from websockets.protocol import State

from bench.wsload.common import add_common_args, reply, setup_process, snapshot
from bench.wsload.receivers import encode_frame
from floor.server.fanout import PROTOCOL_KEY, ExposeProtocol


class Client:
    __slots__ = ("proto", "queue", "task", "ws")

    def __init__(self, ws: WebSocket, queue_size: int) -> None:
        self.ws = ws
        self.proto: Any = ws.scope.get(PROTOCOL_KEY)
        self.queue: asyncio.Queue[tuple[str, Tracker]] | None = (
            asyncio.Queue(queue_size) if queue_size else None
        )
        self.task: asyncio.Task[None] | None = None


class Tracker:
    """Counts down the writers of one queued message; records when the last one wrote."""

    __slots__ = ("done", "end", "left")

    def __init__(self, left: int, done: asyncio.Future[None]) -> None:
        self.left = left
        self.end = 0
        self.done = done

    def one(self) -> None:
        self.left -= 1
        if self.left == 0:
            self.end = time.monotonic_ns()
            self.done.set_result(None)


def make_app(args: argparse.Namespace) -> Starlette:
    clients: dict[int, Client] = {}  # id(ws) -> Client (WebSocket is unhashable)
    snap = snapshot(args.snapshot_bytes).decode() if args.snapshot_bytes else None
    technique = args.fanout
    legacy = args.ws == "websockets"

    async def writer(c: Client) -> None:
        assert c.queue is not None
        while True:
            text, tracker = await c.queue.get()
            try:
                await c.ws.send_text(text)
            except Exception:
                clients.pop(id(c.ws), None)
                tracker.one()
                return
            tracker.one()

    def sync_write(c: Client, payload: bytes) -> None:
        p = c.proto
        if legacy:
            if p.state is State.OPEN:
                p.write_frame_sync(True, 0x1, payload)
        elif p.conn.state is State.OPEN and not p.close_sent:
            p.conn.send_text(payload)
            for data in p.conn.data_to_send():
                p.transport.write(data)

    async def fan_out(payload: bytes, targets: list[Client]) -> int:
        """Returns the end time (monotonic ns) of the fan-out."""
        if technique == "await":
            text = payload.decode()
            for c in targets:
                try:
                    await c.ws.send_text(text)
                except Exception:
                    clients.pop(id(c.ws), None)
        elif technique == "queue":
            text = payload.decode()
            loop = asyncio.get_running_loop()
            tracker = Tracker(len(targets), loop.create_future())
            for c in targets:
                assert c.queue is not None
                try:
                    c.queue.put_nowait((text, tracker))
                except asyncio.QueueFull:  # a slow consumer: drop it, as a real server would
                    clients.pop(id(c.ws), None)
                    tracker.one()
            if targets:
                await tracker.done
                return tracker.end
        elif technique == "sync":
            for c in targets:
                sync_write(c, payload)
        else:  # frame
            frame = encode_frame(0x1, payload, mask=False)
            for c in targets:
                p = c.proto
                if legacy:
                    if p.state is State.OPEN:
                        p.transport.write(frame)
                elif p.conn.state is State.OPEN and not p.close_sent:
                    p.transport.write(frame)
        return time.monotonic_ns()

    async def control(ws: WebSocket) -> None:
        await ws.accept()
        while True:
            msg = await ws.receive()
            if msg["type"] == "websocket.disconnect":
                return
            start = time.monotonic_ns()
            raw = msg.get("bytes")
            data: bytes = raw if raw is not None else msg["text"].encode()
            mode, payload = data[:1], data[1:]
            if mode == b"A":
                targets = list(clients.values())
                end = await fan_out(payload, targets)
                n = len(targets)
            elif mode == b"1":
                targets = list(clients.values())[:1]
                end = await fan_out(payload, targets)
                n = len(targets)
            else:
                n = len(clients)
                if args.gc_freeze:  # the controller asks "?" once all clients are connected
                    gc.freeze()
                end = time.monotonic_ns()
            await ws.send_text(reply(n, start, end))

    async def endpoint(ws: WebSocket) -> None:
        await ws.accept()
        if args.read_first:
            await ws.receive()
        c = Client(ws, args.queue_size if technique == "queue" else 0)
        if technique in ("sync", "frame") and c.proto is None:
            raise RuntimeError("no uvicorn protocol object in the scope")
        clients[id(ws)] = c
        if c.queue is not None:
            c.task = asyncio.create_task(writer(c))
        try:
            if snap is not None:
                await ws.send_text(snap)
            while True:
                msg = await ws.receive()
                if msg["type"] == "websocket.disconnect":
                    break
        except WebSocketDisconnect:
            pass
        finally:
            clients.pop(id(ws), None)
            if c.task is not None:
                c.task.cancel()

    async def route(ws: WebSocket) -> None:
        if ws.url.path.startswith("/control"):
            await control(ws)
        else:
            await endpoint(ws)

    return Starlette(
        routes=[WebSocketRoute("/{path:path}", route)],
        middleware=[Middleware(ExposeProtocol)],
    )


def run() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    add_common_args(p)
    p.add_argument("--ws", choices=["websockets-sansio", "websockets"], default="websockets-sansio")
    p.add_argument("--fanout", choices=["await", "queue", "sync", "frame"], default="await")
    p.add_argument("--queue-size", type=int, default=64)
    p.add_argument(
        "--gc-freeze",
        action="store_true",
        help="gc.freeze() once the clients are connected (on the controller's '?')",
    )
    args = p.parse_args()
    setup_process(args.cpu, args.nice)
    warnings.simplefilter("ignore", DeprecationWarning)  # the legacy `--ws websockets` warns
    with contextlib.suppress(Exception):
        from uvicorn.config import UvicornDeprecationWarning

        warnings.simplefilter("ignore", UvicornDeprecationWarning)
    config = uvicorn.Config(
        make_app(args),
        host=args.host,
        port=args.port,
        loop="uvloop",
        http="httptools",
        ws=args.ws,
        ws_per_message_deflate=False,
        ws_ping_interval=args.ping_interval,
        ws_ping_timeout=args.ping_interval,
        ws_max_queue=16,
        lifespan="off",
        log_level="warning",
        access_log=False,
        backlog=args.backlog,
    )
    with contextlib.suppress(KeyboardInterrupt):
        uvicorn.Server(config).run()


if __name__ == "__main__":
    run()
