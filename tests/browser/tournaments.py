"""Random tournaments played through ``decide``: every kind of command, refusals skipped.

``play`` gives the event log in batches, one batch per command that was accepted, as the
server writes and sends them. Used by the fold parity test (the page's fold against the
engine's) and by the derived facts tests (the facts against what ``decide`` accepts).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import msgspec

from floor.engine import chain, day2, fair
from floor.engine import commands as cmd
from floor.engine.alternates_model import Capacity
from floor.engine.autopilot import next_floor_action
from floor.engine.deal import facts as deal_facts
from floor.engine.decide import decide
from floor.engine.errors import RuleError
from floor.engine.events import Event, MoveCancelled, TableSetUp, TournamentCreated
from floor.engine.fair_rng import FairRng
from floor.engine.flights import FlightRules
from floor.engine.planner import housekeep
from floor.engine.rules import Break, Rules, Structure
from floor.engine.state import Tournament
from floor.protocol import encode_event

#: Money, a colour-up break, rebuys with a stack limit, an add-on at the break, re-entries.
MONEY: dict[str, Any] = {
    "name": "parity-money",
    "starting_stack": 10_000,
    "chips": [25, 100, 500, 1000],
    "levels": [
        {"type": "level", "small_blind": 25, "big_blind": 50, "minutes": 10},
        {"type": "level", "small_blind": 50, "big_blind": 100, "minutes": 10},
        {"type": "break", "minutes": 10, "color_up": [25], "name": "Colour-up"},
        {"type": "level", "small_blind": 100, "big_blind": 200, "ante": 200, "minutes": 10},
        {"type": "level", "small_blind": 200, "big_blind": 400, "minutes": 10},
        {"type": "break", "minutes": 5, "color_up": [100]},
        {"type": "level", "small_blind": 500, "big_blind": 1000, "minutes": 10},
    ],
    "late_registration_until": 3,
    "prize": {
        "currency": "CZK",
        "buy_in": 1000,
        "fee": 100,
        "round_to": 10,
        "rebuy": {"price": 1000, "chips": 10_000, "until_level": 2, "max_per_player": 2,
                  "max_stack": 10_000},
        "add_on": {"price": 500, "chips": 5_000, "level": 2},
        "re_entry": {"max_per_player": 1, "until_level": 3},
        "payouts": [{"entries": 2, "percents": [100]}, {"entries": 10, "percents": [50, 30, 20]}],
    },
}  # fmt: skip

#: A mixed game: the rotation follows the levels, and the director may change the game.
MIXED: dict[str, Any] = {
    "name": "parity-mixed",
    "starting_stack": 5_000,
    "chips": [25, 100],
    "levels": [
        {"type": "level", "small_blind": 25, "big_blind": 50, "minutes": 8, "game": "holdem"},
        {"type": "level", "small_blind": 50, "big_blind": 100, "minutes": 8, "game": "stud",
         "bring_in": 25},
        {"type": "break", "minutes": 5},
        {"type": "level", "small_blind": 100, "big_blind": 200, "minutes": 8, "game": "omaha"},
    ],
}  # fmt: skip

NAMES = [
    "Jiří Dvořák", "Tomáš Novák", "Eva Svobodová", "Weiß Günther", "Ærøskøbing Ólafur",
    "Łukasz Żółć", "Σοφία Παπαδοπούλου", "Иван Петров", "Anna Smith", "O'Brien Ñúñez",
]  # fmt: skip


class Game:
    """One tournament being played: the engine's state, the log in batches, the clock."""

    def __init__(self, seed: int, rules: dict[str, Any], structure: dict[str, Any] | None):
        self.rng = random.Random(seed)
        self.now = 1_700_000_000.0
        r = msgspec.convert(rules, Rules)
        st = None if structure is None else msgspec.convert(structure, Structure)
        created = TournamentCreated(
            id=f"g{seed}", name=f"Game {seed}", rules=r, structure=st, created_at=self.now
        )
        self.t = Tournament.create(created)
        self.batches: list[list[Event]] = [[created]]
        self.refused = 0

    @property
    def log(self) -> list[Event]:
        return [e for batch in self.batches for e in batch]

    def do(self, command: cmd.Command) -> bool:
        try:
            events = decide(self.t, command, self.now, self.rng)
        except RuleError:
            self.refused += 1
            return False
        if events:
            self.batches.append(events)
        return True

    def put(self, *events: Event) -> None:
        """Events written as such (an import, an old log), then what they make due."""
        for e in events:
            self.t.apply(e)
        self.batches.append([*events, *housekeep(self.t, self.rng)])

    # Picking -----------------------------------------------------------------------------

    def seated(self) -> list[str]:
        return sorted(p.id for p in self.t.state.players.values() if p.table is not None)

    def busted(self) -> list[str]:
        return sorted(p.id for p in self.t.state.players.values() if p.busted)

    def tables(self, status: str = "open") -> list[int]:
        return sorted(n for n, tb in self.t.state.tables.items() if tb.status == status)

    def pick(self, items: list[Any]) -> Any:
        return self.rng.choice(items) if items else None


