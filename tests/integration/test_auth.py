"""Staff accounts, sign-in, sessions, secrets and the sign-in limits, on a real Valkey server."""

from __future__ import annotations

import asyncio
import hashlib
import typing

import pytest
import redis.asyncio as aioredis
from argon2 import PasswordHasher

from floor.engine import commands as cmd
from floor.redisdb.accounts import STAFF, RedisAccounts
from floor.redisdb.devices import RedisDevices
from floor.redisdb.embedded import free_port
from floor.server.accounts import SESSION_TTL, Accounts, Listed, Role, default_hasher
from floor.server.edges import status_of
from floor.server.permissions import authorize, require_director
from floor.server.principal import (
    PUBLIC,
    AccountExists,
    BadAccount,
    BadCredentials,
    Forbidden,
    NoSuchAccount,
    Principal,
    TooManyAttempts,
)
from floor.server.signin_limits import (
    ADDRESS_WINDOW,
    FAILURE_MEMORY,
    FREE_FAILURES,
    MAX_FAILURES_PER_ADDRESS,
)
from floor.server.tablets import Tablets
from floor.store.errors import Unavailable

PASSWORD = "correct horse"
IP = "192.0.2.10"


def cheap_hasher() -> PasswordHasher:
    """argon2id with a tiny cost: the tests hash hundreds of times."""
    return PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)


class CountingHasher(PasswordHasher):
    def __init__(self) -> None:
        super().__init__(time_cost=1, memory_cost=1024, parallelism=1)
        self.verified: list[str] = []

    def verify(self, hash: str | bytes, password: str | bytes) -> typing.Literal[True]:
        self.verified.append(str(hash))
        return super().verify(hash, password)


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def accounts(redis: aioredis.Redis) -> Accounts:
    return Accounts(RedisAccounts(redis), hasher=cheap_hasher(), devices=RedisDevices(redis))


async def staffed(accounts: Accounts) -> None:
    await accounts.add("Dana", PASSWORD, "director")
    await accounts.add("floyd", "floor pass", "floor")
    await accounts.add("dee", "4321", "dealer", pin=True)


async def on_a_screen(
    accounts: Accounts, name: str, pin: str, tournament: str = "spring", table: int = 3
) -> tuple[str, Principal]:
    """A table screen paired with ``table`` of ``tournament`` and ``name`` signed in on it:
    its token and the dealer's principal."""
    assert accounts.devices is not None
    tablets = Tablets(accounts, accounts.devices)
    session = await tablets.redeem((await tablets.issue(tournament, table, "floyd")).code, IP)
    return session.token, await tablets.sign_in_dealer(session.principal, name, pin)


# Accounts ------------------------------------------------------------------------------------


async def test_accounts_round_trip_without_their_hashes(accounts: Accounts) -> None:
    await staffed(accounts)
    listed = await accounts.list()
    assert [(a.username, a.role, a.table, a.pin) for a in listed] == [
        ("dana", "director", None, False),
        ("dee", "dealer", None, True),
        ("floyd", "floor", None, False),
    ]
    assert all(type(a) is Listed and not hasattr(a, "hash") for a in listed)
    dana = await accounts.get("DANA")
    assert dana is not None and dana.changed_at == listed[0].changed_at
    assert await accounts.get("nobody") is None
    assert await accounts.get("not a name!") is None


async def test_the_stored_hash_is_argon2id_and_never_the_secret(redis: aioredis.Redis) -> None:
    accounts = Accounts(RedisAccounts(redis))  # the production cost
    await accounts.add("dana", PASSWORD, "director")
    raw = await redis.hget(STAFF, "dana")
    assert isinstance(raw, bytes)
    assert PASSWORD.encode() not in raw
    stored = raw.decode()
    assert '"hash":"$argon2id$v=19$m=47104,t=2,p=1$' in stored


def test_the_default_hasher_is_argon2id_at_the_documented_cost() -> None:
    hasher = default_hasher()
    assert (hasher.time_cost, hasher.memory_cost, hasher.parallelism) == (2, 46 * 1024, 1)
    assert hasher.hash("x" * 8).startswith("$argon2id$")


async def test_usernames_are_case_folded_and_duplicates_refused(accounts: Accounts) -> None:
    account = await accounts.add("Floor.Ann-2_b", PASSWORD, "floor")
    assert account.username == "floor.ann-2_b"
    with pytest.raises(AccountExists) as caught:
        await accounts.add("FLOOR.ANN-2_B", "another one", "floor")
    assert caught.value.field == "username"
    assert status_of(caught.value.code) == 409


