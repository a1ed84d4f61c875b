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
            return msgspec.structs.replace(fair, used=event.index, last_seed=event.seed)
        case WitnessSet():
            assert fair is not None
            return msgspec.structs.replace(fair, witness=event.value, witness_at=event.at)


def seated(event: Event, players: dict[PlayerId, Player]) -> None:
    """A draw's record names the players it seated; a seat the rules chose (a balance move,
    a correction) came from no draw."""
    match event:
        case DrawMade(seated=pids, index=index):
            for pid in pids:
                if (p := players.get(pid)) is not None:
                    p.draw = index
        case PlayersMoved(moves=moves, reason=reason) if reason in ("balance", "correction"):
            for m in moves:
                if (p := players.get(m.player)) is not None:
                    p.draw = None
        case _:
            pass


def seated_by(events: list[Event]) -> tuple[PlayerId, ...]:
    """The players ``events`` give a seat (a draw's), each once, in order."""
    out: dict[PlayerId, None] = {}
    for e in events:
        match e:
            case SeatsDrawn(seats=seats) | SeatsAssigned(seats=seats):
                out.update((x.player, None) for x in seats)
            case PlayerSeated(player=pid):
                out[pid] = None
            case _:
                pass
    return tuple(out)
