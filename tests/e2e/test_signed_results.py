"""A venue that signs (``FLOOR_SIGNING_KEY`` made by ``floor keys new``), on a real ``floor
serve``: a day played to its winner, its results and payout table read signed from the open
API, the key list from its well-known address, and both checked offline by ``floor verify``
with no server running; the chain's head the open API shows is the last link of the export
the director downloads, and a head noted during the day is a link of it."""

from __future__ import annotations

import asyncio
import json
import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import msgspec
import pytest

from floor import signing
from floor.config import resolve_structure
from floor.engine import commands as cmd
from floor.engine.autopilot import next_step
from floor.engine.prize import Prize
from floor.redisdb.connection import connect
from floor.redisdb.embedded import EmbeddedServer
from floor.redisdb.log import RedisLog
from floor.redisdb.seeds import RedisSeeds
from floor.store.service import Service
from tests.e2e.conftest import ServerProcess, add_user, sign_in
from tests.integration.test_backup import RULES

ROOT = Path(__file__).resolve().parents[2]
TID = "signed-day"


async def play(url: str, base: str, noted: list[dict[str, object]]) -> None:
    """A 300-player day to its winner, 20 of them late entries (its draws committed: the
    server's seeds); ``noted`` gets the heads a reporter noted meanwhile."""
    redis = connect(url)
    store = Service(RedisLog(redis), rng=random.Random(4), seeds=RedisSeeds(redis))
    prize = msgspec.convert(
        {
            "currency": "EUR",
            "buy_in": 100,
            "fee": 10,
            "payouts": [{"entries": 3, "percents": [50, 30, 20]}],
        },
        Prize,
    )
    structure = msgspec.structs.replace(resolve_structure("demo-fast"), prize=prize)
    await store.create(TID, "Signed Sunday", RULES, structure)
    for i in range(280):
        await store.execute(TID, cmd.Register(name=f"Hráč {i}", player=f"P{i}"), f"r{i}")
    await store.execute(TID, cmd.SetWitness(value="4242"), "witness")
    await store.execute(TID, cmd.DrawSeats(), "draw")
    await store.execute(TID, cmd.ClockStart(), "go")
    for i in range(280, 300):
        await store.execute(TID, cmd.Register(name=f"Pozdní {i}", player=f"P{i}"), f"r{i}")
    rng = random.Random(4)
    for i in range(20_000):
        t, _ = await store.tournament(TID)
        if i in (20, 600):
            noted.append(httpx.get(f"{base}/chain").json())
        step = next_step(t, rng)
        if step is None:
            break
        await store.execute(TID, step, f"s{i}")
    await store.log.redis.aclose()