def _actions(g: Game) -> list[tuple[int, Callable[[], cmd.Command | None]]]:
    t = g.t
    s = t.state
    rng = g.rng

    def player_cmd(make: Callable[[str], cmd.Command]) -> Callable[[], cmd.Command | None]:
        return lambda: None if not g.seated() else make(g.pick(g.seated()))

    def bust_same_hand() -> cmd.Command | None:
        tables = [n for n in g.tables() if s.tables[n].count >= 3]
        if not tables:
            return None
        pids = rng.sample(sorted(s.tables[g.pick(tables)].occupants.values()), 2)
        stack = rng.choice([None, 1000, 2000])
        return cmd.BustSameHand(
            players=tuple(
                cmd.Busted(
                    player=p,
                    stack=stack or rng.choice([1000, 3000]),
                    eliminators=pot_winners(p, pids),
                )
                for p in pids
            )
        )

    def bounties() -> bool:
        return (
            s.structure is not None
            and s.structure.prize is not None
            and (s.structure.prize.bounty is not None)
        )

    def pot_winners(pid: str, out: list[str]) -> tuple[str, ...]:
        """In a bounty tournament, one or two of the players at ``pid``'s table not out in
        the hand, as the winners of the pot (no random draw otherwise: the other games play
        as before bounties)."""
        p = s.players[pid]
        if not bounties() or p.table is None:
            return ()
        mates = sorted(x for x in s.tables[p.table].occupants.values() if x not in out)
        return tuple(rng.sample(mates, min(len(mates), rng.choice([1, 1, 1, 2]))))

    def bust(pid: str) -> cmd.Command:
        return cmd.Bust(player=pid, eliminators=pot_winners(pid, [pid]))

    def pay() -> cmd.Command | None:
        owed = [p.id for p in s.players.values() if p.bounty and p.bounty.won > p.bounty.paid]
        return cmd.PayBounty(player=g.pick(sorted(owed))) if owed else None

    def undo() -> cmd.Command | None:
        # Mostly the latest bust-out (still open to dispute), now and then an older one.
        out = [p for p in s.players.values() if p.busted and p.bust is not None]
        if not out:
            return None
        out.sort(key=lambda p: (p.bust.at if p.bust else 0.0, p.id))
        p = out[-1] if rng.random() < 0.7 else g.pick(out)
        return cmd.UndoBust(player=p.id, reason="dispute")

    def register() -> cmd.Command:
        n = len(s.players)
        return cmd.Register(name=f"{rng.choice(NAMES)} {n}", special_needs=rng.random() < 0.1)

    def re_enter() -> cmd.Command | None:
        pid = g.pick(g.busted())
        return None if pid is None else cmd.Register(name=s.players[pid].name, player=pid)

    def cancel() -> cmd.Command | None:
        moves = [m.player for m in t.plan.moves if m.player is not None]
        return None if not moves else cmd.Cancel(player=g.pick(sorted(moves)))

    def redirect() -> cmd.Command | None:
        moves = [m for m in t.plan.moves if m.player is not None]
        if not moves:
            return None
        m = g.pick(moves)
        return cmd.Confirm(player=m.player, seat=rng.randint(1, s.tables[m.to.table].seats))

    def call_move() -> cmd.Command | None:
        # As planned, or (now and then) to another seat: a call again when already called.
        m = g.pick([m for m in t.plan.moves if m.player is not None])
        if m is None or m.player is None:
            return None
        seat = None if rng.random() < 0.7 else rng.randint(1, s.tables[m.to.table].seats)
        return cmd.CallMove(player=m.player, seat=seat)

    def correct() -> cmd.Command | None:
        pid, n = g.pick(g.seated()), g.pick(g.tables())
        if pid is None or n is None:
            return None
        return cmd.CorrectSeat(player=pid, table=n, seat=rng.randint(1, s.tables[n].seats))

    def chip_race() -> cmd.Command | None:
        n = g.pick([x for x in g.tables() if s.tables[x].count] + g.tables("breaking"))
        if n is None or s.structure is None:
            return None
        step = s.structure.levels[s.clock.level]
        leaving = None if isinstance(step, Break) and step.color_up else 25
        counts = tuple(
            cmd.RaceCount(seat=seat, chips=rng.randint(0, 7))
            for seat in sorted(s.tables[n].occupants)
        )
        return cmd.ChipRace(table=n, seats=counts, leaving=leaving)

    def call_time() -> cmd.Command | None:
        n = g.pick(g.tables())
        if n is None or not s.tables[n].occupants:
            return None
        return cmd.CallTime(table=n, seat=g.pick(sorted(s.tables[n].occupants)))

    def end_time() -> cmd.Command | None:
        c = g.pick(s.time_calls)
        outcome = rng.choice(["acted", "dead", "cancelled"])
        return None if c is None else cmd.EndTimeCall(table=c.table, seat=c.seat, outcome=outcome)

    def table_cmd(make: Callable[[int], cmd.Command]) -> Callable[[], cmd.Command | None]:
        return lambda: None if not g.tables() else make(g.pick(g.tables()))

    def ruling() -> cmd.Command | None:
        n = g.pick(g.tables())
        if n is None or not s.tables[n].occupants:
            return None
        pid = g.pick(sorted(s.tables[n].occupants.values()))
        kind = rng.choice(["warning", "sit_out", "sit_out", "disqualification"])
        if kind == "disqualification" and rng.random() < 0.7:
            kind = "warning"
        hands = rng.choice([None, 1, 2]) if kind == "sit_out" else None
        minutes = (None if hands else rng.choice([1, 10])) if kind == "sit_out" else None
        given = cmd.Penalty(player=pid, kind=kind, hands=hands, minutes=minutes)  # type: ignore[arg-type]
        at = None if rng.random() < 0.8 else max(0.0, g.now - 120)
        return cmd.RecordRuling(table=n, players=(pid,), note="r", penalties=(given,), at=at)

    def money_change() -> cmd.Command | None:
        prize = s.structure.prize if s.structure is not None else None
        if prize is None:
            return None
        guarantee = rng.choice([0, 5_000, 20_000])
        return cmd.SetPrize(prize=msgspec.structs.replace(prize, guarantee=guarantee))

    def structure_change() -> cmd.Command | None:
        if s.structure is None:
            return None
        *head, last = s.structure.levels
        later = msgspec.structs.replace(last, minutes=rng.choice([10.0, 15.0, 20.0]))
        bare = msgspec.structs.replace(s.structure, prize=None, levels=(*head, later))
        return cmd.SetStructure(structure=bare)

    def end_sit_out() -> cmd.Command | None:
        x = g.pick(s.rulings.sit_outs)
        return None if x is None else cmd.EndSitOut(player=x.player)

    def hand_done() -> cmd.Command | None:
        n = g.pick(g.tables())
        if n is None:
            return None
        seats = sorted(s.tables[n].occupants)
        out = rng.sample(seats, min(len(seats) - 1, rng.choice([0, 0, 1, 2])))
        stacks = (cmd.SeatOut(seat=x, stack=rng.choice([None, 800, 3000])) for x in out)
        return cmd.HandDone(table=n, out=tuple(stacks))

    return [
        (14, lambda: next_floor_action(t, rng)),
        (1, lambda: cmd.StartHandForHand()),
        (4, hand_done),
        (1, lambda: cmd.EndHandForHand()),
        (8, table_cmd(lambda n: cmd.Hand(table=n))),
        (5, player_cmd(bust)),
        (2, bust_same_hand),
        (3, undo),
        (2, register),
        (2, re_enter),
        (2, cancel),
        (1, redirect),
        (1, call_move),
        (1, lambda: cmd.CallAll(reason=rng.choice(["balance", "break", "final"]))),
        (1, correct),
        (1, player_cmd(lambda p: cmd.RenamePlayer(player=p, name=f"{rng.choice(NAMES)} R"))),
        (1, player_cmd(lambda p: cmd.SetSpecialNeeds(player=p, special_needs=rng.random() < 0.5))),
        (1, player_cmd(lambda p: cmd.Unregister(player=p))),
        (2, player_cmd(lambda p: cmd.LockSeat(player=p, locked=rng.random() < 0.7))),
        (2, table_cmd(lambda n: cmd.Button(table=n, seat=rng.randint(1, s.tables[n].seats)))),
        (1, table_cmd(lambda n: cmd.WaiveHalt(table=n, waived=rng.random() < 0.7))),
        (1, table_cmd(lambda n: cmd.BreakTable(table=n))),
        (1, lambda: cmd.StartFinal() if t.active <= s.rules.final_table + 3 else None),
        (1, lambda: cmd.OpenTable() if rng.random() < 0.3 else None),
        (1, lambda: cmd.SetGame(game=rng.choice(["holdem", "omaha", "stud", "razz"]))),
        (3, player_cmd(lambda p: cmd.SetStack(player=p, stack=rng.choice([0, 500, 8000, 25000])))),
        (3, player_cmd(lambda p: cmd.Rebuy(player=p))),
        (3, player_cmd(lambda p: cmd.AddOn(player=p))),
        (2, chip_race),
        (2, lambda: cmd.ClockStart()),
        (1, lambda: cmd.ClockPause()),
        (2, lambda: cmd.ClockResume()),
        (1, lambda: cmd.ClockAdjust(seconds=rng.choice([-120.0, 60.0, 300.0]))),
        (1, lambda: cmd.ClockLevel(step=rng.choice([-1, 1]))),
        (1, lambda: cmd.ClockLevel(to=rng.randint(0, len(s.structure.levels) - 1)))
        if s.structure is not None
        else (0, lambda: None),
        (4, lambda: cmd.Tick()),
        (2, call_time),
        (2, end_time),
        (2, ruling),
        (1, end_sit_out),
        (1, money_change),
        (1, structure_change),
        # Refused until a winner is left; then the undo above may still come first.
        (1, lambda: cmd.CloseTournament()),
        *([(3, pay)] if bounties() else []),
    ]


