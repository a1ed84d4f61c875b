"""The Redis client floor uses: fast failure when the server is away, reconnection with backoff.

A floor must say at once that it cannot write (the phones show the command as not sent and
resend it with the same command id), rather than hang: so connecting times out after a
second, and each call after a few. Between calls redis-py reconnects by itself; the retry
policy spaces the attempts out exponentially so a restarting server is not hammered.
"""

from __future__ import annotations

import redis.asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

CONNECT_TIMEOUT = 1.0
CALL_TIMEOUT = 5.0


def connect(
    url: str,
    *,
    connect_timeout: float = CONNECT_TIMEOUT,
    call_timeout: float = CALL_TIMEOUT,
    retries: int = 2,
) -> aioredis.Redis:
    """A client for ``url`` (``redis://``, ``rediss://`` or ``unix://``)."""
    # TCP keepalive notices a server that vanished without closing; a unix socket cannot.
    tcp = {} if url.startswith("unix:") else {"socket_keepalive": True}
    return aioredis.from_url(
        url,
        socket_connect_timeout=connect_timeout,
        socket_timeout=call_timeout,
        health_check_interval=15,
        **tcp,
        retry=Retry(ExponentialBackoff(cap=1.0, base=0.05), retries),
        retry_on_error=[RedisConnectionError, RedisTimeoutError],
        max_connections=64,
    )
