"""The embedded valkey-server: start, persistence across crashes, clean stop, stale leftovers.

Every test that crashes or reconfigures a server starts its own in ``tmp_path`` (it takes
milliseconds); the session server from conftest is only read. All waits are bounded.
"""

from __future__ import annotations

import os
import socket
import stat
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

import pytest
import redis.asyncio as aioredis
from redis import Redis

from floor.redisdb.embedded import (
    LOCK_NAME,
    LOG_NAME,
    PID_NAME,
    EmbeddedServer,
    EmbeddedServerError,
    free_port,
    server_for,
)

REPO_ROOT = Path(__file__).resolve().parents[2]


def _alive(pid: int) -> bool:
    """A running process (a zombie waiting to be reaped counts as gone)."""
    try:
        stat_line = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    state = stat_line.rpartition(")")[2].split()[0]
    return state not in {"Z", "X"}


def _eventually(condition: Callable[[], bool], timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def _config_get(url: str, name: str) -> str:
    with Redis.from_url(url, decode_responses=True) as client:
        value: str = client.config_get(name)[name]
        return value


# -- serving -----------------------------------------------------------------------------


async def test_server_answers_on_its_unix_socket(tmp_path: Path) -> None:
    with EmbeddedServer(tmp_path) as server:
        assert server.url == f"unix://{server.data_dir}/valkey.sock"
        assert server.tcp_url is None
        client = aioredis.from_url(server.url)
        try:
            assert await client.ping() is True
            assert await client.set("table:1:seat:3", "alice") is True
            assert await client.get("table:1:seat:3") == b"alice"
        finally:
            await client.aclose()


def test_the_socket_is_private_to_the_user_running_floor(tmp_path: Path) -> None:
    with EmbeddedServer(tmp_path) as server:
        mode = server.socket_path.stat().st_mode
        assert stat.S_ISSOCK(mode)
        assert stat.S_IMODE(mode) == 0o700


def test_server_with_a_port_also_answers_on_loopback_tcp(tmp_path: Path) -> None:
    with EmbeddedServer(tmp_path, port=free_port()) as server:
        assert server.tcp_url == f"redis://127.0.0.1:{server.port}"
        with Redis.from_url(server.tcp_url) as client:
            assert client.ping() is True


def test_server_persists_append_only_with_fsync_on_every_write(tmp_path: Path) -> None:
    with EmbeddedServer(tmp_path) as server:
        assert _config_get(server.url, "appendonly") == "yes"
        assert _config_get(server.url, "appendfsync") == "always"
        assert _config_get(server.url, "save") == ""
        assert _config_get(server.url, "bind") == "127.0.0.1"
        assert _config_get(server.url, "protected-mode") == "yes"
        assert _config_get(server.url, "dir") == str(tmp_path.resolve())
    assert (tmp_path / "appendonlydir").is_dir()


async def test_the_redis_fixture_gives_an_empty_keyspace_on_the_session_server(
    redis: aioredis.Redis, redis_server: EmbeddedServer | None
) -> None:
    assert await redis.dbsize() == 0
    await redis.set("clock:level", 4)
    assert await redis.get("clock:level") == b"4"
    if redis_server is not None:
        assert redis_server.running
        assert redis_server.tcp_url is not None
        with Redis.from_url(redis_server.tcp_url) as tcp:
            assert tcp.get("clock:level") == b"4"


# -- persistence ---------------------------------------------------------------------------


async def test_acknowledged_write_survives_sigkill_of_the_server(tmp_path: Path) -> None:
    server = EmbeddedServer(tmp_path)
    server.start()
    client = aioredis.from_url(server.url)
    try:
        assert await client.set("bustout:player:42", "place 17") is True
        assert await client.incr("bustouts") == 1
        killed = server.pid
        assert killed is not None
        server.kill()
    finally:
        await client.aclose()
    assert not server.running
    assert not _alive(killed)

    with EmbeddedServer(tmp_path) as restarted:
        assert restarted.pid != killed
        client = aioredis.from_url(restarted.url)
        try:
            assert await client.get("bustout:player:42") == b"place 17"
            assert await client.get("bustouts") == b"1"
        finally:
            await client.aclose()


# -- stopping ------------------------------------------------------------------------------


def test_stop_shuts_down_cleanly_and_removes_the_socket(tmp_path: Path) -> None:
    server = EmbeddedServer(tmp_path)
    server.start()
    sock = server.socket_path
    pid = server.pid
    assert pid is not None
    assert sock.exists()
    assert (tmp_path / PID_NAME).read_text().strip() == str(pid)

    server.stop()

    assert not server.running
    assert not _alive(pid)
    assert not sock.exists()
    assert not (tmp_path / PID_NAME).exists()
    log = (tmp_path / LOG_NAME).read_text()
    # The SHUTDOWN path, not a signal: the AOF was fsynced and the server said goodbye.
    assert "User requested shutdown" in log
    assert "Calling fsync() on the AOF file" in log
    assert "ready to exit, bye bye" in log
    server.stop()  # a second stop is a no-op


def test_a_stopped_server_can_be_started_again_with_its_data(tmp_path: Path) -> None:
    server = EmbeddedServer(tmp_path)
    with server, Redis.from_url(server.url) as client:
        client.set("tournament:name", "Sunday Major")
    with server, Redis.from_url(server.url) as client:
        assert client.get("tournament:name") == b"Sunday Major"


# -- leftovers of a crash ------------------------------------------------------------------


def test_stale_pidfile_from_a_killed_server_does_not_block_restart(tmp_path: Path) -> None:
    first = EmbeddedServer(tmp_path)
    first.start()
    first_socket = first.socket_path
    first.kill()
    killed = first.pid
    assert killed is not None
    # What a crash leaves: a pidfile naming a dead process, and the socket file.
    assert (tmp_path / PID_NAME).read_text().strip() == str(killed)
    assert first_socket.exists()

    with EmbeddedServer(tmp_path) as second:
        assert (tmp_path / PID_NAME).read_text().strip() == str(second.pid)
        with Redis.from_url(second.url) as client:
            assert client.ping() is True


def test_pidfile_naming_an_unrelated_live_process_is_left_alone(tmp_path: Path) -> None:
    # The dead server's pid has been reused by some other process: here, pytest itself.
    (tmp_path / PID_NAME).write_text(f"{os.getpid()}\n")
    with EmbeddedServer(tmp_path) as server, Redis.from_url(server.url) as client:
        assert client.ping() is True
    assert _alive(os.getpid())


def test_orphaned_server_of_a_dead_floor_process_is_stopped_before_restart(
    tmp_path: Path,
) -> None:
    script = textwrap.dedent(
        """
        import os, sys
        from pathlib import Path
        from floor.redisdb.embedded import EmbeddedServer
        server = EmbeddedServer(Path(sys.argv[1]))
        server.start()
        print(server.pid, server.url, flush=True)
        os._exit(0)  # dies as a crashed floor would: no stop(), no atexit
        """
    )
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), env.get("PYTHONPATH")]))
    done = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        check=True,
    )
    pid_text, orphan_url = done.stdout.split()
    orphan = int(pid_text)
    try:
        assert _alive(orphan)
        with Redis.from_url(orphan_url) as client:
            client.set("seat:draw", "done")

        with EmbeddedServer(tmp_path) as server:
            assert _eventually(lambda: not _alive(orphan))
            assert server.pid != orphan
            with Redis.from_url(server.url) as client:
                assert client.get("seat:draw") == b"done"
        # It was asked to go, and went the clean way (AOF fsynced), before ours started.
        assert "Received SIGTERM scheduling shutdown" in (tmp_path / LOG_NAME).read_text()
    finally:
        if _alive(orphan):
            os.kill(orphan, 9)


