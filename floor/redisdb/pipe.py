"""Scripts sent on a connection of their own, pipelined: the desk's two calls of a take.

Through redis-py's client a call costs the event loop 200 to 270 us of CPU on this machine
(the blocking pool's condition and timeout, the retry wrapper, the observability hooks, a
task for the write's timeout), more than the desk's own work for a take. Here a call packs
its ``EVALSHA``, writes it and awaits a future; the connection's protocol feeds hiredis
(redis-py's own parser) and resolves the futures in the order the commands were written,
as Valkey answers them. bench/script_pipe.py measures a call both ways, bench/desk.py
the take.

Only for one server reached over TCP or a unix socket (``redis://``, ``unix://``): TLS,
Sentinel's failover and a cluster's slots stay redis-py's (``connect`` in
``floor.redisdb.connection``), and ``ScriptPipe.for_url`` says None for them.

A failure fails closed, as a redis-py call does: a lost connection, or no answer within the
call timeout (the connection is then dropped: a pipelined answer cannot be skipped), fails
every call waiting on it with ``Unavailable`` (a 503: the desk resends under the same
command id), and the next call connects again.
"""

from __future__ import annotations

import asyncio
import collections
import hashlib
from typing import Any, Final, cast

import hiredis
from redis.asyncio.connection import parse_url

from ..store.errors import Unavailable
from .connection import CALL_TIMEOUT, CONNECT_TIMEOUT

Arg = str | bytes | int

_SCHEMES: Final = ("redis", "unix")


def pack(*parts: Arg) -> bytes:
    """One command in RESP, as Valkey reads it."""
    out = [b"*%d\r\n" % len(parts)]
    for part in parts:
        data = part if isinstance(part, bytes) else str(part).encode()
        out += (b"$%d\r\n" % len(data), data, b"\r\n")
    return b"".join(out)


class Script:
    """A Lua script known by its SHA-1, as ``EVALSHA`` names it."""

    __slots__ = ("body", "sha")

    def __init__(self, body: str) -> None:
        self.body = body
        self.sha = hashlib.sha1(body.encode()).hexdigest()


class _Connection(asyncio.Protocol):
    """The answers of one connection, handed to its callers in the order they wrote."""

    def __init__(self, call_timeout: float) -> None:
        self._reader = hiredis.Reader()
        #: Each call waiting: its deadline (the loop's time) and its future.
        self._waiting: collections.deque[tuple[float, asyncio.Future[Any]]] = collections.deque()
        self._timeout = call_timeout
        self._timer: asyncio.TimerHandle | None = None
        self._loop = asyncio.get_running_loop()
        self.transport: asyncio.Transport | None = None
        self.closed = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # uvloop's transports are not asyncio's classes, but are asyncio.Transport's shape.
        self.transport = cast(asyncio.Transport, transport)

    def data_received(self, data: bytes) -> None:
        try:
            self._reader.feed(data)
            while (reply := self._reader.gets()) is not False:
                _, future = self._waiting.popleft()
                if not future.done():
                    future.set_result(reply)
        except (hiredis.ProtocolError, IndexError) as e:
            # Not Valkey's protocol, or an answer nobody asked for: nothing after it can be
            # matched to its call.
            self._fail(Unavailable(f"Redis answered out of turn: {e}"))

    def connection_lost(self, exc: Exception | None) -> None:
        self._fail(Unavailable(f"Redis is unreachable: {exc or 'the connection closed'}"))

    def call(self, command: bytes) -> asyncio.Future[Any]:
        if self.closed or self.transport is None:
            raise Unavailable("Redis is unreachable: the connection closed")
        future: asyncio.Future[Any] = self._loop.create_future()
        self._waiting.append((self._loop.time() + self._timeout, future))
        self.transport.write(command)
        if self._timer is None:
            self._timer = self._loop.call_at(self._waiting[0][0], self._watch)
        return future

    def _watch(self) -> None:
        # One timer a connection, for its oldest call: a call's own timeout (redis-py's
        # way) would cost every call a timer.
        self._timer = None
        if not self._waiting:
            return
        deadline = self._waiting[0][0]
        if self._loop.time() >= deadline:
            self._fail(Unavailable("Redis did not answer in time"))
        else:
            self._timer = self._loop.call_at(deadline, self._watch)

    def _fail(self, error: Unavailable) -> None:
        self.closed = True
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        while self._waiting:
            _, future = self._waiting.popleft()
            if not future.done():
                future.set_exception(error)
        if self.transport is not None:
            self.transport.abort()


class ScriptPipe:
    """Scripts on one pipelined connection to one server (see the module's docstring)."""

    def __init__(
        self,
        url: str,
        *,
        connect_timeout: float = CONNECT_TIMEOUT,
        call_timeout: float = CALL_TIMEOUT,
    ) -> None:
        self._where = parse_url(url)
        self._connect_timeout = connect_timeout
        self._call_timeout = call_timeout
        self._connection: _Connection | None = None
        self._connecting = asyncio.Lock()

    @classmethod
    def for_url(cls, url: str) -> ScriptPipe | None:
        """A pipe for ``url``, or None where redis-py must carry the calls (see above)."""
        if url.partition("://")[0].lower() not in _SCHEMES:
            return None
        return cls(url)

    async def run(self, script: Script, keys: list[str], args: list[Arg]) -> Any:
        """The script's answer; ``Unavailable`` when Valkey cannot give it."""
        connection = self._connection
        if connection is None or connection.closed:
            connection = await self._connect()
        reply = await connection.call(pack("EVALSHA", script.sha, len(keys), *keys, *args))
        if isinstance(reply, hiredis.ReplyError) and str(reply).startswith("NOSCRIPT"):
            # A restarted Valkey forgot it: EVAL loads it again for the next EVALSHA.
            reply = await connection.call(pack("EVAL", script.body, len(keys), *keys, *args))
        if isinstance(reply, hiredis.ReplyError):
            raise Unavailable(f"Redis refused the call: {reply}")
        return reply

    async def _connect(self) -> _Connection:
        async with self._connecting:
            connection = self._connection
            if connection is not None and not connection.closed:
                return connection
            try:
                async with asyncio.timeout(self._connect_timeout):
                    connection = await self._open()
            except (OSError, TimeoutError) as e:
                raise Unavailable(f"Redis is unreachable: {e!r}") from e
            self._connection = connection
            return connection

    async def _open(self) -> _Connection:
        loop = asyncio.get_running_loop()
        where = self._where
        connection = _Connection(self._call_timeout)
        if "path" in where:
            await loop.create_unix_connection(lambda: connection, where["path"])
        else:
            host = where.get("host", "localhost")
            await loop.create_connection(lambda: connection, host, where.get("port", 6379))
        hello: list[bytes] = []
        if where.get("password"):
            user = [where["username"]] if where.get("username") else []
            hello.append(pack("AUTH", *user, where["password"]))
        if where.get("db"):
            hello.append(pack("SELECT", where["db"]))
        for command in hello:
            reply = await connection.call(command)
            if isinstance(reply, hiredis.ReplyError):
                connection._fail(Unavailable(f"Redis refused the connection: {reply}"))
                raise Unavailable(f"Redis refused the connection: {reply}")
        return connection

    async def aclose(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None and connection.transport is not None:
            connection.transport.close()
