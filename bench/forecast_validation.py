"""Validation: the forecaster against days it did not make, played hand by hand.

Each day (``bench/forecasting/handsim.py``: real stacks, the structure's blinds and antes,
all-in confrontations, the room on the engine) is played from its start to a level between 3
and 5; the forecaster reads that live state and plays the rest of the day ``--runs`` times;
then the same day is played on, hand by hand, to the money. A day counts when the money came
inside the forecast's 10-90 range. The days differ in field (150 to 1,200 players), tables
(9 or 10 seats), structure (a 30-minute deepstack, a 40-minute main event, a 15-minute
turbo), late entries and re-entries.

    .venv/bin/python bench/forecast_validation.py [--days 50] [--runs 200] [--first-seed 1]

Prints one line per day and the share of days inside the range (the issue asks for 70 % at
least), and the same for the final table where the day reached it; never fails on a figure.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.forecasting.handsim import T0, Day, DaySpec, at_level, money_reached  # noqa: E402
from floor.config import resolve_structure  # noqa: E402
from floor.forecast import jobs  # noqa: E402
from floor.forecast.live import live_day  # noqa: E402
from floor.forecast.model import Corrections, Settings  # noqa: E402

STRUCTURES = ("deepstack-daily", "pfp-2014-main-event", "club-night-turbo")


def spec_for(seed: int) -> tuple[DaySpec, int]:
    """The day of ``seed``, and the level the forecast is made at."""
    rng = random.Random(seed * 31 + 7)
    players = rng.randint(150, 1200)
    structure = resolve_structure(STRUCTURES[seed % len(STRUCTURES)])
    spec = DaySpec(
        players=players,
        seats=rng.choice((9, 10)),
        structure=structure,
        late_entries=int(players * rng.uniform(0.0, 0.25)),
        re_entry_share=rng.choice((0.0, 0.2, 0.35)),
        seed=seed,
    )
    return spec, rng.randint(3, 5)


def hours(at: float | None) -> str:
    return "  none" if at is None else f"{(at - T0) / 3600:6.2f}"


def validate(seed: int, runs: int) -> tuple[bool | None, bool | None, str]:
    spec, level = spec_for(seed)
    day = Day(spec)
    if not day.play_until(at_level(level)):
        return None, None, f"day {seed}: over before level {level}"
    live = live_day(day.t, day.now, 0)
    prepared = jobs.prepare(live, None, Corrections(), Settings(), runs, seed)
    forecast = jobs.finish(prepared, jobs.play_runs(prepared, 0, runs))
    made = day.now
    money = forecast.money.at
    final = forecast.final_table.at
    reached = day.play_until(money_reached)
    actual = day.money_at if reached else None
    inside = None
    if actual is not None and money.p10 is not None:
        inside = money.p10 <= actual <= (money.p90 if money.p90 is not None else float("inf"))
    final_at = None
    # The field at one table: the final table formed, or the others broken.
    if reached and day.play_until(lambda d: d.t.open_count <= 1):
        final_at = day.now
    final_inside = None
    if final_at is not None and final.p10 is not None:
        final_inside = final.p10 <= final_at <= (final.p90 if final.p90 is not None else 1e18)
    line = (
        f"day {seed:3d}  {spec.structure.name:20.20} {spec.players:5d} players  "
        f"{spec.seats:2d}-max  forecast at level {level} ({hours(made)} h)  "
        f"money {hours(money.p10)} {hours(money.p50)} {hours(money.p90)}  "
        f"actual {hours(actual)}  {'inside' if inside else 'OUTSIDE' if inside is False else '-'}"
        f"  | final {hours(final.p10)} {hours(final.p90)} actual {hours(final_at)} "
        f"{'inside' if final_inside else 'OUTSIDE' if final_inside is False else '-'}"
    )
    return inside, final_inside, line


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--days", type=int, default=50)
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--first-seed", type=int, default=1)
    args = parser.parse_args()
    started = time.perf_counter()
    money: list[bool] = []
    final: list[bool] = []
    for seed in range(args.first_seed, args.first_seed + args.days):
        inside, final_inside, line = validate(seed, args.runs)
        print(line, flush=True)
        if inside is not None:
            money.append(inside)
        if final_inside is not None:
            final.append(final_inside)
    print()
    share = sum(money) / len(money) if money else 0.0
    print(
        f"money inside the forecast's 10-90 range: {sum(money)} of {len(money)} days "
        f"({share:.0%}; the issue asks for 70 % at least)"
    )
    if final:
        print(
            f"final table inside its 10-90 range: {sum(final)} of {len(final)} days "
            f"({sum(final) / len(final):.0%})"
        )
    print(f"{time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
