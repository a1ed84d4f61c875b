"""What a batch announces to the room (floor/engine/read/announcements.py): which event, which
table screens, which players' languages; never a move the room has not been shown, never a
short break, and a snapshot announces nothing."""

from __future__ import annotations

from floor.engine import commands as cmd
from floor.engine.events import LevelChanged
from floor.engine.read.announcements import DINNER_MINUTES, Announcement, of_batch
from floor.engine.read.derived import public_facts
from floor.engine.rules import Break, Level, Structure
from tests.unit.builders import Floor
from tests.unit.test_money import six


def test_a_called_move_is_announced_at_the_players_table_in_their_language() -> None:
    floor = Floor({1: "1-9 pos 1/2/3", 2: "1-6 pos 1/2/3"})
    busted = floor.bust("T2S6", "T2S5")
    assert [a for a in of_batch(busted, floor.t) if a.kind == "move_called"] == []

    mover = floor.moves("balance")[0][0]
    assert mover is not None
    floor.t.state.players[mover].lang = "es"
    called = floor.do(cmd.CallMove(player=mover), now=500.0)
    planned = floor.t.plan.move_of(mover)
    assert planned is not None
    [said] = of_batch(called, floor.t)
    assert said == Announcement(
        kind="move_called",
        langs=("es",),
        tables=(1,),
        at=500.0,
        player=mover,
        name=floor.t.state.players[mover].name,
        table=1,
        seat=int(mover[3:]),
        to_table=planned.to.table,
        to_seat=planned.to.seat,
    )
    # The batch's facts carry it to every screen; a snapshot's carry none.
    assert public_facts(floor.t, called).announcements == [said]
    assert public_facts(floor.t).announcements == []


def test_a_table_breaking_is_announced_at_it_in_each_language_of_its_players() -> None:
    floor = Floor({1: "1-8 pos 1/2/3", 2: "1-9 pos 1/2/3", 3: "1-4 pos 1/2/3"})
    floor.t.state.players["T3S1"].lang = "de"
    floor.t.state.players["T3S2"].lang = "es"
    floor.t.state.players["T3S3"].lang = "es"
    assert of_batch(floor.bust("T3S4"), floor.t) == []
    # Two seats free elsewhere for table 3's three players: it breaks by the rule.
    events = floor.bust("T1S8", "T2S9")
    breaking = [a for a in of_batch(events, floor.t) if a.kind == "table_breaking"]
    # By how many read each: two Spanish, one German.
    assert [(a.table, a.tables, a.langs) for a in breaking] == [(3, (3,), ("es", "de"))]


def test_the_bubble_bursting_is_announced_to_every_table_once() -> None:
    floor = six()
    floor.t.state.players["T1S1"].lang = "pl"
    assert of_batch(floor.bust("T1S6", "T1S5"), floor.t) == []
    [said] = of_batch(floor.bust("T1S4"), floor.t)
    assert (said.kind, said.tables, said.places, said.langs) == ("in_the_money", (), 3, ("", "pl"))
    assert of_batch(floor.bust("T1S3"), floor.t) == []


def _dinner_floor() -> Floor:
    levels = (
        Level(small_blind=100, big_blind=200, minutes=60),
        Break(minutes=15),
        Level(small_blind=200, big_blind=400, minutes=60),
        Break(minutes=DINNER_MINUTES + 15, name="Dinner"),
        Level(small_blind=300, big_blind=600, minutes=60),
    )
    shape = Structure(name="d", starting_stack=20_000, chips=(100,), levels=levels)
    return Floor({1: "1-5 pos 1/2/3"}, structure=shape)


def test_a_long_break_is_the_dinner_break_and_a_short_one_is_not_announced() -> None:
    floor = _dinner_floor()
    floor.t.state.players["T1S2"].lang = "fr"
    short = LevelChanged(at=3600.0, level=1, ends_at=4500.0, remaining=900.0)
    assert of_batch([short], floor.t) == []
    dinner = LevelChanged(at=8100.0, level=3, ends_at=11700.0, remaining=3600.0)
    [said] = of_batch([dinner], floor.t)
    assert said == Announcement(
        kind="dinner_break", langs=("", "fr"), at=8100.0, minutes=60, until=11700.0
    )
