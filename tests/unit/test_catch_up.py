"""Catching screens up: from the batches held in memory, from the log through a bounded gate,
or with a snapshot already built; on the in-memory ports, each ``Service`` a process.

The log's reads are counted: a catch-up the ring can serve must not touch the log, and a
burst of public catch-ups the ring cannot serve reads at most what the public's gate lets
through (the rest get a snapshot), while a staff screen is caught up through its own.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import msgspec
import pytest

from floor.engine import commands as cmd
from floor.engine.events import Event
from floor.engine.rules import Rules
from floor.engine.state import Tournament, TournamentState
from floor.server import hub as hub_module
from floor.server.gate import Gate
from floor.server.hub import Hub
from floor.server.metrics import Metrics
from floor.server.ring import Ring
from floor.server.views import Views
from floor.store.memory import MemoryBus, MemoryLog, MemoryServer
from floor.store.service import Service

RULES = msgspec.convert({"game": "holdem", "seats": 9, "final_table": 9}, Rules)
TID = "catch"


class CountedLog(MemoryLog):
    """The memory log, counting its reads; with ``hold`` set, reads wait for it."""

    def __init__(self, server: MemoryServer) -> None:
        super().__init__(server)
        self.reads = 0
        self.hold: asyncio.Event | None = None

    async def read(self, tid: str, after: int, limit: int) -> list[tuple[int, bytes]]:
        self.reads += 1
        if self.hold is not None:
            await self.hold.wait()
        return await super().read(tid, after, limit)


def unpacked(message: dict[str, Any]) -> dict[str, Any]:
    """A packed snapshot's state whole, as ``web/js/conn.js`` ``unpack`` makes it."""
    state: dict[str, Any] = message["state"]
    for packed in message["players"]:
        p = {**message["player_defaults"], **packed}
        state["players"][p["id"]] = p
        if p["table"] is not None and p["seat"] is not None:
            state["tables"][str(p["table"])]["occupants"][str(p["seat"])] = p["id"]
    return state


class Screen:
    """A subscriber that folds what it is sent, as a page does."""

    internal = False

    def __init__(self, tid: str = TID) -> None:
        self.tid = tid
        self.seq = 0
        self.pending: list[tuple[int, int, bytes]] | None = None
        self.messages: list[dict[str, Any]] = []
        self.t: Tournament | None = None
        self.at = -1
        self.dropped: tuple[int, str] | None = None

    def push(self, data: bytes, framed: bytes | None = None) -> bool:
        message = json.loads(data)
        self.messages.append(message)
        if message["type"] == "snapshot":
            state = unpacked(message) if message.get("packed") else message["state"]
            self.t = Tournament(msgspec.convert(state, TournamentState, strict=False))
            self.at = message["seq"]
        elif message["type"] == "events":
            assert message["from"] <= self.at + 1, f"a gap: at {self.at}, then {message['from']}"
            for item in message["events"]:
                if item["seq"] > self.at:
                    if self.t is not None:  # None: a screen whose copy the test leaves out
                        self.t.apply(msgspec.convert(item["event"], Event, strict=False))
                    self.at = item["seq"]
        return True

    def drop(self, code: int, reason: str) -> None:
        self.dropped = (code, reason)

    def kinds(self) -> list[str]:
        return [m["type"] for m in self.messages]


class Process:
    """One server process: its service, bus and hub on the shared memory server."""

    def __init__(self, server: MemoryServer, **hub: Any) -> None:
        self.log = CountedLog(server)
        self.public_log = CountedLog(server)
        self.bus = MemoryBus(server)
        self.store = Service(self.log, bus=self.bus)
        self.metrics = Metrics()
        self.hub = Hub(self.store, self.bus, self.metrics, public_log=self.public_log, **hub)

    @property
    def reads(self) -> int:
        return self.log.reads + self.public_log.reads


@pytest.fixture
def server() -> MemoryServer:
    return MemoryServer()


@pytest.fixture
async def writer(server: MemoryServer) -> AsyncIterator[Process]:
    p = Process(server)
    await p.hub.start()
    await p.store.create(TID, "Catch", RULES)
    for i in range(30):
        await p.store.execute(TID, cmd.Register(name=f"Player {i}", player=f"P{i}"), f"r{i}")
    await p.store.execute(TID, cmd.DrawSeats(), "draw")
    yield p
    await p.hub.stop()


async def busts(p: Process, players: range) -> int:
    last = 0
    for i in players:
        outcome = await p.store.execute(TID, cmd.Bust(player=f"P{i}"), f"bust-{i}")
        assert outcome.ok, outcome
        last = outcome.last
    return last


async def settled(*processes: Process) -> None:
    """Until every process has read what was published."""
    for _ in range(50):
        await asyncio.sleep(0)


def copy_of(t: Tournament | None) -> Tournament:
    assert t is not None
    return Tournament(msgspec.msgpack.decode(msgspec.msgpack.encode(t.state), type=TournamentState))


