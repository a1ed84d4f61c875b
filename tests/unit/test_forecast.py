"""The day forecaster's model: percentiles, the bust-out rate believed from the field's own
history (and a prior before it), the runs, the what-ifs, the director's corrections, the
counted stacks, the dealers; and the lighter model's tables against the engine's own runs.
"""

from __future__ import annotations

import math

import msgspec
import pytest

from bench.forecasting.days import live
from floor.engine.flights import FlightRules
from floor.engine.state import Tournament
from floor.forecast import history, jobs, runs
from floor.forecast.dealers import Ratio
from floor.forecast.engine_check import replay
from floor.forecast.live import live_day
from floor.forecast.model import (
    CannotForecast,
    Corrections,
    Forecast,
    LiveDay,
    Range,
    Settings,
    StackCount,
    WhatIf,
)
from floor.forecast.summary import percentile, range_of, times
from floor.forecast.truth import Kept, checked, truth

RUNS = 120


def day_at(level: int, players: int = 300, **kw: object) -> tuple[Tournament, LiveDay]:
    t, now = live(players, level, **kw)  # type: ignore[arg-type]
    return t, live_day(t, now, 1)


def forecast(
    day: LiveDay,
    what_if: WhatIf | None = None,
    corrections: Corrections | None = None,
    settings: Settings | None = None,
    n: int = RUNS,
) -> Forecast:
    p = jobs.prepare(day, what_if, corrections or Corrections(), settings or Settings(), n, 7)
    return jobs.finish(p, jobs.play_runs(p, 0, n))


def p50(r: Range) -> float:
    assert r.p50 is not None
    return r.p50


# Percentiles -----------------------------------------------------------------------------------


def test_percentiles_are_nearest_rank_never_made_up_between_runs() -> None:
    values = [float(x) for x in range(1, 11)]
    assert [percentile(values, q) for q in (0.1, 0.5, 0.9)] == [1.0, 5.0, 9.0]
    assert range_of([3.0, 1.0, 2.0]) == Range(1.0, 2.0, 3.0)
    assert range_of([]) == Range(None, None, None)


def test_a_time_some_runs_never_reached_is_later_than_any() -> None:
    values: list[float | None] = [float(x) for x in range(1, 9)] + [None, None]
    r = times(values)
    assert r.p10 == 1.0 and r.p50 == 5.0
    assert r.p90 is None  # two runs in ten ended the day first: "not today" at the 90th


# The belief ------------------------------------------------------------------------------------


def test_before_any_history_the_prior_speaks() -> None:
    _, day = day_at(1)
    f = forecast(day)
    assert f.assumptions.rate_source == "prior"
    assert f.assumptions.busts_observed == 0  # a minute of the first level, nobody out
    assert f.money.at.p50 is not None


def test_a_field_that_busts_faster_is_believed_to_go_on_faster() -> None:
    _, slow_day = day_at(4, bust_share=0.02, seed=3)
    _, fast_day = day_at(4, bust_share=0.10, seed=3)
    slow, fast = forecast(slow_day), forecast(fast_day)
    assert slow.assumptions.rate_source == fast.assumptions.rate_source == "history"
    assert fast.assumptions.busts_per_table_hour > slow.assumptions.busts_per_table_hour
    assert p50(fast.money.at) < p50(slow.money.at)
    # The history as the director reads it: one row per level played, its bust-outs counted.
    assert [row.level for row in fast.history] == [1, 2, 3, 4]  # the fourth just begun
    assert sum(row.busts for row in fast.history) == fast.assumptions.busts_observed > 0


def test_the_belief_weighs_the_exponents_by_the_levels_played() -> None:
    _, day = day_at(4)
    segs, pots = history.segments(day)
    belief = history.believe(segs, Corrections(), 0.05, history.mixed(pots), 9.0)
    assert belief.cumulative[-1] > 0 and len(belief.cells) == len(belief.cumulative)
    assert belief.levels_observed == 4
    assert history.SPREAD_BOUNDS[0] <= belief.spread <= history.SPREAD_BOUNDS[1]
    # A fresh field is not yet mixed; a field carried from earlier days is.
    assert 0 < history.mixed(pots) < 1
    carried = msgspec.structs.replace(day, mixed=True)
    assert history.segments(carried)[1] == math.inf


