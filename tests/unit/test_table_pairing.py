"""Pairing a table screen: a short code the floor gets signs a device in, once, as the
dealer account of that table; the code is never a session itself, expires, and wrong codes
count against the address as failed sign-ins do."""

from __future__ import annotations

import pytest

from floor.engine.errors import NotAllowed
from floor.server import pairing
from floor.server.accounts import Accounts
from floor.server.principal import BadCredentials, TooManyAttempts
from floor.server.signin_limits import MAX_FAILURES_PER_ADDRESS
from floor.store.memory_accounts import MemoryAccounts
from tests.unit.test_accounts import Clock, cheap_hasher

IP = "192.0.2.44"


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def accounts(clock: Clock) -> Accounts:
    return Accounts(MemoryAccounts(clock=clock), hasher=cheap_hasher(), clock=clock)


async def dealers(accounts: Accounts) -> None:
    await accounts.add("table7", "4321", "dealer", 7, pin=True)
    await accounts.add("table8", "8765", "dealer", 8, pin=True)


async def test_a_code_signs_a_device_in_once_as_the_tables_dealer(accounts: Accounts) -> None:
    await dealers(accounts)
    code = await pairing.issue(accounts, 7, "floor phone")
    assert len(code.code) == 8 and code.code.isdigit()
    assert code.username == "table7"

    session = await pairing.redeem(accounts, f"{code.code[:4]} {code.code[4:]}", IP)

    assert (session.principal.role, session.principal.table) == ("dealer", 7)
    assert await accounts.principal(session.token) == session.principal
    with pytest.raises(BadCredentials):
        await pairing.redeem(accounts, code.code, IP)  # once only


async def test_a_code_is_never_a_session_token(accounts: Accounts) -> None:
    await dealers(accounts)
    code = await pairing.issue(accounts, 8, "floor phone")
    for token in (code.code, f"table-pairing:{code.code}"):
        assert await accounts.principal(token) is None


async def test_a_code_expires(accounts: Accounts, clock: Clock) -> None:
    await dealers(accounts)
    code = await pairing.issue(accounts, 7, "floor phone")
    clock.now += pairing.PAIRING_TTL + 1
    with pytest.raises(BadCredentials):
        await pairing.redeem(accounts, code.code, IP)


async def test_a_dealer_moved_to_another_table_is_not_signed_in_for_the_old_one(
    accounts: Accounts,
) -> None:
    await dealers(accounts)
    code = await pairing.issue(accounts, 7, "floor phone")
    await accounts.remove("table7")
    with pytest.raises(BadCredentials):
        await pairing.redeem(accounts, code.code, IP)


async def test_a_table_without_a_dealer_account_is_named(accounts: Accounts) -> None:
    await dealers(accounts)
    with pytest.raises(NotAllowed) as caught:
        await pairing.issue(accounts, 9, "floor phone")
    assert (caught.value.reason, caught.value.params, caught.value.field) == (
        "pairing_no_dealer",
        {"table": 9},
        "table",
    )


async def test_guessing_codes_is_stopped_by_the_address_limit(accounts: Accounts) -> None:
    await dealers(accounts)
    refused = 0
    while refused < 1000:
        try:
            await pairing.redeem(accounts, f"{refused:08d}", IP)
        except BadCredentials:
            refused += 1
        except TooManyAttempts:
            break
    # An hour's guesses from one address, of a hundred million codes.
    assert refused == MAX_FAILURES_PER_ADDRESS
