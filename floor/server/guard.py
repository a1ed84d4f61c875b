"""The HTTP protocol ``floor serve`` runs: uvicorn's own (httptools), with a request held
to a time and its head to a size, and a cap on the connections an address holds open.

uvicorn read a request head of any size (a 64 MiB header was taken whole) and waited for a
request as long as the client liked: a connection that opened and sent nothing, or a header
(or a body) sent a byte every few seconds, was held until the client gave up (500 such
connections, for 60 s). Middleware cannot help, it runs once the head is in. This protocol:

- closes a connection whose request (line, headers and body) is not in within
  ``FLOOR_REQUEST_TIMEOUT`` seconds of its first byte (of the connection, for its first
  request), with 408 when part of a head came (a body is never more than 64 KiB);
- refuses a head of more than ``FLOOR_MAX_HEADER`` bytes as it comes, before buffering more
  of it: 431;
- refuses (429) a connection from an address (an IPv6 one by its /64) that holds
  ``FLOOR_MAX_CONNECTIONS`` open already. A connection that becomes a websocket is counted by
  ``limits.Limits`` from then on, by the client's own address. The proxies trusted
  (``FLOOR_TRUSTED_PROXIES``) and the addresses in ``FLOOR_LIMITS_EXEMPT`` are not counted:
  a proxy's connections are many clients'.

Everything else is uvicorn's: the parser, keep-alive, pipelining, the websocket upgrade.
"""

from __future__ import annotations

import asyncio
import functools
from typing import Any, Final

from uvicorn.config import Config
from uvicorn.protocols.http.httptools_impl import STATUS_LINE, HttpToolsProtocol
from uvicorn.server import ServerState

from .limits import Counts, client_key, exempted
from .proxies import Network, networks
from .settings import from_env

#: What a refused connection is told, as text.
_REFUSALS: Final = {
    408: "the request took too long to arrive",
    429: "too many connections from your address: try again later",
    431: "the request's headers are too large",
}


class Guard:
    """The limits, and the open connections by address, of this process."""

    def __init__(
        self, max_head: int, timeout: float, connections: int, exempt: tuple[Network, ...]
    ) -> None:
        self.max_head = max_head
        self.timeout = timeout
        self.counts = Counts(connections)
        self.exempt = exempt


@functools.cache
def guard() -> Guard:
    """This process's guard, from its settings (each worker reads its environment)."""
    settings = from_env()
    return Guard(
        settings.max_header,
        settings.request_timeout,
        settings.max_connections,
        networks(settings.limits_exempt + settings.trusted_proxies),
    )


class GuardedHttpTools(HttpToolsProtocol):
    def __init__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self.guard = guard()
        #: Reading a request's line and headers (not its body, not the wait between
        #: requests, which is uvicorn's keep-alive timeout).
        self._in_head = True
        self._head_bytes = 0
        #: Armed while a request is coming in (see ``_arm``).
        self._timer: asyncio.TimerHandle | None = None
        #: The address this connection is counted for, while it is.
        self._counted: str | None = None

    def connection_made(  # type: ignore[override]
        self, transport: asyncio.Transport
    ) -> None:
        super().connection_made(transport)
        peer = self.client[0] if self.client else None
        if peer is not None and not exempted(peer, self.guard.exempt):
            key = client_key(peer)
            if self.guard.counts.full(key):
                self._refuse(429)
                return
            self.guard.counts.enter(key)
            self._counted = key
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self._uncount()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        transport = self.transport
        while data and not transport.is_closing():
            if self._in_head:
                if self._timer is None:
                    self._arm()  # the first byte of the next request
                room = self.guard.max_head - self._head_bytes
                if room <= 0:
                    self._refuse(431)
                    return
                # No more of it than may still be a head: the parser buffers what it gets.
                chunk, data = data[:room], data[room:]
                self._head_bytes += len(chunk)
            else:
                chunk, data = data, b""
            super().data_received(chunk)
            if transport.get_protocol() is not self:
                return  # upgraded to a websocket

    def on_headers_complete(self) -> None:
        self._in_head = False
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        self._disarm()  # the request is in
        super().on_message_complete()
        # What comes next on this connection is the next request's head.
        self._in_head = True
        self._head_bytes = 0

    def handle_websocket_upgrade(self) -> None:
        self._disarm()
        self._uncount()  # counted by limits.Limits now, by the client's own address
        super().handle_websocket_upgrade()

    def _arm(self) -> None:
        self._disarm()
        self._timer = self.loop.call_later(self.guard.timeout, self._timed_out)

    def _disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _uncount(self) -> None:
        if self._counted is not None:
            self.guard.counts.leave(self._counted)
            self._counted = None

    def _timed_out(self) -> None:
        self._timer = None
        if self.transport.is_closing():
            return
        answering = self.cycle is not None and not self.cycle.response_complete
        if self._in_head and self._head_bytes and not answering:
            self._refuse(408)
        else:
            # Nothing asked (nothing to answer), a body too slow (its request is being
            # answered already, and sees the client gone), or a head after a pipelined
            # request whose answer is still being written.
            self.transport.close()

    def _refuse(self, status: int) -> None:
        text = _REFUSALS[status].encode()
        self._disarm()
        self.transport.write(
            b"".join(
                (
                    STATUS_LINE[status],
                    b"content-type: text/plain; charset=utf-8\r\n",
                    b"content-length: %d\r\n" % len(text),
                    b"connection: close\r\n",
                    b"retry-after: 10\r\n" if status == 429 else b"",
                    b"\r\n",
                    text,
                )
            )
        )
        self.transport.close()