# Runs -----------------------------------------------------------------------------------------


def test_a_run_is_drawn_from_its_seed_alone_however_the_runs_are_shared_out() -> None:
    _, day = day_at(3)
    p = jobs.prepare(day, None, Corrections(), Settings(), 40, 11)
    whole = jobs.play_runs(p, 0, 40)
    assert jobs.play_runs(p, 0, 20) + jobs.play_runs(p, 20, 20) == whole
    assert jobs.finish(p, whole) == jobs.finish(p, jobs.play_runs(p, 0, 40))
    assert len({o.end_at for o in whole}) > 1  # and the runs differ from each other


def test_the_runs_report_everything_asked_for() -> None:
    _, day = day_at(3, flight=FlightRules(last_level=12))
    f = forecast(day, settings=Settings(dealers_per_table=1.5))
    assert f.day_end.by == {"last_level": 1.0}
    assert f.day_end.players.p10 is not None and f.day_end.tables.p50 is not None
    assert f.players[0].p50 == day.players_left
    assert all(a.start < b.start for a, b in zip(f.players, f.players[1:], strict=False))
    # Dealers per half hour: the tables in play then, at 1.5 dealers a table.
    first = f.dealers[0]
    assert first.p50 == math.ceil(day.tables_open * 1.5)
    assert all(s.p90 >= s.p50 >= s.p10 for s in (*f.dealers, *f.tables_breaking))
    assert sum(s.p50 for s in f.tables_breaking) > 0
    assert f.entries_expected.p50 is not None


def test_a_director_s_rate_is_the_rate_used() -> None:
    _, day = day_at(4)
    own = forecast(day)
    faster = forecast(day, corrections=Corrections(busts_per_table_hour=12.0))
    assert faster.assumptions.rate_source == "director"
    assert faster.assumptions.busts_per_table_hour == 12.0
    assert p50(faster.money.at) < p50(own.money.at)


def test_the_late_entries_a_director_expects_are_the_entries_expected() -> None:
    _, day = day_at(3, late_entries=60)
    f = forecast(day, corrections=Corrections(late_entries=200, re_entry_share=0.0))
    assert f.assumptions.late_source == "director"
    assert 150 <= p50(f.entries_expected) <= 250
    none = forecast(day, corrections=Corrections(late_entries=0, re_entry_share=0.0))
    assert none.entries_expected == Range(0, 0, 0)


