"""A flight's capacity and its alternates: the line, the calls, the time to take a seat."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from floor import config
from floor.engine import commands as cmd
from floor.engine.alternates_model import Capacity
from floor.engine.errors import ConfigError, NotAllowed
from floor.engine.events import (
    AlternateQueued,
    AlternatesCalled,
    AlternateSeated,
    AlternatesLapsed,
    AlternatesLeft,
    PlayerRegistered,
    PlayerSeated,
    TableOpened,
)
from floor.engine.validate import InvalidEvent, replay
from floor.server.clockdriver import next_due

from .builders import Floor
from .test_error_codes import assert_said

#: Two tables of nine, full: 18 players.
FULL = {1: "1-9", 2: "1-9"}


def _full(**capacity: object) -> Floor:
    f = Floor(FULL)
    f.do(cmd.SetCapacity(capacity=msgspec.convert({"seats": 18, **capacity}, Capacity)))
    return f


def _line(f: Floor) -> list[str]:
    return [a.id for a in f.t.state.alternates.line]


def _called(f: Floor) -> list[str]:
    return [a.id for a in f.t.state.alternates.called]


def test_without_a_capacity_a_full_room_opens_another_table_as_before() -> None:
    f = Floor(FULL)
    events = f.register("P0100")
    assert any(isinstance(e, TableOpened) for e in events)
    assert not f.t.state.alternates.line


def test_a_registration_when_the_flight_is_full_goes_to_the_end_of_the_line() -> None:
    f = _full()
    events = f.do(cmd.Register(name="Ann Late"), cmd.Register(name="Bob Later"))
    assert [type(e) for e in events] == [AlternateQueued, AlternateQueued]
    assert _line(f) == ["A1", "A2"]
    assert f.t.state.entries == 18  # nobody registered, no buy-in kept yet
    assert all(t.count == 9 for t in f.t.state.tables.values())


def test_a_capacity_in_tables_counts_the_rule_sets_seats() -> None:
    f = Floor(FULL)
    f.do(cmd.SetCapacity(capacity=Capacity(tables=2)))
    assert isinstance(f.do(cmd.Register(name="Ann Late"))[0], AlternateQueued)


def test_a_bust_out_calls_the_next_alternate_with_five_minutes_to_take_the_seat() -> None:
    f = _full()
    f.do(cmd.Register(name="Ann Late"), cmd.Register(name="Bob Later"))
    f.now = 100.0
    events = f.bust("T1S1")
    called = [e for e in events if isinstance(e, AlternatesCalled)]
    assert called == [AlternatesCalled(alternates=("A1",), at=100.0, ends_at=400.0)]
    # The called alternate holds the seat: a new registration still waits.
    assert isinstance(f.do(cmd.Register(name="Cy Walk"))[0], AlternateQueued)
    assert _called(f) == ["A1"]


def test_a_called_alternate_who_comes_is_registered_and_seated() -> None:
    f = _full()
    f.do(cmd.Register(name="Ann Late"))
    f.bust("T1S1")
    events = f.do(cmd.SeatAlternate(alternate="A1"))
    assert [type(e) for e in events][:3] == [AlternateSeated, PlayerRegistered, PlayerSeated]
    seated = events[2]
    assert isinstance(seated, PlayerSeated) and seated.table == 1
    assert f.t.state.players[seated.player].name == "Ann Late"
    assert not f.t.state.alternates.line and f.t.state.alternates.seated == 1


def test_when_the_time_runs_out_the_clock_driver_writes_it_and_the_next_is_called() -> None:
    f = _full()
    f.do(cmd.Register(name="Ann Late"), cmd.Register(name="Bob Later"))
    f.now = 100.0
    f.bust("T1S1")
    assert next_due(f.t) == 400.0
    assert f.do(cmd.Tick(), now=399.0) == []
    events = f.do(cmd.Tick(), now=400.0)
    assert AlternatesLapsed(alternates=("A1",), at=400.0) in events
    assert _line(f) == ["A2"] and _called(f) == ["A2"]
    assert f.t.state.alternates.lapsed == 1
    assert next_due(f.t) == 700.0


def test_in_waves_seats_open_quietly_until_the_level_changes() -> None:
    from floor.engine.rules import Structure

    structure = msgspec.convert(
        {
            "name": "s",
            "starting_stack": 1000,
            "chips": [25],
            "levels": [
                {"type": "level", "small_blind": 25, "big_blind": 50, "minutes": 10},
                {"type": "level", "small_blind": 50, "big_blind": 100, "minutes": 10},
            ],
        },
        Structure,
    )
    f = Floor(FULL, structure=structure)
    f.do(cmd.SetCapacity(capacity=Capacity(seats=18, call="wave", wave=2)))
    for name in ("Ann", "Bob", "Cy", "Dee"):
        f.do(cmd.Register(name=f"{name} Late"))
    f.do(cmd.ClockStart())
    f.bust("T1S1", "T1S2", "T2S1")
    assert _called(f) == []
    f.do(cmd.Tick(), now=600.0)  # the level changes: a wave of two of the three seats
    assert _called(f) == ["A1", "A2"]
    # One lets the time lapse: the seat goes to the next at once, not at the next level.
    f.do(cmd.SeatAlternate(alternate="A1"), now=650.0)
    f.do(cmd.Tick(), now=900.0)
    assert _line(f) == ["A3", "A4"] and _called(f) == ["A3"]


def test_the_line_goes_in_order_and_names_each_person_once() -> None:
    f = _full()
    f.do(cmd.Register(name="Ann Late"))
    f.refuse(cmd.SeatAlternate(alternate="A1"), NotAllowed, "alternate")
    f.refuse(cmd.SeatAlternate(alternate="A9"), NotAllowed, "alternate")
    f.refuse(cmd.DropAlternate(alternate="A9"), NotAllowed, "alternate")
    error = f.refuse(cmd.JoinAlternates(name="ann late"), NotAllowed, "name")
    assert error.reason == "alternate_in_line"


def test_nobody_joins_the_line_while_seats_are_free() -> None:
    f = Floor({1: "1-8"})
    f.do(cmd.SetCapacity(capacity=Capacity(seats=9)))
    error = f.refuse(cmd.JoinAlternates(name="Ann Late"), NotAllowed, "name")
    assert error.reason == "alternates_not_full"


def test_a_dropped_alternate_leaves_the_line_refunded() -> None:
    f = _full()
    f.do(cmd.Register(name="Ann Late"), cmd.Register(name="Bob Later"))
    f.do(cmd.DropAlternate(alternate="A1"))
    assert _line(f) == ["A2"] and f.t.state.alternates.refunded == 1
    f.bust("T1S1")
    assert _called(f) == ["A2"]


def test_a_capacity_in_seats_and_tables_at_once_is_refused_naming_it() -> None:
    with pytest.raises(msgspec.ValidationError, match="seats or in tables"):
        msgspec.convert({"seats": 18, "tables": 2}, Capacity)
    with pytest.raises(msgspec.ValidationError, match=r"\$\.minutes"):
        msgspec.convert({"seats": 18, "minutes": 0}, Capacity)


def test_the_same_capacity_again_is_refused() -> None:
    f = _full()
    f.refuse(cmd.SetCapacity(capacity=Capacity(seats=18)), NotAllowed, "capacity")


def test_an_imported_log_replays_and_a_forged_seat_is_refused() -> None:
    f = _full()
    f.do(cmd.Register(name="Ann Late"), cmd.Register(name="Bob Later"))
    f.bust("T1S1")
    f.do(cmd.SeatAlternate(alternate="A1"))
    assert replay(f.log).state == f.t.state
    forged = [*f.log, AlternateSeated(alternate="A2", player="P9999")]
    with pytest.raises(InvalidEvent, match="not been called"):
        replay(forged)


def test_an_imported_log_calling_an_alternate_twice_or_out_of_turn_says_so() -> None:
    f = _full()
    f.do(cmd.Register(name="Ann Late"), cmd.Register(name="Bob Later"))
    f.bust("T1S1")
    assert _called(f) == ["A1"]
    twice = AlternatesCalled(alternates=("A1",), at=1.0, ends_at=301.0)
    with pytest.raises(InvalidEvent) as caught:
        replay([*f.log, twice])
    # Not "there is no alternate A1 in line": A1 is in line, called already.
    assert_said(caught.value.error, "alternate_called", {"alternate": "A1"})
    skipped = AlternateQueued(alternate="A9", name="Cy Walk", at=1.0)
    with pytest.raises(InvalidEvent) as caught:
        replay([*f.log, skipped])
    assert_said(
        caught.value.error,
        "not_as_recorded",
        {"name": "alternate", "value": "A9", "expected": "A3"},
    )


def test_a_tournament_file_sets_the_capacity(tmp_path: Path) -> None:
    shipped = config.tournaments()["club-night"]
    text = shipped.read_text().replace("# [capacity]\n# tables = 6 ", "[capacity]\ntables = 6 ")
    text = text.replace('rules = "tda-2024"', f'rules = "{config.rule_sets()["tda-2024"]}"')
    text = text.replace(
        'structure = "club-night-turbo"',
        f'structure = "{config.structures()["club-night-turbo"]}"',
    )
    path = tmp_path / "sold-out.toml"
    path.write_text(text)
    assert config.load_tournament(path).capacity == Capacity(tables=6)
    assert config.load_tournament(shipped).capacity is None
    path.write_text(text.replace("tables = 6", "tables = 6\nseats = 54"))
    with pytest.raises(ConfigError, match="seats or in tables"):
        config.load_tournament(path)


def _late_until_first_level() -> Floor:
    from floor.engine.rules import Structure

    structure = msgspec.convert(
        {
            "name": "s",
            "starting_stack": 1000,
            "chips": [25],
            "late_registration_until": 1,
            "levels": [
                {"type": "level", "small_blind": 25, "big_blind": 50, "minutes": 10},
                {"type": "level", "small_blind": 50, "big_blind": 100, "minutes": 10},
                {"type": "level", "small_blind": 75, "big_blind": 150, "minutes": 10},
            ],
        },
        Structure,
    )
    return Floor(FULL, structure=structure)


def test_at_the_close_of_late_registration_the_house_refunds_those_still_waiting() -> None:
    f = _late_until_first_level()
    f.do(cmd.SetCapacity(capacity=Capacity(seats=18, minutes=20, at_close="refund")))
    f.do(cmd.Register(name="Ann Late"), cmd.Register(name="Bob Later"), cmd.ClockStart())
    f.bust("T1S1")
    assert _called(f) == ["A1"]
    events = f.do(cmd.Tick(), now=600.0)  # level 1 is over: late registration closes
    assert AlternatesLeft(alternates=("A2",), refunded=True, why="closed", at=600.0) in events
    # The one called before the close keeps the seat held for her, and takes it.
    assert _line(f) == ["A1"]
    f.do(cmd.SeatAlternate(alternate="A1"), now=620.0)
    assert f.t.state.alternates.refunded == 1 and f.t.state.alternates.seated == 1
    f.refuse(cmd.Register(name="Cy Latest"), NotAllowed, "player")


def test_at_the_close_of_late_registration_those_in_line_are_seated_as_seats_open() -> None:
    f = _late_until_first_level()
    f.do(cmd.SetCapacity(capacity=Capacity(seats=18, at_close="seat")))
    f.do(cmd.Register(name="Ann Late"), cmd.ClockStart(), cmd.ClockLevel(to=2))
    assert _line(f) == ["A1"] and _called(f) == []  # still in line after the close
    f.bust("T1S1")
    assert _called(f) == ["A1"]
    seated = f.do(cmd.SeatAlternate(alternate="A1"))
    assert any(isinstance(e, PlayerSeated) for e in seated)
