"""Export a tournament to a file and import it into a fresh server: the identical state."""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import json
import os
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple, get_args

import msgspec
import pytest
import redis.asyncio as aioredis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from floor.backup import BackupError, Final, export, import_
from floor.config import resolve_structure
from floor.engine import chain, clock
from floor.engine import commands as cmd
from floor.engine.autopilot import next_step
from floor.engine.events import Event
from floor.engine.rules import Rules
from floor.engine.state import Tournament
from floor.redisdb.connection import connect
from floor.redisdb.embedded import EmbeddedServer
from floor.redisdb.log import RedisLog
from floor.store.errors import AlreadyExists
from floor.store.service import Service
from tests.fuzz.strategies import deep, encode, mutated, scaled

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
        # Short of its winner: the imported copy is then live, and takes entries after it.
        step = next_step(t, rng) if t.active > 10 else None
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
    (tmp_path / "short.floor").write_bytes(b"\n".join(lines[:5] + lines[-2:]) + b"\n")
    event = json.loads(lines[3])
    event["event"]["player"] = "someone else"
    tampered = [*lines[:3], json.dumps(event).encode(), *lines[4:]]
    (tmp_path / "tampered.floor").write_bytes(b"\n".join(tampered) + b"\n")
    with EmbeddedServer(tmp_path / "fresh") as fresh:
        target = Service(RedisLog(connect(fresh.url)))
        with pytest.raises(BackupError, match="its digest does not match"):
            await import_(target, tmp_path / "short.floor")
        with pytest.raises(BackupError, match="its digest does not match"):
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


# --- forged and tampered exports -----------------------------------------------------------------

#: An export's events as JSON, changed by a forger.
Change = Callable[[list[dict[str, Any]]], list[dict[str, Any]]]


def with_digest(body: bytes) -> bytes:
    return body + b'{"digest":"sha256:' + hashlib.sha256(body).hexdigest().encode() + b'"}\n'


def forge(path: Path, out: Path, change: Change, fold: bool = True) -> None:
    """Rewrite the export at ``path`` as a forger who knows the format would: the events
    changed, the final state their fold (so that it matches), a digest that matches."""
    lines = path.read_bytes().splitlines()
    header = json.loads(lines[0])
    events = change([json.loads(line)["event"] for line in lines[1:-2]])
    state = json.loads(lines[-2])["state"]
    if fold:
        decoded = [msgspec.json.decode(json.dumps(e), type=Event) for e in events]
        state = msgspec.to_builtins(Tournament.fold(decoded).state)
    header["events"] = len(events)
    text = [json.dumps(header)]
    # The chain is no secret: a forger who knows the format links the changed events again.
    written = [json.dumps(e) for e in events]
    links = chain.links(chain.genesis(header["tournament"]), enumerate(map(str.encode, written), 1))
    text += [
        f'{{"seq": {i}, "event": {e}, "link": "{link.link}"}}'
        for (i, e), link in zip(enumerate(written, 1), links, strict=True)
    ]
    text.append(json.dumps(msgspec.to_builtins(Final(seq=len(events), state=state))))
    out.write_bytes(with_digest("\n".join(text).encode() + b"\n"))


def still_in(events: list[dict[str, Any]]) -> str:
    """A player of the draw who never busted."""
    draw = next(e for e in events if e["type"] == "seats_drawn")
    out = {e["player"] for e in events if e["type"] == "player_busted"}
    return next(str(s["player"]) for s in draw["seats"] if s["player"] not in out)


def seat_99(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        *events,
        {"type": "player_registered", "player": "X1", "name": "Late", "shifts_places": True},
        {"type": "player_seated", "player": "X1", "table": 1, "seat": 99},
    ]


