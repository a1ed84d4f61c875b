"""The ``AccountStorage`` and ``SignOutFeed`` contracts, held by both implementations: Redis
(on a real Valkey) and memory. A new backend joins the parametrization and passes the same
tests."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio
import redis.asyncio as aioredis

from floor.redisdb.accounts import RedisAccounts
from floor.redisdb.signouts import RedisSignOuts
from floor.store.accounts_port import (
    AccountStorage,
    AttemptRule,
    PairAttempts,
    SignOutFeed,
    StoredAccount,
    StoredSession,
)
from floor.store.memory_accounts import MemoryAccounts, MemorySignOuts
from floor.store.ports import Resubscribed


def account(name: str, role: str = "floor", hash: str = "$argon2id$x") -> StoredAccount:
    return StoredAccount(
        username=name,
        role=role,  # type: ignore[arg-type]
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


async def test_all_sessions_but_one_end(storage: AccountStorage) -> None:
    for d in ("a1", "a2", "a3"):
        await storage.open_session(d, session("ann"), 60)
    assert await storage.end_sessions("ann", keep="a2") == 2
    assert await storage.session("a2") == session("ann")
    assert [await storage.session(d) for d in ("a1", "a3")] == [None, None]
    assert await storage.end_sessions("ann") == 1


async def test_an_addresses_attempts_are_counted_in_a_window_and_taken_back(
    storage: AccountStorage,
) -> None:
    counts = await asyncio.gather(*(storage.count_address("10.0.0.1", 300) for _ in range(5)))
    assert sorted(n for n, _ in counts) == [1, 2, 3, 4, 5]
    assert all(0 < left <= 300 for _, left in counts)
    await storage.take_back_address("10.0.0.1")
    assert (await storage.count_address("10.0.0.1", 300))[0] == 5
    assert (await storage.count_address("10.0.0.2", 300))[0] == 1
    await storage.clear_address("10.0.0.1")
    assert (await storage.count_address("10.0.0.1", 300))[0] == 1
    await storage.take_back_address("10.9.9.9")
    assert (await storage.count_address("10.9.9.9", 300))[0] == 1


RULE = AttemptRule(delays=(0.0, 0.0, 2.0, 4.0), memory=60.0)
NOW = 1_700_000_000.25


async def test_a_reserved_attempt_counts_and_its_delay_follows_the_rule(
    storage: AccountStorage,
) -> None:
    ann = ("ann", "10.0.0.1")
    assert [await storage.reserve_attempt(*ann, NOW, RULE) for _ in range(3)] == [0, 0, 0]
    # Three failures: the third's delay (2 s) holds, and a refusal changes nothing.
    assert await storage.reserve_attempt(*ann, NOW + 0.5, RULE) == pytest.approx(1.5)
    assert await storage.reserve_attempt(*ann, NOW + 1.5, RULE) == pytest.approx(0.5)
    assert await storage.reserve_attempt(*ann, NOW + 2, RULE) == 0
    assert await storage.reserve_attempt(*ann, NOW + 2, RULE) == pytest.approx(4)
    assert await storage.reserve_attempt(*ann, NOW + 6, RULE) == 0
    assert await storage.reserve_attempt(*ann, NOW + 6, RULE) == pytest.approx(4)  # the last
    assert await storage.attempts("ann") == [
        PairAttempts(address="10.0.0.1", failures=5, last=NOW + 6, next_at=NOW + 10)
    ]
    # Another address, another account: their own counts.
    assert await storage.reserve_attempt("ann", "10.0.0.2", NOW + 6, RULE) == 0
    assert await storage.reserve_attempt("bob", "10.0.0.1", NOW + 6, RULE) == 0
    # Remembered ``memory`` seconds after the last failure, forgotten after that.
    assert await storage.reserve_attempt(*ann, NOW + 66, RULE) == 0
    assert [a.failures for a in await storage.attempts("ann") if a.address == "10.0.0.1"] == [6]
    assert await storage.reserve_attempt(*ann, NOW + 126.5, RULE) == 0
    assert [a.failures for a in await storage.attempts("ann") if a.address == "10.0.0.1"] == [1]


async def test_parallel_reservations_each_count(storage: AccountStorage) -> None:
    waits = await asyncio.gather(
        *(storage.reserve_attempt("ann", "10.0.0.1", NOW, RULE) for _ in range(10))
    )
    assert sorted(waits) == [0] * 3 + [pytest.approx(2.0)] * 7


async def test_free_attempts_pass_in_whatever_order_they_read_the_clock(
    storage: AccountStorage,
) -> None:
    """Parallel sign-ins read the clock, then reach the storage, in no particular order: a
    later reading stored first once refused the earlier one as if it had to wait."""
    assert await storage.reserve_attempt("ann", "10.0.0.1", NOW + 0.2, RULE) == 0
    assert await storage.reserve_attempt("ann", "10.0.0.1", NOW, RULE) == 0
    assert (await storage.attempts("ann"))[0].last == NOW + 0.2


async def test_a_limit_refuses_an_address_that_already_failed(storage: AccountStorage) -> None:
    strict = AttemptRule(delays=(0.0,), memory=60.0, limit=1, refuse_for=42.0)
    assert await storage.reserve_attempt("ann", "10.0.0.1", NOW, strict) == 0
    assert await storage.reserve_attempt("ann", "10.0.0.1", NOW, strict) == 42
    assert await storage.reserve_attempt("bob", "10.0.0.1", NOW, strict) == 0


async def test_attempts_are_cleared_for_one_address_or_all(storage: AccountStorage) -> None:
    for address in ("10.0.0.1", "10.0.0.2", "10.0.0.3"):
        await storage.reserve_attempt("ann", address, NOW, RULE)
    await storage.reserve_attempt("bob", "10.0.0.1", NOW, RULE)
    await storage.clear_attempt("ann", "10.0.0.1")
    assert sorted(a.address for a in await storage.attempts("ann")) == ["10.0.0.2", "10.0.0.3"]
    assert await storage.clear_attempts("ann") == 2
    assert await storage.clear_attempts("ann") == 0
    assert await storage.attempts("ann") == []
    assert len(await storage.attempts("bob")) == 1


async def test_a_browser_that_signed_in_is_known_to_that_account_until_forgotten(
    storage: AccountStorage,
) -> None:
    await storage.remember_device("ann", "phone", NOW, NOW + 100, 3)
    assert await storage.known_device("ann", "phone", NOW + 99)
    assert not await storage.known_device("ann", "phone", NOW + 100)
    assert not await storage.known_device("bob", "phone", NOW)
    assert not await storage.known_device("ann", "laptop", NOW)
    # At most three: the one forgotten first goes first.
    for i, name in enumerate(("b", "c", "d")):
        await storage.remember_device("ann", name, NOW + i, NOW + 200 + i, 3)
    assert [await storage.known_device("ann", d, NOW) for d in ("phone", "b", "c", "d")] == [
        False,
        True,
        True,
        True,
    ]
    await storage.forget_devices("ann")
    assert not await storage.known_device("ann", "d", NOW)


# The sign-out feed ---------------------------------------------------------------------------


@pytest_asyncio.fixture(params=["redis", "memory"])
async def feeds(
    request: pytest.FixtureRequest, redis_url: str
) -> AsyncIterator[tuple[SignOutFeed, SignOutFeed]]:
    """Two processes' feeds on one backend."""
    if request.param == "memory":
        feed = MemorySignOuts()
        yield feed, feed
        return
    clients = [aioredis.from_url(redis_url) for _ in range(2)]
    try:
        await clients[0].flushall()
        yield RedisSignOuts(clients[0], block=0.2), RedisSignOuts(clients[1], block=0.2)
    finally:
        for c in clients:
            await c.aclose()


