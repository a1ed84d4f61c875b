"""The clock (FLOOR-RULES 7 and 11): levels and breaks, pause and resume, time added or removed,
catching up after downtime without drift, screens' views, and time called on a player."""

from __future__ import annotations

from floor.engine import clock
from floor.engine import commands as cmd
from floor.engine.errors import NotAllowed
from floor.engine.events import (
    ClockPaused,
    ClockResumed,
    ClockStarted,
    HandStarted,
    LevelChanged,
    TimeCalled,
    TimeCallEnded,
)
from floor.engine.rules import Break, Level, Structure
from tests.unit.builders import Floor

MIN = 60.0

STRUCTURE = Structure(
    name="test",
    starting_stack=20_000,
    chips=(25, 100, 500),
    levels=(
        Level(small_blind=25, big_blind=50, minutes=20),
        Level(small_blind=50, big_blind=100, minutes=20),
        Break(minutes=15, color_up=(25,), name="colour-up"),
        Level(small_blind=100, big_blind=200, ante=200, big_blind_ante=True, minutes=20),
        Level(small_blind=200, big_blind=400, ante=400, big_blind_ante=True, minutes=30),
    ),
)


def started(at: float = 0.0, structure: Structure = STRUCTURE, **settings: object) -> Floor:
    floor = Floor({1: "1-9 pos 1/2/3"}, structure=structure, **settings)
    floor.do(cmd.ClockStart(), now=at)
    return floor


# --- start, pause, resume ---------------------------------------------------------------------


def test_starting_the_clock_runs_the_first_level_for_its_minutes() -> None:
    floor = Floor({1: "1-9 pos 1/2/3"}, structure=STRUCTURE)

    events = floor.do(cmd.ClockStart(), now=1000.0)

    assert events == [ClockStarted(at=1000.0, level=0, ends_at=1000.0 + 20 * MIN)]
    c = floor.t.state.clock
    assert (c.started, c.running, c.level) == (True, True, 0)
    assert clock.remaining(c, 1300.0) == 900.0


def test_the_clock_cannot_start_twice_or_without_a_structure() -> None:
    floor = started()
    refused = floor.refuse(cmd.ClockStart(), NotAllowed, None)
    assert "already started" in refused.message

    refused = Floor({1: "1-9 pos 1/2/3"}).refuse(cmd.ClockStart(), NotAllowed, None)
    assert "no structure" in refused.message


def test_pausing_keeps_the_time_left_and_resuming_counts_it_down_again() -> None:
    floor = started(at=0.0)

    assert floor.do(cmd.ClockPause(), now=300.0) == [ClockPaused(at=300.0, remaining=900.0)]
    assert clock.remaining(floor.t.state.clock, 5000.0) == 900.0  # a paused clock stands

    assert floor.do(cmd.ClockResume(), now=5000.0) == [ClockResumed(at=5000.0, ends_at=5900.0)]
    assert clock.remaining(floor.t.state.clock, 5600.0) == 300.0


def test_pausing_a_paused_clock_and_resuming_a_running_one_are_refused() -> None:
    floor = started()
    floor.refuse(cmd.ClockResume(), NotAllowed, None)
    floor.do(cmd.ClockPause(), now=10.0)
    floor.refuse(cmd.ClockPause(), NotAllowed, None)


def test_pausing_after_a_level_ran_out_unticked_keeps_the_time_left_in_the_new_level() -> None:
    floor = started(at=0.0)

    events = floor.do(cmd.ClockPause(), now=1300.0)  # level 1 ended at 1200

    assert events[0] == LevelChanged(at=1200.0, level=1, ends_at=2400.0, remaining=1200.0)
    assert floor.t.state.clock.level == 1
    assert floor.t.state.clock.remaining == 1100.0


# --- adding and removing time -----------------------------------------------------------------


def test_time_added_to_a_running_level_moves_its_end() -> None:
    floor = started(at=0.0)

    floor.do(cmd.ClockAdjust(seconds=120), now=300.0)

    c = floor.t.state.clock
    assert (c.ends_at, c.remaining) == (1320.0, 1020.0)


def test_time_removed_never_goes_below_zero() -> None:
    floor = started(at=0.0)

    floor.do(cmd.ClockAdjust(seconds=-5000), now=300.0)

    assert floor.t.state.clock.ends_at == 300.0
    assert floor.t.state.clock.remaining == 0.0


def test_time_added_to_a_paused_level_waits_for_the_resume() -> None:
    floor = started(at=0.0)
    floor.do(cmd.ClockPause(), now=300.0)

    floor.do(cmd.ClockAdjust(seconds=60), now=400.0)

    c = floor.t.state.clock
    assert (c.running, c.ends_at, c.remaining) == (False, None, 960.0)


