"""The runs summed up: the 10th, 50th and 90th percentiles of everything a director asks.

Percentiles are nearest-rank over the runs (the value below which that share of the runs
fall, never one made up between two runs). A time a run never reached (the day ended
first) counts as later than any time: where more than 10 % of the runs never reach the money,
its 90th percentile is None, "not today".
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

from .dealers import DealerNeed
from .model import DayEnd, Milestone, Range, Slot
from .runs import GRID, HALF_HOUR, HOUR, Course, Outcome

QUANTILES = (0.1, 0.5, 0.9)


def percentile(ordered: Sequence[float], q: float) -> float:
    """The nearest-rank ``q`` percentile of ``ordered`` (sorted, not empty)."""
    rank = max(1, math.ceil(q * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]


def range_of(values: Sequence[float]) -> Range:
    ordered = sorted(values)
    if not ordered:
        return Range(None, None, None)
    p10, p50, p90 = (percentile(ordered, q) for q in QUANTILES)
    return Range(p10, p50, p90)


def times(values: Sequence[float | None]) -> Range:
    """The percentiles of times some runs never reached (None: after the day's end)."""
    ordered = sorted(math.inf if v is None else v for v in values)
    if not ordered:
        return Range(None, None, None)
    p10, p50, p90 = (None if math.isinf(x := percentile(ordered, q)) else x for q in QUANTILES)
    return Range(p10, p50, p90)


def milestone(values: Sequence[float | None], happened: float | None) -> Milestone:
    reached = sum(1 for v in values if v is not None) / len(values) if values else 0.0
    return Milestone(at=times(values), reached=round(reached, 3), happened=happened)


def _slots(start: float, width: float, per_run: list[list[float]], count: int) -> list[Slot]:
    out = []
    for i in range(count):
        column = sorted(row[i] if i < len(row) else 0.0 for row in per_run)
        p10, p50, p90 = (percentile(column, q) for q in QUANTILES)
        out.append(Slot(start + i * width, p10, p50, p90))
    return out


def summarize(
    c: Course, outcomes: Sequence[Outcome], dealers: DealerNeed
) -> tuple[Milestone, Milestone, DayEnd, Range, Range, list[Slot], list[Slot], list[Slot]]:
    """Money, final table, the day's end, entries expected, places paid, tables breaking per
    hour, dealers per half hour, players left every ``GRID`` seconds."""
    money = milestone([o.money_at for o in outcomes], c.money_at)
    final = milestone([o.final_at for o in outcomes], None)
    ends = [o.end_at if o.end_by != "horizon" else None for o in outcomes]
    by = Counter(o.end_by for o in outcomes)
    day_end = DayEnd(
        at=milestone(ends, None),
        players=range_of([o.end_players for o in outcomes]),
        tables=range_of([o.end_tables for o in outcomes]),
        by={k: round(v / len(outcomes), 3) for k, v in sorted(by.items())},
    )
    entries = range_of([o.entries_added for o in outcomes])
    places = range_of([o.places for o in outcomes])
    # The slots reach the end of the day in nine runs of ten (past it only the last runs
    # still play, and an hour of three runs says nothing).
    last = percentile(sorted(o.end_at for o in outcomes), 0.9)
    hours = max(1, math.ceil((last - c.hour0) / HOUR))
    halves = max(1, math.ceil((last - c.half0) / HALF_HOUR))
    grid = max(1, math.floor((last - c.now) / GRID) + 1)
    breaking = _slots(c.hour0, HOUR, [[float(x) for x in o.breaks] for o in outcomes], hours)
    needed = _slots(
        c.half0,
        HALF_HOUR,
        [[float(dealers.needed(x)) for x in o.tables] for o in outcomes],
        halves,
    )
    players = _slots(
        c.now,
        GRID,
        [_carried([float(x) for x in o.players], grid) for o in outcomes],
        grid,
    )
    return money, final, day_end, entries, places, breaking, needed, players


def _carried(row: list[float], length: int) -> list[float]:
    """A run's players left, its last value carried on past its end (the bags stay)."""
    if len(row) >= length:
        return row
    return row + [row[-1] if row else 0.0] * (length - len(row))
