"""A deal undone: the director takes back a deal made by mistake (a share typed wrong, a
player who had not agreed), before anything was played after it.

The deal's shares stop paying; a deal that had ended the tournament gives it back its
players (no winner, the clock paused where the deal stopped it), and a new offer may be made.
A deal that played on can be undone only until the next bust-out: the places after it were
played for the deal's prizes. A closed tournament's deal stands (``finish.bar``).
"""

from __future__ import annotations

from .commands import UndoDeal
from .dispatch import decides, folds, validates
from .errors import NotAllowed, refused
from .events import DealUndone, Event
from .state import Tournament


def undo(t: Tournament, c: UndoDeal, now: float) -> list[Event]:
    check(t, DealUndone(reason=c.reason, at=now))
    return [DealUndone(reason=c.reason, at=now)]


def check(t: Tournament, event: DealUndone) -> None:
    s = t.state
    deal = s.deal
    if deal is None:
        raise refused(NotAllowed, "deal_none", {}, field="type")
    if not event.reason.strip():
        raise refused(NotAllowed, "deal_undo_reason", {}, field="reason")
    after = sorted(
        p.id for p in s.players.values() if p.busted and p.bust is not None and p.bust.at > deal.at
    )
    if after and not deal.ends:
        raise refused(NotAllowed, "deal_played_on", {"player": after[0]}, field="type")


# Dispatch (``floor.engine.registry``) ------------------------------------------------------

DECIDES = (decides(UndoDeal, lambda t, c, now, rng: undo(t, c, now)),)
CHECKS = (validates(DealUndone, check),)
FOLDS = (folds(DealUndone, lambda t, e: t._deal_undone()),)