@pytest.mark.parametrize("name", ["", "a" * 33, "ann smith", "ann@x", "ánn", "a/b", "\u212aen"])
async def test_bad_usernames_are_refused(accounts: Accounts, name: str) -> None:
    with pytest.raises(BadAccount) as caught:
        await accounts.add(name, PASSWORD, "floor")
    assert caught.value.field == "username"
    assert status_of(caught.value.code) == 422


@pytest.mark.parametrize("secret", ["", "short", "1234567", "x" * 257])
async def test_a_password_is_8_to_256_characters(accounts: Accounts, secret: str) -> None:
    with pytest.raises(BadAccount) as caught:
        await accounts.add("ann", secret, "floor")
    assert caught.value.field == "secret"
    await accounts.add("ann", "12345678", "floor")


@pytest.mark.parametrize("secret", ["123", "123456789", "12a4", "abcd", " 1234", "１２３４"])
async def test_a_pin_is_4_to_8_digits(accounts: Accounts, secret: str) -> None:
    with pytest.raises(BadAccount) as caught:
        await accounts.add("dee", secret, "dealer", pin=True)
    assert caught.value.field == "secret"


@pytest.mark.parametrize("pin", ["1234", "12345678"])
async def test_a_dealer_signs_in_with_a_pin_on_a_paired_table_screen_only(
    accounts: Accounts, pin: str
) -> None:
    await accounts.add("dee", pin, "dealer", pin=True)
    token, dealer = await on_a_screen(accounts, "dee", pin, "spring", 1)
    assert dealer == Principal(
        username="dee", role="dealer", table=1, tournament="spring", device=dealer.device
    )
    assert await accounts.principal(token) == dealer
    with pytest.raises(BadCredentials):
        await accounts.sign_in("dee", pin, IP)


@pytest.mark.parametrize("role", ["director", "floor"])
async def test_the_director_and_the_floor_sign_in_with_a_password(
    accounts: Accounts, redis: aioredis.Redis, role: Role
) -> None:
    with pytest.raises(BadAccount) as caught:
        await accounts.add("ann", "12345678", role, pin=True)
    assert (caught.value.field, caught.value.reason) == ("pin", "pin_dealer_only")
    assert await redis.hlen(STAFF) == 0


@pytest.mark.parametrize(
    ("role", "table"),
    [("dealer", 3), ("dealer", 0), ("floor", 3), ("director", 1), ("admin", None)],
)
async def test_no_account_has_a_table(accounts: Accounts, role: str, table: int | None) -> None:
    """A dealer was bound to a table number of every tournament: the table screen they sign
    in on says the table now."""
    with pytest.raises(BadAccount) as caught:
        await accounts.add("x", PASSWORD, role, table)  # type: ignore[arg-type]
    assert caught.value.field == ("role" if role == "admin" else "table")


async def test_the_last_director_cannot_be_removed(accounts: Accounts) -> None:
    await staffed(accounts)
    with pytest.raises(BadAccount, match="only director"):
        await accounts.remove("dana")
    await accounts.add("second", PASSWORD, "director")
    await accounts.remove("dana")
    assert [a.username for a in await accounts.list()] == ["dee", "floyd", "second"]


async def test_removing_or_changing_an_unknown_account_says_so(accounts: Accounts) -> None:
    with pytest.raises(NoSuchAccount) as caught:
        await accounts.remove("ghost")
    assert status_of(caught.value.code) == 404
    with pytest.raises(NoSuchAccount):
        await accounts.set_secret("ghost", PASSWORD)


# Signing in ----------------------------------------------------------------------------------


async def test_sign_in_gives_a_token_that_names_the_principal(accounts: Accounts) -> None:
    await staffed(accounts)
    session = await accounts.sign_in("DANA", PASSWORD, IP)
    assert session.principal == Principal(username="dana", role="director", table=None)
    assert len(session.token) >= 43
    assert await accounts.principal(session.token) == session.principal
    with pytest.raises(BadCredentials):
        await accounts.sign_in("dee", "4321", IP)  # a dealer: on a table screen only


