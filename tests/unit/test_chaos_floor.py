"""The chaos soak's floor (``bench/chaos/floorperson.py``) plays a tournament to its winner on
the staff view, as floor staff do: every move called before it is carried out, and nothing it
sends refused.

The soak stopped at its budget after 1 and 13 bust-outs: its floorpersons decided on a
public screen, which is not shown the moves not called yet nor the seats drawn for them, so
they sent confirms the server refused ("no planned move") by the tens of thousands. This
runs their decisions against the engine itself, in milliseconds, so that a change of the
rules they follow fails here before the soak (``.ci/run``) runs out of time.
"""

from __future__ import annotations

import random

import msgspec

from bench.chaos.floorperson import floor_step
from floor.engine import commands as cmd
from floor.engine.decide import decide
from floor.engine.errors import RuleError
from floor.engine.events import MovesCalled, PlayerBusted, PlayersMoved, TournamentCreated
from floor.engine.rules import Rules
from floor.engine.state import Tournament

RULES = msgspec.convert({"game": "holdem", "seats": 9, "final_table": 9}, Rules)


def test_two_floorpersons_play_to_the_winner_calling_every_move_before_carrying_it_out() -> None:
    rng = random.Random(24)
    now = 1_000.0
    t = Tournament.create(TournamentCreated(id="t", name="t", rules=RULES, created_at=now))
    for i in range(120):
        decide(t, cmd.Register(name=f"Player {i}", player=f"P{i}"), now, rng)
    decide(t, cmd.DrawSeats(), now, rng)

    called: set[str] = set()
    refused: list[str] = []
    moved = busted = 0
    while t.active > 1:
        sent = 0
        for k in (0, 1):
            command = floor_step(t, rng, 0.8, k, 2)
            if command is None:
                continue
            sent += 1
            now += 1.0
            try:
                events = decide(t, command, now, rng)
            except RuleError as e:
                refused.append(f"{command}: {e}")
                continue
            for e in events:
                if isinstance(e, MovesCalled):
                    called.update(c.player for c in e.calls)
                elif isinstance(e, PlayersMoved):
                    for m in e.moves:
                        assert m.player in called, f"{m.player} moved without a call ({e})"
                        called.discard(m.player)
                        moved += 1
                elif isinstance(e, PlayerBusted):
                    busted += 1
                    called.discard(e.player)
        assert sent, f"neither floorperson has anything to do at {t.active} players left"

    assert not refused, refused[:3]
    assert busted == 119 and t.active == 1
    assert moved > 20  # tables were balanced and broken, and the final table formed
    assert t.state.final_table is not None
