"""Draws anyone can check (``engine.fair``, ``store.draws``, ``floor verify``), on a real Valkey.

A tournament made by a server that keeps seeds commits to its chain's head in its creation;
each decision that draws (the first draw, each late entry's seat, a break, the final table's
draw) spends the next seed, revealed in the log; ``floor verify`` decides each again from its
seed and finds exactly the seats the log holds. A forged seed, a seat changed after the draw
(the chain linked again and the digest written again, as a forger would) and a commitment
moved after the first entry are each named, in words.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import random
import subprocess
import sys
from pathlib import Path

import msgspec
import pytest
import redis.asyncio as aioredis

from floor.backup import Line, export
from floor.engine import chain, fair
from floor.engine import commands as cmd
from floor.engine.events import DrawMade
from floor.redisdb.log import RedisLog
from floor.redisdb.seeds import RedisSeeds
from floor.store.service import Service
from tests.integration.test_backup import played

ROOT = Path(__file__).resolve().parents[2]
TID = "fair-night"


def verify(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "floor", "verify", str(path)],
        cwd=ROOT,
        env=dict(os.environ),
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.fixture
async def fair_export(redis: aioredis.Redis, tmp_path: Path) -> Path:
    store = Service(RedisLog(redis), rng=random.Random(5), seeds=RedisSeeds(redis))
    await played(store, TID, players=40, steps=60)
    # The witness's number, then late entries seated from the pool, then a table broken.
    await store.execute(TID, cmd.SetWitness(value="4711"), "witness")
    for i in range(3):
        await store.execute(TID, cmd.Register(name=f"Late {i}", player=f"L{i}"), f"late{i}")
    t, _ = await store.tournament(TID)
    table = max(n for n, tb in t.state.tables.items() if tb.status == "open")
    await store.execute(TID, cmd.BreakTable(table=table), "break")
    path = tmp_path / "fair.floor"
    await export(store, TID, path)
    return path


def lines_of(path: Path) -> tuple[bytes, list[Line], list[bytes]]:
    """The header, the event lines and the two lines after them (the final state, the digest)."""
    raw = path.read_bytes().splitlines(keepends=True)
    return raw[0], [msgspec.json.decode(x, type=Line) for x in raw[1:-2]], raw[-2:]


def forged(path: Path, out: Path, events: list[bytes]) -> Path:
    """The export with ``events`` linked again and digested again: what a forger writes."""
    header, _, tail = lines_of(path)
    links = chain.links(chain.genesis(TID), enumerate(events, 1))
    body = [header]
    body += [
        b'{"seq":%d,"event":%s,"link":"%s"}\n' % (i, data, link.link.encode())
        for (i, data), link in zip(enumerate(events, 1), links, strict=True)
    ]
    body.append(tail[0])
    digest = hashlib.sha256(b"".join(body)).hexdigest()
    out.write_bytes(b"".join(body) + b'{"digest":"sha256:%s"}\n' % digest.encode())
    return out


def draws(events: list[Line]) -> list[tuple[int, DrawMade]]:
    found = []
    for k, line in enumerate(events):
        if b'"type":"draw_made"' in bytes(line.event):
            found.append((k, msgspec.json.decode(bytes(line.event), type=DrawMade)))
    return found


async def test_every_draw_of_a_played_day_is_decided_again_from_its_committed_seed(
    fair_export: Path, redis: aioredis.Redis
) -> None:
    _, events, _ = lines_of(fair_export)
    assert b'"type":"draws_committed"' in bytes(events[1].event)
    made = draws(events)
    # The first draw, three late entries and a break at least; every seed in order.
    assert len(made) >= 5
    assert [d.index for _, d in made] == list(range(1, len(made) + 1))
    assert made[-1][1].witness == "4711"
    out = verify(fair_export)
    assert out.returncode == 0, out.stdout + out.stderr
    line = next(x for x in out.stdout.splitlines() if "the draws" in x)
    assert line.startswith("ok") and f"{len(made)} decided again" in line, out.stdout
    # No seed not yet used is in the export, nor the chain's top.
    kept = msgspec.msgpack.decode(await redis.get(f"floor:{{{TID}}}:seeds"), type=fair.Chain)
    text = await asyncio.to_thread(fair_export.read_bytes)
    assert kept.seed(len(made)).hex() in text.decode()
    assert kept.seed(len(made) + 1).hex() not in text.decode()
    assert kept.top.hex() not in text.decode()


async def test_a_seed_other_than_the_committed_one_is_named(
    fair_export: Path, tmp_path: Path
) -> None:
    _, events, _ = lines_of(fair_export)
    raw = [bytes(x.event) for x in events]
    k, made = draws(events)[2]
    other = hashlib.sha256(b"a seed the operator chose").hexdigest()
    raw[k] = raw[k].replace(made.seed.encode(), other.encode())
    out = verify(forged(fair_export, tmp_path / "seed.floor", raw))
    assert out.returncode == 1
    assert "ok    the hash chain" in out.stdout
    assert f"FAIL  draw 3 (event {k + 1}): its seed {other[:16]}... does not hash" in out.stdout


async def test_a_seat_changed_after_its_draw_names_the_player_and_both_seats(
    fair_export: Path, tmp_path: Path
) -> None:
    _, events, _ = lines_of(fair_export)
    raw = [bytes(x.event) for x in events]
    # A late entry's seat, moved to another free seat of the same table.
    k, made = next(
        (k, d) for k, d in draws(events) if d.decided and '"type":"register"' in d.decided
    )
    seated = next(
        j for j in range(k - made.events, k) if b'"type":"player_seated"' in raw[j]
    )
    event = msgspec.json.decode(raw[seated])
    taken = set()
    for data in raw[:seated]:
        value = msgspec.json.decode(data)
        if value.get("table") == event["table"] and "seat" in value:
            taken.add(value["seat"])
    free = next(s for s in range(1, 11) if s not in taken and s != event["seat"])
    raw[seated] = raw[seated].replace(b'"seat":%d' % event["seat"], b'"seat":%d' % free, 1)
    out = verify(forged(fair_export, tmp_path / "seat.floor", raw))
    assert out.returncode == 1, out.stdout
    said = next(x for x in out.stdout.splitlines() if x.startswith(f"FAIL  draw {made.index}"))
    assert f"the log seats them at table {event['table']}, seat {free}" in said
    assert f"the committed seed draws table {event['table']}, seat {event['seat']}" in said


async def test_a_commitment_published_after_registration_opened_is_refused(
    fair_export: Path, tmp_path: Path
) -> None:
    _, events, _ = lines_of(fair_export)
    raw = [bytes(x.event) for x in events]
    commitment = raw.pop(1)
    first_entry = next(j for j, data in enumerate(raw) if b'"type":"player_registered"' in data)
    raw.insert(first_entry + 1, commitment)
    out = verify(forged(fair_export, tmp_path / "late.floor", raw))
    assert out.returncode == 1
    assert "was published after registration opened" in out.stdout
