"""What happened, for the forecasts kept at each level to be read beside it.

``truth`` reads it off the live day (the money's moment, the final table's, the day's end with
its players and tables, the entries); ``checked`` sets each forecast kept beside it: for every
moment, the forecast's range, what happened, and whether it fell inside.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from .model import LiveDay, Range


class Truth(msgspec.Struct, frozen=True, kw_only=True):
    """The day as it went, at ``at``: each moment once it came (None: not yet)."""

    at: float
    money_at: float | None
    final_at: float | None
    day_end_at: float | None
    #: Players and tables at the day's end, once it ended.
    players_at_end: int | None
    tables_at_end: int | None
    entries: int
    players_left: int


def truth(day: LiveDay) -> Truth:
    end = day.day_ended_at if day.day_ended_at is not None else day.winner_at
    final_at = None
    one_table = max(day.final_table, day.fill)
    if day.final_formed or day.tables_open <= 1:
        # The bust-out that brought the field to one table: as many left as the final table
        # seats (it forms then), or as one table holds once the others broke (the last
        # such crossing: a late entry may have raised the field above it again).
        previous = None
        for point in day.field_history:
            if point.players_left <= one_table and (previous is None or previous > one_table):
                final_at = point.at
            previous = point.players_left
    return Truth(
        at=day.now,
        money_at=day.money_at,
        final_at=final_at,
        day_end_at=end,
        players_at_end=day.players_left if end is not None else None,
        tables_at_end=(1 if day.final_formed else day.tables_open) if end is not None else None,
        entries=day.entries,
        players_left=day.players_left,
    )


class Moment(msgspec.Struct, array_like=True, frozen=True):
    """A forecast range beside what happened: ``[p10, p50, p90, actual, inside]`` (inside:
    None until it happened, or when the forecast had no range)."""

    p10: float | None
    p50: float | None
    p90: float | None
    actual: float | None
    inside: bool | None


class Checked(msgspec.Struct, frozen=True, kw_only=True):
    """One kept forecast beside the truth."""

    step: int
    level: int
    on_break: bool
    made_at: float
    players_left: int
    money: Moment
    final_table: Moment
    day_end: Moment
    players_at_end: Moment
    entries_added: Moment


def _moment(r: Range, actual: float | None) -> Moment:
    inside = None
    if actual is not None and r.p10 is not None:
        inside = r.p10 <= actual and (r.p90 is None or actual <= r.p90)
    return Moment(r.p10, r.p50, r.p90, actual, inside)


class _Moment(msgspec.Struct, frozen=True):
    at: Range
    happened: float | None = None


class _DayEnd(msgspec.Struct, frozen=True):
    at: _Moment
    players: Range


class Kept(msgspec.Struct, frozen=True):
    """The parts of a kept ``Forecast`` set beside the truth: decoded from its JSON, the rest
    of it left unread."""

    step: int
    level: int
    made_at: float
    players_left: int
    entries: int
    money: _Moment
    final_table: _Moment
    day_end: _DayEnd
    entries_expected: Range
    #: Forecasts kept before this was recorded said nothing of it.
    on_break: bool = False


def checked(kept: Sequence[Kept], t: Truth) -> list[Checked]:
    rows = []
    for f in sorted(kept, key=lambda x: (x.made_at, x.step)):
        money = t.money_at if f.money.happened is None else None
        rows.append(
            Checked(
                step=f.step,
                level=f.level,
                on_break=f.on_break,
                made_at=f.made_at,
                players_left=f.players_left,
                money=_moment(f.money.at, money),
                final_table=_moment(f.final_table.at, t.final_at),
                day_end=_moment(f.day_end.at.at, t.day_end_at),
                players_at_end=_moment(
                    f.day_end.players,
                    float(t.players_at_end) if t.players_at_end is not None else None,
                ),
                entries_added=_moment(
                    f.entries_expected,
                    float(t.entries - f.entries) if t.day_end_at is not None else None,
                ),
            )
        )
    return rows
