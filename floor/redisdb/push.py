"""Push subscriptions, the floorpersons' sections and the VAPID key in Redis: the
``PushStorage``.

Keys (none is a tournament's log; each command touches one key, so the same code runs on a
cluster)::

    floor:{<id>}:push           hash: player id -> JSON list of that player's subscriptions
                                (the tournament's hash tag: one HMGET for every player a
                                batch concerns)
    floor:push:staff            hash: username -> JSON list of their subscriptions
    floor:sections:<id>         hash: username -> JSON list of the tables of their section
    floor:push:vapid            string: the VAPID private key (PEM), set once
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import msgspec
import redis.asyncio as aioredis

from ..store.ids import check_tournament_id
from ..store.push_port import Owner, Subscription
from .errors import call as _call
from .keys import Keys

STAFF: Final = "floor:push:staff"
SECTIONS: Final = "floor:sections:"
VAPID: Final = "floor:push:vapid"

_encoder = msgspec.json.Encoder()
_subs = msgspec.json.Decoder(list[Subscription])
_tables = msgspec.json.Decoder(list[int])

#: ``subscribe``: the owner's list without the endpoint, plus the new one unless it already
#: holds ARGV[4]: how many it holds now, or -1 (nothing written).
_SUBSCRIBE = """
local raw = redis.call('HGET', KEYS[1], ARGV[1])
local kept = {}
if raw then
  for _, s in ipairs(cjson.decode(raw)) do
    if s.endpoint ~= ARGV[3] then table.insert(kept, s) end
  end
end
if #kept >= tonumber(ARGV[4]) then return -1 end
table.insert(kept, cjson.decode(ARGV[2]))
redis.call('HSET', KEYS[1], ARGV[1], cjson.encode(kept))
return #kept
"""

#: ``unsubscribe``: the owner's list without the endpoint (the field gone when empty): 1 if
#: there was one, else 0.
_UNSUBSCRIBE = """
local raw = redis.call('HGET', KEYS[1], ARGV[1])
if not raw then return 0 end
local kept = {}
local found = 0
for _, s in ipairs(cjson.decode(raw)) do
  if s.endpoint == ARGV[2] then found = 1 else table.insert(kept, s) end
end
if found == 0 then return 0 end
if #kept == 0 then redis.call('HDEL', KEYS[1], ARGV[1])
else redis.call('HSET', KEYS[1], ARGV[1], cjson.encode(kept)) end
return 1
"""


def _where(owner: Owner) -> tuple[str, str]:
    """The hash and the field an owner's subscriptions are kept in."""
    if owner.staff is not None:
        return STAFF, owner.staff
    if owner.tournament is None or owner.player is None:
        raise ValueError("a subscription belongs to a player of a tournament or to staff")
    return _players_key(owner.tournament), owner.player


def _players_key(tournament: str) -> str:
    return f"{Keys(tournament).prefix}:push"


def _bytes(value: bytes | str) -> bytes:
    return value.encode() if isinstance(value, str) else value


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


class RedisPush:
    """A ``PushStorage`` on a Redis/Valkey server or cluster."""

    def __init__(self, redis: aioredis.Redis) -> None:
        self.redis = redis
        self._subscribe: Any = redis.register_script(_SUBSCRIBE)
        self._unsubscribe: Any = redis.register_script(_UNSUBSCRIBE)

    async def subscribe(self, owner: Owner, sub: Subscription, most: int) -> int | None:
        key, field = _where(owner)
        held = await _call(
            self._subscribe(keys=[key], args=[field, _encoder.encode(sub), sub.endpoint, most])
        )
        return None if int(held) < 0 else int(held)

    async def unsubscribe(self, owner: Owner, endpoint: str) -> bool:
        key, field = _where(owner)
        return bool(await _call(self._unsubscribe(keys=[key], args=[field, endpoint])))

    async def _read(self, key: str, fields: Sequence[str]) -> dict[str, list[Subscription]]:
        if not fields:
            return {}
        raw = await _call(self.redis.hmget(key, list(fields)))
        return {f: _subs.decode(_bytes(r)) for f, r in zip(fields, raw, strict=True) if r}

    async def of_players(
        self, tournament: str, players: Sequence[str]
    ) -> dict[str, list[Subscription]]:
        return await self._read(_players_key(tournament), players)

    async def raw_of_players(self, tournament: str, players: Sequence[str]) -> dict[str, bytes]:
        if not players:
            return {}
        key = _players_key(tournament)
        raw = await _call(self.redis.hmget(key, list(players)))
        return {p: _bytes(r) for p, r in zip(players, raw, strict=True) if r}

    async def of_staff(self, usernames: Sequence[str]) -> dict[str, list[Subscription]]:
        return await self._read(STAFF, usernames)

    async def staff_subscribed(self) -> list[str]:
        names: list[bytes | str] = await _call(self.redis.hkeys(STAFF))
        return sorted(_text(n) for n in names)

    async def sections(self, tournament: str) -> dict[str, list[int]]:
        key = SECTIONS + check_tournament_id(tournament)
        raw = await _call(self.redis.hgetall(key))
        return {_text(u): _tables.decode(_bytes(t)) for u, t in raw.items()}

    async def set_section(self, tournament: str, username: str, tables: Sequence[int]) -> None:
        key = SECTIONS + check_tournament_id(tournament)
        if tables:
            await _call(self.redis.hset(key, username, _encoder.encode(sorted(set(tables)))))
        else:
            await _call(self.redis.hdel(key, username))

    async def vapid_key(self, candidate: bytes) -> bytes:
        await _call(self.redis.set(VAPID, candidate, nx=True))
        kept = await _call(self.redis.get(VAPID))
        return _bytes(kept) if kept is not None else candidate
