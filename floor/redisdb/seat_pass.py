"""The seat cards' key and their scans in Redis/Valkey (``floor.store.seat_pass_port``)::

    floor:{@house}:seatpass:key             string: the HMAC key (32 random bytes), made once
    floor:{@house}:seatpass:used:<mark>     string: a card's one scan (JSON), expiring

A leaked key lets someone make a card for a seat, never pass the dealer's look at the
document (the name and its last digits come from the desk's records, not from the card);
deleting the key voids every card shown (phones fetch a new one when they show it again).
"""

from __future__ import annotations

import os
from typing import Final

import msgspec
import redis.asyncio as aioredis

from ..store.seat_pass_port import Scanned
from .errors import call as _call

P: Final = "floor:{@house}:seatpass"
KEY: Final = f"{P}:key"

_enc = msgspec.json.Encoder()
_scanned = msgspec.json.Decoder(Scanned)


class RedisSeatPasses:
    def __init__(self, redis: aioredis.Redis) -> None:
        self._r = redis
        self._key: bytes | None = None

    async def key(self) -> bytes:
        if self._key is None:
            # The first process to ask makes it; the others read the one it made.
            await _call(self._r.set(KEY, os.urandom(32), nx=True))
            raw = await _call(self._r.get(KEY))
            assert raw is not None
            self._key = raw if isinstance(raw, bytes) else raw.encode("latin-1")
        return self._key

    async def take(self, mark: str, scan: Scanned, keep: float) -> Scanned | None:
        key = f"{P}:used:{mark}"
        pipe = self._r.pipeline(transaction=True)
        pipe.set(key, _enc.encode(scan), nx=True, px=max(1, int(keep * 1000)))
        pipe.get(key)
        written, raw = await _call(pipe.execute())
        if written or raw is None:
            return None
        return _scanned.decode(raw)
