"""The port behind table screens: the devices paired with one table of one tournament, and
the short codes that pair them.

The logic (``floor.server.tablets``) decides; an implementation keeps: ``floor.redisdb.devices``
on Redis/Valkey, ``floor.store.memory_devices`` in memory for fast tests. Plain data only: a
device's token and a code's secret digits arrive as their SHA-256, so the storage holds
nothing that would pair or sign in a device.
"""

from __future__ import annotations

from typing import NamedTuple, Protocol

import msgspec


class Device(msgspec.Struct, frozen=True, kw_only=True):
    """A paired table screen, as kept (``token`` is the digest of its token, never shown)."""

    id: str
    tournament: str
    table: int
    paired_at: float
    #: The device is forgotten then, whatever it does (``FLOOR_TABLET_TTL`` after pairing).
    expires_at: float
    #: The staff member who asked for the code, and the address that typed it.
    paired_by: str
    client: str
    token: str
    #: The dealer signed in on it, and the digest their session is kept under (a session
    #: no client holds a token of: it ends with the account's other sessions).
    dealer: str | None = None
    dealer_session: str | None = None


class PairingCode(msgspec.Struct, frozen=True, kw_only=True):
    """A code waiting to be typed on a table screen. ``slot`` is the part of the code that
    names it; ``digest`` the SHA-256 of the whole code."""

    slot: str
    digest: str
    tournament: str
    table: int
    issued_by: str
    expires_at: float


class HeldDevice(NamedTuple):
    """A device as read, with the revision ``replace_device`` compares against (opaque:
    equal for equal reads, new after any write)."""

    device: Device
    revision: bytes


class DeviceStorage(Protocol):
    """Paired devices and pairing codes. A failing backend raises ``Unavailable``; each
    method is one atomic step."""

    # Pairing codes --------------------------------------------------------------------------

    async def add_code(self, code: PairingCode, tries: int, ttl: int) -> bool:
        """Keep a code for ``ttl`` seconds with ``tries`` wrong tries; False (nothing
        kept) if a live code already holds its slot."""
        ...

    async def try_code(self, slot: str, digest: str) -> PairingCode | None:
        """In one step: the code in ``slot`` if its digest is ``digest``, and then it is
        gone (a code pairs once); else None, and the code in the slot (if any) has one wrong
        try less, and is gone after its last."""
        ...

    async def code_tries(self, slot: str) -> int | None:
        """The wrong tries left to the code in ``slot`` (None: no live code there)."""
        ...

    # Devices ----------------------------------------------------------------------------------

    async def add_device(self, device: Device, ttl: int) -> None:
        """Keep a device for ``ttl`` seconds, found by its id and by its token's digest."""
        ...

    async def device(self, device_id: str) -> HeldDevice | None: ...

    async def device_by_token(self, token: str) -> HeldDevice | None:
        """The device whose token has the digest ``token``, or None."""
        ...

    async def replace_device(self, revision: bytes, device: Device) -> bytes | None:
        """Replace ``device.id``'s record if it is still at ``revision``: its new revision,
        or None (nothing written) if it changed or went meanwhile. Its expiry stays."""
        ...

    async def remove_device(self, device_id: str) -> Device | None:
        """Forget a device (its token no longer signs anything in): the one it was."""
        ...

    async def devices(self) -> list[Device]:
        """Every live device, in no particular order."""
        ...

    async def seen(self, device_id: str, when: float) -> None:
        """The device was heard from at ``when``."""
        ...

    async def last_seen(self, device_ids: list[str]) -> list[float | None]:
        """When each device was last heard from (None: never since pairing)."""
        ...
