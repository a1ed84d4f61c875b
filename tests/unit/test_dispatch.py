"""The features' dispatch tables are complete: every command has its one decision, every event
its one check and one fold.

``decide``, ``validate.check`` and ``Tournament.apply`` look a command's or event's class up
in the tables ``floor.engine.registry`` builds from the features' ``DECIDES``, ``CHECKS`` and
``FOLDS``. mypy checks each entry against its class; these tests check that none is missing
(a new command or event without its entries fails here, not as a ``KeyError`` on the floor)
and none is doubled (which the registry refuses at import).
"""

from __future__ import annotations

import importlib
import pkgutil
import random
from collections import Counter
from typing import get_args

import pytest

from floor.engine import commands as cmd
from floor.engine import state
from floor.engine.commands import Command, EndSitOut
from floor.engine.dispatch import decides, folds, validates
from floor.engine.errors import RuleError
from floor.engine.events import Event, SitOutEnded, TournamentCreated
from floor.engine.registry import CHECKERS, DECIDERS, FEATURES, FOLDERS, DoubleEntry, build
from floor.engine.validate import check
from tests.unit.builders import Floor

COMMANDS = set(get_args(Command))
EVENTS = set(get_args(Event))
LOGGED = EVENTS - {TournamentCreated}


def _declared(name: str) -> Counter[type]:
    """How many times each class is declared in ``name`` across every feature."""
    return Counter(entry.kind for f in FEATURES for entry in getattr(f, name, ()))


def _missing_and_extra(declared: Counter[type], expected: set[type]) -> tuple[list[str], ...]:
    missing = sorted(k.__name__ for k in expected if declared[k] == 0)
    doubled = sorted(k.__name__ for k, n in declared.items() if n > 1)
    foreign = sorted(k.__name__ for k in declared if k not in expected)
    return missing, doubled, foreign


def test_every_command_has_exactly_one_decision() -> None:
    assert _missing_and_extra(_declared("DECIDES"), COMMANDS) == ([], [], [])
    assert set(DECIDERS) == COMMANDS


def test_every_logged_event_has_exactly_one_check() -> None:
    assert _missing_and_extra(_declared("CHECKS"), LOGGED) == ([], [], [])
    assert set(CHECKERS) == LOGGED


def test_every_logged_event_has_exactly_one_fold() -> None:
    assert _missing_and_extra(_declared("FOLDS"), LOGGED) == ([], [], [])
    assert set(FOLDERS) == LOGGED


def test_every_module_that_declares_entries_is_a_listed_feature() -> None:
    import floor.engine

    declaring = set()
    for info in pkgutil.walk_packages(floor.engine.__path__, "floor.engine."):
        module = importlib.import_module(info.name)
        if any(hasattr(module, n) for n in ("DECIDES", "CHECKS", "FOLDS")):
            declaring.add(info.name)
    assert declaring == {f.__name__ for f in FEATURES}


def test_the_state_folds_with_the_registry_table() -> None:
    # ``state`` imports no rule: the registry hands it the table when the package is imported.
    for kind, run in FOLDERS.items():
        assert state._folds[kind] is run
    assert set(state._folds) == EVENTS


def test_a_class_registered_twice_is_refused() -> None:
    def end(t: state.Tournament, c: EndSitOut, now: float, rng: random.Random) -> list[Event]:
        return []

    def fold(t: state.Tournament, e: SitOutEnded) -> None:
        pass

    with pytest.raises(DoubleEntry, match="EndSitOut has two deciders"):
        build([decides(EndSitOut, end), decides(EndSitOut, end)], [], [])
    with pytest.raises(DoubleEntry, match="SitOutEnded has two checks"):
        build([], [validates(SitOutEnded, fold), validates(SitOutEnded, fold)], [])
    with pytest.raises(DoubleEntry, match="SitOutEnded has two folds"):
        build([], [], [folds(SitOutEnded, fold), folds(SitOutEnded, fold)])
    # One entry of each is what the features declare.
    build([decides(EndSitOut, end)], [validates(SitOutEnded, fold)], [folds(SitOutEnded, fold)])


def test_tournament_created_keeps_its_own_refusals() -> None:
    floor = Floor({1: "1-9"})
    created = floor.log[0]
    assert isinstance(created, TournamentCreated)
    with pytest.raises(ValueError, match="starts a log"):
        floor.t.apply(created)
    with pytest.raises(RuleError) as refused:
        check(floor.t, created)
    assert refused.value.reason == "log_start"


def test_an_event_the_tables_dispatch_is_decided_checked_and_folded_by_its_feature() -> None:
    """A sit-out ended early (the rulings feature's ``end_sit_out``), through the tables."""
    floor = Floor({1: "1-9"})
    floor.do(
        cmd.RecordRuling(
            players=("T1S4",), penalties=(cmd.Penalty(player="T1S4", kind="sit_out", hands=2),)
        )
    )
    assert [s.player for s in floor.t.state.rulings.sit_outs] == ["T1S4"]
    before = floor.t.copy()
    (ended,) = floor.do(cmd.EndSitOut(player="T1S4"))
    assert isinstance(ended, SitOutEnded)
    assert floor.t.state.rulings.sit_outs == []
    check(before, ended)  # the log's check accepts what the decision wrote
    before.apply(ended)
    assert before.state == floor.t.state