async def test_wrong_secret_and_unknown_user_give_the_same_error(redis: aioredis.Redis) -> None:
    hasher = CountingHasher()
    accounts = Accounts(RedisAccounts(redis), hasher=hasher)
    await accounts.add("dana", PASSWORD, "director")
    with pytest.raises(BadCredentials) as wrong:
        await accounts.sign_in("dana", "wrong password", IP)
    with pytest.raises(BadCredentials) as unknown:
        await accounts.sign_in("nobody", PASSWORD, IP)
    with pytest.raises(BadCredentials) as malformed:
        await accounts.sign_in("no body!", PASSWORD, IP)
    assert str(wrong.value) == str(unknown.value) == str(malformed.value)
    assert status_of(wrong.value.code) == 401
    # An unknown user costs one argon2 check too (against a dummy hash): comparable timing.
    assert len(hasher.verified) == 3
    assert all(h.startswith("$argon2id$") for h in hasher.verified)


async def test_a_strangers_failures_do_not_lock_the_account(accounts: Accounts) -> None:
    """Six wrong passwords used to lock an account for five minutes, for everybody, across
    restarts and workers, the right password included."""
    await staffed(accounts)
    stranger = "198.51.100.66"
    for _ in range(FREE_FAILURES):
        with pytest.raises(BadCredentials):
            await accounts.sign_in("dana", "wrong password", stranger)
    with pytest.raises(TooManyAttempts) as caught:
        await accounts.sign_in("dana", "wrong password", stranger)
    assert caught.value.retry_after == 2
    assert status_of(caught.value.code) == 429
    assert caught.value.reason == "signin_wait"
    assert str(caught.value.retry_after) in caught.value.message
    # The right password from anywhere else is not delayed, also in another process.
    await accounts.sign_in("dana", PASSWORD, "198.51.100.100")
    restarted = Accounts(accounts.storage, hasher=cheap_hasher())
    await restarted.sign_in("dana", PASSWORD, "198.51.100.101")
    with pytest.raises(TooManyAttempts):
        await restarted.sign_in("dana", PASSWORD, stranger)


async def test_a_venue_behind_one_address_survives_its_typos(accounts: Accounts) -> None:
    """Eleven failures from one address used to lock out every phone behind it."""
    await staffed(accounts)
    for i in range(MAX_FAILURES_PER_ADDRESS - 1):
        with pytest.raises(BadCredentials):
            await accounts.sign_in(f"guess{i % 30}", "wrong password", IP)
    await accounts.sign_in("dana", PASSWORD, IP)
    await accounts.sign_in("floyd", "floor pass", IP)


async def test_a_sprayer_past_the_address_limit_waits_for_the_window(
    accounts: Accounts,
) -> None:
    await staffed(accounts)
    with pytest.raises(BadCredentials):
        await accounts.sign_in("floyd", "wrong password", IP)
    for i in range(MAX_FAILURES_PER_ADDRESS - 1):
        with pytest.raises(BadCredentials):
            await accounts.sign_in(f"spray{i}", "wrong password", IP)
    with pytest.raises(TooManyAttempts) as caught:
        await accounts.sign_in("floyd", "floor pass", IP)
    assert ADDRESS_WINDOW - 60 < caught.value.retry_after <= ADDRESS_WINDOW
    with pytest.raises(TooManyAttempts):
        await accounts.sign_in("dana", PASSWORD, IP)  # nothing from here is tried now ...
    await accounts.sign_in("dana", PASSWORD, "203.0.113.4", browser="danas-phone")
    await accounts.sign_in("dana", PASSWORD, IP, browser="danas-phone")  # ... but this


async def test_a_success_forgets_that_addresses_failures(accounts: Accounts) -> None:
    await staffed(accounts)
    for _ in range(FREE_FAILURES - 1):
        with pytest.raises(BadCredentials):
            await accounts.sign_in("dana", "wrong password", IP)
    await accounts.sign_in("dana", PASSWORD, IP)
    for _ in range(FREE_FAILURES):
        with pytest.raises(BadCredentials):
            await accounts.sign_in("dana", "wrong password", IP)


async def test_successes_do_not_count_against_the_address(accounts: Accounts) -> None:
    await staffed(accounts)
    for _ in range(30):  # a whole venue behind one NAT address signing in
        await accounts.sign_in("floyd", "floor pass", IP)


