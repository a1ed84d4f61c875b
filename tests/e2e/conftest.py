"""End-to-end fixtures: real `floor serve` processes on a real Valkey, real HTTP and websockets."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from floor.redisdb.embedded import EmbeddedServer, free_port

ROOT = Path(__file__).resolve().parents[2]


class ServerProcess:
    """``floor serve`` in a subprocess, with its output kept for the failure report."""

    def __init__(self, redis_url: str, log: Path, args: tuple[str, ...] = (), **env: str) -> None:
        self.args = args
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws = f"ws://127.0.0.1:{self.port}"
        self.redis_url = redis_url
        self.env = env
        self.log = log
        #: What Python runs before ``serve``: another program on the same port stands for an
        #: upgraded server (``tests/browser/test_upgrade.py``).
        self.program: tuple[str, ...] = ("-m", "floor")
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 20.0) -> None:
        env = {
            **os.environ,
            "REDIS_URL": self.redis_url,
            "FLOOR_HEARTBEAT": "1",
            "FLOOR_LOG_LEVEL": "info",
            **self.env,
        }
        with self.log.open("ab") as log:
            self.proc = subprocess.Popen(
                [sys.executable, *self.program, "serve", "--port", str(self.port), *self.args],
                cwd=ROOT,
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=log,
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"floor serve exited: {self.log.read_text()[-2000:]}")
            try:
                if httpx.get(self.base + "/healthz", timeout=0.5).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        raise RuntimeError(f"floor serve did not come up: {self.log.read_text()[-2000:]}")

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


class EdgeProcess(ServerProcess):
    """``floor serve`` as a public edge (``FLOOR_SERVES=public``): HTTP on ``port``, its
    websockets (websockets' own server) on ``ws_port``."""

    def __init__(self, redis_url: str, log: Path, **env: str) -> None:
        self.ws_port = free_port()
        env = {**env, "FLOOR_SERVES": "public", "FLOOR_WS_PORT": str(self.ws_port)}
        super().__init__(redis_url, log, (), **env)
        self.sockets = f"ws://127.0.0.1:{self.ws_port}"


@pytest.fixture(scope="module")
def valkey(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedServer]:
    """A Valkey server of this module's own (the clock lease is global to a server)."""
    server = EmbeddedServer(tmp_path_factory.mktemp("e2e-valkey"))
    server.start()
    try:
        yield server
    finally:
        server.stop()


def add_user(redis_url: str, name: str, secret: str, role: str, table: int | None = None) -> None:
    args = [sys.executable, "-m", "floor", "user", "add", name, "--role", role, "--secret-stdin"]
    if table is not None:
        args += ["--table", str(table)]
    if secret.isdigit():
        args.append("--pin")
    subprocess.run(
        args,
        input=secret.encode() + b"\n",
        cwd=ROOT,
        check=True,
        env={**os.environ, "REDIS_URL": redis_url},
        capture_output=True,
    )


@pytest.fixture(scope="module")
def servers(
    valkey: EmbeddedServer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[list[ServerProcess]]:
    """Two server processes sharing the module's Valkey; accounts made on the command line."""
    logs = tmp_path_factory.mktemp("e2e-logs")
    add_user(valkey.url, "boss", "director-secret", "director")
    add_user(valkey.url, "dana", "4321", "dealer")
    add_user(valkey.url, "fred", "floor-secret", "floor")
    procs = [ServerProcess(valkey.url, logs / f"server-{i}.log") for i in range(2)]
    try:
        for p in procs:
            p.start()
        yield procs
    finally:
        for p in procs:
            p.stop()


def sign_in(server: ServerProcess, name: str, secret: str) -> dict[str, str]:
    r = httpx.post(server.base + "/api/signin", json={"username": name, "secret": secret})
    assert r.status_code == 200, r.text
    return {"Authorization": f"Bearer {r.json()['token']}"}


class Api:
    """A staff member's HTTP client against one server."""

    def __init__(self, server: ServerProcess, headers: dict[str, str]) -> None:
        self.server = server
        self.client = httpx.Client(base_url=server.base, headers=headers, timeout=10.0)
        self.n = 0

    def command(
        self, tid: str, command: dict[str, object], cid: str | None = None
    ) -> httpx.Response:
        self.n += 1
        body = {"id": cid or f"test-{time.monotonic_ns()}-{self.n}", "command": command}
        return self.client.post(f"/api/t/{tid}/commands", json=body)

    def ok(self, tid: str, command: dict[str, object]) -> dict[str, object]:
        r = self.command(tid, command)
        assert r.status_code == 200, r.text
        result: dict[str, object] = r.json()
        return result

    def state(self, tid: str) -> dict[str, object]:
        r = self.client.get(f"/api/t/{tid}")
        assert r.status_code == 200, r.text
        result: dict[str, object] = json.loads(r.content)
        return result

    def create(self, tid: str, players: int, **spec: object) -> None:
        body = {"id": tid, "name": tid, "rules": "tda-2024", "structure": "demo-fast", **spec}
        r = self.client.post("/api/tournaments", json=body)
        assert r.status_code == 201, r.text
        for i in range(players):
            self.ok(tid, {"type": "register", "name": f"Player {i}", "player": f"P{i}"})
        self.ok(tid, {"type": "draw_seats"})


def paired(server: ServerProcess, staff: Api, tid: str, table: int) -> dict[str, str]:
    """A table screen paired (with a code ``staff`` asked for) with ``table`` of ``tid`` on
    ``server``: the headers its requests carry."""
    r = staff.client.post("/api/pairing", json={"tournament": tid, "table": table})
    assert r.status_code == 201, r.text
    r = httpx.post(server.base + "/api/signin/pair", json={"code": r.json()["code"]})
    assert r.status_code == 200, r.text
    return {"Authorization": f"Bearer {r.json()['token']}"}


def dealer_on(
    server: ServerProcess, screen: dict[str, str], name: str = "dana", pin: str = "4321"
) -> dict[str, str]:
    """``name`` signed in on the table screen ``screen``: the same headers, now the dealer's."""
    r = httpx.post(
        server.base + "/api/table/signin", json={"username": name, "secret": pin}, headers=screen
    )
    assert r.status_code == 200, r.text
    return screen


@pytest.fixture(scope="module")
def director(servers: list[ServerProcess]) -> Iterator[Api]:
    api = Api(servers[0], sign_in(servers[0], "boss", "director-secret"))
    yield api
    api.client.close()


def settled(server: ServerProcess, tid: str, seq: int, packed: bool = False) -> None:
    """Wait until ``server``'s own copy holds batch ``seq``: a command is acknowledged by the
    process that wrote it, and another reaches it over the bus a moment later. It reads the
    snapshot a test does not count (``packed``: the packed one, for a test that counts the
    full snapshots built; else the full one)."""
    path = f"/api/t/{tid}/snapshot" if packed else f"/api/t/{tid}"
    for _ in range(200):
        r = httpx.head(server.base + path)
        if int(r.headers["floor-seq"]) >= seq:
            return
        time.sleep(0.025)
    raise AssertionError(f"{server.base} never reached batch {seq} of {tid}")
