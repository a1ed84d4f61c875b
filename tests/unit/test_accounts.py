"""The account logic (hashing, checks, sign-in, sessions, the rate limit) on the in-memory
storage: the same behaviour tests/integration/test_auth.py shows on a real Valkey, in
milliseconds, with time moved by a clock the test holds."""

from __future__ import annotations

import asyncio

import pytest
from argon2 import PasswordHasher

from floor.server.accounts import SESSION_TTL, WINDOW, Accounts
from floor.server.principal import (
    AccountExists,
    BadAccount,
    BadCredentials,
    NoSuchAccount,
    Principal,
    TooManyAttempts,
)
from floor.store.accounts_port import AccountStorage, StoredAccount, StoredSession
from floor.store.memory_accounts import MemoryAccounts

PASSWORD = "correct horse"
IP = "192.0.2.10"


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def cheap_hasher() -> PasswordHasher:
    return PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def storage(clock: Clock) -> MemoryAccounts:
    return MemoryAccounts(clock=clock)


@pytest.fixture
def accounts(storage: MemoryAccounts, clock: Clock) -> Accounts:
    return Accounts(storage, hasher=cheap_hasher(), clock=clock)


async def staffed(accounts: Accounts) -> None:
    await accounts.add("Dana", PASSWORD, "director")
    await accounts.add("floyd", "floor pass", "floor")
    await accounts.add("dee", "4321", "dealer", 3, pin=True)


def test_the_memory_storage_is_an_account_storage(storage: MemoryAccounts) -> None:
    typed: AccountStorage = storage  # mypy holds the contract; this names it for the reader
    assert typed is storage


async def test_accounts_are_listed_by_name_without_hashes(accounts: Accounts) -> None:
    await staffed(accounts)
    listed = await accounts.list()
    assert [(a.username, a.role, a.table, a.pin) for a in listed] == [
        ("dana", "director", None, False),
        ("dee", "dealer", 3, True),
        ("floyd", "floor", None, False),
    ]
    assert not any(isinstance(a, StoredAccount) for a in listed)
    assert await accounts.get("DANA") == listed[0]
    assert await accounts.get("not a name!") is None


async def test_the_secret_is_kept_only_as_its_argon2id_hash(
    accounts: Accounts, storage: MemoryAccounts
) -> None:
    await accounts.add("dana", PASSWORD, "director")
    held = await storage.account("dana")
    assert held is not None
    assert held.account.hash.startswith("$argon2id$")
    assert PASSWORD not in held.account.hash


@pytest.mark.parametrize(
    ("username", "secret", "role", "table", "pin", "field"),
    [
        ("ann smith", PASSWORD, "floor", None, False, "username"),
        ("ann", "short", "floor", None, False, "secret"),
        ("ann", "12a4", "dealer", 1, True, "secret"),
        ("ann", "12345678", "director", None, True, "pin"),
        ("ann", PASSWORD, "dealer", None, False, "table"),
        ("ann", PASSWORD, "floor", 3, False, "table"),
        ("ann", PASSWORD, "admin", None, False, "role"),
    ],
)
async def test_a_bad_account_names_its_field_and_stores_nothing(
    accounts: Accounts,
    username: str,
    secret: str,
    role: str,
    table: int | None,
    pin: bool,
    field: str,
) -> None:
    with pytest.raises(BadAccount) as caught:
        await accounts.add(username, secret, role, table, pin=pin)  # type: ignore[arg-type]
    assert caught.value.field == field
    assert await accounts.list() == []


async def test_a_taken_name_is_refused(accounts: Accounts) -> None:
    await accounts.add("ann", PASSWORD, "floor")
    with pytest.raises(AccountExists) as caught:
        await accounts.add("ANN", "another one", "floor")
    assert caught.value.field == "username"


async def test_sign_in_names_the_principal_and_the_token_signs_in(accounts: Accounts) -> None:
    await staffed(accounts)
    session = await accounts.sign_in("dee", "4321", IP)
    assert session.principal == Principal(username="dee", role="dealer", table=3)
    assert await accounts.principal(session.token) == session.principal
    with pytest.raises(BadCredentials):
        await accounts.sign_in("dee", "1234", IP)
    with pytest.raises(BadCredentials):
        await accounts.sign_in("nobody", "1234", IP)


async def test_sessions_are_kept_under_the_tokens_digest_only(
    accounts: Accounts, storage: MemoryAccounts
) -> None:
    await staffed(accounts)
    session = await accounts.sign_in("dana", PASSWORD, IP)
    kept = storage._sessions
    assert session.token not in kept
    assert len(kept) == 1
    ((stored, _),) = kept.values()
    assert stored == StoredSession(
        username="dana",
        role="director",
        table=None,
        created_at=stored.created_at,
        expires_at=stored.created_at + SESSION_TTL,
        client=IP,
    )


async def test_a_session_ends_twelve_hours_after_sign_in(accounts: Accounts, clock: Clock) -> None:
    await staffed(accounts)
    session = await accounts.sign_in("dana", PASSWORD, IP)
    clock.now += SESSION_TTL - 1
    assert await accounts.principal(session.token) is not None
    clock.now += 1
    assert await accounts.principal(session.token) is None


async def test_the_fifth_failure_locks_the_username_until_the_window_ends(
    accounts: Accounts, clock: Clock
) -> None:
    await staffed(accounts)
    for i in range(5):
        with pytest.raises(BadCredentials):
            await accounts.sign_in("dana", "wrong password", f"198.51.100.{i}")
    with pytest.raises(TooManyAttempts) as caught:
        await accounts.sign_in("dana", PASSWORD, "198.51.100.99")
    assert caught.value.retry_after == WINDOW
    clock.now += 100
    with pytest.raises(TooManyAttempts) as later:
        await accounts.sign_in("dana", PASSWORD, "198.51.100.98")
    assert later.value.retry_after == WINDOW - 100
    await accounts.sign_in("floyd", "floor pass", "198.51.100.97")
    clock.now += WINDOW
    await accounts.sign_in("dana", PASSWORD, "198.51.100.96")


