"""Keeping the embedded Valkey up: restarted when it dies, or floor exits for its supervisor.

``floor serve`` and ``floor demo`` run the embedded Valkey (REDIS_URL not set) as a child.
A watcher thread waits for it to exit; when it exits without floor asking, the watcher
starts it again on the same data directory, socket and lock (floor.redisdb.embedded
``restart``: the append-only file is loaded again, so every acknowledged write is back)
after 1 s, then 2 s, 4 s... at most ``BACKOFF_CAP``. Meanwhile commands answer 503 (phones
resend them with the same command id), and afterwards the clients reconnect by themselves:
the socket's path is the same. The bus resubscribes and the hub sends every screen a fresh
snapshot (floor.server.hub ``_resubscribed``).

A Valkey that cannot be kept up is not retried for ever: after ``max_failures`` failed
restarts within ``window`` seconds (a restart fails when the server does not come up, or
when it dies again within ``STABLE`` seconds) the watcher calls ``on_give_up``, and floor
shuts down and exits with ``EXIT_VALKEY_DOWN`` so that systemd or docker restart it whole.
A process that stayed up answering 503 would never be restarted by them.

What the watcher is doing is written to ``floor-valkey.state`` in the data directory (JSON,
replaced at every change), which ``/healthz`` reads in every worker process: running,
restarting (with the attempt) or down. ``floor serve`` tells its workers the file's path in
``FLOOR_VALKEY_STATE_FILE`` (not a setting: floor sets it for its own processes).
"""

from __future__ import annotations

import atexit
import collections
import contextlib
import logging
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Final, Literal

import msgspec

from .embedded import EmbeddedServer, EmbeddedServerError

__all__ = [
    "BACKOFF_CAP",
    "EXIT_VALKEY_DOWN",
    "STABLE",
    "STATE_ENV",
    "STATE_NAME",
    "Supervisor",
    "ValkeyState",
    "backoff",
    "read_state",
]

log = logging.getLogger(__name__)

STATE_NAME: Final = "floor-valkey.state"
STATE_ENV: Final = "FLOOR_VALKEY_STATE_FILE"

#: floor's exit status when it gave up on its Valkey: sysexits.h EX_UNAVAILABLE.
EXIT_VALKEY_DOWN: Final = 69

BACKOFF_BASE: Final = 1.0
BACKOFF_CAP: Final = 30.0
#: A restarted server that dies sooner than this did not hold: that restart failed.
STABLE: Final = 10.0
#: Long enough for the AOF of a long day to load (the server answers -LOADING meanwhile).
READY_TIMEOUT: Final = 60.0

State = Literal["running", "restarting", "down"]


class ValkeyState(msgspec.Struct, frozen=True, kw_only=True):
    """What the watcher is doing about the embedded Valkey (the state file's content)."""

    state: State
    #: The restart under way or last made, counted from 1 since the server last held.
    attempt: int = 0
    #: Restarts that failed within the window, and how many make floor exit.
    failures: int = 0
    max_failures: int
    #: Successful restarts since floor started the server.
    restarts: int = 0
    #: When this state began, epoch seconds.
    since: float


def backoff(attempt: int) -> float:
    """Seconds to wait before restart ``attempt`` (1, 2, 3...): 1 s, 2 s, 4 s... capped."""
    return min(BACKOFF_CAP, BACKOFF_BASE * 2.0 ** max(0, attempt - 1))


def read_state(path: Path) -> ValkeyState | None:
    """The state file's content; None when there is none or it cannot be read."""
    try:
        return msgspec.json.decode(path.read_bytes(), type=ValkeyState)
    except (OSError, msgspec.DecodeError):
        return None


