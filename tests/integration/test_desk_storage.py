"""The front desk's records on a real Valkey: identity gone after the venue's retention, the
registry found by name and erased for good, a sale written once under its command id, a
sale undone once, nothing written to a closed shift, an imported exclusion list replaced
whole; a take's first read asks the list in its round trip, and its writes land in one
script."""

from __future__ import annotations

import asyncio
import datetime
import time

import msgspec
import pytest
import redis.asyncio as aioredis

from floor.engine.desk import exclusion
from floor.engine.desk.identity import Identity, expires_at
from floor.engine.desk.ledger import Entry, Shift
from floor.engine.house.registry import Record
from floor.redisdb import desk as desk_module
from floor.redisdb.desk import RedisDesk
from floor.redisdb.exclusion import RedisExclusionList
from floor.redisdb.pipe import ScriptPipe
from floor.store.desk_port import Check, ListInfo

ID = Identity(
    doc_type="passport", doc_number="X1234567", birth_date=datetime.date(1980, 1, 2), country="CZ"
)


async def _keys(redis: aioredis.Redis) -> list[bytes]:
    return sorted(await redis.keys("*"))


async def test_an_identity_is_gone_from_valkey_once_the_retention_has_passed(
    redis: aioredis.Redis,
) -> None:
    desk = RedisDesk(redis)
    # Recorded 31 days ago with a retention of 30 (the clock injected): Valkey has deleted it.
    long_ago = time.time() - 31 * 86400
    await desk.put_identity("RAAAAAAAAAA", ID, expires_at(long_ago, 30))
    assert await desk.identity("RAAAAAAAAAA") is None
    assert await _keys(redis) == []
    # Recorded now: kept, with its expiry set to the retention's end.
    now = time.time()
    await desk.put_identity("RBBBBBBBBBB", ID, expires_at(now, 30))
    assert await desk.identity("RBBBBBBBBBB") == ID
    left = await redis.pexpiretime("floor:{@house}:identity:RBBBBBBBBBB")
    assert abs(left / 1000 - (now + 30 * 86400)) < 2
    # And one that expires a moment from now is gone by itself, as Valkey's clock runs.
    await desk.put_identity("RCCCCCCCCCC", ID, time.time() + 0.3)
    for _ in range(100):
        if await desk.identity("RCCCCCCCCCC") is None:
            break
        await asyncio.sleep(0.05)
    assert await redis.exists("floor:{@house}:identity:RCCCCCCCCCC") == 0


async def test_the_registry_finds_by_the_start_of_a_name_and_erasure_leaves_nothing(
    redis: aioredis.Redis,
) -> None:
    desk = RedisDesk(redis)
    for pid, name in (
        ("R000000000A", "Jan Novák"),
        ("R000000000B", "Jana Nováková"),
        ("R000000000C", "Petr Svoboda"),
    ):
        record = Record(
            id=pid, name=name, language="cs", consent_at=1.0, created_at=1.0, consent_by="dora"
        )
        assert await desk.add_player(record) == record
    assert [r.id for r in await desk.find_players("jan", 12)] == ["R000000000A", "R000000000B"]
    assert [r.id for r in await desk.find_players("jan nova", 12)] == ["R000000000A"]
    assert sorted(r.id for r in await desk.find_players("nov", 12)) == [
        "R000000000A",
        "R000000000B",
    ]
    assert [r.id for r in await desk.find_players("petr", 12)] == ["R000000000C"]
    # The same command again keeps the first record.
    again = Record(
        id="R000000000A",
        name="Someone Else",
        language="en",
        consent_at=2.0,
        created_at=2.0,
        consent_by="x",
    )
    assert (await desk.add_player(again)).name == "Jan Novák"
    await desk.put_identity("R000000000A", ID, time.time() + 3600)
    assert await desk.erase_player("R000000000A") is True
    assert await desk.player("R000000000A") is None and await desk.identity("R000000000A") is None
    assert [r.id for r in await desk.find_players("jan", 12)] == ["R000000000B"]
    assert not any(
        b"R000000000A" in m for m in await redis.zrange("floor:{@house}:registry:names", 0, -1)
    )


