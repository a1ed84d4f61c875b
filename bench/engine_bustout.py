"""Benchmark: a 10,000-player field on 10-seat tables busted down to a winner.

For every bust-out it times the engine's own path (decide: validate, apply, housekeeping;
then the plan) and, on the same state, a naive baseline that recomputes everything from
scratch (rebuilding every index from the whole state, then planning). Between bust-outs the
simulated floor carries out the plan, deals hands and reports buttons (not timed).

    .venv/bin/python bench/engine_bustout.py [--players 10000] [--seats 10] [--seed 1]

Prints the median and 99th percentile per bust-out for both, and the peak memory; the same day
played again as a progressive knockout (every bust-out naming a seat-mate who won the pot, the
bounties worked out and folded), beside the freezeout measured in the same run (target: the
bounty accounting adds at most 10% to the median and the p99); then the
moves per player over the day (mean, max, players moved three times or more), with the house
setting against pointless moves (``spare_next_break``) off, as the TDA has it, and on.
Target: under 100 microseconds per bust-out at 10,000 players; the verdict states the median
and the p99 of both against it (the slowest bust-outs are those after which seats are drawn:
a table break or the final table). It prints, never fails the run on a timing.
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import time
import tracemalloc

import msgspec

from floor.engine import commands as cmd
from floor.engine.autopilot import next_floor_action, next_play
from floor.engine.decide import decide
from floor.engine.events import (
    PlayerBusted,
    PlayersMoved,
    SeatsAssigned,
    TableBreaking,
    TournamentCreated,
)
from floor.engine.prize import Prize
from floor.engine.rules import Level, Rules, Structure
from floor.engine.state import Tournament

#: The money of the day played as a progressive knockout (``--players`` entries of 200 EUR,
#: 100 of each to bounties), and as a freezeout of the same buy-in beside it.
KO = msgspec.convert(
    {
        "currency": "EUR",
        "buy_in": 200,
        "round_to": 5,
        "payouts": [{"entries": 2, "percents": [100]}],
        "bounty": {"kind": "progressive", "part": 100},
    },
    Prize,
)


def structure(prize: Prize) -> Structure:
    return Structure(
        name="bench",
        starting_stack=20_000,
        chips=(100, 500),
        levels=(Level(small_blind=100, big_blind=200, minutes=60),),
        prize=prize,
    )


def build(
    players: int, seats: int, rng: random.Random, spare: int = 0, prize: Prize | None = None
) -> Tournament:
    settings = {"game": "holdem", "seats": seats, "final_table": seats, "spare_next_break": spare}
    rules = msgspec.convert(settings, Rules)
    created = TournamentCreated(
        id="bench", name="bench", rules=rules, structure=structure(prize) if prize else None
    )
    t = Tournament.create(created)
    for i in range(players):
        decide(t, cmd.Register(name=f"Player {i}", player=f"P{i}"), 0.0, rng)
    decide(t, cmd.DrawSeats(), 0.0, rng)
    return t


#: The per-bust-out target, in microseconds.
TARGET_US = 100.0


def play(
    t: Tournament, rng: random.Random, naive: bool, name_winner: bool = False
) -> tuple[list[float], list[float], list[bool]]:
    """Per bust-out: the engine's time, the naive baseline's (if ``naive``), and whether the
    bust-out drew seats (a table break or the final table). ``name_winner``: each bust-out
    names a seat-mate as the winner of the pot (a knockout's eliminator)."""
    fast: list[float] = []
    slow: list[float] = []
    draws: list[bool] = []
    clock = time.perf_counter
    # Apart from ``rng``, so that the knockout plays the same bust-outs as the freezeout.
    mates = random.Random(0)
    while True:
        action = next_floor_action(t, rng)
        if action is not None:
            decide(t, action, 0.0, rng)
            continue
        command = next_play(t, rng, bust_chance=0.5)
        if command is None:
            return fast, slow, draws
        if not isinstance(command, cmd.Bust):
            decide(t, command, 0.0, rng)
            continue
        if name_winner:
            command = msgspec.structs.replace(command, eliminators=(seat_mate(t, command, mates),))
        start = clock()
        events = decide(t, command, 0.0, rng)
        _ = t.plan
        fast.append(clock() - start)
        draws.append(any(isinstance(e, SeatsAssigned) for e in events))
        if naive:
            start = clock()
            _ = Tournament(t.state).plan
            slow.append(clock() - start)


def seat_mate(t: Tournament, bust: cmd.Bust, rng: random.Random) -> str:
    """A player at the busted player's table, picked as the winner of the pot."""
    if bust.player is not None:
        p = t.state.players[bust.player]
        table, seat = p.table, p.seat
    else:
        table, seat = bust.table, bust.seat
    assert table is not None
    occupants = t.state.tables[table].occupants
    return rng.choice([pid for s, pid in sorted(occupants.items()) if s != seat])


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--seats", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    # Two passes over the same tournament (same seed, same states): the engine timed alone,
    # then the naive baseline. Interleaved, the baseline's garbage (a whole new Tournament per
    # bust-out) set off collections inside the engine's timings and doubled its p99.
    t = build(args.players, args.seats, random.Random(args.seed))
    fast, _, draws = play(t, random.Random(args.seed), naive=False)
    t_naive = build(args.players, args.seats, random.Random(args.seed))
    _, slow, _ = play(t_naive, random.Random(args.seed), naive=True)

    # The same day (same seed: the same bust-outs) with money, as a freezeout and as a
    # progressive knockout naming every bust-out's eliminator, one after the other in this run.
    freeze_prize = msgspec.structs.replace(KO, bounty=None)
    t_free = build(args.players, args.seats, random.Random(args.seed), prize=freeze_prize)
    freeze, _, _ = play(t_free, random.Random(args.seed), naive=False, name_winner=False)
    t_ko = build(args.players, args.seats, random.Random(args.seed), prize=KO)
    ko, _, _ = play(t_ko, random.Random(args.seed), naive=False, name_winner=True)
    book = t_ko.state.bounties
    assert book is not None

    tracemalloc.start()
    t2 = build(args.players, args.seats, random.Random(args.seed))
    built = tracemalloc.get_traced_memory()[0]
    play(t2, random.Random(args.seed), naive=False)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()

    us = 1e6
    print(f"{args.players} players on {args.seats}-seat tables, {len(fast)} bust-outs to a winner")
    print(f"{'per bust-out (apply + replan)':32} {'median':>10} {'p99':>10} {'max':>10}")
    for name, xs in (("floor engine (incremental)", fast), ("naive baseline (from scratch)", slow)):
        print(
            f"{name:32} {statistics.median(xs) * us:8.1f}us {percentile(xs, 0.99) * us:8.1f}us"
            f" {max(xs) * us:8.1f}us"
        )
    ratio = statistics.median(slow) / statistics.median(fast)
    print(f"naive / incremental, median: {ratio:.0f}x")
    print(
        f"state at the start: {built / 2**20:.1f} MiB traced; peak while playing "
        f"{peak / 2**20:.1f} MiB; process max RSS "
        f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB"
    )
    print(f"target: under {TARGET_US:.0f}us per bust-out at {args.players} players, median and p99")
    for name, xs in (("floor engine", fast), ("naive baseline", slow)):
        print(f"  {name:15} {against_target(xs)}")
    # Where the floor engine's p99 comes from: the bust-outs after which seats are drawn.
    drew = [x for x, d in zip(fast, draws, strict=True) if d]
    plain = [x for x, d in zip(fast, draws, strict=True) if not d]
    for name, xs in (
        ("that draw seats (a table break or the final table)", drew),
        ("that draw no seats", plain),
    ):
        if xs:
            print(f"  floor engine, {len(xs)} bust-outs {name}: {against_target(xs)}")

    print()
    print(
        f"the day with money: a freezeout, and a progressive knockout naming the eliminators "
        f"({book.won:,} EUR of bounties won of {100 * t_ko.state.entries:,})"
    )
    print(f"{'per bust-out (apply + replan)':32} {'median':>10} {'p99':>10}")
    for name, xs in (("freezeout", freeze), ("progressive knockout", ko)):
        print(f"{name:32} {statistics.median(xs) * us:8.1f}us {percentile(xs, 0.99) * us:8.1f}us")
    med = statistics.median(ko) / statistics.median(freeze) - 1
    p99 = percentile(ko, 0.99) / percentile(freeze, 0.99) - 1
    verdict = "met" if med <= 0.10 and p99 <= 0.10 else "NOT met"
    print(
        f"bounty accounting adds {med:+.1%} to the median, {p99:+.1%} to the p99 "
        f"(target at most +10%: {verdict})"
    )

    # The same day with the house setting on: nobody balanced into the next table to break
    # while it breaks within a table's worth of bust-outs.
    spare = args.seats
    off = moves_per_player(args, 0, spare)
    on = moves_per_player(args, spare, spare)
    print()
    print("moves per player over the day (balance, break and final moves carried out):")
    print(f"{'':52} {'setting off':>12} {f'spare_next_break = {spare}':>24}")
    for label, a, b in (
        ("mean", f"{off[0]:.3f}", f"{on[0]:.3f}"),
        ("max", str(off[1]), str(on[1])),
        ("players moved 3+ times", str(off[2]), str(on[2])),
        ("moves in all", str(off[3]), str(on[3])),
        (f"balance moves into a table broken <= {spare} busts later", str(off[4]), str(on[4])),
        ("table breaks with a free seat to spare", str(off[5]), str(on[5])),
    ):
        print(f"{label:52} {a:>12} {b:>24}")
    # Where a broken table's players go is not the house's to choose here: a table breaks as
    # soon as the others can seat everybody at the break fill, which with the fill at the
    # seats (the TDA's) leaves exactly as many free seats as players. A draw into "the
    # tables that break last" has no seat to pick there; repeat moves come from where the
    # bust-outs opened those seats.
    print(
        "a break draw chooses among free seats only where some are to spare: "
        f"{off[5]} of {off[6]} breaks had any"
    )


def moves_per_player(
    args: argparse.Namespace, spare: int, near: int
) -> tuple[float, int, int, int, int, int, int]:
    """The day played with ``spare_next_break = spare``: over every player, the mean and the
    most moves, the players moved three times or more, the moves in all; the balance moves
    into a table that then began to break within ``near`` bust-outs (pointless ones); and
    the breaks after which the other tables had more free seats than the players to seat,
    of all the breaks."""
    rng = random.Random(args.seed)
    t = build(args.players, args.seats, random.Random(args.seed), spare=spare)
    busts = 0
    arrivals: dict[int, list[int]] = {}
    pointless = 0
    breaks = roomy = 0
    while (command := next_floor_action(t, rng) or next_play(t, rng, bust_chance=0.5)) is not None:
        for e in decide(t, command, 0.0, rng):
            if isinstance(e, PlayerBusted):
                busts += 1
            elif isinstance(e, PlayersMoved) and e.reason == "balance":
                for m in e.moves:
                    arrivals.setdefault(m.to.table, []).append(busts)
            elif isinstance(e, TableBreaking):
                pointless += sum(1 for at in arrivals.pop(e.table, ()) if busts - at <= near)
                tables = t.state.tables
                free = sum(x.seats - x.count for x in tables.values() if x.status == "open")
                breaks += 1
                roomy += free > tables[e.table].count
    counts = [p.moves for p in t.state.players.values()]
    total = sum(counts)
    thrice = sum(1 for c in counts if c >= 3)
    return total / len(counts), max(counts), thrice, total, pointless, roomy, breaks


def against_target(xs: list[float]) -> str:
    """``median 12.8us: meets 100us; p99 180.2us: misses 100us`` for one set of timings."""
    parts = []
    for label, value in (("median", statistics.median(xs)), ("p99", percentile(xs, 0.99))):
        verdict = "meets" if value * 1e6 < TARGET_US else "misses"
        parts.append(f"{label} {value * 1e6:.1f}us: {verdict} {TARGET_US:.0f}us")
    return "; ".join(parts)


if __name__ == "__main__":
    main()
