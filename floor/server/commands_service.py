"""One command from a staff member, by HTTP or websocket alike: check, authorize, execute.

The outcome says what it did or why not; every command is counted and logged here, so the
two ways in cannot differ in what they check or record.
"""

from __future__ import annotations

import logging
import time

import msgspec

from ..engine import commands
from ..engine.events import Event
from ..store.house import HouseSpan
from ..store.ids import check_command_id
from ..store.outcome import Outcome
from .context import Floor
from .edges import check_numbers
from .permissions import authorize
from .principal import Principal
from .ruling_check import refused_ruling

log = logging.getLogger("floor.server")


def _stamped(command: commands.Command, principal: Principal) -> commands.Command:
    """A bust-out carries who reported it, as the session says (never as the sender says):
    a second phone about to report the same player is told who was first."""
    if isinstance(command, commands.Bust | commands.BustSameHand | commands.AwardSeat):
        return msgspec.structs.replace(command, by=principal.username)
    return command


async def run_command(
    floor: Floor,
    tid: str,
    principal: Principal,
    command: commands.Command,
    command_id: str | None,
    decided: list[Event] | None = None,
) -> Outcome:
    """Authorize and execute one command; the outcome says what it did or why not.

    ``decided`` is handed the events written (``Service.execute``)."""
    if command_id is not None:
        check_command_id(command_id)
    # HTTP and websocket alike: a stack of 2**64 - 1 bricked snapshots.
    check_numbers(command, "command")
    start = time.perf_counter()
    command = _stamped(command, principal)
    # A ruling names a rule of the tournament's book, which the engine cannot read.
    refused = await refused_ruling(floor, tid, principal, command)
    if refused is not None:
        return refused
    # Authorized in the tournament's lock, on the very state the command is decided on (and
    # again on each retry): checked before it, a dealer's bust could land after the floor
    # moved the player off the dealer's table. What it claims in the house (an entry to a
    # later flight, a bag sheet) is held there once it is authorized.
    outcome = await floor.store.execute(
        tid,
        command,
        command_id,
        authorize=lambda t: authorize(principal, command, t),
        span=HouseSpan(floor.house),
        decided=decided,
    )
    kind = type(command).__struct_config__.tag
    floor.metrics.command(str(kind), "ok" if outcome.ok else "refused")
    log.info(
        "command",
        extra={
            "tournament": tid,
            "command": kind,
            "by": principal.username,
            "ok": outcome.ok,
            "seq": outcome.last if outcome.ok else None,
            "duplicate": outcome.duplicate,
            "error": outcome.error.message if outcome.error else None,
            "ms": round((time.perf_counter() - start) * 1000, 2),
        },
    )
    return outcome
