"""The list of tournaments follows the end (the start page and the console read it there):
finished with the winner's name, live again after the last bust-out is undone, closed; an
archived tournament stays archived. On the in-memory ports, as ``test_service`` runs."""

from __future__ import annotations

import random

import msgspec

from floor.engine import commands as cmd
from floor.engine.rules import Rules
from floor.store.memory import MemoryLog, MemoryServer
from floor.store.service import Service

RULES = msgspec.convert({"game": "holdem", "seats": 9, "final_table": 9}, Rules)


async def three_seated(store: Service, tid: str) -> None:
    await store.create(tid, "Sunday", RULES)
    for name in ("Ann", "Bob", "Cy"):
        await store.execute(tid, cmd.Register(name=name, player=name.upper()))
    assert (await store.execute(tid, cmd.DrawSeats())).ok


async def listed(store: Service, tid: str, archived: bool = False) -> tuple[str, str | None]:
    summary = next(s for s in await store.summaries(archived) if s.id == tid)
    return summary.status, summary.winner


async def test_the_list_says_finished_live_again_and_closed() -> None:
    store = Service(MemoryLog(MemoryServer()), rng=random.Random(1))
    await three_seated(store, "t1")
    assert await listed(store, "t1") == ("live", None)

    await store.execute("t1", cmd.Bust(player="ANN"))
    assert await listed(store, "t1") == ("live", None)
    await store.execute("t1", cmd.Bust(player="BOB"))
    assert await listed(store, "t1") == ("finished", "Cy")

    assert (await store.execute("t1", cmd.UndoBust(player="BOB", reason="misread"))).ok
    assert await listed(store, "t1") == ("live", None)

    await store.execute("t1", cmd.Bust(player="CY"))
    assert await listed(store, "t1") == ("finished", "Bob")
    assert (await store.execute("t1", cmd.CloseTournament())).ok
    assert await listed(store, "t1") == ("closed", "Bob")

    refused = await store.execute("t1", cmd.UndoBust(player="CY", reason="too late"))
    assert not refused.ok and refused.error is not None
    assert refused.error.reason == "tournament_closed"


async def test_an_archived_tournament_that_finishes_stays_archived() -> None:
    store = Service(MemoryLog(MemoryServer()), rng=random.Random(1))
    await three_seated(store, "t2")
    await store.execute("t2", cmd.Bust(player="ANN"))
    await store.archive("t2")

    await store.execute("t2", cmd.Bust(player="BOB"))

    assert all(s.id != "t2" for s in await store.summaries())
    assert await listed(store, "t2", archived=True) == ("archived", None)