def test_second_server_on_a_data_dir_in_use_is_refused(tmp_path: Path) -> None:
    with EmbeddedServer(tmp_path) as first:
        second = EmbeddedServer(tmp_path)
        with pytest.raises(EmbeddedServerError, match="is in use"):
            second.start()
        assert not second.running
        assert first.running
        with Redis.from_url(first.url) as client:
            assert client.ping() is True
    assert (tmp_path / LOCK_NAME).exists()


# -- socket path ---------------------------------------------------------------------------


def test_too_long_a_data_dir_puts_the_socket_in_a_short_temp_dir(tmp_path: Path) -> None:
    deep = tmp_path / ("d" * 60) / ("e" * 60)
    assert len(os.fsencode(deep / "valkey.sock")) > 107
    with EmbeddedServer(deep) as server:
        sock = server.socket_path
        assert sock.parent.name.startswith("floor-")
        assert len(os.fsencode(sock)) <= 107
        assert stat.S_IMODE(sock.parent.stat().st_mode) == 0o700
        with Redis.from_url(server.url) as client:
            assert client.ping() is True
    assert not sock.parent.exists()


def test_short_socket_dir_of_a_killed_server_is_removed_on_restart(tmp_path: Path) -> None:
    deep = tmp_path / ("d" * 60) / ("e" * 60)
    first = EmbeddedServer(deep)
    first.start()
    left_behind = first.socket_path.parent
    first.kill()
    assert left_behind.exists()
    with EmbeddedServer(deep) as second:
        assert not left_behind.exists()
        second_dir = second.socket_path.parent
    assert not second_dir.exists()


