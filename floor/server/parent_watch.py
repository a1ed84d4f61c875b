"""Worker processes that end with the server that started them.

The forecaster's workers and the push sender are spawned by a server process. A server that
stops cleanly shuts them down; one that is killed (SIGKILL, the OOM killer, a crash) cannot,
and its workers would live on, idle, holding their memory until the machine restarts: a
supervisor that starts the server again starts new ones beside them. Each worker therefore
watches its parent from a thread of its own and leaves once the process that spawned it is
gone (it is then the child of another process: its parent id changes).
"""

from __future__ import annotations

import os
import threading
import time
from typing import Final

#: How often a worker looks: a killed server's workers are gone within about this long.
POLL_SECONDS: Final = 1.0


def exit_with_parent(poll: float = POLL_SECONDS) -> None:
    """From now on, this process exits soon after its parent does."""
    parent = os.getppid()

    def watch() -> None:
        while True:
            time.sleep(poll)
            if os.getppid() != parent:
                # Nothing of the parent's is left to answer to: no clean-up is owed.
                os._exit(0)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def forecast_worker(niceness: int) -> None:
    """A forecast worker's initializer: it ends with its server, then runs as nice as asked."""
    from ..forecast import worker

    exit_with_parent()
    worker.lower_priority(niceness)


def push_worker(pem: bytes, subject: str, threads: int) -> None:
    """The push sender's initializer: it ends with its server, then holds the VAPID key."""
    from . import push_worker as sender

    exit_with_parent()
    sender.start(pem, subject, threads)
