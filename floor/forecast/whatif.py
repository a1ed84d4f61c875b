"""One change to the day, as the director asks it, checked and applied.

``check`` refuses a what-if that cannot be played (naming the field, as every refusal does);
``apply`` gives the day's structure and ends with the change made. The engine's structure is
not touched: the forecast plays a changed copy.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.rules import Level, Step, Structure
from .model import MAX_DAY_END_AHEAD, CannotForecast, LiveDay, WhatIf


@dataclass(frozen=True, slots=True)
class Changed:
    """The day as a what-if leaves it: the steps from now, the day's last level (None: none),
    the time it must end by (None: none), and whether late registration is still open."""

    levels: tuple[Step, ...]
    last_level: int | None
    closing_at: float | None
    late_open: bool


def _set(w: WhatIf) -> list[str]:
    return [
        name
        for name in ("levels", "level_minutes", "close_late_registration", "day_end_at")
        if getattr(w, name) is not None
    ]


def check(w: WhatIf, day: LiveDay) -> None:
    """Refuse a what-if that names no change or several, or one this day cannot take."""
    named = _set(w)
    if len(named) != 1:
        raise CannotForecast(
            "a what-if changes one thing: levels, level_minutes, close_late_registration "
            "or day_end_at" + (f" (this one sets {', '.join(named)})" if named else ""),
            field="what_if",
        )
    if w.levels == 0:
        raise CannotForecast("levels: add or remove at least one level", field="what_if.levels")
    if w.day_end_at is not None and not day.now < w.day_end_at <= day.now + MAX_DAY_END_AHEAD:
        raise CannotForecast(
            "day_end_at: the day's end must come after now and within 24 hours",
            field="what_if.day_end_at",
        )
    if w.close_late_registration is False:
        raise CannotForecast(
            "close_late_registration: true closes it now (leave it out to keep it open)",
            field="what_if.close_late_registration",
        )
    if w.levels is not None and w.levels < 0:
        last = day.flight.last_level if day.flight is not None else None
        number, _ = day.structure.level_played(min(day.step, len(day.structure.levels) - 1))
        if last is not None:
            if last + w.levels < number:
                raise CannotForecast(
                    f"levels: the day is at level {number} and cannot end before it",
                    field="what_if.levels",
                )
        elif _levels_after(day.structure, day.step) < -w.levels:
            raise CannotForecast(
                f"levels: fewer than {-w.levels} levels are left to remove",
                field="what_if.levels",
            )


def _levels_after(structure: Structure, step: int) -> int:
    return sum(1 for s in structure.levels[step + 1 :] if isinstance(s, Level))


def apply(w: WhatIf | None, day: LiveDay, closing_at: float | None) -> Changed:
    """The day with ``w`` made (``check`` first); ``closing_at``: the venue's, if any."""
    structure = day.structure
    levels: list[Step] = list(structure.levels)
    last = day.flight.last_level if day.flight is not None else None
    late_open = True
    if w is not None:
        if w.levels is not None:
            if last is not None:
                last = max(1, last + w.levels)
            else:
                levels = _relevel(levels, day.step, w.levels)
        if w.level_minutes is not None:
            minutes = w.level_minutes
            levels = [
                _with_minutes(s, minutes) if i > day.step and isinstance(s, Level) else s
                for i, s in enumerate(levels)
            ]
        if w.close_late_registration:
            late_open = False
        if w.day_end_at is not None:
            closing_at = w.day_end_at
    return Changed(
        levels=tuple(levels), last_level=last, closing_at=closing_at, late_open=late_open
    )


def _with_minutes(level: Level, minutes: float) -> Level:
    return Level(
        small_blind=level.small_blind,
        big_blind=level.big_blind,
        ante=level.ante,
        big_blind_ante=level.big_blind_ante,
        minutes=minutes,
        game=level.game,
        bring_in=level.bring_in,
    )


def _relevel(levels: list[Step], step: int, n: int) -> list[Step]:
    """``n`` more levels at the blinds in play (after the step in play), or ``-n`` of the
    next levels taken out."""
    if n > 0:
        current = next((s for s in reversed(levels[: step + 1]) if isinstance(s, Level)), None)
        if current is None:
            current = next(s for s in levels if isinstance(s, Level))
        return [*levels[: step + 1], *([current] * n), *levels[step + 1 :]]
    out = levels[: step + 1]
    removed = 0
    for s in levels[step + 1 :]:
        if removed < -n and isinstance(s, Level):
            removed += 1
            continue
        out.append(s)
    return out
