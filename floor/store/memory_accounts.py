"""Staff accounts, sessions, attempt counters and the sign-out feed in this process's memory.

The same contract as the Redis storage, for fast tests of the account logic; nothing
survives the process, and no two processes share it (two ``Accounts`` given one storage and
one feed stand for two server processes). Expiry follows ``clock`` (wall-clock seconds), so a
test moves time by moving its clock.
"""

from __future__ import annotations

import asyncio
import itertools
import math
import time
from collections.abc import AsyncIterator, Callable

from .accounts_port import (
    AttemptRule,
    Held,
    PairAttempts,
    Removal,
    StoredAccount,
    StoredSession,
)
from .ports import Resubscribed


class MemoryAccounts:
    """An ``AccountStorage`` in dictionaries."""

    def __init__(self, *, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock
        self._accounts: dict[str, Held] = {}
        #: digest -> (session, expires at)
        self._sessions: dict[str, tuple[StoredSession, float]] = {}
        self._index: dict[str, set[str]] = {}
        #: address -> (count, window ends at)
        self._addresses: dict[str, tuple[int, float]] = {}
        #: username -> address -> its failures
        self._pairs: dict[str, dict[str, PairAttempts]] = {}
        #: username -> browser digest -> remembered until
        self._known: dict[str, dict[str, float]] = {}
        self._revisions = itertools.count(1)

    def _held(self, account: StoredAccount) -> Held:
        return Held(account, str(next(self._revisions)).encode())

    # Accounts -------------------------------------------------------------------------------

    async def create_account(self, account: StoredAccount) -> bool:
        if account.username in self._accounts:
            return False
        self._accounts[account.username] = self._held(account)
        return True

    async def account(self, username: str) -> Held | None:
        return self._accounts.get(username)

    async def all_accounts(self) -> list[StoredAccount]:
        return [held.account for held in self._accounts.values()]

    async def replace_account(self, revision: bytes, account: StoredAccount) -> bytes | None:
        held = self._accounts.get(account.username)
        if held is None or held.revision != revision:
            return None
        self._accounts[account.username] = new = self._held(account)
        return new.revision

    async def remove_account(self, username: str) -> Removal:
        held = self._accounts.get(username)
        if held is None:
            return "missing"
        if held.account.role == "director":
            directors = sum(h.account.role == "director" for h in self._accounts.values())
            if directors <= 1:
                return "last_director"
        del self._accounts[username]
        return "removed"

    # Sessions -------------------------------------------------------------------------------

    async def open_session(self, digest: str, session: StoredSession, ttl: int) -> None:
        self._index.setdefault(session.username, set()).add(digest)
        self._sessions[digest] = (session, self.clock() + ttl)

    async def session(self, digest: str) -> StoredSession | None:
        kept = self._sessions.get(digest)
        if kept is None:
            return None
        if kept[1] <= self.clock():
            del self._sessions[digest]
            return None
        return kept[0]

    async def end_session(self, digest: str) -> StoredSession | None:
        session = await self.session(digest)
        self._sessions.pop(digest, None)
        if session is not None:
            self._index.get(session.username, set()).discard(digest)
        return session

    async def end_sessions(self, username: str, keep: str | None = None) -> int:
        digests = self._index.pop(username, set())
        if keep is not None and keep in digests:
            digests.discard(keep)
            self._index[username] = {keep}
        ended = [await self.session(d) for d in digests]
        for d in digests:
            self._sessions.pop(d, None)
        return sum(s is not None for s in ended)

    # Sign-in attempts -----------------------------------------------------------------------

    def _window(self, address: str) -> tuple[int, float] | None:
        kept = self._addresses.get(address)
        if kept is not None and kept[1] <= self.clock():
            del self._addresses[address]
            return None
        return kept

    async def count_address(self, address: str, window: int) -> tuple[int, int]:
        kept = self._window(address)
        n, ends = (1, self.clock() + window) if kept is None else (kept[0] + 1, kept[1])
        self._addresses[address] = (n, ends)
        return n, max(1, math.ceil(ends - self.clock()))

    async def take_back_address(self, address: str) -> None:
        kept = self._window(address)
        if kept is not None and kept[0] > 0:
            self._addresses[address] = (kept[0] - 1, kept[1])

    async def clear_address(self, address: str) -> None:
        self._addresses.pop(address, None)

    async def reserve_attempt(
        self, username: str, address: str, now: float, rule: AttemptRule
    ) -> float:
        pairs = self._pairs.setdefault(username, {})
        kept = pairs.get(address)
        failures, last, next_at = 0, now, 0.0
        if kept is not None and now - kept.last <= rule.memory:
            failures, last, next_at = kept.failures, max(now, kept.last), kept.next_at
        if now < next_at:
            return next_at - now
        if rule.limit is not None and failures >= rule.limit:
            return rule.refuse_for
        failures += 1
        wait = rule.delays[min(failures, len(rule.delays)) - 1]
        # No delay is no time to wait: parallel attempts read the clock in no order.
        pairs[address] = PairAttempts(
            address=address, failures=failures, last=last, next_at=now + wait if wait else 0.0
        )
        return 0.0

    async def clear_attempt(self, username: str, address: str) -> None:
        self._pairs.get(username, {}).pop(address, None)

    async def clear_attempts(self, username: str) -> int:
        return len(self._pairs.pop(username, {}))

    async def attempts(self, username: str) -> list[PairAttempts]:
        return list(self._pairs.get(username, {}).values())

    async def remember_device(
        self, username: str, device: str, now: float, until: float, most: int
    ) -> None:
        kept = self._known.setdefault(username, {})
        for gone in [d for d, ends in kept.items() if ends <= now]:
            del kept[gone]
        kept[device] = until
        for old in sorted(kept, key=kept.__getitem__)[: max(0, len(kept) - most)]:
            del kept[old]

    async def known_device(self, username: str, device: str, now: float) -> bool:
        return self._known.get(username, {}).get(device, 0.0) > now

    async def forget_devices(self, username: str) -> None:
        self._known.pop(username, None)


class MemorySignOuts:
    """A ``SignOutFeed`` within one process: each announcement to every listener."""

    def __init__(self) -> None:
        self._listeners: set[asyncio.Queue[str | Resubscribed]] = set()

    async def announce(self, username: str) -> None:
        for queue in self._listeners:
            queue.put_nowait(username)

    def lose(self) -> None:
        """As if the connection had dropped: every listener is told ``Resubscribed``."""
        for queue in self._listeners:
            queue.put_nowait(Resubscribed())

    def announcements(self) -> AsyncIterator[str | Resubscribed]:
        # Listening from the call on, not from the first read: what is announced between
        # the two is not lost.
        queue: asyncio.Queue[str | Resubscribed] = asyncio.Queue()
        self._listeners.add(queue)
        return self._read(queue)

    async def _read(
        self, queue: asyncio.Queue[str | Resubscribed]
    ) -> AsyncIterator[str | Resubscribed]:
        try:
            while True:
                yield await queue.get()
        finally:
            self._listeners.discard(queue)
