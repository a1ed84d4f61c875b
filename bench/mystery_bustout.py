"""The bust-out with a mystery bounty's draw, beside the freezeout's, in the same run.

The 10,000-player day of ``engine_bustout`` played twice: as a freezeout, and as a mystery
bounty drawing from level 1 (every bust-out names a seat-mate as the winner of the pot, and
draws one of 10,000 envelopes in four amounts). Per bust-out: the engine's ``decide`` with the
replan, median and p99, and what the draw adds. The draw takes one ``randrange`` from the
random source the engine is given, so the mystery day's later bust-outs are not the
freezeout's one for one; the field, the tables and the number of bust-outs are.

    .venv/bin/python bench/mystery_bustout.py [--players 10000] [--seats 10] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

import msgspec

sys.path.insert(0, str(Path(__file__).resolve().parent))

from engine_bustout import KO, build, percentile, play

from floor.engine.prize import Prize

MYSTERY = msgspec.convert(
    {
        **msgspec.to_builtins(KO),
        "bounty": {
            "kind": "mystery",
            "part": 100,
            "envelopes": [[50_000, 10], [5_000, 90], [500, 900], [20, 9_000]],
            "mystery_from": "level",
            "mystery_level": 1,
        },
    },
    Prize,
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--seats", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    free = build(
        args.players,
        args.seats,
        random.Random(args.seed),
        prize=msgspec.structs.replace(KO, bounty=None),
    )
    freeze, _, _ = play(free, random.Random(args.seed), naive=False, name_winner=True)
    t = build(args.players, args.seats, random.Random(args.seed), prize=MYSTERY)
    mystery, _, _ = play(t, random.Random(args.seed), naive=False, name_winner=True)
    book = t.state.bounties
    assert book is not None
    drawn = sum(book.drawn.values())

    us = 1e6
    print(f"{args.players} players on {args.seats}-seat tables; {drawn:,} envelopes drawn")
    print(f"{'per bust-out (decide + replan)':32} {'n':>7} {'median':>10} {'p99':>10}")
    for name, xs in (("freezeout (baseline)", freeze), ("mystery bounty", mystery)):
        print(
            f"{name:32} {len(xs):7,} {statistics.median(xs) * us:8.1f}us"
            f" {percentile(xs, 0.99) * us:8.1f}us"
        )
    med = statistics.median(mystery) / statistics.median(freeze) - 1
    p99 = percentile(mystery, 0.99) / percentile(freeze, 0.99) - 1
    print(f"the draw and its accounting add {med:+.1%} to the median, {p99:+.1%} to the p99")


if __name__ == "__main__":
    main()
