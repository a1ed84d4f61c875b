"""Table screens: a code pairs a screen, with no dealer account, as a device of one table of
one tournament; a wrong code spends a try of that code alone (no address is refused); a
dealer's PIN is tried on a paired screen only, and binds the dealer to its table; the
director lists, moves and ends screens, and every process hears of it at once."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from floor.server.accounts import Accounts, device_key
from floor.server.principal import BadCredentials, NoSuchAccount, Principal, SignedOut
from floor.server.signin_limits import FREE_FAILURES, MAX_FAILURES_PER_ADDRESS
from floor.server.tablets import PAIRING_TRIES, PAIRING_TTL, TABLET_TTL, Tablets
from floor.store.devices_port import DeviceStorage
from floor.store.memory_accounts import MemoryAccounts, MemorySignOuts
from floor.store.memory_devices import MemoryDevices
from tests.unit.test_accounts import Clock, cheap_hasher

IP = "192.0.2.44"


class Process:
    """One server process: its accounts (and their cache) and its tablets, on the shared
    storage and sign-out feed."""

    def __init__(
        self, storage: MemoryAccounts, devices: MemoryDevices, feed: MemorySignOuts, clock: Clock
    ) -> None:
        self.accounts = Accounts(
            storage, hasher=cheap_hasher(), clock=clock, signouts=feed, devices=devices
        )
        self.tablets = Tablets(self.accounts, devices, clock=clock)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def processes(clock: Clock) -> AsyncIterator[list[Process]]:
    storage, devices, feed = (
        MemoryAccounts(clock=clock),
        MemoryDevices(clock=clock),
        MemorySignOuts(),
    )
    both = [Process(storage, devices, feed, clock) for _ in range(2)]
    for p in both:
        await p.accounts.start()
    await both[0].accounts.add("dee", "4321", "dealer", pin=True)
    await both[0].accounts.add("dan", "8765", "dealer", pin=True)
    await both[0].accounts.add("floyd", "floor pass", "floor")
    yield both
    for p in both:
        await p.accounts.stop()


@pytest.fixture
def one(processes: list[Process]) -> Process:
    return processes[0]


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


def test_the_memory_storage_is_a_device_storage() -> None:
    typed: DeviceStorage = MemoryDevices()  # mypy holds the contract
    assert typed is not None


async def test_a_code_pairs_a_screen_once_as_a_device_of_its_table_with_no_dealer_account(
    one: Process,
) -> None:
    code = await one.tablets.issue("spring", 7, "floyd")
    assert len(code.code) == 9 and code.code.isdigit() and code.tries == PAIRING_TRIES
    session = await one.tablets.redeem(f"{code.code[:3]} {code.code[3:6]}-{code.code[6:]}", IP)
    device = session.principal.device
    assert device is not None
    assert session.principal == Principal(
        username=None, role="table", table=7, tournament="spring", device=device
    )
    assert session.token.startswith("tablet.")
    assert await one.accounts.principal(session.token) == session.principal
    with pytest.raises(BadCredentials):
        await one.tablets.redeem(code.code, IP)  # once only
    (listed,) = await one.tablets.list()
    assert (listed.id, listed.tournament, listed.table, listed.paired_by) == (
        device,
        "spring",
        7,
        "floyd",
    )
    assert listed.last_seen is not None and listed.dealer is None


async def test_a_code_is_never_a_token_and_expires(one: Process, clock: Clock) -> None:
    code = await one.tablets.issue("spring", 8, "floyd")
    for token in (code.code, f"tablet.{code.code}", f"table-pairing:{code.code}"):
        assert await one.accounts.principal(token) is None
    clock.now += PAIRING_TTL + 1
    with pytest.raises(BadCredentials):
        await one.tablets.redeem(code.code, IP)


async def test_a_code_dies_after_its_wrong_tries_while_other_codes_still_pair(
    one: Process,
) -> None:
    """The finding: about a hundred wrong codes from one address refused every pairing from
    it, so behind a venue's NAT one phone stopped every tablet."""
    doomed = await one.tablets.issue("spring", 1, "floyd")
    other = await one.tablets.issue("spring", 2, "floyd")
    slot, secret = doomed.code[:3], int(doomed.code[3:])
    wrong = [f"{slot}{(secret + i) % 10**6:06d}" for i in range(1, PAIRING_TRIES + 1)]
    for typed in wrong:
        with pytest.raises(BadCredentials):
            await one.tablets.redeem(typed, IP)
    # Void now, even typed right.
    with pytest.raises(BadCredentials):
        await one.tablets.redeem(doomed.code, IP)
    # A thousand wrong codes more from the same address, naming no live code ...
    for i in range(2 * MAX_FAILURES_PER_ADDRESS):
        typed = f"{i:09d}"
        if typed[:3] != other.code[:3]:
            with pytest.raises(BadCredentials):
                await one.tablets.redeem(typed, IP)
    # ... and the other code pairs, from that very address.
    session = await one.tablets.redeem(other.code, IP)
    assert session.principal.table == 2


async def test_a_wrong_code_spends_a_try_of_the_code_it_names_only(one: Process) -> None:
    a = await one.tablets.issue("spring", 1, "floyd")
    b = await one.tablets.issue("spring", 2, "floyd")
    with pytest.raises(BadCredentials):
        await one.tablets.redeem(a.code[:3] + ("000000" if a.code[3:] != "000000" else "1" * 6), IP)
    assert await one.tablets.storage.code_tries(a.code[:3]) == PAIRING_TRIES - 1
    assert await one.tablets.storage.code_tries(b.code[:3]) == PAIRING_TRIES
    for typed in ("12345678", "1234567890", "12345678x", "١٢٣٤٥٦٧٨٩"):
        with pytest.raises(BadCredentials):
            await one.tablets.redeem(typed, IP)  # not a code: no try spent


