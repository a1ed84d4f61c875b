"""The day forecaster's worker processes: where its runs are played, never on the loop.

A ``ProcessPoolExecutor`` of spawned processes (a fork of a process with a running loop and
open sockets would copy them), each at the lowest priority and, on Linux, in the idle scheduling
class (``worker.lower_priority``), one core left free by default: on a machine of two cores
the staff's commands and the screens come first, the forecast takes what is left. The loop
only awaits the answers. Started on the first forecast, so a process that never forecasts
never spawns one; a worker that died takes the pool with it
(``BrokenProcessPool``), and the next call starts a new one.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Final, TypeVar

from . import parent_watch

log = logging.getLogger(__name__)

T = TypeVar("T")

#: The niceness of a worker: the lowest priority there is.
NICE: Final = 19
MAX_WORKERS: Final = 4


def workers_for(setting: int, cores: int | None = None) -> int:
    """``FLOOR_FORECAST_WORKERS``: 0 is one fewer than the cores (at least one, at most
    ``MAX_WORKERS``): a core is left to the server, its Valkey and the screens, whose p99 a
    forecast on every core raised to 1.9x idle on two cores."""
    if setting > 0:
        return setting
    n = (os.cpu_count() or 1) if cores is None else cores
    return max(1, min(MAX_WORKERS, n - 1))


class WorkerPool:
    def __init__(self, workers: int, niceness: int = NICE) -> None:
        self.workers = workers
        self.niceness = niceness
        self._executor: ProcessPoolExecutor | None = None

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=parent_watch.forecast_worker,
                initargs=(self.niceness,),
            )
        return self._executor

    async def call(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a worker; cancelled before it starts, it never runs."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._pool(), fn, *args)
        except BrokenProcessPool:
            log.error("a forecast worker died: the pool starts again")
            broken, self._executor = self._executor, None
            if broken is not None:
                broken.shutdown(wait=False, cancel_futures=True)
            raise

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
