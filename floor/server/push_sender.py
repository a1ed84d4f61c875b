"""Handing Web Push messages to the process that sends them (``push_worker``), off the loop.

The sending process is started on the first message (a public edge, which writes nothing,
never starts one) from ``spawn`` (a fresh interpreter: forking a process that runs an event
loop and threads copies their locks mid-use). Messages go in chunks; at most ``most_queued``
wait at once: past that, the newest are dropped and counted (a push is a convenience on top
of the screens, never worth holding the loop or the memory for). What the sending process
reports back (subscriptions gone) comes back to the loop.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import multiprocessing
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Final

from . import parent_watch, push_worker
from .push_worker import Job, Result

log = logging.getLogger(__name__)

#: Messages per chunk handed to the sending process.
CHUNK: Final = 200
#: Messages waiting at most; past it the newest are dropped.
MOST_QUEUED: Final = 50_000
#: Threads posting to push services at once in the sending process.
THREADS: Final = 16


class PushSender:
    """One sending process for this server process."""

    def __init__(
        self,
        pem: bytes,
        subject: str,
        *,
        on_result: Callable[[Result], None] | None = None,
        most_queued: int = MOST_QUEUED,
        chunk: int = CHUNK,
        threads: int = THREADS,
    ) -> None:
        self.pem = pem
        self.subject = subject
        self.on_result = on_result
        self.most_queued = most_queued
        self.chunk = chunk
        self.threads = threads
        #: Messages handed over and not yet answered; dropped for want of room; sent.
        self.queued = 0
        self.dropped = 0
        self.delivered = 0
        self.failed = 0
        self._pool: ProcessPoolExecutor | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._loop = asyncio.get_running_loop()
            self._pool = ProcessPoolExecutor(
                1,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=parent_watch.push_worker,
                initargs=(self.pem, self.subject, self.threads),
            )
        return self._pool

    def start(self) -> None:
        """Start the sending process now (it imports for a second): its first messages then
        wait for nothing."""
        self._executor().submit(push_worker.warm)

    def send(self, jobs: list[Job]) -> int:
        """Hand ``jobs`` over: how many messages were taken (0: none, no room)."""
        if not jobs:
            return 0
        # A subscription list is JSON from the storage: one endpoint per message.
        counts = [subs.count(b'"endpoint"') for _, _, subs in jobs]
        messages = sum(counts)
        if self.queued + messages > self.most_queued:
            self.dropped += messages
            log.warning("pushes dropped: too many waiting", extra={"messages": messages})
            return 0
        pool = self._executor()
        self.queued += messages
        for start in range(0, len(jobs), self.chunk):
            part = jobs[start : start + self.chunk]
            future = pool.submit(push_worker.send_all, part)
            held = sum(counts[start : start + self.chunk])
            future.add_done_callback(functools.partial(self._done_in_thread, messages=held))
        return messages

    def _done_in_thread(self, future: Future[Result], messages: int) -> None:
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._done, future, messages)

    def _done(self, future: Future[Result], messages: int) -> None:
        self.queued -= messages
        try:
            result = future.result()
        except Exception:
            self.failed += messages
            log.exception("the sending process failed a chunk of pushes")
            return
        self.delivered += result.delivered
        self.failed += result.failed
        if self.on_result is not None:
            self.on_result(result)

    async def stop(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            stop = functools.partial(pool.shutdown, wait=True, cancel_futures=True)
            await asyncio.get_running_loop().run_in_executor(None, stop)
