"""The account logic (hashing, checks, sign-in, sessions, secrets, the sign-in limits, the
end of sessions heard by every process) on the in-memory storage: the same behaviour
tests/integration/test_auth.py shows on a real Valkey, in milliseconds, with time moved by a
clock the test holds."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import msgspec
import pytest
from argon2 import PasswordHasher

from floor.server.accounts import SESSION_CACHE, SESSION_TTL, Accounts
from floor.server.principal import (
    AccountExists,
    BadAccount,
    BadCredentials,
    NoSuchAccount,
    Principal,
    SignedOut,
    TooManyAttempts,
)
from floor.server.signin_limits import (
    ADDRESS_WINDOW,
    FAILURE_MEMORY,
    FREE_FAILURES,
    MAX_DELAY,
    MAX_FAILURES_PER_ADDRESS,
    SignInFailures,
    growing_delays,
)
from floor.store.accounts_port import AccountStorage, SignOutFeed, StoredAccount, StoredSession
from floor.store.memory_accounts import MemoryAccounts, MemorySignOuts

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
    await accounts.add("dee", "4321", "dealer", pin=True)


def test_the_memory_storage_is_an_account_storage(storage: MemoryAccounts) -> None:
    typed: AccountStorage = storage  # mypy holds the contract; this names it for the reader
    assert typed is storage


async def test_accounts_are_listed_by_name_without_hashes(accounts: Accounts) -> None:
    await staffed(accounts)
    listed = await accounts.list()
    assert [(a.username, a.role, a.table, a.pin) for a in listed] == [
        ("dana", "director", None, False),
        ("dee", "dealer", None, True),
        ("floyd", "floor", None, False),
    ]
    assert not any(isinstance(a, StoredAccount) for a in listed)
    dana = await accounts.get("DANA")
    assert dana is not None and dana.username == listed[0].username
    assert listed[0].sign_in == SignInFailures(failures=0, retry_after=0)
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
        ("ann", "12a4", "dealer", None, True, "secret"),
        ("ann", "12345678", "director", None, True, "pin"),
        ("ann", "12345678", "floor", None, True, "pin"),
        ("ann", PASSWORD, "dealer", 3, False, "table"),
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
    session = await accounts.sign_in("floyd", "floor pass", IP)
    assert session.principal == Principal(username="floyd", role="floor", table=None)
    assert await accounts.principal(session.token) == session.principal
    with pytest.raises(BadCredentials):
        await accounts.sign_in("floyd", "floor pas", IP)
    with pytest.raises(BadCredentials):
        await accounts.sign_in("nobody", "1234", IP)


async def test_a_dealers_pin_is_never_tried_off_a_table_screen(accounts: Accounts) -> None:
    """The finding: 59 wrong dealer PINs, then the right one was accepted, from anywhere.
    Off a paired table screen the right PIN is answered as a wrong one: a stranger has
    nothing to guess it against, and learns nothing of the account."""
    await staffed(accounts)
    for secret in ("4321", "1234"):
        with pytest.raises(BadCredentials) as caught:
            await accounts.sign_in("dee", secret, IP)
        assert caught.value.message == "wrong username, or wrong password or PIN"


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


# Sign-in limits ------------------------------------------------------------------------------


async def fail(accounts: Accounts, name: str, address: str, times: int = 1) -> None:
    for _ in range(times):
        with pytest.raises(BadCredentials):
            await accounts.sign_in(name, "wrong password", address)


async def wait_of(
    accounts: Accounts, name: str, secret: str, address: str, browser: str | None = None
) -> int:
    with pytest.raises(TooManyAttempts) as caught:
        await accounts.sign_in(name, secret, address, browser=browser)
    assert caught.value.params == {"seconds": caught.value.retry_after}
    return caught.value.retry_after


def test_the_delays_double_from_two_seconds_up_to_the_cap() -> None:
    assert growing_delays(5, 300) == (0, 0, 0, 0, 2, 4, 8, 16, 32, 64, 128, 256, 300)
    assert (FREE_FAILURES, MAX_DELAY) == (5, 300)


async def test_a_strangers_failures_never_delay_the_right_password_from_elsewhere(
    accounts: Accounts,
) -> None:
    """Six wrong passwords used to lock the account for five minutes, for everybody."""
    await staffed(accounts)
    stranger = "198.51.100.66"
    await fail(accounts, "dana", stranger, FREE_FAILURES)
    assert await wait_of(accounts, "dana", "wrong password", stranger) == 2
    for i in range(20):
        await accounts.sign_in("dana", PASSWORD, f"203.0.113.{i}")
    # The stranger is still delayed: the owner's sign-ins elsewhere forgave nothing.
    assert await wait_of(accounts, "dana", PASSWORD, stranger) >= 1


async def test_each_failure_past_the_free_ones_doubles_the_wait_up_to_the_cap(
    accounts: Accounts, clock: Clock
) -> None:
    await staffed(accounts)
    await fail(accounts, "dana", IP, FREE_FAILURES)
    waits = []
    for _ in range(12):
        wait = await wait_of(accounts, "dana", "wrong password", IP)
        waits.append(wait)
        clock.now += wait - 0.5
        assert await wait_of(accounts, "dana", "wrong password", IP) == 1  # not yet
        clock.now += 0.5
        await fail(accounts, "dana", IP)
    assert waits == [2, 4, 8, 16, 32, 64, 128, 256, 300, 300, 300, 300]
    # The right password from that address waits too, then signs in and forgets them all.
    clock.now += await wait_of(accounts, "dana", PASSWORD, IP)
    await accounts.sign_in("dana", PASSWORD, IP)
    await fail(accounts, "dana", IP, FREE_FAILURES)


async def test_failures_are_forgotten_an_hour_after_the_last(
    accounts: Accounts, clock: Clock
) -> None:
    await staffed(accounts)
    await fail(accounts, "dana", IP, FREE_FAILURES)
    clock.now += 2
    await fail(accounts, "dana", IP)
    clock.now += FAILURE_MEMORY
    await fail(accounts, "dana", IP)  # remembered: the seventh failure, and 8 s to wait
    assert await wait_of(accounts, "dana", "wrong password", IP) == 8
    clock.now += FAILURE_MEMORY + 1
    await fail(accounts, "dana", IP, FREE_FAILURES)  # forgotten: five free ones again
    assert await wait_of(accounts, "dana", "wrong password", IP) == 2


async def test_a_success_forgets_that_addresses_failures(accounts: Accounts) -> None:
    await staffed(accounts)
    await fail(accounts, "dana", IP, FREE_FAILURES - 1)
    await accounts.sign_in("dana", PASSWORD, IP)
    await fail(accounts, "dana", IP, FREE_FAILURES)
    await wait_of(accounts, "dana", "wrong password", IP)


async def test_parallel_guesses_cannot_slip_past_the_delays(accounts: Accounts) -> None:
    await staffed(accounts)
    results = await asyncio.gather(
        *(accounts.sign_in("dana", f"guess {i}", IP) for i in range(20)),
        return_exceptions=True,
    )
    kinds = [type(r) for r in results]
    assert (kinds.count(BadCredentials), kinds.count(TooManyAttempts)) == (FREE_FAILURES, 15)


async def test_a_venue_behind_one_address_is_not_locked_out_by_its_typos(
    accounts: Accounts,
) -> None:
    """The per-address limit used to lock out every phone behind a NAT after 11 failures."""
    await staffed(accounts)
    for _ in range(30):
        await accounts.sign_in("floyd", "floor pass", IP)  # successes cost nothing
    for i in range(MAX_FAILURES_PER_ADDRESS - 1):
        await fail(accounts, f"typo{i % 40}", IP)
    await accounts.sign_in("dana", PASSWORD, IP, browser="danas-phone")
    await fail(accounts, "typo", IP)
    # A hundred failures in the hour: the phones that signed in before still sign in.
    await accounts.sign_in("dana", PASSWORD, IP, browser="danas-phone")


async def test_past_the_address_limit_only_browsers_that_signed_in_before_may_try(
    accounts: Accounts, clock: Clock
) -> None:
    await staffed(accounts)
    await accounts.sign_in("dana", PASSWORD, IP, browser="danas-phone")
    await fail(accounts, "floyd", IP)
    for i in range(MAX_FAILURES_PER_ADDRESS - 1):
        await fail(accounts, f"spray{i}", IP)
    # A sprayer: nothing from this address is tried until the window ends ...
    wait = await wait_of(accounts, "floyd", "floor pass", IP)
    assert ADDRESS_WINDOW - 5 <= wait <= ADDRESS_WINDOW
    assert await wait_of(accounts, "not a name!", "x", IP) == wait
    assert await wait_of(accounts, "dana", PASSWORD, IP) == wait
    assert await wait_of(accounts, "dana", PASSWORD, IP, browser="a made-up one") == wait
    # ... but from a browser that signed in before: staff on the same wifi still sign in.
    await accounts.sign_in("dana", PASSWORD, IP, browser="danas-phone")
    # Other addresses are not concerned, and the window ends.
    await accounts.sign_in("floyd", "floor pass", "203.0.113.9")
    clock.now += ADDRESS_WINDOW
    await accounts.sign_in("floyd", "floor pass", IP)


async def test_a_browser_that_signed_in_before_is_never_delayed_by_strangers(
    accounts: Accounts,
) -> None:
    """Its own failures delay it (a stolen cookie is no free pass), nobody else's."""
    await staffed(accounts)
    await accounts.sign_in("dana", PASSWORD, IP, browser="danas-phone")
    await fail(accounts, "dana", IP, FREE_FAILURES)
    assert await wait_of(accounts, "dana", PASSWORD, IP) == 2
    assert await wait_of(accounts, "dana", PASSWORD, IP, browser="never signed in") == 2
    await accounts.sign_in("dana", PASSWORD, IP, browser="danas-phone")
    # The browser's own wrong tries are its own to wait for.
    for _ in range(FREE_FAILURES):
        with pytest.raises(BadCredentials):
            await accounts.sign_in("dana", "wrong", IP, browser="danas-phone")
    assert await wait_of(accounts, "dana", PASSWORD, IP, browser="danas-phone") == 2
    # Known to dana's account, not to another one.
    await fail(accounts, "floyd", IP, FREE_FAILURES)
    assert await wait_of(accounts, "floyd", "floor pass", IP, browser="danas-phone") == 2