def test_time_added_after_a_level_ran_out_unticked_goes_to_the_new_level() -> None:
    floor = started(at=0.0)
    floor.now = 1300.0  # level 1 ended at 1200 and no tick has written it yet

    floor.do(cmd.ClockAdjust(seconds=60))

    clock = floor.t.state.clock
    assert clock.level == 1
    assert clock.ends_at == 2400.0 + 60.0


# --- next and previous level ------------------------------------------------------------------


def test_the_director_goes_to_the_next_and_previous_level_each_with_its_full_time() -> None:
    floor = started(at=0.0)

    floor.do(cmd.ClockLevel(step=1), now=300.0)
    c = floor.t.state.clock
    assert (c.level, c.ends_at) == (1, 300.0 + 20 * MIN)

    events = floor.do(cmd.ClockLevel(step=-1), now=600.0)
    assert events == [
        LevelChanged(at=600.0, level=0, ends_at=600.0 + 20 * MIN, remaining=20 * MIN, by="director")
    ]


def test_going_to_a_level_while_paused_keeps_the_clock_paused() -> None:
    floor = started(at=0.0)
    floor.do(cmd.ClockPause(), now=100.0)

    floor.do(cmd.ClockLevel(to=3), now=200.0)

    c = floor.t.state.clock
    assert (c.level, c.running, c.ends_at, c.remaining) == (3, False, None, 20 * MIN)


def test_there_is_no_level_before_the_first_or_after_the_last() -> None:
    floor = started()

    before = floor.refuse(cmd.ClockLevel(step=-1), NotAllowed, "step")
    after = floor.refuse(cmd.ClockLevel(to=5), NotAllowed, "to")

    assert "there is no step -1" in before.message
    assert "steps 0 to 4" in after.message


def test_going_back_from_the_first_level_names_the_step_field() -> None:
    started().refuse(cmd.ClockLevel(step=-1), NotAllowed, "step")


def test_a_level_change_needs_exactly_one_of_step_and_to() -> None:
    floor = started()

    floor.refuse(cmd.ClockLevel(), NotAllowed, "step")
    floor.refuse(cmd.ClockLevel(step=1, to=2), NotAllowed, "step")


# --- catching up: due level changes -----------------------------------------------------------


def test_after_downtime_every_due_level_change_is_written_timed_from_the_previous_end() -> None:
    floor = started(at=0.0)

    events = floor.do(cmd.Tick(), now=3400.0)

    assert events == [
        LevelChanged(at=1200.0, level=1, ends_at=2400.0, remaining=1200.0),
        LevelChanged(at=2400.0, level=2, ends_at=3300.0, remaining=900.0),
        LevelChanged(at=3300.0, level=3, ends_at=4500.0, remaining=1200.0),
    ]
    assert floor.t.state.clock.level == 3
    assert floor.do(cmd.Tick(), now=3400.0) == []


def test_ticking_exactly_at_each_end_gives_the_same_schedule_as_catching_up() -> None:
    ticked = started(at=0.0)
    for now in (1200.0, 2400.0, 3300.0):
        ticked.do(cmd.Tick(), now=now)
    caught_up = started(at=0.0)
    caught_up.do(cmd.Tick(), now=3400.0)

    assert ticked.t.state.clock == caught_up.t.state.clock
    assert ticked.t.state.clock.ends_at == 4500.0  # no drift


def test_the_last_level_never_ends() -> None:
    floor = started(at=0.0)

    floor.do(cmd.Tick(), now=1_000_000.0)

    assert floor.t.state.clock.level == 4
    assert floor.do(cmd.Tick(), now=2_000_000.0) == []
    assert floor.t.state.clock.level == 4


def test_a_hand_records_the_level_it_was_dealt_at() -> None:
    floor = started(at=0.0)
    (first,) = floor.hand(1)
    floor.do(cmd.Tick(), now=1200.0)

    (second,) = floor.hand(1)

    assert isinstance(first, HandStarted)
    assert isinstance(second, HandStarted)
    assert (first.level, second.level) == (0, 1)


def test_a_table_plays_its_hand_at_the_level_it_began_until_its_next_hand() -> None:
    floor = started(at=0.0)
    floor.hand(1)
    table = floor.t.state.tables[1]

    floor.do(cmd.Tick(), now=1200.0)  # the level goes up mid-hand
    during = table.hand_level
    floor.hand(1)

    assert (during, floor.t.state.clock.level) == (0, 1)
    assert table.hand_level == 1


# --- what screens show ------------------------------------------------------------------------


def test_a_colour_up_break_shows_the_denominations_leaving_play() -> None:
    view = clock.level_view(STRUCTURE, 2)

    assert (view.kind, view.number, view.minutes, view.color_up) == ("break", None, 15, (25,))
    assert STRUCTURE.chips_in_play(2) == (100, 500)


