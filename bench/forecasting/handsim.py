"""Days played hand by hand: real stacks, real blinds and antes, all-in confrontations.

The days the forecaster is checked against, made by something other than its own model. Every
table deals hands (about thirty an hour, fewer hands when more players sit) with the blinds
and antes of the level in play; a player goes all in more often the shorter their stack, and
is called by stronger hands; most hands are taken by a raise, some are fought over a pot that
now and then takes a whole stack. Players bust when their chips are gone. Nothing here knows
the forecaster's bust-out rate: the rate comes out of the stacks and the blinds.

The room is the engine's: the tournament is played through ``decide`` with the time of each
hand (the clock's levels and breaks by ``Tick``, bust-outs, late entries and re-entries, the
floor carrying out the plan: balancing, breaking, the final table), so the state a forecast
reads is what a live floor would hold, its histories and chip counts (the floor counts half
the tables at each break) included. At the bubble the room plays hand for hand: the clock is
paused and every table deals one hand per round.
"""

from __future__ import annotations

import heapq
import math
import random
from collections.abc import Callable
from dataclasses import dataclass

import msgspec

from floor.engine import clock
from floor.engine import commands as cmd
from floor.engine.autopilot import next_floor_action
from floor.engine.calc.payout_curve import standard_table
from floor.engine.decide import decide
from floor.engine.errors import RuleError
from floor.engine.events import TournamentCreated
from floor.engine.flights import FlightRules
from floor.engine.money import in_the_money
from floor.engine.prize import Prize, ReEntry
from floor.engine.rules import Level, Rules, Structure
from floor.engine.state import Tournament

#: When the day's clock starts (a Saturday, 12:00 UTC).
T0 = 1_767_182_400.0


@dataclass(frozen=True, slots=True)
class DaySpec:
    """A day to play: the field, the tables, the structure (a prize is added where it has
    none), the late entries to come, the share of bust-outs entering again."""

    players: int
    seats: int
    structure: Structure
    late_entries: int = 0
    re_entry_share: float = 0.0
    flight: FlightRules | None = None
    seed: int = 1
    #: The share of the field paid.
    paid: float = 0.15


def with_money(structure: Structure, entries: int, paid: float, re_entry: bool) -> Structure:
    prize = Prize(
        currency="EUR",
        buy_in=100,
        payouts=standard_table(max(2, entries * 3), paid),
        re_entry=ReEntry() if re_entry else None,
    )
    return msgspec.structs.replace(structure, prize=prize)