def count_sheet(g: Game, rng: random.Random) -> cmd.Command | None:
    """A count sheet of some seats of a table; now and then one counted a while ago (refused
    where a stack was counted since)."""
    s = g.t.state
    tables = [x for x in g.tables() if s.tables[x].count]
    if not tables:
        return None
    n = rng.choice(tables)
    seated = sorted(s.tables[n].occupants.values())
    counted = rng.sample(seated, rng.randint(1, len(seated)))
    stacks = tuple(cmd.Count(player=p, stack=rng.choice([800, 9000, 31000])) for p in counted)
    at = None if rng.random() < 0.7 else max(0.0, g.now - 300)
    return cmd.CountTable(table=n, stacks=stacks, at=at)


def play(
    seed: int,
    *,
    players: int = 40,
    rules: dict[str, Any] | None = None,
    structure: dict[str, Any] | None = MONEY,
    set_up: bool = False,
    steps: int = 400,
) -> Game:
    """A tournament of ``players`` (drawn, or set up at tables as a scenario does) played
    for ``steps`` random commands, the clock moving on by up to four minutes between them."""
    g = Game(seed, rules or {"game": "holdem", "seats": 9, "final_table": 9}, structure)
    t = g.t
    if set_up:
        seats = t.rules.seats
        tables = max(2, -(-players // (seats - 1)))
        for n in range(1, tables + 1):
            occupied = g.rng.sample(range(1, seats + 1), min(seats - 1, players))
            players -= len(occupied)
            g.put(TableSetUp(table=n, seats=seats, occupants={x: f"T{n}S{x}" for x in occupied}))
        # An old log's cancel that named nobody: folded as nothing.
        g.put(MoveCancelled(player=None, table=1, reason="balance"))
    else:
        for i in range(players):
            name = g.rng.choice(NAMES)
            g.do(cmd.Register(name=f"{name} {i}", special_needs=g.rng.random() < 0.05))
        g.do(cmd.DrawSeats())
    actions = _actions(g)
    weights = [w for w, _ in actions]
    # Counts from a random source of their own: the games play as they did before counts.
    counting = random.Random(seed + 7_000)
    for _ in range(steps):
        if t.state.closed_at is not None:
            break
        _, make = g.rng.choices(actions, weights)[0]
        command = make()
        if command is not None:
            g.do(command)
        if counting.random() < 0.03 and (sheet := count_sheet(g, counting)) is not None:
            g.do(sheet)
        g.now += g.rng.choice([0.0, 1.0, 5.0, 30.0, 90.0, 240.0])
    return g


def flight_day(seed: int) -> Game:
    """A flight of an event played for a while, its day ended, every table bagged (one
    sheet corrected, with its reason)."""
    g = play(seed, players=60, steps=150)
    rules = msgspec.convert({"last_level": 9, "chip_tolerance": 500}, FlightRules)
    g.do(cmd.SetFlight(event="main", order=1, rules=rules))
    g.do(cmd.EndDay(now=True))
    s = g.t.state
    for n in g.tables():
        seated = [pid for _, pid in sorted(s.tables[n].occupants.items())]
        if not seated:
            continue
        bags = tuple(
            cmd.Bag(player=p, stack=g.rng.choice([900, 12_000]), bag=f"{n}-{p}") for p in seated
        )
        g.do(cmd.BagTable(table=n, bags=bags, chips_on_table=sum(b.stack for b in bags)))
        g.now += 30.0
    first = min(s.bags)
    again = tuple(msgspec.structs.replace(b, stack=b.stack + 100) for b in s.bags[first].bags)
    bags = tuple(cmd.Bag(player=b.player, stack=b.stack, bag=b.bag) for b in again)
    g.do(cmd.BagTable(table=first, bags=bags, reason="recounted"))
    return g


def day2_game(seed: int) -> Game:
    """Day 2 of two flights, from its first events on, played for a while."""
    flights = []
    for order in (1, 2):
        g = flight_day(seed + order)
        flights.append(day2.flight_of(g.t))
    structure = msgspec.convert(MONEY, Structure)
    g = Game(seed, {"game": "holdem", "seats": 9, "final_table": 9}, MONEY)
    created = g.batches[0][0]
    assert isinstance(created, TournamentCreated)
    # The flights' random bags miss the chips that must exist: the director goes on anyway.
    failed = tuple(f.id for f in flights if f.check_failed is not None)
    word = day2.Acknowledgement(reason="recounted: the racks were short", flights=failed or ("-",))
    plan = day2.plan(flights, "best", created.rules, g.rng, structure, word)
    assert plan.checks, "a failed chip check, for the fold to carry"
    g.put(*day2.first_events(created, plan, 1, g.now, by="boss")[1:])
    actions = _actions(g)
    weights = [w for w, _ in actions]
    for _ in range(150):
        _, make = g.rng.choices(actions, weights)[0]
        if (command := make()) is not None:
            g.do(command)
        g.now += g.rng.choice([0.0, 5.0, 90.0])
    return g


def deal_game(seed: int, *, left_share: int, undo: bool = False) -> Game:
    """Ten entries at one table down to three, counted after the last hand, and a deal made
    on ICM: with ``left_share`` tenths of what may be left to play for kept back, play goes on
    to the winner; with none, the deal ends the tournament and the director closes it."""
    g = Game(seed, {"game": "holdem", "seats": 10, "final_table": 10}, MONEY)
    for i in range(10):
        assert g.do(cmd.Register(name=f"{g.rng.choice(NAMES)} {i}"))
    assert g.do(cmd.DrawSeats()) and g.do(cmd.ClockStart())
    (n,) = g.tables()
    table = g.t.state.tables[n]
    assert g.do(cmd.Button(table=n, seat=min(table.occupants)))
    for p in g.seated()[:7]:
        assert g.do(cmd.Bust(player=p))
        g.now += 30.0
    assert g.do(cmd.Hand(table=n))
    g.now += 60.0
    stacks = tuple(
        cmd.Count(player=p, stack=s)
        for p, s in zip(g.seated(), (52_000, 31_000, 17_000), strict=True)
    )
    assert g.do(cmd.CountTable(table=n, stacks=stacks))
    g.now += 30.0
    assert g.do(cmd.ProposeDeal(method="chip_chop"))
    offered = deal_facts(g.t)
    assert offered is not None
    most = offered.most_left
    assert g.do(cmd.ProposeDeal(method="icm", left_to_play=most * left_share // 10))
    offer = g.t.state.deal_offer
    assert offer is not None
    assert g.do(cmd.MakeDeal(agreed=tuple(x.player for x in offer.shares)))
    if undo:
        # Made by mistake: taken back, and made again on the same stacks.
        assert g.do(cmd.UndoDeal(reason="a share was typed wrong"))
        assert g.do(cmd.ProposeDeal(method="chip_chop", left_to_play=offer.left_to_play))
        again = g.t.state.deal_offer
        assert again is not None
        assert g.do(cmd.MakeDeal(agreed=tuple(x.player for x in again.shares)))
    if left_share:
        for p in g.seated()[:2]:
            g.now += 60.0
            assert g.do(cmd.Hand(table=n))
            assert g.do(cmd.Bust(player=p))
    assert g.do(cmd.CloseTournament())
    return g


#: ``MONEY`` as a progressive knockout: half of each buy-in and a rebuy's to bounties, paid at
#: the cashier.
BOUNTY: dict[str, Any] = {
    **MONEY,
    "name": "parity-bounty",
    "prize": {
        **MONEY["prize"],
        "bounty": {"kind": "progressive", "part": 500, "rebuy_part": 250, "paid_at": "cashier"},
    },
}


def alternates_game(seed: int) -> Game:
    """A flight of 18 seats, full: entries wait in line (one joined from the wall), bust-outs
    call them one by one (one seated, one whose time lapses, one dropped), then a wave at a
    level change, and at the close of late registration those still waiting are refunded."""
    g = Game(seed, {"game": "holdem", "seats": 9, "final_table": 9}, MONEY)
    line = lambda: g.t.state.alternates  # noqa: E731
    assert g.do(cmd.SetCapacity(capacity=Capacity(seats=18)))
    for i in range(24):
        assert g.do(cmd.Register(name=f"{NAMES[i % len(NAMES)]} {i}"))
    assert g.do(cmd.JoinAlternates(name="Walk In"))
    assert [a.id for a in line().waiting] == ["A1", "A2", "A3", "A4", "A5", "A6", "A7"]
    assert g.do(cmd.DrawSeats()) and g.do(cmd.ClockStart())
    assert g.do(cmd.Bust(player=g.seated()[0]))
    assert [a.id for a in line().called] == ["A1"]
    g.now += 60.0
    assert g.do(cmd.SeatAlternate(alternate="A1"))
    assert g.do(cmd.Bust(player=g.seated()[0]))
    g.now += 301.0
    assert g.do(cmd.Tick())  # A2's time is up: A3 is called
    assert [a.id for a in line().called] == ["A3"]
    assert g.do(cmd.DropAlternate(alternate="A4"))
    wave = Capacity(seats=18, call="wave", wave=2, at_close="refund")
    assert g.do(cmd.SetCapacity(capacity=wave))
    for p in g.seated()[:3]:
        assert g.do(cmd.Bust(player=p))
    assert [a.id for a in line().called] == ["A3"]
    assert g.do(cmd.ClockLevel(step=1))  # a wave of two
    assert [a.id for a in line().called] == ["A3", "A5", "A6"]
    assert g.do(cmd.SeatAlternate(alternate="A5"))
    assert g.do(cmd.ClockLevel(to=4))  # late registration closes: A7 is refunded
    assert [a.id for a in line().waiting] == []
    return g


def announce_game(seed: int) -> Game:
    """The director's messages through a short day: a line at the draw, a full-screen
    announcement that replaces it, cleared, and a line left standing (``announce``)."""
    g = Game(seed, {"game": "holdem", "seats": 9, "final_table": 9}, MONEY)
    for i in range(20):
        assert g.do(cmd.Register(name=f"{g.rng.choice(NAMES)} {i}"))
    assert g.do(cmd.Announce(text="Seats are drawn: find your name on the wall"))
    assert g.do(cmd.DrawSeats()) and g.do(cmd.ClockStart())
    g.now += 60.0
    assert g.do(cmd.Announce(text="Dinner break after this level\n60 minutes", full=True))
    for p in g.seated()[:3]:
        assert g.do(cmd.Bust(player=p))
        g.now += 30.0
    assert g.do(cmd.ClearAnnouncement())
    assert not g.do(cmd.ClearAnnouncement())
    assert g.do(cmd.Announce(text="Last hand of the level: table 2"))
    return g


def satellite_game(seed: int) -> Game:
    """Twenty entries (one paid with a ticket) of a satellite for four seats: down to five,
    two out in the same hand (the bigger stack takes the last seat), the seats issued, the
    satellite closed."""
    structure = {
        **MONEY,
        "prize": {**MONEY["prize"], "satellite": {"target": "main", "seat": 5000}},
    }
    g = Game(seed, {"game": "holdem", "seats": 10, "final_table": 10}, structure)
    for i in range(20):
        ticket = "sat-seat-1" if i == 0 else None
        assert g.do(cmd.Register(name=f"{g.rng.choice(NAMES)} {i}", ticket=ticket))
    assert g.do(cmd.DrawSeats()) and g.do(cmd.ClockStart())
    for n in g.tables():
        assert g.do(cmd.Button(table=n, seat=min(g.t.state.tables[n].occupants)))
    while g.t.active > 5:
        g.do(cmd.Bust(player=g.pick(g.seated())))
        for m in g.t.plan.moves:
            g.do(cmd.Confirm(player=m.player))
        g.now += 30.0
    n = max(g.tables(), key=lambda x: g.t.state.tables[x].count)
    two = sorted(g.t.state.tables[n].occupants.values())[:2]
    busted = tuple(cmd.Busted(player=p, stack=s) for p, s in zip(two, (4000, 9000), strict=True))
    assert g.do(cmd.BustSameHand(players=busted))
    assert g.t.state.satellite_end is not None
    assert g.do(cmd.IssueSeats()) and g.do(cmd.CloseTournament())
    return g


def milestone_game(seed: int) -> Game:
    """A milestone satellite of twenty for four seats: two counted stacks reach the milestone
    and win a seat each (one taken back by an undo and won again), the field plays down to
    the two seats left, the seats issued, the satellite closed (``milestone``)."""
    satellite = {"target": "main", "seat": 5000, "milestone": 30_000}
    structure = {**MONEY, "prize": {**MONEY["prize"], "satellite": satellite}}
    g = Game(seed, {"game": "holdem", "seats": 10, "final_table": 10}, structure)
    for i in range(20):
        assert g.do(cmd.Register(name=f"{g.rng.choice(NAMES)} {i}"))
    assert g.do(cmd.DrawSeats()) and g.do(cmd.ClockStart())
    for n in g.tables():
        assert g.do(cmd.Button(table=n, seat=min(g.t.state.tables[n].occupants)))
    for _ in range(4):
        g.do(cmd.Bust(player=g.pick(g.seated())))
        g.now += 30.0
    for stack in (30_000, 42_000):
        p = g.pick(g.seated())
        table = g.t.state.players[p].table
        assert table is not None
        assert g.do(cmd.CountTable(table=table, stacks=(cmd.Count(player=p, stack=stack),)))
        assert g.do(cmd.AwardSeat(player=p))
        for m in g.t.plan.moves:
            g.do(cmd.Confirm(player=m.player))
        g.now += 30.0
    assert g.do(cmd.UndoBust(player=p, reason="awarded before the count was checked"))
    assert g.do(cmd.AwardSeat(player=p))
    while g.t.state.satellite_end is None:
        g.do(cmd.Bust(player=g.pick(g.seated())))
        for m in g.t.plan.moves:
            g.do(cmd.Confirm(player=m.player))
        g.now += 30.0
    assert len(g.t.state.satellite_end.seats) == 4
    assert g.do(cmd.IssueSeats()) and g.do(cmd.CloseTournament())
    return g


class FairGame(Game):
    """A tournament whose draws are committed (``engine.fair``): each decision drawn from the
    next seed of its chain, as the server does, the draw's record last in its batch."""

    def __init__(self, seed: int, rules: dict[str, Any], structure: dict[str, Any] | None):
        super().__init__(seed, rules, structure)
        self.chain = fair.make_chain(random.Random(seed).randbytes(32), 4096)
        commitment = fair.committed(self.chain.head, self.chain.length, self.now)
        self.t.apply(commitment)
        self.batches[0].append(commitment)
        self.link = chain.head(chain.genesis(self.t.state.id), map(encode_event, self.log))
        self.witness_set = False

    def do(self, command: cmd.Command) -> bool:
        index = fair.next_index(self.t)
        assert index is not None
        committed = self.t.state.fair
        assert committed is not None
        drawn = (index, self.chain.seed(index), self.link, committed.witness)
        rng = FairRng(fair.material(self.t.state.id, *drawn))
        try:
            events = decide(self.t, command, self.now, rng)
        except RuleError:
            self.refused += 1
            return False
        events = fair.made(self.t, command, events, rng, drawn, self.now)
        if events:
            self.batches.append(events)
            self.link = chain.head(self.link, map(encode_event, events))
        return True


def fair_game(seed: int) -> Game:
    """Committed draws: the first draw, a witness's number, late entries, bust-outs that
    balance and break tables, down to the final table's draw."""
    g = FairGame(seed, {"game": "holdem", "seats": 9, "final_table": 9}, MONEY)
    for i in range(30):
        assert g.do(cmd.Register(name=f"{g.rng.choice(NAMES)} {i}"))
    assert g.do(cmd.SetWitness(value="31337"))
    assert g.do(cmd.DrawSeats()) and g.do(cmd.ClockStart())
    for i in range(4):
        assert g.do(cmd.Register(name=f"Late {i}"))
    while g.t.active > 9 and not g.t.state.final_drawn:
        g.do(cmd.Bust(player=g.pick(g.seated())))
        for m in g.t.plan.moves:
            g.do(cmd.Confirm(player=m.player))
        g.now += 30.0
    return g


def games() -> list[Game]:
    """The tournaments the parity tests play: money and a colour-up, reserved seats, a mixed
    game, stud, a scenario-style set-up, a field that plays down to the final table."""
    reserved = {"reserved_seats": [{"table": 1, "seat": 1}, {"table": 2, "seat": 5}]}
    # fmt: off
    return [
        play(1, players=150, steps=1500),
        play(2, players=80, rules={"game": "holdem", "seats": 9, "final_table": 9, **reserved},
             steps=700),
        play(3, players=70, rules={"game": "mixed", "seats": 8, "final_table": 8}, structure=MIXED,
             steps=700),
        play(4, players=60, rules={"game": "stud", "seats": 8, "final_table": 8}, structure=None,
             steps=700),
        play(5, players=80, set_up=True, steps=800),
        play(6, players=40, steps=1000),
        flight_day(7),
        day2_game(9),
        deal_game(11, left_share=2),
        deal_game(12, left_share=0),
        play(13, players=60, structure=BOUNTY, steps=900),
        alternates_game(13),
        announce_game(13),
        deal_game(12, left_share=0, undo=True),
        satellite_game(13),
        fair_game(14),
        milestone_game(15),
    ]
    # fmt: on
