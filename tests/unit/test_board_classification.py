"""The board's lines are said in the one classification of events (``touches.touch``): an
event type whose case says ``NO_LINES`` says it for every event of the type, since the fold
(``touches.board_steps``) stops classifying a type once it has seen it off the board."""

from __future__ import annotations

from collections import defaultdict
from typing import get_args

from floor.engine.events import Event
from floor.engine.touches import NO_LINES, BoardSteps, Touched, board_steps, touch
from tests.browser.tournaments import games


def test_a_type_off_the_board_is_off_it_for_every_event_and_the_fold_agrees() -> None:
    said: defaultdict[type[Event], list[BoardSteps]] = defaultdict(list)
    for g in games():
        for e in g.log:
            steps = touch(e, Touched())
            said[type(e)].append(steps)
            assert board_steps(e) == steps, e
    assert set(said) == set(get_args(Event))
    for kind, answers in said.items():
        never = [s is NO_LINES for s in answers]
        assert all(never) or not any(never), kind.__name__
    on_board = {k.__name__ for k, answers in said.items() if any(answers)}
    # The events of the board's module docstring, and no other.
    assert on_board == {
        "PlayersMoved",
        "PlayerBusted",
        "MovesCalled",
        "CallsLapsed",
        "MoveCancelled",
        "RulingRecorded",
        "SitOutEnded",
        "TableBreaking",
        "TableBroken",
        "FinalTableFormed",
    }
