"""Crashes with real processes: a writer killed mid-stream, the Redis server killed mid-stream,
and a server that hangs (SIGSTOP) with a write in flight.

The writer is ``tests/integration/crash_writer.py`` in a process of its own: a simulated floor
(2,000 players drawn, then bust-outs, hands, buttons and the plan's moves) writing through the
store, printing one ``ack`` line per outcome Redis answered. After each crash the log is
checked against what was acknowledged:

* the stream's sequence numbers run 1, 2, 3... and the meta version is the last;
* the results kept under the command ids tile the log exactly: every event belongs to one
  command, no command's events are there twice, none in part;
* every acknowledged command is there with the range it was acknowledged with;
* the store's load (snapshot plus tail) equals the fold of the whole stream, plans included.

All waits are bounded by deadlines; the processes are killed and reaped in ``finally``.
"""

from __future__ import annotations

import asyncio
import os
import random
import re
import signal
import sys
from collections import Counter
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path

import msgspec
import pytest
import redis.asyncio as aioredis

from floor.engine import commands as cmd
from floor.engine.events import PlayerBusted, PlayerRegistered
from floor.engine.rules import Rules
from floor.engine.state import Tournament
from floor.protocol import decode_event
from floor.redisdb.connection import connect
from floor.redisdb.embedded import EmbeddedServer, free_port
from floor.redisdb.keys import Keys
from floor.redisdb.log import RedisLog
from floor.store.errors import Unavailable
from floor.store.outcome import Outcome
from floor.store.service import Service

pytestmark = pytest.mark.slow

REPO_ROOT = Path(__file__).resolve().parents[2]
PLAYERS = 2000
RULES = msgspec.convert({"game": "holdem", "seats": 9, "final_table": 9}, Rules)
_outcome = msgspec.json.Decoder(Outcome)


@dataclass(frozen=True)
class Ack:
    ok: bool
    first: int
    last: int
    duplicate: bool


