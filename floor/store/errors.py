"""What the command service raises that is not a rule: storage failures, with a code each.

The edges answer each with the HTTP status of its code (``floor/server/edges.py``).
"""

from __future__ import annotations

from ..engine.errors import FloorError


class StoreError(FloorError):
    """A storage failure (not a rule): the edges answer 4xx/5xx with its message."""

    code = "store"


class Unavailable(StoreError):
    """The storage cannot be reached or answered with an error; nothing was changed, or the
    command was written whole (a retry with the same command id tells which)."""

    code = "unavailable"


class NotFound(StoreError):
    code = "not_found"


class AlreadyExists(StoreError):
    code = "already_exists"


class IdReused(StoreError):
    """A command id already answered a different command: the new one was not applied."""

    code = "id_reused"


class Busy(StoreError):
    """Other writers kept winning the race; the command was not applied."""

    code = "busy"
