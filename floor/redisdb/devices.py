"""Table screens and their pairing codes in Redis: the ``DeviceStorage``.

Keys (outside any tournament's hash tag; each command touches one key, so the same code runs
on a cluster)::

    floor:pairing:<slot>            hash {code: JSON, digest, tries}: a code waiting to be
                                    typed, expires with it
    floor:device:<id>               string: the device (JSON), expires with it
    floor:device:token:<sha256>     string: the device id its token names, expires with it
    floor:devices                   set: the ids of the devices (listing; pruned as read)
    floor:devices:seen              hash: id -> when it was last heard from

A device's revision is its stored JSON: a compare-and-swap on the very bytes read.
"""

from __future__ import annotations

from typing import Any, Final

import msgspec
import redis.asyncio as aioredis

from ..store.devices_port import Device, HeldDevice, PairingCode
from .errors import call as _call

CODE_PREFIX: Final = "floor:pairing:"
DEVICE_PREFIX: Final = "floor:device:"
TOKEN_PREFIX: Final = "floor:device:token:"
DEVICES: Final = "floor:devices"
SEEN: Final = "floor:devices:seen"

_encoder = msgspec.json.Encoder()
_device = msgspec.json.Decoder(Device)
_code = msgspec.json.Decoder(PairingCode)

#: ``try_code``: the code when the digest matches (and it is gone), else one try fewer
#: (gone after the last) and nil.
_TRY = """
local digest = redis.call('HGET', KEYS[1], 'digest')
if not digest then return false end
if digest == ARGV[1] then
  local code = redis.call('HGET', KEYS[1], 'code')
  redis.call('DEL', KEYS[1])
  return code
end
if redis.call('HINCRBY', KEYS[1], 'tries', -1) <= 0 then redis.call('DEL', KEYS[1]) end
return false
"""

#: ``add_code``: the code in a free slot, with its tries, expiring: 1, or 0 if taken.
_ADD = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'code', ARGV[1], 'digest', ARGV[2], 'tries', ARGV[3])
redis.call('EXPIRE', KEYS[1], ARGV[4])
return 1
"""

#: Replace a string only if it still holds ARGV[1], keeping its expiry: 1 done, 0 not.
_SWAP = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL')
  return 1
end
return 0
"""


def _bytes(value: bytes | str) -> bytes:
    return value.encode() if isinstance(value, str) else value


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


class RedisDevices:
    """A ``DeviceStorage`` on a Redis/Valkey server or cluster."""

    def __init__(self, redis: aioredis.Redis) -> None:
        self.redis = redis
        self._try = redis.register_script(_TRY)
        self._add = redis.register_script(_ADD)
        self._swap = redis.register_script(_SWAP)

    # Pairing codes --------------------------------------------------------------------------

    async def add_code(self, code: PairingCode, tries: int, ttl: int) -> bool:
        args: list[bytes | str | int] = [_encoder.encode(code), code.digest, tries, ttl]
        done = await _call(self._add(keys=[CODE_PREFIX + code.slot], args=args))
        return bool(done)

    async def try_code(self, slot: str, digest: str) -> PairingCode | None:
        raw: Any = await _call(self._try(keys=[CODE_PREFIX + slot], args=[digest]))
        return None if raw is None else _code.decode(raw)

    async def code_tries(self, slot: str) -> int | None:
        raw: Any = await _call(self.redis.hget(CODE_PREFIX + slot, "tries"))
        return None if raw is None else int(raw)

    # Devices ----------------------------------------------------------------------------------

    async def add_device(self, device: Device, ttl: int) -> None:
        # The id is listed first and the token last: a token never names a device not there.
        await _call(self.redis.sadd(DEVICES, device.id))
        await _call(self.redis.set(DEVICE_PREFIX + device.id, _encoder.encode(device), ex=ttl))
        await _call(self.redis.set(TOKEN_PREFIX + device.token, device.id, ex=ttl))

    async def device(self, device_id: str) -> HeldDevice | None:
        raw: Any = await _call(self.redis.get(DEVICE_PREFIX + device_id))
        return None if raw is None else HeldDevice(_device.decode(raw), _bytes(raw))

    async def device_by_token(self, token: str) -> HeldDevice | None:
        found: Any = await _call(self.redis.get(TOKEN_PREFIX + token))
        if found is None:
            return None
        held = await self.device(_text(found))
        # A token left behind by a device since paired anew is nobody's.
        return held if held is not None and held.device.token == token else None

    async def replace_device(self, revision: bytes, device: Device) -> bytes | None:
        new = _encoder.encode(device)
        done = await _call(self._swap(keys=[DEVICE_PREFIX + device.id], args=[revision, new]))
        return new if done else None

    async def remove_device(self, device_id: str) -> Device | None:
        raw: Any = await _call(self.redis.getdel(DEVICE_PREFIX + device_id))
        await _call(self.redis.srem(DEVICES, device_id))
        await _call(self.redis.hdel(SEEN, device_id))
        if raw is None:
            return None
        device = _device.decode(raw)
        await _call(self.redis.delete(TOKEN_PREFIX + device.token))
        return device

    async def devices(self) -> list[Device]:
        found: Any = await _call(self.redis.smembers(DEVICES))
        ids = sorted(_text(i) for i in found)
        if not ids:
            return []
        # One GET per key (not an MGET), so that no command spans cluster slots.
        async with self.redis.pipeline(transaction=False) as pipe:
            for device_id in ids:
                pipe.get(DEVICE_PREFIX + device_id)
            records: Any = await _call(pipe.execute())
        out: list[Device] = []
        gone: list[str] = []
        for device_id, raw in zip(ids, records, strict=True):
            if raw is None:
                gone.append(device_id)
            else:
                out.append(_device.decode(raw))
        if gone:  # expired: their keys went by themselves
            await _call(self.redis.srem(DEVICES, *gone))
            await _call(self.redis.hdel(SEEN, *gone))
        return out

    async def seen(self, device_id: str, when: float) -> None:
        await _call(self.redis.hset(SEEN, device_id, repr(when)))

    async def last_seen(self, device_ids: list[str]) -> list[float | None]:
        if not device_ids:
            return []
        raw: Any = await _call(self.redis.hmget(SEEN, device_ids))
        return [None if v is None else float(_text(v)) for v in raw]
