"""The house (what spans tournaments), on a real Valkey and in memory alike.

Each "process" is a ``House`` of its own on the same storage. Shown: a hold is taken once and
settled once; an entry to a later flight is refused for a player the house has seen bag in an
earlier one, and a corrected sheet takes a player off; processes that write in turn each
decide on what the other wrote; a hold its process never settled is settled from the
tournament's kept result; the state survives a reload from its snapshot and tail; and through
the tournaments' service, a command the house refuses writes nothing, and a command the
tournament refuses leaves no hold.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path

import msgspec
import pytest
import pytest_asyncio

from floor.backup import export, import_
from floor.engine import commands as cmd
from floor.engine.errors import NotAllowed
from floor.engine.flights import FlightRules
from floor.engine.house.commands import SettleHold, TakeHold
from floor.engine.house.events import EntryClaim, Sheet, SheetClaim
from floor.engine.rules import Rules
from floor.redisdb.connection import connect
from floor.redisdb.house_log import RedisHouseLog
from floor.redisdb.log import RedisLog
from floor.store.errors import Unavailable
from floor.store.house import House, HouseLog, HouseSpan, hold_id
from floor.store.memory import MemoryHouseLog, MemoryLog, MemoryServer
from floor.store.ports import EventLog
from floor.store.service import Service

RULES = msgspec.convert({"game": "holdem", "seats": 9, "final_table": 9}, Rules)


@dataclass
class Backend:
    name: str
    house_log: Callable[[], HouseLog]
    log: Callable[[], EventLog]


@pytest_asyncio.fixture(params=["memory", "redis"])
async def backend(request: pytest.FixtureRequest, redis_url: str) -> AsyncIterator[Backend]:
    if request.param == "memory":
        server = MemoryServer()
        yield Backend("memory", lambda: MemoryHouseLog(server), lambda: MemoryLog(server))
        return
    admin = connect(redis_url)
    await admin.flushall()
    clients = []

    def redis_log() -> RedisLog:
        clients.append(connect(redis_url))
        return RedisLog(clients[-1])

    try:
        yield Backend("redis", lambda: RedisHouseLog(redis_log()), redis_log)
    finally:
        for client in clients:
            await client.aclose()
        await admin.aclose()


def sheet(flight: str, order: int, table: int, *bags: tuple[str, int]) -> Sheet:
    return Sheet(flight=flight, event="main", order=order, table=table, bags=bags)


async def index(house: House, s: Sheet, cid: str) -> None:
    hid = hold_id(s.flight, cid)
    await house.execute(
        TakeHold(hold=hid, tournament=s.flight, command_id=cid, claim=SheetClaim(sheet=s)), hid
    )
    await house.execute(SettleHold(hold=hid, committed=True), hid + ":settle")


def entry(order: int, *players: str) -> EntryClaim:
    return EntryClaim(event="main", order=order, players=players)


async def test_a_hold_is_taken_and_settled_once(backend: Backend) -> None:
    house = House(backend.house_log())
    take = TakeHold(hold="h1", tournament="d1b", command_id="c1", claim=entry(2, "P1"))
    assert len(await house.execute(take, "h1")) == 1
    assert await house.execute(take, "h1") == []  # the retry: the hold stands
    assert set((await house.state()).holds) == {"h1"}
    assert len(await house.execute(SettleHold(hold="h1", committed=True), "h1:s")) == 1
    assert await house.execute(SettleHold(hold="h1", committed=False), "h1:s2") == []
    assert (await house.state()).holds == {}


async def test_an_entry_after_a_bag_is_refused_and_a_corrected_sheet_frees_the_player(
    backend: Backend,
) -> None:
    house = House(backend.house_log())
    await index(house, sheet("d1a", 1, 3, ("P1", 40_000), ("P2", 12_000)), "bag-3")
    with pytest.raises(NotAllowed) as refused:
        await house.execute(
            TakeHold(hold="h2", tournament="d1b", command_id="c2", claim=entry(2, "P9", "P1")),
            "h2",
        )
    assert refused.value.reason == "flight_after_bag"
    assert refused.value.params == {"player": "P1", "flight": "d1a"}
    assert (await house.state()).holds == {}  # refused: nothing held
    # An earlier flight, or this one, is no later flight: the same entry there is taken.
    ok = TakeHold(hold="h3", tournament="d1a", command_id="c3", claim=entry(1, "P1"))
    assert len(await house.execute(ok, "h3")) == 1
    # The sheet sent again without P1 (a mistake corrected): P1 may enter again.
    await index(house, sheet("d1a", 1, 3, ("P2", 12_000)), "bag-3-again")
    later = TakeHold(hold="h4", tournament="d1b", command_id="c4", claim=entry(2, "P1"))
    assert len(await house.execute(later, "h4")) == 1
    bagged = (await house.state()).bagged["main"]
    assert set(bagged) == {"P2"}


async def test_two_processes_decide_on_what_the_other_wrote(backend: Backend) -> None:
    first, second = House(backend.house_log()), House(backend.house_log())
    await first.state()
    await second.state()
    await index(first, sheet("d1a", 1, 1, ("P1", 10_000)), "bag-1")
    # The second process held the house from before the sheet: it reads the tail first.
    with pytest.raises(NotAllowed):
        await second.execute(
            TakeHold(hold="h5", tournament="d1b", command_id="c5", claim=entry(2, "P1")), "h5"
        )
    # Both at once: one hold each, whoever writes second reads the other's first.
    takes = [
        house.execute(
            TakeHold(hold=f"h{n}", tournament="d1b", command_id=f"c{n}", claim=entry(2, f"N{n}")),
            f"h{n}",
        )
        for n, house in ((6, first), (7, second))
    ]
    await asyncio.gather(*takes)
    assert set((await first.state()).holds) == {"h6", "h7"}
    assert set((await second.state()).holds) == {"h6", "h7"}


async def test_the_house_reloads_from_its_snapshot_and_tail(backend: Backend) -> None:
    house = House(backend.house_log(), snapshot_every=3)
    for table in range(1, 6):
        await index(house, sheet("d1a", 1, table, (f"P{table}", 1_000 * table)), f"bag-{table}")
    fresh = House(backend.house_log())
    state = await fresh.state()
    assert state == await house.state()
    assert sorted(state.bagged["main"]) == ["P1", "P2", "P3", "P4", "P5"]


async def test_a_hold_left_by_a_dead_process_is_settled_from_the_tournament(
    backend: Backend,
) -> None:
    now = [1_000.0]
    house = House(backend.house_log(), clock=lambda: now[0])
    log = backend.log()
    service = Service(log)
    await service.create("d1a", "Day 1A", RULES)
    flight = cmd.SetFlight(event="main", order=1, rules=FlightRules())
    await service.execute("d1a", flight, "flight")
    for n in (1, 2, 3):
        await service.execute("d1a", cmd.Register(name=f"P{n}", player=f"P{n}"), f"r{n}")
    assert (await service.execute("d1a", cmd.DrawSeats(), "draw")).ok
    t, _ = await service.tournament("d1a")
    table = t.state.players["P1"].table
    assert table is not None
    # The sheet written in the tournament, its hold never settled (the process died).
    seated = sorted(t.state.tables[table].occupants.values())
    bag = cmd.BagTable(table=table, bags=tuple(cmd.Bag(player=p, stack=5_000) for p in seated))
    span = HouseSpan(house)
    assert await span.hold("d1a", "bag-1", t, bag) is True
    # A hold whose command never reached the tournament.
    assert await span.hold("d1a", "lost-1", t, cmd.BagTable(table=table, bags=())) is True
    await service.execute("d1a", cmd.EndDay(now=True), "end")
    assert (await service.execute("d1a", bag, "bag-1")).ok
    assert await house.settle_stale(log.result) == 0  # too young to be called dead
    now[0] += 301
    assert await house.settle_stale(log.result) == 2
    state = await house.state()
    assert state.holds == {}
    assert sorted(state.bagged["main"]) == seated
    assert [b.flight for b in state.bagged["main"]["P1"]] == ["d1a"]


async def test_through_the_service_a_refused_entry_writes_nothing(backend: Backend) -> None:
    house = House(backend.house_log())
    await index(house, sheet("d1a", 1, 2, ("P1", 7_000)), "bag-2")
    service = Service(backend.log())
    await service.create("d1b", "Day 1B", RULES)
    rules = FlightRules(stack_forward="no_flight_after_bag")
    await service.execute("d1b", cmd.SetFlight(event="main", order=2, rules=rules), "flight")
    span = HouseSpan(house)
    _, before = await service.tournament("d1b")
    refused = await service.execute("d1b", cmd.Register(name="P1", player="P1"), "r1", span=span)
    assert not refused.ok and refused.error is not None
    assert refused.error.reason == "flight_after_bag"
    assert (await service.tournament("d1b"))[1] == before
    # Refused by the tournament itself (a blank name): the hold taken for it is released.
    blank = await service.execute("d1b", cmd.Register(name="New", player="N1"), "r2", span=span)
    assert blank.ok
    again = await service.execute("d1b", cmd.Register(name="Twin", player="N1"), "r3", span=span)
    assert not again.ok
    assert (await house.state()).holds == {}


async def test_a_house_that_cannot_settle_leaves_the_command_standing(backend: Backend) -> None:
    house = House(backend.house_log())
    service = Service(backend.log())
    await service.create("d1b", "Day 1B", RULES)
    rules = FlightRules(stack_forward="no_flight_after_bag")
    await service.execute("d1b", cmd.SetFlight(event="main", order=2, rules=rules), "flight")

    class Flaky(HouseSpan):
        async def settle(self, tid: str, command_id: str, committed: bool) -> None:
            raise Unavailable("the house's server went away")

    outcome = await service.execute(
        "d1b", cmd.Register(name="P1", player="P1"), "r1", span=Flaky(house)
    )
    assert outcome.ok
    assert set((await house.state()).holds) == {hold_id("d1b", "r1")}


async def test_a_flight_brought_in_from_an_export_is_indexed(
    backend: Backend, tmp_path: Path
) -> None:
    service = Service(backend.log())
    await service.create("d1a", "Day 1A", RULES)
    await service.execute("d1a", cmd.SetFlight(event="main", order=1), "flight")
    for n in (1, 2, 3):
        await service.execute("d1a", cmd.Register(name=f"P{n}", player=f"P{n}"), f"r{n}")
    await service.execute("d1a", cmd.DrawSeats(), "draw")
    await service.execute("d1a", cmd.EndDay(now=True), "end")
    t, _ = await service.tournament("d1a")
    for table in t.state.tables.values():
        bags = tuple(cmd.Bag(player=p, stack=9_000) for p in table.occupants.values())
        if bags:
            assert (await service.execute("d1a", cmd.BagTable(table=table.number, bags=bags))).ok
    path = tmp_path / "d1a.floor"
    await export(service, "d1a", path)
    house = House(backend.house_log())
    done = await import_(service, path, "d1a-copy", house=house)
    assert done.tournament == "d1a-copy"
    bagged = (await house.state()).bagged["main"]
    assert sorted(bagged) == ["P1", "P2", "P3"]
    assert {b.flight for marks in bagged.values() for b in marks} == {"d1a-copy"}
