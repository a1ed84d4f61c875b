"""The rotation over whole days (hypothesis): tournaments whose tables break and open as the
day goes, hand-for-hand, dealers marked sick and coming back, the dealer room's settings
random.

Throughout: no dealer is at two tables, and the room and its dealers agree on who is where;
no table plays without a dealer while a dealer who deals its game idles in the pool; every
break starts at the push that ends a dealer's ``break_every``-th down and lasts its length, or
is shortened only after ``min_rest``; early outs go in the house's order; and the day played
by a driver that is late, or a server that restarts in the middle (its state read back from
the log), is the same day.

With dealers to spare (``cover``: enough for every table to deal while every break begun
within a break's length runs), no table is ever without a dealer or waits, no break is
shortened, and every push comes exactly ``push_every`` after the last. Twice the dealers
the tables need (``needed``, which counts on breaks spread out) is not that: the pool takes
the longest waiting first, so with dealers to spare every dealer deals a down and goes to the
back of the queue, their downs go up together (the more so through a long hand-for-hand, the
pool going round the few tables left), and the whole room reaches its ``break_every``-th down
in the same round. With breaks long next to a round (4 downs of 10 minutes, breaks of 30)
that wave outlasts the pool: a break is cut short (or, with no shortening allowed, a table
waits). Hypothesis found such a day (the ``@example``); there only the rules above hold.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

import msgspec
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from floor.engine.house.dealers import RoomSettings
from floor.engine.house.dealers_commands import ClockIn, MarkDealer
from floor.engine.house.dealers_events import (
    Advanced,
    ClockedIn,
    ClockedOut,
    DealerMarked,
    Leaving,
    Released,
    Sat,
)
from floor.engine.house.events import HouseEvent
from floor.engine.house.rotation import early_order, needed
from floor.engine.house.state import HouseState, apply
from tests.unit.dealer_room import RoomSim

MIN = 60.0
DAY = 12 * 3600.0
_encode = msgspec.json.Encoder().encode
_decode = msgspec.json.Decoder(list[HouseEvent]).decode


@dataclass
class Day:
    """A day's script: the room's settings, its dealers, and what happens when."""

    settings: RoomSettings
    dealers: int
    tournaments: dict[str, int]
    #: (instant, what, argument), in time order.
    steps: list[tuple[float, str, str]] = field(default_factory=list)


@st.composite
def days(draw: st.DrawFn, ample: bool = False) -> Day:
    push = draw(st.sampled_from([10 * MIN, 20 * MIN, 30 * MIN]))
    length = draw(st.sampled_from([10 * MIN, 15 * MIN, 20 * MIN, 30 * MIN]))
    s = RoomSettings(
        push_every=push,
        break_every=draw(st.integers(2, 4)),
        break_length=length,
        min_rest=draw(st.sampled_from([0.0, length / 2, length])),
        when_short=draw(st.sampled_from(["shorten_breaks", "tables_wait"])),
        max_wait=draw(st.sampled_from([0.0, 5 * MIN, 15 * MIN])),
        early_outs=draw(st.sampled_from(["first_in", "last_in", "list"])),
        # With dealers to spare, nobody is sent home (else the room is short again).
        reserve=1000 if ample else draw(st.integers(0, 2)),
        priority=("b",) if draw(st.booleans()) else (),
    )
    tournaments = {"a": draw(st.integers(2, 8)), "b": draw(st.integers(0, 5))}
    rng = random.Random(draw(st.integers(0, 2**32)))
    kinds = ["break", "open", "h4h", "sick", "back"] if not ample else ["break", "open", "h4h"]
    steps: list[tuple[float, str, str]] = []
    at = 0.0
    for _ in range(draw(st.integers(5, 40))):
        at += rng.uniform(1, DAY / 20)
        if at > DAY:
            break
        kind = rng.choice(kinds)
        steps.append((round(at, 3), kind, rng.choice(["a", "b"]) if kind != "sick" else ""))
    most = most_tables(tournaments, steps)
    spare = draw(st.integers(0, 3))
    day = Day(settings=s, dealers=needed(most, s) + spare, tournaments=tournaments, steps=steps)
    if ample:
        day.dealers = max(needed(most, s) * 2 + spare, cover(day))
    return day


def most_tables(tournaments: dict[str, int], steps: list[tuple[float, str, str]]) -> int:
    """The most tables that play at once, as the script opens and breaks them."""
    count = dict(tournaments)
    most = sum(count.values())
    for _, kind, tid in steps:
        if kind == "open":
            count[tid] += 1
        elif kind == "break":
            count[tid] = max(0, count[tid] - 1)
        most = max(most, sum(count.values()))
    return most


def cover(day: Day) -> int:
    """Dealers enough that a push always finds one free, whatever the order of the pool: the
    most tables dealing at once, the outgoing dealer among them, plus every break that may be
    running. A break runs ``break_length`` and begins at a push (one at a time at a table,
    ``push_every`` apart, hand-for-hand only delaying them) or as its table breaks: at most
    ``ceil(break_length / push_every)`` of each table of the day, and one for each table broken.
    """
    s = day.settings
    tables = sum(day.tournaments.values()) + sum(kind == "open" for _, kind, _ in day.steps)
    broken = sum(kind == "break" for _, kind, _ in day.steps)
    per_table = math.ceil(s.break_length / s.push_every - 1e-9)
    return most_tables(day.tournaments, day.steps) + 1 + tables * per_table + broken


class Player:
    """Plays a ``Day`` into a ``RoomSim``, checking the invariants after every step."""

    def __init__(self, day: Day, *, every: float | None = None, restart: float | None = None):
        self.day = day
        self.every = every
        self.restart = restart
        self.sim = RoomSim(day.settings)
        names = [f"d{i:03d}" for i in range(day.dealers)]
        self.sim.dealers(*names)
        self.names = names
        self.playing = {tid: list(range(1, n + 1)) for tid, n in day.tournaments.items()}
        self.next_table = {tid: n + 1 for tid, n in day.tournaments.items()}
        self.held = dict.fromkeys(day.tournaments, False)
        self.rng = random.Random(7)
        for tid in self.playing:
            self.sync(tid)
        self.check()

    def sync(self, tid: str) -> None:
        before = msgspec.msgpack.decode(msgspec.msgpack.encode(self.sim.state), type=HouseState)
        start = len(self.sim.log)
        self.sim.tables(tid, self.playing[tid], held=self.held[tid])
        self.check_early_outs(before, start)

    def play(self) -> list[HouseEvent]:
        for at, kind, arg in self.day.steps:
            self.advance(at)
            self.step(kind, arg)
            self.check()
        self.advance(DAY)
        self.check()
        return self.sim.log

    def advance(self, until: float) -> None:
        if self.restart is not None and self.sim.now < self.restart <= until:
            self.sim.run_to(self.restart, every=self.every)
            self.reload()
        self.sim.run_to(until, every=self.every)

    def reload(self) -> None:
        """A server restarted: the state is what its log, read back, folds to."""
        state = HouseState()
        for e in _decode(_encode(self.sim.log)):
            apply(state, e)
        self.sim.state = state

    def step(self, kind: str, tid: str) -> None:
        sim = self.sim
        if kind == "break" and self.playing[tid]:
            self.playing[tid].pop(self.rng.randrange(len(self.playing[tid])))
            self.sync(tid)
        elif kind == "open":
            self.playing[tid].append(self.next_table[tid])
            self.next_table[tid] += 1
            self.sync(tid)
        elif kind == "h4h":
            self.held[tid] = not self.held[tid]
            self.sync(tid)
        elif kind == "sick":
            working = [d for d in sim.room.dealers.values() if d.status in ("pool", "dealing")]
            if working:
                sim.send(MarkDealer(dealer=self.rng.choice(working).id, mark="sick"))
        elif kind == "back":
            sick = [d for d in sim.room.dealers.values() if d.mark is not None]
            if sick:
                did = self.rng.choice(sick).id
                sim.send(MarkDealer(dealer=did, mark=None))
                sim.send(ClockIn(dealer=did))

    # The invariants -----------------------------------------------------------------------

    def check(self) -> None:
        room = self.sim.room
        seated = [t.dealer for t in room.tables.values() if t.dealer is not None]
        assert len(seated) == len(set(seated)), "a dealer at two tables"
        for key, table in room.tables.items():
            if table.dealer is not None:
                d = room.dealers[table.dealer]
                assert (d.status, d.table) == ("dealing", key)
        for d in room.dealers.values():
            if d.status == "dealing":
                assert d.table is not None and room.tables[d.table].dealer == d.id
            assert d.downs < room.settings.break_every or d.status in ("dealing", "off", "home")
        idle = [d for d in room.dealers.values() if d.status == "pool" and not d.leaving]
        for table in room.tables.values():
            if table.dealer is None:
                assert not [d for d in idle if d.mark is None], (
                    f"{table.key} has no dealer while {idle[0].id} idles"
                )

    def check_early_outs(self, before: HouseState, start: int) -> None:
        made = self.sim.log[start:]
        room = before.room
        # (A dealer told to leave before goes home from the broken table: not chosen now.)
        sent = list(
            dict.fromkeys(
                e.dealer
                for e in made
                if (isinstance(e, Leaving) or (isinstance(e, Released) and e.to == "home"))
                and not room.dealers[e.dealer].leaving
            )
        )
        if not sent:
            return
        # The room as it stood when the early outs were chosen: after the table's dealer
        # went back; the ones chosen are the first of the house's order.
        active = [
            d
            for d in room.dealers.values()
            if d.status in ("pool", "dealing", "break") and d.mark is None and not d.leaving
        ]
        order = [d.id for d in early_order(room, active)]
        assert sent == order[: len(sent)], (sent, order)


def _breaks_and_pushes(log: list[HouseEvent], s: RoomSettings, on_time: bool) -> None:
    """Every break starts as a dealer's ``break_every``-th down since the last ends, and is
    given whole or shortened after ``min_rest``; pushes are never late (``on_time``)."""
    downs: dict[str, int] = {}
    dealing: dict[str, bool] = {}
    started: dict[str, float] = {}
    last_push: dict[str, float] = {}
    for e in log:
        if isinstance(e, Sat):
            dealing[e.dealer] = True
            previous = last_push.get(e.key)
            if on_time and previous is not None:
                assert e.at - previous <= s.push_every + 1e-6, e
            last_push[e.key] = e.at
        elif isinstance(e, ClockedIn):
            downs[e.dealer] = 0
        elif isinstance(e, ClockedOut | DealerMarked) and dealing.get(e.dealer):
            downs[e.dealer] = downs.get(e.dealer, 0) + 1
            dealing[e.dealer] = False
        elif isinstance(e, Released):
            if dealing.get(e.dealer):
                downs[e.dealer] = downs.get(e.dealer, 0) + 1
                dealing[e.dealer] = False
            if e.to == "break":
                assert downs[e.dealer] == s.break_every, e
                assert e.until == e.at + s.break_length
                started[e.dealer] = e.at
                downs[e.dealer] = 0
            elif e.shortened:
                assert e.at - started[e.dealer] >= s.min_rest - 1e-6


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(days())
def test_a_day_keeps_every_dealer_at_one_table_and_no_dealer_idle_at_an_empty_one(
    day: Day,
) -> None:
    log = Player(day).play()
    _breaks_and_pushes(log, day.settings, on_time=False)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(days(ample=True))
@example(
    # Found by Hypothesis: twice the dealers needed, yet a break cut short (see the top).
    Day(
        settings=RoomSettings(
            push_every=600.0,
            break_every=4,
            break_length=1800.0,
            min_rest=0.0,
            when_short="shorten_breaks",
            max_wait=0.0,
            priority=(),
            early_outs="first_in",
            reserve=1000,
        ),
        dealers=18,
        tournaments={"a": 2, "b": 0},
        steps=[
            (1824.107, "open", "a"),
            (2384.108, "h4h", "b"),
            (3259.361, "open", "b"),
            (4033.389, "break", "a"),
            (4642.877, "break", "b"),
            (6775.37, "h4h", "a"),
            (7445.979, "h4h", "a"),
            (9387.57, "h4h", "b"),
            (10407.927, "break", "b"),
            (11346.304, "h4h", "a"),
            (13434.207, "open", "b"),
            (15303.411, "open", "a"),
            (17042.466, "h4h", "a"),
            (17244.84, "open", "a"),
        ],
    )
)
def test_with_dealers_to_spare_no_table_is_ever_without_one_and_pushes_are_on_time(
    day: Day,
) -> None:
    # Fewer than ``cover`` (the found day: twice the dealers needed): the rules of every day.
    spare = day.dealers >= cover(day)
    player = Player(day)
    for at, kind, arg in day.steps:
        player.advance(at)
        player.step(kind, arg)
        player.check()
        if spare:
            assert all(t.dealer is not None for t in player.sim.room.tables.values())
            assert all(t.waiting is None for t in player.sim.room.tables.values())
    player.advance(DAY)
    player.check()
    log = player.sim.log
    held_any = any(kind == "h4h" for _, kind, _ in day.steps)
    _breaks_and_pushes(log, day.settings, on_time=spare and not held_any)
    if spare:
        assert not [e for e in log if isinstance(e, Released) and e.shortened]
    # Every push at a table comes push_every after the last one there, hand-for-hand aside.
    if spare and not held_any:
        last: dict[str, float] = {}
        for e in log:
            if isinstance(e, Sat):
                if e.key in last:
                    assert abs(e.at - last[e.key] - day.settings.push_every) < 1e-6, e
                last[e.key] = e.at


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(days(), st.floats(0.1, 0.9), st.sampled_from([None, 1.0, 7 * MIN, 31 * MIN]))
def test_a_late_driver_or_a_restart_in_the_middle_changes_nothing(
    day: Day, when: float, every: float | None
) -> None:
    straight = Player(day).play()
    again = Player(day, every=every, restart=DAY * when).play()

    def made(log: list[HouseEvent]) -> list[HouseEvent]:
        return [e for e in log if not isinstance(e, Advanced)]

    assert made(again) == made(straight)
