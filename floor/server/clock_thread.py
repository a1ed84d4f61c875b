"""The clock driver on a thread and an event loop of its own.

The server's event loop serves every screen and every command: a command that grows with
its body (a list of a thousand entries into a room of 10,000) keeps the engine busy for
seconds, and a level change due meanwhile, written from the same loop, waited that long. So
the driver (``clockdriver``) runs here: its own loop on its own thread, its own connections
to Redis and its own copies of the tournaments, kept current from the bus. The engine is
pure Python, so the two threads share the interpreter's lock, but the server's thread gives
it up every few milliseconds (``sys.getswitchinterval``): a due level change is written
within a few milliseconds of its time whatever the server's loop is doing.

The driver's parts are made on its own loop (``build``): asyncio objects belong to the loop
that uses them.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Awaitable, Callable

from .clockdriver import ClockDriver

log = logging.getLogger(__name__)

#: The driver, and what closes its connections once it has stopped.
Build = Callable[[], tuple[ClockDriver, Callable[[], Awaitable[None]]]]


class ClockThread:
    def __init__(self, build: Build) -> None:
        self._build = build
        self._driver: ClockDriver | None = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()

    @property
    def holding(self) -> bool:
        """Whether this process holds the clock lease (``/healthz``)."""
        return self._driver is not None and self._driver.holding

    async def start(self) -> None:
        self._thread = threading.Thread(target=self._main, name="floor-clock", daemon=True)
        self._thread.start()

    async def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            await asyncio.to_thread(self._thread.join, 15.0)

    def _main(self) -> None:
        try:
            asyncio.run(self._serve())
        except Exception:
            log.exception("the clock driver stopped")

    async def _serve(self) -> None:
        driver, close = self._build()
        self._driver = driver
        try:
            await driver.start()
            await asyncio.to_thread(self._stop.wait)
        finally:
            await driver.stop()
            await close()
