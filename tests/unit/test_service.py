"""The command service on the in-memory ports: copies, retries, idempotency, authorization.

Each ``Service`` made on one ``MemoryServer`` is a server process of its own (its own copies
and subscriptions), so races between processes play out in one event loop. The same service
runs on the Redis log in ``tests/integration/test_store.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import sys
from collections.abc import AsyncIterator, Awaitable

import msgspec
import pytest

from floor.engine import commands as cmd
from floor.engine.autopilot import next_step
from floor.engine.events import Event
from floor.engine.rules import Rules
from floor.engine.state import Tournament
from floor.protocol import decode_batch, decode_event
from floor.server.permissions import authorize
from floor.server.principal import Forbidden, Principal
from floor.store.errors import IdReused, NotFound, Unavailable
from floor.store.memory import MemoryBus, MemoryLog, MemoryServer
from floor.store.ports import Resubscribed
from floor.store.service import Authorize, Service

RULES = msgspec.convert({"game": "holdem", "seats": 9, "final_table": 9}, Rules)
FLOOR = Principal(username="floor", role="floor", table=None)


def dealer(table: int) -> Principal:
    """A dealer on the paired screen of ``table`` of tournament t1."""
    return Principal(
        username=f"dealer{table}", role="dealer", table=table, tournament="t1", device="a1b2c3"
    )


def as_(principal: Principal, command: cmd.Command) -> Authorize:
    return lambda t: authorize(principal, command, t)


def encoded(t: Tournament) -> bytes:
    return msgspec.msgpack.encode(t.state)


async def seated(store: Service, tid: str, players: int) -> None:
    await store.create(tid, "Test", RULES)
    for i in range(players):
        await store.execute(tid, cmd.Register(name=f"Player {i}", player=f"P{i}"), f"reg-{i}")
    assert (await store.execute(tid, cmd.DrawSeats(), "draw")).ok


async def logged(server: MemoryServer, tid: str) -> list[Event]:
    stored = await MemoryLog(server).read(tid, 0, 10**9)
    return [decode_event(data) for _, data in stored]


@pytest.fixture
def server() -> MemoryServer:
    return MemoryServer()


@pytest.fixture
def store(server: MemoryServer) -> Service:
    return Service(MemoryLog(server), rng=random.Random(1), snapshot_every=25)


async def test_the_copy_held_equals_the_log_reloaded_through_snapshots(
    store: Service, server: MemoryServer
) -> None:
    await seated(store, "t1", 60)
    rng = random.Random(3)
    for i in range(150):
        t, _ = await store.tournament("t1")
        command = next_step(t, rng)
        assert command is not None
        assert (await store.execute("t1", command, f"step-{i}")).ok
    held, version = await store.tournament("t1")
    loaded, loaded_version = await store.load("t1")
    stored = await MemoryLog(server).load("t1")
    assert stored.snapshot is not None and stored.snapshot.seq > 0
    assert loaded_version == version == len(await logged(server, "t1"))
    assert encoded(loaded) == encoded(held) == encoded(Tournament.fold(await logged(server, "t1")))
    assert loaded.plan == held.plan


async def test_a_decide_that_fails_half_way_leaves_no_change_in_the_copy(
    store: Service, server: MemoryServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bust is applied to the copy, then the housekeeping fails (not a refusal): the log
    never got the bust, so neither may the copy, or the retry is refused "already out"."""
    await seated(store, "t1", 30)

    def broken(t: Tournament, rng: random.Random) -> list[Event]:
        raise RuntimeError("the housekeeping failed")

    # The module, not the function ``floor.engine`` exports under the same name.
    monkeypatch.setattr(sys.modules["floor.engine.decide"], "housekeep", broken)
    with pytest.raises(RuntimeError, match="the housekeeping failed"):
        await store.execute("t1", cmd.Bust(player="P5"), "bust-5")
    monkeypatch.undo()

    t, _ = await store.tournament("t1")
    assert not t.player("P5").busted
    retry = await store.execute("t1", cmd.Bust(player="P5"), "bust-5")
    assert retry.ok and retry.error is None, retry
    busts = [e for e in await logged(server, "t1") if type(e).__name__ == "PlayerBusted"]
    assert len(busts) == 1


