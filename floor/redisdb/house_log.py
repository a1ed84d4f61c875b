"""The house's log on Redis (``floor.store.house``): a tournament's shapes under keys of its
own (``Keys.house()``), written by the same append script."""

from __future__ import annotations

from typing import Any

from ..store.house import HouseAppend, HouseStored
from ..store.outcome import Kept
from ..store.ports import Appended
from .errors import call
from .keys import Keys
from .log import RedisLog, stream_entries

_KEYS = Keys.house()


class RedisHouseLog:
    """``HouseLog`` on Redis or Valkey, sharing a ``RedisLog``'s connection and script."""

    def __init__(self, log: RedisLog) -> None:
        self._log = log
        self.redis = log.redis

    async def load(self) -> HouseStored:
        async def snapshot_and_seq() -> list[Any]:
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.get(_KEYS.snapshot)
                pipe.hget(_KEYS.meta, "snapshot")
                replies: list[Any] = await pipe.execute()
            return replies

        snapshot, raw_seq = await call(snapshot_and_seq())
        seq = 0 if raw_seq is None or snapshot is None else int(raw_seq)
        tail = await self.read(seq, 1_000_000)
        return HouseStored(snapshot=snapshot, seq=seq, tail=tail)

    async def read(self, after: int, limit: int) -> list[tuple[int, bytes]]:
        raw = await call(self.redis.xrange(_KEYS.events, f"{after + 1}-0", "+", count=limit))
        return stream_entries(raw)

    async def append(self, append: HouseAppend) -> Appended:
        last = append.version + len(append.events)
        return await self._log.append_to(
            _KEYS,
            version=append.version,
            command_id=append.command_id,
            events=append.events,
            result=Kept(ok=True, first=append.version + 1, last=last),
            snapshot=append.snapshot or b"",
            payload=b"",
        )
