"""One run of the rest of the day, on the lighter model.

A run plays time forward from the live state: players bust out at the rate the belief draws
(``history``), new players come while late registration is open and busted ones enter again
while re-entry is, and the clock goes through its levels and breaks (nobody busts at a
break). The tables follow the rules the engine plays by, counted rather than seated: a table
breaks as soon as the others can seat everybody at the break fill (``planner.next_to_break``),
the final table forms when the players left fit it, and a new table opens when every seat is
taken. ``engine_check`` plays the same bust-outs and entries on the engine and finds the same
tables.

The stacks: counted stacks of the short-stacked (fresh counts: ``live``) bust at their own
rate, ``k * (pot / stack) ** b``, until the next level makes the counts old; everybody else is
at the average of the chips the counted stacks leave. At the bubble hand-for-hand slows the
hands and (with ``hand_for_hand_seconds = 0``) stops the clock.

Everything a run finds is kept in an ``Outcome``, plain lists and numbers: ``summary`` turns
hundreds of them into percentiles.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from .history import HANDS_PER_HOUR, RateBelief, mixed

HOUR = 3600.0
HALF_HOUR = 1800.0
#: The players-left line for the chart: a point every this many seconds.
GRID = 600.0
#: Counted stacks that bust at their own rate: the shortest this many at most.
MAX_INDIVIDUALS = 400
#: Pots played past which the field counts as mixed for good (``mixed`` is 1 to 1e-9).
MIXED = 50.0


@dataclass(slots=True)
class Course:
    """Everything a run needs, worked out once per forecast (``jobs.prepare``)."""

    now: float
    step: int
    remaining: float
    #: Per step of the structure: its length and the pot of a hand at a full table (0: a
    #: break), and its big blind.
    seconds: list[float]
    pots: list[float]
    big_blinds: list[float]
    #: The first step at which late registration (re-entry) is closed: ``step`` when closed
    #: now, ``len(seconds)`` when it never closes.
    late_close: int
    re_close: int
    #: The first step past the day's last level (None: no last level).
    end_step: int | None
    end_share: float | None
    closing_at: float | None
    horizon_at: float
    #: The payout table: (entries from, places paid), by entries ascending.
    payouts: list[tuple[int, int]]
    seats: int
    fill: int
    final_table: int
    tables_open: int
    final_formed: bool
    players_left: int
    entries: int
    chips: int
    start_stack: int
    individuals: list[float]
    belief: RateBelief
    #: The pots played so far, each as its share of the average stack (``history.mixed``).
    pots_played: float
    #: New entries per hour while late registration is open: a gamma (shape, rate).
    late_shape: float
    late_rate: float
    re_share: float
    hand_for_hand: bool
    hand_for_hand_pace: float
    hand_for_hand_stops_clock: bool
    money_at: float | None
    #: Where the slots of the outcome start (the hour, the half hour, the chart's grid).
    hour0: float
    half0: float


@dataclass(slots=True)
class Outcome:
    """What one run found."""

    money_at: float | None
    final_at: float | None
    end_at: float
    end_by: str
    end_players: int
    end_tables: int
    entries_added: int
    places: int
    #: Tables broken in each hour from ``hour0``, the most tables in play in each half hour
    #: from ``half0``, players left every ``GRID`` seconds from the start; up to the end.
    breaks: list[int]
    tables: list[int]
    players: list[int]


def places_for(payouts: list[tuple[int, int]], entries: int) -> int:
    places = 0
    for threshold, paid in payouts:
        if threshold <= entries:
            places = paid
        else:
            break
    return places


#: A run's bust-outs and entries as they came, for ``engine_check``: (what, when, players
#: left, tables in play, the final table formed) after each.
Trace = list[tuple[str, float, int, int, bool]]


def play(c: Course, seed: int, trace: Trace | None = None) -> Outcome:
    """One run of the rest of the day from ``c``, drawn from ``seed`` (its bust-outs and
    entries appended to ``trace`` when one is given)."""
    rng = random.Random(seed)
    rand = rng.random
    expo = rng.expovariate
    belief = c.belief
    b, k, h0, scale = belief.draw(rng)
    # Per second from here on.
    k *= scale / HOUR
    h0 *= scale / HOUR
    spread = belief.spread
    late_per_second = (
        rng.gammavariate(c.late_shape, 1.0 / c.late_rate) / HOUR if c.late_rate > 0 else 0.0
    )
    pots_per_second = HANDS_PER_HOUR / HOUR
    m = c.pots_played
    mix = mixed(m)

    seconds = c.seconds
    pots = c.pots
    last_step = len(seconds) - 1
    step = c.step
    t = c.now
    step_end = t + c.remaining
    factor = math.exp(rng.gauss(0.0, spread))
    pot = pots[step]

    n = c.players_left
    entries = c.entries
    chips = c.chips
    start_stack = c.start_stack
    individuals = list(c.individuals)
    pool_n = n - len(individuals)
    pool_c = float(chips) - sum(individuals)
    if pool_n > 0 and pool_c < pool_n:
        pool_c = float(pool_n)  # counts that add up to more than the chips in play
    h_ind = _individual(individuals, factor, h0, k, pot, b, mix)

    seats = c.seats
    fill = c.fill
    final_seats = c.final_table
    tables = 1 if c.final_formed else c.tables_open
    final = c.final_formed
    #: When the field came to one table: the final table's forming, or the last break.
    final_at: float | None = None if tables > 1 else c.now
    money_at = c.money_at
    places = places_for(c.payouts, entries)
    h4h = False
    pace = c.hand_for_hand_pace
    entries_added = 0

    breaks: list[int] = []
    half_tables: list[int] = []
    half_max = tables
    half_end = c.half0 + HALF_HOUR
    players: list[int] = []
    grid_next = c.now

    next_entry = (
        t + expo(late_per_second) if late_per_second > 0 and step < c.late_close else math.inf
    )
    closing = c.closing_at if c.closing_at is not None else math.inf
    horizon = c.horizon_at
    end_by = "horizon"

    while True:
        pressure = pot * pool_n / pool_c if pot > 0 and pool_c > 0 else 0.0
        if pot > 0:
            h = factor * pool_n * (h0 + k * pressure**b * mix) + h_ind
            if h4h:
                h *= pace
        else:
            h = 0.0
        stops = h4h and c.hand_for_hand_stops_clock
        boundary = (
            min(next_entry, closing, horizon)
            if stops
            else min(step_end, next_entry, closing, horizon)
        )
        wait = expo(h) if h > 0 else math.inf
        now = t + wait if t + wait < boundary else boundary
        # The time passed: the chart's points and the half hours it crossed, the pots played.
        while grid_next <= now:
            players.append(n)
            grid_next += GRID
        while half_end <= now:
            half_tables.append(half_max)
            half_max = tables
            half_end += HALF_HOUR
        if stops:
            step_end += now - t
        if pressure > 0 and m < MIXED:
            m += pots_per_second * pressure * (now - t)
            mix = mixed(m)
        t = now
        if now < boundary:
            # A bust-out.
            if h_ind > 0 and rand() * h < h_ind * (pace if h4h else 1.0):
                i = _pick_individual(individuals, factor, h0, k, pot, b, mix, rand() * h_ind)
                x = individuals.pop(i)
                h_ind = max(0.0, h_ind - factor * (h0 + k * (pot / x) ** b * mix))
                pool_c += x  # the busted stack goes to somebody at the average
            else:
                pool_n -= 1
            n -= 1
            if not final:
                if n <= final_seats and tables > 1:
                    final = True
                    final_at = t
                    _add(breaks, int((t - c.hour0) // HOUR), tables - 1)
                    tables = 1
                else:
                    while tables > 1 and n <= (tables - 1) * fill:
                        tables -= 1
                        _add(breaks, int((t - c.hour0) // HOUR), 1)
                    if tables == 1 and final_at is None:
                        # Broken down to one table (ten left at ten-seat tables, a final
                        # of nine): the final table, though the engine forms none.
                        final_at = t
            if money_at is None and places and entries > places:
                if n <= places:
                    money_at = t
                    h4h = False
                elif c.hand_for_hand and n == places + 1 and tables > 1:
                    h4h = True
            if trace is not None:
                trace.append(("bust", t, n, tables, final))
            if n <= 1:
                end_by = "winner"
                break
            if c.end_share is not None and n <= math.floor(entries * c.end_share):
                end_by = "field_share"
                break
            if step < c.re_close and rand() < c.re_share:
                # The busted player enters again.
                entries += 1
                entries_added += 1
                n += 1
                pool_n += 1
                pool_c += start_stack
                chips += start_stack
                places = places_for(c.payouts, entries)
                if not final and n > tables * seats:
                    tables += 1
                if trace is not None:
                    trace.append(("reentry", t, n, tables, final))
            if tables > half_max:
                half_max = tables
            continue
        if now >= horizon:
            end_by = "horizon"
            break
        if now >= closing:
            end_by = "closing"
            break
        if now >= next_entry:
            entries += 1
            entries_added += 1
            n += 1
            pool_n += 1
            pool_c += start_stack
            chips += start_stack
            places = places_for(c.payouts, entries)
            if not final and n > tables * seats:
                tables += 1
                if tables > half_max:
                    half_max = tables
            if trace is not None:
                trace.append(("entry", t, n, tables, final))
            next_entry = t + expo(late_per_second) if step < c.late_close else math.inf
            continue
        # The level ends.
        if step >= last_step:
            step_end = math.inf  # the last level never ends
            continue
        step += 1
        if c.end_step is not None and step >= c.end_step:
            end_by = "last_level"
            break
        step_end += seconds[step]
        pot = pots[step]
        factor = math.exp(rng.gauss(0.0, spread))
        # A level change makes every count old: the counted stacks join the average.
        if individuals:
            pool_n += len(individuals)
            pool_c += sum(individuals)
            individuals.clear()
        h_ind = 0.0
        if step >= c.late_close:
            next_entry = math.inf

    half_tables.append(half_max)
    players.append(n)
    return Outcome(
        money_at=money_at,
        final_at=final_at,
        end_at=t,
        end_by=end_by,
        end_players=n,
        end_tables=tables,
        entries_added=entries_added,
        places=places,
        breaks=breaks,
        tables=half_tables,
        players=players,
    )


def _individual(
    individuals: list[float], factor: float, h0: float, k: float, pot: float, b: float, mix: float
) -> float:
    if pot <= 0:
        return 0.0
    return float(sum(factor * (h0 + k * (pot / x) ** b * mix) for x in individuals))


def _add(counts: list[int], index: int, n: int) -> None:
    if index < 0:
        index = 0
    while len(counts) <= index:
        counts.append(0)
    counts[index] += n


def _pick_individual(
    individuals: list[float],
    factor: float,
    h0: float,
    k: float,
    pot: float,
    b: float,
    mix: float,
    u: float,
) -> int:
    for i, x in enumerate(individuals):
        u -= factor * (h0 + k * (pot / x) ** b * mix)
        if u < 0:
            return i
    return len(individuals) - 1
