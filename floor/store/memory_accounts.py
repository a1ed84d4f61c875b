"""Staff accounts, sessions and attempt counters in this process's memory.

The same contract as the Redis storage, for fast tests of the account logic; nothing
survives the process, and no two processes share it. Expiry follows ``clock`` (wall-clock
seconds), so a test moves time by moving its clock.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable

from .accounts_port import AttemptKind, Held, Removal, StoredAccount, StoredSession


class MemoryAccounts:
    """An ``AccountStorage`` in dictionaries."""

    def __init__(self, *, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock
        self._accounts: dict[str, Held] = {}
        #: digest -> (session, expires at)
        self._sessions: dict[str, tuple[StoredSession, float]] = {}
        self._index: dict[str, set[str]] = {}
        #: (kind, subject) -> (count, window ends at)
        self._attempts: dict[tuple[AttemptKind, str], tuple[int, float]] = {}
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

    async def end_sessions(self, username: str) -> int:
        digests = self._index.pop(username, set())
        ended = [await self.session(d) for d in digests]
        for d in digests:
            self._sessions.pop(d, None)
        return sum(s is not None for s in ended)

    # Sign-in attempts -----------------------------------------------------------------------

    def _window(self, kind: AttemptKind, subject: str) -> tuple[int, float] | None:
        kept = self._attempts.get((kind, subject))
        if kept is not None and kept[1] <= self.clock():
            del self._attempts[(kind, subject)]
            return None
        return kept

    async def count_attempt(self, kind: AttemptKind, subject: str, window: int) -> tuple[int, int]:
        kept = self._window(kind, subject)
        n, ends = (1, self.clock() + window) if kept is None else (kept[0] + 1, kept[1])
        self._attempts[(kind, subject)] = (n, ends)
        return n, max(1, math.ceil(ends - self.clock()))

    async def take_back_attempt(self, kind: AttemptKind, subject: str) -> None:
        kept = self._window(kind, subject)
        if kept is not None and kept[0] > 0:
            self._attempts[(kind, subject)] = (kept[0] - 1, kept[1])

    async def clear_attempts(self, kind: AttemptKind, subject: str) -> None:
        self._attempts.pop((kind, subject), None)
