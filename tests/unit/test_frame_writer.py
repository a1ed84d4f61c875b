"""The fan-out's byte bound on a real asyncio socket transport whose peer reads nothing."""

from __future__ import annotations

import asyncio
import socket
from types import SimpleNamespace

from websockets.protocol import State

from floor.server.fanout import FrameWriter, frame

LIMIT = 64 * 1024


async def _stalled_writer() -> tuple[FrameWriter, socket.socket, asyncio.Transport]:
    ours, theirs = socket.socketpair()
    for s in (ours, theirs):
        s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    loop = asyncio.get_running_loop()
    transport, _ = await loop.create_connection(asyncio.Protocol, sock=ours)
    # What FrameWriter reads of uvicorn's websocket protocol: its state and its transport.
    proto = SimpleNamespace(transport=transport, conn=SimpleNamespace(state=State.OPEN))
    proto.close_sent = False
    return FrameWriter(proto, LIMIT), theirs, transport  # type: ignore[return-value]


async def test_a_screen_is_given_the_time_to_read_a_snapshot_larger_than_the_limit() -> None:
    writer, peer, transport = await _stalled_writer()
    snapshot = frame(b"s" * (3 * LIMIT))
    event = frame(b"e" * 200)
    assert writer.write(snapshot)
    assert transport.get_write_buffer_size() > LIMIT  # the peer has not read it yet
    # Events still go out while the snapshot drains...
    assert writer.write(event)
    # ...up to the limit beyond the snapshot, then the screen is too far behind.
    sent = 1
    while writer.write(event):
        sent += 1
    assert sent * len(event) >= LIMIT
    assert transport.get_write_buffer_size() > LIMIT + len(snapshot)
    transport.abort()
    peer.close()


async def test_a_screen_that_reads_nothing_is_cut_off_near_the_limit() -> None:
    writer, peer, transport = await _stalled_writer()
    event = frame(b"e" * 1000)
    sent = 0
    while writer.write(event):
        sent += 1
        assert sent < 10_000
    kernel = 64 * 1024  # what the socket pair's small buffers may take before ours fills
    assert LIMIT <= sent * len(event) <= LIMIT + kernel + len(event)
    transport.abort()
    peer.close()
