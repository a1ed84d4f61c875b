"""What the walls show besides a tournament, in Redis: the ``WallStorage``.

Keys, under a hash tag of their own (``@`` starts no tournament id)::

    floor:{@wall}:image:<digest>   hash: type (the media type), data (the bytes)
    floor:{@wall}:brand            hash: slot (logo, sponsor:<id>) -> the image's name
    floor:{@wall}:screens          hash: a named screen -> its layout (JSON)
"""

from __future__ import annotations

from .connection import Client
from .errors import call

PREFIX = "floor:{@wall}"


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def _bytes(value: bytes | str) -> bytes:
    return value.encode() if isinstance(value, str) else value


class RedisWalls:
    """``WallStorage`` on Redis or Valkey."""

    def __init__(self, redis: Client) -> None:
        self.redis = redis

    async def put_image(self, digest: str, media_type: str, data: bytes) -> None:
        key = f"{PREFIX}:image:{digest}"
        await call(self.redis.hset(key, mapping={"type": media_type, "data": data}))

    async def image(self, digest: str) -> tuple[str, bytes] | None:
        raw = await call(self.redis.hmget(f"{PREFIX}:image:{digest}", ["type", "data"]))
        kind, data = raw
        if kind is None or data is None:
            return None
        return _text(kind), _bytes(data)

    async def set_brand(self, slot: str, name: str | None) -> None:
        if name is None:
            await call(self.redis.hdel(f"{PREFIX}:brand", slot))
        else:
            await call(self.redis.hset(f"{PREFIX}:brand", slot, name))

    async def brand(self, slots: list[str]) -> dict[str, str]:
        raw = await call(self.redis.hmget(f"{PREFIX}:brand", slots))
        return {s: _text(v) for s, v in zip(slots, raw, strict=True) if v is not None}

    async def put_screen(self, name: str, data: bytes) -> None:
        await call(self.redis.hset(f"{PREFIX}:screens", name, data))

    async def drop_screen(self, name: str) -> bool:
        return bool(await call(self.redis.hdel(f"{PREFIX}:screens", name)))

    async def screens(self) -> dict[str, bytes]:
        raw = await call(self.redis.hgetall(f"{PREFIX}:screens"))
        return {_text(k): _bytes(v) for k, v in raw.items()}

    async def screen(self, name: str) -> bytes | None:
        raw = await call(self.redis.hget(f"{PREFIX}:screens", name))
        return None if raw is None else _bytes(raw)
