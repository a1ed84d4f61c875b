"""The entry points of a forecast worker process (``floor.server.forecast_pool``).

A worker runs at low priority (``lower_priority``, its initializer): the staff's commands and
the screens come first on a machine with few cores. A forecast arrives as bytes (the live day
encoded where the tournament is held, the what-if and settings as JSON) with a key; the first
chunk of its runs a worker is given prepares it, and keeps it for the next chunks.
"""

from __future__ import annotations

import contextlib
import os
from collections import OrderedDict
from collections.abc import Sequence

import msgspec

from . import jobs
from .model import Corrections, LiveDay, Settings, WhatIf
from .runs import Outcome
from .truth import truth

#: From this niceness on, a worker also asks for the idle scheduling class.
IDLE_FROM = 19

#: Forecasts kept prepared in a worker (a what-if plays two series at once).
KEEP = 4

_prepared: OrderedDict[str, jobs.Prepared] = OrderedDict()
_day = msgspec.msgpack.Decoder(LiveDay)
_json = msgspec.json.Encoder()


class Ask(msgspec.Struct, frozen=True, kw_only=True):
    """What a worker is asked to play, beside the live day."""

    what_if: WhatIf | None = None
    corrections: Corrections = msgspec.field(default_factory=Corrections)
    settings: Settings = msgspec.field(default_factory=Settings)
    runs: int
    seed: int


_ask = msgspec.json.Decoder(Ask)


def lower_priority(niceness: int) -> None:
    """The worker's initializer: as nice as asked (a process may only lower its priority).

    Where the kernel has it (Linux), the worker is also put in the idle scheduling class: a
    nice-19 process still takes its weighted share of a core and is not preempted at once when
    a staff process wakes, and on two cores that showed as the staff's p99 doubling while a
    forecast ran. An idle-class process runs only on a core nothing else wants.
    """
    # Already as nice as it may be made: nothing more to do.
    with contextlib.suppress(OSError):
        os.nice(max(0, niceness - os.nice(0)))
    if niceness >= IDLE_FROM and hasattr(os, "SCHED_IDLE"):
        with contextlib.suppress(OSError):
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))


def where() -> tuple[int, int]:
    """This worker's process id and niceness: shown with a job, off the staff's loop."""
    return os.getpid(), os.nice(0)


def _get(key: str, day: bytes, ask: bytes) -> jobs.Prepared:
    p = _prepared.get(key)
    if p is None:
        a = _ask.decode(ask)
        p = jobs.prepare(_day.decode(day), a.what_if, a.corrections, a.settings, a.runs, a.seed)
        _prepared[key] = p
        while len(_prepared) > KEEP:
            _prepared.popitem(last=False)
    else:
        _prepared.move_to_end(key)
    return p


def play(
    key: str, day: bytes, ask: bytes, first: int, count: int
) -> tuple[int, int, list[Outcome]]:
    """Runs ``first`` to ``first + count - 1``, with where they were played."""
    p = _get(key, day, ask)
    pid, nice = where()
    return pid, nice, jobs.play_runs(p, first, count)


def summarize(
    key: str, day: bytes, ask: bytes, outcomes: Sequence[Outcome], complete: bool
) -> tuple[bytes, bytes]:
    """The forecast of these runs, and what had happened, as JSON."""
    p = _get(key, day, ask)
    forecast = jobs.finish(p, outcomes, complete)
    return _json.encode(forecast), _json.encode(truth(p.day))


def forget(key: str) -> None:
    _prepared.pop(key, None)
