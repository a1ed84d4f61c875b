"""The tournament aggregate: its state, a fold of events, with the indexes the planner needs.

``TournamentState`` is the stored record (a msgspec Struct: the snapshot in Redis is this,
encoded). ``Tournament`` wraps it with indexes that are rebuilt on load and kept up to date by
``apply``, so that a bust-out at 10,000 players costs microseconds, not a scan of every table.

The state is mutable on purpose: copying a 10,000-player state per event would cost more than
the whole rule work. Commands are validated in full before their first event is applied (see
``decide``), so a refused command leaves the state untouched; a caller that must keep the old
version (to retry after a write conflict) reloads it or takes ``copy()``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

import msgspec

from .board import add as board_add
from .events import (
    Event,
    TournamentCreated,
)
from .fair_fold import seated as fair_seated
from .model import (
    DealtGame,
)
from .rules import Rules, Structure

if TYPE_CHECKING:
    from .plan import Plan


from .fold.bounty import BountyFolds
from .fold.chips import ChipFolds
from .fold.clock import ClockFolds
from .fold.finish import FinishFolds
from .fold.milestone import MilestoneFolds
from .fold.moves import MoveFolds
from .fold.players import PlayerFolds
from .fold.tables import TableFolds
from .records import (
    Assignment,
    BustRecord,
    Called,
    ClockState,
    FieldPoint,
    LevelPoint,
    Player,
    RaceRecord,
    Table,
    TimeCall,
    TournamentState,
    busted_since,
)

#: The records live in ``records``; every module imports them from here as before.
__all__ = [
    "Assignment",
    "BustRecord",
    "Called",
    "ClockState",
    "FieldPoint",
    "LevelPoint",
    "Player",
    "RaceRecord",
    "Table",
    "TimeCall",
    "Tournament",
    "TournamentState",
    "busted_since",
    "register_folds",
    "register_planner",
]


def _first_game(rules: Rules, structure: Structure | None) -> DealtGame:
    if rules.game != "mixed":
        return rules.game
    if structure is not None:
        from .rules import Level

        for step in structure.levels:
            if isinstance(step, Level) and step.game is not None:
                return step.game
    return "holdem"


def _no_planner(t: Tournament) -> Plan:
    raise RuntimeError("no planner registered: import floor.engine.planner")


#: Computes ``Tournament.plan``: the planner reads the state, so the state does not import it;
#: ``floor.engine.planner`` registers itself when imported (the package imports it).
_planner: Callable[[Tournament], Plan] = _no_planner


def _created(t: Tournament, e: TournamentCreated) -> None:
    raise ValueError("tournament_created starts a log: it is not applied to a state")


#: How each event changes the state, by its class: ``floor.engine.registry`` (which the
#: package imports) fills it from the features' ``FOLDS``; the state imports no rule.
_folds: dict[type, Callable[[Tournament, Any], None]] = {TournamentCreated: _created}


def register_folds(folds: dict[type, Callable[[Tournament, Any], None]]) -> None:
    _folds.update(folds)


def register_planner(planner: Callable[[Tournament], Plan]) -> None:
    global _planner
    _planner = planner


class Tournament(
    PlayerFolds,
    TableFolds,
    MoveFolds,
    ClockFolds,
    ChipFolds,
    FinishFolds,
    BountyFolds,
    MilestoneFolds,
):
    """The state plus its indexes; ``apply`` is the only way it changes."""

    __slots__ = ()

    def __init__(self, state: TournamentState) -> None:
        self.state = state
        self._plan: Plan | None = None
        self._reindex()

    # Construction ----------------------------------------------------------------------------

    @classmethod
    def create(cls, event: TournamentCreated) -> Tournament:
        state = TournamentState(
            id=event.id,
            name=event.name,
            rules=event.rules,
            structure=event.structure,
            created_at=event.created_at,
            current_game=_first_game(event.rules, event.structure),
        )
        if event.structure is not None:
            # Before the start the clock shows the whole first level.
            state.clock.remaining = event.structure.levels[0].minutes * 60.0
        return cls(state)

    @classmethod
    def fold(cls, events: Iterable[Event]) -> Tournament:
        it = iter(events)
        first = next(it)
        if not isinstance(first, TournamentCreated):
            raise ValueError("an event log starts with tournament_created")
        t = cls.create(first)
        for e in it:
            t.apply(e)
        return t

    def copy(self) -> Tournament:
        return Tournament(
            msgspec.msgpack.decode(msgspec.msgpack.encode(self.state), type=TournamentState)
        )

    @property
    def plan(self) -> Plan:
        """The current plan, computed once per change."""
        if self._plan is None:
            self._plan = _planner(self)
        return self._plan

    # Applying events -------------------------------------------------------------------------

    def apply(self, event: Event) -> None:
        """Change the state by one event.

        The event's fold is its feature's (``registry``, handed here by ``register_folds``;
        ``tests/unit/test_dispatch.py`` holds that every event has one): one dict lookup.
        """
        self._bounty(event)
        _folds[type(event)](self, event)
        if self.state.fair is not None:
            fair_seated(event, self.state.players)
        board_add(self.state.board, event, self.state.players)
        self._plan = None
