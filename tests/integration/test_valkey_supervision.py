"""The embedded Valkey kept up: restarted when it dies, or floor exits for its supervisor.

Real processes throughout: ``floor serve`` and ``floor demo`` on their own Valkey in
``tmp_path``, SIGKILLed as a crash (or the OOM killer) would. A restart is made to fail by
corrupting the append-only file's manifest, which Valkey refuses to load. Every wait is
bounded by a deadline; nothing asserts how fast anything was.
"""

from __future__ import annotations

import asyncio
import fcntl
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest
from websockets.exceptions import ConnectionClosed

from floor.redisdb.connection import connect
from floor.redisdb.embedded import (
    LOCK_NAME,
    PID_NAME,
    EmbeddedServer,
    EmbeddedServerError,
    free_port,
)
from floor.redisdb.log import RedisLog
from floor.redisdb.supervisor import (
    EXIT_VALKEY_DOWN,
    STATE_NAME,
    Supervisor,
    ValkeyState,
    backoff,
    read_state,
)
from floor.store.service import Service
from tests.e2e.screens import Screen, state_json

ROOT = Path(__file__).resolve().parents[2]
MANIFEST = Path("appendonlydir") / "appendonly.aof.manifest"


def _eventually(condition: Callable[[], bool], timeout: float = 30.0) -> bool:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except FileNotFoundError:
        return False
    return state not in {"Z", "X"}


def _sigkill_valkey(data_dir: Path) -> int:
    """SIGKILL the Valkey serving ``data_dir`` (floor's child, so floor reaps it)."""
    pid = int((data_dir / PID_NAME).read_text())
    os.kill(pid, signal.SIGKILL)
    return pid


def _corrupt_the_aof(data_dir: Path) -> None:
    """Valkey refuses to start on a manifest it cannot read: every restart fails."""
    (data_dir / MANIFEST).write_text("this is not a manifest\n")


# -- the backoff and EmbeddedServer.restart, in this process ---------------------------------


def test_restarts_wait_one_second_then_twice_as_long_each_time_up_to_a_cap() -> None:
    assert [backoff(k) for k in range(1, 8)] == [1.0, 2.0, 4.0, 8.0, 16.0, 30.0, 30.0]


async def test_a_restarted_server_has_the_same_url_lock_and_every_acknowledged_write(
    tmp_path: Path,
) -> None:
    server = EmbeddedServer(tmp_path)
    server.start()
    try:
        url = server.url
        client = connect(url)
        try:
            assert await client.set("bustout:player:42", "place 17") is True
            killed = _sigkill_valkey(tmp_path)
            assert server.wait() == -signal.SIGKILL
            server.restart()
            assert server.pid != killed and server.running
            assert server.url == url
            # floor's client, reconnecting by itself to the same socket.
            assert await client.get("bustout:player:42") == b"place 17"
        finally:
            await client.aclose()
        with pytest.raises(EmbeddedServerError, match="in use"):
            EmbeddedServer(tmp_path).start()
    finally:
        server.stop()


def test_restart_of_a_server_that_was_never_started_is_refused(tmp_path: Path) -> None:
    with pytest.raises(EmbeddedServerError, match="was not started"):
        EmbeddedServer(tmp_path).restart()


def test_a_failed_restart_leaves_nothing_running_and_may_be_tried_again(tmp_path: Path) -> None:
    server = EmbeddedServer(tmp_path)
    server.start()
    try:
        good = (tmp_path / MANIFEST).read_bytes()
        _corrupt_the_aof(tmp_path)
        _sigkill_valkey(tmp_path)
        server.wait()
        with pytest.raises(EmbeddedServerError, match="exited with status"):
            server.restart()
        assert not server.running
        (tmp_path / MANIFEST).write_bytes(good)
        server.restart()
        assert server.running
    finally:
        server.stop()


def test_the_watcher_restarts_a_killed_server_and_writes_what_it_does(tmp_path: Path) -> None:
    server = EmbeddedServer(tmp_path)
    server.start()
    gave_up = threading.Event()
    supervisor = Supervisor(server, on_give_up=gave_up.set)
    supervisor.start()
    try:
        state_file = tmp_path / STATE_NAME
        assert _state(state_file).state == "running"
        killed = _sigkill_valkey(tmp_path)
        assert _eventually(lambda: _state(state_file).restarts == 1)
        state = _state(state_file)
        assert state.state == "running" and state.attempt == 1
        assert server.running and server.pid != killed
    finally:
        supervisor.close()
    assert not gave_up.is_set()
    assert not server.running


