"""The lighter model checked against the engine: the same run, played on the engine.

A run of ``runs.play`` counts tables rather than seating players. Here its bust-outs, entries
and re-entries (its ``Trace``) are played, in order and at their times, on a copy of the live
tournament through ``decide``, with the floor carrying out every planned move (balancing,
breaking, the final table: ``autopilot``); after each, the engine's tables in play and its
final table are set beside the run's. Who busts is drawn at random among the players left
(the run does not name them); the rules make the tables depend on how many are left, not on
whom, which is what this shows.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..engine.autopilot import next_floor_action
from ..engine.commands import Bust, Command, Register
from ..engine.decide import decide
from ..engine.errors import RuleError
from ..engine.state import Tournament
from ..engine.windows import re_entry_limit
from .runs import Trace


@dataclass(frozen=True, slots=True)
class Step:
    """After one event of a run: the run's count and the engine's."""

    what: str
    at: float
    players: int
    tables: int
    final: bool
    engine_players: int
    engine_tables: int
    engine_final: bool

    @property
    def agrees(self) -> bool:
        return (self.players, self.tables, self.final) == (
            self.engine_players,
            self.engine_tables,
            self.engine_final,
        )


def replay(t: Tournament, trace: Trace, seed: int) -> list[Step]:
    """``trace`` played on a copy of ``t``; stops where the engine refuses (the run went on
    past what the engine allows, a re-entry after its window: reported by a short list)."""
    t = t.copy()
    rng = random.Random(seed)
    out: list[Step] = []
    busted: list[str] = []
    fresh = 0
    for what, at, players, tables, final in trace:
        command: Command
        if what == "bust":
            seated = sorted(p for table in t.open_tables() for p in table.occupants.values())
            if not seated:
                break
            pid = rng.choice(seated)
            busted.append(pid)
            command = Bust(player=pid)
        elif what == "reentry":
            # The latest out who may still enter again (the run counts no player's limit).
            able = [p for p in reversed(busted) if re_entry_limit(t.state, t.player(p)) is None]
            if not able:
                break
            pid = able[0]
            busted.remove(pid)
            command = Register(name=t.player(pid).name, player=pid)
        else:
            fresh += 1
            command = Register(name=f"Forecast entry {fresh}", player=f"FC{fresh:05d}")
        try:
            _do(t, command, at, rng)
        except RuleError:
            break
        out.append(
            Step(
                what=what,
                at=at,
                players=players,
                tables=tables,
                final=final,
                engine_players=t.active,
                engine_tables=t.open_count,
                engine_final=t.state.final_table is not None,
            )
        )
        if t.state.winner is not None or t.state.day_ended is not None:
            break
    return out


def _do(t: Tournament, command: Command, now: float, rng: random.Random) -> None:
    decide(t, command, now, rng)
    while (action := next_floor_action(t, rng)) is not None:
        decide(t, action, now, rng)
