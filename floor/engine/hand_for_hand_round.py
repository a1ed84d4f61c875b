"""Hand-for-hand as the tournament's state keeps it: the round dealt, who has played it.

``Tournament.apply`` hands this record the events that change it; what may be reported and
when the round is placed and dealt again is ``hand_for_hand``'s. The players a round put out
wait here, still seated, until every table has played the hand: then they are placed
together, by the chips they started it with.
"""

from __future__ import annotations

import msgspec

from .events import HandOut, HandReported
from .model import TableNo


class HandForHand(msgspec.Struct, kw_only=True):
    #: The hand-for-hand hand being played: 1 for the first.
    round: int = 1
    started_at: float = 0.0
    #: The clock ran when hand-for-hand started: its end starts it again.
    paused_clock: bool = False
    #: Tables that have dealt this round's hand (a ``hand`` reported) and those done with it.
    dealt: list[TableNo] = msgspec.field(default_factory=list)
    done: list[TableNo] = msgspec.field(default_factory=list)
    #: The players out in this round so far, placed when the round is over.
    out: list[HandOut] = msgspec.field(default_factory=list)

    def dealt_at(self, table: TableNo) -> None:
        if table not in self.dealt:
            self.dealt.append(table)

    def reported(self, e: HandReported) -> None:
        self.done.append(e.table)
        self.out.extend(e.out)

    def next_round(self, number: int) -> None:
        self.round = number
        self.dealt = []
        self.done = []
        self.out = []