async def test_the_counters_are_kept_for_their_window(
    accounts: Accounts, redis: aioredis.Redis
) -> None:
    with pytest.raises(BadCredentials):
        await accounts.sign_in("dana", "wrong password", IP)
    assert await redis.get(f"floor:signin:ip:{IP}") == b"1"
    assert 0 < await redis.ttl(f"floor:signin:ip:{IP}") <= ADDRESS_WINDOW
    failures, _last, _next = (await redis.hget("floor:signin:pair:dana", IP) or b"").split()
    assert failures == b"1"
    assert 0 < await redis.ttl("floor:signin:pair:dana") <= FAILURE_MEMORY


async def test_parallel_guesses_cannot_slip_past_the_delays(accounts: Accounts) -> None:
    await staffed(accounts)
    results = await asyncio.gather(
        *(accounts.sign_in("dana", f"guess {i}", IP) for i in range(20)),
        return_exceptions=True,
    )
    kinds = [type(r) for r in results]
    assert kinds.count(BadCredentials) == FREE_FAILURES
    assert kinds.count(TooManyAttempts) == 20 - FREE_FAILURES


async def test_the_director_lifts_the_delays(accounts: Accounts) -> None:
    await staffed(accounts)
    for _ in range(FREE_FAILURES + 1):
        with pytest.raises((BadCredentials, TooManyAttempts)):
            await accounts.sign_in("dana", "wrong password", IP)
    listed = {a.username: a.sign_in for a in await accounts.list()}
    assert listed["dana"].failures == FREE_FAILURES
    assert 0 < listed["dana"].retry_after <= 2
    assert await accounts.unlock("dana") == 1
    await accounts.sign_in("dana", PASSWORD, IP)


async def test_sign_in_rehashes_when_the_cost_changed(redis: aioredis.Redis) -> None:
    await Accounts(RedisAccounts(redis), hasher=cheap_hasher()).add("dana", PASSWORD, "director")
    stronger = PasswordHasher(time_cost=2, memory_cost=2048, parallelism=1)
    await Accounts(RedisAccounts(redis), hasher=stronger).sign_in("dana", PASSWORD, IP)
    raw = await redis.hget(STAFF, "dana")
    assert raw is not None
    assert b"$argon2id$v=19$m=2048,t=2,p=1$" in raw
    await Accounts(RedisAccounts(redis), hasher=stronger).sign_in("dana", PASSWORD, IP)


# Sessions ------------------------------------------------------------------------------------


async def test_tokens_are_stored_only_as_their_sha256(
    accounts: Accounts, redis: aioredis.Redis
) -> None:
    await staffed(accounts)
    session = await accounts.sign_in("dana", PASSWORD, IP)
    keys = [k async for k in redis.scan_iter("floor:session:*")]
    digest = hashlib.sha256(session.token.encode()).hexdigest()
    assert keys == [f"floor:session:{digest}".encode()]
    for key in [k async for k in redis.scan_iter("*")]:
        assert session.token.encode() not in key
        if await redis.type(key) == b"string":
            value = await redis.get(key)
            assert isinstance(value, bytes)
            assert session.token.encode() not in value


async def test_a_session_lasts_twelve_hours_from_sign_in(
    redis: aioredis.Redis,
) -> None:
    clock = Clock()
    accounts = Accounts(RedisAccounts(redis), hasher=cheap_hasher(), clock=clock)
    await staffed(accounts)
    session = await accounts.sign_in("dana", PASSWORD, IP)
    digest = hashlib.sha256(session.token.encode()).hexdigest()
    assert SESSION_TTL == 12 * 3600
    assert SESSION_TTL - 5 <= await redis.ttl(f"floor:session:{digest}") <= SESSION_TTL
    assert session.expires_at == clock.now + SESSION_TTL
    clock.now += SESSION_TTL - 1
    assert await accounts.principal(session.token) is not None  # using it does not extend it
    clock.now += 1
    assert await accounts.principal(session.token) is None


async def test_sign_out_ends_the_session(accounts: Accounts) -> None:
    await staffed(accounts)
    one = await accounts.sign_in("dana", PASSWORD, IP)
    two = await accounts.sign_in("dana", PASSWORD, IP)
    await accounts.sign_out(one.token)
    assert await accounts.principal(one.token) is None
    assert await accounts.principal(two.token) is not None
    await accounts.sign_out(one.token)  # twice is fine


