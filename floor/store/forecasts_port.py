"""The port behind the day forecaster's records: kept beside a tournament's log, never in it.

The forecaster (``floor.server.forecasts``) decides what to keep; an implementation keeps it:
``floor.redisdb.forecasts`` on Redis/Valkey (keys under the tournament's hash tag). Plain
bytes (JSON the forecaster wrote), by name:

- ``current``: the latest forecast of the day as it stands (no what-if);
- ``truth``: what had happened when the latest forecast was made (``floor.forecast.truth``);
- ``settings``: the tournament's forecast settings (a closing time, the dealers per table,
  whether the wall shows the expected moment);
- one forecast kept per step of the clock (the first made at that level), to be read beside
  what happened at the end of the day;
- jobs: the forecast running (or last run) for the tournament, by id, expiring; a new job
  named as the tournament's current one tells the running one, in whatever process, to stop.
"""

from __future__ import annotations

from typing import Final, Literal, Protocol

Record = Literal["current", "truth", "settings"]
RECORDS: Final[tuple[Record, ...]] = ("current", "truth", "settings")


class ForecastStorage(Protocol):
    """A failing backend raises ``Unavailable``; each method is one atomic step."""

    async def get(self, tid: str, name: Record) -> bytes | None: ...

    async def put(self, tid: str, name: Record, data: bytes) -> None: ...

    async def keep(self, tid: str, step: int, data: bytes) -> bool:
        """Keep ``data`` as the forecast of ``step`` unless one is kept already (True: kept)."""
        ...

    async def kept(self, tid: str) -> dict[int, bytes]:
        """Every forecast kept, by step."""
        ...

    async def claim(self, tid: str, key: str, ttl: int) -> bool:
        """True for the one caller that claims ``key`` first within ``ttl`` seconds."""
        ...

    async def start_job(self, tid: str, job: str, data: bytes, ttl: int) -> None:
        """``job`` becomes the tournament's current job, stored with ``data``."""
        ...

    async def current_job(self, tid: str) -> str | None: ...

    async def put_job(self, tid: str, job: str, data: bytes, ttl: int) -> None: ...

    async def job(self, tid: str, job: str) -> bytes | None: ...
