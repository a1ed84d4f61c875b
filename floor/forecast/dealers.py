"""How many dealers a number of tables in play needs: the seam for the dealer rotation.

Today a ratio from the forecast's settings (``Settings.dealers_per_table``): every table in
play needs a dealer, and reliefs for their breaks come on top, so 1.25 dealers per table is a
dealer for each table and one relief for every four. The dealer rotation (being built) knows
better (its shifts, its breaks, dealers who may not deal some games): it will offer its own
``DealerNeed`` from its settings, and ``jobs.prepare`` takes that instead of ``Ratio``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Protocol


class DealerNeed(Protocol):
    """The dealers needed while ``tables`` tables are in play."""

    def needed(self, tables: int) -> int: ...


@dataclass(frozen=True, slots=True)
class Ratio:
    """A dealer per table and reliefs: ``ceil(tables * dealers_per_table)``."""

    dealers_per_table: float

    def needed(self, tables: int) -> int:
        if tables <= 0:
            return 0
        # A float like 1.1 * 10 is 11.000000000000002: rounded first, not an extra dealer.
        return math.ceil(round(tables * self.dealers_per_table, 6))
