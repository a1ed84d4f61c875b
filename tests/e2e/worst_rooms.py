"""The largest rooms the worst cases run against, written straight into the log.

A command at a time over HTTP, 10,000 players took minutes; here the engine decides every
command in this process (the same ``decide`` the server runs) and the events are appended
in large batches, with a snapshot at the end, as ``bench/public_reads.py`` does. The server
then loads them like any other tournament.

- ``ROOM``: 10,000 players drawn at 10-seat tables, a third busted (the plan full of moves),
  a prize with a payout row of 1,500 places, and a structure of ``LEVELS`` one-second levels
  whose clock the probes may start: its level changes come due every second.
- ``FLIGHT``: a Day 1 flight of 10,000 players whose day ended, every survivor bagged.
- ``SPARE``: a small tournament the probes may archive and change.
- the house's dealer room at its largest: ``DEALERS`` dealers clocked in, the
  room's tables dealt, ``DOWNS`` downs signed at the table screens in the pay period.
- ``CLOCK``: thirty players on the same one-second levels: a clock a benchmark may run to
  see how late each level change is written while the probes run (the room's own clock
  stays stopped: a level change a second would race every command sent to the room).
"""

from __future__ import annotations

import random
import time
from collections import defaultdict

import msgspec

from floor.engine import commands as cmd
from floor.engine.calc.payout_curve import percents, standard_table
from floor.engine.decide import decide
from floor.engine.events import Event, TournamentCreated
from floor.engine.flights import FlightRules
from floor.engine.house.dealers import MAX_DEALERS
from floor.engine.house.dealers_events import ClockedIn, DealerSaved, SignedIn, SignedOut
from floor.engine.house.dealers_sync import sync_of
from floor.engine.house.decide import decide as decide_house
from floor.engine.house.events import HouseEvent
from floor.engine.house.state import HouseState
from floor.engine.house.state import apply as apply_house
from floor.engine.prize import PayoutRow, Prize
from floor.engine.rules import Level, Rules, Structure
from floor.engine.state import Tournament
from floor.protocol import encode_event
from floor.redisdb.connection import connect
from floor.redisdb.house_log import RedisHouseLog
from floor.redisdb.log import RedisLog
from floor.store.house import HouseAppend
from floor.store.outcome import Kept
from floor.store.ports import Append, Snapshot, Summary

ROOM, FLIGHT, SPARE, CLOCK = "room", "flight", "spare", "clock"
PLAYERS = 10_000
#: One-second levels: enough for the longest run of the probes.
LEVELS = 900
FIRST = ["Jan", "Petr", "Jiří", "Tomáš", "Eva", "Jana", "Šárka", "Łukasz", "Øystein", "Zoë"]
#: One short of the most the room holds: a probe adds the last, and is refused the next.
DEALERS = MAX_DEALERS - 1
#: Downs signed at the room's table screens, all in this pay period.
DOWNS = 10_000
LAST = ["Novák", "Svoboda", "Dvořák", "Černý", "Procházka", "Müller", "García", "Smith"]


def structure() -> Structure:
    """One-second levels, late registration open to the last, and a festival's payouts."""
    payouts = (*standard_table(1_000), PayoutRow(entries=PLAYERS, percents=percents(1_500)))
    return Structure(
        name="worst-case",
        starting_stack=10_000,
        chips=(25, 100, 500, 1_000, 5_000),
        levels=tuple(
            Level(small_blind=25 * (i + 1), big_blind=50 * (i + 1), minutes=1 / 60)
            for i in range(LEVELS)
        ),
        late_registration_until=LEVELS,
        prize=Prize(currency="CZK", buy_in=1_000, fee=100, payouts=payouts),
    )


def rules() -> Rules:
    return msgspec.convert({"game": "holdem", "seats": 10, "final_table": 10}, Rules)


def name(rng: random.Random) -> str:
    return f"{rng.choice(FIRST)} {rng.choice(LAST)}"


class Builder:
    """A tournament decided here, event by event."""

    def __init__(self, tid: str, seed: int, with_structure: bool = True) -> None:
        self.rng = random.Random(seed)
        self.created = TournamentCreated(
            id=tid,
            name=tid.title(),
            rules=rules(),
            structure=structure() if with_structure else None,
            created_at=time.time(),
        )
        self.t = Tournament.create(self.created)
        self.events: list[Event] = [self.created]

    def do(self, command: cmd.Command) -> None:
        self.events += decide(self.t, command, time.time(), self.rng)

    def register(self, players: int) -> None:
        for first in range(0, players, 1_000):
            entries = tuple(
                cmd.NewEntry(name=name(self.rng), player=f"P{i}", country="CZ")
                for i in range(first, min(players, first + 1_000))
            )
            self.do(cmd.RegisterMany(entries=entries))

    def bust(self, share: float) -> None:
        for p in self.rng.sample(sorted(self.t.state.players), int(share * PLAYERS)):
            self.do(cmd.Bust(player=p))