def stack_minus_5(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [*events, {"type": "stack_set", "player": still_in(events), "stack": -5}]


def every_bust_first(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{**e, "place": 1} if e["type"] == "player_busted" else e for e in events]


def unknown_type(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [*events, {"type": "player_teleported", "player": "P1", "to": "Bahamas"}]


def cut_short(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return events[:-3]


FORGERIES: list[tuple[str, Change, bool, str]] = [
    ("seat 99", seat_99, True, "event {n} (player_seated): seat: table 1 has no seat 99"),
    (
        "a stack of -5",
        stack_minus_5,
        True,
        "event {n} (stack_set): stack: stack -5 is outside 0 to 9,007,199,254,740,991",
    ),
    ("every bust-out first", every_bust_first, True, "cannot finish in place 1 with 60"),
    ("an unknown event type", unknown_type, False, "event {n}: unknown event type"),
]


@pytest.fixture
async def exported(redis: aioredis.Redis, tmp_path: Path) -> Path:
    store = Service(RedisLog(redis), rng=random.Random(5))
    await played(store, "forged", steps=60)
    path = tmp_path / "forged.floor"
    await export(store, "forged", path)
    return path


@pytest.mark.parametrize(
    ("change", "fold", "says"),
    [(change, fold, says) for _, change, fold, says in FORGERIES],
    ids=[what for what, *_ in FORGERIES],
)
async def test_a_forged_export_whose_events_fold_to_its_state_is_refused_at_the_event(
    exported: Path, tmp_path: Path, change: Change, fold: bool, says: str
) -> None:
    """Each was imported before: the events folded to the state the file said they would."""
    forged = tmp_path / "forgery.floor"
    forge(exported, forged, change, fold)
    n = len(forged.read_bytes().splitlines()) - 3  # the last event: header, final, digest
    if change is every_bust_first:
        n = next(
            i
            for i, line in enumerate(forged.read_bytes().splitlines()[1:-2], 1)
            if json.loads(line)["event"]["type"] == "player_busted"
        )
    with EmbeddedServer(tmp_path / "fresh") as fresh:
        target = Service(RedisLog(connect(fresh.url)))
        with pytest.raises(BackupError) as refused:
            await import_(target, forged)
        message = str(refused.value)
        assert says.format(n=n) in message, message
        assert message.endswith("nothing imported") and "\n" not in message
        assert await target.log.redis.dbsize() == 0
        await target.log.redis.aclose()


async def test_an_export_cut_short_and_digested_again_is_refused_as_incomplete(
    exported: Path, tmp_path: Path
) -> None:
    forged = tmp_path / "cut.floor"
    forge(exported, forged, cut_short, fold=False)
    lines = forged.read_bytes().splitlines(keepends=True)
    header = json.loads(lines[0])
    header["events"] += 3
    forged.write_bytes(with_digest(json.dumps(header).encode() + b"\n" + b"".join(lines[1:-1])))
    with EmbeddedServer(tmp_path / "fresh") as fresh:
        target = Service(RedisLog(connect(fresh.url)))
        with pytest.raises(BackupError, match="incomplete: the events are not numbered"):
            await import_(target, forged)
        assert await target.log.redis.dbsize() == 0
        await target.log.redis.aclose()


def test_the_digest_is_the_sha256_of_every_byte_before_its_line(exported: Path) -> None:
    *before, last = exported.read_bytes().splitlines(keepends=True)

    digest = json.loads(last)["digest"]

    assert digest == "sha256:" + hashlib.sha256(b"".join(before)).hexdigest()
    assert json.loads(before[0])["version"] == 3


def changed(path: Path, out: Path, tamper: Callable[[bytes], bytes]) -> bool:
    data = path.read_bytes()
    out.write_bytes(tamper(data))
    return out.read_bytes() != data


@pytest.mark.parametrize(
    "tamper",
    [
        lambda b: b.replace(b'"name":"Hr\xc3\xa1\xc4\x8d 1"', b'"name":"Hr\xc3\xa1\xc4\x8d 2"', 1),
        lambda b: b.replace(b'"exported_at":', b'"exported_at":1', 1),
        lambda b: b.replace(b"\n", b"\r\n", 1),
        lambda b: b[:-80] + b"\n",
    ],
    ids=["a name", "the export time", "a line ending", "the digest cut"],
)
async def test_a_tampered_export_is_refused_by_its_digest(
    exported: Path, tmp_path: Path, tamper: Callable[[bytes], bytes]
) -> None:
    tampered = tmp_path / "tampered.floor"
    assert changed(exported, tampered, tamper)
    with EmbeddedServer(tmp_path / "fresh") as fresh:
        target = Service(RedisLog(connect(fresh.url)))
        with pytest.raises(BackupError, match="digest"):
            await import_(target, tampered)
        assert await target.log.redis.dbsize() == 0
        await target.log.redis.aclose()


def version_1(path: Path, out: Path) -> None:
    """The export as floor wrote it before exports carried a digest."""
    *lines, _ = path.read_bytes().splitlines(keepends=True)
    header = json.loads(lines[0])
    header["version"] = 1
    out.write_bytes(json.dumps(header).encode() + b"\n" + b"".join(lines[1:]))


async def test_an_export_from_before_digests_is_imported_only_when_asked(
    exported: Path, tmp_path: Path
) -> None:
    old = tmp_path / "old.floor"
    version_1(exported, old)
    with EmbeddedServer(tmp_path / "fresh") as fresh:
        target = Service(RedisLog(connect(fresh.url)))
        with pytest.raises(BackupError, match="import it with --no-digest"):
            await import_(target, old)
        assert await target.log.redis.dbsize() == 0

        done = await import_(target, old, no_digest=True)

        assert (done.tournament, done.digested) == ("forged", False)
        # Its events are checked all the same.
        forged = tmp_path / "old-forged.floor"
        forge(exported, forged, stack_minus_5)
        version_1(forged, forged)
        with pytest.raises(BackupError, match="stack -5 is outside"):
            await import_(target, forged, "forged-2", no_digest=True)
        assert [s.id for s in await target.summaries()] == ["forged"]
        await target.log.redis.aclose()


async def test_an_export_to_a_folder_that_is_not_there_is_refused_in_one_line(
    redis: aioredis.Redis, tmp_path: Path
) -> None:
    store = Service(RedisLog(redis))
    await store.create("nowhere", "Nowhere", RULES)

    with pytest.raises(BackupError, match="cannot write: No such file or directory"):
        await export(store, "nowhere", tmp_path / "missing" / "nowhere.floor")


def floor_cli(*args: str, redis_url: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "floor", *args],
        env={**os.environ, "REDIS_URL": redis_url},
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )


def test_a_refused_import_on_the_command_line_is_one_line_and_exit_2(
    exported: Path, tmp_path: Path
) -> None:
    """An unknown event type crashed with msgspec's traceback and exit 1 before."""
    with EmbeddedServer(tmp_path / "fresh") as fresh:
        for name, change, fold in [("unknown", unknown_type, False), ("seat", seat_99, True)]:
            forged = tmp_path / f"{name}.floor"
            forge(exported, forged, change, fold)

            out = floor_cli("import", str(forged), redis_url=fresh.url)

            assert out.returncode == 2, out.stderr
            assert out.stderr.count("\n") == 1, out.stderr
            assert out.stderr.startswith(f"floor: {forged}: event "), out.stderr
        old = tmp_path / "old.floor"
        version_1(exported, old)
        refused = floor_cli("import", str(old), redis_url=fresh.url)
        assert (refused.returncode, refused.stderr.count("\n")) == (2, 1), refused.stderr
        assert "--no-digest" in refused.stderr

        done = floor_cli("import", str(old), "--no-digest", redis_url=fresh.url)

        assert done.returncode == 0, done.stderr
        assert "imported forged" in done.stdout
        assert "carries no digest" in done.stderr


# --- fuzzed exports: every event mutated, the digest written again ------------------------------

_imports = itertools.count(1)
#: How the fuzzed imports ended, to see that both happen.
OUTCOMES = {"refused": 0, "imported": 0}
_FUZZ = settings(
    max_examples=scaled(150),
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


class Exported(NamedTuple):
    events: list[Any]
    #: The last line but the digest: ``{"seq": ..., "state": ...}``.
    final: Any


@pytest.fixture(scope="module")
def fuzz_export(tmp_path_factory: pytest.TempPathFactory, redis_url: str) -> Exported:
    """An export's events and final state as JSON: a played field, its clock running."""
    path = tmp_path_factory.mktemp("fuzz-export") / "fuzz.floor"

    async def make() -> None:
        store = Service(RedisLog(connect(redis_url)), rng=random.Random(8))
        await store.create("fuzz-export", "Fuzz", RULES, resolve_structure("demo-fast"))
        for i in range(24):
            await store.execute("fuzz-export", cmd.Register(name=f"H {i}", player=f"P{i}"), f"r{i}")
        await store.execute("fuzz-export", cmd.DrawSeats(), "draw")
        await store.execute("fuzz-export", cmd.ClockStart(), "go")
        rng = random.Random(8)
        for i in range(60):
            t, _ = await store.tournament("fuzz-export")
            step = next_step(t, rng)
            if step is not None:
                await store.execute("fuzz-export", step, f"s{i}")
        await export(store, "fuzz-export", path)
        await store.log.redis.aclose()

    asyncio.run(make())
    lines = path.read_bytes().splitlines()
    return Exported([json.loads(line)["event"] for line in lines[1:-2]], json.loads(lines[-2]))


@_FUZZ
@given(data=st.data())
def test_an_export_with_a_mutated_event_is_refused_in_one_line_or_imported_checked(
    fuzz_export: Exported, redis_url: str, tmp_path: Path, data: st.DataObject
) -> None:
    """A forger who writes the digest again: any event broken in one to three places (types,
    numbers past every limit, unknown and missing keys, another event type). The import
    refuses it with a BackupError of one line and writes nothing, or the log still replays
    through the rules and is imported as it folds."""
    events = json.loads(json.dumps(fuzz_export.events))
    n = data.draw(st.integers(0, len(events) - 1), label="event")
    events[n] = data.draw(mutated(st.just(events[n]), EVENT_TAGS), label="mutated")
    path = tmp_path / f"fuzz-{next(_imports)}.floor"
    written = encode_export(events, path, fuzz_export.final)
    tid = f"fz-import-{next(_imports)}"

    async def attempt() -> None:
        store = Service(RedisLog(connect(redis_url)))
        refused: BackupError | None = None
        try:
            try:
                done = await import_(store, path, tid)
            except BackupError as e:
                refused = e
            if refused is not None:
                said = str(refused)
                assert "\n" not in said and said.startswith(str(path)), said
                assert [k async for k in store.log.redis.scan_iter(match=f"*{tid}*")] == []
                OUTCOMES["refused"] += 1
                return
            assert written, "an event that does not decode was imported"
            loaded, _ = await store.load(done.tournament)
            assert loaded.state.id == tid
            OUTCOMES["imported"] += 1
        finally:
            await store.log.redis.aclose()

    asyncio.run(attempt())


EVENT_TAGS = tuple(sorted(str(c.__struct_config__.tag) for c in get_args(Event)))


def encode_export(events: list[Any], path: Path, final: Any) -> bool:
    """Write ``events`` as an export with a digest that matches, and the final state of
    their fold (``final`` when they do not fold); whether they fold."""
    body = [encode(e) for e in events]
    try:
        decoded = [msgspec.json.decode(b, type=Event) for b in body]
        final = {"seq": len(body), "state": msgspec.to_builtins(Tournament.fold(decoded).state)}
        folds = True
    except Exception:  # a broken log may break the fold anywhere
        folds = False
    header = {
        "format": "floor-export",
        "version": 2,
        "tournament": "fuzz-export",
        "name": "Fuzz",
        "events": len(body),
        "exported_at": 1.0,
    }
    lines = [json.dumps(header).encode()]
    lines += [b'{"seq":%d,"event":' % i + b + b"}" for i, b in enumerate(body, 1)]
    lines.append(json.dumps(final).encode())
    path.write_bytes(with_digest(b"\n".join(lines) + b"\n"))
    return folds


@pytest.mark.parametrize(
    "event",
    [
        deep(3_000),
        {"type": "stack_set", "player": deep(3_000), "stack": 1},
        {"type": "x" * 5_000},
        {"type": "player_seated", "player": "P1\n\u202e", "table": 1, "seat": 1},
    ],
    ids=["nested", "nested inside", "a long unknown type", "a newline in a player id"],
)
def test_an_event_no_decoder_reads_is_refused_in_one_short_line(
    fuzz_export: Exported, redis_url: str, tmp_path: Path, event: Any
) -> None:
    """A RecursionError escaped the import for JSON nested past msgspec's depth."""
    path = tmp_path / "unreadable.floor"
    encode_export([*fuzz_export.events, event], path, fuzz_export.final)

    async def attempt() -> str:
        store = Service(RedisLog(connect(redis_url)))
        try:
            with pytest.raises(BackupError) as refused:
                await import_(store, path, "unreadable")
            assert await store.log.summaries() == [] or "unreadable" not in [
                s.id for s in await store.log.summaries()
            ]
        finally:
            await store.log.redis.aclose()
        return str(refused.value)

    said = asyncio.run(attempt())

    assert f"event {len(fuzz_export.events) + 1}" in said, said
    assert "\n" not in said and len(said) < 400, said


def without_board(exported: Path, tmp_path: Path) -> tuple[Path, Path, dict[str, Any]]:
    """The export as written before the state kept the board, one with a board cut short,
    and the board it held."""
    lines = exported.read_bytes().splitlines()
    final = json.loads(lines[-2])
    board = final["state"].pop("board")
    old = tmp_path / "no-board.floor"
    old.write_bytes(with_digest(b"\n".join([*lines[:-2], json.dumps(final).encode()]) + b"\n"))
    wrong = tmp_path / "wrong-board.floor"
    final["state"]["board"] = {**board, "lines": board["lines"][1:]}
    wrong.write_bytes(with_digest(b"\n".join([*lines[:-2], json.dumps(final).encode()]) + b"\n"))
    return old, wrong, board


async def test_an_export_from_before_the_state_kept_the_board_imports(
    exported: Path, tmp_path: Path
) -> None:
    """The board of seat changes is part of the state since; an export written before has
    no board in its final state, and its events fold to one: imported all the same, with
    the board its events make. A board the file does hold is checked as the rest is."""
    old, wrong, board = without_board(exported, tmp_path)
    assert board["lines"], "the played day put nothing on the board"
    with EmbeddedServer(tmp_path / "fresh") as fresh:
        target = Service(RedisLog(connect(fresh.url)))
        with pytest.raises(BackupError, match="do not fold to the exported state"):
            await import_(target, wrong)
        done = await import_(target, old)
        t, _ = await target.tournament(done.tournament)
        assert msgspec.to_builtins(t.state.board) == board
        await target.log.redis.aclose()
