"""What a worker process runs: a forecast prepared once, its runs played in chunks, summed up.

    prepared = prepare(day, what_if, corrections, settings, runs, seed)
    outcomes = play_runs(prepared, first, count)        # any chunk, in any process
    forecast = finish(prepared, outcomes, complete)

Run ``i`` of a forecast is drawn from ``seed`` and ``i`` alone, so a forecast is the same
however its runs are shared out, and a what-if played with the same seed as the current
forecast meets the same luck: the difference between the two is the change, not chance.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ..engine.rules import Level, Step, Structure
from . import history, whatif
from .dealers import DealerNeed, Ratio
from .model import (
    HORIZON_SECONDS,
    Assumptions,
    Corrections,
    Forecast,
    LevelRate,
    LiveDay,
    Settings,
    Source,
    WhatIf,
)
from .runs import HALF_HOUR, HOUR, MAX_INDIVIDUALS, Course, Outcome, play
from .summary import summarize

#: Hands under hand-for-hand come this much slower than at a table playing on its own.
HAND_FOR_HAND_PACE = 0.6
#: Before any history: the share of the field at the start still to come while late
#: registration is open, and how many hours of play that belief is worth.
LATE_SHARE_PRIOR = 0.1
LATE_PRIOR_HOURS = 0.5
#: A director's count of late entries is believed this firmly (a gamma shape).
LATE_DIRECTOR_SHAPE = 50.0
#: The share of bust-outs that enter again, before any history: a beta prior.
RE_ENTRY_PRIOR = (2.0, 6.0)


@dataclass(slots=True)
class Prepared:
    """A forecast ready to be played: the course of its runs and what it reports besides."""

    day: LiveDay
    course: Course
    what_if: WhatIf | None
    assumptions: Assumptions
    history: tuple[LevelRate, ...]
    runs: int
    seed: int
    dealers: DealerNeed
    #: The day is over (its end, or the winner): nothing is left to play.
    over: float | None


def run_seed(seed: int, i: int) -> int:
    return seed * 1_000_003 + i


def prepare(
    day: LiveDay,
    what_if: WhatIf | None,
    corrections: Corrections,
    settings: Settings,
    runs: int,
    seed: int,
) -> Prepared:
    """The course of the runs from ``day`` with ``what_if`` made (``whatif.check`` first)."""
    if what_if is not None:
        whatif.check(what_if, day)
    changed = whatif.apply(what_if, day, settings.closing_at)
    steps = changed.levels
    structure = day.structure
    seats = day.seats
    segs, pots_played = history.segments(day)
    n = max(1, day.players_left)
    tables = max(1, 1 if day.final_formed else day.tables_open)
    at_table = n / tables
    current = _level_at(steps, day.step)
    pressure_now = history.pot(current, min(seats, at_table)) * n / max(1, day.chips)
    mix_now = history.mixed(pots_played)
    belief = history.believe(segs, corrections, pressure_now, mix_now, at_table)

    seconds = [s.minutes * 60.0 for s in steps]
    pots = [history.pot(s, seats) if isinstance(s, Level) else 0.0 for s in steps]
    big_blinds = [
        float(s.big_blind) if isinstance(s, Level) else float(_level_at(steps, i).big_blind)
        for i, s in enumerate(steps)
    ]
    remaining = day.remaining if day.started else seconds[min(day.step, len(steps) - 1)]
    late_close = _late_close(structure, steps, day.step) if changed.late_open else day.step
    re_close = _re_close(day, steps, late_close)
    end_step = _end_step(steps, changed.last_level)
    late_shape, late_rate, late_expected, late_source = _late_belief(
        day, corrections, steps, late_close
    )
    busts_so_far = sum(s.busts for s in segs)
    if corrections.re_entry_share is not None:
        re_share, re_source = corrections.re_entry_share, "director"
    else:
        a, b = RE_ENTRY_PRIOR
        re_share = (a + day.re_entries) / (a + b + max(busts_so_far, day.re_entries))
        re_source = "history" if busts_so_far else "prior"
    if re_close <= day.step:
        re_share = 0.0
    average = day.chips / n
    shorts = sorted(float(c.stack) for c in day.counts if 0 < c.stack < average)
    payouts = list(day.payouts)
    course = Course(
        now=day.now,
        step=min(day.step, len(steps) - 1),
        remaining=remaining,
        seconds=seconds,
        pots=pots,
        big_blinds=big_blinds,
        late_close=late_close,
        re_close=re_close,
        end_step=end_step,
        end_share=day.flight.end_share if day.flight is not None else None,
        closing_at=changed.closing_at,
        horizon_at=day.now + HORIZON_SECONDS,
        payouts=payouts,
        seats=seats,
        fill=day.fill,
        final_table=day.final_table,
        tables_open=tables,
        final_formed=day.final_formed,
        players_left=day.players_left,
        entries=day.entries,
        chips=day.chips,
        start_stack=structure.starting_stack,
        individuals=shorts[:MAX_INDIVIDUALS],
        belief=belief,
        pots_played=pots_played,
        late_shape=late_shape,
        late_rate=late_rate,
        re_share=re_share,
        hand_for_hand=bool(payouts),
        hand_for_hand_pace=HAND_FOR_HAND_PACE,
        hand_for_hand_stops_clock=day.hand_for_hand_seconds == 0,
        money_at=day.money_at,
        hour0=math.floor(day.now / HOUR) * HOUR,
        half0=math.floor(day.now / HALF_HOUR) * HALF_HOUR,
    )
    assumptions = Assumptions(
        busts_per_table_hour=round(belief.mean_hazard(pressure_now, mix_now) * at_table, 2),
        rate_source=_source(belief.source),
        depth_exponent=round(belief.mean_exponent(), 2),
        average_bb=round(average / current.big_blind, 1) if current.big_blind else None,
        levels_observed=belief.levels_observed,
        busts_observed=belief.busts_observed,
        level_spread=round(belief.spread, 2),
        late_entries=round(late_expected, 1),
        late_source=late_source,
        re_entry_share=round(re_share, 3),
        re_entry_source=_source(re_source),
        hand_for_hand_pace=HAND_FOR_HAND_PACE,
        clock_paused=not day.running,
        counts_used=len(course.individuals),
    )
    over = day.day_ended_at if day.day_ended_at is not None else day.winner_at
    return Prepared(
        day=day,
        course=course,
        what_if=what_if,
        assumptions=assumptions,
        history=history.observed(segs, seats),
        runs=runs,
        seed=seed,
        dealers=Ratio(settings.dealers_per_table),
        over=over,
    )


def play_runs(p: Prepared, first: int, count: int) -> list[Outcome]:
    """Runs ``first`` to ``first + count - 1`` of the forecast."""
    if p.over is not None:
        return [_ended(p) for _ in range(count)]
    return [play(p.course, run_seed(p.seed, i)) for i in range(first, first + count)]


def finish(p: Prepared, outcomes: Sequence[Outcome], complete: bool = True) -> Forecast:
    """The forecast from the runs played."""
    day = p.day
    money, final, day_end, entries, places, breaking, dealers, players = summarize(
        p.course, outcomes, p.dealers
    )
    number, on_break = day.structure.level_played(min(day.step, len(day.structure.levels) - 1))
    return Forecast(
        tournament=day.tournament,
        made_at=day.now,
        version=day.version,
        step=day.step,
        level=number,
        on_break=on_break,
        runs=len(outcomes),
        seed=p.seed,
        what_if=p.what_if,
        assumptions=p.assumptions,
        players_left=day.players_left,
        entries=day.entries,
        money=money,
        final_table=final,
        day_end=day_end,
        entries_expected=entries,
        places_paid=places,
        tables_breaking=tuple(breaking),
        dealers=tuple(dealers),
        players=tuple(players),
        history=p.history,
        complete=complete,
    )


def _ended(p: Prepared) -> Outcome:
    day = p.day
    at = p.over if p.over is not None else day.now
    return Outcome(
        money_at=day.money_at,
        final_at=None,
        end_at=at,
        end_by="ended",
        end_players=day.players_left,
        end_tables=day.tables_open,
        entries_added=0,
        places=day.places_paid,
        breaks=[],
        tables=[day.tables_open],
        players=[day.players_left],
    )


def _source(value: str) -> Source:
    return "director" if value == "director" else "history" if value == "history" else "prior"


def _level_at(steps: Sequence[Step], i: int) -> Level:
    """The level played at step ``i``: at a break, the level after it (the next hands)."""
    i = min(max(i, 0), len(steps) - 1)
    for s in steps[i:]:
        if isinstance(s, Level):
            return s
    for s in reversed(steps[:i]):
        if isinstance(s, Level):
            return s
    raise ValueError("a structure has at least one level")


def _numbers(steps: Sequence[Step]) -> list[tuple[int, bool]]:
    """Each step's level number (a break: the level before it) and whether it is a break."""
    out = []
    number = 0
    for s in steps:
        if isinstance(s, Level):
            number += 1
            out.append((number, False))
        else:
            out.append((max(1, number), True))
    return out


