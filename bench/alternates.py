"""Benchmark: what a full flight's alternates' line costs the engine, beside the same room
without a capacity (the baseline, measured in the same run).

A room of ``--players`` on 10-seat tables, drawn; with a capacity of as many seats it is
full and ``--line`` people wait. Timed, each on a copy of the room:

- a bust-out: the baseline's (no capacity) against the full flight's, which calls the next
  alternate (the line read, the call written, its facts built);
- a join to the line (the line at its length, each name checked against every other) against
  a registration in the room without a capacity (a seat drawn, the room replanned);
- the clock's tick that ends a called alternate's time and calls the next.

    .venv/bin/python bench/alternates.py [--players 10000] [--line 999] [--runs 30]

Prints the median and the 95th percentile of each in microseconds. It prints, never fails.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

import msgspec

from floor.engine import commands as cmd
from floor.engine.alternates_model import Capacity
from floor.engine.decide import decide
from floor.engine.events import TournamentCreated
from floor.engine.read.derived import public_facts
from floor.engine.rules import Rules
from floor.engine.state import Tournament


def room(players: int, line: int, capacity: bool) -> Tournament:
    rng = random.Random(1)
    rules = msgspec.convert({"game": "holdem", "seats": 10, "final_table": 10}, Rules)
    t = Tournament.create(TournamentCreated(id="bench", name="bench", rules=rules))
    entries = tuple(cmd.NewEntry(name=f"Player {i}", player=f"P{i}") for i in range(players))
    for i in range(0, players, 1000):
        decide(t, cmd.RegisterMany(entries=entries[i : i + 1000]), 0.0, rng)
    decide(t, cmd.DrawSeats(), 0.0, rng)
    if capacity:
        decide(t, cmd.SetCapacity(capacity=Capacity(seats=players)), 0.0, rng)
        for i in range(line):
            decide(t, cmd.QueueAlternate(name=f"Waiting {i}"), 0.0, rng)
    return t


def timed(
    base: Tournament, runs: int, act: Callable[[Tournament, int], object]
) -> tuple[float, float]:
    """Median and 95th percentile (µs) of ``act`` on a fresh copy each run (not timed)."""
    times = []
    for i in range(runs):
        t = base.copy()
        start = time.perf_counter()
        act(t, i)
        times.append((time.perf_counter() - start) * 1e6)
    times.sort()
    return statistics.median(times), times[int(0.95 * (len(times) - 1))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--line", type=int, default=999)
    parser.add_argument("--runs", type=int, default=30)
    a = parser.parse_args()
    rng = random.Random(2)
    plain = room(a.players, 0, capacity=False)
    full = room(a.players, a.line, capacity=True)
    print(f"{a.players:,} players drawn; a full flight with {a.line:,} in line; {a.runs} runs")

    def bust(t: Tournament, i: int) -> None:
        events = decide(t, cmd.Bust(player=f"P{i}"), 1.0, rng)
        public_facts(t, events)

    rows = [
        ("bust-out, no capacity (baseline)", timed(plain, a.runs, bust)),
        ("bust-out calling the next alternate", timed(full, a.runs, bust)),
        (
            "registration, no capacity (baseline)",
            timed(plain, a.runs, lambda t, i: decide(t, cmd.Register(name=f"New {i}"), 1.0, rng)),
        ),
        (
            f"join at a line of {a.line:,}",
            timed(full, a.runs, lambda t, i: decide(t, cmd.JoinAlternates(name=f"J{i}"), 1, rng)),
        ),
    ]
    called = full.copy()
    decide(called, cmd.Bust(player="P0"), 0.0, rng)

    def lapse(t: Tournament, i: int) -> None:
        decide(t, cmd.Tick(), 400.0, rng)

    rows.append(("tick ending a call, calling the next", timed(called, a.runs, lapse)))
    width = max(len(name) for name, _ in rows)
    for name, (median, p95) in rows:
        print(f"  {name:<{width}}  median {median:9.1f} µs   p95 {p95:9.1f} µs")


if __name__ == "__main__":
    main()
