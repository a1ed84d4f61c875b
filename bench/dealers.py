"""Benchmark: the dealer room's rotation at festival size beside a small room, in one run.

A room of ``--tables`` tables and ``--dealers`` dealers (a 5,000-player flight on 10-seat
tables: 500 tables, 600 dealers) and a baseline room a tenth its size, each driven through
the house's own decide and fold (``floor/engine/house``: what the clock driver's ``Tick``
costs the process holding the lease) over a day of ``--rounds`` push rounds, with a tenth
of the tables broken part-way, as the floor's plan breaks them:

- a push round: every table seated at once, so every table is pushed by one ``Tick`` (the
  worst case: a whole room opening together); the cost per round and per push;
- a staggered push: tables opened one second apart, so each ``Tick`` pushes one table (the
  common case); the cost per tick;
- the clock driver's look between ticks (``next_due``, every round of the driver);
- a table broken (``SyncTables``, the floor's plan followed).

Prints the median and 99th percentile of each for both rooms, and their ratio. It prints,
never fails the run on a timing.

    .venv/bin/python bench/dealers.py [--tables 500] [--dealers 600] [--rounds 16]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from floor.engine.house.commands import HouseCommand
from floor.engine.house.dealers import RoomSettings
from floor.engine.house.dealers_commands import (
    ClockIn,
    PlayingTable,
    SaveDealer,
    SetSettings,
    SyncTables,
    Tick,
)
from floor.engine.house.decide import decide
from floor.engine.house.rotation import next_due
from floor.engine.house.state import HouseState, apply

SETTINGS = RoomSettings(push_every=1800, break_every=3, break_length=1200, min_rest=600)
TID = "main-1a"


class Room:
    """The house's state, each command decided at ``now`` and folded."""

    def __init__(self, dealers: int) -> None:
        self.state = HouseState()
        self.now = 0.0
        self.version = 0
        self.send(SetSettings(settings=SETTINGS))
        for i in range(dealers):
            self.send(SaveDealer(dealer=f"d{i:04d}", name=f"Dealer {i}"))
            self.send(ClockIn(dealer=f"d{i:04d}"))

    def send(self, command: HouseCommand) -> float:
        """Decide and fold ``command``; return the seconds it took."""
        start = time.perf_counter()
        for e in decide(self.state, command, self.now):
            apply(self.state, e)
        return time.perf_counter() - start

    def play(self, tables: list[int]) -> float:
        self.version += 1
        playing = tuple(PlayingTable(table=n, game="holdem") for n in tables)
        return self.send(SyncTables(tournament=TID, version=self.version, tables=playing))

    def seated(self) -> int:
        return sum(1 for t in self.state.room.tables.values() if t.dealer is not None)


def spread(samples: list[float]) -> tuple[float, float]:
    """Median and 99th percentile, in milliseconds."""
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return statistics.median(ordered) * 1e3, p99 * 1e3


def timed(fn: Callable[[], object], times: int) -> list[float]:
    out = []
    for _ in range(times):
        start = time.perf_counter()
        fn()
        out.append(time.perf_counter() - start)
    return out


def measure(tables: int, dealers: int, rounds: int) -> dict[str, list[float]]:
    got: dict[str, list[float]] = {"round": [], "push": [], "tick": [], "look": [], "break": []}
    # Every table at once: each due moment pushes the whole room.
    room = Room(dealers)
    live = list(range(1, tables + 1))
    room.play(live)
    assert room.seated() == tables, "the room seats every table"
    for i in range(rounds):
        due = next_due(room.state.room)
        assert due is not None
        room.now = due
        before = {k: t.dealer for k, t in room.state.room.tables.items()}
        took = room.send(Tick())
        pushed = sum(1 for k, t in room.state.room.tables.items() if t.dealer != before.get(k))
        got["round"].append(took)
        got["push"].append(took / max(1, pushed))
        got["look"] += timed(lambda: next_due(room.state.room), 20)
        if i == rounds // 2:  # a tenth of the tables broken, one by one
            for _ in range(tables // 10):
                live.pop()
                got["break"].append(room.play(live))
    # Tables opened a second apart: each tick pushes one of them.
    room = Room(dealers)
    for n in range(1, tables + 1):
        room.now = float(n)
        room.play(list(range(1, n + 1)))
    for _ in range(rounds * 8):
        due = next_due(room.state.room)
        assert due is not None
        room.now = due
        got["tick"].append(room.send(Tick()))
    return got


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--dealers", type=int, default=600)
    parser.add_argument("--rounds", type=int, default=16)
    args = parser.parse_args()
    if args.tables < 10 or args.dealers < args.tables:
        parser.error("--tables must be at least 10 and --dealers at least --tables")
    small = (args.tables // 10, args.dealers // 10)
    print(f"dealer room: {args.rounds} push rounds; milliseconds, median / p99")
    base = measure(*small, args.rounds)
    big = measure(args.tables, args.dealers, args.rounds)
    rows = [
        ("push round (every table at once)", "round"),
        ("  per push", "push"),
        ("tick pushing one table (staggered)", "tick"),
        ("driver's look between ticks", "look"),
        ("a table broken (sync)", "break"),
    ]
    head = f"{'':38}{f'{small[0]} tables, {small[1]} dealers':>26}"
    print(head + f"{f'{args.tables} tables, {args.dealers} dealers':>28}{'ratio':>8}")
    for label, key in rows:
        b, g = spread(base[key]), spread(big[key])
        print(
            f"{label:38}{b[0]:>14.3f} / {b[1]:>8.3f}{g[0]:>16.3f} / {g[1]:>8.3f}"
            f"{g[0] / b[0] if b[0] else float('nan'):>8.1f}x"
        )
    pushes_per_s = 1 / statistics.median(big["push"])
    print(f"pushes planned per second at {args.tables} tables (in a round): {pushes_per_s:,.0f}")


if __name__ == "__main__":
    main()