async def test_a_draw_that_raises_mid_housekeeping_leaves_no_change_in_the_copy(
    server: MemoryServer,
) -> None:
    """The same with the engine's own randomness failing on the housekeeping's seat draw."""

    class Failing(random.Random):
        # Every draw of random.Random (choice, shuffle, sample...) comes down to these two.
        fail = False

        def random(self) -> float:
            if self.fail:
                raise RuntimeError("no entropy")
            return super().random()

        def getrandbits(self, k: int) -> int:
            if self.fail:
                raise RuntimeError("no entropy")
            return super().getrandbits(k)

    rng = Failing(7)
    store = Service(MemoryLog(server), rng=rng)
    await seated(store, "t1", 12)  # two tables of six: one bust and the final table forms
    before, version = await store.tournament("t1")
    before_state = encoded(before)
    rng.fail = True
    busted = 0
    for pid in [f"P{i}" for i in range(12)]:
        try:
            outcome = await store.execute("t1", cmd.Bust(player=pid), f"b-{pid}")
        except RuntimeError:
            break
        assert outcome.ok
        busted += 1
        before, version = await store.tournament("t1")
        before_state = encoded(before)
    else:
        pytest.fail("no bust-out reached a draw")
    t, v = await store.tournament("t1")
    assert (v, encoded(t)) == (version, before_state)
    assert busted == len(
        [e for e in await logged(server, "t1") if type(e).__name__ == "PlayerBusted"]
    )


async def test_a_retry_is_answered_with_the_first_result_by_any_process(
    server: MemoryServer,
) -> None:
    a = Service(MemoryLog(server), rng=random.Random(1))
    b = Service(MemoryLog(server), rng=random.Random(2))
    await seated(a, "t1", 20)
    first = await a.execute("t1", cmd.Bust(player="P1"), "phone:1")
    for retry in (
        await a.execute("t1", cmd.Bust(player="P1"), "phone:1"),
        await b.execute("t1", cmd.Bust(player="P1"), "phone:1"),
    ):
        assert retry.duplicate and (retry.ok, retry.first, retry.last) == (
            True,
            first.first,
            first.last,
        )
    with pytest.raises(IdReused, match="the command id phone:1 was already used"):
        await b.execute("t1", cmd.Bust(player="P2"), "phone:1")
    refused = await a.execute("t1", cmd.Bust(player="nobody"), "phone:2")
    again = await b.execute("t1", cmd.Bust(player="nobody"), "phone:2")
    assert refused.error is not None and refused.error.code == "unknown_player"
    assert again.duplicate and again.error == refused.error


async def test_a_refusal_decided_on_a_copy_that_was_behind_is_decided_again(
    server: MemoryServer,
) -> None:
    a = Service(MemoryLog(server), rng=random.Random(1))
    b = Service(MemoryLog(server), rng=random.Random(2))
    await seated(a, "t1", 20)
    await b.tournament("t1")
    assert (await a.execute("t1", cmd.Register(name="Late", player="LATE"), "late")).ok
    first = await b.execute("t1", cmd.Bust(player="LATE"), "bust-late")
    again = await b.execute("t1", cmd.Bust(player="LATE"), "bust-late")
    assert first.ok, first
    assert again.duplicate and again.ok


async def test_each_batch_written_goes_to_the_listeners_and_the_other_processes(
    server: MemoryServer,
) -> None:
    bus_a, bus_b = MemoryBus(server), MemoryBus(server)
    a = Service(MemoryLog(server), bus=bus_a, rng=random.Random(1))
    b = Service(MemoryLog(server), bus=bus_b, rng=random.Random(2))
    await seated(a, "t1", 20)
    heard: list[bytes] = []
    a.listen(heard.append)
    await b.tournament("t1")  # b follows the tournament before it loads it
    assert bus_b.following("t1")
    outcome = await a.execute("t1", cmd.Bust(player="P3"), "b-3")
    assert len(heard) == 1  # before the writer was answered
    batch = decode_batch(heard[0])
    assert (batch.tournament, batch.from_, batch.to) == ("t1", outcome.first, outcome.last)
    arrived = await anext(bus_b.incoming())
    assert arrived == heard[0]
    await b.apply_published(arrived)
    (ta, va), (tb, vb) = await a.tournament("t1"), await b.tournament("t1")
    assert (va, encoded(ta)) == (vb, encoded(tb))


async def test_a_tournament_that_does_not_exist_is_not_followed(server: MemoryServer) -> None:
    bus = MemoryBus(server)
    store = Service(MemoryLog(server), bus=bus)
    with pytest.raises(NotFound, match="there is no tournament nope"):
        await store.tournament("nope")
    with pytest.raises(NotFound):
        await store.execute("nope", cmd.Bust(player="P1"), "x")
    assert not bus.following("nope")


async def test_a_storage_that_is_away_changes_nothing_and_the_retry_applies(
    store: Service, server: MemoryServer
) -> None:
    await seated(store, "t1", 20)
    server.down = True
    with pytest.raises(Unavailable):
        await store.execute("t1", cmd.Bust(player="P4"), "b-4")
    server.down = False
    assert (await store.execute("t1", cmd.Bust(player="P4"), "b-4")).ok
    t, _ = await store.load("t1")
    assert t.player("P4").busted


# Authorization on the state the command is decided on -------------------------------------