def room() -> Builder:
    b = Builder(ROOM, 1)
    b.register(PLAYERS)
    b.do(cmd.DrawSeats())
    b.bust(1 / 3)
    return b


def flight() -> Builder:
    b = Builder(FLIGHT, 2)
    b.do(cmd.SetFlight(event="festival", order=1, rules=FlightRules(last_level=LEVELS)))
    b.register(PLAYERS)
    b.do(cmd.DrawSeats())
    b.bust(1 / 3)
    b.do(cmd.EndDay(now=True))
    tables: dict[int, list[str]] = defaultdict(list)
    for p in b.t.state.players.values():
        if not p.busted and p.table is not None:
            tables[p.table].append(p.id)
    for table, players in sorted(tables.items()):
        bags = tuple(
            cmd.Bag(player=p, stack=b.t.state.players[p].stack or 10_000, bag=f"B{p}")
            for p in players
        )
        b.do(cmd.BagTable(table=table, bags=bags))
    return b


def spare() -> Builder:
    b = Builder(SPARE, 3)
    b.register(30)
    b.do(cmd.DrawSeats())
    return b


def clock() -> Builder:
    b = Builder(CLOCK, 4)
    b.register(30)
    b.do(cmd.DrawSeats())
    return b


async def write(log: RedisLog, b: Builder) -> None:
    encoded = [encode_event(e) for e in b.events]
    tid = b.created.id
    for version in range(0, len(encoded), 1_000):
        chunk = encoded[version : version + 1_000]
        last = version + len(chunk)
        await log.append(
            tid,
            Append(
                version=version,
                command_id=f"built-{last}",
                events=chunk,
                result=Kept(ok=True, first=version + 1, last=last),
                snapshot=Snapshot(last, b.t.state) if last == len(encoded) else None,
            ),
        )
    await log.list_tournament(Summary(id=tid, name=b.created.name, created_at=b.created.created_at))


def dealers(b: Builder) -> list[HouseEvent]:
    """The house's dealer room at its largest, dealing the tables of ``b``'s room: each
    dealer saved and clocked in as events (a command each would copy a room of thousands
    for every one), then the room's tables synced (the rotation seats a dealer at each, as
    the clock driver's first round would), then downs signed at the tables."""
    now = time.time()
    state = HouseState()
    events: list[HouseEvent] = []

    def add(new: list[HouseEvent]) -> None:
        for e in new:
            apply_house(state, e)
        events.extend(new)

    add([DealerSaved(dealer=f"d{i}", name=name(b.rng), games=("holdem",)) for i in range(DEALERS)])
    add([ClockedIn(dealer=f"d{i}", at=now - 6 * 3600 + i) for i in range(DEALERS)])
    add(decide_house(state, sync_of(b.t.state, len(b.events)), now))
    dealt = [(t.key, t.dealer) for t in state.room.tables.values() if t.dealer is not None]
    rounds = DOWNS // len(dealt) + 1
    downs: list[HouseEvent] = []
    for r in range(rounds):
        for key, dealer in dealt[: DOWNS - r * len(dealt)]:
            start = now - 4 * 3600 + r * 600
            downs += [
                SignedIn(dealer=dealer, key=key, at=start),
                SignedOut(key=key, at=start + 590),
            ]
    add(downs)
    return events


async def write_house(log: RedisLog, events: list[HouseEvent]) -> None:
    house = RedisHouseLog(log)
    encoded = [msgspec.json.encode(e) for e in events]
    state = HouseState()
    for e in events:
        apply_house(state, e)
    for version in range(0, len(encoded), 1_000):
        chunk = encoded[version : version + 1_000]
        last = version + len(chunk)
        snapshot = msgspec.msgpack.encode(state) if last == len(encoded) else None
        await house.append(
            HouseAppend(
                version=version, command_id=f"built-{last}", events=chunk, snapshot=snapshot
            )
        )


async def build(redis_url: str) -> dict[str, int]:
    """Every room written to the Redis at ``redis_url``; the version of each."""
    redis = connect(redis_url)
    log = RedisLog(redis)
    versions = {}
    try:
        for make in (room, flight, spare, clock):
            b = make()
            await write(log, b)
            versions[b.created.id] = len(b.events)
            if b.created.id == ROOM:
                await write_house(log, dealers(b))
    finally:
        await redis.aclose()
    return versions