def holds(screen: Screen, store_t: Tournament) -> bool:
    assert screen.t is not None
    # As JSON values: a packed snapshot's occupants come in another order, not other seats.
    expected = msgspec.to_builtins(store_t.state)
    if any(m.get("staff", {}) is None for m in screen.messages):
        expected["draws"] = {}  # the room is shown no seat drawn for a move (redact)
    return bool(msgspec.to_builtins(screen.t.state) == expected)


async def test_a_screen_a_few_batches_behind_is_caught_up_from_memory(writer: Process) -> None:
    first = Screen()
    await writer.hub.join(first, None)
    since, before = first.at, copy_of(first.t)
    end = await busts(writer, range(5))
    again = Screen()
    again.t, again.at = before, since  # the page's copy, as it had it before the blip
    reads = writer.reads
    await writer.hub.join(again, since)
    assert writer.reads == reads  # not a single read of the log
    assert again.kinds() == ["events"] * 5  # the five batches as they were sent
    assert again.messages[0]["from"] == since + 1 and again.at == end == again.seq
    t, _ = await writer.store.tournament(TID)
    assert holds(again, t)
    assert writer.metrics.catch_ups["ring"] == 1


async def test_the_public_is_caught_up_from_memory_with_what_the_public_is_shown(
    writer: Process,
) -> None:
    await writer.store.execute(TID, cmd.LockSeat(player="P9"), "lock")
    staff = Screen()
    await writer.hub.join(staff, None)
    public = Screen()
    await writer.hub.join(public, None, "public")
    since, before = staff.at, copy_of(staff.t)
    await writer.store.execute(TID, cmd.LockSeat(player="P8"), "lock-8")
    await busts(writer, range(2))
    for screen, view in ((Screen(), "staff"), (Screen(), "public")):
        screen.t, screen.at = copy_of(before), since
        await writer.hub.join(screen, since, view)  # type: ignore[arg-type]
        assert screen.kinds() == ["events"] * 3
        locked = screen.messages[0]["events"][0]["event"]["locked"]
        assert locked is (view == "staff")
        assert all((m["staff"] is None) is (view == "public") for m in screen.messages)
    assert writer.metrics.catch_ups["ring"] == 2 and writer.metrics.catch_ups["log"] == 0


async def test_a_screen_behind_the_ring_is_caught_up_from_the_log(server: MemoryServer) -> None:
    p = Process(server)
    await p.hub.start()
    await p.store.create(TID, "Catch", RULES)
    for i in range(12):
        await p.store.execute(TID, cmd.Register(name=f"Player {i}", player=f"P{i}"), f"r{i}")
    # A process started later holds none of those batches.
    later = Process(server)
    await later.hub.start()
    screen = Screen()
    await later.hub.join(screen, None)
    reads = later.public_log.reads
    behind = Screen()
    behind.at = 5
    await later.hub.join(behind, 5, "public")
    assert later.public_log.reads == reads + 1  # the public's own log (pool)
    assert behind.kinds() == ["events"] and behind.messages[0]["from"] == 6
    assert later.metrics.catch_ups["log"] == 1
    await p.hub.stop()
    await later.hub.stop()


async def test_a_burst_of_public_catch_ups_reads_what_the_gate_lets_through(
    server: MemoryServer,
) -> None:
    writer = Process(server)
    await writer.hub.start()
    await writer.store.create(TID, "Catch", RULES)
    for i in range(60):
        await writer.store.execute(TID, cmd.Register(name=f"Player {i}", player=f"P{i}"), f"r{i}")
    # The screens reconnect to a process that holds none of the batches they missed.
    p = Process(server, public_reads=Gate(2, 3))
    await p.hub.start()
    follower = Screen()
    await p.hub.join(follower, None)  # the process follows the tournament
    p.public_log.hold = asyncio.Event()
    crowd = [Screen() for _ in range(40)]
    for i, s in enumerate(crowd):
        s.at = i + 1  # where each page stood (its copy is left out)
    joins = [asyncio.ensure_future(p.hub.join(s, i + 1, "public")) for i, s in enumerate(crowd)]
    await settled(p)
    # Two reading, three waiting: the 35 others were sent the snapshot, not a read.
    assert p.public_log.reads == 2
    assert p.metrics.catch_ups["refused"] == 35
    assert sum(s.kinds()[:1] == ["snapshot"] for s in crowd) == 35
    # Meanwhile a staff screen's catch-up goes through a gate (and a log) of its own.
    staff = Screen()
    staff.at = 3
    staff_reads = p.log.reads
    await asyncio.wait_for(p.hub.join(staff, 3), 1.0)
    assert p.log.reads == staff_reads + 1 and staff.kinds() == ["events"]
    p.public_log.hold.set()
    await asyncio.gather(*joins)
    assert p.public_log.reads == 5
    _, version = await p.store.tournament(TID)
    assert all(s.seq == version for s in crowd)
    assert p.hub.reads["public"].inside == 0
    await writer.hub.stop()
    await p.hub.stop()


