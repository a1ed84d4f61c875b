"""A ruling's rule checked against the tournament's rulebook (``engine.rulings.check_rule``).

The book is a file the engine cannot read, so it is read here, before the ruling is decided,
off the event loop (a book's first read builds its search index), and the engine's pure check
refuses a rule id the book does not hold, naming the field. Who may not record a ruling at all
hears that first.
"""

from __future__ import annotations

import asyncio

from .. import config as configs
from ..engine import commands
from ..engine.errors import ConfigError, RuleError
from ..engine.rulings import check_rule
from ..store.outcome import Outcome, error_info
from .context import Floor
from .permissions import authorize
from .principal import Principal
from .tools import RulebookUnreadable


async def refused_ruling(
    floor: Floor, tid: str, principal: Principal, command: commands.Command
) -> Outcome | None:
    """The refusal of a ruling citing a rule its tournament's rulebook does not hold; None
    for anything else."""
    if not isinstance(command, commands.RecordRuling) or command.rule is None:
        return None
    t, _ = await floor.store.tournament(tid)
    authorize(principal, command, t)
    try:
        book = await asyncio.to_thread(configs.load_rulebook, t.rules.rulebook)
    except ConfigError as e:
        raise RulebookUnreadable(f"the rule set cannot be read: {e}") from None
    try:
        check_rule(command.rule, book)
    except RuleError as e:
        return Outcome(ok=False, error=error_info(e))
    return None
