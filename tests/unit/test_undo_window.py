"""The undo list is bounded: a bust-out is undone until the table's next hand (TDA 19), the
clock's next level, or ``undo_minutes`` after it, whichever comes first; the staff facts say
until when. The instant is passed in: the engine reads no clock."""

from __future__ import annotations

import msgspec

from floor.engine import commands as cmd
from floor.engine.errors import NotAllowed
from floor.engine.read.derived import staff_facts
from floor.engine.rules import Structure
from tests.unit.builders import Floor

LAYOUT = {1: "1-9 pos 1/2/3", 2: "1-9 pos 1/2/3"}
STRUCTURE = msgspec.convert(
    {
        "name": "two levels",
        "starting_stack": 10_000,
        "chips": [25],
        "levels": [
            {"type": "level", "small_blind": 25, "big_blind": 50, "minutes": 20},
            {"type": "level", "small_blind": 50, "big_blind": 100, "minutes": 20},
        ],
    },
    Structure,
)


def undo(player: str) -> cmd.UndoBust:
    return cmd.UndoBust(player=player, reason="misread")


def refused_at(floor: Floor, command: cmd.Command, now: float) -> NotAllowed:
    """``command`` at the instant ``now`` is refused about the player, changing nothing."""
    floor.now = now
    refused = floor.refuse(command, NotAllowed, "player")
    assert isinstance(refused, NotAllowed)
    return refused


def test_an_undo_closes_the_house_minutes_after_the_bust_out() -> None:
    floor = Floor(LAYOUT)  # undo_minutes = 10 by default
    floor.do(cmd.Bust(player="T1S5"), now=1_000.0)
    (listed,) = staff_facts(floor.t).undo
    assert (listed.player, listed.until, listed.level) == ("T1S5", 1_600.0, False)

    refused = refused_at(floor, undo("T1S5"), 1_600.0)
    assert (refused.reason, refused.params) == ("undo_expired", {"player": "T1S5", "minutes": 10})
    floor.do(undo("T1S5"), now=1_599.0)
    assert floor.where("T1S5") == (1, 5)


def test_without_a_time_limit_only_the_hand_or_the_level_closes_it() -> None:
    floor = Floor(LAYOUT, undo_minutes=0)
    floor.do(cmd.Bust(player="T1S5"), now=0.0)
    assert staff_facts(floor.t).undo[0].until is None
    floor.do(undo("T1S5"), now=86_400.0)


def test_an_undo_closes_when_the_level_changes() -> None:
    floor = Floor(LAYOUT, structure=STRUCTURE)
    floor.do(cmd.ClockStart(), now=0.0)
    floor.do(cmd.Bust(player="T1S5"), now=60.0)
    assert staff_facts(floor.t).undo[0].level is True
    floor.do(cmd.ClockLevel(step=1), now=120.0)

    assert staff_facts(floor.t).undo == []
    refused = refused_at(floor, undo("T1S5"), 130.0)
    assert refused.reason == "undo_level_over"


def test_a_level_change_due_but_not_yet_written_closes_it_too() -> None:
    floor = Floor(LAYOUT, structure=STRUCTURE, undo_minutes=0)
    floor.do(cmd.ClockStart(), now=0.0)
    floor.do(cmd.Bust(player="T1S5"), now=60.0)
    # Level 1 ended at 20 minutes; the clock driver has not written the change yet.
    assert refused_at(floor, undo("T1S5"), 1_201.0).reason == "undo_level_over"
