"""Waiving a table's halt (FLOOR-RULES 6): the director lets a short table deal on.

``decide`` refuses a waive command by ``waive_bar`` and the import validator an event by the
same check, so both say the same thing of a halt already waived or never waived.
"""

from __future__ import annotations

from .errors import NotAllowed, refused
from .state import Table


def waive_bar(table: Table, waived: bool) -> NotAllowed | None:
    """Why ``table``'s halt cannot be set to ``waived``: it already is so; else None."""
    if table.halt_waived != waived:
        return None
    if waived:
        return refused(NotAllowed, "halt_already_waived", {"table": table.number}, field="waived")
    return refused(NotAllowed, "halt_not_waived", {"table": table.number}, field="waived")