async def test_removing_an_account_ends_its_sessions(accounts: Accounts) -> None:
    await staffed(accounts)
    floyd = [await accounts.sign_in("floyd", "floor pass", IP) for _ in range(3)]
    dana = await accounts.sign_in("dana", PASSWORD, IP)
    await accounts.remove("floyd")
    for s in floyd:
        assert await accounts.principal(s.token) is None
    assert await accounts.principal(dana.token) is not None
    with pytest.raises(BadCredentials):
        await accounts.sign_in("floyd", "floor pass", IP)


async def test_a_new_secret_ends_the_sessions_and_replaces_the_old(accounts: Accounts) -> None:
    await staffed(accounts)
    old = await accounts.sign_in("floyd", "floor pass", IP)
    token, _ = await on_a_screen(accounts, "dee", "4321")
    account = await accounts.set_secret("floyd", "new password")
    assert account.pin is False
    assert await accounts.principal(old.token) is None
    with pytest.raises(BadCredentials):
        await accounts.sign_in("floyd", "floor pass", IP)
    assert (await accounts.sign_in("floyd", "new password", IP)).principal.role == "floor"
    # A dealer's new PIN signs them out of the table screen, which stays paired.
    await accounts.set_secret("dee", "9876")
    screen = await accounts.principal(token)
    assert screen is not None and (screen.role, screen.username) == ("table", None)


async def test_an_account_removed_during_sign_in_gets_no_session(
    accounts: Accounts, redis: aioredis.Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    await staffed(accounts)
    await accounts.add("second", PASSWORD, "director")
    verify = accounts.hashing.verify

    async def verify_then_remove(hashed: str, secret: str, first: bool = False) -> bool:
        ok = await verify(hashed, secret)
        await accounts.remove("floyd")  # the director, while floyd's check runs
        return ok

    monkeypatch.setattr(accounts.hashing, "verify", verify_then_remove)
    with pytest.raises(BadCredentials):
        await accounts.sign_in("floyd", "floor pass", IP)
    assert [k async for k in redis.scan_iter("floor:session:*")] == []


@pytest.mark.parametrize("token", ["", "nonsense", "x" * 10_000])
async def test_an_unknown_token_is_no_principal(accounts: Accounts, token: str) -> None:
    assert await accounts.principal(token) is None
    await accounts.sign_out(token)


async def test_redis_failures_become_unavailable() -> None:
    client = aioredis.from_url(f"redis://127.0.0.1:{free_port()}", socket_connect_timeout=0.5)
    try:
        accounts = Accounts(RedisAccounts(client), hasher=cheap_hasher())
        with pytest.raises(Unavailable):
            await accounts.sign_in("dana", PASSWORD, IP)
        with pytest.raises(Unavailable):
            await accounts.principal("some-token")
        with pytest.raises(Unavailable):
            await accounts.add("dana", PASSWORD, "director")
    finally:
        await client.aclose()


# Signed-in principals and the permission check -----------------------------------------------


async def test_a_signed_in_principal_is_authorized_by_role(accounts: Accounts) -> None:
    await staffed(accounts)
    director = (await accounts.sign_in("dana", PASSWORD, IP)).principal
    floor = (await accounts.sign_in("floyd", "floor pass", IP)).principal
    _, dealer = await on_a_screen(accounts, "dee", "4321", "spring", 3)
    authorize(director, cmd.StartFinal(), None)
    require_director(director)
    authorize(floor, cmd.Confirm(player="p1"), None)
    with pytest.raises(Forbidden, match="belongs to table 3 of 'spring'"):
        authorize(dealer, cmd.Hand(table=3), None)  # no tournament: not its own
    with pytest.raises(Forbidden):
        authorize(floor, cmd.StartFinal(), None)
    with pytest.raises(Forbidden):
        require_director(floor)
    with pytest.raises(Forbidden):
        authorize(PUBLIC, cmd.Hand(table=3), None)


async def test_sign_out_all_ends_every_session_of_one_account(accounts: Accounts) -> None:
    await staffed(accounts)
    floyd = [await accounts.sign_in("floyd", "floor pass", IP) for _ in range(3)]
    dana = await accounts.sign_in("dana", PASSWORD, IP)
    assert await accounts.sign_out_all("FLOYD") == 3
    assert [await accounts.principal(s.token) for s in floyd] == [None, None, None]
    assert await accounts.principal(dana.token) is not None
    assert await accounts.sign_out_all("floyd") == 0