def test_the_watcher_gives_up_after_the_failed_restarts_allowed(tmp_path: Path) -> None:
    server = EmbeddedServer(tmp_path)
    server.start()
    gave_up = threading.Event()
    supervisor = Supervisor(server, on_give_up=gave_up.set, max_failures=2)
    supervisor.start()
    try:
        _corrupt_the_aof(tmp_path)
        _sigkill_valkey(tmp_path)
        assert gave_up.wait(30), "the watcher kept trying"
        state = _state(tmp_path / STATE_NAME)
        assert (state.state, state.failures, state.attempt) == ("down", 2, 2)
        assert supervisor.gave_up and not server.running
    finally:
        supervisor.close()


def _state(path: Path) -> ValkeyState:
    state = read_state(path)
    assert state is not None, f"no readable {path}"
    return state


# -- floor serve and floor demo, as processes ------------------------------------------------


@dataclass
class Floor:
    """``floor serve`` (or ``floor demo``) running its own Valkey in ``data_dir``."""

    proc: subprocess.Popen[bytes]
    base: str
    data_dir: Path
    log: Path

    def logged(self) -> str:
        return self.log.read_text(errors="replace")[-3000:]

    def health(self) -> tuple[int, dict[str, Any]]:
        r = httpx.get(self.base + "/healthz", timeout=5)
        body: dict[str, Any] = r.json()
        return r.status_code, body


@pytest.fixture
def start_floor(tmp_path: Path) -> Iterator[Callable[..., Floor]]:
    started: list[Floor] = []

    def start(*command: str, **env: str) -> Floor:
        port = free_port()
        data_dir = tmp_path / f"var-{len(started)}"
        log = tmp_path / f"floor-{len(started)}.log"
        environ = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
        environ.update(FLOOR_DATA_DIR=str(data_dir), FLOOR_HEARTBEAT="1", **env)
        with log.open("wb") as out:
            proc = subprocess.Popen(
                [sys.executable, "-m", "floor", *command, "--port", str(port)],
                cwd=ROOT,
                env=environ,
                stdout=subprocess.DEVNULL,
                stderr=out,
            )
        floor = Floor(proc, f"http://127.0.0.1:{port}", data_dir.resolve(), log)
        started.append(floor)

        def up() -> bool:
            assert proc.poll() is None, f"floor exited: {floor.logged()}"
            try:
                return floor.health()[0] == 200
            except httpx.HTTPError:
                return False

        assert _eventually(up, 60), f"floor did not come up: {floor.logged()}"
        return floor

    yield start
    for floor in started:
        if floor.proc.poll() is None:
            floor.proc.terminate()
            try:
                floor.proc.wait(20)
            except subprocess.TimeoutExpired:
                floor.proc.kill()
                floor.proc.wait()


def _add_director(floor: Floor) -> dict[str, str]:
    """A director made with ``floor user add`` (on the running floor's Valkey), signed in."""
    command = ["user", "add", "boss", "--role", "director", "--secret-stdin"]
    subprocess.run(
        [sys.executable, "-m", "floor", *command],
        input=b"director-secret\n",
        cwd=ROOT,
        env={
            **{k: v for k, v in os.environ.items() if k != "REDIS_URL"},
            "FLOOR_DATA_DIR": str(floor.data_dir),
        },
        check=True,
        capture_output=True,
    )
    r = httpx.post(
        floor.base + "/api/signin", json={"username": "boss", "secret": "director-secret"}
    )
    assert r.status_code == 200, r.text
    return {"Authorization": f"Bearer {r.json()['token']}"}


@dataclass
class Writer:
    """A floorperson's phone: registers players one after another; on a 503 (or no answer)
    it resends the same command id, as the phones do."""

    client: httpx.AsyncClient
    tid: str
    #: Acknowledged: command id -> (player name, first sequence number of its events).
    acked: dict[str, tuple[str, int]] = field(default_factory=dict)
    unavailable: int = 0
    stop: asyncio.Event = field(default_factory=asyncio.Event)

    async def run(self) -> None:
        n = 0
        while not self.stop.is_set():
            n += 1
            cid, name = f"sv-{n}", f"Player {n}"
            body = {"id": cid, "command": {"type": "register", "name": name}}
            while True:
                try:
                    r = await self.client.post(f"/api/t/{self.tid}/commands", json=body)
                except httpx.TransportError:
                    await asyncio.sleep(0.05)
                    continue
                if r.status_code == 503:
                    self.unavailable += 1
                    await asyncio.sleep(0.05)
                    continue
                assert r.status_code == 200, r.text
                out = r.json()
                assert out["ok"], out
                self.acked[cid] = (name, out["first"])
                break

    async def until_acked(self, count: int, within: float = 60.0) -> None:
        deadline = time.monotonic() + within
        while len(self.acked) < count:
            assert time.monotonic() < deadline, f"only {len(self.acked)} acknowledged"
            await asyncio.sleep(0.02)


