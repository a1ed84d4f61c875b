"""How a feature declares what it handles: its commands' decisions, its events' checks and folds.

A feature module lists ``DECIDES``, ``CHECKS`` and ``FOLDS`` (any of them), each a tuple of
entries made by ``decides``, ``validates`` (or ``validates_after``) and ``folds``. Each helper's
TypeVar ties the function's parameter to the class it is registered for, so ``mypy --strict``
checks every function against its own command or event type (a fold of ``SitOutEnded``
registered for ``RulingRecorded`` is a type error). ``floor.engine.registry`` builds one dict
per kind from the list of features, looked up by ``type(x)`` in ``decide``, ``validate.check``
and ``Tournament.apply``; ``tests/unit/test_dispatch.py`` holds that every command and event
has exactly one entry of each kind.

The stored callables take the command or event as ``Any``: the type is checked where the
entry is made, and the dict is only ever asked with the entry's own class.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, NamedTuple, TypeVar

from .commands import Command
from .events import Event
from .state import Tournament

C = TypeVar("C", bound=Command)
E = TypeVar("E", bound=Event)

Decider = Callable[[Tournament, Any, float, random.Random], list[Event]]
Checker = Callable[[Tournament, Any, Event | None], object]
Folder = Callable[[Tournament, Any], None]


class Decides(NamedTuple):
    kind: type
    run: Decider


class Checks(NamedTuple):
    kind: type
    run: Checker


class Folds(NamedTuple):
    kind: type
    run: Folder


def decides(
    kind: type[C], run: Callable[[Tournament, C, float, random.Random], list[Event]]
) -> Decides:
    """``run(t, command, now, rng)`` decides the commands of class ``kind``."""
    return Decides(kind, run)


def validates(kind: type[E], run: Callable[[Tournament, E], object]) -> Checks:
    """``run(t, event)`` refuses an event of class ``kind`` no command could have caused
    (what it returns, such as the table a lookup found, is not used)."""
    return Checks(kind, lambda t, e, _previous: run(t, e))


def validates_after(kind: type[E], run: Callable[[Tournament, E, Event | None], object]) -> Checks:
    """As ``validates``, for a check that also reads the event logged before (a shared place)."""
    return Checks(kind, run)


def folds(kind: type[E], run: Callable[[Tournament, E], None]) -> Folds:
    """``run(t, event)`` changes the state by an event of class ``kind``.

    A ``Tournament`` fold method is registered as it is: ``folds(PlayerBusted,
    Tournament._player_busted)``."""
    return Folds(kind, run)
