"""Why a rule refuses: a reason of ``errors.PARAMS`` and its parameters, as data.

A check the screens show the outcome of (a sale window, a limit, an undo, room to break,
a redirect, the final table's start) returns None when the rule allows it, else a ``Why``.
``decide`` raises the refusal the check's module builds from it (the English message, the
error's kind and field); the derived facts send the ``Why`` itself, which each language
renders. One check, asked by both.
"""

from __future__ import annotations

import msgspec

from .errors import Reason

#: A parameter of a reason (``errors.Param``, in a form msgspec can also decode).
Param = str | int | float | bool | None | list[int | str]


class Why(msgspec.Struct, frozen=True):
    """A reason and its parameters (a window's reasons leave out the player: the screen adds
    whom it shows, ``decide`` whom it refuses)."""

    reason: Reason
    params: dict[str, Param] = msgspec.field(default_factory=dict)

    def number(self, name: str) -> int:
        """The parameter ``name``, an integer (a level, a count, chips)."""
        value = self.params[name]
        assert isinstance(value, int), (self.reason, name, value)
        return value

    def text(self, name: str) -> str:
        """The parameter ``name``, a string (a player id, a status)."""
        value = self.params[name]
        assert isinstance(value, str), (self.reason, name, value)
        return value
