"""The ports behind staff accounts, sessions, the sign-in attempt counters, and the news
that an account's sessions ended.

The account logic (``floor.server.accounts``) decides; an implementation of ``AccountStorage``
keeps: ``floor.redisdb.accounts`` on Redis/Valkey, ``floor.store.memory_accounts`` in memory
for fast tests. Everything here is plain data: the secret arrives already hashed, a session
under the SHA-256 of its token, so no storage ever holds what would sign anybody in.

``SignOutFeed`` carries "the sessions of this account ended" to every server process, so that
each closes the account's open websockets and forgets its cached sessions at once
(``floor.redisdb.signouts`` on Redis, ``floor.store.memory_accounts`` in memory).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Final, Literal, NamedTuple, Protocol

import msgspec

from .ports import Resubscribed

Role = Literal["director", "floor", "dealer", "coordinator", "desk"]
ROLES: Final[tuple[Role, ...]] = ("director", "floor", "dealer", "coordinator", "desk")

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
    #: The table screen a dealer signed in on (``floor.server.tablets``): the session holds
    #: only there, no client holds its token, and it ends with the account's other sessions.
    device: str | None = None
    #: A dealer's own phone, signed in with a one-time code from a table screen their PIN
    #: opened (``floor.server.dealer_phones``): it reads the dealer's rotation, nothing else.
    phone: bool = False


class AttemptRule(msgspec.Struct, frozen=True, kw_only=True):
    """How ``reserve_attempt`` spaces out the failures of one account from one address.

    After the n-th failure the next attempt waits ``delays[n - 1]`` seconds (the last one
    for every n past the end). Failures are forgotten ``memory`` seconds after the last one
    (at least the longest delay). With ``limit`` set, an address that has failed that many
    times is refused outright for ``refuse_for`` seconds, whatever the delays say.
    """

    delays: tuple[float, ...]
    memory: float
    limit: int | None = None
    refuse_for: float = 0.0


class PairAttempts(msgspec.Struct, frozen=True, kw_only=True):
    """The failed sign-ins of one account from one address, as kept."""

    address: str
    failures: int
    #: When the last one was made (wall-clock seconds).
    last: float
    #: The earliest time the next attempt is let through.
    next_at: float


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

    async def end_sessions(self, username: str, keep: str | None = None) -> int:
        """End every session of an account but the one under ``keep``; how many ended."""
        ...

    # Sign-in attempts -----------------------------------------------------------------------

    async def count_address(self, address: str, window: int) -> tuple[int, int]:
        """Count an attempt from ``address`` in a fixed window of ``window`` seconds that
        starts with the first attempt: (attempts in the window, seconds until it ends).
        Atomic, so that a burst of parallel attempts counts each one."""
        ...

    async def take_back_address(self, address: str) -> None:
        """Uncount one attempt (never below zero; the window keeps its end)."""
        ...

    async def clear_address(self, address: str) -> None:
        """Forget the window's attempts: the next one starts a new window."""
        ...

    async def reserve_attempt(
        self, username: str, address: str, now: float, rule: AttemptRule
    ) -> float:
        """In one atomic step: the seconds ``address`` must still wait before trying
        ``username`` again (and nothing changes), or 0.0, and then the attempt is counted as
        a failure (its delay starts) until ``clear_attempt`` takes it back. Counting first is
        what keeps a burst of parallel guesses from slipping past the delays."""
        ...

    async def clear_attempt(self, username: str, address: str) -> None:
        """Forget the failures of ``username`` from ``address`` (a sign-in that worked)."""
        ...

    async def clear_attempts(self, username: str) -> int:
        """Forget the failures of ``username`` from every address; how many addresses."""
        ...

    async def attempts(self, username: str) -> list[PairAttempts]:
        """The failures kept for ``username``, by address, in no particular order (also
        some older than the rule's memory: the caller tells)."""
        ...

    # Devices that signed in before ---------------------------------------------------------

    async def remember_device(
        self, username: str, device: str, now: float, until: float, most: int
    ) -> None:
        """Remember until ``until`` that the browser whose cookie has the digest ``device``
        signed in as ``username``; at most ``most`` per account (the first forgotten go
        first; those forgotten by ``now`` go)."""
        ...

    async def known_device(self, username: str, device: str, now: float) -> bool:
        """Whether that browser signed in as ``username`` and is still remembered at ``now``."""
        ...

    async def forget_devices(self, username: str) -> None:
        """Forget every browser that signed in as ``username`` (the account removed)."""
        ...


class SignOutFeed(Protocol):
    """Every process told, at once, that sessions of an account ended."""

    async def announce(self, username: str) -> None:
        """Tell every process (this one too) that sessions of ``username`` ended: a
        sign-out, a new secret, the account removed."""
        ...

    def announcements(self) -> AsyncIterator[str | Resubscribed]:
        """The usernames announced from now on, by any process, for as long as the
        iteration runs. A lost connection is retried inside, then told by ``Resubscribed``:
        announcements may have been missed, so every session is to be checked again."""
        ...