def test_counted_short_stacks_bust_sooner() -> None:
    _, day = day_at(4, seed=5)
    average = day.chips / day.players_left
    short = tuple(StackCount(int(average / 8), day.now) for _ in range(day.players_left // 3))
    counted = msgspec.structs.replace(day, counts=short)
    plain, known = forecast(day), forecast(counted)
    assert known.assumptions.counts_used == len(short)
    # Within the first hour (the counts stand until the next level), more are out.
    assert known.players[3].p50 < plain.players[3].p50


# What-ifs --------------------------------------------------------------------------------------


def test_shorter_levels_bring_the_money_sooner() -> None:
    _, day = day_at(4)
    assert p50(forecast(day, WhatIf(level_minutes=15)).money.at) < p50(forecast(day).money.at)


def test_a_level_more_ends_a_flight_s_day_a_level_later() -> None:
    _, day = day_at(3, flight=FlightRules(last_level=10))
    now, later = forecast(day), forecast(day, WhatIf(levels=2))
    # Levels 11 and 12 of the deepstack structure: 30 minutes each (the runs that reached
    # the bubble played it hand for hand, the clock stopped: their day ended later).
    assert now.day_end.at.at.p10 is not None and later.day_end.at.at.p10 is not None
    assert math.isclose(later.day_end.at.at.p10 - now.day_end.at.at.p10, 3600.0, abs_tol=1)


def test_repeating_the_level_slows_a_day_played_to_the_end() -> None:
    _, day = day_at(4)
    assert p50(forecast(day, WhatIf(levels=3)).money.at) > p50(forecast(day).money.at)


def test_late_registration_closed_now_expects_no_more_entries() -> None:
    _, day = day_at(3, late_entries=60)
    closed = forecast(day, WhatIf(close_late_registration=True))
    assert closed.entries_expected == Range(0, 0, 0)
    assert p50(forecast(day).entries_expected) > 0


def test_the_day_s_end_moved_ends_it_then() -> None:
    _, day = day_at(3)
    at = day.now + 3 * 3600
    f = forecast(day, WhatIf(day_end_at=at))
    assert f.day_end.by == {"closing": 1.0}
    assert f.day_end.at.at == Range(at, at, at)


@pytest.mark.parametrize(
    ("what_if", "field"),
    [
        (WhatIf(), "what_if"),
        (WhatIf(levels=1, level_minutes=20), "what_if"),
        (WhatIf(levels=0), "what_if.levels"),
        (WhatIf(levels=-30), "what_if.levels"),
        (WhatIf(close_late_registration=False), "what_if.close_late_registration"),
        (WhatIf(day_end_at=1.0), "what_if.day_end_at"),
    ],
)
def test_a_what_if_the_day_cannot_take_is_refused_naming_the_field(
    what_if: WhatIf, field: str
) -> None:
    _, day = day_at(2, players=60)
    with pytest.raises(CannotForecast) as refused:
        jobs.prepare(day, what_if, Corrections(), Settings(), 10, 1)
    assert refused.value.field == field


def test_a_level_of_zero_minutes_is_refused_naming_the_field() -> None:
    with pytest.raises(msgspec.ValidationError, match=r"level_minutes"):
        msgspec.json.decode(b'{"level_minutes": 0}', type=WhatIf)


# Dealers -----------------------------------------------------------------------------------


def test_dealers_are_the_tables_at_the_ratio_rounded_up() -> None:
    assert Ratio(1.25).needed(4) == 5
    assert Ratio(1.25).needed(5) == 7
    assert Ratio(1.1).needed(10) == 11
    assert Ratio(1.0).needed(0) == 0


# The truth ---------------------------------------------------------------------------------------


def test_each_kept_forecast_is_set_beside_what_happened() -> None:
    _, day = day_at(3)
    f = forecast(day)
    kept = msgspec.json.decode(msgspec.json.encode(f), type=Kept)
    money = p50(f.money.at)
    happened = msgspec.structs.replace(day, money_at=money, day_ended_at=money + 600)
    rows = checked([kept], truth(happened))
    assert len(rows) == 1
    assert rows[0].money.actual == money and rows[0].money.inside is True
    assert rows[0].day_end.actual == money + 600
    far = msgspec.structs.replace(day, money_at=money + 10 * 3600)
    assert checked([kept], truth(far))[0].money.inside is False


# The lighter model against the engine --------------------------------------------------------


@pytest.mark.parametrize(
    "setting",
    [
        {"seats": 9},
        {"seats": 10},
        {"seats": 6},
    ],
    ids=lambda s: f"{s['seats']}-max",
)
def test_the_runs_tables_are_the_engine_s_after_every_bust_out_and_entry(
    setting: dict[str, int],
) -> None:
    t, day = day_at(3, players=150, late_entries=30, **setting)
    p = jobs.prepare(day, None, Corrections(re_entry_share=0.3), Settings(), 4, 2)
    compared = 0
    for i in range(3):
        trace: runs.Trace = []
        runs.play(p.course, jobs.run_seed(2, i), trace)
        steps = replay(t, trace, i)
        assert len(steps) == len(trace)  # the engine took every bust-out and entry
        disagree = [s for s in steps if not s.agrees]
        assert disagree == [], disagree[:3]
        assert any(s.tables == 1 for s in steps)  # played down to the final table
        compared += len(steps)
    assert compared > 300


def test_the_forecasters_workers_leave_a_core_to_the_server() -> None:
    from floor.server.forecast_pool import MAX_WORKERS, workers_for

    assert workers_for(0, cores=1) == 1
    assert workers_for(0, cores=2) == 1
    assert workers_for(0, cores=4) == 3
    assert workers_for(0, cores=64) == MAX_WORKERS
    assert workers_for(3, cores=2) == 3  # the setting, as the venue asked
