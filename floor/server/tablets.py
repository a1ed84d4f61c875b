"""Table screens: a tablet paired with one table of one tournament, and the dealer signed in
on it.

Pairing needs no account. The floor (or the director) asks for a code for a table of a
tournament; the tablet types it once and becomes a device of that table (a principal of its
own, role ``table``), holding a token (``accounts.TABLET_PREFIX``) as a sign-in holds one,
in the same cookie. It sees the public view and its own table's part of the staff's
(``redact``), may send what a table screen sends, for its own table only (``permissions``),
and lives ``FLOOR_TABLET_TTL`` seconds (a day) from pairing, whatever it does. The director
lists the paired screens, ends one (its sockets close at once, on every process, as a
sign-out's do) or moves one to another table, of any tournament, without pairing it again.

A code is nine digits: the first three name it (its slot among the codes waiting), the six
others are its secret. A wrong code spends one of the named code's ``PAIRING_TRIES``; after
the last the code is void and the floor asks for another. Nothing is counted against the
address that typed it: behind a venue's NAT one phone typing wrong codes stops no other
tablet's pairing. A guesser has ``PAIRING_TRIES`` tries in a million per code issued.

A dealer signs in on a paired screen alone (``Accounts.sign_in_at_table``): their PIN has
nothing to be tried against anywhere else. The dealer is bound to the screen's table and
tournament; a new dealer's sign-in ends the last one's there, and moving or ending the
screen ends it too.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import time
from collections.abc import Callable
from typing import Final

import msgspec

from ..engine.errors import NotAllowed, refused
from ..store.devices_port import Device, DeviceStorage, HeldDevice, PairingCode
from ..store.errors import Unavailable
from .accounts import TABLET_PREFIX, Accounts, Session, device_key, token_hash
from .principal import BadCredentials, NoSuchAccount, Principal, SignedOut

#: Seconds a pairing code stays good: long enough to walk to the table.
PAIRING_TTL: Final = 600
#: Wrong tries a code takes before it is void.
PAIRING_TRIES: Final = 5
#: A table screen lives this long from pairing unless told (``FLOOR_TABLET_TTL``).
TABLET_TTL: Final = 24 * 3600
_SLOT: Final = 3
_SECRET: Final = 6
_DIGITS: Final = _SLOT + _SECRET
_PREFIX: Final = "table-pairing:"
#: A table's number: the same bounds as a command's.
MAX_TABLE: Final = 100_000
_DEVICE_ID: Final = re.compile(r"[0-9a-f]{12}")


class IssuedCode(msgspec.Struct, frozen=True, kw_only=True):
    """A code for the floor to read out: ``code`` is the digits to type."""

    code: str
    tournament: str
    table: int
    expires_at: float
    #: Wrong tries it takes before it is void.
    tries: int


class Tablet(msgspec.Struct, frozen=True, kw_only=True):
    """A paired table screen as the director's console lists it."""

    id: str
    tournament: str
    table: int
    paired_at: float
    expires_at: float
    paired_by: str
    #: When a process last heard from it (a request, a socket opened or a command).
    last_seen: float | None
    #: The dealer signed in on it now.
    dealer: str | None


def _digest(code: str) -> str:
    return hashlib.sha256((_PREFIX + code).encode()).hexdigest()


def _normal(code: str) -> str:
    return "".join(c for c in code if not c.isspace() and c != "-")


def check_table(table: int) -> int:
    if not 1 <= table <= MAX_TABLE:
        raise NotAllowed(f"a table is 1 to {MAX_TABLE}", field="table")
    return table


