"""The ``DeviceStorage`` contract (table screens and their pairing codes), held by both
implementations: Redis (on a real Valkey) and memory."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import msgspec
import pytest
import pytest_asyncio
import redis.asyncio as aioredis

from floor.redisdb.devices import RedisDevices
from floor.store.devices_port import Device, DeviceStorage, PairingCode
from floor.store.memory_devices import MemoryDevices

NOW = 1_700_000_000.5


@pytest_asyncio.fixture(params=["redis", "memory"])
async def storage(request: pytest.FixtureRequest, redis_url: str) -> AsyncIterator[DeviceStorage]:
    if request.param == "memory":
        yield MemoryDevices()
        return
    client = aioredis.from_url(redis_url)
    try:
        await client.flushall()
        yield RedisDevices(client)
    finally:
        await client.aclose()


def code(slot: str, digest: str = "d" * 64, table: int = 3) -> PairingCode:
    return PairingCode(
        slot=slot,
        digest=digest,
        tournament="spring",
        table=table,
        issued_by="floyd",
        expires_at=NOW + 600,
    )


def device(device_id: str, token: str = "t" * 64, **changes: object) -> Device:
    made = Device(
        id=device_id,
        tournament="spring",
        table=3,
        paired_at=NOW,
        expires_at=NOW + 86400,
        paired_by="floyd",
        client="192.0.2.1",
        token=token,
    )
    return msgspec.structs.replace(made, **changes)


async def test_a_code_holds_its_slot_and_pairs_once(storage: DeviceStorage) -> None:
    assert await storage.add_code(code("123"), 5, 600)
    assert not await storage.add_code(code("123", "e" * 64), 5, 600)
    assert await storage.try_code("123", "d" * 64) == code("123")
    assert await storage.try_code("123", "d" * 64) is None
    assert await storage.code_tries("123") is None
    assert await storage.add_code(code("123", "e" * 64), 5, 600)  # free again


async def test_a_wrong_try_spends_one_of_the_codes_tries_and_the_last_voids_it(
    storage: DeviceStorage,
) -> None:
    await storage.add_code(code("123"), 3, 600)
    await storage.add_code(code("456"), 3, 600)
    assert await storage.try_code("123", "x" * 64) is None
    assert await storage.code_tries("123") == 2
    assert await storage.code_tries("456") == 3
    assert await storage.try_code("789", "d" * 64) is None  # no code there
    assert await storage.try_code("123", "x" * 64) is None
    assert await storage.try_code("123", "x" * 64) is None
    assert await storage.code_tries("123") is None
    assert await storage.try_code("123", "d" * 64) is None  # void, even right
    assert await storage.try_code("456", "d" * 64) == code("456")


async def test_parallel_wrong_tries_each_count(storage: DeviceStorage) -> None:
    await storage.add_code(code("123"), 20, 600)
    await asyncio.gather(*(storage.try_code("123", "x" * 64) for _ in range(15)))
    assert await storage.code_tries("123") == 5


async def test_a_device_is_found_by_id_and_token_and_changed_at_its_revision(
    storage: DeviceStorage,
) -> None:
    await storage.add_device(device("a1"), 3600)
    held = await storage.device("a1")
    assert held is not None and held.device == device("a1")
    by_token = await storage.device_by_token("t" * 64)
    assert by_token is not None and by_token.device.id == "a1"
    assert await storage.device_by_token("u" * 64) is None
    moved = device("a1", tournament="summer", table=9)
    new = await storage.replace_device(held.revision, moved)
    assert new is not None and new != held.revision
    assert await storage.replace_device(held.revision, device("a1", table=5)) is None
    now = await storage.device("a1")
    assert now is not None and now.device == moved and now.revision == new


async def test_devices_are_listed_seen_and_removed(storage: DeviceStorage) -> None:
    await storage.add_device(device("b2", token="u" * 64), 3600)
    await storage.add_device(device("a1"), 3600)
    assert [d.id for d in await storage.devices()] == ["a1", "b2"]
    await storage.seen("a1", NOW + 5)
    assert await storage.last_seen(["a1", "b2"]) == [NOW + 5, None]
    assert await storage.last_seen([]) == []
    removed = await storage.remove_device("a1")
    assert removed is not None and removed.id == "a1"
    assert await storage.remove_device("a1") is None
    assert await storage.device_by_token("t" * 64) is None
    assert [d.id for d in await storage.devices()] == ["b2"]
    assert await storage.last_seen(["a1"]) == [None]
