"""The ``AccountStorage`` contract, held by both implementations: Redis (on a real Valkey)
and memory. A new backend joins the parametrization and passes the same tests."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio
import redis.asyncio as aioredis

from floor.redisdb.accounts import RedisAccounts
from floor.store.accounts_port import AccountStorage, StoredAccount, StoredSession
from floor.store.memory_accounts import MemoryAccounts


def account(name: str, role: str = "floor", hash: str = "$argon2id$x") -> StoredAccount:
    table = 3 if role == "dealer" else None
    return StoredAccount(
        username=name,
        role=role,  # type: ignore[arg-type]
        table=table,
        created_at=1.0,
        changed_at=1.0,
        hash=hash,
    )


def session(name: str) -> StoredSession:
    return StoredSession(
        username=name, role="floor", created_at=1.0, expires_at=2e10, client="192.0.2.1"
    )


@pytest_asyncio.fixture(params=["redis", "memory"])
async def storage(request: pytest.FixtureRequest, redis_url: str) -> AsyncIterator[AccountStorage]:
    if request.param == "memory":
        yield MemoryAccounts()
        return
    client = aioredis.from_url(redis_url)
    try:
        await client.flushall()
        yield RedisAccounts(client)
    finally:
        await client.aclose()


async def test_an_account_is_created_once(storage: AccountStorage) -> None:
    assert await storage.create_account(account("ann"))
    assert not await storage.create_account(account("ann", hash="$argon2id$other"))
    held = await storage.account("ann")
    assert held is not None
    assert held.account == account("ann")
    assert await storage.account("bob") is None
    assert await storage.all_accounts() == [account("ann")]


async def test_a_replacement_wins_only_at_the_revision_it_read(storage: AccountStorage) -> None:
    await storage.create_account(account("ann"))
    held = await storage.account("ann")
    assert held is not None
    again = await storage.account("ann")
    assert again is not None and again.revision == held.revision
    new = await storage.replace_account(held.revision, account("ann", hash="$argon2id$new"))
    assert new is not None and new != held.revision
    assert (
        await storage.replace_account(held.revision, account("ann", hash="$argon2id$late")) is None
    )
    now = await storage.account("ann")
    assert now is not None
    assert (now.account.hash, now.revision) == ("$argon2id$new", new)
    assert await storage.replace_account(new, account("ghost")) is None
    assert await storage.account("ghost") is None


async def test_the_last_director_is_not_removed(storage: AccountStorage) -> None:
    await storage.create_account(account("dana", "director"))
    await storage.create_account(account("floyd"))
    assert await storage.remove_account("dana") == "last_director"
    assert await storage.remove_account("floyd") == "removed"
    assert await storage.remove_account("floyd") == "missing"
    await storage.create_account(account("second", "director"))
    assert await storage.remove_account("dana") == "removed"
    assert [a.username for a in await storage.all_accounts()] == ["second"]


async def test_sessions_end_one_by_one_or_all_of_an_account(storage: AccountStorage) -> None:
    for d in ("a1", "a2", "a3"):
        await storage.open_session(d, session("ann"), 60)
    await storage.open_session("b1", session("bob"), 60)
    assert await storage.session("a1") == session("ann")
    assert await storage.end_session("a1") == session("ann")
    assert await storage.end_session("a1") is None
    assert await storage.session("a1") is None
    assert await storage.end_sessions("ann") == 2
    assert await storage.end_sessions("ann") == 0
    assert [await storage.session(d) for d in ("a2", "a3")] == [None, None]
    assert await storage.session("b1") == session("bob")


async def test_attempts_are_counted_in_a_window_and_taken_back(storage: AccountStorage) -> None:
    counts = await asyncio.gather(*(storage.count_attempt("ip", "10.0.0.1", 300) for _ in range(5)))
    assert sorted(n for n, _ in counts) == [1, 2, 3, 4, 5]
    assert all(0 < left <= 300 for _, left in counts)
    await storage.take_back_attempt("ip", "10.0.0.1")
    assert (await storage.count_attempt("ip", "10.0.0.1", 300))[0] == 5
    # The same subject counted as another kind is another counter.
    assert (await storage.count_attempt("user", "10.0.0.1", 300))[0] == 1
    await storage.clear_attempts("ip", "10.0.0.1")
    assert (await storage.count_attempt("ip", "10.0.0.1", 300))[0] == 1
    await storage.take_back_attempt("user", "nobody")
    assert (await storage.count_attempt("user", "nobody", 300))[0] == 1
