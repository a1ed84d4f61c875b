"""When the director may start the final table early, and the seats it then has (FLOOR-RULES 6).

``start_bar`` returns None when the final table may be started now, else a ``Why``; ``decide``
raises ``refusal(why)`` and the derived facts show the ``Why``.
"""

from __future__ import annotations

from .errors import NotAllowed, refused
from .state import Tournament
from .why import Why


def seats(t: Tournament) -> int:
    """The seats of a final table started now: the setting's, or one per player left."""
    return max(t.rules.final_table, t.active)


def start_bar(t: Tournament) -> Why | None:
    """Why the director cannot start the final table now, or None."""
    if (formed := formed_bar(t)) is not None:
        return formed
    s = t.state
    if t.active < 2:
        return Why("final_too_few")
    # Only the final table may have more seats than the others (7 at a 6-max event).
    most = max(s.rules.final_table, s.rules.seats)
    if seats(t) > most:
        return Why("final_too_many", {"players": t.active, "size": most})
    return None


def formed_bar(t: Tournament) -> Why | None:
    """The final table formed already: another cannot be (the import checks this too)."""
    if t.state.final_table is not None:
        return Why("final_formed", {"table": t.state.final_table})
    return None


def refusal(why: Why) -> NotAllowed:
    """What ``decide`` raises for ``why`` (its words are the reason's template)."""
    return refused(NotAllowed, why.reason, why.params)