async def next_of(it: AsyncIterator[str | Resubscribed]) -> str | Resubscribed:
    return await asyncio.wait_for(anext(it), 10)


async def test_an_announcement_reaches_every_listener_in_order(
    feeds: tuple[SignOutFeed, SignOutFeed],
) -> None:
    one, two = feeds
    await one.announce("before")  # made before anybody listened: not heard
    here, there = one.announcements(), two.announcements()
    try:
        # A read under way (Redis: the newest entry is found on the first read).
        first = [asyncio.ensure_future(next_of(it)) for it in (here, there)]
        await asyncio.sleep(0.3)
        await one.announce("ann")
        await two.announce("bob")
        assert [await f for f in first] == ["ann", "ann"]
        assert [await next_of(it) for it in (here, there)] == ["bob", "bob"]
    finally:
        await here.aclose()  # type: ignore[attr-defined]
        await there.aclose()  # type: ignore[attr-defined]


async def test_a_reader_that_lost_redis_says_so_and_still_gets_what_came_meanwhile(
    redis_url: str,
) -> None:
    reader_client, writer_client = aioredis.from_url(redis_url), aioredis.from_url(redis_url)
    try:
        await writer_client.flushall()
        reader = RedisSignOuts(reader_client, block=0.2).announcements()
        pending = asyncio.ensure_future(next_of(reader))
        await asyncio.sleep(0.3)  # reading now
        await writer_client.client_kill_filter(_type="normal", skipme=True)
        await RedisSignOuts(writer_client).announce("ann")
        assert isinstance(await pending, Resubscribed)
        assert await next_of(reader) == "ann"
        await reader.aclose()  # type: ignore[attr-defined]
    finally:
        await reader_client.aclose()
        await writer_client.aclose()