class Tablets:
    """The paired table screens, over a ``DeviceStorage`` (the one ``accounts`` reads
    their tokens from)."""

    def __init__(
        self,
        accounts: Accounts,
        storage: DeviceStorage,
        *,
        ttl: int = TABLET_TTL,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.accounts = accounts
        self.storage = storage
        self.ttl = ttl
        self.clock = clock

    # Pairing ----------------------------------------------------------------------------------

    async def issue(self, tournament: str, table: int, issuer: str) -> IssuedCode:
        """A code that pairs a screen with ``table`` of ``tournament`` (which the caller has
        found to exist)."""
        check_table(table)
        now = self.clock()
        for _ in range(50):
            slot = f"{secrets.randbelow(10**_SLOT):0{_SLOT}d}"
            code = slot + f"{secrets.randbelow(10**_SECRET):0{_SECRET}d}"
            kept = PairingCode(
                slot=slot,
                digest=_digest(code),
                tournament=tournament,
                table=table,
                issued_by=issuer[:64],
                expires_at=now + PAIRING_TTL,
            )
            if await self.storage.add_code(kept, PAIRING_TRIES, PAIRING_TTL):
                return IssuedCode(
                    code=code,
                    tournament=tournament,
                    table=table,
                    expires_at=kept.expires_at,
                    tries=PAIRING_TRIES,
                )
        raise Unavailable("too many pairing codes are waiting: try again in a few minutes")

    async def redeem(self, code: str, client: str) -> Session:
        """The screen a good code pairs (once), or ``BadCredentials``: a wrong code spends a
        try of the code its first digits name."""
        typed = _normal(code)
        if len(typed) != _DIGITS or not typed.isdigit() or not typed.isascii():
            raise BadCredentials()
        found = await self.storage.try_code(typed[:_SLOT], _digest(typed))
        now = self.clock()
        if found is None or found.expires_at <= now:
            raise BadCredentials()
        token = TABLET_PREFIX + secrets.token_urlsafe(32)
        device = Device(
            id=secrets.token_hex(6),
            tournament=found.tournament,
            table=found.table,
            paired_at=now,
            expires_at=now + self.ttl,
            paired_by=found.issued_by,
            client=client[:64],
            token=token_hash(token),
        )
        await self.storage.add_device(device, self.ttl)
        await self.storage.seen(device.id, now)
        principal = Principal(
            username=None,
            role="table",
            table=device.table,
            tournament=device.tournament,
            device=device.id,
        )
        return Session(token=token, principal=principal, expires_at=device.expires_at)

    # The dealer on a screen -------------------------------------------------------------------

    async def sign_in_dealer(self, screen: Principal, username: str, secret: str) -> Principal:
        """``username`` signs in on the table screen ``screen`` with their PIN or password;
        whoever was signed in there is signed out."""
        held = await self._held(screen)
        stored, digest = await self.accounts.sign_in_at_table(held.device, username, secret)
        try:
            device = await self._change(
                held.device.id, dealer=stored.username, dealer_session=digest
            )
        except BaseException:
            await self.accounts.storage.end_session(digest)
            raise
        return Principal(
            username=stored.username,
            role="dealer",
            table=device.table,
            tournament=device.tournament,
            device=device.id,
        )

    async def sign_out_dealer(self, screen: Principal) -> Principal:
        """The dealer signed in on ``screen`` signs out; the screen stays paired."""
        held = await self._held(screen)
        device = await self._change(held.device.id, dealer=None, dealer_session=None)
        return Principal(
            username=None,
            role="table",
            table=device.table,
            tournament=device.tournament,
            device=device.id,
        )

    async def _held(self, screen: Principal) -> HeldDevice:
        held = None if screen.device is None else await self.storage.device(screen.device)
        if held is None:
            raise SignedOut("this is no paired table screen: pair it with a code from the floor")
        return held

    # The director's list ---------------------------------------------------------------------

    async def list(self) -> list[Tablet]:
        devices = sorted(await self.storage.devices(), key=lambda d: (d.tournament, d.table))
        seen = await self.storage.last_seen([d.id for d in devices])
        return [_listed(d, s) for d, s in zip(devices, seen, strict=True)]

    async def move(self, device_id: str, tournament: str, table: int) -> Tablet:
        """The screen now belongs to ``table`` of ``tournament`` (found to exist by the
        caller); the dealer signed in on it is signed out."""
        check_table(table)
        device = await self._change(
            device_id, tournament=tournament, table=table, dealer=None, dealer_session=None
        )
        [seen] = await self.storage.last_seen([device.id])
        return _listed(device, seen)

    async def revoke(self, device_id: str) -> None:
        """End a screen: its token signs nothing in, its sockets close, on every process."""
        device = await self.storage.remove_device(_checked(device_id))
        if device is None:
            raise _no_such(device_id)
        await self._ended(device, None)

    async def unpair(self, token: str) -> None:
        """The screen holding ``token`` signs itself out (``POST /api/signout``)."""
        held = await self.storage.device_by_token(token_hash(token))
        if held is not None and await self.storage.remove_device(held.device.id) is not None:
            await self._ended(held.device, None)

    async def _change(self, device_id: str, **changes: object) -> Device:
        """The device with ``changes`` written (compare-and-swap); whoever was signed in on
        it before and is no longer is signed out, and its sockets check again."""
        for _ in range(5):
            held = await self.storage.device(_checked(device_id))
            if held is None:
                raise _no_such(device_id)
            new = msgspec.structs.replace(held.device, **changes)
            if await self.storage.replace_device(held.revision, new) is not None:
                await self._ended(held.device, new)
                return new
        raise Unavailable(f"table screen {device_id} is changing too fast: try again")

    async def _ended(self, old: Device, new: Device | None) -> None:
        if old.dealer_session is not None and (
            new is None or new.dealer_session != old.dealer_session
        ):
            await self.accounts.storage.end_session(old.dealer_session)
        # Every process forgets what it cached of the screen, and its sockets check again:
        # closed when it is gone or moved, the dealer's name changed in place otherwise.
        await self.accounts.sessions.announce(device_key(old.id))


def _checked(device_id: str) -> str:
    if not _DEVICE_ID.fullmatch(device_id):
        raise _no_such(device_id[:40])
    return device_id


def _no_such(device_id: str) -> NoSuchAccount:
    return refused(NoSuchAccount, "no_such_tablet", {"device": device_id}, field="device")


def _listed(device: Device, seen: float | None) -> Tablet:
    return Tablet(
        id=device.id,
        tournament=device.tournament,
        table=device.table,
        paired_at=device.paired_at,
        expires_at=device.expires_at,
        paired_by=device.paired_by,
        last_seen=seen,
        dealer=device.dealer,
    )
