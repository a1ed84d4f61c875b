"""Benchmark: a 10,000-player field on 10-seat tables busted down to a winner.

For every bust-out it times the engine's own path (decide: validate, apply, housekeeping;
then the plan) and, on the same state, a naive baseline that recomputes everything from
scratch (rebuilding every index from the whole state, then planning). Between bust-outs the
simulated floor carries out the plan, deals hands and reports buttons (not timed).

    .venv/bin/python bench/engine_bustout.py [--players 10000] [--seats 10] [--seed 1]

Prints the median and 99th percentile per bust-out for both, and the peak memory.
Target: under 100 microseconds per bust-out at 10,000 players.
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
from floor.engine.events import TournamentCreated
from floor.engine.rules import Rules
from floor.engine.state import Tournament


def build(players: int, seats: int, rng: random.Random) -> Tournament:
    rules = msgspec.convert({"game": "holdem", "seats": seats, "final_table": seats}, Rules)
    t = Tournament.create(TournamentCreated(id="bench", name="bench", rules=rules))
    for i in range(players):
        decide(t, cmd.Register(name=f"Player {i}", player=f"P{i}"), 0.0, rng)
    decide(t, cmd.DrawSeats(), 0.0, rng)
    return t


def play(t: Tournament, rng: random.Random, naive: bool) -> tuple[list[float], list[float]]:
    fast: list[float] = []
    slow: list[float] = []
    clock = time.perf_counter
    while True:
        action = next_floor_action(t, rng)
        if action is not None:
            decide(t, action, 0.0, rng)
            continue
        command = next_play(t, rng, bust_chance=0.5)
        if command is None:
            return fast, slow
        if not isinstance(command, cmd.Bust):
            decide(t, command, 0.0, rng)
            continue
        start = clock()
        decide(t, command, 0.0, rng)
        _ = t.plan
        fast.append(clock() - start)
        if naive:
            start = clock()
            _ = Tournament(t.state).plan
            slow.append(clock() - start)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--seats", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    t = build(args.players, args.seats, random.Random(args.seed))
    fast, slow = play(t, random.Random(args.seed), naive=True)

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
    target = statistics.median(fast) * us < 100
    print(f"target (median under 100us at {args.players} players): {'met' if target else 'MISSED'}")


if __name__ == "__main__":
    main()
