"""What a venue sets for its desks: how long identity is kept, how old the exclusion list may
be, the youngest player admitted."""

from __future__ import annotations

from typing import Annotated

import msgspec
from msgspec import Meta


class DeskSettings(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    #: Days an identity is kept after it was recorded (then deleted from Valkey).
    retention_days: Annotated[int, Meta(ge=1, le=3650)] = 30
    #: Hours an imported exclusion list stays good; older, the desk refuses.
    list_max_age_hours: Annotated[float, Meta(gt=0, le=24 * 365)] = 24.0
    min_age: Annotated[int, Meta(ge=16, le=25)] = 18
    #: What a buy-in costs when the tournament's prize does not say.
    buy_in: Annotated[int, Meta(ge=0, le=10_000_000)] = 0
