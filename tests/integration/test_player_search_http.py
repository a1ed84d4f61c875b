"""The player search over HTTP, as ``floor serve`` answers it on a real Valkey: how many
players match in all, the first twenty best first, and the field's names as they stand after
a name is corrected or an entry withdrawn (another process's writes included)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import msgspec
import pytest_asyncio
import redis.asyncio as aioredis
from starlette.applications import Starlette

from floor.engine import commands as cmd
from floor.engine.rules import Rules
from floor.server.context import Floor
from floor.server.settings import Settings
from floor.server.wiring import create_app

RULES = msgspec.convert({"game": "holdem", "seats": 9, "final_table": 9}, Rules)
FIRST = ["Jan", "Petr", "Eva", "Jana", "Tomáš", "Anna", "Karel", "Lucie", "Pavel"]


@pytest_asyncio.fixture
async def app(redis: aioredis.Redis, redis_url: str) -> AsyncIterator[Starlette]:
    application = create_app(Settings(redis_url=redis_url, rate_limit=0))
    async with application.router.lifespan_context(application):
        yield application


def client(app: Starlette) -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app=app, client=("127.0.0.1", 5000))
    return httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8000")


async def search(http: httpx.AsyncClient, tid: str, q: str) -> dict[str, Any]:
    r = await http.get(f"/api/t/{tid}/players", params={"q": q})
    assert r.status_code == 200, r.text
    answer: dict[str, Any] = r.json()
    return answer


async def test_a_search_says_how_many_match_and_shows_the_best_twenty_first(
    app: Starlette,
) -> None:
    floor: Floor = app.state.floor
    store = floor.store
    await store.create("novaks", "Novák open", RULES)
    names = [f"{first} Novák {i}" for i in range(7) for first in FIRST]  # 63 Nováks
    names += ["Novák", "Ivana Ženováková", "Eva Svobodová"]
    for i, name in enumerate(names):
        outcome = await store.execute("novaks", cmd.Register(name=name, player=f"P{i}"), f"r{i}")
        assert outcome.ok, outcome
    assert (await store.execute("novaks", cmd.DrawSeats(), "draw")).ok

    async with client(app) as http:
        answer = await search(http, "novaks", "novak")
        # 63 + the exact name + the one that holds it inside a word.
        assert (answer["query"], answer["total"], len(answer["players"])) == ("novak", 65, 20)
        shown = [p["name"] for p in answer["players"]]
        assert shown[0] == "Novák"  # the name exactly as typed
        assert "Ivana Ženováková" not in shown  # inside a word: after every word that starts so
        assert shown[1:4] == ["Anna Novák 0", "Anna Novák 1", "Anna Novák 2"]

        narrower = await search(http, "novaks", "novak jana 3")
        assert narrower["total"] == 1
        assert [p["name"] for p in narrower["players"]] == ["Jana Novák 3"]
        assert (await search(http, "novaks", "zz"))["total"] == 0

        # Written by the service (as another process would): the next search sees it.
        assert (
            await store.execute("novaks", cmd.RenamePlayer(player="P65", name="Eva Nováková"))
        ).ok
        assert (await store.execute("novaks", cmd.Unregister(player="P63"))).ok
        answer = await search(http, "novaks", "novak")
        assert answer["total"] == 65
        assert "Novák" not in [p["name"] for p in answer["players"]]
        assert [p["name"] for p in (await search(http, "novaks", "eva novakova"))["players"]] == [
            "Eva Nováková"
        ]