# -- failing to start ----------------------------------------------------------------------


def test_bad_config_fails_with_the_log_in_the_error(tmp_path: Path) -> None:
    server = EmbeddedServer(tmp_path, extra_config={"maxmemory": "lots"})
    with pytest.raises(EmbeddedServerError) as failure:
        server.start()
    message = str(failure.value)
    assert "exited with status 1" in message
    assert "FATAL CONFIG FILE ERROR" in message
    assert "maxmemory" in message
    assert not server.running
    # Nothing is left holding the data dir.
    with EmbeddedServer(tmp_path) as good, Redis.from_url(good.url) as client:
        assert client.ping() is True


def test_port_in_use_fails_with_the_log_in_the_error(tmp_path: Path) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        server = EmbeddedServer(tmp_path, port=port)
        with pytest.raises(EmbeddedServerError, match=f"Failed listening on port {port}"):
            server.start()
    assert not server.running


def test_extra_config_may_not_take_over_what_the_launcher_manages(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="appendfsync"):
        EmbeddedServer(tmp_path, extra_config={"appendfsync": "no"})
    with pytest.raises(ValueError, match="unixsocket"):
        EmbeddedServer(tmp_path, extra_config={"unixsocket": "/tmp/x.sock"})
    with pytest.raises(ValueError, match="bad extra_config"):
        EmbeddedServer(tmp_path, extra_config={"maxmemory": "1mb\nappendonly no"})


# -- choosing a server from the environment ------------------------------------------------


def test_redis_url_in_environment_starts_no_server(tmp_path: Path) -> None:
    data_dir = tmp_path / "var"
    for url in ("redis://127.0.0.1:6390/2", "unix:///run/valkey/valkey.sock"):
        assert server_for({"REDIS_URL": url}, data_dir) == (url, None)
        assert server_for({"REDIS_URL": url, "FLOOR_DATA_DIR": str(data_dir)}) == (url, None)
    assert not data_dir.exists()


def test_redis_url_must_name_a_redis_scheme(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="REDIS_URL"):
        server_for({"REDIS_URL": "http://127.0.0.1:6379"}, tmp_path)


def test_without_redis_url_a_server_starts_in_floor_data_dir(tmp_path: Path) -> None:
    data_dir = tmp_path / "floor-data"
    url, server = server_for({"FLOOR_DATA_DIR": str(data_dir)})
    assert server is not None
    try:
        assert url == server.url == f"unix://{data_dir}/valkey.sock"
        assert _config_get(url, "appendfsync") == "always"
    finally:
        server.stop()


def test_floor_appendfsync_sets_the_fsync_policy(tmp_path: Path) -> None:
    url, server = server_for({"FLOOR_APPENDFSYNC": "everysec"}, tmp_path)
    assert server is not None
    try:
        assert _config_get(url, "appendfsync") == "everysec"
    finally:
        server.stop()
    with pytest.raises(ValueError, match="FLOOR_APPENDFSYNC"):
        server_for({"FLOOR_APPENDFSYNC": "sometimes"}, tmp_path)


@pytest.mark.parametrize("command", [["serve"], ["demo", "--players", "30"]])
def test_floor_stopped_with_sigterm_stops_the_valkey_it_started(
    tmp_path: Path, command: list[str]
) -> None:
    """systemd, `timeout` and `docker stop` send SIGTERM: the demo left its Valkey running."""
    from floor.redisdb.embedded import free_port

    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env["FLOOR_DATA_DIR"] = str(tmp_path / "var")
    proc = subprocess.Popen(
        [sys.executable, "-m", "floor", *command, "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                assert proc.poll() is None and time.monotonic() < deadline
                time.sleep(0.1)
        pid = int((tmp_path / "var" / PID_NAME).read_text())
        proc.terminate()
        assert proc.wait(20) is not None
        deadline = time.monotonic() + 10
        while _alive(pid):
            assert time.monotonic() < deadline, f"valkey-server {pid} still runs"
            time.sleep(0.1)
    finally:
        if proc.poll() is None:
            proc.kill()
