"""Writing one encoded frame to many screens without awaiting any of them.

Measured in ``bench/wsload`` (RESULTS.md): handing each screen its message through the ASGI
``send`` (a bounded queue and a writer task per screen) costs 1.3 to 2.3 times a bare
``websockets.broadcast``; building the websocket frame once and writing it straight to every
connection's transport costs 0.8 to 0.9 times. So the hub writes frames itself, the way
``websockets.broadcast`` does, and keeps the queue path only as a fallback.

Reaching the transport needs uvicorn's protocol object, which the ASGI ``send`` callable is a
bound method of: ``ExposeProtocol`` puts it into the scope. It is checked against what this
module expects (the ``websockets-sansio`` implementation of the pinned uvicorn) and ignored
otherwise. Direct writes bypass uvicorn's flow control, so ``FrameWriter`` looks at the
transport's write buffer itself: a screen that falls further behind (``FLOOR_CLIENT_QUEUE``
times 4 KiB, plus its largest message) is closed (4008) and resynchronises when it reconnects.

A screen that stops reading is cut off in bounded time too: while anything it was sent is
unsent (in our buffer, or in the kernel's: ``SIOCOUTQ``), ``FrameWriter`` looks every
``FLOOR_WRITE_TIMEOUT`` seconds whether any of it went, and aborts the connection when none
did. A close does not help such a screen (it reads no close frame, and a closed transport
waits to flush its buffer): 300 phones that stopped reading held 800 MB of kernel memory
until the ping timeout.

The public's sockets (a player's phone, whoever opens it) are given a small kernel send
buffer (``PUBLIC_SEND_BUFFER``: Linux's autotuning otherwise grows each to megabytes on a
fast link, the loopback to nginx included) and a shorter period (``FLOOR_PUBLIC_WRITE_TIMEOUT``):
300 sockets that never read held 983 MB of kernel memory for up to 35 s before.

The public edge's websockets are ``websockets``' own connections, not uvicorn's:
``FrameWriter.for_connection`` writes the same shared frames to their transports, as
``websockets.broadcast`` does, and reads their state from the library's sans-I/O protocol.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import socket
import struct
import termios
from typing import Any

from starlette.types import ASGIApp, Receive, Scope, Send
from websockets.protocol import State

PROTOCOL_KEY = "floor.ws_protocol"
#: The kernel send buffer of a public socket, in bytes (Linux doubles it for its own
#: bookkeeping): the messages a public screen is sent on its socket are batches of a few
#: kilobytes (its snapshot comes over HTTP, gzipped), so this costs a live screen nothing.
PUBLIC_SEND_BUFFER = 16 * 1024


def frame(payload: bytes, opcode: int = 0x2) -> bytes:
    """One unmasked, unfragmented server frame (binary by default) carrying ``payload``."""
    n = len(payload)
    first = 0x80 | opcode
    if n < 126:
        head = bytes((first, n))
    elif n < 65536:
        head = bytes((first, 126)) + n.to_bytes(2, "big")
    else:
        head = bytes((first, 127)) + n.to_bytes(8, "big")
    return head + payload


class ExposeProtocol:
    """The outermost ASGI middleware: uvicorn's websocket protocol object into the scope."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            scope[PROTOCOL_KEY] = getattr(send, "__self__", None)
        await self.app(scope, receive, send)


