"""Asking for tournaments that do not exist leaves nothing behind in the server process.

The application as ``floor serve`` builds it (``wiring.create_app``) on the session's Valkey,
asked for 1,000 ids nobody created, over every read and the websocket: every dictionary,
set and list of the store, the hub, its views, the bus, the accounts, the player search and
the tools' answers is as large afterwards as before. A lock per unknown id was kept forever
(+15 MB per 60,000 ids).
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest_asyncio
import redis.asyncio as aioredis
from starlette.applications import Starlette

from floor.server import answers, player_search
from floor.server.context import Floor
from floor.server.settings import Settings
from floor.server.wiring import create_app
from floor.store.errors import NotFound

_HELD = (dict, set, list, deque)


def held(obj: object, seen: set[int] | None = None, depth: int = 2) -> dict[str, int]:
    """The size of every container ``obj`` holds, by attribute path, ``depth`` levels in."""
    seen = set() if seen is None else seen
    if id(obj) in seen:
        return {}
    seen.add(id(obj))
    names = list(getattr(obj, "__dict__", {}))
    for cls in type(obj).__mro__:
        names += [n for n in getattr(cls, "__slots__", ()) if isinstance(n, str)]
    out: dict[str, int] = {}
    for name in names:
        value = getattr(obj, name, None)
        if isinstance(value, _HELD):
            out[name] = len(value)
        elif depth and type(value).__module__.startswith("floor."):
            for k, n in held(value, seen, depth - 1).items():
                out[f"{name}.{k}"] = n
    return out


def sizes(floor: Floor) -> dict[str, int]:
    found = {f"floor.{k}": n for k, n in held(floor, depth=3).items()}
    found["player_search._INDEXES"] = len(player_search._INDEXES)
    found["answers kept"] = answers.kept(floor.metrics)
    return found


@pytest_asyncio.fixture
async def app(redis: aioredis.Redis, redis_url: str) -> AsyncIterator[Starlette]:
    # Every request from one address and no limit on it: the limits are tests/e2e/test_limits.
    application = create_app(Settings(redis_url=redis_url, rate_limit=0))
    async with application.router.lifespan_context(application):
        yield application


async def websocket_close(app: Starlette, path: str) -> int:
    """The code the server closes a websocket to ``path`` with."""
    scope = {
        "type": "websocket",
        "asgi": {"version": "3.0"},
        "scheme": "ws",
        "server": ("127.0.0.1", 8000),
        "client": ("127.0.0.1", 5000),
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": b"",
        "headers": [(b"host", b"127.0.0.1:8000")],
        "subprotocols": [],
    }
    incoming = [{"type": "websocket.connect"}]
    closed: list[int] = []

    async def receive() -> dict[str, Any]:
        if incoming:
            return incoming.pop()
        await asyncio.sleep(5)
        return {"type": "websocket.disconnect", "code": 1000}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "websocket.close":
            closed.append(message["code"])

    await app(scope, receive, send)
    return closed[0]


async def ask(app: Starlette, http: httpx.AsyncClient, tid: str, n: int) -> None:
    """One of the reads a stranger can make, for ``tid``."""
    kind = n % 9
    if kind == 5:
        assert await websocket_close(app, f"/ws/t/{tid}") == 4004
        return
    if kind == 6:
        assert await websocket_close(app, f"/ws/t/{tid}/follow/P1") == 4004
        return
    path = [
        f"/api/t/{tid}",
        f"/api/t/{tid}/players?q=nov",
        f"/api/t/{tid}/events?since=0",
        f"/api/t/{tid}/prizes",
        f"/api/t/{tid}/results.csv",
        "",
        "",
        f"/api/t/{tid}/follow/P1",
        f"/api/t/{tid}/board",
    ][kind]
    r = await http.get(path)
    assert r.status_code == 404, (path, r.status_code, r.text)


def client(app: Starlette) -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app=app, client=("127.0.0.1", 5000))
    return httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8000")


async def test_a_thousand_unknown_ids_leave_nothing_behind(app: Starlette) -> None:
    floor: Floor = app.state.floor
    async with client(app) as http:
        for n in range(18):  # whatever the first requests set up for good
            await ask(app, http, f"warm-{n}", n)
        before = sizes(floor)
        for n in range(1000):
            await ask(app, http, f"nobody-{n}", n)
        after = sizes(floor)
    grown = {k: (before.get(k, 0), n) for k, n in after.items() if n > before.get(k, 0)}
    assert not grown, f"kept for ids that do not exist: {grown}"
    assert not floor.store._loading
    assert not any(tid.startswith("nobody-") for tid in floor.store._entries)


async def test_the_lock_of_a_load_goes_with_the_last_caller_waiting_for_it(app: Starlette) -> None:
    floor: Floor = app.state.floor
    # Callers asking together share one lock; it goes with the last of them.
    answers = await asyncio.gather(
        *(floor.store.tournament("nobody-together") for _ in range(20)), return_exceptions=True
    )
    assert [type(a) for a in answers] == [NotFound] * 20
    assert not floor.store._loading
