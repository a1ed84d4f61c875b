"""The floor engine: the TDA rules of seating, balancing, breaking and the final table.

A pure core: no I/O, no asyncio, no clock or random reads. ``decide`` takes the tournament, a
command, the time and a random source and returns the events; ``Tournament.apply`` folds an
event into the state; ``Tournament.plan`` is what the floor should do next.
"""

from .commands import Command
from .decide import decide
from .errors import ConfigError, FloorError, RuleError
from .events import Event, TournamentCreated
from .plan import Plan, PlannedMove
from .rules import Rules, Structure
from .state import Tournament, TournamentState

__all__ = [
    "Command",
    "ConfigError",
    "Event",
    "FloorError",
    "Plan",
    "PlannedMove",
    "RuleError",
    "Rules",
    "Structure",
    "Tournament",
    "TournamentCreated",
    "TournamentState",
    "decide",
]