async def test_one_address_gets_ten_failures_and_successes_cost_nothing(
    accounts: Accounts,
) -> None:
    await staffed(accounts)
    for _ in range(30):
        await accounts.sign_in("floyd", "floor pass", IP)
    for i in range(10):
        with pytest.raises(BadCredentials):
            await accounts.sign_in(f"guess{i}", "wrong password", IP)
    with pytest.raises(TooManyAttempts):
        await accounts.sign_in("dana", PASSWORD, IP)
    await accounts.clear_attempts(client=IP)
    await accounts.sign_in("dana", PASSWORD, IP)


async def test_parallel_guesses_cannot_slip_past_the_limit(accounts: Accounts) -> None:
    await staffed(accounts)
    results = await asyncio.gather(
        *(accounts.sign_in("dana", f"guess {i}", f"10.0.0.{i}") for i in range(20)),
        return_exceptions=True,
    )
    kinds = [type(r) for r in results]
    assert (kinds.count(BadCredentials), kinds.count(TooManyAttempts)) == (5, 15)


async def test_a_success_resets_the_username_counter(accounts: Accounts) -> None:
    await staffed(accounts)
    for _ in range(4):
        with pytest.raises(BadCredentials):
            await accounts.sign_in("dana", "wrong password", IP)
    await accounts.sign_in("dana", PASSWORD, IP)
    for _ in range(5):
        with pytest.raises(BadCredentials):
            await accounts.sign_in("dana", "wrong password", "203.0.113.8")


async def test_sign_in_rehashes_at_a_new_cost_and_keeps_signing_in(
    storage: MemoryAccounts, clock: Clock
) -> None:
    await Accounts(storage, hasher=cheap_hasher(), clock=clock).add("dana", PASSWORD, "director")
    stronger = PasswordHasher(time_cost=2, memory_cost=2048, parallelism=1)
    session = await Accounts(storage, hasher=stronger, clock=clock).sign_in("dana", PASSWORD, IP)
    held = await storage.account("dana")
    assert held is not None
    assert held.account.hash.startswith("$argon2id$v=19$m=2048,t=2,p=1$")
    assert session.principal.username == "dana"
    await Accounts(storage, hasher=stronger, clock=clock).sign_in("dana", PASSWORD, IP)


async def test_a_new_secret_ends_the_sessions(accounts: Accounts) -> None:
    await staffed(accounts)
    old = await accounts.sign_in("dee", "4321", IP)
    account = await accounts.set_secret("dee", "new password")
    assert (account.pin, account.table) == (False, 3)
    assert await accounts.principal(old.token) is None
    with pytest.raises(BadCredentials):
        await accounts.sign_in("dee", "4321", IP)
    await accounts.sign_in("dee", "new password", IP)
    with pytest.raises(NoSuchAccount):
        await accounts.set_secret("ghost", PASSWORD)


async def test_sign_out_ends_one_session_and_sign_out_all_every_one(accounts: Accounts) -> None:
    await staffed(accounts)
    floyd = [await accounts.sign_in("floyd", "floor pass", IP) for _ in range(3)]
    dana = await accounts.sign_in("dana", PASSWORD, IP)
    await accounts.sign_out(floyd[0].token)
    await accounts.sign_out(floyd[0].token)
    assert await accounts.principal(floyd[0].token) is None
    assert await accounts.principal(floyd[1].token) is not None
    assert await accounts.sign_out_all("FLOYD") == 2
    assert [await accounts.principal(s.token) for s in floyd] == [None, None, None]
    assert await accounts.principal(dana.token) is not None


async def test_the_last_director_stays(accounts: Accounts) -> None:
    await staffed(accounts)
    with pytest.raises(BadAccount, match="only director"):
        await accounts.remove("dana")
    await accounts.add("second", PASSWORD, "director")
    session = await accounts.sign_in("dana", PASSWORD, IP)
    await accounts.remove("dana")
    assert await accounts.principal(session.token) is None
    with pytest.raises(NoSuchAccount):
        await accounts.remove("dana")


async def test_an_account_removed_during_sign_in_gets_no_session(
    accounts: Accounts, storage: MemoryAccounts, monkeypatch: pytest.MonkeyPatch
) -> None:
    await staffed(accounts)
    verify = accounts._verify

    async def verify_then_remove(hashed: str, secret: str) -> bool:
        ok = await verify(hashed, secret)
        await accounts.remove("floyd")
        return ok

    monkeypatch.setattr(accounts, "_verify", verify_then_remove)
    with pytest.raises(BadCredentials):
        await accounts.sign_in("floyd", "floor pass", IP)
    assert storage._sessions == {}


async def test_a_secret_changed_during_sign_in_gets_no_session(
    accounts: Accounts, storage: MemoryAccounts, monkeypatch: pytest.MonkeyPatch
) -> None:
    await staffed(accounts)
    verify = accounts._verify

    async def verify_then_change(hashed: str, secret: str) -> bool:
        ok = await verify(hashed, secret)
        await accounts.set_secret("floyd", "another pass")
        return ok

    monkeypatch.setattr(accounts, "_verify", verify_then_change)
    with pytest.raises(BadCredentials):
        await accounts.sign_in("floyd", "floor pass", IP)
    assert storage._sessions == {}
