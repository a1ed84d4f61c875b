"""An entry to a flight where the house allows no flight after a bag (``engine.flights``).

Each flight is a tournament of its own, so whether a player bagged in an earlier flight of
the event is read from those flights' logs, here, before the entry is decided. Only a
flight under ``no_flight_after_bag`` pays for the read; the other flights' states are the
service's cached copies.
"""

from __future__ import annotations

from ..engine import commands
from ..engine.errors import RuleError
from ..engine.flights import Bagged, may_enter
from ..store.errors import NotFound
from ..store.outcome import Outcome, error_info
from .context import Floor
from .permissions import authorize
from .principal import Principal


def _entrants(command: commands.Command) -> list[str]:
    if isinstance(command, commands.Register):
        return [command.player] if command.player else []
    if isinstance(command, commands.RegisterMany):
        return [e.player for e in command.entries if e.player]
    return []


async def refused_entry(
    floor: Floor, tid: str, principal: Principal, command: commands.Command
) -> Outcome | None:
    """The refusal of an entry by a player who bagged in an earlier flight of the event,
    where the house allows no flight after a bag; None for anything else. Who may not send
    the entry at all hears that first (``authorize`` raises)."""
    players = _entrants(command)
    if not players:
        return None
    t, _ = await floor.store.tournament(tid)
    authorize(principal, command, t)
    flight = t.state.flight
    if flight is None or flight.rules.stack_forward != "no_flight_after_bag":
        return None
    wanted = set(players)
    bags: list[Bagged] = []
    for summary in await floor.store.summaries():
        if summary.id == tid:
            continue
        try:
            other, _ = await floor.store.tournament(summary.id)
        except NotFound:
            continue
        o = other.state
        if o.flight is None or o.flight.event != flight.event or o.flight.order >= flight.order:
            continue
        bags.extend(
            Bagged(player=b.player, name="", flight=o.id, order=o.flight.order, stack=b.stack)
            for sheet in o.bags.values()
            for b in sheet.bags
            if b.player in wanted
        )
    try:
        for pid in players:
            may_enter(flight.rules, pid, bags, flight.order)
    except RuleError as e:
        return Outcome(ok=False, error=error_info(e))
    return None
