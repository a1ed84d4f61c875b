"""A deal undone: the director takes back a deal made by mistake (a share typed wrong, a
player who had not agreed), before anything was played after it.

The deal's shares stop paying; a deal that had ended the tournament gives it back its
players (no winner, the clock paused where the deal stopped it), and a new offer may be made.
A deal that played on can be undone only until the next bust-out: the places after it were
played for the deal's prizes. A closed tournament's deal stands (``finish.bar``).
"""

from __future__ import annotations

from .commands import UndoDeal
from .errors import NotAllowed
from .events import DealUndone, Event
from .state import Tournament


def undo(t: Tournament, c: UndoDeal, now: float) -> list[Event]:
    check(t, DealUndone(reason=c.reason, at=now))
    return [DealUndone(reason=c.reason, at=now)]


def check(t: Tournament, event: DealUndone) -> None:
    s = t.state
    deal = s.deal
    if deal is None:
        raise NotAllowed("no deal has been made", field="type", reason="deal_none")
    if not event.reason.strip():
        raise NotAllowed("say why the deal is undone", field="reason", reason="deal_undo_reason")
    after = sorted(
        p.id for p in s.players.values() if p.busted and p.bust is not None and p.bust.at > deal.at
    )
    if after and not deal.ends:
        raise NotAllowed(
            f"{after[0]} has busted since the deal: it was played for, it stands",
            field="type",
            reason="deal_played_on",
            params={"player": after[0]},
        )
