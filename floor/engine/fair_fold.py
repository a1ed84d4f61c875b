"""The committed draws folded into the state (``fair``): the commitment, the seeds revealed,
the witness's number."""

from __future__ import annotations

import msgspec

from .events import DrawMade, DrawsCommitted, WitnessSet
from .records import FairDraws


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
