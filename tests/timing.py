"""The one factor the tests' time limits are scaled by.

``FLOOR_TEST_TIMEOUT_FACTOR`` (default 1): a slower or busier machine (a shared CI runner,
a coverage run) sets 2 or 3, and every limit a test derives from ``scaled`` grows with it,
never the thing being tested.
"""

from __future__ import annotations

import os


def timeout_factor() -> float:
    raw = os.environ.get("FLOOR_TEST_TIMEOUT_FACTOR", "").strip() or "1"
    try:
        factor = float(raw)
    except ValueError:
        raise SystemExit(f"FLOOR_TEST_TIMEOUT_FACTOR is a number, not {raw!r}") from None
    if factor <= 0:
        raise SystemExit(f"FLOOR_TEST_TIMEOUT_FACTOR is above 0, not {raw}")
    return factor


def scaled(seconds: float) -> float:
    """``seconds`` times the factor."""
    return seconds * timeout_factor()
