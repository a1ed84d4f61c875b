"""The alternates' line after each of its events: the state's ``apply`` calls ``fold``."""

from __future__ import annotations

from typing import assert_never

import msgspec

from .alternates_model import Alternate, AlternateLine
from .events import (
    AlternateEvent,
    AlternateQueued,
    AlternatesCalled,
    AlternateSeated,
    AlternatesLapsed,
    AlternatesLeft,
    CapacitySet,
)


def fold(line: AlternateLine, e: AlternateEvent) -> AlternateLine:
    """The line after ``e`` (the state's ``apply`` calls this for every alternates event)."""

    replace = msgspec.structs.replace
    match e:
        case CapacitySet():
            return replace(line, capacity=e.capacity)
        case AlternateQueued():
            a = Alternate(id=e.alternate, name=e.name, at=e.at, player=e.player, public=e.public)
            return replace(line, line=(*line.line, a), issued=line.issued + 1)
        case AlternatesCalled():
            ids = set(e.alternates)
            called = tuple(
                replace(a, called_at=e.at, ends_at=e.ends_at) if a.id in ids else a
                for a in line.line
            )
            return replace(line, line=called)
        case AlternateSeated():
            rest = tuple(a for a in line.line if a.id != e.alternate)
            return replace(line, line=rest, seated=line.seated + 1)
        case AlternatesLapsed():
            ids = set(e.alternates)
            rest = tuple(a for a in line.line if a.id not in ids)
            return replace(line, line=rest, lapsed=line.lapsed + len(ids))
        case AlternatesLeft():
            ids = set(e.alternates)
            rest = tuple(a for a in line.line if a.id not in ids)
            refunded = line.refunded + (len(ids) if e.refunded else 0)
            return replace(line, line=rest, refunded=refunded)
        case _:
            assert_never(e)
