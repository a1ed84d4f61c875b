"""A standard payout table for a field of N entries, for a director who has none of their own.

Places paid grow with the field (``paid_share`` of it, 15 % by default, at least one), in the
steps houses pay by: every place up to 10, then 12, 15, 18, then a table (9) at a time. Each
step is a row of the table from the field that first pays that many. A row's percentages
fall as a power of the place (the winner of a small field takes about half, of a hundred
paid a fifth), to two decimals, never rising down the list, adding up to exactly 100 (the
cents left by rounding go to the winner). Every row is one ``Prize.payouts`` accepts; the
director edits it as any other.

A table lists every place of every row: paying half of 100,000 entries it would list 5.6
million places in 1,122 rows (28 MB). ``MOST_PLACES`` is what a payout table may list to be
saved with the money (``set_prize``, one command of 64 KiB at most); ``table_places`` counts
a table's places before it is built.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Final

from ..prize import PayoutRow

#: Places paid in the steps houses use: each place up to 10, then by threes, then by tables.
_STEPS: Final[tuple[int, ...]] = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 15, 18, *range(27, 10_000, 9))
#: The most places a standard table lists in all its rows: what fits one ``set_prize``.
MOST_PLACES: Final = 10_000
#: The power the prizes fall by: 1/place^a. 1 gives 66.67/33.33 heads-up, 19 % of 100 paid.
_FALL: Final = 1.0


@lru_cache(maxsize=len(_STEPS))
def percents(places: int) -> tuple[float, ...]:
    """``places`` percentages to two decimals, falling, adding up to exactly 100 (worked out
    once for each number of places: every table is made of the same steps)."""
    weights = [1 / (i**_FALL) for i in range(1, places + 1)]
    total = sum(weights)
    cents = [max(1, math.floor(w / total * 10_000)) for w in weights]
    for i in range(1, places):
        cents[i] = min(cents[i], cents[i - 1])
    cents[0] += 10_000 - sum(cents)
    return tuple(c / 100 for c in cents)


def places_paid(entries: int, paid_share: float = 0.15) -> int:
    """Places a field of ``entries`` pays, on the steps."""
    want = max(1, math.floor(entries * paid_share))
    return max(s for s in _STEPS if s <= want)


def table_places(entries: int, paid_share: float = 0.15) -> int:
    """The places the standard table for ``entries`` lists in all its rows, counted without
    building it (each row pays the places of its step)."""
    top = places_paid(max(2, entries), paid_share)
    return sum(step for step in _STEPS if step <= top)


def standard_table(entries: int, paid_share: float = 0.15) -> tuple[PayoutRow, ...]:
    """The rows of a standard payout table for fields up to ``entries`` (at least 2)."""
    rows: list[PayoutRow] = []
    top = places_paid(max(2, entries), paid_share)
    for step in _STEPS:
        if step > top:
            break
        start = 2 if step == 1 else max(2, math.ceil(step / paid_share))
        if rows and start <= rows[-1].entries:
            start = rows[-1].entries + 1
        rows.append(PayoutRow(entries=start, percents=percents(step)))
    return tuple(rows)