def test_a_level_view_numbers_levels_without_counting_breaks() -> None:
    view = clock.level_view(STRUCTURE, 3)

    assert (view.kind, view.number) == ("level", 3)
    assert (view.small_blind, view.big_blind, view.ante, view.big_blind_ante) == (
        100,
        200,
        200,
        True,
    )


def test_the_seconds_to_the_next_break_count_the_levels_before_it() -> None:
    floor = started(at=0.0)
    s = floor.t.state

    assert clock.seconds_to_break(s, 600.0) == 600.0 + 20 * MIN
    floor.do(cmd.ClockPause(), now=600.0)
    assert clock.seconds_to_break(s, 9999.0) == 600.0 + 20 * MIN  # paused: it stands
    floor.do(cmd.ClockLevel(to=2), now=700.0)
    assert clock.seconds_to_break(s, 700.0) == 0.0  # on the break
    floor.do(cmd.ClockLevel(to=3), now=800.0)
    assert clock.seconds_to_break(s, 800.0) is None  # no break ahead


def test_before_the_start_the_clock_shows_the_first_level_in_full() -> None:
    floor = Floor({1: "1-9 pos 1/2/3"}, structure=STRUCTURE)
    s = floor.t.state

    assert clock.remaining(s.clock, 0.0) == 20 * MIN
    assert clock.seconds_to_break(s, 0.0) == 40 * MIN


# --- mixed games ------------------------------------------------------------------------------

MIXED = Structure(
    name="horse",
    starting_stack=20_000,
    chips=(25, 100),
    levels=(
        Level(small_blind=25, big_blind=50, minutes=20, game="holdem"),
        Level(small_blind=25, big_blind=50, bring_in=25, minutes=20, game="stud"),
        Level(small_blind=50, big_blind=100, minutes=20, game="omaha"),
    ),
)


def test_a_level_s_game_becomes_the_current_game_of_a_mixed_event() -> None:
    floor = started(at=0.0, structure=MIXED, game="mixed")
    assert floor.t.state.current_game == "holdem"

    floor.do(cmd.Tick(), now=1200.0)
    assert floor.t.state.current_game == "stud"
    assert floor.next_big_blind(1) is None

    floor.do(cmd.ClockLevel(to=2), now=1300.0)
    assert floor.t.state.current_game == "omaha"
    assert floor.next_big_blind(1) == "T1S4"


def test_a_level_s_game_does_not_change_a_single_game_event() -> None:
    floor = started(at=0.0, structure=MIXED)

    floor.do(cmd.Tick(), now=1200.0)

    assert floor.t.state.current_game == "holdem"


# --- time called on a player ------------------------------------------------------------------


def test_a_time_call_gives_a_minute_and_a_ten_second_count_then_the_tick_kills_the_hand() -> None:
    floor = started(at=0.0)

    (called,) = floor.do(cmd.CallTime(table=1, seat=3), now=100.0)
    assert called == TimeCalled(
        table=1, seat=3, player="T1S3", at=100.0, ends_at=170.0, count_from=160.0
    )
    assert floor.do(cmd.Tick(), now=169.9) == []

    events = floor.do(cmd.Tick(), now=175.0)

    assert events == [TimeCallEnded(table=1, seat=3, at=170.0, outcome="dead")]
    assert floor.t.state.time_calls == []


def test_a_player_who_acts_in_time_ends_the_time_call() -> None:
    floor = started(at=0.0)
    floor.do(cmd.CallTime(table=1, seat=3, seconds=30, count=5), now=100.0)

    floor.do(cmd.EndTimeCall(table=1, seat=3), now=120.0)

    assert floor.t.state.time_calls == []
    assert floor.do(cmd.Tick(), now=200.0) == []
    floor.refuse(cmd.EndTimeCall(table=1, seat=3), NotAllowed, "seat")


def test_the_time_a_call_gives_is_the_houses_setting_unless_the_floor_gives_another() -> None:
    # TDA 2024 rule 29 gives a set time then a count; a house sets its own in the rules.
    floor = started(at=0.0, time_call_seconds=30, time_call_count=5)

    (called,) = floor.do(cmd.CallTime(table=1, seat=3), now=100.0)
    (shorter,) = floor.do(cmd.CallTime(table=1, seat=4, seconds=20, count=10), now=100.0)

    assert (called.count_from, called.ends_at) == (130.0, 135.0)
    assert (shorter.count_from, shorter.ends_at) == (120.0, 130.0)


def test_the_shipped_rule_sets_give_their_rulebooks_time_call() -> None:
    from floor import config

    # TDA 2024 rule 29: up to 25 seconds, then a 5-second count; PFP 24 and TDA 2011: a minute.
    given = {
        n: (config.resolve_rules(n).time_call_seconds, config.resolve_rules(n).time_call_count)
        for n in config.rule_sets()
    }
    assert given == {n: (25, 5) if n.startswith("tda-2024") else (60, 10) for n in given}
