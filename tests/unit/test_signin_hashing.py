"""What a flood of sign-in attempts costs: argon2 runs fewer at once than the machine has
cores, the browsers that signed in before (and the table screens) go first, and an attempt
that must wait is refused before any hashing."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest
from argon2 import PasswordHasher

from floor.server.accounts import Accounts
from floor.server.hashing import Hashing, default_slots
from floor.server.principal import BadCredentials, TooManyAttempts
from floor.server.signin_limits import FREE_FAILURES, MAX_FAILURES_PER_ADDRESS
from floor.store.memory_accounts import MemoryAccounts
from tests.unit.test_accounts import IP, PASSWORD, Clock, cheap_hasher, staffed


class Counting(PasswordHasher):
    """The cheap test hasher, counting the checks it makes."""

    def __init__(self) -> None:
        base = cheap_hasher()
        super().__init__(base.time_cost, base.memory_cost, base.parallelism)
        self.checks = 0

    def verify(self, hash: str | bytes, password: str | bytes) -> bool:
        self.checks += 1
        return super().verify(hash, password)


@pytest.fixture
def hasher() -> Counting:
    return Counting()


@pytest.fixture
def accounts(hasher: Counting) -> Accounts:
    clock = Clock()
    return Accounts(MemoryAccounts(clock=clock), hasher=hasher, clock=clock)


async def attempts(accounts: Accounts, names: list[str], address: str = IP) -> list[type]:
    results = await asyncio.gather(
        *(accounts.sign_in(name, "wrong password", address) for name in names),
        return_exceptions=True,
    )
    return [type(r) for r in results]


async def test_an_attempt_that_must_wait_is_refused_before_any_hashing(
    accounts: Accounts, hasher: Counting
) -> None:
    await staffed(accounts)
    kinds = await attempts(accounts, ["dana"] * 30)
    assert kinds.count(BadCredentials) == FREE_FAILURES
    # The five let through were checked; the 25 that must wait cost nothing.
    assert hasher.checks == FREE_FAILURES
    assert accounts.hashes >= hasher.checks  # what /metrics counts


async def test_a_sprayers_address_costs_no_hash_whatever_names_it_tries(
    accounts: Accounts, hasher: Counting
) -> None:
    """The finding: past the address's limit every name it had not tried yet was still
    checked (an unknown one against a stand-in hash), so a sprayer of fresh names kept the
    staff's cores busy all hour."""
    await staffed(accounts)
    kinds = await attempts(accounts, [f"spray{i}" for i in range(MAX_FAILURES_PER_ADDRESS)])
    assert kinds == [BadCredentials] * MAX_FAILURES_PER_ADDRESS
    before = hasher.checks
    kinds = await attempts(accounts, [f"fresh{i}" for i in range(50)] + ["dana", "floyd"])
    assert kinds == [TooManyAttempts] * 52
    assert hasher.checks == before


async def test_past_its_limit_an_address_lets_the_browsers_that_signed_in_before_through(
    accounts: Accounts, hasher: Counting
) -> None:
    await staffed(accounts)
    await attempts(accounts, [f"spray{i}" for i in range(MAX_FAILURES_PER_ADDRESS)])
    with pytest.raises(TooManyAttempts):
        await accounts.sign_in("dana", PASSWORD, IP)
    await accounts.sign_in("dana", PASSWORD, "203.0.113.8", browser="danas-phone")
    before = hasher.checks
    await accounts.sign_in("dana", PASSWORD, IP, browser="danas-phone")
    assert hasher.checks == before + 1


class Watched:
    """A hasher whose checks wait for the test and count how many run at once."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.running = 0
        self.most = 0
        self.order: list[str] = []
        self.release = threading.Event()

    def verify(self, hashed: str, secret: str) -> bool:
        with self.lock:
            self.running += 1
            self.most = max(self.most, self.running)
            self.order.append(secret)
        self.release.wait(10)
        with self.lock:
            self.running -= 1
        return True

    def hash(self, secret: str) -> str:
        return secret


async def until(check: Any) -> None:
    for _ in range(1000):
        if check():
            return
        await asyncio.sleep(0.005)
    raise AssertionError("never")


def test_fewer_checks_run_at_once_than_there_are_cores() -> None:
    assert default_slots() >= 1
    import os

    cores = len(os.sched_getaffinity(0))
    assert default_slots() == max(1, cores - 1)


async def test_no_more_checks_run_at_once_than_the_slots() -> None:
    watched = Watched()
    hashing = Hashing(watched, slots=2)  # type: ignore[arg-type]
    checks = [asyncio.create_task(hashing.verify("h", f"s{i}")) for i in range(8)]
    await until(lambda: watched.running == 2)
    assert hashing.waiting == 6
    watched.release.set()
    assert all(await asyncio.gather(*checks))
    assert watched.most == 2
    assert hashing.count == 8


async def test_a_known_browsers_check_goes_before_the_strangers_waiting() -> None:
    watched = Watched()
    hashing = Hashing(watched, slots=1)  # type: ignore[arg-type]
    busy = asyncio.create_task(hashing.verify("h", "busy"))
    await until(lambda: watched.running == 1)
    strangers = [asyncio.create_task(hashing.verify("h", f"stranger{i}")) for i in range(5)]
    await until(lambda: hashing.waiting == 5)
    staff = asyncio.create_task(hashing.verify("h", "staff", first=True))
    await until(lambda: hashing.waiting == 6)
    watched.release.set()
    await asyncio.gather(busy, staff, *strangers)
    assert watched.order[:2] == ["busy", "staff"]
    assert watched.order[2:] == [f"stranger{i}" for i in range(5)]


async def test_a_check_given_up_while_waiting_frees_its_place() -> None:
    watched = Watched()
    hashing = Hashing(watched, slots=1)  # type: ignore[arg-type]
    busy = asyncio.create_task(hashing.verify("h", "busy"))
    await until(lambda: watched.running == 1)
    gone = asyncio.create_task(hashing.verify("h", "gone"))
    after = asyncio.create_task(hashing.verify("h", "after"))
    await until(lambda: hashing.waiting == 2)
    gone.cancel()
    watched.release.set()
    await asyncio.gather(busy, after)
    assert watched.order == ["busy", "after"]
    assert hashing.waiting == 0
    # And the place is free again.
    assert await hashing.verify("h", "later")
