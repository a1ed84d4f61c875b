"""The port behind staff accounts, sessions and the sign-in attempt counters.

The account logic (``floor.server.accounts``) decides; an implementation of ``AccountStorage``
keeps: ``floor.redisdb.accounts`` on Redis/Valkey, ``floor.store.memory_accounts`` in memory
for fast tests. Everything here is plain data: the secret arrives already hashed, a session
under the SHA-256 of its token, so no storage ever holds what would sign anybody in.
"""

from __future__ import annotations

from typing import Final, Literal, NamedTuple, Protocol

import msgspec

Role = Literal["director", "floor", "dealer"]
ROLES: Final[tuple[Role, ...]] = ("director", "floor", "dealer")

#: What a sign-in attempt is counted against: the client's address, or the username asked for.
AttemptKind = Literal["ip", "user"]

#: What ``remove_account`` did. A storage makes the last-director check in the same atomic
#: step as the removal, so that two directors removing each other cannot leave none.
Removal = Literal["removed", "missing", "last_director"]


class Account(msgspec.Struct, frozen=True, kw_only=True):
    """A staff account as the director sees it (never its hash)."""

    username: str
    role: Role
    table: int | None = None
    #: The secret is a PIN (digits), not a password.
    pin: bool = False
    created_at: float
    #: When the password or PIN was last set.
    changed_at: float


class StoredAccount(Account, frozen=True, kw_only=True):
    """The stored account: its argon2id hash (the PHC string ``$argon2id$v=19$...``)."""

    hash: str


class StoredSession(msgspec.Struct, frozen=True, kw_only=True):
    """A sign-in as kept, under the digest of its token (never the token)."""

    username: str
    role: Role
    table: int | None = None
    created_at: float
    expires_at: float
    #: The address that signed in.
    client: str


class Held(NamedTuple):
    """An account as read, with the revision a later ``replace_account`` compares against.

    The revision is opaque: two reads of an unchanged account give equal revisions, and any
    write gives a new one. (On Redis it is the stored bytes themselves.)
    """

    account: StoredAccount
    revision: bytes


class AccountStorage(Protocol):
    """Accounts, sessions and attempt counters. A failing backend raises ``Unavailable``.

    Each method is one atomic step on its own; the account logic is written so that the
    steps it chains stay correct when another process interleaves (see ``Accounts``).
    """

    # Accounts -------------------------------------------------------------------------------

    async def create_account(self, account: StoredAccount) -> bool:
        """Store a new account; False (and nothing stored) if the username is taken."""
        ...

    async def account(self, username: str) -> Held | None:
        """The account and its revision, or None."""
        ...

    async def all_accounts(self) -> list[StoredAccount]:
        """Every account, in no particular order."""
        ...

    async def replace_account(self, revision: bytes, account: StoredAccount) -> bytes | None:
        """Replace ``account.username``'s record if it is still at ``revision``: its new
        revision, or None if it changed (or went) meanwhile, and then nothing is written."""
        ...

    async def remove_account(self, username: str) -> Removal:
        """Delete an account, unless it is the last director."""
        ...

    # Sessions -------------------------------------------------------------------------------

    async def open_session(self, digest: str, session: StoredSession, ttl: int) -> None:
        """Keep a session for ``ttl`` seconds, indexed under its username before it exists,
        so that ``end_sessions`` running at the same time cannot miss it."""
        ...

    async def session(self, digest: str) -> StoredSession | None:
        """The live session under ``digest``, or None (unknown, expired or ended)."""
        ...

    async def end_session(self, digest: str) -> StoredSession | None:
        """End one session; the one it was, or None if there was none."""
        ...

    async def end_sessions(self, username: str) -> int:
        """End every session of an account; how many there were."""
        ...

    # Sign-in attempts -----------------------------------------------------------------------

    async def count_attempt(self, kind: AttemptKind, subject: str, window: int) -> tuple[int, int]:
        """Count an attempt in a fixed window of ``window`` seconds that starts with the
        first attempt: (attempts in the window, seconds until it ends). Atomic, so that a
        burst of parallel attempts counts each one."""
        ...

    async def take_back_attempt(self, kind: AttemptKind, subject: str) -> None:
        """Uncount one attempt (never below zero; the window keeps its end)."""
        ...

    async def clear_attempts(self, kind: AttemptKind, subject: str) -> None:
        """Forget the window's attempts: the next one starts a new window."""
        ...