def _sale(
    cid: str, shift: str = "s-aaaaaaaaaaaa", kind: str = "sale", of: str | None = None
) -> Entry:
    return Entry(
        id=cid,
        kind=kind,  # type: ignore[arg-type]
        shift=shift,
        desk="A",
        by="dora",
        tournament="t",
        player="R000000000A",
        name="Jan",
        method="cash",
        amount=100,
        at=1.0,
        of=of,
    )


async def test_an_entry_is_written_once_undone_once_and_never_into_a_closed_shift(
    redis: aioredis.Redis,
) -> None:
    desk = RedisDesk(redis)
    await desk.open_shift(Shift(id="s-aaaaaaaaaaaa", desk="A", by="dora", opened_at=1.0, float_=0))
    assert await desk.write_entry(_sale("c1")) == "written"
    assert await desk.write_entry(_sale("c1")) == "exists"
    assert await desk.write_entry(_sale("v1", kind="void", of="c1")) == "written"
    assert await desk.write_entry(_sale("v2", kind="refund", of="c1")) == "undone"
    assert sorted(e.id for e in await desk.entries("s-aaaaaaaaaaaa")) == ["c1", "v1"]
    # What a take reads first, in one round trip.
    kept, shift, settings = await desk.begin("c1", "s-aaaaaaaaaaaa")
    assert (
        kept == _sale("c1") and shift is not None and shift.desk == "A" and settings.min_age == 18
    )
    assert await desk.begin("nothing", "s-none") == (None, None, settings)
    closed = await desk.close_shift("s-aaaaaaaaaaaa", 0, 2.0)
    assert closed is not None and closed.counted == 0 and closed.closed_at == 2.0
    assert await desk.write_entry(_sale("c2")) == "closed"
    # Closing again keeps the first count.
    again = await desk.close_shift("s-aaaaaaaaaaaa", 999, 3.0)
    assert again is not None and again.counted == 0


async def test_an_imported_list_is_replaced_whole_and_answers_by_digest(
    redis: aioredis.Redis,
) -> None:
    lists = RedisExclusionList(redis)
    person = exclusion.Person(
        surname="Novák", given_names="Jan", birth_date=datetime.date(1980, 5, 1), doc_number=""
    )
    digests, rows, _ = exclusion.read_list("Novák,Jan,1980-05-01,\n")
    await lists.replace(digests, ListInfo(imported_at=1.0, rows=rows, by="boss"))
    assert (await lists.answer(person))[0] == "excluded"
    other, rows, _ = exclusion.read_list("Svoboda,Petr,1975-01-02,\n")
    await lists.replace(other, ListInfo(imported_at=2.0, rows=rows, by="boss"))
    assert (await lists.answer(person))[0] == "clear"
    info = await lists.info()
    assert info is not None and (info.imported_at, info.rows) == (2.0, 1)
    # Nothing of the names in Valkey.
    for key in await redis.keys("*"):
        if await redis.type(key) == b"set":
            assert not any(b"ovo" in m.lower() for m in await redis.smembers(key))


@pytest.mark.parametrize("piped", [False, True], ids=["redis-py", "pipe"])
async def test_a_take_reads_once_asking_the_list_and_writes_once(
    redis: aioredis.Redis, redis_url: str, piped: bool
) -> None:
    # The server's way (a connection of the take's own, ``ScriptPipe``) and redis-py's
    # (Sentinel, a cluster, TLS) give the same answers.
    lists = RedisExclusionList(redis)
    pipe = ScriptPipe.for_url(redis_url) if piped else None
    desk = RedisDesk(redis, lists, pipe)
    try:
        await _take_reads_once_and_writes_once(redis, desk, lists)
    finally:
        if pipe is not None:
            await pipe.aclose()