async def paired(process: Process, tournament: str = "spring", table: int = 3) -> str:
    code = await process.tablets.issue(tournament, table, "floyd")
    return (await process.tablets.redeem(code.code, IP)).token


async def test_a_screen_lives_a_day_from_pairing(one: Process, clock: Clock) -> None:
    token = await paired(one)
    clock.now += TABLET_TTL - 1
    assert (await one.accounts.principal(token)) is not None
    clock.now += 2
    assert await one.accounts.principal(token) is None
    assert await one.tablets.list() == []


async def test_a_dealer_signs_in_on_a_paired_screen_bound_to_its_table(one: Process) -> None:
    token = await paired(one, "spring", 3)
    screen = await one.accounts.principal(token)
    assert screen is not None
    dealer = await one.tablets.sign_in_dealer(screen, "dee", "4321")
    assert dealer == Principal(
        username="dee", role="dealer", table=3, tournament="spring", device=screen.device
    )
    assert await one.accounts.principal(token) == dealer
    assert (await one.tablets.list())[0].dealer == "dee"
    # The next dealer takes over the screen; the last one's session there ends.
    await one.tablets.sign_in_dealer(screen, "dan", "8765")
    assert (await one.accounts.principal(token) or screen).username == "dan"
    assert await one.accounts.storage.end_sessions("dee") == 0
    # Signing out leaves the screen paired.
    assert await one.tablets.sign_out_dealer(screen) == screen
    assert await one.accounts.principal(token) == screen


async def test_only_a_dealer_signs_in_on_a_screen(one: Process) -> None:
    screen = await one.accounts.principal(await paired(one))
    assert screen is not None
    for name, secret in (("floyd", "floor pass"), ("dee", "1234"), ("ghost", "1234")):
        with pytest.raises(BadCredentials):
            await one.tablets.sign_in_dealer(screen, name, secret)
    with pytest.raises(SignedOut):
        await one.tablets.sign_in_dealer(
            Principal(username=None, role="public", table=None), "dee", "4321"
        )


async def test_a_dealers_pin_guessed_on_a_screen_is_delayed_there_only(one: Process) -> None:
    """The screen is the client the limits count: guesses on another screen, or from the
    same address off any screen, never delay the dealer here."""
    here = await one.accounts.principal(await paired(one, table=3))
    there = await one.accounts.principal(await paired(one, table=4))
    assert here is not None and there is not None
    for _ in range(FREE_FAILURES):
        with pytest.raises(BadCredentials):
            await one.tablets.sign_in_dealer(there, "dee", "0000")
        with pytest.raises(BadCredentials):
            await one.accounts.sign_in("dee", "0000", IP)
    with pytest.raises(Exception, match="too many failed sign-ins"):
        await one.tablets.sign_in_dealer(there, "dee", "4321")
    await one.tablets.sign_in_dealer(here, "dee", "4321")


async def test_a_new_secret_signs_the_dealer_out_of_the_screen(one: Process) -> None:
    token = await paired(one)
    screen = await one.accounts.principal(token)
    assert screen is not None
    await one.tablets.sign_in_dealer(screen, "dee", "4321")
    await one.accounts.set_secret("dee", "2468")
    assert await one.accounts.principal(token) == screen
    await one.tablets.sign_in_dealer(screen, "dee", "2468")
    await one.accounts.remove("dee")
    assert await one.accounts.principal(token) == screen


async def test_the_director_moves_a_screen_and_every_process_hears_it(
    processes: list[Process],
) -> None:
    one, two = processes
    token = await paired(one, "spring", 3)
    screen = await two.accounts.principal(token)  # cached in the other process
    assert screen is not None and screen.device is not None
    await one.tablets.sign_in_dealer(screen, "dee", "4321")
    await settle()
    heard: list[str] = []
    two.accounts.watch(device_key(screen.device), lambda: heard.append("moved"))
    moved = await one.tablets.move(screen.device, "summer", 9)
    assert (moved.tournament, moved.table, moved.dealer) == ("summer", 9, None)
    await settle()
    assert heard == ["moved"]
    assert await two.accounts.principal(token) == Principal(
        username=None, role="table", table=9, tournament="summer", device=screen.device
    )


async def test_the_director_ends_a_screen_and_every_process_forgets_it_at_once(
    processes: list[Process],
) -> None:
    one, two = processes
    token = await paired(one)
    screen = await two.accounts.principal(token)
    assert screen is not None and screen.device is not None
    heard: list[str] = []
    two.accounts.watch(device_key(screen.device), lambda: heard.append("ended"))
    await one.tablets.revoke(screen.device)
    await settle()
    assert heard == ["ended"]
    assert await two.accounts.principal(token) is None
    with pytest.raises(NoSuchAccount) as caught:
        await one.tablets.revoke(screen.device)
    assert (caught.value.field, caught.value.reason) == ("device", "no_such_tablet")
    for bad in ("../../x", "A1B2C3D4E5F6", ""):
        with pytest.raises(NoSuchAccount):
            await one.tablets.move(bad, "spring", 1)


async def test_a_screen_signing_itself_out_is_unpaired(one: Process) -> None:
    token = await paired(one)
    await one.tablets.unpair(token)
    assert await one.accounts.principal(token) is None
    assert await one.tablets.list() == []
    await one.tablets.unpair(token)  # twice: nothing left to do
