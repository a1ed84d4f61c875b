"""Where the seat cards' key and their one scan each are kept (``floor.redisdb.seat_pass``)."""

from __future__ import annotations

from typing import Protocol

import msgspec


class Scanned(msgspec.Struct, frozen=True, kw_only=True):
    """A card's one scan: when, by whom (an account or a table screen), at which table."""

    at: float
    by: str
    table: int | None


class SeatPassStorage(Protocol):
    async def key(self) -> bytes:
        """The floor's seat-card key, made once (every process signs with the same)."""
        ...

    async def take(self, mark: str, scan: Scanned, keep: float) -> Scanned | None:
        """``scan`` written as the card's one scan (kept ``keep`` seconds): None; or the scan
        written before it, left as it was."""
        ...
