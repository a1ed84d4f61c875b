"""Export a tournament to a file and import it into a fresh server: the identical state."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import msgspec
import pytest

from floor.backup import BackupError, export, import_
from floor.config import resolve_structure
from floor.engine import clock
from floor.engine import commands as cmd
from floor.engine.autopilot import next_step
from floor.engine.rules import Rules
from floor.redisdb.connection import connect
from floor.redisdb.embedded import EmbeddedServer
from floor.redisdb.log import RedisLog
from floor.store.errors import AlreadyExists
from floor.store.service import Service

RULES = msgspec.convert({"game": "holdem", "seats": 9, "final_table": 9}, Rules)
ROOT = Path(__file__).resolve().parents[2]


async def played(store: Service, tid: str, players: int = 60, steps: int = 200) -> None:
    await store.create(tid, "Sunday Deepstack", RULES)
    for i in range(players):
        await store.execute(tid, cmd.Register(name=f"Hráč {i}", player=f"P{i}"), f"r{i}")
    await store.execute(tid, cmd.DrawSeats(), "draw")
    rng = random.Random(11)
    for i in range(steps):
        t, _ = await store.tournament(tid)
        step = next_step(t, rng)
        if step is None:
            break
        await store.execute(tid, step, f"s{i}")


async def test_an_exported_tournament_imports_into_a_fresh_server_identically(
    redis_url: str, tmp_path: Path
) -> None:
    source = Service(RedisLog(connect(redis_url)), rng=random.Random(1))
    await played(source, "sunday")
    path = tmp_path / "sunday.floor"
    n = await export(source, "sunday", path)
    original, version = await source.load("sunday")
    assert n == version
    with EmbeddedServer(tmp_path / "fresh") as fresh:
        target = Service(RedisLog(connect(fresh.url)))
        done = await import_(target, path)
        assert (done.tournament, done.events, done.paused_with) == ("sunday", version, None)
        loaded, loaded_version = await target.load("sunday")
        assert loaded_version == version
        assert msgspec.msgpack.encode(loaded.state) == msgspec.msgpack.encode(original.state)
        assert loaded.plan == original.plan
        assert [s.id for s in await target.summaries()] == ["sunday"]
        # The imported log goes on: commands append after it.
        outcome = await target.execute(
            "sunday", cmd.Register(name="After Import", player="A1"), "after-import"
        )
        assert outcome.ok
        assert outcome.first == version + 1
        with pytest.raises(AlreadyExists):
            await import_(target, path)
        renamed = (await import_(target, path, "sunday-copy")).tournament
        copy, _ = await target.load(renamed)
        assert copy.state.id == "sunday-copy"
        assert copy.state.players == original.state.players
        await target.log.redis.aclose()
    await source.log.redis.aclose()


async def test_a_running_clock_is_imported_paused_as_it_stood_at_the_export(
    redis_url: str, tmp_path: Path
) -> None:
    """Restored an hour after the server was lost, the clock does not race through the
    levels that would have come due meanwhile: it waits, with the time left at the export."""
    source = Service(RedisLog(connect(redis_url)), rng=random.Random(3))
    await source.create("running", "Clocked", RULES, resolve_structure("demo-fast"))
    for i in range(20):
        await source.execute("running", cmd.Register(name=f"Hráč {i}", player=f"P{i}"), f"r{i}")
    await source.execute("running", cmd.DrawSeats(), "draw")
    assert (await source.execute("running", cmd.ClockStart(), "go")).ok
    running, version = await source.load("running")
    ends_at = running.state.clock.ends_at
    assert running.state.clock.running and ends_at is not None
    path = tmp_path / "running.floor"
    await export(source, "running", path)
    exported_at = json.loads(path.read_bytes().splitlines()[0])["exported_at"]
    an_hour_later = exported_at + 3600
    with EmbeddedServer(tmp_path / "fresh") as fresh:
        target = Service(RedisLog(connect(fresh.url)), clock=lambda: an_hour_later)
        done = await import_(target, path)
        assert done.events == version + 1
        assert done.paused_with == pytest.approx(ends_at - exported_at)
        t, _ = await target.load("running")
        assert not t.state.clock.running
        assert t.state.clock.level == running.state.clock.level
        assert t.state.clock.remaining == done.paused_with
        assert clock.due(t.state, an_hour_later) == []
        assert (await target.execute("running", cmd.ClockResume(), "resume")).ok
        resumed, _ = await target.load("running")
        assert resumed.state.clock.level == running.state.clock.level
        assert resumed.state.clock.ends_at == pytest.approx(an_hour_later + done.paused_with)
        await target.log.redis.aclose()
    await source.log.redis.aclose()


async def test_a_damaged_export_is_refused_and_imports_nothing(
    redis_url: str, tmp_path: Path
) -> None:
    store = Service(RedisLog(connect(redis_url)), rng=random.Random(1))
    await played(store, "damaged", steps=50)
    path = tmp_path / "damaged.floor"
    await export(store, "damaged", path)
    lines = path.read_bytes().splitlines()
    (tmp_path / "short.floor").write_bytes(b"\n".join(lines[:5] + lines[-1:]) + b"\n")
    event = json.loads(lines[3])
    event["event"]["player"] = "someone else"
    tampered = [*lines[:3], json.dumps(event).encode(), *lines[4:]]
    (tmp_path / "tampered.floor").write_bytes(b"\n".join(tampered) + b"\n")
    with EmbeddedServer(tmp_path / "fresh") as fresh:
        target = Service(RedisLog(connect(fresh.url)))
        with pytest.raises(BackupError, match="incomplete"):
            await import_(target, tmp_path / "short.floor")
        with pytest.raises(BackupError):
            await import_(target, tmp_path / "tampered.floor")
        assert await target.summaries() == []
        assert await target.log.redis.dbsize() == 0
        await target.log.redis.aclose()
    await store.log.redis.aclose()


def test_export_and_import_on_the_command_line(redis_url: str, tmp_path: Path) -> None:
    import asyncio

    async def setup() -> None:
        store = Service(RedisLog(connect(redis_url)), rng=random.Random(2))
        await played(store, "cli", steps=40)
        await store.log.redis.aclose()

    asyncio.run(setup())
    path = tmp_path / "cli.floor"
    env = {**os.environ, "REDIS_URL": redis_url}
    out = subprocess.run(
        [sys.executable, "-m", "floor", "export", "cli", str(path)],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    assert "exported cli" in out.stdout
    again = subprocess.run(
        [sys.executable, "-m", "floor", "import", str(path)],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert again.returncode == 2
    assert "already exists" in again.stderr
    renamed = subprocess.run(
        [sys.executable, "-m", "floor", "import", str(path), "--as", "cli-2"],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert renamed.returncode == 0, renamed.stderr