class Day:
    """One day, played forward hand by hand (``play_until``)."""

    def __init__(self, spec: DaySpec) -> None:
        self.spec = spec
        self.rng = random.Random(spec.seed)
        self.engine_rng = random.Random(spec.seed * 7919 + 1)
        structure = spec.structure
        if structure.prize is None or (
            spec.re_entry_share > 0 and structure.prize.re_entry is None
        ):
            structure = with_money(structure, spec.players, spec.paid, spec.re_entry_share > 0)
        rules = Rules(game="holdem", seats=spec.seats, final_table=min(9, spec.seats))
        self.t = Tournament.create(
            TournamentCreated(
                id=f"day{spec.seed}", name=f"Day {spec.seed}", rules=rules, structure=structure
            )
        )
        self.now = T0 - 600.0
        self.stacks: dict[str, int] = {}
        self.names: dict[str, str] = {}
        self.next_id = 0
        for _ in range(spec.players):
            self._enter(None)
        self.do(cmd.DrawSeats())
        if spec.flight is not None:
            self.do(cmd.SetFlight(event="sim", order=1, rules=spec.flight))
        self.now = T0
        self.do(cmd.ClockStart())
        self.buttons: dict[int, int] = {}
        self.queue: list[tuple[float, int]] = []
        self.scheduled: set[int] = set()
        self._schedule_tables()
        # New players come while late registration is open, more of them in its last level.
        self.next_entry = self._next_entry()
        self.hands = 0
        #: Players of the hand-for-hand round's hands, settled together when it is over.
        self.pending: list[str] = []
        #: When the bubble burst (the engine's ``in_the_money``), looked for only near it.
        self.money_at: float | None = None

    # The room ------------------------------------------------------------------------------

    def do(self, command: cmd.Command) -> None:
        decide(self.t, command, self.now, self.engine_rng)
        while (action := next_floor_action(self.t, self.engine_rng)) is not None:
            decide(self.t, action, self.now, self.engine_rng)

    def _enter(self, pid: str | None) -> bool:
        if pid is None:
            self.next_id += 1
            pid = f"P{self.next_id:05d}"
            self.names[pid] = f"Player {self.next_id}"
        try:
            self.do(cmd.Register(name=self.names[pid], player=pid))
        except RuleError:
            return False
        structure = self.t.state.structure
        assert structure is not None
        self.stacks[pid] = structure.starting_stack
        return True

    def _schedule_tables(self) -> None:
        for table in self.t.open_tables():
            if table.number not in self.scheduled and table.count >= 2:
                self.scheduled.add(table.number)
                heapq.heappush(self.queue, (self.now + self.rng.uniform(0, 120), table.number))

    def _late_open(self) -> bool:
        s = self.t.state
        structure = s.structure
        assert structure is not None
        until = structure.late_registration_until
        if until is None or self.spec.late_entries <= 0:
            return False
        number, _ = structure.level_played(s.clock.level)
        return number <= until

    def _late_hours(self) -> float:
        structure = self.t.state.structure
        assert structure is not None
        until = structure.late_registration_until or 0
        end = structure.level_index(until) if until else -1
        return sum(s.minutes for s in structure.levels[: end + 1]) / 60.0

    def _next_entry(self) -> float:
        if not self._late_open():
            return math.inf
        rate = self.spec.late_entries / max(0.25, self._late_hours())  # per hour
        s = self.t.state
        structure = s.structure
        assert structure is not None
        number, _ = structure.level_played(s.clock.level)
        if number == structure.late_registration_until:
            rate *= 2.0
        return self.now + self.rng.expovariate(rate / 3600.0)

    def level(self) -> Level | None:
        s = self.t.state
        assert s.structure is not None
        step = s.structure.levels[s.clock.level]
        return step if isinstance(step, Level) else None

    @property
    def left(self) -> int:
        return self.t.active

    def over(self) -> bool:
        s = self.t.state
        return s.winner is not None or s.day_ended is not None

    # Playing ---------------------------------------------------------------------------------

    def play_until(self, done: Callable[[Day], bool], limit: float = 48 * 3600.0) -> bool:
        """Play on until ``done(self)`` (True) or the day is over or ``limit`` seconds pass."""
        stop = T0 + limit
        while not done(self):
            if self.over() or self.now > stop:
                return False
            self._next()
        return True

    def _next(self) -> None:
        s = self.t.state
        ends = s.clock.ends_at if s.clock.running else None
        level_end = (
            ends
            if ends is not None and s.structure and s.clock.level + 1 < len(s.structure.levels)
            else math.inf
        )
        hand_at = self.queue[0][0] if self.queue else math.inf
        when = min(level_end, hand_at, self.next_entry)
        if when == math.inf:
            raise RuntimeError("nothing left to happen: the day cannot go on")
        self.now = max(self.now, when)
        if when == level_end:
            self.do(cmd.Tick())
            if self.level() is None:
                self._count_tables()
            if self.next_entry == math.inf or not self._late_open():
                self.next_entry = self._next_entry()
            return
        if when == self.next_entry:
            self._enter(None)
            self._schedule_tables()
            self.next_entry = self._next_entry()
            return
        _, number = heapq.heappop(self.queue)
        self.scheduled.discard(number)
        table = self.t.state.tables.get(number)
        if table is None or table.status != "open" or table.count < 2:
            return
        if self.level() is None:
            # A break: the table deals again when it ends.
            resume = (s.clock.ends_at or self.now) + self.rng.uniform(0, 90)
            self._push(number, resume)
            return
        if self._bubble():
            self._hand_for_hand()
            return
        self._deal(number)
        self._schedule_tables()
        if number in self.t.state.tables and self.t.state.tables[number].status == "open":
            self._push(number, self.now + self._duration(self.t.state.tables[number].count))

    def _push(self, number: int, at: float) -> None:
        if number not in self.scheduled:
            self.scheduled.add(number)
            heapq.heappush(self.queue, (at, number))

    def _duration(self, players: int) -> float:
        return (40.0 + 9.0 * players) * self.rng.uniform(0.7, 1.3)

    def _count_tables(self) -> None:
        """At a break the floor counts half the tables."""
        for table in list(self.t.open_tables()):
            if table.count and self.rng.random() < 0.5:
                stacks = tuple(
                    cmd.Count(player=pid, stack=self.stacks[pid])
                    for pid in table.occupants.values()
                )
                self.do(cmd.CountTable(table=table.number, stacks=stacks[:12], at=self.now))

    def _places(self) -> int:
        """The places paid now (``places_paid``, without working out every prize)."""
        s = self.t.state
        prize = s.structure.prize if s.structure is not None else None
        if prize is None:
            return 0
        rows = [row for row in prize.payouts if row.entries <= s.entries]
        return len(rows[-1].percents) if rows else 0

    def _bubble(self) -> bool:
        paid = self._places()
        return (
            paid > 0
            and self.t.state.entries > paid
            and self.money_at is None
            and self.t.active == paid + 1
            and sum(1 for tb in self.t.open_tables() if tb.count >= 2) >= 2
        )

    def _hand_for_hand(self) -> None:
        """The clock paused, one hand per table per round, until the bubble bursts."""
        if self.t.state.clock.running:
            self.do(cmd.ClockPause())
        while self._bubble():
            tables = [tb.number for tb in self.t.open_tables() if tb.count >= 2]
            longest = max(self._duration(self.t.state.tables[n].count) for n in tables)
            self.now += longest + 30.0
            for n in tables:
                if n in self.t.state.tables and self.t.state.tables[n].count >= 2:
                    self._deal(n, settle=False)
            self._settle(self.pending)
            self.pending = []
        if self.t.state.clock.started and not self.t.state.clock.running and not self.over():
            self.do(cmd.ClockResume())
        self._schedule_tables()

    # A hand ----------------------------------------------------------------------------------

    def _deal(self, number: int, settle: bool = True) -> None:
        level = self.level()
        if level is None:
            return
        table = self.t.state.tables[number]
        seats = sorted(table.occupants)
        players = [table.occupants[s] for s in seats]
        n = len(players)
        if n < 2:
            return
        self.hands += 1
        rng = self.rng
        stacks = self.stacks
        button = (self.buttons.get(number, rng.randrange(n)) + 1) % n
        self.buttons[number] = button
        sb_i = button if n == 2 else (button + 1) % n
        bb_i = (sb_i + 1) % n
        put = dict.fromkeys(players, 0)

        def post(pid: str, amount: int) -> None:
            paid = min(amount, stacks[pid] - put[pid])
            put[pid] += paid

        if level.ante:
            if level.big_blind_ante:
                post(players[bb_i], level.ante)
            else:
                for pid in players:
                    post(pid, level.ante)
        post(players[sb_i], level.small_blind)
        post(players[bb_i], level.big_blind)
        bb = level.big_blind
        order = [players[(bb_i + 1 + i) % n] for i in range(n)]
        shover = None
        for pid in order:
            depth = stacks[pid] / bb
            if rng.random() < _shove_chance(depth):
                shover = pid
                break
        if shover is not None:
            callers = [
                pid
                for pid in order
                if pid != shover
                and stacks[pid] > put[pid]
                and rng.random() < _call_chance(stacks[shover] / bb, stacks[pid] / stacks[shover])
            ][:2]
            if not callers:
                self._win(shover, put)
            else:
                everyone = [shover, *callers]
                cap = max(stacks[p] for p in callers)
                for pid in everyone:
                    put[pid] = min(stacks[pid], max(put[pid], min(cap, stacks[shover])))
                strength = {shover: rng.random()}
                for pid in callers:
                    strength[pid] = rng.random() ** 0.6  # a caller holds the stronger hand
                self._showdown(put, strength)
        elif rng.random() < 0.55:
            self._win(rng.choice(order), put)
        else:
            a, b = rng.sample(players, 2)
            fight = bb * math.exp(rng.gauss(math.log(6.0), 1.0))
            most = min(stacks[a], stacks[b])
            amount = int(min(most, max(put[a], put[b], fight)))
            put[a] = max(put[a], amount)
            put[b] = max(put[b], amount)
            self._showdown(put, {a: rng.random(), b: rng.random()})
        if settle:
            self._settle(players)
        else:
            self.pending.extend(players)

    def _win(self, winner: str, put: dict[str, int]) -> None:
        for pid, amount in put.items():
            self.stacks[pid] -= amount
        self.stacks[winner] += sum(put.values())

    def _showdown(self, put: dict[str, int], strength: dict[str, float]) -> None:
        """The pots layer by layer, each to the strongest hand that put that much in; what
        nobody in the hand matched goes to the strongest of the rest (dead money)."""
        for pid, amount in put.items():
            self.stacks[pid] -= amount
        levels = sorted({put[p] for p in strength})
        below = 0
        for level in levels:
            layer = sum(min(amount, level) - min(amount, below) for amount in put.values())
            eligible = [p for p in strength if put[p] >= level]
            winner = max(eligible, key=strength.__getitem__)
            self.stacks[winner] += layer
            below = level
        rest = sum(max(0, amount - below) for amount in put.values())
        if rest:
            self.stacks[max(strength, key=strength.__getitem__)] += rest

    def _settle(self, players: list[str]) -> None:
        """Players without chips are out, reported to the floor; some enter again."""
        out = [pid for pid in players if self.stacks.get(pid, 1) <= 0]
        for pid in out:
            if self.over():
                break
            if self.t.active <= 1:
                break
            del self.stacks[pid]
            self.do(cmd.Bust(player=pid))
            if self.rng.random() < self.spec.re_entry_share:
                self._enter(pid)
            if self.money_at is None and self.t.active <= self._places():
                money = in_the_money(self.t)
                self.money_at = money.at if money is not None else None
        self._schedule_tables()


def _shove_chance(depth: float) -> float:
    if depth < 8:
        return 0.30
    if depth < 15:
        return 0.12
    if depth < 25:
        return 0.05
    if depth < 50:
        return 0.015
    return 0.005


def _call_chance(shover_depth: float, relative: float) -> float:
    """A call of a shove: more often against a short shove, by a stack that covers it."""
    base = 0.10 if shover_depth > 15 else 0.16
    return base * (1.3 if relative >= 1 else 0.8)


def money_reached(day: Day) -> bool:
    return day.money_at is not None


def at_level(number: int) -> Callable[[Day], bool]:
    """Done once the clock reaches level ``number``."""

    def done(day: Day) -> bool:
        s = day.t.state
        assert s.structure is not None
        played, on_break = s.structure.level_played(s.clock.level)
        return played >= number and not on_break

    return done


def step_of(day: Day) -> int:
    return clock.current_step(day.t.state, day.now)
