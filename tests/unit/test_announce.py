"""The director's announcements (issue 29, part 1): one message at a time, a line or the
whole wall, in the public state until cleared or replaced, and in the log."""

from __future__ import annotations

import msgspec
import pytest

from floor.engine import commands as cmd
from floor.engine.errors import BadValue, NotAllowed
from floor.engine.events import Announced, AnnouncementCleared, Event
from floor.engine.validate import InvalidEvent, replay
from floor.server.redact import for_public
from tests.unit.builders import Floor
from tests.unit.test_error_codes import assert_said


def floor() -> Floor:
    return Floor({1: "1-9 pos 4/5/6"})


def test_a_line_stands_until_cleared_and_a_full_screen_replaces_it() -> None:
    f = floor()
    assert f.do(cmd.Announce(text="  Dinner break after this level  "), now=10.0) == [
        Announced(text="Dinner break after this level", full=False, at=10.0)
    ]
    assert f.t.state.announcement == Announced(
        text="Dinner break after this level", full=False, at=10.0
    )
    f.do(cmd.Announce(text="Seat open at table 4", full=True), now=20.0)
    shown = f.t.state.announcement
    assert shown is not None and shown.full and shown.text == "Seat open at table 4"
    assert f.do(cmd.ClearAnnouncement(), now=30.0) == [AnnouncementCleared(at=30.0)]
    assert f.t.state.announcement is None


def test_the_public_is_shown_the_announcement() -> None:
    f = floor()
    f.do(cmd.Announce(text="Registration closes in 10 minutes"))
    message = for_public(msgspec.json.encode({"state": f.t.state, "staff": None}))
    state = msgspec.json.decode(message)["state"]
    assert state["announcement"]["text"] == "Registration closes in 10 minutes"
    assert state["announcement"]["full"] is False


@pytest.mark.parametrize("text", [" ", "\n\t", "!!! ---"])
def test_a_blank_announcement_is_refused_and_changes_nothing(text: str) -> None:
    f = floor()
    with pytest.raises(BadValue) as caught:
        f.do(cmd.Announce(text=text))
    assert_said(caught.value, "announcement_blank", {})
    assert caught.value.field == "text"
    assert f.t.state.announcement is None


def test_a_too_long_announcement_is_refused_by_the_schema() -> None:
    with pytest.raises(msgspec.ValidationError, match=r"\$\.text"):
        msgspec.convert({"type": "announce", "text": "x" * 281}, cmd.Command)


def test_clearing_with_nothing_shown_is_refused() -> None:
    f = floor()
    with pytest.raises(NotAllowed) as caught:
        f.do(cmd.ClearAnnouncement())
    assert_said(caught.value, "announcement_none", {})


def test_an_imported_log_with_a_clear_and_nothing_shown_is_refused() -> None:
    f = floor()
    f.do(cmd.Announce(text="Break"), cmd.ClearAnnouncement())
    good: list[Event] = list(f.log)
    assert replay(good).state.announcement is None
    with pytest.raises(InvalidEvent):
        replay([*good, AnnouncementCleared(at=1.0)])
    with pytest.raises(InvalidEvent):
        replay([*good, Announced(text="   ", at=1.0)])