@pytest.mark.parametrize(
    "addresses",
    [
        [f"2001:db8:5:7:{i:x}::{i:x}" for i in range(1, 8)],
        [f"2001:db8:5:7:{i:x}:{i:x}:{i:x}:{i:x}" for i in range(1, 8)],
        ["::ffff:198.51.100.9"] * 7,
    ],
    ids=["ipv6-one-64", "ipv6-any-host-part", "ipv4-in-ipv6"],
)
async def test_addresses_inside_one_64_count_as_one(
    accounts: Accounts, addresses: list[str]
) -> None:
    """The finding: every IPv6 address counted alone, so a client varying the host part of
    its /64 (it holds 2**64 of them) was never delayed."""
    await staffed(accounts)
    for address in addresses[:FREE_FAILURES]:
        await fail(accounts, "floyd", address)
    assert await wait_of(accounts, "floyd", "floor pass", addresses[FREE_FAILURES]) == 2
    # Another /64 is another client.
    await accounts.sign_in("floyd", "floor pass", "2001:db8:5:8::1")


async def test_the_director_lifts_an_accounts_delays_and_sees_them_listed(
    accounts: Accounts,
) -> None:
    await staffed(accounts)
    await fail(accounts, "dana", IP, FREE_FAILURES + 0)
    await fail(accounts, "dana", "203.0.113.1", 2)
    listed = {a.username: a.sign_in for a in await accounts.list()}
    assert listed["dana"] == SignInFailures(failures=FREE_FAILURES + 2, retry_after=2)
    assert listed["floyd"] == SignInFailures(failures=0, retry_after=0)
    assert await accounts.unlock("DANA") == 2
    assert await accounts.unlock("dana") == 0
    await fail(accounts, "dana", IP, FREE_FAILURES)
    with pytest.raises(NoSuchAccount):
        await accounts.unlock("ghost")


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
    old = await accounts.sign_in("floyd", "floor pass", IP)
    account = await accounts.set_secret("floyd", "new password")
    assert (account.pin, account.table) == (False, None)
    assert await accounts.principal(old.token) is None
    with pytest.raises(BadCredentials):
        await accounts.sign_in("floyd", "floor pass", IP)
    await accounts.sign_in("floyd", "new password", IP)
    with pytest.raises(NoSuchAccount):
        await accounts.set_secret("ghost", PASSWORD)


