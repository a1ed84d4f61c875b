"""A take through the desk's service on a real Valkey and the real command service: the
shift closed (its drawer counted) while the player was being registered takes no sale, so
the entry is withdrawn and the take refused; a retry is refused before registering."""

from __future__ import annotations

import datetime
import random
import time

import msgspec
import pytest
import redis.asyncio as aioredis

from floor.engine import commands as tc
from floor.engine.desk.identity import Identity
from floor.engine.errors import FloorError
from floor.engine.events import Event
from floor.engine.rules import Rules
from floor.engine.state import Tournament
from floor.redisdb.desk import RedisDesk
from floor.redisdb.exclusion import RedisExclusionList
from floor.redisdb.log import RedisLog
from floor.server.desk import Desk, TakeBody
from floor.server.principal import Principal
from floor.store.desk_port import ListInfo
from floor.store.outcome import Outcome
from floor.store.service import Service

RULES = msgspec.convert({"game": "holdem", "seats": 9, "final_table": 9}, Rules)
DORA = Principal(username="dora", role="desk", table=None)


class ClosingTournaments:
    """``desk.Tournaments`` on the command service, closing the shift while a registration
    is made (as a supervisor closing it on another device would)."""

    def __init__(self, service: Service, storage: RedisDesk, sid: str) -> None:
        self.service = service
        self.storage = storage
        self.sid = sid
        self.sent: list[tc.Command] = []

    async def run(
        self, tid: str, command: tc.Command, command_id: str, decided: list[Event] | None = None
    ) -> Outcome:
        self.sent.append(command)
        outcome = await self.service.execute(tid, command, command_id, decided=decided)
        if isinstance(command, tc.Register):
            await self.storage.close_shift(self.sid, 0, time.time())
        return outcome

    async def read(self, tid: str) -> Tournament:
        t, _ = await self.service.tournament(tid)
        return t

    async def events(self, tid: str, outcome: Outcome) -> list[Event] | None:
        return None

    async def ticket_value(self, ticket: str, tid: str, player: str, now: float) -> int:
        raise AssertionError("no ticket here")


async def test_a_shift_closed_during_the_registration_takes_no_sale_and_no_entry(
    redis: aioredis.Redis,
) -> None:
    service = Service(RedisLog(redis), rng=random.Random(1))
    await service.create("t1", "Test", RULES)
    lists = RedisExclusionList(redis)
    await lists.replace(set(), ListInfo(imported_at=time.time(), rows=0, by="boss"))
    storage = RedisDesk(redis, lists)
    desk = Desk(storage, lists, lists)
    shift = await desk.open_shift(DORA, "A", 0, time.time())
    ts = ClosingTournaments(service, storage, shift.id)
    body = TakeBody(
        id="take-1",
        shift=shift.id,
        tournament="t1",
        given_names="Jan",
        surname="Novák",
        identity=Identity(
            doc_type="passport",
            doc_number="X1234567",
            birth_date=datetime.date(1980, 1, 2),
            country="CZ",
        ),
        method="cash",
        amount=550,
    )
    with pytest.raises(FloorError) as refused:
        await desk.take(ts, DORA, body, time.time())
    assert refused.value.reason == "desk_shift_closed"
    # Registered, then withdrawn: nobody is in the tournament, no sale is in the shift.
    assert [type(c) for c in ts.sent] == [tc.Register, tc.Unregister]
    t = await ts.read("t1")
    assert [p for p in t.state.players.values() if not p.busted] == []
    assert await storage.entries(shift.id) == []
    report = await desk.report(shift.id)
    assert report.expected_cash == 0
    # The check was made, and is logged.
    assert [c.command for c in await storage.checks(10)] == ["take-1"]
    # A retry is refused before registering anything.
    ts.sent.clear()
    with pytest.raises(FloorError) as again:
        await desk.take(ts, DORA, body, time.time())
    assert again.value.reason == "desk_shift_closed"
    assert ts.sent == []
