"""The ids a client names: a tournament's and a command's. Checked before any storage sees
them, since a storage builds its keys from them."""

from __future__ import annotations

import re

from ..engine.errors import RuleError

_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,39}")
_COMMAND_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:-]{0,79}")


class BadId(RuleError):
    code = "bad_id"


def check_tournament_id(tid: str) -> str:
    if not _ID.fullmatch(tid):
        raise BadId(
            "a tournament id is 1-40 letters, digits, '-' or '_', starting with a letter or digit",
            field="tournament",
        )
    return tid


def check_command_id(cid: str) -> str:
    if not _COMMAND_ID.fullmatch(cid):
        raise BadId(
            "a command id is 1-80 letters, digits, '.', ':', '-' or '_'", field="command_id"
        )
    return cid