def _late_close(structure: Structure, steps: Sequence[Step], step: int) -> int:
    """The first step at which late registration is closed (``windows.registration``)."""
    until = structure.late_registration_until
    if until is None:
        return len(steps)
    for i, (number, _) in enumerate(_numbers(steps)):
        if number > until:
            return max(i, step)
    return len(steps)


def _re_close(day: LiveDay, steps: Sequence[Step], late_close: int) -> int:
    """The first step at which re-entry is closed (``windows.re_entry_window``)."""
    step = day.step
    if day.re_entry is None:
        return step
    until = day.re_entry.until_level
    if until is None:
        return late_close
    for i, (number, _) in enumerate(_numbers(steps)):
        if number > until:
            return max(step, min(i, late_close))
    return late_close


def _end_step(steps: Sequence[Step], last_level: int | None) -> int | None:
    """The first step past the day's last level (``flights.day_over``)."""
    if last_level is None:
        return None
    for i, (number, after) in enumerate(_numbers(steps)):
        if number > last_level or (number == last_level and after):
            return i
    return len(steps)


def _late_belief(
    day: LiveDay, corrections: Corrections, steps: Sequence[Step], late_close: int
) -> tuple[float, float, float, Source]:
    """New entries per hour while late registration is open (a gamma: shape, rate), the
    entries expected, and whence the belief comes."""
    never = day.structure.late_registration_until is None
    # Closed, or no late registration set: nobody is expected (unless the director says).
    if late_close <= day.step or (never and corrections.late_entries is None):
        return 0.0, 0.0, 0.0, "prior"
    window = day.remaining if day.started else steps[day.step].minutes * 60.0
    window += sum(s.minutes * 60.0 for s in steps[day.step + 1 : late_close])
    hours = window / HOUR
    if hours <= 0:
        return 0.0, 0.0, 0.0, "prior"
    if corrections.late_entries is not None:
        if corrections.late_entries == 0:
            return 0.0, 0.0, 0.0, "director"
        mean = corrections.late_entries / hours
        expected = float(corrections.late_entries)
        return LATE_DIRECTOR_SHAPE, LATE_DIRECTOR_SHAPE / mean, expected, "director"
    levels = day.level_history
    start_entries = levels[0].entries if levels else day.entries
    played = (day.now - levels[0].at) / HOUR if levels else 0.0
    new = max(0, day.entries - start_entries - day.re_entries)
    total_window = played + hours
    prior_rate = LATE_SHARE_PRIOR * start_entries / total_window if total_window > 0 else 0.0
    shape = prior_rate * LATE_PRIOR_HOURS + new
    rate = LATE_PRIOR_HOURS + max(0.0, played)
    source: Source = "history" if played >= 0.25 else "prior"
    if shape <= 0:
        return 0.0, 0.0, 0.0, source
    return shape, rate, shape / rate * hours, source