async def test_screens_joining_as_commands_come_share_the_snapshot_built_last(
    writer: Process,
) -> None:
    def snapshots_built() -> dict[tuple[str, str], int]:
        return {k: n for k, n in writer.metrics.views.items() if k[0] in ("packed", "snapshot")}

    first = Screen()
    await writer.hub.join(first, None, "public", packed=True)
    built = snapshots_built()
    at = first.at
    await busts(writer, range(3))
    later = Screen()
    await writer.hub.join(later, None, "public", packed=True)
    # The snapshot already built, and the three batches after it: no snapshot built afresh.
    assert snapshots_built() == built == {("packed", "staff"): 1, ("packed", "public"): 1}
    assert later.kinds() == ["snapshot", "events", "events", "events"]
    assert later.messages[0]["seq"] == at and later.messages[0]["packed"] is True
    t, version = await writer.store.tournament(TID)
    assert later.seq == later.at == version and holds(later, t)


async def test_the_snapshot_serves_while_the_batches_are_few_as_the_screen_is_shown_them(
    writer: Process, monkeypatch: pytest.MonkeyPatch
) -> None:
    def snapshots_built() -> dict[tuple[str, str], int]:
        return {k: n for k, n in writer.metrics.views.items() if k[0] == "packed"}

    first = Screen()
    await writer.hub.join(first, None, "public", packed=True)
    built = snapshots_built()
    at = first.at
    await busts(writer, range(3))
    t, version = await writer.store.tournament(TID)
    after = writer.hub._held(TID, at, version)
    assert after is not None and len(after) == 3
    staff = sum(len(b.views.view("staff").data) for b in after)
    public = sum(len(b.views.view("public").data) for b in after)
    # The staff are shown more of each batch (the room's facts) than the public.
    assert public < staff
    monkeypatch.setattr(hub_module, "SNAPSHOT_REUSE_BYTES", (public + staff) // 2)
    # A public screen joining now is sent the snapshot built before and the three batches:
    # as the public is shown them they are few.
    later = Screen()
    await writer.hub.join(later, None, "public", packed=True)
    assert snapshots_built() == built
    assert later.kinds() == ["snapshot", "events", "events", "events"]
    assert later.seq == later.at == version and holds(later, t)
    # A staff screen is shown more of the same batches: a snapshot at the version now.
    staff_screen = Screen()
    await writer.hub.join(staff_screen, None, "staff", packed=True)
    assert snapshots_built() == {k: n + 1 for k, n in built.items()}
    assert staff_screen.kinds() == ["snapshot"] and staff_screen.at == version
    assert holds(staff_screen, t)


async def test_a_follower_of_the_process_costs_no_snapshot(writer: Process) -> None:
    class Follower(Screen):
        internal = True

    built = dict(writer.metrics.views)
    follower = Follower()
    await writer.hub.join(follower, None)
    assert follower.messages == [] and writer.metrics.views == built


def views(data: str) -> Views:
    return Views(data.encode(), "batch", Metrics())


def test_the_ring_holds_a_gapless_run_and_gives_what_a_number_misses() -> None:
    ring = Ring(max_batches=3)
    assert ring.after(0) is None
    ring.add(1, 2, views("a"))
    ring.add(3, 3, views("b"))
    ring.add(3, 3, views("echo"))  # an echo of a batch held changes nothing
    assert [b.first for b in ring.after(0) or []] == [1, 3]
    assert [b.first for b in ring.after(1) or []] == [1, 3]  # a batch half had comes whole
    assert ring.after(3) == [] and ring.after(4) is None
    ring.add(4, 4, views("c"))
    ring.add(5, 6, views("d"))  # three at most: the oldest goes
    assert ring.since == 2 and ring.after(1) is None
    ring.add(9, 9, views("e"))  # 7 and 8 were missed: the run starts again
    assert (ring.since, ring.last, len(ring)) == (8, 9, 1)


def test_the_ring_is_bounded_by_bytes_too() -> None:
    ring = Ring(max_batches=100, max_bytes=10)
    for n in range(1, 6):
        ring.add(n, n, views("xxxx"))
    assert len(ring) == 2 and ring.bytes == 8


async def test_a_gate_lets_a_few_run_some_wait_and_refuses_the_rest() -> None:
    gate = Gate(1, 1)
    release = asyncio.Event()
    assert gate.enter() and gate.enter() and not gate.enter()
    first = asyncio.ensure_future(gate.run(release.wait()))
    second = asyncio.ensure_future(gate.run(release.wait()))
    release.set()
    await asyncio.gather(first, second)
    assert gate.inside == 0 and gate.refused == 1 and gate.enter()
