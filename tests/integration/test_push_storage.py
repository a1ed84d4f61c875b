"""The ``PushStorage`` contract (push subscriptions, sections, the VAPID key), held by both
implementations: Redis (on a real Valkey) and memory."""

from __future__ import annotations

from collections.abc import AsyncIterator

import msgspec
import pytest
import pytest_asyncio
import redis.asyncio as aioredis

from floor.redisdb.push import RedisPush
from floor.store.memory_push import MemoryPush
from floor.store.push_port import Owner, PushKeys, PushStorage, Subscription


@pytest_asyncio.fixture(params=["redis", "memory"])
async def storage(request: pytest.FixtureRequest, redis_url: str) -> AsyncIterator[PushStorage]:
    if request.param == "memory":
        yield MemoryPush()
        return
    client = aioredis.from_url(redis_url)
    try:
        await client.flushall()
        yield RedisPush(client)
    finally:
        await client.aclose()


def sub(endpoint: str, lang: str = "en") -> Subscription:
    return Subscription(
        endpoint=f"https://push.example/{endpoint}",
        keys=PushKeys(p256dh="B" + "a" * 86, auth="c" * 22),
        lang=lang,
        created_at=1_700_000_000,
    )


ANNA = Owner(tournament="spring", player="p1")
BORIS = Owner(tournament="spring", player="p2")


async def test_a_players_subscriptions_are_kept_and_read_for_the_players_asked(
    storage: PushStorage,
) -> None:
    assert await storage.subscribe(ANNA, sub("a1"), 5) == 1
    assert await storage.subscribe(ANNA, sub("a2", "cs"), 5) == 2
    assert await storage.subscribe(BORIS, sub("b1"), 5) == 1
    found = await storage.of_players("spring", ["p1", "p3"])
    assert list(found) == ["p1"]
    assert [s.endpoint for s in found["p1"]] == [
        "https://push.example/a1",
        "https://push.example/a2",
    ]
    assert found["p1"][1] == sub("a2", "cs")
    assert await storage.of_players("autumn", ["p1", "p2"]) == {}
    assert await storage.of_players("spring", []) == {}
    # As kept, for the sending process: the same subscriptions, undecoded.
    raw = await storage.raw_of_players("spring", ["p1", "p3"])
    assert list(raw) == ["p1"]
    assert msgspec.json.decode(raw["p1"], type=list[Subscription]) == found["p1"]


async def test_the_same_endpoint_replaces_and_the_cap_refuses_one_more(
    storage: PushStorage,
) -> None:
    for n in range(3):
        assert await storage.subscribe(ANNA, sub(f"a{n}"), 3) == n + 1
    assert await storage.subscribe(ANNA, sub("a3"), 3) is None
    # The same phone again (a new language, new keys): replaced, not counted twice.
    assert await storage.subscribe(ANNA, sub("a1", "cs"), 3) == 3
    held = (await storage.of_players("spring", ["p1"]))["p1"]
    assert sorted(s.endpoint[-2:] for s in held) == ["a0", "a1", "a2"]
    assert [s.lang for s in held if s.endpoint.endswith("a1")] == ["cs"]


async def test_stopping_forgets_that_endpoint_alone(storage: PushStorage) -> None:
    await storage.subscribe(ANNA, sub("a1"), 5)
    await storage.subscribe(ANNA, sub("a2"), 5)
    assert await storage.unsubscribe(ANNA, "https://push.example/a1")
    assert not await storage.unsubscribe(ANNA, "https://push.example/a1")
    assert not await storage.unsubscribe(BORIS, "https://push.example/a2")
    assert [s.endpoint for s in (await storage.of_players("spring", ["p1"]))["p1"]] == [
        "https://push.example/a2"
    ]
    assert await storage.unsubscribe(ANNA, "https://push.example/a2")
    assert await storage.of_players("spring", ["p1"]) == {}
    # Emptied and subscribed again: the list starts over.
    assert await storage.subscribe(ANNA, sub("a3"), 5) == 1


async def test_staff_subscriptions_are_kept_apart_from_the_players(storage: PushStorage) -> None:
    floyd = Owner(staff="floyd")
    assert await storage.subscribe(floyd, sub("f1"), 5) == 1
    assert await storage.subscribe(Owner(staff="dana"), sub("d1"), 5) == 1
    assert await storage.staff_subscribed() == ["dana", "floyd"]
    assert list(await storage.of_staff(["floyd", "nobody"])) == ["floyd"]
    assert await storage.of_players("spring", ["floyd"]) == {}
    assert await storage.unsubscribe(floyd, "https://push.example/f1")
    assert await storage.staff_subscribed() == ["dana"]


async def test_sections_are_set_per_tournament_and_cleared_with_no_tables(
    storage: PushStorage,
) -> None:
    await storage.set_section("spring", "floyd", [3, 1, 2, 2])
    await storage.set_section("spring", "dana", [4])
    await storage.set_section("autumn", "floyd", [9])
    assert await storage.sections("spring") == {"floyd": [1, 2, 3], "dana": [4]}
    await storage.set_section("spring", "dana", [])
    assert await storage.sections("spring") == {"floyd": [1, 2, 3]}
    assert await storage.sections("autumn") == {"floyd": [9]}
    assert await storage.sections("winter") == {}


async def test_the_first_vapid_key_kept_is_the_one_every_process_gets(
    storage: PushStorage,
) -> None:
    assert await storage.vapid_key(b"first") == b"first"
    assert await storage.vapid_key(b"second") == b"first"