class FrameWriter:
    """Direct frame writes to one connection, if its protocol is the one we know."""

    __slots__ = (
        "_fd",
        "_look",
        "_sock",
        "_went",
        "largest",
        "limit",
        "proto",
        "timeout",
        "transport",
        "written",
    )

    def __init__(self, proto: Any, limit: int, timeout: float = 0.0) -> None:
        self.proto = proto
        self.transport = proto.transport
        self.limit = limit
        #: The largest frame written so far (a snapshot, as a rule): a screen is given the
        #: time to read it. Against ``limit`` alone, a 10,000-player snapshot (2.5 MB) to a
        #: phone on slow wifi left it "too far behind" at the next event, and every
        #: reconnect sent the snapshot again.
        self.largest = 0
        #: Seconds in which some of what is unsent must go (0: never cut off).
        self.timeout = timeout
        self._sock: Any = self.transport.get_extra_info("socket")
        self._fd: int = self._sock.fileno() if self._sock is not None else -1
        #: Bytes written, less those still unsent, at the last look (None: not looked yet).
        self._went: int | None = None
        self._look: asyncio.TimerHandle | None = None
        #: Bytes written, ever.
        self.written = 0

    @classmethod
    def for_scope(cls, scope: Scope, limit: int, timeout: float = 0.0) -> FrameWriter | None:
        proto = scope.get(PROTOCOL_KEY)
        if proto is None or not all(
            hasattr(proto, name) for name in ("conn", "transport", "close_sent")
        ):
            return None
        if not hasattr(proto.conn, "state") or not hasattr(proto.transport, "write"):
            return None
        return cls(proto, limit, timeout)

    @classmethod
    def for_connection(cls, connection: Any, limit: int, timeout: float = 0.0) -> FrameWriter:
        """Direct writes to a connection of ``websockets``' own server (``public_ws``)."""
        return cls(_LibraryConnection(connection), limit, timeout)

    def small_send_buffer(self, size: int = PUBLIC_SEND_BUFFER) -> None:
        """Hold at most about ``size`` bytes in the kernel for this socket (no autotuning):
        what a reader that stopped leaves unsent stays in our buffer, counted and bounded."""
        if self._sock is not None:
            with contextlib.suppress(OSError):
                self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, size)

    @property
    def open(self) -> bool:
        return bool(self.proto.conn.state is State.OPEN and not self.proto.close_sent)

    def write(self, data: bytes) -> bool:
        """Write a whole frame; False when the connection is closed or too far behind."""
        if not self.open or self.transport.is_closing():
            return False
        if self.transport.get_write_buffer_size() > self.limit + self.largest:
            return False
        self.largest = max(self.largest, len(data))
        self.transport.write(data)
        self.written += len(data)
        if self._look is None and self.timeout > 0:
            self._look = asyncio.get_running_loop().call_later(self.timeout, self._looked)
        return True

    def unsent(self) -> int:
        """The bytes written that the peer has not taken yet: in our buffer and the kernel's."""
        buffered: int = self.transport.get_write_buffer_size()
        if self.transport.is_closing() and not buffered:
            return 0  # the socket is closed, or about to be: its number may be another's
        return buffered + _kernel_unsent(self._fd)

    def _looked(self) -> None:
        self._look = None
        unsent = self.unsent()
        if not unsent:
            self._went = None  # all gone: the next write starts the watch again
            return
        went = self.written - unsent
        if self._went is not None and went <= self._went:
            # Nothing taken in a whole period: the screen stopped reading. Cut it off; it
            # resynchronises if it ever reconnects.
            self.cut_off()
            return
        self._went = went
        self._look = asyncio.get_running_loop().call_later(self.timeout, self._looked)

    def cut_off(self) -> None:
        """Reset the connection: what is unsent goes, from our buffer and the kernel's. (A
        plain close leaves the kernel sending it, to a peer that reads nothing, for minutes.)"""
        if self._sock is not None:
            with contextlib.suppress(OSError):
                self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.transport.abort()


class _LibraryConnection:
    """A connection of ``websockets``' asyncio server, seen as ``FrameWriter`` sees uvicorn's
    protocol object: its transport, its sans-I/O state, and whether a close went out."""

    __slots__ = ("conn", "transport")

    def __init__(self, connection: Any) -> None:
        self.transport = connection.transport
        self.conn = connection.protocol

    @property
    def close_sent(self) -> bool:
        return self.conn.close_sent is not None


def _kernel_unsent(fd: int) -> int:
    """Bytes in a socket's send queue not yet acknowledged (Linux ``SIOCOUTQ``); 0 unknown."""
    if fd < 0:
        return 0
    try:
        return int(struct.unpack("i", fcntl.ioctl(fd, termios.TIOCOUTQ, b"\0\0\0\0"))[0])
    except OSError:
        return 0
