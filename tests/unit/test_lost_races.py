"""A command that loses the race to the log is decided again, on the new state, for as long as
the races go on: two processes taking registrations at once never refuse one for a race
lost (with two workers, 4 of 400 were answered 503 "changing too fast": eight lost races
and the command was given up). Only races that go on for ``busy_after`` seconds end in
``Busy``, and then nothing of the command is written.
"""

from __future__ import annotations

import random

import msgspec
import pytest

from floor.engine import commands as cmd
from floor.engine.events import PlayerRegistered, PlayerSeated
from floor.engine.rules import Rules
from floor.protocol import decode_event
from floor.store.errors import Busy
from floor.store.memory import MemoryLog, MemoryServer
from floor.store.ports import Append, Appended, Conflict
from floor.store.service import Service

RULES = msgspec.convert({"game": "holdem", "seats": 9, "final_table": 9}, Rules)


class Raced(MemoryLog):
    """The log as one process sees it while another process's registrations land first:
    before each of this process's next ``losses`` appends, the other one writes one."""

    def __init__(self, server: MemoryServer, other: Service, losses: int | None) -> None:
        super().__init__(server)
        self.other = other
        self.losses = losses
        self.lost = 0

    async def append(self, tid: str, append: Append) -> Appended:
        if self.losses is None or self.lost < self.losses:
            n = self.lost
            outcome = await self.other.execute(
                tid, cmd.Register(name=f"Rival {n}", player=f"R{n}"), f"rival-{n}"
            )
            assert outcome.ok, outcome
        result = await super().append(tid, append)
        if isinstance(result, Conflict):
            self.lost += 1
        return result


async def drawn(store: Service, tid: str) -> None:
    await store.create(tid, "Races", RULES)
    for i in range(12):
        await store.execute(tid, cmd.Register(name=f"Player {i}", player=f"P{i}"), f"reg-{i}")
    assert (await store.execute(tid, cmd.DrawSeats(), "draw")).ok


async def test_a_registration_that_loses_twenty_races_lands_decided_on_all_of_them() -> None:
    server = MemoryServer()
    other = Service(MemoryLog(server), rng=random.Random(2))
    await drawn(other, "t1")
    log = Raced(server, other, losses=20)
    mine = Service(log, rng=random.Random(1))

    outcome = await mine.execute("t1", cmd.Register(name="Late", player="LATE"), "late")

    assert outcome.ok and not outcome.duplicate, outcome
    assert log.lost == 20
    stored = [decode_event(data) for _, data in await MemoryLog(server).read("t1", 0, 10**9)]
    registered = [e.player for e in stored if isinstance(e, PlayerRegistered)]
    assert registered[-21:] == [f"R{n}" for n in range(20)] + ["LATE"]
    assert isinstance(stored[outcome.first - 1], PlayerRegistered)
    # Decided on the rivals' registrations: seated where none of them sits.
    seats = [(e.table, e.seat) for e in stored if isinstance(e, PlayerSeated)]
    assert len(seats) == len(set(seats)) == 20 + 1
    t, version = await Service(MemoryLog(server)).tournament("t1")  # a process loading it
    assert version == outcome.last
    assert t.state.entries == 12 + 20 + 1
    occupied = [(n, s) for n, table in t.state.tables.items() for s in table.occupants]
    assert len(occupied) == len(set(occupied)) == t.state.entries


async def test_races_lost_for_longer_than_busy_after_refuse_the_command_and_write_nothing() -> None:
    server = MemoryServer()
    other = Service(MemoryLog(server), rng=random.Random(2))
    await drawn(other, "t1")
    log = Raced(server, other, losses=None)
    mine = Service(log, rng=random.Random(1), busy_after=0.2)

    with pytest.raises(Busy, match="changing too fast"):
        await mine.execute("t1", cmd.Register(name="Late", player="LATE"), "late")

    # Retried, not refused at the first loss (how many times fit in 0.2 s is the machine's).
    assert log.lost >= 2
    t, _ = await Service(MemoryLog(server)).tournament("t1")
    assert "LATE" not in t.state.players
    assert ("t1", "late") not in server.results
