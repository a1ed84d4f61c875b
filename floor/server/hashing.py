"""argon2 off the event loop, fewer at once than the machine has cores, the staff first.

A check costs tens of milliseconds of a core. Four at once on two cores (as before) left the
loop none: twelve clients guessing passwords slowed a real sign-in from 0.15 s to about 1 s
and the staff's commands' p90 from 8.5 to 173 ms. Now at most ``slots`` run at once (one
core fewer than the machine has, at least one), so a core stays for the loop; and a check
for a browser that signed in before, or for a table screen, goes ahead of the others in the
queue, so a crowd of strangers' guesses never stands between the staff and their sign-in.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import unicodedata
from collections import deque

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError


def default_slots() -> int:
    """Checks that may run at once: one fewer than the cores this process may use."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, cores - 1)


def normal(secret: str) -> str:
    """The secret as hashed: NFKC, so that one password typed on two keyboards is one."""
    return unicodedata.normalize("NFKC", secret)


class Hashing:
    """The hasher behind a gate of ``slots`` places, first come first served but for the
    ``first`` ones, which are served before every other waiting."""

    def __init__(self, hasher: PasswordHasher, slots: int | None = None) -> None:
        self.hasher = hasher
        self.slots = default_slots() if slots is None else max(1, slots)
        self._free = self.slots
        self._first: deque[asyncio.Future[None]] = deque()
        self._rest: deque[asyncio.Future[None]] = deque()
        #: Hashes computed and checked since the start (``floor_signin_hashes_total``).
        self.count = 0

    @property
    def waiting(self) -> int:
        return len(self._first) + len(self._rest)

    async def hash(self, secret: str, *, first: bool = False) -> str:
        await self._enter(first)
        try:
            self.count += 1
            return await asyncio.to_thread(self.hasher.hash, normal(secret))
        finally:
            self._leave()

    async def verify(self, hashed: str, secret: str, *, first: bool = False) -> bool:
        await self._enter(first)
        try:
            self.count += 1
            return await asyncio.to_thread(self.hasher.verify, hashed, normal(secret))
        except (VerificationError, InvalidHashError):
            return False
        finally:
            self._leave()

    async def _enter(self, first: bool) -> None:
        if self._free > 0 and not self.waiting:
            self._free -= 1
            return
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        (self._first if first else self._rest).append(turn)
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():
                self._leave()  # handed a place just as it went: hand it on
            else:
                with contextlib.suppress(ValueError):  # unless passed over already
                    (self._first if first else self._rest).remove(turn)
            raise

    def _leave(self) -> None:
        for queue in (self._first, self._rest):
            while queue:
                turn = queue.popleft()
                if not turn.done():
                    turn.set_result(None)  # the place passes on, never freed in between
                    return
        self._free += 1