async def _follow(url: str, headers: dict[str, str], seq: int, within: float = 60.0) -> Screen:
    """A staff screen that holds ``seq``, reconnecting (for a fresh snapshot) when closed."""
    deadline = time.monotonic() + within
    tried: list[str] = []
    while True:
        left = deadline - time.monotonic()
        assert left > 0, f"no screen reached seq {seq}: {tried}"
        screen: Screen | None = None
        try:
            screen = await Screen.open(url, additional_headers=headers)
            await screen.until(seq, timeout=left)
            return screen
        except (ConnectionClosed, OSError) as e:
            tried.append(f"{e!r} at seq {screen.seq if screen else None}")
            await asyncio.sleep(0.2)


@pytest.fixture
async def http() -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(timeout=10) as client:
        yield client


async def test_a_sigkilled_valkey_under_floor_serve_is_recovered_without_a_person(
    start_floor: Callable[..., Floor], http: httpx.AsyncClient
) -> None:
    floor = start_floor("serve")
    headers = _add_director(floor)
    tid = "supervised"
    staff = httpx.AsyncClient(base_url=floor.base, headers=headers, timeout=10)
    r = await staff.post(
        "/api/tournaments",
        json={"id": tid, "name": tid, "rules": "tda-2024", "structure": "demo-fast"},
    )
    assert r.status_code == 201, r.text
    ws = floor.base.replace("http", "ws", 1) + f"/ws/t/{tid}"
    screen = await Screen.open(ws, additional_headers=headers)
    writer = Writer(staff, tid)
    writing = asyncio.create_task(writer.run())
    seen: list[tuple[int, dict[str, Any]]] = []

    failures: list[str] = []

    async def watch_health() -> None:
        # Never dies of a slow or refused answer: a watcher that died would see no outage.
        while True:
            try:
                r = await http.get(floor.base + "/healthz")
                seen.append((r.status_code, r.json()))
            except (httpx.TransportError, ValueError) as e:
                failures.append(repr(e))
            await asyncio.sleep(0.05)

    watching = asyncio.create_task(watch_health())
    try:
        await writer.until_acked(5)
        killed = _sigkill_valkey(floor.data_dir)
        deadline = time.monotonic() + 60
        while True:
            status, body = await asyncio.to_thread(floor.health)
            if status == 200 and body["valkey"]["restarts"] == 1:
                break
            assert floor.proc.poll() is None, floor.logged()
            assert time.monotonic() < deadline, f"not recovered: {body}"
            await asyncio.sleep(0.1)
        assert not _alive(killed)
        # Commands go through again, on the restarted Valkey.
        await writer.until_acked(len(writer.acked) + 5)
    finally:
        writer.stop.set()
        await writing
        alive = not watching.done()
        watching.cancel()
        await asyncio.gather(watching, return_exceptions=True)
    assert alive, f"the health watcher stopped: {watching}"
    assert writer.unavailable > 0, "no command was answered 503 while Valkey was down"
    # Whatever the watcher happened to see during the outage (how much of it a poller sees
    # depends on the machine's load), it was told "restarting", never "down": floor was
    # restarting its own Valkey. That /healthz says "restarting" from the watcher's state
    # file is shown without any race in test_healthz_says_what_the_watcher_is_doing.
    assert {body["status"] for _, body in seen} <= {"ok", "restarting"}, seen
    assert all(b["valkey"]["attempt"] >= 1 for _, b in seen if b["status"] == "restarting")
    assert {status for status, body in seen if body["status"] != "ok"} <= {503}
    assert seen[-1][1]["status"] == "ok"

    # Every acknowledged command is in the log, once, where its answer said.
    client = connect(f"unix://{floor.data_dir}/valkey.sock")
    try:
        log = Service(RedisLog(client))
        events = await log.events_since(tid, 0, limit=10_000)
        assert events is not None
        registered = [json.loads(e) for e in events if b'"player_registered"' in e]
        assert len(registered) == len(writer.acked)
        for name, first in writer.acked.values():
            assert json.loads(events[first - 1])["name"] == name
        t, version = await log.tournament(tid)
    finally:
        await client.aclose()

    # The screen (and the server's copy) show exactly the log's state.
    try:
        await screen.until(version, timeout=30)
    except ConnectionClosed:
        # Closed during the outage (a catch-up that could not be read): it reconnects.
        try:
            screen = await _follow(ws, headers, version)
        except AssertionError as e:
            raise AssertionError(f"{e}\n{floor.logged()}") from None
    assert screen.t is not None
    assert state_json(screen.t) == state_json(t)
    r = await staff.get(f"/api/t/{tid}")
    assert r.json()["state"] == state_json(t)
    await screen.close()
    await staff.aclose()


