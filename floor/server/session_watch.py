"""Who in this process is to hear at once that an account's sessions ended.

A websocket outlives the session check of its handshake: without this, a removed account's
open socket went on receiving what only staff see (special needs) until it sent a command.
Each staff socket watches its account here; a sign-out, a new secret or a removal (in this
process, another one, or ``floor user passwd``) is announced on the ``SignOutFeed``, and every
process calls the watchers of that account, which check their session again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

from ..store.accounts_port import SignOutFeed
from ..store.errors import Unavailable
from ..store.ports import Resubscribed

log = logging.getLogger(__name__)

Watcher = Callable[[], None]


class SessionWatch:
    """The watchers of this process, and the reader of the feed that calls them.

    ``forget(username)`` drops what this process cached of the account's sessions (None:
    of every account); it runs before the watchers, so that their check reads the storage.
    """

    def __init__(self, feed: SignOutFeed | None, forget: Callable[[str | None], None]) -> None:
        self.feed = feed
        self._forget = forget
        self._watchers: dict[str, set[Watcher]] = {}
        self._reader: asyncio.Task[None] | None = None

    def watch(self, username: str, watcher: Watcher) -> Callable[[], None]:
        """Call ``watcher()`` whenever sessions of ``username`` may have ended; the function
        returned stops it."""
        self._watchers.setdefault(username, set()).add(watcher)

        def unwatch() -> None:
            watchers = self._watchers.get(username)
            if watchers is not None:
                watchers.discard(watcher)
                if not watchers:
                    del self._watchers[username]

        return unwatch

    @property
    def watched(self) -> int:
        return sum(len(w) for w in self._watchers.values())

    async def announce(self, username: str) -> None:
        """Sessions of ``username`` ended: here at once, and in every process through the
        feed (its echo here checks the sockets once more, which changes nothing)."""
        self.ended(username)
        if self.feed is not None:
            await self.feed.announce(username)

    def ended(self, username: str | None) -> None:
        """Sessions of ``username`` (None: of anybody) may have ended: tell the watchers."""
        self._forget(username)
        if username is None:
            watchers = [w for ws in self._watchers.values() for w in ws]
        else:
            watchers = list(self._watchers.get(username, ()))
        for watcher in watchers:
            try:
                watcher()
            except Exception:
                log.exception("a session watcher failed", extra={"username": username})

    async def start(self) -> None:
        if self.feed is not None and self._reader is None:
            self._reader = asyncio.create_task(self._read(self.feed), name="signout-reader")

    async def stop(self) -> None:
        reader, self._reader = self._reader, None
        if reader is not None:
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await reader

    async def _read(self, feed: SignOutFeed) -> None:
        while True:
            try:
                async for item in feed.announcements():
                    # Missed announcements (a lost connection): any session may have ended.
                    self.ended(None if isinstance(item, Resubscribed) else item)
            except Unavailable as e:
                log.warning("sign-out feed unavailable", extra={"error": e.message})
            await asyncio.sleep(1.0)
            self.ended(None)  # what was announced meanwhile is not known