@dataclass
class Writer:
    """A running crash_writer process and what it has printed so far (whole lines only)."""

    proc: asyncio.subprocess.Process
    out: list[str] = field(default_factory=list)
    err: list[str] = field(default_factory=list)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    readers: list[asyncio.Task[None]] = field(default_factory=list)

    @classmethod
    async def start(cls, url: str, tid: str, seed: int, *args: str) -> Writer:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), env.get("PYTHONPATH")]))
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "tests.integration.crash_writer",
            "--url",
            url,
            "--tid",
            tid,
            "--seed",
            str(seed),
            "--players",
            str(PLAYERS),
            *args,
            cwd=REPO_ROOT,
            env=env,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        writer = cls(proc)
        assert proc.stdout is not None
        assert proc.stderr is not None
        writer.readers = [
            asyncio.create_task(writer._read(proc.stdout, writer.out)),
            asyncio.create_task(writer._read(proc.stderr, writer.err)),
        ]
        return writer

    async def _read(self, stream: asyncio.StreamReader, into: list[str]) -> None:
        while True:
            line = await stream.readline()
            if not line:
                break
            if line.endswith(b"\n"):  # a line cut short by SIGKILL was never acknowledged
                into.append(line.decode().rstrip("\n"))
                self.changed.set()
        self.changed.set()

    async def wait_for(self, what: str, condition: Callable[[], bool], within: float) -> None:
        """Until ``condition()`` holds; fails after ``within`` seconds or if the writer exits."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + within
        while not condition():
            if self.proc.returncode is not None and all(r.done() for r in self.readers):
                pytest.fail(f"the writer exited ({self.proc.returncode}) before {what}{self}")
            remaining = deadline - loop.time()
            if remaining <= 0:
                pytest.fail(f"no {what} within {within}s{self}")
            self.changed.clear()
            with suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), min(remaining, 0.5))

    async def kill(self) -> None:
        """SIGKILL, as a crash; then reap it and drain what it printed."""
        with suppress(ProcessLookupError):
            self.proc.kill()
        await self._reap()

    async def finish(self, within: float) -> int:
        try:
            await asyncio.wait_for(self.proc.wait(), within)
        except TimeoutError:
            await self.kill()
            pytest.fail(f"the writer did not finish within {within}s{self}")
        await self._reap()
        assert self.proc.returncode is not None
        return self.proc.returncode

    async def _reap(self) -> None:
        await asyncio.wait_for(self.proc.wait(), 10.0)
        await asyncio.wait_for(asyncio.gather(*self.readers), 10.0)

    def acks(self) -> dict[str, Ack]:
        """The acknowledged outcomes by command id (a retry answered twice agrees with itself)."""
        acks: dict[str, Ack] = {}
        for line in self.out:
            if not line.startswith("ack "):
                continue
            _, cid, ok, first, last, dup = line.split()
            ack = Ack(ok == "1", int(first), int(last), dup == "1")
            prior = acks.setdefault(cid, ack)
            assert (prior.ok, prior.first, prior.last) == (ack.ok, ack.first, ack.last), line
        return acks

    def plays(self) -> int:
        return sum(1 for line in self.out if line.startswith("ack s"))

    def __str__(self) -> str:
        out = "\n".join(self.out[-5:])
        err = "\n".join(self.err[-20:])
        return f"\n--- writer stdout (last lines) ---\n{out}\n--- writer stderr ---\n{err}"


@asynccontextmanager
async def running(url: str, tid: str, seed: int, *args: str) -> AsyncIterator[Writer]:
    writer = await Writer.start(url, tid, seed, *args)
    try:
        yield writer
    finally:
        if writer.proc.returncode is None:
            await writer.kill()


async def check_log(
    client: aioredis.Redis, tid: str, acks: dict[str, Ack], context: str = ""
) -> dict[str, Ack]:
    """Check the log against the acknowledgements; the results kept in Redis, by command id."""
    try:
        return await _check_log(client, tid, acks)
    except AssertionError as e:
        raise AssertionError(f"{e}\n{context}") from e


async def _check_log(client: aioredis.Redis, tid: str, acks: dict[str, Ack]) -> dict[str, Ack]:
    keys = Keys(tid)
    raw = await client.xrange(keys.events, "-", "+")
    ids = [entry_id for entry_id, _ in raw]
    assert ids == [f"{seq}-0".encode() for seq in range(1, len(raw) + 1)]
    version = int(await client.hget(keys.meta, "version") or 0)  # 0: killed before create
    assert version == len(raw)

    results: dict[str, Ack] = {}
    prefix = keys.command("")
    async for key in client.scan_iter(match=keys.command("*"), count=1000):
        outcome = _outcome.decode(await client.get(key))
        results[key.decode().removeprefix(prefix)] = Ack(
            outcome.ok, outcome.first, outcome.last, False
        )
    # Every command of the simulated floor was accepted and wrote events, and the commands'
    # ranges tile the log: each event was written by exactly one command, wholly.
    assert all(r.ok and r.last >= r.first for r in results.values())
    ranges = sorted((r.first, r.last) for r in results.values())
    expected_first = 1
    for first, last in ranges:
        assert first == expected_first, f"a gap or overlap at seq {expected_first}: {ranges}"
        expected_first = last + 1
    assert expected_first == version + 1

    for cid, ack in acks.items():
        assert cid in results, f"acknowledged {cid} is not in the log"
        kept = results[cid]
        assert (ack.ok, ack.first, ack.last) == (kept.ok, kept.first, kept.last), cid

    events = [decode_event(f[b"e"]) for _, f in raw]
    busted = Counter(e.player for e in events if isinstance(e, PlayerBusted))
    registered = Counter(e.player for e in events if isinstance(e, PlayerRegistered))
    assert max(busted.values(), default=1) == 1
    assert max(registered.values(), default=1) == 1

    if events:
        replay = Tournament.fold(events)
        store = Service(RedisLog(client))
        loaded, loaded_version = await store.load(tid)
        assert loaded_version == version
        assert msgspec.msgpack.encode(loaded.state) == msgspec.msgpack.encode(replay.state)
        assert loaded.plan == replay.plan
    return results


@pytest.mark.parametrize(("case", "phase"), [(0, "setup"), (1, "play"), (2, "play"), (3, "play")])
async def test_a_writer_killed_at_a_random_moment_loses_nothing_acknowledged(
    case: int, phase: str, redis_url: str, redis: aioredis.Redis
) -> None:
    """SIGKILL during the set-up (registrations, draw) or 0.3-2 s into the bust-outs."""
    tid = f"crash-{case}"
    async with running(redis_url, tid, case) as writer:
        if phase == "setup":
            delay = random.uniform(0.15, 0.7)  # from the start of the process
        else:
            await writer.wait_for(
                "ready", lambda: any(x.startswith("ready") for x in writer.out), 30
            )
            delay = random.uniform(0.3, 2.0)
        await asyncio.sleep(delay)
        assert writer.proc.returncode is None, f"the writer ended before the kill{writer}"
        await writer.kill()
    context = f"killed {delay:.3f}s into the {phase} after {len(writer.out)} lines{writer}"
    acks = writer.acks()
    results = await check_log(redis, tid, acks, context)
    # One writer, one command at a time: at most the one in flight went unacknowledged.
    assert len(set(results) - set(acks)) <= 1, (sorted(set(results) - set(acks)), context)

    # A new writer picks up where the log ends (the setup repeated with the same ids, if the
    # kill came before the draw) and plays on.
    async with running(redis_url, tid, case, "--steps", "150") as again:
        status = await again.finish(within=30.0)
        assert status == 0, f"the restarted writer failed{again}"
    assert again.out[-1].startswith(("stopped", "finished")), again
    assert again.plays() > 0 or again.out[-1].startswith("finished"), again
    assert not again.err, again
    both = acks | again.acks()
    after = await check_log(redis, tid, both, context)
    assert set(after) == set(results) | set(again.acks())
    first_new = min((a.first for a in again.acks().values() if not a.duplicate), default=None)
    if first_new is not None:
        assert first_new > max((r.last for r in results.values()), default=0)


_RETRY = re.compile(r"retry (\S+) attempt=(\d+) took=([\d.]+) error=(.*)")


async def test_the_redis_server_killed_and_restarted_mid_stream(tmp_path: Path) -> None:
    """Two outages of the server (SIGKILL, restart from the AOF on the same data dir): the
    writer fails fast, retries each command with its id, and every command lands once."""
    server = EmbeddedServer(tmp_path / "valkey", port=free_port(), appendfsync="always")
    await asyncio.to_thread(server.start)
    tid = "outage"
    url = server.tcp_url
    assert url is not None
    try:
        async with running(url, tid, 11, "--retry-for", "30", "--steps", "2000") as writer:
            for outage, plays in enumerate((500, 1300)):
                await writer.wait_for(f"{plays} commands", lambda p=plays: writer.plays() >= p, 30)
                failed = len(writer.err)
                await asyncio.to_thread(server.kill)
                # The writer sees the outage while the server is down...
                await writer.wait_for(
                    f"a retry in outage {outage}", lambda f=failed: len(writer.err) >= f + 2, 10
                )
                await asyncio.sleep(0.3)  # ...and keeps trying for a while
                acked_in_outage = writer.plays()
                await asyncio.to_thread(server.start)
                await writer.wait_for(
                    f"progress after outage {outage}",
                    lambda a=acked_in_outage: writer.plays() >= a + 100,
                    30,
                )
            status = await writer.finish(within=60.0)
            assert status == 0, f"the writer failed{writer}"
        assert writer.out[-1].startswith(("stopped", "finished")), writer

        retries = [m for line in writer.err if (m := _RETRY.fullmatch(line))]
        assert len(retries) == len(writer.err) >= 4, writer
        for m in retries:
            assert float(m[3]) < 2.0, f"a failed attempt took {m[3]}s: {m[0]}"
            assert m[4].startswith("Redis is unreachable: "), m[0]
        acks = writer.acks()
        retried = {m[1] for m in retries} - {"load"}
        assert retried, "no command was caught by an outage"
        assert retried <= set(acks), "a retried command was never acknowledged"

        client = connect(url)
        try:
            results = await check_log(client, tid, acks)
        finally:
            await client.aclose()
        # The writer ran to the end: every command was acknowledged, each exactly once.
        assert set(results) == set(acks)
    finally:
        await asyncio.to_thread(server.stop)


# -- a hung server ---------------------------------------------------------------------------


@asynccontextmanager
async def hung_server(tmp_path: Path) -> AsyncIterator[tuple[EmbeddedServer, Service, str]]:
    """A server with a seated tournament; the body runs it under SIGSTOP (SIGCONT on exit)."""
    server = EmbeddedServer(tmp_path / "valkey", port=free_port())
    await asyncio.to_thread(server.start)
    url = server.tcp_url
    assert url is not None
    assert server.pid is not None
    client = connect(url, connect_timeout=0.25, call_timeout=0.25)
    store = Service(RedisLog(client), rng=random.Random(1))
    try:
        await store.create("hung", "Hung", RULES)
        for i in range(20):
            await store.execute("hung", cmd.Register(name=f"Player {i}", player=f"P{i}"), f"r{i}")
        await store.execute("hung", cmd.DrawSeats(), "draw")
        os.kill(server.pid, signal.SIGSTOP)
        try:
            yield server, store, url
        finally:
            os.kill(server.pid, signal.SIGCONT)
    finally:
        await client.aclose()
        await asyncio.to_thread(server.stop)


async def test_a_command_cut_off_by_a_hung_server_is_applied_once_on_retry(
    tmp_path: Path,
) -> None:
    """The server stops answering (SIGSTOP) with the write in its socket buffer: the caller
    gets Unavailable; once the server runs again the same command id is applied once, whether
    the queued write or the retry gets there first."""
    async with hung_server(tmp_path) as (server, store, url):
        with pytest.raises(Unavailable, match="Redis is unreachable"):
            await asyncio.wait_for(store.execute("hung", cmd.Bust(player="P3"), "bust-3"), 30)
        assert server.pid is not None
        os.kill(server.pid, signal.SIGCONT)
        outcome = await store.execute("hung", cmd.Bust(player="P3"), "bust-3")
        assert outcome.ok
        assert outcome.events == 1
        client = connect(url)
        try:
            await client.ping()  # after whatever the server still had queued
            raw = await client.xrange(Keys("hung").events, "-", "+")
            busts = [e for _, f in raw if isinstance(e := decode_event(f[b"e"]), PlayerBusted)]
            assert [b.player for b in busts] == ["P3"]
            assert len(raw) == outcome.last
            again = await store.execute("hung", cmd.Bust(player="P3"), "bust-3")
            assert (again.ok, again.first, again.last, again.duplicate) == (
                True,
                outcome.first,
                outcome.last,
                True,
            )
        finally:
            await client.aclose()


async def test_a_hung_server_gives_unavailable_within_the_call_timeout(tmp_path: Path) -> None:
    async with hung_server(tmp_path) as (_, store, _):
        loop = asyncio.get_running_loop()
        start = loop.time()
        with pytest.raises(Unavailable, match="Redis is unreachable"):
            await asyncio.wait_for(store.execute("hung", cmd.Bust(player="P3"), "bust-3"), 30)
        took = loop.time() - start
    # call_timeout is 0.25 s here: one timeout, a reconnect and the backoff fit in twice that.
    assert took < 0.5, f"Unavailable came after {took:.2f}s"
