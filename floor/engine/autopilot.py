"""A simulated floor: what a well-run room does next, as commands.

Used by the property tests, the benchmarks and ``floor demo``: it carries out the plan (the
final table at once, other moves one by one, picking a seat where the plan leaves it to the
floor), reports the button where positions are unknown, deals hands and busts players. Pure:
the random source is passed in, and it only reads the tournament.
"""

from __future__ import annotations

import random

from .commands import Bust, Button, Command, Confirm, ConfirmAll, Hand
from .model import FLOP_GAMES
from .plan import PlannedMove
from .state import Table, Tournament


def next_floor_action(t: Tournament, rng: random.Random) -> Command | None:
    """The plan's next step, or a button report; None when nothing is pending."""
    plan = t.plan
    if any(m.reason == "final" for m in plan.moves):
        return ConfirmAll(reason="final")
    flop = t.state.current_game in FLOP_GAMES or t.rules.game == "mixed"
    if flop and not t.rules.stud_only:
        for table in t.open_tables():
            if table.positions is None and table.count >= 2:
                return Button(table=table.number, seat=rng.choice(sorted(table.occupants)))
    for m in plan.moves:
        command = _carry_out(t, m, rng)
        if command is not None:
            return command
    return None


def _carry_out(t: Tournament, m: PlannedMove, rng: random.Random) -> Command | None:
    player = m.player
    if player is None:
        src = t.table(m.from_.table)
        planned = {x.player for x in t.plan.moves}
        candidates = [pid for pid in src.occupants.values() if pid not in planned]
        if not candidates:
            return None
        player = rng.choice(sorted(candidates))
    seat = m.to.seat
    if seat is None:
        taken = {x.to.seat for x in t.plan.moves if x.to.table == m.to.table}
        dst = t.table(m.to.table)
        free = [
            s
            for s in range(1, dst.seats + 1)
            if s not in dst.occupants and s not in taken and not t.is_reserved(dst.number, s)
        ]
        if not free:
            return None
        seat = free[0]
    return Confirm(player=player, seat=seat)


def playable_tables(t: Tournament) -> list[Table]:
    halted = set(t.plan.halted_tables)
    return [table for table in t.open_tables() if table.number not in halted and table.count >= 2]


def next_play(t: Tournament, rng: random.Random, bust_chance: float = 0.5) -> Command | None:
    """A hand dealt or a player busted at a table in play; None once there is a winner."""
    if t.active < 2:
        return None
    tables = playable_tables(t)
    if not tables:
        return None
    table = rng.choice(tables)
    flop = t.state.current_game in FLOP_GAMES
    can_deal = not flop or table.positions is not None
    if can_deal and rng.random() >= bust_chance:
        return Hand(table=table.number)
    return Bust(player=table.occupants[rng.choice(sorted(table.occupants))])


def next_step(t: Tournament, rng: random.Random, bust_chance: float = 0.5) -> Command | None:
    """The floor's next action if any, else the next hand or bust-out."""
    return next_floor_action(t, rng) or next_play(t, rng, bust_chance)
