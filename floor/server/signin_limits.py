"""How often a sign-in may be tried: delays that grow per account and client address.

A hard lock on an account lets anybody lock the staff out (five wrong passwords used to lock
an account for everyone, the right password included), and a hard lock on an address locks
out every phone behind a venue's NAT. So:

- Each (account, address) pair has ``FREE_FAILURES`` failures without delay; after the next
  ones each try waits 2, 4, 8... seconds, at most ``MAX_DELAY``. A success from that address
  forgets them; ``FAILURE_MEMORY`` seconds after the last failure they are forgotten anyway.
  The right password from another address is never delayed by a stranger's failures.
- Each address has ``MAX_FAILURES_PER_ADDRESS`` failures per ``ADDRESS_WINDOW`` across every
  account, far above what a venue's own typos make. Past that, the address is taken for a
  sprayer: an account that already failed from it waits for the window to end, while one
  that has not (a staff member on the same wifi, signing in for the first time) still gets
  its try.

Attempts are counted before the password is checked (and a success takes its count back), so
a burst of parallel guesses cannot slip past. The numbers and what they allow an attacker:
docs/protocol.md, "Sign-in limits".
"""

from __future__ import annotations

import math
from typing import Final

import msgspec

from ..store.accounts_port import AccountStorage, AttemptRule
from .principal import TooManyAttempts

#: Failures of one account from one address before the delays start.
FREE_FAILURES: Final = 5
#: The longest delay between two tries of one account from one address (seconds).
MAX_DELAY: Final = 300
#: Failures are forgotten this long after the last one (seconds).
FAILURE_MEMORY: Final = 3600
#: The window of the per-address limit (seconds) and the failures it allows.
ADDRESS_WINDOW: Final = 3600
MAX_FAILURES_PER_ADDRESS: Final = 100


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

    async def admit(self, username: str | None, address: str, now: float) -> None:
        """Let an attempt through, counted as a failure until ``passed``; or raise
        ``TooManyAttempts`` with the seconds to wait (and nothing is counted).

        ``username`` is None for a name no account can have: only the address counts it.
        """
        n, left = await self.storage.count_address(address, self.address_window)
        rule = self.rule
        if n > self.max_failures_per_address:
            rule = msgspec.structs.replace(rule, limit=1, refuse_for=float(left))
        if username is None:
            wait = float(left) if rule.limit is not None else 0.0
        else:
            wait = await self.storage.reserve_attempt(username, address, now, rule)
        if wait > 0:
            # A refused attempt is not a failure: it checked no password.
            await self.storage.take_back_address(address)
            seconds = max(1, math.ceil(wait))
            raise TooManyAttempts(seconds, reason="signin_wait", params={"seconds": seconds})

    async def passed(self, username: str, address: str) -> None:
        """The attempt ``admit`` let through was right: it was no failure."""
        await self.storage.clear_attempt(username, address)
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
