"""Players out in the same hand, placed together (TDA 2024 rule 21, FLOOR-RULES 8).

The bigger stack at the start of the hand places higher; equal stacks share the place, and
the prizes of the places they cover (``prize.shared_prizes``). One hand at one table
(``bust_same_hand``) and one hand-for-hand hand across the room (``hand_for_hand``) are
placed alike.
"""

from __future__ import annotations

from itertools import groupby

from .events import PlayerBusted
from .state import Player, Tournament


def place(
    t: Tournament, busted: list[tuple[int, Player]], now: float, by: str | None = None
) -> list[PlayerBusted]:
    """The bust-outs of ``busted`` (each with the stack it started the hand with), worst
    place first, as they are called; the players are still seated. ``by``: who reported
    them."""
    busted = sorted(busted, key=lambda sp: (-sp[0], sp[1].table or 0, sp[1].seat or 0))
    at = t.active - len(busted) + 1
    placed: list[tuple[int, int, int, Player]] = []
    for stack, same in groupby(busted, key=lambda sp: sp[0]):
        group = [p for _, p in same]
        placed.extend((at, len(group), stack, p) for p in group)
        at += len(group)
    events: list[PlayerBusted] = []
    for where, shares, stack, p in reversed(placed):
        assert p.table is not None and p.seat is not None
        events.append(
            PlayerBusted(
                player=p.id,
                table=p.table,
                seat=p.seat,
                hand=t.table(p.table).hand,
                place=where,
                at=now,
                # One player alone keeps the plain bust-out's record.
                shares=shares,
                stack=stack if len(busted) > 1 else None,
                by=by,
            )
        )
    return events
