"""The last batches of each tournament, kept in memory to catch screens up without Redis.

After a wifi blip a room's screens reconnect at once, each with the number it last had: they
are a few batches behind, and those batches went through this process a moment ago. The
ring keeps them as they were sent (``views.Views``: each view built once, framed once), so
such a catch-up is the same frames again, in order, for any number of screens: no read of
the log, nothing encoded. Only a screen that fell further behind than the ring reaches is
caught up from the log (or sent a snapshot).

The ring holds consecutive batches only: a batch that does not follow the newest one (this
process missed some) starts it afresh, so whatever it holds is a gapless run of the log.
"""

from __future__ import annotations

from collections import deque
from typing import NamedTuple

from .views import Views

#: Batches kept per tournament, and their bytes (the staff view): a draw of a 10,000-player
#: room is one batch of some hundreds of KB, so the bytes bound the memory, not the count.
RING_BATCHES = 512
RING_BYTES = 8 * 2**20


class Batch(NamedTuple):
    first: int
    last: int
    views: Views


class Ring:
    """A gapless run of one tournament's most recent batches."""

    __slots__ = ("_batches", "bytes", "max_batches", "max_bytes")

    def __init__(self, max_batches: int = RING_BATCHES, max_bytes: int = RING_BYTES) -> None:
        self._batches: deque[Batch] = deque()
        self.bytes = 0
        self.max_batches = max_batches
        self.max_bytes = max_bytes

    def __len__(self) -> int:
        return len(self._batches)

    @property
    def last(self) -> int | None:
        """The newest sequence number held (None: nothing held)."""
        return self._batches[-1].last if self._batches else None

    @property
    def since(self) -> int | None:
        """The oldest number a screen may have and be caught up from here."""
        return self._batches[0].first - 1 if self._batches else None

    def add(self, first: int, last: int, views: Views) -> None:
        """Keep the batch ``first``..``last``; one already held (an echo) is ignored."""
        newest = self.last
        if newest is not None and last <= newest:
            return
        if newest is not None and first != newest + 1:
            self.clear()  # what came between was missed: the run starts again here
        self._batches.append(Batch(first, last, views))
        self.bytes += views.size
        while len(self._batches) > 1 and (
            len(self._batches) > self.max_batches or self.bytes > self.max_bytes
        ):
            self.bytes -= self._batches.popleft().views.size

    def after(self, since: int) -> list[Batch] | None:
        """The batches a screen holding everything up to ``since`` is missing (empty when
        it has them all); None when the ring does not reach back to ``since``."""
        oldest, newest = self.since, self.last
        if oldest is None or newest is None or since < oldest or since > newest:
            return None
        # Screens are a few batches behind as a rule: look from the newest end.
        out: list[Batch] = []
        for batch in reversed(self._batches):
            if batch.last <= since:
                break
            out.append(batch)
        out.reverse()
        return out

    def bytes_after(self, since: int) -> int | None:
        """What ``after(since)`` comes to (the staff view's bytes), or None."""
        batches = self.after(since)
        return None if batches is None else sum(b.views.size for b in batches)

    def clear(self) -> None:
        self._batches.clear()
        self.bytes = 0
