"""Domain errors: what the rules refuse, with the reason a person can read.

Tree::

    FloorError
    ├── ConfigError          a rule set, structure or scenario that cannot be used
    └── RuleError            a command the rules refuse; the state is unchanged
        ├── UnknownPlayer
        ├── UnknownTable
        ├── BadSeat          a seat that does not exist or is not free
        ├── NotAllowed       the command does not fit the tournament as it stands
        ├── BadValue         a value no screen can use (a blank name, a bad player id)
        └── NoPlannedMove

Each carries ``field`` (the part of the request it is about, when there is one) so that
the edges can name it: HTTP 4xx bodies, websocket replies, ``floor scenario`` on stderr.
"""

from __future__ import annotations


class FloorError(Exception):
    """Base of every error the engine raises on purpose."""

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field

    def __str__(self) -> str:
        return f"{self.field}: {self.message}" if self.field else self.message


class ConfigError(FloorError):
    """A configuration (rule set, structure, scenario) that cannot be used."""


class RuleError(FloorError):
    """A command the rules refuse. Raised before anything changes."""

    #: A short machine-readable name for clients (``unknown_player``, ``seat_taken``...).
    code = "refused"


class UnknownPlayer(RuleError):
    code = "unknown_player"


class UnknownTable(RuleError):
    code = "unknown_table"


class BadSeat(RuleError):
    code = "bad_seat"


class NotAllowed(RuleError):
    code = "not_allowed"


class BadValue(RuleError):
    code = "invalid"


class NoPlannedMove(RuleError):
    code = "no_planned_move"
