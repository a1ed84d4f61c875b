"""The port behind notifications: the Web Push subscriptions of players and staff, the
floorpersons' sections, and the server's VAPID key.

Kept apart from every tournament's event log (a subscription is a phone's address, not
something that happened in the tournament): ``floor.redisdb.push`` on Redis/Valkey,
``floor.store.memory_push`` in memory for fast tests; ``tests/integration/test_push_storage.py``
holds both to this contract. Plain data only: the logic (``floor.server.push_notify``) decides.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import msgspec

#: The most subscriptions one player or one staff member holds (their phones and tablets).
MOST_PER_OWNER = 5


class PushKeys(msgspec.Struct, frozen=True):
    """A subscription's keys, as the browser gives them (base64url): the user agent's P-256
    public key and its 16-byte authentication secret (RFC 8291)."""

    p256dh: str
    auth: str


class Subscription(msgspec.Struct, frozen=True, kw_only=True):
    """Where one browser is woken: the push service's ``endpoint`` (a capability URL only
    the browser and we know), its keys, and the language its texts are shown in."""

    endpoint: str
    keys: PushKeys
    lang: str = "en"
    created_at: float = 0.0


class Owner(msgspec.Struct, frozen=True):
    """Whose a subscription is: a player of a tournament (``tournament`` and ``player``), or
    a staff member (``staff``, the username)."""

    tournament: str | None = None
    player: str | None = None
    staff: str | None = None


class PushStorage(Protocol):
    """Subscriptions, sections and the VAPID key. A failing backend raises ``Unavailable``;
    each method is one atomic step."""

    async def subscribe(self, owner: Owner, sub: Subscription, most: int) -> int | None:
        """Keep ``sub`` for ``owner`` (one with the same endpoint is replaced): how many the
        owner holds now, or None (nothing kept) when they hold ``most`` others already."""
        ...

    async def unsubscribe(self, owner: Owner, endpoint: str) -> bool:
        """Forget ``owner``'s subscription at ``endpoint``; False if there was none."""
        ...

    async def of_players(
        self, tournament: str, players: Sequence[str]
    ) -> dict[str, list[Subscription]]:
        """The subscriptions of each of ``players`` that holds any (one read for all)."""
        ...

    async def raw_of_players(self, tournament: str, players: Sequence[str]) -> dict[str, bytes]:
        """``of_players`` as kept: each a JSON list, for the sending process to decode (a
        bubble's 5,000 lists are not decoded on the event loop)."""
        ...

    async def of_staff(self, usernames: Sequence[str]) -> dict[str, list[Subscription]]:
        """The subscriptions of each staff member of ``usernames`` that holds any."""
        ...

    async def staff_subscribed(self) -> list[str]:
        """Every staff member holding a subscription."""
        ...

    async def sections(self, tournament: str) -> dict[str, list[int]]:
        """Each floorperson's section of ``tournament``: username -> the tables in it."""
        ...

    async def set_section(self, tournament: str, username: str, tables: Sequence[int]) -> None:
        """Set ``username``'s section (no tables: none)."""
        ...

    async def vapid_key(self, candidate: bytes) -> bytes:
        """The server's VAPID private key (PEM): the one kept, or ``candidate`` kept now if
        there was none (every process signs with the same key)."""
        ...