async def secret_is(accounts: Accounts, storage: MemoryAccounts, name: str, secret: str) -> bool:
    held = await storage.account(name)
    assert held is not None
    return await accounts.hashing.verify(held.account.hash, secret)


async def test_a_new_secret_keeps_its_kind_unless_told_and_forgets_the_delays(
    accounts: Accounts, storage: MemoryAccounts
) -> None:
    await staffed(accounts)
    await fail(accounts, "dee", IP, FREE_FAILURES)
    assert (await accounts.set_secret("dee", "98765")).pin is True
    assert await secret_is(accounts, storage, "dee", "98765")
    assert (await accounts.list())[1].sign_in.failures == 0
    with pytest.raises(BadAccount) as caught:
        await accounts.set_secret("dee", "not digits")
    assert (caught.value.field, caught.value.reason) == ("secret", "pin_digits")
    assert (await accounts.set_secret("dee", "a password now", pin=False)).pin is False


@pytest.mark.parametrize("name", ["dana", "floyd"])
async def test_only_a_dealer_at_a_table_gets_a_pin(accounts: Accounts, name: str) -> None:
    await staffed(accounts)
    role = "director" if name == "dana" else "floor"
    with pytest.raises(BadAccount) as caught:
        await accounts.set_secret(name, "123456", pin=True)
    assert (caught.value.field, caught.value.reason) == ("pin", "pin_dealer_only")
    assert caught.value.params == {"role": role}
    assert f"a {role} account needs a password" in caught.value.message
    with pytest.raises(BadAccount) as added:
        await accounts.add("new", "123456", role, pin=True)  # type: ignore[arg-type]
    assert added.value.field == "pin"
    await accounts.sign_in(name, PASSWORD if name == "dana" else "floor pass", IP)


