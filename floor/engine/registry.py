"""The features, in one list, and the dispatch tables built from them once at import.

Each module below declares what it handles (``DECIDES``, ``CHECKS``, ``FOLDS``: see
``dispatch``). ``DECIDERS``, ``CHECKERS`` and the fold table map a command's or event's class
to its one function: ``decide``, ``validate.check`` and ``Tournament.apply`` look up
``type(x)`` in them, one dict lookup where a ``match`` tried up to a hundred cases. A class
registered twice fails here, at import; one with no entry fails ``tests/unit/test_dispatch.py``.

The fold table is handed to ``state`` (``register_folds``): the state sits below the rules and
imports none of them, as the planner is handed to it.
"""

from __future__ import annotations

from collections.abc import Iterable
from types import ModuleType
from typing import Final, TypeVar

from . import (
    alternates,
    amendments,
    announce,
    bounty,
    day2,
    day_end,
    deal,
    deal_undo,
    fair,
    finish,
    hand_for_hand,
    milestone,
    rulings,
    satellite,
)
from .commands import Command
from .dispatch import Checker, Checks, Decider, Decides, Folder, Folds
from .events import Event
from .features import busts, chips, entries, hands, moving, tables, timing
from .state import register_folds

#: Every feature that decides a command, checks a logged event or folds one.
FEATURES: Final[tuple[ModuleType, ...]] = (
    busts,
    moving,
    hands,
    hand_for_hand,
    entries,
    tables,
    chips,
    timing,
    amendments,
    finish,
    rulings,
    day_end,
    day2,
    deal,
    deal_undo,
    bounty,
    alternates,
    announce,
    satellite,
    fair,
    milestone,
)

F = TypeVar("F")


class DoubleEntry(Exception):
    """A command or event registered by two features (or twice by one)."""


def _table(entries: Iterable[tuple[type, F]], what: str) -> dict[type, F]:
    table: dict[type, F] = {}
    for kind, run in entries:
        if kind in table:
            raise DoubleEntry(f"{kind.__name__} has two {what}")
        table[kind] = run
    return table


def build(
    decides: Iterable[Decides], checks: Iterable[Checks], folds: Iterable[Folds]
) -> tuple[dict[type[Command], Decider], dict[type[Event], Checker], dict[type[Event], Folder]]:
    """The three tables of ``decides``, ``checks`` and ``folds``; ``DoubleEntry`` for a class
    registered twice in one of them."""
    return (
        _table(decides, "deciders"),
        _table(checks, "checks"),
        _table(folds, "folds"),
    )


def _collect() -> tuple[list[Decides], list[Checks], list[Folds]]:
    decides: list[Decides] = []
    checks: list[Checks] = []
    folds: list[Folds] = []
    for feature in FEATURES:
        decides += getattr(feature, "DECIDES", ())
        checks += getattr(feature, "CHECKS", ())
        folds += getattr(feature, "FOLDS", ())
    return decides, checks, folds


DECIDERS, CHECKERS, FOLDERS = build(*_collect())
register_folds(FOLDERS)
