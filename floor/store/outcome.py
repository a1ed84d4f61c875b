"""What a command did, as the service answers it and as a log keeps it for retries."""

from __future__ import annotations

import hashlib
from typing import Any

import msgspec

from ..engine.commands import Command
from ..engine.errors import FloorError


class ErrorInfo(msgspec.Struct, frozen=True, kw_only=True):
    code: str
    message: str
    field: str | None = None
    #: Which refusal it is (a key of ``floor.engine.errors.PARAMS``, else the kind ``code``)
    #: and the values it names: the screens say it in their language from these. None in an
    #: outcome kept before reasons were.
    reason: str | None = None
    params: dict[str, Any] = msgspec.field(default_factory=dict)


class Outcome(msgspec.Struct, frozen=True, kw_only=True):
    """What a command did: the sequence numbers of its events, or why it was refused.

    Kept under the command id, so a retry is answered with this same outcome.
    """

    ok: bool
    #: Sequence numbers of the command's events, ``first..last`` (none when last < first).
    first: int = 0
    last: int = 0
    error: ErrorInfo | None = None
    #: True when this answers a retry of a command already decided.
    duplicate: bool = False

    @property
    def events(self) -> int:
        return max(0, self.last - self.first + 1)


class Kept(Outcome, frozen=True, kw_only=True):
    """An outcome as kept under its command id, with a digest of the command it answered:
    a client that reuses an id for another command is told so, not handed the first
    answer as if its command had been applied. (Kept results without one still match.)"""

    digest: str = ""


def command_digest(command: Command) -> str:
    return hashlib.sha256(msgspec.json.encode(command)).hexdigest()[:24]


def error_info(e: FloorError) -> ErrorInfo:
    code = getattr(e, "code", "refused")
    return ErrorInfo(code=code, message=e.message, field=e.field, reason=e.reason, params=e.params)