async def moving(store: Service, tid: str) -> tuple[cmd.Confirm, str, int]:
    """A tournament with a planned balancing move: (the floor's confirmation of it, the
    player it sends, the table the player sits at)."""
    await seated(store, tid, 30)
    t, _ = await store.tournament(tid)
    short = [p.id for p in t.state.players.values() if p.table == 1]
    for pid in short[:2]:
        assert (await store.execute(tid, cmd.Bust(player=pid), None)).ok
    t, _ = await store.tournament(tid)
    move = t.plan.moves[0]
    table = move.from_.table
    player = next(p.id for p in t.state.players.values() if p.table == table)
    to = t.state.tables[move.to.table]
    seat = min(set(range(1, to.seats + 1)) - set(to.occupants))
    return cmd.Confirm(player=player, seat=seat), player, table


async def test_a_dealer_is_refused_a_player_moved_off_the_table_by_another_process(
    server: MemoryServer,
) -> None:
    """The dealer's process still holds the tournament from before the move: the bust is
    authorized on that copy, loses the race, and is authorized again on the state it would
    be decided on, where the player sits elsewhere."""
    a = Service(MemoryLog(server), rng=random.Random(1))
    b = Service(MemoryLog(server), rng=random.Random(2))
    confirm, player, table = await moving(a, "t1")
    await b.tournament("t1")
    assert (await a.execute("t1", confirm, "move", authorize=as_(FLOOR, confirm))).ok
    bust = cmd.Bust(player=player)
    with pytest.raises(Forbidden, match=f"{player} is not at your table {table}"):
        await b.execute("t1", bust, "bust", authorize=as_(dealer(table), bust))
    t, _ = await a.load("t1")
    assert not t.player(player).busted and t.player(player).table != table


async def test_a_dealer_refused_on_a_copy_that_was_behind_is_asked_again(
    server: MemoryServer,
) -> None:
    """The other way round: the player was just moved to the dealer's table, which the
    dealer's process had not heard of yet. Refused on its stale copy, the bust is authorized
    again on the current state, and applies."""
    a = Service(MemoryLog(server), rng=random.Random(1))
    b = Service(MemoryLog(server), rng=random.Random(2))
    confirm, player, _ = await moving(a, "t1")
    await b.tournament("t1")
    assert (await a.execute("t1", confirm, "move")).ok
    t, _ = await a.tournament("t1")
    there = t.player(player).table
    assert there is not None
    bust = cmd.Bust(player=player)
    outcome = await b.execute("t1", bust, "bust", authorize=as_(dealer(there), bust))
    assert outcome.ok, outcome


async def _follow(store: Service, bus: MemoryBus) -> None:
    """What the hub does for a process: fold every batch from the bus into its copies."""
    async for item in bus.incoming():
        if isinstance(item, Resubscribed):
            store.forget_all()
        else:
            await store.apply_published(item)


@contextlib.asynccontextmanager
async def processes(server: MemoryServer, n: int) -> AsyncIterator[list[Service]]:
    stores, tasks = [], []
    for i in range(n):
        bus = MemoryBus(server)
        store = Service(MemoryLog(server), bus=bus, rng=random.Random(i))
        stores.append(store)
        tasks.append(asyncio.create_task(_follow(store, bus)))
    try:
        yield stores
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def _after(yields: int, work: Awaitable[object]) -> object:
    for _ in range(yields):
        await asyncio.sleep(0)
    return await work


@pytest.mark.parametrize("same_process", [True, False], ids=["one process", "two processes"])
async def test_a_dealer_never_busts_a_player_the_floor_just_moved_off_their_table(
    same_process: bool,
) -> None:
    """The floor confirms a move of a player off table T while T's dealer busts that player,
    in every interleaving the event loop gives: when the bust applies, the player was still
    at T, never after the move."""
    rng = random.Random(5)
    outcomes = {"bust": 0, "forbidden": 0}
    for attempt in range(60):
        server = MemoryServer()
        async with processes(server, 2) as (a, b):
            confirm, player, table = await moving(a, "t1")
            dealers = a if same_process else b
            await dealers.tournament("t1")
            bust = cmd.Bust(player=player)
            move = a.execute("t1", confirm, "move", authorize=as_(FLOOR, confirm))
            busting = dealers.execute("t1", bust, "bust", authorize=as_(dealer(table), bust))
            moved, busted = await asyncio.gather(
                _after(rng.randrange(4), move),
                _after(rng.randrange(4), busting),
                return_exceptions=True,
            )
            events = await logged(server, "t1")
        t = Tournament.fold(events)
        p = t.player(player)
        if isinstance(busted, Forbidden):
            outcomes["forbidden"] += 1
            assert not p.busted
            assert p.table != table, f"try {attempt}: refused a player still at table {table}"
        else:
            assert not isinstance(busted, BaseException), busted
            outcomes["bust"] += 1
            assert p.busted and p.bust is not None
            assert p.bust.table == table, f"try {attempt}: busted after the move ({moved})"
    # Both orders came up, or the test proved nothing.
    assert outcomes["bust"] and outcomes["forbidden"], outcomes
