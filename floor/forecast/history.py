"""The bust-out rate: what the field has shown so far, and what to believe about the rest.

The model, stated once. A player busts out at a rate (per hour of play)

    rate per player = h0 + k * pressure ** b * mixed

- ``pressure`` is a hand's pot (blinds, antes, a bring-in) over the average stack: the
  shorter the stacks against the blinds, the more often somebody's whole stack is in;
- ``mixed`` says how far the stacks have spread from the equal stacks everybody started with:
  ``1 - exp(-M / MIX)``, where ``M`` counts the pots played so far, each as the share of the
  average stack it was (a field that has played its average stack over a few times is mixed:
  short stacks and big ones, and the short ones bust at the rate the pressure says; a fresh
  field busts far less at the same blinds). A field carried from earlier days starts mixed;
- ``h0`` is the bust-outs that come whatever the blinds (a big hand against a bigger one).

``b``, ``k`` and ``h0`` are not known. They are believed on a grid: a prior (``b`` mostly
between 1 and 1.5; ``k`` around ``HAZARD_REF`` bust-outs per player per hour at a pot of
``PRESSURE_REF`` of the average, within a factor of three or so; ``h0`` small) weighed by how
well each explains the bust-outs counted in every level played so far (a Poisson count over
that level's exposure). Each run draws its own ``b``, ``k`` and ``h0`` from the belief; and from
level to level the rate strays by a log-normal factor (``level_spread``), as some levels play
faster than others beyond chance, by a prior and by how much the field's own levels did.

Before any history the prior alone speaks (``rate_source = "prior"``). The director may say the
rate instead (bust-outs per table per hour now): each run's rate is scaled to it, and the
belief still shapes the levels after.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

from ..engine.rules import Break, Level
from .model import Corrections, LevelRate, LiveDay

#: The prior: bust-outs per player per hour of a mixed field where a hand's pot is this
#: share of the average stack (about 4.5 per nine-handed table at 50 big blinds with a
#: big-blind ante), and its spread (a log-normal sigma: a factor of about three either way).
PRESSURE_REF = 0.05
HAZARD_REF = 0.5
K_PRIOR_SIGMA = 1.1
EXPONENTS = (0.75, 1.0, 1.25, 1.5, 1.75, 2.0)
EXPONENT_PRIOR = (0.1, 0.2, 0.25, 0.2, 0.15, 0.1)
#: Bust-outs per player per hour whatever the blinds, and how likely each is.
FLOORS = (0.0, 0.03, 0.08, 0.16)
FLOOR_PRIOR = (0.3, 0.3, 0.25, 0.15)
#: The grid of ``k`` around each exponent's prior mean: this many points, this far either
#: way (in natural logarithms).
K_POINTS = 32
K_SPAN = 3.0
#: Pots a table plays in an hour, and the pots (each as its share of the average stack) that
#: spread the stacks: after ``MIX`` the field is two-thirds mixed.
HANDS_PER_HOUR = 30.0
MIX = 2.0
#: The level-to-level spread before any history, the weight of that prior (in levels), and
#: the bounds it is kept in.
SPREAD_PRIOR = 0.25
SPREAD_PRIOR_LEVELS = 4.0
SPREAD_BOUNDS = (0.12, 0.6)


def pot(step: Level, at_table: float) -> float:
    """What a hand puts in before anybody acts, at a table of ``at_table`` players."""
    antes = step.ante if step.big_blind_ante else step.ante * at_table
    return step.small_blind + step.big_blind + antes + step.bring_in


def mixed(m: float) -> float:
    return 1.0 - math.exp(-m / MIX)


@dataclass(slots=True)
class Segment:
    """A stretch of one step of the clock played: its bust-outs, the player-hours, and for
    each exponent the exposure (players x pressure**b x mixed x hours) it gave them."""

    step: int
    level: int
    hours: float
    busts: int
    players: float  # the average players left over it
    average_bb: float
    player_hours: float = 0.0
    exposure: list[float] = field(default_factory=list)


def segments(day: LiveDay) -> tuple[list[Segment], float]:
    """The levels played so far (breaks left out: nobody busts there), from the histories;
    and the pots played so far (``M``, for ``mixed``)."""
    structure = day.structure
    levels = day.level_history
    m = math.inf if day.mixed else 0.0
    if not levels:
        return [], m
    start_stack = structure.starting_stack
    points = sorted((p for p in day.field_history if p.at > 0), key=lambda p: p.at)
    ends = [p.at for p in levels[1:]]
    stop = min(x for x in (day.now, day.day_ended_at, day.winner_at) if x is not None and x > 0)
    ends.append(max(stop, levels[-1].at))
    out: list[Segment] = []
    i = 0
    for point, end in zip(levels, ends, strict=True):
        while i < len(points) and points[i].at <= point.at:
            i += 1
        left = point.players_left
        step = point.level
        if step >= len(structure.levels) or end <= point.at:
            continue
        played = structure.levels[step]
        if isinstance(played, Break):
            while i < len(points) and points[i].at <= end:
                i += 1
            continue
        entries = point.entries
        at = point.at
        busts = 0
        pieces: list[tuple[float, int, int]] = []
        while i < len(points) and points[i].at <= end:
            p = points[i]
            pieces.append((p.at - at, left, entries))
            change = p.players_left - left
            if change < 0:
                busts -= change
            elif change > 0:
                entries += change
            left = p.players_left
            at = p.at
            i += 1
        pieces.append((end - at, left, entries))
        seconds = end - point.at
        exposure = [0.0] * len(EXPONENTS)
        player_hours = 0.0
        weighted_players = 0.0
        weighted_bb = 0.0
        for dt, n, e in pieces:
            if dt <= 0 or n <= 1:
                continue
            chips = max(1, e) * start_stack
            pressure = pot(played, min(day.seats, n)) * n / chips
            hours = dt / 3600.0
            mix = mixed(m)
            for j, b in enumerate(EXPONENTS):
                exposure[j] += hours * n * pressure**b * mix
            player_hours += hours * n
            m += HANDS_PER_HOUR * hours * pressure
            weighted_players += dt * n
            weighted_bb += dt * chips / n / played.big_blind
        number, _ = structure.level_played(step)
        out.append(
            Segment(
                step=step,
                level=number,
                hours=seconds / 3600.0,
                busts=busts,
                players=weighted_players / seconds if seconds else float(left),
                average_bb=weighted_bb / seconds if seconds else 0.0,
                player_hours=player_hours,
                exposure=exposure,
            )
        )
    return out, m


def observed(segments_: list[Segment], seats: int) -> tuple[LevelRate, ...]:
    """The history as the director reads it: bust-outs per table (of ``seats``) per hour."""
    rows = []
    for s in segments_:
        if s.hours <= 0:
            continue
        tables = max(1.0, s.players / seats)
        rows.append(
            LevelRate(
                level=s.level,
                average_bb=round(s.average_bb, 1),
                busts=s.busts,
                hours=round(s.hours, 3),
                per_table_hour=round(s.busts / s.hours / tables, 2),
            )
        )
    return tuple(rows)


@dataclass(frozen=True, slots=True)
class Cell:
    b: float
    h0: float
    log_k: float


@dataclass(frozen=True, slots=True)
class RateBelief:
    """What the runs draw ``b``, ``k`` and ``h0`` from (see the top): grid cells and their
    cumulative weights."""

    cells: tuple[Cell, ...]
    cumulative: tuple[float, ...]
    #: The width of a cell in ``log k``: a draw is spread over it.
    k_step: float
    spread: float
    levels_observed: int
    busts_observed: int
    source: str
    #: The director's rate per player per hour now, and the pressure and mixing now: each
    #: run's rate is scaled to it.
    target: float | None
    pressure_now: float
    mixed_now: float

    def draw(self, rng: random.Random) -> tuple[float, float, float, float]:
        """``(b, k, h0, scale)`` for one run."""
        u = rng.random() * self.cumulative[-1]
        lo, hi = 0, len(self.cumulative) - 1
        while lo < hi:
            mid = (lo + hi) // 2
            if self.cumulative[mid] < u:
                lo = mid + 1
            else:
                hi = mid
        cell = self.cells[lo]
        k = math.exp(cell.log_k + (rng.random() - 0.5) * self.k_step)
        scale = 1.0
        if self.target is not None:
            now = cell.h0 + k * self.pressure_now**cell.b * self.mixed_now
            scale = self.target / now if now > 0 else 1.0
        return cell.b, k, cell.h0, scale

    def mean_hazard(self, pressure: float, mix: float) -> float:
        """Bust-outs per player per hour at ``pressure`` and ``mix``, over the belief."""
        if self.target is not None:
            return self.target
        total = 0.0
        previous = 0.0
        for cell, c in zip(self.cells, self.cumulative, strict=True):
            w = c - previous
            previous = c
            total += w * (cell.h0 + math.exp(cell.log_k) * pressure**cell.b * mix)
        return total / self.cumulative[-1]

    def mean_exponent(self) -> float:
        total = 0.0
        previous = 0.0
        for cell, c in zip(self.cells, self.cumulative, strict=True):
            total += (c - previous) * cell.b
            previous = c
        return total / self.cumulative[-1]


def believe(
    segments_: list[Segment],
    corrections: Corrections,
    pressure_now: float,
    mixed_now: float,
    at_table_now: float,
) -> RateBelief:
    """The belief about ``b``, ``k`` and ``h0`` after the levels played (see the top)."""
    played = [s for s in segments_ if s.hours > 0 and s.player_hours > 0]
    busts = sum(s.busts for s in played)
    step = 2 * K_SPAN / (K_POINTS - 1)
    cells: list[Cell] = []
    logs: list[float] = []
    for j, b in enumerate(EXPONENTS):
        center = math.log(HAZARD_REF / PRESSURE_REF**b)
        for f, h0 in enumerate(FLOORS):
            for i in range(K_POINTS):
                offset = -K_SPAN + i * step
                log_k = center + offset
                k = math.exp(log_k)
                lp = math.log(EXPONENT_PRIOR[j] * FLOOR_PRIOR[f])
                lp -= 0.5 * (offset / K_PRIOR_SIGMA) ** 2
                for s in played:
                    mu = h0 * s.player_hours + k * s.exposure[j]
                    if mu <= 0:
                        lp += -math.inf if s.busts else 0.0
                        continue
                    lp += s.busts * math.log(mu) - mu
                cells.append(Cell(b, h0, log_k))
                logs.append(lp)
    top = max(logs)
    cumulative: list[float] = []
    total = 0.0
    for lp in logs:
        total += math.exp(lp - top) if lp > -math.inf else 0.0
        cumulative.append(total)
    best = cells[max(range(len(logs)), key=logs.__getitem__)]
    target = None
    source = "history" if busts > 0 else "prior"
    if corrections.busts_per_table_hour is not None:
        target = corrections.busts_per_table_hour / max(1.0, at_table_now)
        source = "director"
    return RateBelief(
        cells=tuple(cells),
        cumulative=tuple(cumulative),
        k_step=step,
        spread=_spread(played, best),
        levels_observed=len(played),
        busts_observed=busts,
        source=source,
        target=target,
        pressure_now=pressure_now,
        mixed_now=mixed_now,
    )


def _spread(played: list[Segment], best: Cell) -> float:
    """The level-to-level spread: the prior, and how far the levels played strayed from the
    likeliest rate beyond what chance explains (a level with few bust-outs says little)."""
    j = EXPONENTS.index(best.b)
    k = math.exp(best.log_k)
    excess = 0.0
    n = 0
    for s in played:
        expected = best.h0 * s.player_hours + k * s.exposure[j]
        if s.busts < 5 or expected <= 0:
            continue
        excess += max(0.0, math.log(s.busts / expected) ** 2 - 1.0 / s.busts)
        n += 1
    var = (SPREAD_PRIOR_LEVELS * SPREAD_PRIOR**2 + excess) / (SPREAD_PRIOR_LEVELS + n)
    low, high = SPREAD_BOUNDS
    return min(high, max(low, math.sqrt(var)))
