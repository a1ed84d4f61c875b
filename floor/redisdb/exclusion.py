"""The exclusion register's adapter for a list the venue imports (``ExclusionRegister``).

The list is kept as the digests of its people's match keys (``engine.desk.exclusion.keys``),
never as names; each import replaces it whole (written under a key of its own, then renamed
over the old one in one step, so a check never sees half a list)::

    floor:{@house}:exclusion:keys      set: the digests
    floor:{@house}:exclusion:info      string: when it was imported, its rows, by whom (JSON)
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from typing import Final

import msgspec
import redis.asyncio as aioredis
from redis.asyncio.client import Pipeline

from ..engine.desk.exclusion import Answer, Person, keys, matches
from ..store.desk_port import ListInfo
from ..store.errors import Unavailable
from .errors import call as _call

KEYS: Final = "floor:{@house}:exclusion:keys"
INFO: Final = "floor:{@house}:exclusion:info"
#: Digests sent to Valkey in one call while a list is written.
BATCH: Final = 5_000

_enc = msgspec.json.Encoder()
_info = msgspec.json.Decoder(ListInfo)


class RedisExclusionList:
    def __init__(self, redis: aioredis.Redis) -> None:
        self._r = redis

    async def answer(self, person: Person) -> tuple[Answer, ListInfo | None]:
        pipe = self._r.pipeline(transaction=True)
        self.ask(pipe, person)
        raw, found = await _call(pipe.execute())
        return self.answered(person, raw, found)

    @staticmethod
    def ask(pipe: Pipeline, person: Person) -> None:
        """The list's age and ``person``'s digests asked in ``pipe`` (two replies, for
        ``answered``)."""
        pipe.get(INFO)
        pipe.smismember(KEYS, list(keys(person)))

    #: The keys a script reads to answer as ``ask`` does: GET of the first, SMISMEMBER of
    #: ``person``'s digests (``asked``) in the second, the two replies for ``answered``. A
    #: take asks them in the script that reads its shift (``RedisDesk.begin_asking``).
    READS: Final = (INFO, KEYS)

    @staticmethod
    def asked(person: Person) -> list[str]:
        return list(keys(person))

    @staticmethod
    def answered(
        person: Person, raw: bytes | None, found: list[int]
    ) -> tuple[Answer, ListInfo | None]:
        if raw is None:
            raise Unavailable("no exclusion list has been imported")
        return matches(person, (bool(x) for x in found)), _info.decode(raw)

    async def info(self) -> ListInfo | None:
        raw = await _call(self._r.get(INFO))
        return None if raw is None else _info.decode(raw)

    async def replace(self, digests: Iterable[str], info: ListInfo) -> None:
        """The list replaced whole by ``digests``."""
        temp = f"floor:{{@house}}:exclusion:new:{uuid.uuid4().hex}"
        batch: list[str] = []
        try:
            for d in digests:
                batch.append(d)
                if len(batch) >= BATCH:
                    await _call(self._r.sadd(temp, *batch))
                    batch = []
            if batch:
                await _call(self._r.sadd(temp, *batch))
            pipe = self._r.pipeline(transaction=True)
            if info.rows:
                pipe.rename(temp, KEYS)
            else:
                pipe.delete(KEYS)
            pipe.set(INFO, _enc.encode(info))
            await _call(pipe.execute())
        finally:
            await _call(self._r.delete(temp))
