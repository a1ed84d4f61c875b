"""The front desk's records in Redis/Valkey: the ``DeskStorage`` (``floor.store.desk_port``).

Every key is in the house's hash slot (``{@house}``), so that a script may touch several::

    floor:{@house}:registry:<id>           string: a registry record (JSON)
    floor:{@house}:registry:names          sorted set (all scores 0): "<folded name>\\x1f<id>",
                                           searched by prefix with ZRANGEBYLEX
    floor:{@house}:identity:<id>           string: an identity (JSON), expiring (PEXPIREAT) at
                                           the end of the venue's retention
    floor:{@house}:desk:shift:<sid>        string: a shift (JSON)
    floor:{@house}:desk:shift:<sid>:closed string: set once, when the shift closed
    floor:{@house}:desk:shift:<sid>:ids    set: the ids of the shift's entries
    floor:{@house}:desk:entries            hash: command id -> entry (JSON)
    floor:{@house}:desk:undone             hash: a sale's id -> the void or refund that undid it
    floor:{@house}:desk:checks             list: the exclusion checks' log, newest first, capped
    floor:{@house}:cashier:<tid>           hash: player -> payment (JSON)
    floor:{@house}:desk:settings           string: the venue's desk settings (JSON)

None of these is in a tournament's log, its exports or ``floor backup``'s files.
"""

from __future__ import annotations

from typing import Final

import msgspec
import redis.asyncio as aioredis

from ..engine.desk.exclusion import Person
from ..engine.desk.identity import Identity
from ..engine.desk.ledger import Entry, Shift
from ..engine.desk.settings import DeskSettings
from ..engine.house.registry import Record, index_keys
from ..store.desk_port import Asked, Check, Payment, Written
from ..store.errors import Unavailable
from .errors import call as _call
from .exclusion import RedisExclusionList
from .pipe import Arg, Script, ScriptPipe

P: Final = "floor:{@house}"
NAMES: Final = f"{P}:registry:names"
ENTRIES: Final = f"{P}:desk:entries"
UNDONE: Final = f"{P}:desk:undone"
CHECKS: Final = f"{P}:desk:checks"
SETTINGS: Final = f"{P}:desk:settings"
#: Checks kept in the log at most (the oldest drop off).
MOST_CHECKS: Final = 200_000

_enc = msgspec.json.Encoder()
_record = msgspec.json.Decoder(Record)
_identity = msgspec.json.Decoder(Identity)
_shift = msgspec.json.Decoder(Shift)
_entry = msgspec.json.Decoder(Entry)
_check = msgspec.json.Decoder(Check)
_payment = msgspec.json.Decoder(Payment)
_settings = msgspec.json.Decoder(DeskSettings)

#: KEYS: entries, the shift's ids, undone, the shift's closed mark; ARGV: id, entry, the sale
#: it undoes ("" for a sale). 1 written, 0 there before, -1 undone before, -2 shift closed.
_WRITE = """
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then return 0 end
if redis.call('EXISTS', KEYS[4]) == 1 then return -2 end
if ARGV[3] ~= '' then
  if redis.call('HSETNX', KEYS[3], ARGV[3], ARGV[1]) == 0 then return -1 end
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('SADD', KEYS[2], ARGV[1])
return 1
"""
#: A take's writes at once, after its registration. KEYS: entries, the shift's ids, undone,
#: the shift's closed mark (as ``_WRITE``), the checks' log, the registry record, the names'
#: index, the identity; ARGV: id, entry, the sale it undoes, the check, checks kept at most,
#: the record ("" for none), the identity, its expiry (ms), then the record's index members.
#: The check is logged and the identity kept whatever the entry's fate, as they were before
#: the entry was written apart; the answer is ``_WRITE``'s. Every command here is written
#: to the append-only file: the log is trimmed only once it is over its cap, and the index
#: members added in one ZADD.
_TAKE = """
if redis.call('LPUSH', KEYS[5], ARGV[4]) > tonumber(ARGV[5]) then
  redis.call('LTRIM', KEYS[5], 0, tonumber(ARGV[5]) - 1)
end
if ARGV[6] ~= '' and redis.call('SET', KEYS[6], ARGV[6], 'NX') and #ARGV >= 9 then
  local members = {}
  for i = 9, #ARGV do members[#members + 1] = 0; members[#members + 1] = ARGV[i] end
  redis.call('ZADD', KEYS[7], unpack(members))
end
redis.call('SET', KEYS[8], ARGV[7], 'PXAT', ARGV[8])
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then return 0 end
if redis.call('EXISTS', KEYS[4]) == 1 then return -2 end
if ARGV[3] ~= '' then
  if redis.call('HSETNX', KEYS[3], ARGV[3], ARGV[1]) == 0 then return -1 end
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('SADD', KEYS[2], ARGV[1])
return 1
"""
#: What a take reads first, at once. KEYS: entries, the shift, the settings, then the imported
#: list's info and digests (``RedisExclusionList.READS``); ARGV: the command id, then the
#: person's digests. The entry, the shift, the settings, the list's info, and which digests
#: the list holds: one script, not a transaction of five (a fifth of the client's work, and
#: the list's age and digests still read as one import left them).
_BEGIN = """
local found = {}
if #ARGV > 1 then found = redis.call('SMISMEMBER', KEYS[5], unpack(ARGV, 2)) end
return {redis.call('HGET', KEYS[1], ARGV[1]), redis.call('GET', KEYS[2]),
        redis.call('GET', KEYS[3]), redis.call('GET', KEYS[4]), found}
"""
_WRITTEN: Final[dict[int, Written]] = {1: "written", 0: "exists", -1: "undone", -2: "closed"}