class Supervisor:
    """Watches one started EmbeddedServer; ``close`` stops the watching and the server.

    ``on_give_up`` is called from the watcher thread once floor should exit; it must only
    ask the main thread to shut down (``floor serve`` sends itself SIGTERM).
    """

    def __init__(
        self,
        server: EmbeddedServer,
        *,
        on_give_up: Callable[[], None],
        max_failures: int = 5,
        window: float = 120.0,
        ready_timeout: float = READY_TIMEOUT,
    ) -> None:
        if max_failures < 1:
            raise ValueError(f"max_failures must be at least 1, not {max_failures}")
        if window <= 0:
            raise ValueError(f"window must be more than 0 seconds, not {window}")
        self.server = server
        self.on_give_up = on_give_up
        self.max_failures = max_failures
        self.window = window
        self.ready_timeout = ready_timeout
        self.state_path = server.data_dir / STATE_NAME
        self.gave_up = False
        self.restarts = 0
        #: Monotonic times of the failed restarts still within the window.
        self._failures: collections.deque[float] = collections.deque()
        self._stopping = threading.Event()
        # Held while the server is being restarted or stopped: one thread at a time on it.
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if not self.server.running:
            raise EmbeddedServerError("start the embedded server before watching it")
        self._publish("running", 0)
        self._thread = threading.Thread(target=self._watch, name="valkey-watcher", daemon=True)
        self._thread.start()
        # Before the server's own handler (atexit runs the last registered first): a server
        # stopped at exit must not look like one that died.
        atexit.register(self._stopping.set)

    def close(self, timeout: float = 10.0) -> None:
        """Stop watching, then stop the server (a no-op for one that is down)."""
        self._stopping.set()
        atexit.unregister(self._stopping.set)
        with self._lock:
            self.server.stop(timeout)
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout)

    # -- the watcher thread ----------------------------------------------------------------

    def _watch(self) -> None:
        try:
            self._keep_up()
        except Exception:
            # A watcher that broke cannot restart anything: floor must not stay up unwatched.
            log.exception("the embedded Valkey's watcher failed")
            self._give_up(0)

    def _keep_up(self) -> None:
        started = time.monotonic()
        attempt = 0
        while True:
            status = self.server.wait()
            if self._stopping.is_set():
                return
            now = time.monotonic()
            if now - started >= STABLE:
                attempt = 0
            elif attempt:
                self._failures.append(now)  # the last restart did not hold
            log.error(
                "the embedded valkey-server exited by itself; restarting it",
                extra={"status": status, "data_dir": str(self.server.data_dir)},
            )
            while True:
                attempt += 1
                if self._recent_failures() >= self.max_failures:
                    self._give_up(attempt - 1)
                    return
                self._publish("restarting", attempt)
                if self._stopping.wait(backoff(attempt)):
                    return
                with self._lock:
                    if self._stopping.is_set():
                        return
                    try:
                        self.server.restart(self.ready_timeout)
                    except (EmbeddedServerError, OSError) as e:
                        self._failures.append(time.monotonic())
                        log.error(
                            "restarting the embedded valkey-server failed",
                            extra={"attempt": attempt, "error": str(e)},
                        )
                        continue
                break
            started = time.monotonic()
            self.restarts += 1
            self._publish("running", attempt)
            log.warning(
                "the embedded valkey-server is back",
                extra={"attempt": attempt, "valkey_pid": self.server.pid},
            )

    def _recent_failures(self) -> int:
        horizon = time.monotonic() - self.window
        while self._failures and self._failures[0] < horizon:
            self._failures.popleft()
        return len(self._failures)

    def _give_up(self, attempts: int) -> None:
        self.gave_up = True
        self._publish("down", attempts)
        log.critical(
            "the embedded valkey-server cannot be kept up: floor exits for its supervisor "
            "to restart it",
            extra={"failures": len(self._failures), "window": self.window},
        )
        self.on_give_up()

    def _publish(self, state: State, attempt: int) -> None:
        current = ValkeyState(
            state=state,
            attempt=attempt,
            failures=self._recent_failures(),
            max_failures=self.max_failures,
            restarts=self.restarts,
            since=time.time(),
        )
        tmp = self.state_path.with_name(STATE_NAME + ".tmp")
        try:
            tmp.write_bytes(msgspec.json.encode(current))
            os.replace(tmp, self.state_path)
        except OSError as e:
            # /healthz then says only whether Valkey answers: worth a warning, no more.
            log.warning("cannot write the Valkey state file", extra={"error": str(e)})
            with contextlib.suppress(OSError):
                tmp.unlink()
