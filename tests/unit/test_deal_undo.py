"""A deal undone (issue 27, part 3's left-over): the director takes back a deal made by
mistake; one that ended the tournament gives it back its players, one that played on stands
once a bust-out was played for it; the log replays to the same state, and a forged undo is
refused."""

from __future__ import annotations

import pytest

from floor.engine import commands as cmd
from floor.engine.errors import NotAllowed
from floor.engine.events import DealUndone
from floor.engine.money import finish_of
from floor.engine.validate import InvalidEvent, replay
from tests.unit.test_deals import AGREED, offered, three_left
from tests.unit.test_error_codes import assert_said


def test_a_deal_that_ended_the_tournament_is_undone_and_play_goes_on() -> None:
    floor = three_left()
    offered(floor)
    floor.do(cmd.MakeDeal(agreed=AGREED), now=50.0)
    s = floor.t.state
    assert s.winner == "T1S2"

    (undone,) = floor.do(cmd.UndoDeal(reason="the shares were typed wrong"), now=60.0)

    assert isinstance(undone, DealUndone)
    assert (s.deal, s.winner, s.finished_at) == (None, None, None)
    assert not s.clock.running
    assert finish_of(floor.t, s.players["T1S2"]) is None
    # Play goes on: a bust-out, a new offer.
    floor.do(cmd.Bust(player="T1S3"), now=70.0)
    assert floor.t.state.players["T1S3"].bust.place == 3  # type: ignore[union-attr]
    assert replay(floor.log).state == floor.t.state


def test_a_deal_that_played_on_stands_once_a_bust_out_was_played_for_it() -> None:
    floor = three_left()
    offered(floor, left=10)
    floor.do(cmd.MakeDeal(agreed=AGREED), now=50.0)
    floor.do(cmd.Hand(table=1), cmd.Bust(player="T1S3"), now=60.0)
    e = floor.refuse(cmd.UndoDeal(reason="late"), NotAllowed, "type")
    assert_said(e, "deal_played_on", {"player": "T1S3"})


def test_no_deal_no_undo_and_a_closed_tournament_s_deal_stands() -> None:
    floor = three_left()
    e = floor.refuse(cmd.UndoDeal(reason="why"), NotAllowed, "type")
    assert_said(e, "deal_none", {})
    offered(floor)
    floor.do(cmd.MakeDeal(agreed=AGREED), now=50.0)
    e = floor.refuse(cmd.UndoDeal(reason="   "), NotAllowed, "reason")
    assert_said(e, "deal_undo_reason", {})
    floor.do(cmd.CloseTournament(), now=55.0)
    e = floor.refuse(cmd.UndoDeal(reason="too late"), NotAllowed, None)
    assert e.reason == "tournament_closed"


def test_a_log_with_an_undo_and_no_deal_is_refused() -> None:
    floor = three_left()
    with pytest.raises(InvalidEvent):
        replay([*floor.log, DealUndone(reason="forged", at=1.0)])
