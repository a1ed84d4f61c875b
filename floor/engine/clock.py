"""The tournament clock: levels and breaks, pause and resume, time added or removed.

The clock is state, not a ticking timer: the level, whether it runs, and the instant the level
ends. Screens count down locally from that instant; ``due`` says which level changes have come
due by ``now`` (several, if the process that drives the clock was down), each timed exactly
from the previous end so that a restart does not make the schedule drift.
"""

from __future__ import annotations

import msgspec

from .errors import NotAllowed, refused
from .events import ClockAdjusted, ClockPaused, ClockResumed, ClockStarted, LevelChanged
from .rules import Break, Level, Step, Structure
from .state import ClockState, TournamentState


def structure_of(s: TournamentState) -> Structure:
    """The structure the clock runs on; refused without one."""
    if s.structure is None:
        raise refused(NotAllowed, "no_structure", {})
    return s.structure


def _seconds(step: Step) -> float:
    return step.minutes * 60.0


def remaining(c: ClockState, now: float) -> float:
    """Seconds left in the current step at ``now``."""
    if c.running and c.ends_at is not None:
        return max(0.0, c.ends_at - now)
    return c.remaining


def startable(s: TournamentState) -> Structure:
    """The structure a clock not yet started starts on."""
    structure = structure_of(s)
    if s.clock.started:
        raise refused(NotAllowed, "clock_started", {})
    return structure


def start(s: TournamentState, now: float) -> ClockStarted:
    structure = startable(s)
    left = s.clock.remaining or _seconds(structure.levels[s.clock.level])
    return ClockStarted(at=now, level=s.clock.level, ends_at=now + left)


def _ends_at(s: TournamentState, due: list[LevelChanged]) -> float | None:
    """When the current level ends, counting level changes due but not yet written."""
    return due[-1].ends_at if due else s.clock.ends_at


def pausable(s: TournamentState) -> None:
    if not s.clock.running:
        raise refused(NotAllowed, "clock_not_running", {})


def pause(s: TournamentState, now: float, due: list[LevelChanged] | None = None) -> ClockPaused:
    pausable(s)
    ends_at = _ends_at(s, due or [])
    assert ends_at is not None
    return ClockPaused(at=now, remaining=max(0.0, ends_at - now))


def resumable(s: TournamentState) -> None:
    if not s.clock.started:
        raise refused(NotAllowed, "clock_not_started", {})
    if s.clock.running:
        raise refused(NotAllowed, "clock_running", {})


def resume(s: TournamentState, now: float) -> ClockResumed:
    resumable(s)
    return ClockResumed(at=now, ends_at=now + s.clock.remaining)


def adjust(
    s: TournamentState, seconds: float, now: float, due: list[LevelChanged] | None = None
) -> ClockAdjusted:
    structure_of(s)
    ends_at = _ends_at(s, due or [])
    now_left = (
        max(0.0, ends_at - now) if s.clock.running and ends_at is not None else (s.clock.remaining)
    )
    left = max(0.0, now_left + seconds)
    ends_at = now + left if s.clock.running else None
    return ClockAdjusted(seconds=seconds, ends_at=ends_at, remaining=left)


def step_of(s: TournamentState, index: int, field: str) -> Step:
    """Step ``index`` of the structure, refused if it has none."""
    structure = structure_of(s)
    if not 0 <= index < len(structure.levels):
        raise refused(
            NotAllowed, "no_step", {"step": index, "last": len(structure.levels) - 1}, field=field
        )
    return structure.levels[index]


def go_to(s: TournamentState, index: int, now: float, field: str = "to") -> LevelChanged:
    left = _seconds(step_of(s, index, field))
    running = s.clock.running
    return LevelChanged(
        at=now,
        level=index,
        ends_at=now + left if running else None,
        remaining=left,
        by="director",
    )


def due(s: TournamentState, now: float) -> list[LevelChanged]:
    """The level changes that have come due by ``now``; the last level never ends."""
    structure = s.structure
    c = s.clock
    if structure is None or not c.running or c.ends_at is None:
        return []
    out: list[LevelChanged] = []
    level, ends_at = c.level, c.ends_at
    while ends_at <= now and level + 1 < len(structure.levels):
        level += 1
        started = ends_at
        ends_at = started + _seconds(structure.levels[level])
        out.append(
            LevelChanged(at=started, level=level, ends_at=ends_at, remaining=ends_at - started)
        )
    return out


def current_step(s: TournamentState, now: float) -> int:
    """The step played at ``now``, also when its level change has not been written yet."""
    changes = due(s, now)
    return changes[-1].level if changes else s.clock.level


class LevelView(msgspec.Struct, frozen=True, kw_only=True):
    """What a screen shows of one step."""

    index: int
    kind: str
    number: int | None
    small_blind: int = 0
    big_blind: int = 0
    ante: int = 0
    big_blind_ante: bool = False
    bring_in: int = 0
    game: str | None = None
    minutes: float
    color_up: tuple[int, ...] = ()


def level_view(structure: Structure, index: int) -> LevelView:
    step = structure.levels[index]
    if isinstance(step, Break):
        return LevelView(
            index=index,
            kind="break",
            number=None,
            minutes=step.minutes,
            color_up=step.color_up,
        )
    assert isinstance(step, Level)
    return LevelView(
        index=index,
        kind="level",
        number=structure.level_number(index),
        small_blind=step.small_blind,
        big_blind=step.big_blind,
        ante=step.ante,
        big_blind_ante=step.big_blind_ante,
        bring_in=step.bring_in,
        game=step.game,
        minutes=step.minutes,
    )


def seconds_to_break(s: TournamentState, now: float) -> float | None:
    """Seconds until the next break begins, None if no break is ahead."""
    structure = s.structure
    if structure is None:
        return None
    c = s.clock
    if isinstance(structure.levels[c.level], Break):
        return 0.0
    total = remaining(c, now)
    for step in structure.levels[c.level + 1 :]:
        if isinstance(step, Break):
            return total
        total += _seconds(step)
    return None
