"""The forecaster's vocabulary: what it starts from, what a director may change or correct,
and what it reports.

Every struct is plain data (msgspec), sent to the worker processes and to the screens as it
is. Times are seconds since the epoch, like the engine's; a time a run never reached (the day
ended first) is ``None`` in a percentile.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from ..engine.errors import FloorError
from ..engine.flights import FlightRules
from ..engine.prize import ReEntry
from ..engine.rules import Structure
from ..engine.state import FieldPoint, LevelPoint

#: The most runs a forecast may ask for, and how far past its start a run is played at most.
MAX_RUNS = 1000
DEFAULT_RUNS = 300
#: The first forecast worth showing: this many runs, sent before the rest are played.
FIRST_RUNS = 50
HORIZON_SECONDS = 48 * 3600.0
#: Levels a what-if may add or remove, and the longest level it may ask for (minutes).
MAX_LEVELS_CHANGED = 5
MAX_LEVEL_MINUTES = 240.0
#: How far ahead a what-if may move the day's end.
MAX_DAY_END_AHEAD = 24 * 3600.0


class CannotForecast(FloorError):
    """Nothing to forecast yet (no structure, no draw), or a what-if that does not fit the day."""

    code = "not_allowed"


EndBy = Literal["last_level", "field_share", "closing", "winner", "horizon", "ended"]


class StackCount(msgspec.Struct, array_like=True, frozen=True):
    """A counted stack of a player still in: ``[stack, counted_at]``."""

    stack: int
    at: float


class LiveDay(msgspec.Struct, frozen=True, kw_only=True):
    """The live state a forecast starts from (``live.live_day``)."""

    tournament: str
    name: str
    now: float
    version: int
    #: The structure without its prize: the payout table's rows as (entries from, places
    #: paid) and the re-entry rules instead.
    structure: Structure
    payouts: tuple[tuple[int, int], ...] = ()
    re_entry: ReEntry | None = None
    seats: int
    #: Players per table when tables are broken (the rules' break fill).
    fill: int
    final_table: int
    #: The clock at ``now``: the step played, the seconds left in it, whether it runs.
    step: int
    remaining: float
    running: bool
    started: bool
    players_left: int
    entries: int
    #: Entries beyond each player's first (re-entries made so far).
    re_entries: int
    #: Chips in play: every entry's starting stack, rebuys, add-ons, chip races.
    chips: int
    tables_open: int
    #: Seats of the open tables, and the seats they count when the others break.
    seats_open: int
    final_formed: bool
    #: The counted stacks of the players still in (``count_age``: none made old by a bust).
    counts: tuple[StackCount, ...] = ()
    field_history: tuple[FieldPoint, ...] = ()
    level_history: tuple[LevelPoint, ...] = ()
    flight: FlightRules | None = None
    #: The clock's hand-for-hand: it stands still while hand-for-hand is played.
    hand_for_hand_seconds: int = 0
    hand_for_hand: bool = False
    #: What already happened (``truth``).
    money_at: float | None = None
    places_paid: int = 0
    day_ended_at: float | None = None
    winner_at: float | None = None
    #: The field was carried from earlier days (Day 2): its stacks are spread already.
    mixed: bool = False


# What a director may change or correct ---------------------------------------------------


Minutes = Annotated[float, Meta(gt=0, le=MAX_LEVEL_MINUTES)]
LevelsChanged = Annotated[int, Meta(ge=-MAX_LEVELS_CHANGED, le=MAX_LEVELS_CHANGED)]


class WhatIf(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True
):
    """One change to the day (``whatif.apply``); exactly one field is set.

    ``levels``: the day plays this many levels more (fewer, negative): a day with a last
    level ends that many levels later; a day played to the end or to a closing time repeats
    the level in play (or skips the next levels). ``level_minutes``: every level from the next
    lasts this long. ``close_late_registration``: no entry from now. ``day_end_at``: the day
    ends at this time (the venue closes then).
    """

    levels: LevelsChanged | None = None
    level_minutes: Minutes | None = None
    close_late_registration: bool | None = None
    day_end_at: Annotated[float, Meta(ge=0, le=10_000_000_000)] | None = None


class Corrections(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True
):
    """The director's corrections of the assumptions (None: the forecaster's own)."""

    #: Bust-outs per table per hour at the depth of the average stack now.
    busts_per_table_hour: Annotated[float, Meta(gt=0, le=60)] | None = None
    #: New players still expected before late registration closes (re-entries apart).
    late_entries: Annotated[int, Meta(ge=0, le=100_000)] | None = None
    #: The share of bust-outs that enter again while re-entry is open.
    re_entry_share: Annotated[float, Meta(ge=0, le=1)] | None = None


class Settings(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A tournament's forecast settings, kept beside its forecasts."""

    #: The venue closes then: the day ends at the latest at this time (None: no closing).
    closing_at: Annotated[float, Meta(ge=0, le=10_000_000_000)] | None = None
    #: Dealers per table in play (a rotation with reliefs: 1.25 is four dealers for three
    #: tables... plus a spare); the dealer rotation will offer its own (``dealers``).
    dealers_per_table: Annotated[float, Meta(ge=1, le=4)] = 1.25
    #: The wall shows the next expected moment ("Money expected about 21:40").
    wall: bool = False