async def test_ones_own_secret_changes_with_the_current_one_and_keeps_this_session(
    accounts: Accounts,
) -> None:
    await staffed(accounts)
    here = await accounts.sign_in("floyd", "floor pass", IP)
    there = await accounts.sign_in("floyd", "floor pass", "203.0.113.5")
    with pytest.raises(BadAccount) as wrong:
        await accounts.change_own_secret(here.token, "not it", "new floor pass", IP)
    assert (wrong.value.field, wrong.value.reason) == ("current", "current_secret_wrong")
    with pytest.raises(BadAccount) as short:
        await accounts.change_own_secret(here.token, "floor pass", "short", IP)
    assert short.value.field == "secret"
    with pytest.raises(BadAccount) as pin:
        await accounts.change_own_secret(here.token, "floor pass", "1234", IP, pin=True)
    assert pin.value.field == "pin"
    await accounts.sign_in("floyd", "floor pass", IP)  # nothing changed so far

    account = await accounts.change_own_secret(here.token, "floor pass", "new floor pass", IP)
    assert account.username == "floyd"
    assert await accounts.principal(here.token) is not None
    assert await accounts.principal(there.token) is None
    await accounts.sign_in("floyd", "new floor pass", IP)
    with pytest.raises(SignedOut):
        await accounts.change_own_secret(there.token, "new floor pass", "another one", IP)


async def test_guessing_the_current_secret_is_delayed_like_signing_in(
    accounts: Accounts,
) -> None:
    await staffed(accounts)
    session = await accounts.sign_in("floyd", "floor pass", IP)
    for i in range(FREE_FAILURES):
        with pytest.raises(BadAccount):
            await accounts.change_own_secret(session.token, f"guess {i}", "new floor pass", IP)
    with pytest.raises(TooManyAttempts):
        await accounts.change_own_secret(session.token, "floor pass", "new floor pass", IP)


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
    verify = accounts.hashing.verify

    async def verify_then_remove(hashed: str, secret: str, first: bool = False) -> bool:
        ok = await verify(hashed, secret)
        await accounts.remove("floyd")
        return ok

    monkeypatch.setattr(accounts.hashing, "verify", verify_then_remove)
    with pytest.raises(BadCredentials):
        await accounts.sign_in("floyd", "floor pass", IP)
    assert storage._sessions == {}


async def test_a_secret_changed_during_sign_in_gets_no_session(
    accounts: Accounts, storage: MemoryAccounts, monkeypatch: pytest.MonkeyPatch
) -> None:
    await staffed(accounts)
    verify = accounts.hashing.verify

    async def verify_then_change(hashed: str, secret: str, first: bool = False) -> bool:
        ok = await verify(hashed, secret)
        await accounts.set_secret("floyd", "another pass")
        return ok

    monkeypatch.setattr(accounts.hashing, "verify", verify_then_change)
    with pytest.raises(BadCredentials):
        await accounts.sign_in("floyd", "floor pass", IP)
    assert storage._sessions == {}