async def _take_reads_once_and_writes_once(
    redis: aioredis.Redis, desk: RedisDesk, lists: RedisExclusionList
) -> None:
    assert desk.answers is lists
    await desk.open_shift(Shift(id="s-bbbbbbbbbbbb", desk="B", by="dora", opened_at=1.0, float_=0))
    listed = exclusion.Person(
        surname="Novák", given_names="Jan", birth_date=datetime.date(1980, 5, 1), doc_number=""
    )
    other = exclusion.Person(
        surname="Svoboda", given_names="Petr", birth_date=ID.birth_date, doc_number="X1234567"
    )
    # No list imported: the answer is that there is none (the desk refuses: fails closed).
    kept, shift, _, asked = await desk.begin_asking("c1", "s-bbbbbbbbbbbb", other)
    assert kept is None and shift is not None and asked is None
    digests, rows, _ = exclusion.read_list("Novák,Jan,1980-05-01,\n")
    await lists.replace(digests, ListInfo(imported_at=5.0, rows=rows, by="boss"))
    *_, asked = await desk.begin_asking("c1", "s-bbbbbbbbbbbb", listed)
    assert asked is not None and asked[0] == "excluded" and asked[1] is not None
    assert asked[1].imported_at == 5.0
    *_, asked = await desk.begin_asking("c1", "s-bbbbbbbbbbbb", other)
    assert asked is not None and asked[0] == "clear"

    check = Check(at=2.0, by="dora", desk="B", tournament="t", command="c1", result="clear")
    record = Record(
        id="R000000000A",
        name="Petr Svoboda",
        language="cs",
        consent_at=2.0,
        created_at=2.0,
        consent_by="dora",
    )
    sale = _sale("c1", shift="s-bbbbbbbbbbbb")
    expires = time.time() + 3600
    assert await desk.write_take(check, record, ID, expires, sale) == "written"
    assert await desk.checks(10) == [check]
    assert await desk.player("R000000000A") == record
    assert [r.id for r in await desk.find_players("svob", 12)] == ["R000000000A"]
    # Found by each word of the name (the index's members added in one ZADD).
    assert [r.id for r in await desk.find_players("petr", 12)] == ["R000000000A"]
    assert await desk.identity("R000000000A") == ID
    left = await redis.pexpiretime("floor:{@house}:identity:R000000000A")
    assert abs(left / 1000 - expires) < 1
    assert [e.id for e in await desk.entries("s-bbbbbbbbbbbb")] == ["c1"]
    kept, *_ = await desk.begin_asking("c1", "s-bbbbbbbbbbbb", other)
    assert kept == sale
    # Written again (a retry): the sale and the record stay the first ones.
    renamed = msgspec.structs.replace(record, name="Someone Else")
    assert await desk.write_take(check, renamed, ID, expires, sale) == "exists"
    assert await desk.player("R000000000A") == record
    assert [r.id for r in await desk.find_players("someone", 12)] == []
    # Into a closed shift no sale is written; the check's line is logged all the same.
    await desk.close_shift("s-bbbbbbbbbbbb", 0, 3.0)
    late = Check(at=4.0, by="dora", desk="B", tournament="t", command="c2", result="clear")
    assert await desk.write_take(late, None, ID, expires, _sale("c2", "s-bbbbbbbbbbbb")) == (
        "closed"
    )
    assert (await desk.checks(1))[0] == late
    assert [e.id for e in await desk.entries("s-bbbbbbbbbbbb")] == ["c1"]
    # Nothing of the identity in the checks' log.
    for raw in await redis.lrange("floor:{@house}:desk:checks", 0, -1):
        assert b"X1234567" not in raw and b"1980" not in raw


async def test_the_checks_log_keeps_the_newest_up_to_its_cap(
    redis: aioredis.Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Trimmed only once over the cap (each trim is a write to the append-only file), and
    then to exactly the cap, the newest first."""
    monkeypatch.setattr(desk_module, "MOST_CHECKS", 3)
    desk = RedisDesk(redis)
    await desk.open_shift(Shift(id="s-cccccccccccc", desk="C", by="dora", opened_at=1.0, float_=0))
    expires = time.time() + 3600
    for i in range(5):
        check = Check(at=i, by="dora", desk="C", tournament="t", command=f"k{i}", result="clear")
        sale = _sale(f"k{i}", shift="s-cccccccccccc")
        assert await desk.write_take(check, None, ID, expires, sale) == "written"
        assert [c.command for c in await desk.checks(10)] == [f"k{j}" for j in range(i, -1, -1)][:3]
    assert await redis.llen("floor:{@house}:desk:checks") == 3