# What it reports ------------------------------------------------------------------------------


class Range(msgspec.Struct, array_like=True, frozen=True):
    """The 10th, 50th and 90th percentiles: ``[p10, p50, p90]``; None where fewer runs than
    that share reached it (a time the day ended before)."""

    p10: float | None
    p50: float | None
    p90: float | None


class Milestone(msgspec.Struct, frozen=True, kw_only=True):
    """When something happens: the percentiles over the runs, the share of runs in which it
    happens before the day ends, and when it did happen once it has."""

    at: Range
    reached: float
    happened: float | None = None


class Slot(msgspec.Struct, array_like=True, frozen=True):
    """A time slot from ``start`` and the percentiles of a count in it."""

    start: float
    p10: float
    p50: float
    p90: float


class LevelRate(msgspec.Struct, array_like=True, frozen=True):
    """The field's own history, one level played: ``[level, average_bb, busts, hours,
    per_table_hour]`` (the level's number, the big blinds of the average stack in it, the
    bust-outs, the hours played, the bust-outs per table per hour)."""

    level: int
    average_bb: float
    busts: int
    hours: float
    per_table_hour: float


Source = Literal["history", "prior", "director"]


class Assumptions(msgspec.Struct, frozen=True, kw_only=True):
    """What the runs assumed, shown to the director, who may correct the first three."""

    #: Bust-outs per table per hour at the depth of the average stack now, and whence.
    busts_per_table_hour: float
    rate_source: Source
    #: How the rate grows as stacks get shorter: bust-outs per player ~ (pot / average)^b.
    depth_exponent: float
    average_bb: float | None
    levels_observed: int
    busts_observed: int
    #: How much the rate strays from level to level (a log-normal spread).
    level_spread: float
    late_entries: float
    late_source: Source
    re_entry_share: float
    re_entry_source: Source
    #: Hands under hand-for-hand come this much slower (the bubble).
    hand_for_hand_pace: float
    #: The clock was paused: the runs start it now.
    clock_paused: bool
    counts_used: int


class DayEnd(msgspec.Struct, frozen=True, kw_only=True):
    """The day's end: when, with how many players and tables, and what ended it (a share of
    the runs for each cause)."""

    at: Milestone
    players: Range
    tables: Range
    by: dict[str, float]


class Forecast(msgspec.Struct, frozen=True, kw_only=True):
    """A forecast of the rest of the day: ``runs`` runs from the state at ``made_at``."""

    tournament: str
    made_at: float
    version: int
    #: The clock's step and the level number (a break: the level before it) it was made at.
    step: int
    level: int
    on_break: bool
    runs: int
    seed: int
    what_if: WhatIf | None
    assumptions: Assumptions
    players_left: int
    entries: int
    money: Milestone
    final_table: Milestone
    day_end: DayEnd
    entries_expected: Range
    places_paid: Range
    #: Tables breaking per hour, dealers needed per half hour, players left (every 10
    #: minutes, for the chart's range).
    tables_breaking: tuple[Slot, ...]
    dealers: tuple[Slot, ...]
    players: tuple[Slot, ...]
    history: tuple[LevelRate, ...]
    #: Whether every asked run was played (False: the first useful part of a larger ask).
    complete: bool = True
