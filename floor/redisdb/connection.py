"""The Redis client floor uses: fast failure when the server is away, reconnection with backoff.

A floor must say at once that it cannot write (the phones show the command as not sent and
resend it with the same command id), rather than hang: so connecting times out after a
second, and each call after a few. Between calls redis-py reconnects by itself; the retry
policy spaces the attempts out exponentially so a restarting server is not hammered.

Three shapes of deployment, by the URL's scheme:

- ``redis://``, ``rediss://``, ``unix://``: one server (the embedded Valkey, or yours).
- ``redis+cluster://host:port[,host:port...]``: a Redis Cluster or Valkey cluster. Every key
  of a tournament carries the hash tag ``{id}``, so its commands and its pub/sub channel
  live on one shard. The global keys (staff, sessions, the list of tournaments, the clock
  lease) live wherever their names hash: while a shard has no primary, what needs its keys
  waits (503) along with its tournaments.
- ``redis+sentinel://host:port[,host:port...]/service``: a primary watched by Sentinel;
  after a failover the client finds the new primary. Replication is asynchronous: with
  ``FLOOR_REDIS_WAIT_REPLICAS`` set (see ``floor.redisdb.log``) a command is acknowledged
  only once that many replicas hold it, so a failover cannot lose it.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote, urlsplit

import redis.asyncio as aioredis
import redis.exceptions as rex
from redis.asyncio.cluster import ClusterNode, RedisCluster
from redis.asyncio.retry import Retry
from redis.asyncio.sentinel import Sentinel
from redis.backoff import ExponentialBackoff
from redis.exceptions import ConnectionError as RedisConnectionError

CONNECT_TIMEOUT = 1.0
CALL_TIMEOUT = 3.0
#: Connections of the main pool: commands, sessions, the clock lease, pub/sub, staff reads.
MAX_CONNECTIONS = 64
#: Connections of the pool public screens' catch-ups read on (``reads_client``): the most
#: a crowd of public screens can hold, however many reconnect at once. Before it had one,
#: 1,000 reconnecting screens took every connection of the main pool and a staff command
#: waited 3 s for one, then got a 503.
PUBLIC_READ_CONNECTIONS = 4

#: What every client floor makes is: either kind answers the same commands.
Client = aioredis.Redis

#: What a call raises while Redis cannot answer (a 503: the phone resends).
REDIS_DOWN: tuple[type[BaseException], ...] = (
    rex.ConnectionError,
    rex.TimeoutError,
    OSError,
    rex.BusyLoadingError,
    # A cluster shard between losing its primary and a replica taking over: CLUSTERDOWN,
    # TRYAGAIN, or a slot the client's map has no node for.
    rex.ClusterError,
    rex.TryAgainError,
    rex.RedisClusterException,
    # On CLUSTERDOWN redis-py's cluster client closes every connection, also those other
    # requests are using at that moment: they fail with "the handler is closed".
    RuntimeError,
)


def _common(connect_timeout: float, call_timeout: float, retries: int) -> dict[str, Any]:
    return {
        "socket_connect_timeout": connect_timeout,
        "socket_timeout": call_timeout,
        "retry": Retry(
            ExponentialBackoff(cap=1.0, base=0.05),
            retries,
            supported_errors=(RedisConnectionError,),
        ),
        # A lost connection is retried; a call that timed out is not: the server may be
        # hung with the command in it, and the caller's retry (same command id) is safe
        # where a blind resend inside the client would triple the wait.
        "retry_on_error": [RedisConnectionError],
    }


class SentinelPrimary(aioredis.Redis):
    """The primary a Sentinel names. Closing it closes the connections to the sentinels
    too (the ``Sentinel`` that found it holds one client per sentinel, which nothing else
    would close)."""

    async def aclose(self, close_connection_pool: bool | None = None) -> None:
        await super().aclose(close_connection_pool)
        manager = getattr(self.connection_pool, "sentinel_manager", None)
        for sentinel in getattr(manager, "sentinels", ()):
            await sentinel.aclose()


def _hosts(netloc: str, default_port: int) -> list[tuple[str, int]]:
    out = []
    for part in netloc.rpartition("@")[2].split(","):
        host, _, port = part.strip().rpartition(":")
        if not host:
            host, port = port, ""
        out.append((host or "127.0.0.1", int(port) if port else default_port))
    return out


def connect(
    url: str,
    *,
    connect_timeout: float = CONNECT_TIMEOUT,
    call_timeout: float = CALL_TIMEOUT,
    retries: int = 2,
    max_connections: int = MAX_CONNECTIONS,
) -> Client:
    """A client for ``url``; see the module docstring for the schemes. ``max_connections``
    bounds its pool (per node on a cluster)."""
    common = _common(connect_timeout, call_timeout, retries)
    scheme = url.partition("://")[0].lower()
    if scheme == "redis+cluster":
        parts = urlsplit(url)
        nodes = [ClusterNode(h, p) for h, p in _hosts(parts.netloc, 6379)]
        cluster: Any = RedisCluster(
            startup_nodes=nodes,
            password=unquote(parts.password) if parts.password else None,
            max_connections=max_connections,
            **common,
        )
        return cluster  # type: ignore[no-any-return]
    if scheme == "redis+sentinel":
        parts = urlsplit(url)
        service = parts.path.strip("/") or "mymaster"
        sentinel = Sentinel(_hosts(parts.netloc, 26379), **common)  # type: ignore[no-untyped-call]
        primary: Client = sentinel.master_for(
            service,
            redis_class=SentinelPrimary,
            password=unquote(parts.password) if parts.password else None,
            max_connections=max_connections,
            **common,
        )
        return primary
    # TCP keepalive notices a server that vanished without closing; a unix socket cannot.
    tcp = {} if scheme == "unix" else {"socket_keepalive": True}
    # A burst (hundreds of screens catching up after a restart) waits for a free connection
    # rather than failing the 65th call at once with "Too many connections" (bench/chaos).
    pool = aioredis.BlockingConnectionPool.from_url(
        url,
        max_connections=max_connections,
        timeout=call_timeout,
        health_check_interval=15,
        **common,
        **tcp,
    )
    return aioredis.Redis.from_pool(pool)


def reads_client(url: str) -> Client:
    """A client of its own for the reads a crowd of public screens makes (their catch-ups),
    with a small pool: they wait for one of its connections, never for the main pool's."""
    return connect(url, max_connections=PUBLIC_READ_CONNECTIONS)


def is_cluster(client: Client) -> bool:
    return isinstance(client, RedisCluster)
