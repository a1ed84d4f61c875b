"""How often a sign-in may be tried: delays that grow per account and client, where a client
is an address (an IPv6 address by its /64: what one home, phone or venue holds, whose
addresses a client may vary at will), or a browser that signed in before, or a table screen.

A hard lock on an account lets anybody lock the staff out (five wrong passwords used to lock
an account for everyone, the right password included), and a hard lock on an address locks
out every phone behind a venue's NAT. So:

- Each (account, client) pair has ``FREE_FAILURES`` failures without delay; after the next
  ones each try waits 2, 4, 8... seconds, at most ``MAX_DELAY``. A success from that client
  forgets them; ``FAILURE_MEMORY`` seconds after the last failure they are forgotten anyway.
  The right password from another client is never delayed by a stranger's failures.
- A browser that signed in as the account before (its ``floor_known`` cookie: see
  ``accounts``) is its own client, whatever its address: a stranger's failures from the same
  address never delay it, nor does the address's spray below.
- Each address has ``MAX_FAILURES_PER_ADDRESS`` failures per ``ADDRESS_WINDOW`` across every
  account, far above what a venue's own typos make. Past that the address is taken for a
  sprayer, and until the window ends only browsers that signed in before may try from it.

Attempts are counted before the password is checked (and a success takes its count back), so
a burst of parallel guesses cannot slip past; an attempt that must wait is refused then,
before any hashing. The numbers and what they allow an attacker: docs/protocol.md,
"Sign-in limits".
"""

from __future__ import annotations

import ipaddress
import math
from typing import Final, NoReturn

import msgspec

from ..store.accounts_port import AccountStorage, AttemptRule
from .principal import TooManyAttempts
from .proxies import address as parse_address

#: Failures of one account from one address before the delays start.
FREE_FAILURES: Final = 5
#: The longest delay between two tries of one account from one address (seconds).
MAX_DELAY: Final = 300
#: Failures are forgotten this long after the last one (seconds).
FAILURE_MEMORY: Final = 3600
#: The window of the per-address limit (seconds) and the failures it allows.
ADDRESS_WINDOW: Final = 3600
MAX_FAILURES_PER_ADDRESS: Final = 100


def client_key(address: str) -> str:
    """What an address counts as: itself, an IPv6 address its /64 (an IPv4 address inside
    IPv6 its IPv4 address); anything else (``unknown``, a table screen's key) as given."""
    found = parse_address(address)
    if found is None:
        return address
    if found.version == 6:
        return str(ipaddress.ip_network((found, 64), strict=False))
    return str(found)


def growing_delays(free: int, cap: float) -> tuple[float, ...]:
    """The wait after each failure: none for the first ``free - 1``, then 2, 4, 8... up to
    ``cap`` (the last one repeats)."""
    out = [0.0] * max(0, free - 1)
    k = 1
    while 2**k < cap:
        out.append(float(2**k))
        k += 1
    out.append(float(cap))
    return tuple(out)


class SignInFailures(msgspec.Struct, frozen=True, kw_only=True):
    """An account's recent failed sign-ins, as the director's console shows them."""

    #: Failures kept, from every address.
    failures: int
    #: Seconds until the most delayed address may try again (0: none is delayed).
    retry_after: int


class SignInLimits:
    """The limits over an ``AccountStorage``'s attempt counters."""

    def __init__(
        self,
        storage: AccountStorage,
        *,
        free_failures: int = FREE_FAILURES,
        max_delay: float = MAX_DELAY,
        failure_memory: float = FAILURE_MEMORY,
        address_window: int = ADDRESS_WINDOW,
        max_failures_per_address: int = MAX_FAILURES_PER_ADDRESS,
    ) -> None:
        if failure_memory < max_delay:
            raise ValueError("failures must be remembered at least as long as the longest delay")
        self.storage = storage
        self.rule = AttemptRule(
            delays=growing_delays(free_failures, max_delay), memory=failure_memory
        )
        self.address_window = address_window
        self.max_failures_per_address = max_failures_per_address

    async def admit(
        self, username: str | None, address: str, now: float, known: str | None = None
    ) -> None:
        """Let an attempt through, counted as a failure until ``passed``; or raise
        ``TooManyAttempts`` with the seconds to wait (and nothing is counted).

        ``address`` is the client's ``client_key``; ``known`` the key of a browser that
        signed in as ``username`` before (its own client then, not the address).
        ``username`` is None for a name no account can have: only the address counts it.
        """
        n, left = await self.storage.count_address(address, self.address_window)
        if n > self.max_failures_per_address and (known is None or username is None):
            # A sprayer's address: nothing from it is hashed until the window ends, but for
            # the browsers that signed in before.
            await self._refuse(address, float(left))
        wait = 0.0
        if username is not None:
            client = address if known is None else known
            wait = await self.storage.reserve_attempt(username, client, now, self.rule)
        if wait > 0:
            await self._refuse(address, wait)

    async def _refuse(self, address: str, wait: float) -> NoReturn:
        # A refused attempt is not a failure: it checked no password.
        await self.storage.take_back_address(address)
        seconds = max(1, math.ceil(wait))
        raise TooManyAttempts(seconds, reason="signin_wait", params={"seconds": seconds})

    async def passed(self, username: str, address: str, known: str | None = None) -> None:
        """The attempt ``admit`` let through was right: it was no failure."""
        await self.storage.clear_attempt(username, address if known is None else known)
        await self.storage.take_back_address(address)

    async def clear(self, username: str) -> int:
        """Forget an account's failures from every address (the director's unlock); how many
        addresses had some."""
        return await self.storage.clear_attempts(username)

    async def failures(self, username: str, now: float) -> SignInFailures:
        kept = [
            a for a in await self.storage.attempts(username) if now - a.last <= self.rule.memory
        ]
        wait = max((a.next_at - now for a in kept), default=0.0)
        return SignInFailures(
            failures=sum(a.failures for a in kept), retry_after=max(0, math.ceil(wait))
        )
