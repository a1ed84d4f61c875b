"""The committed draws folded into the state (``fair``): the commitment, the seeds revealed,
the witness's number."""

from __future__ import annotations

import msgspec

from .events import (
    DrawMade,
    DrawsCommitted,
    Event,
    PlayerSeated,
    PlayersMoved,
    SeatsAssigned,
    SeatsDrawn,
    WitnessSet,
)
from .model import PlayerId
from .records import FairDraws, Player


def fold(fair: FairDraws | None, event: DrawsCommitted | DrawMade | WitnessSet) -> FairDraws:
    match event:
        case DrawsCommitted():
            return FairDraws(
                spec=event.spec,
                head=event.head,
                length=event.length,
                at=event.at,
                last_seed=event.head,
            )
        case DrawMade():
            assert fair is not None
            return msgspec.structs.replace(
                fair, used=event.index, last_seed=event.seed, left=event.events
            )
        case WitnessSet():
            assert fair is not None
            return msgspec.structs.replace(fair, witness=event.value, witness_at=event.at)


def seated(fair: FairDraws, event: Event, players: dict[PlayerId, Player]) -> None:
    """After ``event``: the seats it gave, if it is one of a draw's events, are that draw's;
    a seat the rules chose (a balance move, a correction) came from no draw."""
    if isinstance(event, PlayersMoved) and event.reason in ("balance", "correction"):
        for m in event.moves:
            if (p := players.get(m.player)) is not None:
                p.draw = None
    if not fair.left or isinstance(event, DrawMade):
        return
    fair.left -= 1
    match event:
        case SeatsDrawn(seats=seats) | SeatsAssigned(seats=seats):
            for x in seats:
                if (p := players.get(x.player)) is not None:
                    p.draw = fair.used
        case PlayerSeated(player=pid):
            if (p := players.get(pid)) is not None:
                p.draw = fair.used
        case _:
            pass