def test_floor_serve_exits_for_its_supervisor_when_valkey_cannot_be_restarted(
    start_floor: Callable[..., Floor],
) -> None:
    floor = start_floor("serve", FLOOR_VALKEY_RESTARTS="2")
    _corrupt_the_aof(floor.data_dir)
    killed = _sigkill_valkey(floor.data_dir)
    seen: list[dict[str, Any]] = []
    deadline = time.monotonic() + 60
    while floor.proc.poll() is None:
        assert time.monotonic() < deadline, f"floor kept running: {floor.logged()}"
        try:
            status, body = floor.health()
        except httpx.HTTPError:
            pass  # shutting down
        else:
            assert status == 503, body
            seen.append(body)
        time.sleep(0.05)
    assert floor.proc.returncode == EXIT_VALKEY_DOWN, floor.logged()
    assert any(b["status"] == "restarting" and b["valkey"]["attempt"] >= 1 for b in seen), seen
    assert not _alive(killed)
    state = read_state(floor.data_dir / STATE_NAME)
    assert state is not None and state.state == "down"
    assert "cannot be kept up" in floor.logged()
    # Nothing is left holding the data directory: the next floor (systemd's restart) may
    # start on it.
    fd = os.open(floor.data_dir / LOCK_NAME, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    finally:
        os.close(fd)


def test_floor_demo_goes_on_after_its_valkey_is_killed(
    start_floor: Callable[..., Floor],
) -> None:
    floor = start_floor("demo", "--players", "30")
    killed = _sigkill_valkey(floor.data_dir)

    def recovered() -> bool:
        assert floor.proc.poll() is None, floor.logged()
        try:
            status, body = floor.health()
        except httpx.HTTPError:
            return False
        return status == 200 and body["valkey"]["restarts"] == 1

    assert _eventually(recovered, 60), floor.logged()
    assert not _alive(killed)

    def seq() -> int:
        r = httpx.get(floor.base + "/api/t/demo", timeout=5)
        return int(r.json()["seq"]) if r.status_code == 200 else -1

    assert _eventually(lambda: seq() > 0, 30)
    after = seq()
    assert _eventually(lambda: seq() > after, 60), "the demo stopped playing"


def test_the_demo_floor_calls_each_move_before_carrying_it_out(
    start_floor: Callable[..., Floor],
) -> None:
    """The wall and the phones of the demo show moves to make ("Move now"), as a real floor's
    do: the demo's floorperson calls a move, and carries it out a little later."""
    floor = start_floor("demo", "--players", "40", "--pace", "0.3")

    def logged() -> list[dict[str, Any]]:
        r = httpx.get(floor.base + "/api/t/demo/events", params={"since": 0}, timeout=5)
        return [x["event"] for x in r.json()["events"]] if r.status_code == 200 else []

    def moved() -> bool:
        return any(e["type"] == "players_moved" and e["reason"] != "correction" for e in logged())

    assert _eventually(moved, 90), floor.logged()
    events = logged()
    called: set[str] = set()
    for e in events:
        if e["type"] == "moves_called":
            called |= {c["player"] for c in e["calls"]}
        elif e["type"] == "players_moved" and e["reason"] != "correction":
            assert {m["player"] for m in e["moves"]} <= called, e


async def test_healthz_says_what_the_watcher_is_doing(tmp_path: Path) -> None:
    """/healthz reads the watcher's state file: with Valkey gone, "restarting" (and the
    attempt) while the watcher says it restarts it, "down" otherwise."""
    from starlette.applications import Starlette

    from floor.server.settings import Settings
    from floor.server.wiring import create_app

    server = EmbeddedServer(tmp_path / "valkey", port=free_port())
    server.start()
    state_file = tmp_path / STATE_NAME
    app: Starlette = create_app(Settings(redis_url=server.url, rate_limit=0))

    def write(state: str, attempt: int) -> None:
        kept = ValkeyState(state=state, attempt=attempt, max_failures=5, since=0.0)  # type: ignore[arg-type]
        state_file.write_bytes(msgspec.json.encode(kept))

    try:
        async with app.router.lifespan_context(app):
            app.state.valkey_state = lambda: msgspec.structs.asdict(read_state(state_file))
            transport = httpx.ASGITransport(app=app, client=("127.0.0.1", 5000))
            async with httpx.AsyncClient(
                transport=transport, base_url="http://127.0.0.1:8000"
            ) as client:
                write("running", 0)
                r = await client.get("/healthz")
                assert (r.status_code, r.json()["status"]) == (200, "ok")
                server.stop()
                write("restarting", 2)
                r = await client.get("/healthz")
                assert r.status_code == 503
                assert r.json()["status"] == "restarting"
                assert r.json()["valkey"]["attempt"] == 2
                write("down", 0)
                r = await client.get("/healthz")
                assert (r.status_code, r.json()["status"]) == (503, "down")
    finally:
        server.stop()
