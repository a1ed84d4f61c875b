"""The day forecaster's records in Redis: the ``ForecastStorage``.

Keys, under the tournament's hash tag (its slot; ``floor demo``'s wipe takes them along)::

    floor:{id}:forecast:current        string: the latest forecast (JSON)
    floor:{id}:forecast:truth          string: what had happened by then
    floor:{id}:forecast:settings       string: the forecast settings
    floor:{id}:forecast:levels         hash: step -> the first forecast made at that step
    floor:{id}:forecast:claim:<key>    string, expiring: who recomputes at a level
    floor:{id}:forecast:job            string: the current job's id
    floor:{id}:forecast:job:<job>      string, expiring: a job's state and result
"""

from __future__ import annotations

from ..store.forecasts_port import Record
from .connection import Client
from .errors import call
from .keys import Keys


def _prefix(tid: str) -> str:
    return f"{Keys(tid).prefix}:forecast"


def _bytes(value: bytes | str | None) -> bytes | None:
    if value is None:
        return None
    return value.encode() if isinstance(value, str) else value


#: A job stored and made the tournament's current one, in one step (both keys in its slot).
_START = """
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[3])
redis.call('SET', KEYS[2], ARGV[2], 'EX', ARGV[3])
return 1
"""


class RedisForecasts:
    """``ForecastStorage`` on Redis or Valkey."""

    def __init__(self, redis: Client) -> None:
        self.redis = redis
        self._start = redis.register_script(_START)

    async def get(self, tid: str, name: Record) -> bytes | None:
        return _bytes(await call(self.redis.get(f"{_prefix(tid)}:{name}")))

    async def put(self, tid: str, name: Record, data: bytes) -> None:
        await call(self.redis.set(f"{_prefix(tid)}:{name}", data))

    async def keep(self, tid: str, step: int, data: bytes) -> bool:
        return bool(await call(self.redis.hsetnx(f"{_prefix(tid)}:levels", str(step), data)))

    async def kept(self, tid: str) -> dict[int, bytes]:
        raw = await call(self.redis.hgetall(f"{_prefix(tid)}:levels"))
        out: dict[int, bytes] = {}
        for key, value in raw.items():
            text = key.decode() if isinstance(key, bytes) else str(key)
            data = _bytes(value)
            if text.isdigit() and data is not None:
                out[int(text)] = data
        return out

    async def claim(self, tid: str, key: str, ttl: int) -> bool:
        done = await call(self.redis.set(f"{_prefix(tid)}:claim:{key}", b"1", nx=True, ex=ttl))
        return bool(done)

    async def start_job(self, tid: str, job: str, data: bytes, ttl: int) -> None:
        prefix = _prefix(tid)
        keys = [f"{prefix}:job:{job}", f"{prefix}:job"]
        await call(self._start(keys=keys, args=[data, job.encode(), ttl]))

    async def current_job(self, tid: str) -> str | None:
        raw = _bytes(await call(self.redis.get(f"{_prefix(tid)}:job")))
        return raw.decode() if raw is not None else None

    async def put_job(self, tid: str, job: str, data: bytes, ttl: int) -> None:
        await call(self.redis.set(f"{_prefix(tid)}:job:{job}", data, ex=ttl))

    async def job(self, tid: str, job: str) -> bytes | None:
        return _bytes(await call(self.redis.get(f"{_prefix(tid)}:job:{job}")))