def _player_key(pid: str) -> str:
    return f"{P}:registry:{pid}"


def _identity_key(pid: str) -> str:
    return f"{P}:identity:{pid}"


def _shift_key(sid: str) -> str:
    return f"{P}:desk:shift:{sid}"


class RedisDesk:
    def __init__(
        self,
        redis: aioredis.Redis,
        listed: RedisExclusionList | None = None,
        pipe: ScriptPipe | None = None,
    ) -> None:
        self._r = redis
        self._write = redis.register_script(_WRITE)
        self._take = redis.register_script(_TAKE)
        self._begin = redis.register_script(_BEGIN)
        #: A take's two calls, on a connection of their own where the URL allows one
        #: (``pipe``: redis-py's client costs more CPU a call than the take's own work).
        self._pipe = pipe
        self._take_script = Script(_TAKE)
        self._begin_script = Script(_BEGIN)
        #: The imported list, when it is the register: a take asks it in its first round trip.
        self.answers = listed

    # The registry -------------------------------------------------------------------------

    async def add_player(self, record: Record) -> Record:
        """``record``, or the record kept under its id before (a retried command)."""
        created = await _call(self._r.set(_player_key(record.id), _enc.encode(record), nx=True))
        if not created:
            kept = await self.player(record.id)
            if kept is not None:
                return kept
        members = {f"{key}\x1f{record.id}": 0 for key in index_keys(record.name)}
        await _call(self._r.zadd(NAMES, members))
        return record

    async def player(self, pid: str) -> Record | None:
        raw = await _call(self._r.get(_player_key(pid)))
        return None if raw is None else _record.decode(raw)

    async def find_players(self, prefix: str, most: int) -> list[Record]:
        start = b"[" + prefix.encode()
        # Past every member that begins with the prefix (0xff starts no UTF-8 character).
        stop = b"[" + prefix.encode() + b"\xff" if prefix else b"+"
        members = await _call(self._r.zrangebylex(NAMES, start, stop, start=0, num=most))
        found = [(m.decode() if isinstance(m, bytes) else m).rsplit("\x1f", 1)[1] for m in members]
        # A name found under two of its words once.
        ids = list(dict.fromkeys(found))
        if not ids:
            return []
        raws = await _call(self._r.mget([_player_key(i) for i in ids]))
        return [_record.decode(r) for r in raws if r is not None]

    async def erase_player(self, pid: str) -> bool:
        record = await self.player(pid)
        pipe = self._r.pipeline(transaction=True)
        pipe.delete(_player_key(pid), _identity_key(pid))
        if record is not None:
            pipe.zrem(NAMES, *(f"{key}\x1f{pid}" for key in index_keys(record.name)))
        await _call(pipe.execute())
        return record is not None

    # Identity ------------------------------------------------------------------------------

    async def put_identity(self, pid: str, identity: Identity, expires_at: float) -> None:
        key = _identity_key(pid)
        pipe = self._r.pipeline(transaction=True)
        pipe.set(key, _enc.encode(identity))
        pipe.pexpireat(key, int(expires_at * 1000))
        await _call(pipe.execute())

    async def identity(self, pid: str) -> Identity | None:
        raw = await _call(self._r.get(_identity_key(pid)))
        return None if raw is None else _identity.decode(raw)

    # Shifts and takings --------------------------------------------------------------------

    async def open_shift(self, shift: Shift) -> None:
        await _call(self._r.set(_shift_key(shift.id), _enc.encode(shift), nx=True))

    async def shift(self, sid: str) -> Shift | None:
        raw = await _call(self._r.get(_shift_key(sid)))
        return None if raw is None else _shift.decode(raw)

    async def close_shift(self, sid: str, counted: int, at: float) -> Shift | None:
        shift = await self.shift(sid)
        if shift is None:
            return None
        if await _call(self._r.set(f"{_shift_key(sid)}:closed", b"1", nx=True)):
            shift = msgspec.structs.replace(shift, closed_at=at, counted=counted)
            await _call(self._r.set(_shift_key(sid), _enc.encode(shift)))
            return shift
        return await self.shift(sid)

    async def begin(self, cid: str, sid: str) -> tuple[Entry | None, Shift | None, DeskSettings]:
        pipe = self._r.pipeline(transaction=False)
        pipe.hget(ENTRIES, cid)
        pipe.get(_shift_key(sid))
        pipe.get(SETTINGS)
        entry, shift, settings = await _call(pipe.execute())
        return (
            None if entry is None else _entry.decode(entry),
            None if shift is None else _shift.decode(shift),
            DeskSettings() if settings is None else _settings.decode(settings),
        )

    async def begin_asking(
        self, cid: str, sid: str, person: Person
    ) -> tuple[Entry | None, Shift | None, DeskSettings, Asked]:
        listed = self.answers
        if listed is None:
            entry, shift, settings = await self.begin(cid, sid)
            return entry, shift, settings, None
        keys = [ENTRIES, _shift_key(sid), SETTINGS, *listed.READS]
        args: list[Arg] = [cid, *listed.asked(person)]
        if self._pipe is not None:
            got = await self._pipe.run(self._begin_script, keys, args)
        else:
            got = await _call(self._begin(keys=keys, args=args))
        entry, shift, settings, info, found = got
        asked: Asked
        try:
            asked = listed.answered(person, info, found)
        except Unavailable:
            asked = None
        return (
            None if entry is None else _entry.decode(entry),
            None if shift is None else _shift.decode(shift),
            DeskSettings() if settings is None else _settings.decode(settings),
            asked,
        )

    async def write_take(
        self,
        check: Check,
        record: Record | None,
        identity: Identity,
        expires_at: float,
        entry: Entry,
    ) -> Written:
        shift = _shift_key(entry.shift)
        keys = [
            ENTRIES,
            f"{shift}:ids",
            UNDONE,
            f"{shift}:closed",
            CHECKS,
            _player_key(entry.player),
            NAMES,
            _identity_key(entry.player),
        ]
        members = (
            [] if record is None else [f"{key}\x1f{record.id}" for key in index_keys(record.name)]
        )
        args: list[Arg] = [
            entry.id,
            _enc.encode(entry),
            entry.of or "",
            _enc.encode(check),
            MOST_CHECKS,
            b"" if record is None else _enc.encode(record),
            _enc.encode(identity),
            int(expires_at * 1000),
            *members,
        ]
        if self._pipe is not None:
            got = await self._pipe.run(self._take_script, keys, args)
        else:
            got = await _call(self._take(keys=keys, args=args))
        return _WRITTEN[int(got)]

    async def entry(self, cid: str) -> Entry | None:
        raw = await _call(self._r.hget(ENTRIES, cid))
        return None if raw is None else _entry.decode(raw)

    async def write_entry(self, entry: Entry) -> Written:
        keys = [
            ENTRIES,
            f"{_shift_key(entry.shift)}:ids",
            UNDONE,
            f"{_shift_key(entry.shift)}:closed",
        ]
        got = await _call(
            self._write(keys=keys, args=[entry.id, _enc.encode(entry), entry.of or ""])
        )
        return _WRITTEN[int(got)]

    async def undone_by(self, sale: str) -> str | None:
        """The void or refund that undid ``sale``, if one did."""
        raw = await _call(self._r.hget(UNDONE, sale))
        return None if raw is None else raw.decode() if isinstance(raw, bytes) else str(raw)

    async def entries(self, sid: str) -> list[Entry]:
        ids = await _call(self._r.smembers(f"{_shift_key(sid)}:ids"))
        if not ids:
            return []
        raws = await _call(self._r.hmget(ENTRIES, sorted(ids)))
        return [_entry.decode(r) for r in raws if r is not None]

    # The checks' log, the cashier, the settings ----------------------------------------------

    async def log_check(self, check: Check) -> None:
        pipe = self._r.pipeline(transaction=True)
        pipe.lpush(CHECKS, _enc.encode(check))
        pipe.ltrim(CHECKS, 0, MOST_CHECKS - 1)
        await _call(pipe.execute())

    async def checks(self, most: int) -> list[Check]:
        raws = await _call(self._r.lrange(CHECKS, 0, most - 1))
        return [_check.decode(r) for r in raws]

    async def pay(self, payment: Payment) -> bool:
        key = f"{P}:cashier:{payment.tournament}"
        return bool(await _call(self._r.hsetnx(key, payment.player, _enc.encode(payment))))

    async def payments(self, tid: str) -> list[Payment]:
        raws = await _call(self._r.hvals(f"{P}:cashier:{tid}"))
        return [_payment.decode(r) for r in raws]

    async def settings(self) -> DeskSettings:
        raw = await _call(self._r.get(SETTINGS))
        return DeskSettings() if raw is None else _settings.decode(raw)

    async def set_settings(self, settings: DeskSettings) -> None:
        await _call(self._r.set(SETTINGS, _enc.encode(settings)))
