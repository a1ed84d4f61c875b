"""What one client address may ask of the server: requests per second and open websockets.

Every read the public may make costs the server something, and the staff's commands share
its CPU: 32 loops of public GETs from one address took staff commands from 3.5 ms to 3.8 s
(p90). So each client address (an IPv6 address by its /64, what one home or phone holds)
has:

- a token bucket for its requests, websocket handshakes included: ``burst`` at once, then
  ``rate`` a second. Past it, 429 with ``Retry-After`` (a websocket is closed with 1013, try
  again later). Signed-in staff (and paired table screens) are never held back by it: only
  when an address's bucket is empty is the request's session looked at, so the public pays
  nothing for the check;
- at most ``most`` open websockets (1013 past it, staff excepted the same way).

The address is the one ``proxies.ClientAddress`` put in the scope: behind a trusted proxy,
the client's own. Addresses in ``FLOOR_LIMITS_EXEMPT`` (this machine by default: benches,
tools, a proxy's own requests) are not limited. ``/healthz`` and ``/metrics`` never are.

An address is remembered only while it holds something: a bucket is forgotten once it is
full again, a count once its last websocket closes.
"""

from __future__ import annotations

import functools
import ipaddress
import math
import time
from collections.abc import Callable
from typing import Final

from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket

from ..engine.errors import FloorError, Params, Reason
from .context import SESSION_COOKIE
from .edges import for_error
from .proxies import Network, address, networks

#: Never limited: supervisors and scrapers poll them, and they cost nothing.
UNLIMITED_PATHS: Final = frozenset({"/healthz", "/metrics"})
#: The close code of a websocket refused for its address: "try again later".
TRY_AGAIN_LATER: Final = 1013
#: In a ``Cookie`` header: the request may come from staff (so may a bearer token).
_SESSION_COOKIE: Final = SESSION_COOKIE.encode() + b"="


class TooManyRequests(FloorError):
    """An address that asked more than its share: it may ask again in ``retry_after`` s."""

    code = "too_many_requests"

    def __init__(
        self, retry_after: int, *, reason: Reason | None = None, params: Params | None = None
    ) -> None:
        super().__init__(
            f"too many requests from your address: try again in {retry_after} seconds",
            reason=reason,
            params=params,
        )
        #: Seconds until a token is there again (the HTTP ``Retry-After``).
        self.retry_after = retry_after


def too_many(wait: float) -> TooManyRequests:
    """The refusal of a request that finds no token, ``wait`` seconds before there is one."""
    seconds = max(1, math.ceil(wait))
    return TooManyRequests(seconds, reason="too_many_requests", params={"seconds": seconds})


def client_key(text: str) -> str:
    """What an address is counted as: itself, or an IPv6 address its /64."""
    found = address(text)
    if found is None:
        return text
    if found.version == 6:
        return str(ipaddress.ip_network((found, 64), strict=False))
    return str(found)


@functools.lru_cache(maxsize=8192)
def exempted(text: str, exempt: tuple[Network, ...]) -> bool:
    found = address(text)
    return found is not None and any(found in net for net in exempt)


class Buckets:
    """A token bucket per key: ``burst`` tokens, refilled at ``rate`` a second."""

    def __init__(
        self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate = rate
        self.burst = max(1.0, burst)
        self.clock = clock
        #: Tokens left and when they were counted, for the keys not full.
        self._held: dict[str, tuple[float, float]] = {}
        self._swept = clock()

    def __len__(self) -> int:
        return len(self._held)

    def take(self, key: str) -> float:
        """Take a token: 0 when there was one, else the seconds until there is."""
        now = self.clock()
        if now - self._swept > self.burst / self.rate:
            self._sweep(now)
        tokens, at = self._held.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - at) * self.rate)
        if tokens >= 1.0:
            self._held[key] = (tokens - 1.0, now)
            return 0.0
        self._held[key] = (tokens, now)
        return (1.0 - tokens) / self.rate

    def _sweep(self, now: float) -> None:
        """Forget the buckets that are full again: a full bucket is what a key starts with."""
        self._swept = now
        rate, burst = self.rate, self.burst
        full = [k for k, (tokens, at) in self._held.items() if tokens + (now - at) * rate >= burst]
        for k in full:
            del self._held[k]


class Counts:
    """How many of something each key holds open, up to ``most`` (0: no cap)."""

    def __init__(self, most: int) -> None:
        self.most = most
        self._open: dict[str, int] = {}

    def __len__(self) -> int:
        return len(self._open)

    def full(self, key: str) -> bool:
        return bool(self.most) and self._open.get(key, 0) >= self.most

    def enter(self, key: str) -> None:
        self._open[key] = self._open.get(key, 0) + 1

    def leave(self, key: str) -> None:
        left = self._open.get(key, 0) - 1
        if left > 0:
            self._open[key] = left
        else:
            self._open.pop(key, None)


class Limits:
    """ASGI middleware: each client address's requests and websockets, limited."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        rate: float,
        burst: int,
        connections: int,
        exempt: tuple[str, ...] = (),
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.app = app
        self.buckets = Buckets(rate, burst, clock) if rate > 0 else None
        self.websockets = Counts(connections)
        self.exempt = networks(exempt)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        client = scope.get("client")
        if (
            kind not in ("http", "websocket")
            or not client
            or scope.get("path") in UNLIMITED_PATHS
            or exempted(client[0], self.exempt)
        ):
            await self.app(scope, receive, send)
            return
        key = client_key(client[0])
        if kind == "http":
            wait = self._wait(key)
            if wait and not await _staff(scope):
                response = for_error(too_many(wait))
                await response(scope, receive, send)
                return
            await self.app(scope, receive, send)
            return
        refusal = None
        if self.websockets.full(key):
            refusal = "too many connections from your address: try again later"
        elif wait := self._wait(key):
            refusal = too_many(wait).message
        if refusal is not None and not await _staff(scope):
            ws = WebSocket(scope, receive, send)
            await ws.accept()
            await ws.close(code=TRY_AGAIN_LATER, reason=refusal)
            return
        self.websockets.enter(key)
        try:
            await self.app(scope, receive, send)
        finally:
            self.websockets.leave(key)

    def _wait(self, key: str) -> float:
        return 0.0 if self.buckets is None else self.buckets.take(key)


async def _staff(scope: Scope) -> bool:
    """Whether the request carries a session of a signed-in staff member."""
    if not any(
        (name == b"authorization" and value[:7].lower() == b"bearer ")
        or (name == b"cookie" and _SESSION_COOKIE in value)
        for name, value in scope["headers"]
    ):
        return False
    conn = HTTPConnection(scope)
    floor = getattr(conn.app.state, "floor", None)
    if floor is None:
        return False
    try:
        principal, _ = await floor.principal(conn)
    except FloorError:
        return False  # a token that names no session, or the storage away: not known staff
    # A paired table screen is the staff's too: behind a venue's NAT it shares the
    # address of every phone there.
    staff: bool = principal.role != "public"
    return staff
