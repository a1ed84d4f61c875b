"""Live tournaments to forecast from, quickly: a field drawn, its clock started, the first
levels played with bust-outs at their times (a thin share of the field per level, more as
the blinds rise), the floor carrying out the plan. For the timing bench and the tests, where
the histories must be real but need not come from hands.
"""

from __future__ import annotations

import random

import msgspec

from floor.config import resolve_structure
from floor.engine import commands as cmd
from floor.engine.autopilot import next_floor_action
from floor.engine.calc.payout_curve import standard_table
from floor.engine.decide import decide
from floor.engine.events import TournamentCreated
from floor.engine.flights import FlightRules
from floor.engine.prize import Prize, ReEntry
from floor.engine.rules import Level, Rules
from floor.engine.state import Tournament

from .handsim import T0


def live(
    players: int,
    level: int,
    *,
    seats: int = 9,
    structure: str = "deepstack-daily",
    seed: int = 1,
    flight: FlightRules | None = None,
    late_entries: int = 0,
    bust_share: float = 0.04,
) -> tuple[Tournament, float]:
    """A tournament of ``players`` at the start of level ``level`` (and the time then)."""
    rng = random.Random(seed)
    base = resolve_structure(structure)
    prize = Prize(
        currency="EUR",
        buy_in=100,
        payouts=standard_table(max(2, players + late_entries), 0.15),
        re_entry=ReEntry(max_per_player=1),
    )
    st = msgspec.structs.replace(base, prize=prize)
    rules = Rules(game="holdem", seats=seats, final_table=min(9, seats))
    t = Tournament.create(
        TournamentCreated(id=f"live{seed}", name="Live", rules=rules, structure=st)
    )
    for i in range(players):
        decide(t, cmd.Register(name=f"Player {i}", player=f"P{i:05d}"), T0 - 900, rng)
    decide(t, cmd.DrawSeats(), T0 - 600, rng)
    if flight is not None:
        decide(t, cmd.SetFlight(event="live", order=1, rules=flight), T0 - 300, rng)
    decide(t, cmd.ClockStart(), T0, rng)
    now = T0
    target = st.level_index(level)
    fresh = 0
    while t.state.clock.level < target:
        ends = t.state.clock.ends_at
        assert ends is not None
        step = st.levels[t.state.clock.level]
        if isinstance(step, Level):
            busts = int(t.active * bust_share * (1 + t.state.clock.level / 4))
            joins = late_entries // max(1, target) if late_entries else 0
            times = sorted(rng.uniform(now, ends) for _ in range(busts + joins))
            kinds = ["bust"] * busts + ["entry"] * joins
            rng.shuffle(kinds)
            for at, kind in zip(times, kinds, strict=True):
                if kind == "bust":
                    table = rng.choice([tb for tb in t.open_tables() if tb.count >= 2])
                    pid = rng.choice(sorted(table.occupants.values()))
                    _do(t, cmd.Bust(player=pid), at, rng)
                else:
                    fresh += 1
                    _do(t, cmd.Register(name=f"Late {fresh}", player=f"L{fresh:05d}"), at, rng)
        now = ends
        _do(t, cmd.Tick(), now, rng)
    return t, now + 60.0


def _do(t: Tournament, command: cmd.Command, now: float, rng: random.Random) -> None:
    decide(t, command, now, rng)
    while (action := next_floor_action(t, rng)) is not None:
        decide(t, action, now, rng)