@pytest.fixture(scope="module")
def keys(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("venue")
    signing.new_key(directory, 1_700_000_000.0)
    return directory


@pytest.fixture(scope="module")
def server(
    valkey: EmbeddedServer, keys: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServerProcess]:
    add_user(valkey.url, "boss", "director-secret", "director")
    proc = ServerProcess(
        valkey.url,
        tmp_path_factory.mktemp("signed") / "server.log",
        FLOOR_SIGNING_KEY=str(keys / signing.KEY_FILE),
    )
    proc.start()
    try:
        yield proc
    finally:
        proc.stop()


def test_signed_results_and_the_chain_check_offline(
    server: ServerProcess, valkey: EmbeddedServer, tmp_path: Path
) -> None:
    base = f"{server.base}/api/open/v1/t/{TID}"
    noted: list[dict[str, object]] = []
    asyncio.run(play(valkey.url, base, noted))
    # The day's head, as a reporter notes it from the open API.
    head = httpx.get(f"{base}/chain").json()
    assert head["spec"] == "floor-chain/1" and len(head["head"]) == 64

    signed = httpx.get(f"{base}/results/signed")
    assert signed.status_code == 200, signed.text
    again = httpx.get(f"{base}/results/signed", headers={"If-None-Match": signed.headers["etag"]})
    assert again.status_code == 304
    doc = signed.json()["document"]
    assert doc["tournament"] == TID and doc["seq"] == head["seq"]
    assert doc["chain"] == {"spec": "floor-chain/1", "head": head["head"]}
    assert [r["place"] for r in doc["results"]] == list(range(1, 301))
    assert doc["payouts"] and doc["payouts"][0]["place"] == 1

    listed = httpx.get(f"{server.base}/.well-known/floor-keys.json")
    assert listed.status_code == 200
    assert [k["key_id"] for k in listed.json()["keys"]] == [signed.json()["signature"]["key_id"]]

    director = sign_in(server, "boss", "director-secret")
    export = httpx.get(f"{server.base}/api/t/{TID}/export/log", headers=director)
    assert export.status_code == 200
    lines = export.content.splitlines()
    assert json.loads(lines[-4])["link"] == head["head"]
    assert json.loads(lines[-4])["seq"] == head["seq"]
    # The heads noted during the day are links of the log exported at its end.
    assert len(noted) == 2
    for seen in noted:
        assert isinstance(seen["seq"], int)
        assert json.loads(lines[seen["seq"]])["link"] == seen["head"], seen

    # Offline: the files alone, no server and no Valkey named.
    (tmp_path / "results.json").write_bytes(signed.content)
    (tmp_path / "keys.json").write_bytes(listed.content)
    (tmp_path / "day.floor").write_bytes(export.content)
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "FLOOR_SIGNING_KEY")}
    for name in ("results.json", "day.floor"):
        out = subprocess.run(
            [sys.executable, "-m", "floor", "verify", name, "--keys", "keys.json"],
            cwd=tmp_path,
            env={**env, "PYTHONPATH": str(ROOT)},
            capture_output=True,
            text=True,
            check=False,
        )
        assert out.returncode == 0, out.stdout + out.stderr
        assert out.stdout.splitlines()[-1] == "verified"
        assert "ok    the venue's signature" in out.stdout
    # Every draw of the day (the first draw, the late entries' seats, the tables broken, the
    # final table's) made again from its committed seed.
    made = export.content.count(b'"type":"draw_made"')
    assert made > 40
    out = subprocess.run(
        [sys.executable, "-m", "floor", "verify", "day.floor"],
        cwd=tmp_path,
        env={**env, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        check=False,
    )
    assert f"ok    the draws (floor-draw/1): {made} decided again" in out.stdout, out.stdout
    assert b'"reason":"final"' in export.content and b'"reason":"break"' in export.content

    # A result changed by one prize: the signature names it.
    forged = signed.content.replace(b'"prize":', b'"prize":1', 1)
    (tmp_path / "forged.json").write_bytes(forged)
    out = subprocess.run(
        [sys.executable, "-m", "floor", "verify", "forged.json", "--keys", "keys.json"],
        cwd=tmp_path,
        env={**env, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        check=False,
    )
    assert out.returncode == 1
    assert "FAIL  the venue's signature: what it signed is not these bytes" in out.stdout


def test_a_venue_without_a_key_says_so(valkey: EmbeddedServer, tmp_path: Path) -> None:
    proc = ServerProcess(valkey.url, tmp_path / "unsigned.log")
    proc.start()
    try:
        r = httpx.get(f"{proc.base}/.well-known/floor-keys.json")
        assert r.status_code == 404 and "no signing keys" in r.text
        r = httpx.get(f"{proc.base}/api/open/v1/t/{TID}/results/signed")
        assert r.status_code == 404 and "FLOOR_SIGNING_KEY" in r.text
    finally:
        proc.stop()


def test_a_key_inside_the_data_directory_stops_the_server(
    valkey: EmbeddedServer, keys: Path, tmp_path: Path
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / signing.KEY_FILE).write_bytes((keys / signing.KEY_FILE).read_bytes())
    proc = ServerProcess(
        valkey.url,
        tmp_path / "inside.log",
        FLOOR_DATA_DIR=str(data),
        FLOOR_SIGNING_KEY=str(data / signing.KEY_FILE),
    )
    with pytest.raises(RuntimeError, match="is inside FLOOR_DATA_DIR"):
        proc.start()
