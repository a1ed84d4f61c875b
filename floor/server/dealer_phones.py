"""A dealer's own phone: how it comes to know who it is.

A dealer's PIN is tried on a paired table screen alone (``tablets``), never on a phone: a PIN
a stranger could try from anywhere would be guessed. So the phone is given its dealer by the
table screen the dealer signed in on: the screen asks for a one-time code (``issue``, only
a dealer signed in there may), the dealer types it on their phone's ``/dealer`` page, and
the phone holds a session that reads that dealer's place in the rotation and nothing else
(role ``dealer_phone``), ended with the dealer's other sessions (a new PIN ends it).

The code is the table screens' kind (nine digits, three naming it, six secret; a few wrong
tries void it), kept in the same storage under a digest of its own, so a phone's code never
pairs a table and a table's never signs a phone in.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Callable
from typing import Final

import msgspec

from ..store.devices_port import DeviceStorage, PairingCode
from ..store.errors import Unavailable
from .accounts import Accounts, Session
from .principal import BadCredentials, Forbidden, Principal

#: Seconds a phone's code stays good: time to take the phone out.
CODE_TTL: Final = 300
CODE_TRIES: Final = 5
#: A phone's session lasts a shift (the accounts' session lifetime caps it too).
PHONE_TTL: Final = 14 * 3600
_SLOT: Final = 3
_SECRET: Final = 6
_PREFIX: Final = "dealer-phone:"


class PhoneCode(msgspec.Struct, frozen=True, kw_only=True):
    code: str
    expires_at: float
    tries: int


def _digest(code: str) -> str:
    return hashlib.sha256((_PREFIX + code).encode()).hexdigest()


class DealerPhones:
    def __init__(
        self,
        accounts: Accounts,
        storage: DeviceStorage,
        *,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.accounts = accounts
        self.storage = storage
        self.clock = clock

    async def issue(self, screen: Principal) -> PhoneCode:
        """A code for the phone of the dealer signed in on the table screen ``screen``."""
        if screen.role != "dealer" or screen.device is None or screen.username is None:
            raise Forbidden(
                "a dealer gets their phone's code at the table screen they signed in on"
            )
        now = self.clock()
        for _ in range(50):
            slot = f"{secrets.randbelow(10**_SLOT):0{_SLOT}d}"
            code = slot + f"{secrets.randbelow(10**_SECRET):0{_SECRET}d}"
            kept = PairingCode(
                slot=slot,
                digest=_digest(code),
                tournament=screen.tournament or "",
                table=screen.table or 0,
                issued_by=screen.username,
                expires_at=now + CODE_TTL,
            )
            if await self.storage.add_code(kept, CODE_TRIES, CODE_TTL):
                return PhoneCode(code=code, expires_at=kept.expires_at, tries=CODE_TRIES)
        raise Unavailable("too many codes are waiting: try again in a few minutes")

    async def redeem(self, code: str, client: str) -> Session:
        """The phone's session for a good code (once), or ``BadCredentials``."""
        typed = "".join(c for c in code if not c.isspace() and c != "-")
        if len(typed) != _SLOT + _SECRET or not typed.isdigit() or not typed.isascii():
            raise BadCredentials()
        found = await self.storage.try_code(typed[:_SLOT], _digest(typed))
        if found is None or found.expires_at <= self.clock():
            raise BadCredentials()
        return await self.accounts.open_dealer_phone(found.issued_by, client, PHONE_TTL)
