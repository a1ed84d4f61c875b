"""When a chip count is old: the stack counted is no longer the stack in play.

A count is the stack the floor saw at an instant (``counts``). Chips change hands with every
hand, and no screen may show a count as the stack now once it has plainly moved on: at three
left, a final table's "22,000 · 220 BB" from forty bust-outs earlier told the room a stack
nobody had. A count is old

- after a level change since it was taken (``level``): hands have been played at other blinds
  (the clock's start is no change: Day 2 starts on its bags' counts);
- after a bust-out at its table since it was taken (``bust``): the busted player's chips went
  to somebody there. Its table is every table the player sat at since, while they sat there:
  the one they sit at now (a bust-out there since they sat down: ``Table.busted_at`` against
  ``Player.seated_bust_at``), and those they left, whose latest bust-out of their stay they
  carry (``Player.left_bust_at``). A bust-out at a table before the player sat down there, or
  after they left it, is not theirs: the players brought to the final table keep the counts
  of the table they came from.

The screens are sent the verdict, never the rule: the chip leaders carry it
(``counts.Leader.old``) and each table's view the old counts of its players
(``views.TableView.old_counts``); the final table's screen asks for a recount of those.
"""

from __future__ import annotations

from typing import Literal

from .state import Player, TournamentState, busted_since

#: Why a count is old: the level changed since, or a player busted at its table since.
OldCount = Literal["level", "bust"]


def level_changed_at(s: TournamentState) -> float | None:
    """When the clock last changed to the level it is at (None: not since it started)."""
    history = s.level_history
    if not history:
        return None
    # The points are the clock's start and every change; the start (or a new start: Day 2's
    # clock) names the level the clock already was at, which is no change.
    level = history[-1].level
    i = len(history) - 1
    while i > 0 and history[i - 1].level == level:
        i -= 1
    # The first point is the start, or a change made before it (no hands were played then).
    return history[i].at if i > 0 else None


def count_age(s: TournamentState, p: Player) -> OldCount | None:
    """Why ``p``'s count is old, or None when it still stands (or there is no count)."""
    if not p.counted or p.counted_at is None or p.busted:
        return None
    changed_at = level_changed_at(s)
    if changed_at is not None and p.counted_at < changed_at:
        return "level"
    table = s.tables.get(p.table) if p.table is not None else None
    here = table.busted_at if table is not None and busted_since(table, p) else None
    if any(at is not None and at > p.counted_at for at in (here, p.left_bust_at)):
        return "bust"
    return None
