"""A bounded queue for work a crowd can ask for at once: a few run, some wait, the rest are
told no at once (and take a cheaper way).

Catch-ups read from Redis go through one gate per kind of reader: a thousand public screens
reconnecting from old numbers used to take every connection of the pool, and a staff
command then waited for one until it timed out (503 after 3 s). Now at most ``running`` of
them read at once, on a pool of their own, ``waiting`` more queue, and the others are sent
a snapshot already built. Staff screens have a gate of their own, which no public screen
can fill.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import TypeVar

T = TypeVar("T")


class Gate:
    def __init__(self, running: int, waiting: int) -> None:
        if running < 1 or waiting < 0:
            raise ValueError(
                f"a gate needs running >= 1 and waiting >= 0, not {running}, {waiting}"
            )
        self.running = running
        self.waiting = waiting
        self._slots = asyncio.Semaphore(running)
        #: Admitted and not yet done (running or waiting).
        self.inside = 0
        #: Turned away so far (for the metrics and the tests).
        self.refused = 0

    def enter(self) -> bool:
        """Take a place (then ``run`` the work), or False when the gate is full."""
        if self.inside >= self.running + self.waiting:
            self.refused += 1
            return False
        self.inside += 1
        return True

    async def run(self, work: Awaitable[T]) -> T:
        """Do ``work`` once a slot is free; the place taken by ``enter`` is given back."""
        try:
            async with self._slots:
                return await work
        finally:
            self.inside -= 1
