"""Who sends a request, and the refusals about who asks (not about the tournament).

Roles::

    director   everything, and the staff accounts
    floor      bust-outs (one or several in a hand) and their undoing, hands and buttons,
               moves, time calls, seats, registrations and re-entries, rebuys and add-ons,
               stacks and chip races
    dealer     signed in on a paired table screen (never elsewhere): what the screen may do
    coordinator  the dealer room: its dealers, their rotation and downs (``routes_dealers``);
               nothing of a tournament's but what the public sees
    desk       the front desk and the cashier (``routes_desk``): players registered with their
               buy-in, shifts and their takings, payouts; no tournament command bare (its
               registrations pass the exclusion check first), and what the public sees
    dealer_phone  a dealer's own phone, signed in with a one-time code from the table screen
               they signed in on: their own place in the rotation, nothing else
    table      a paired table screen (``floor.server.tablets``), a device of one table of one
               tournament: the next hand, the button, a bust-out there, and nothing else
    public     (not signed in) read-only: what a player may see

``floor.server.accounts`` signs principals in, ``floor.server.permissions`` decides what each
may send; both raise the errors below, and the edges answer each code with its status
(``floor.server.edges.STATUS``).
"""

from __future__ import annotations

from typing import Final, Literal

import msgspec

from ..engine.errors import FloorError, Params, Reason
from ..store.accounts_port import ROLES, Role

__all__ = [
    "PUBLIC",
    "ROLES",
    "AccountExists",
    "AuthError",
    "BadAccount",
    "BadCredentials",
    "Forbidden",
    "NoSuchAccount",
    "Principal",
    "PrincipalRole",
    "Role",
    "SignedOut",
    "TooManyAttempts",
]


#: Who may ask: a staff account's role, a table screen's device, or the public.
PrincipalRole = Role | Literal["table", "public", "dealer_phone"]


class Principal(msgspec.Struct, frozen=True, kw_only=True):
    """Who sends a request: a staff member, a table screen, or the public.

    A table screen (role ``table``) and a dealer signed in on one (role ``dealer``) are
    bound to one table of one tournament: ``tournament`` and ``table`` say which, ``device``
    names the screen. Every other principal has none of the three.
    """

    username: str | None
    role: PrincipalRole
    #: The table of a table screen (and of the dealer signed in on it).
    table: int | None
    tournament: str | None = None
    device: str | None = None

    @property
    def at_table(self) -> bool:
        """A table screen, or a dealer on one: bound to ``tournament`` and ``table``."""
        return self.device is not None and self.role in ("table", "dealer")


PUBLIC: Final = Principal(username=None, role="public", table=None)


class AuthError(FloorError):
    """A refusal about who asks, not about the tournament."""

    code = "auth"


class BadCredentials(AuthError):
    code = "bad_credentials"

    def __init__(self) -> None:
        # One message whether the account exists or not: sign-in reveals no usernames.
        super().__init__("wrong username, or wrong password or PIN")


class SignedOut(AuthError):
    """A token that names no session (unknown, expired or signed out): sign in again."""

    code = "signed_out"


class TooManyAttempts(AuthError):
    code = "too_many_attempts"

    def __init__(
        self, retry_after: int, *, reason: Reason | None = None, params: Params | None = None
    ) -> None:
        super().__init__(
            f"too many failed sign-ins: try again in {retry_after} seconds",
            reason=reason,
            params=params,
        )
        #: Seconds until the next try is let through (the HTTP ``Retry-After``).
        self.retry_after = retry_after


class Forbidden(AuthError):
    code = "forbidden"


class AccountExists(AuthError):
    code = "account_exists"


class NoSuchAccount(AuthError):
    code = "no_such_account"


class BadAccount(AuthError):
    """An account that cannot be made as asked: ``field`` names the part."""

    code = "bad_account"