# The end of sessions, heard by every process -------------------------------------------------


class Process:
    """One server process: its own ``Accounts`` (and session cache) on the shared storage."""

    def __init__(self, storage: MemoryAccounts, feed: SignOutFeed, clock: Clock) -> None:
        self.accounts = Accounts(storage, hasher=cheap_hasher(), clock=clock, signouts=feed)
        self.heard: list[str] = []

    def watch(self, name: str) -> None:
        self.accounts.watch(name, lambda: self.heard.append(name))


@pytest.fixture
async def processes(storage: MemoryAccounts, clock: Clock) -> AsyncIterator[list[Process]]:
    feed = MemorySignOuts()
    both = [Process(storage, feed, clock), Process(storage, feed, clock)]
    for p in both:
        await p.accounts.start()
    yield both
    for p in both:
        await p.accounts.stop()


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def test_a_removal_in_one_process_is_heard_at_once_by_the_others(
    processes: list[Process],
) -> None:
    one, two = processes
    await staffed(one.accounts)
    session = await one.accounts.sign_in("floyd", "floor pass", IP)
    assert await two.accounts.principal(session.token) is not None  # cached there now
    two.watch("floyd")
    two.watch("dana")
    await one.accounts.remove("floyd")
    await settle()
    assert two.heard == ["floyd"]
    # Forgotten there at once, not SESSION_CACHE seconds later.
    assert SESSION_CACHE > 1
    assert await two.accounts.principal(session.token) is None


@pytest.mark.parametrize("how", ["sign_out", "sign_out_all", "set_secret", "own_secret"])
async def test_every_end_of_a_session_is_heard_by_the_accounts_watchers(
    processes: list[Process], how: str
) -> None:
    one, two = processes
    await staffed(one.accounts)
    session = await one.accounts.sign_in("floyd", "floor pass", IP)
    for p in processes:
        p.watch("floyd")
    if how == "sign_out":
        await one.accounts.sign_out(session.token)
    elif how == "sign_out_all":
        await one.accounts.sign_out_all("floyd")
    elif how == "set_secret":
        await one.accounts.set_secret("floyd", "another pass")
    else:
        await one.accounts.change_own_secret(session.token, "floor pass", "another pass", IP)
    await settle()
    assert "floyd" in one.heard and "floyd" in two.heard


async def test_a_lost_feed_makes_every_watcher_check_again(
    processes: list[Process], storage: MemoryAccounts
) -> None:
    one, _ = processes
    one.watch("floyd")
    one.watch("dee")
    feed = one.accounts.sessions.feed
    assert isinstance(feed, MemorySignOuts)
    feed.lose()
    await settle()
    assert sorted(one.heard) == ["dee", "floyd"]


async def test_a_session_read_while_its_end_is_heard_is_not_cached(
    processes: list[Process], storage: MemoryAccounts, monkeypatch: pytest.MonkeyPatch
) -> None:
    one, two = processes
    await staffed(one.accounts)
    session = await one.accounts.sign_in("floyd", "floor pass", IP)
    read = storage.session

    async def read_then_hear(digest: str) -> StoredSession | None:
        found = await read(digest)
        two.accounts.sessions.ended("floyd")  # the end arrives while the read is answered
        return found

    monkeypatch.setattr(storage, "session", read_then_hear)
    assert await two.accounts.principal(session.token) is not None
    assert two.accounts._seen == {}


async def test_a_floor_account_with_a_pin_from_before_keeps_signing_in_and_gets_a_password(
    accounts: Accounts, storage: MemoryAccounts
) -> None:
    """PINs were allowed for floor accounts once: those still sign in (nobody is locked out
    by the upgrade), and their next secret is a password."""
    await staffed(accounts)
    held = await storage.account("floyd")
    assert held is not None
    hashed = accounts.hasher.hash("2580")
    old = msgspec.structs.replace(held.account, pin=True, hash=hashed)
    assert await storage.replace_account(held.revision, old) is not None
    await accounts.sign_in("floyd", "2580", IP)
    with pytest.raises(BadAccount) as caught:
        await accounts.set_secret("floyd", "2581")
    assert caught.value.field == "secret"  # a password is asked for, not another PIN
    assert (await accounts.set_secret("floyd", "a password now")).pin is False
