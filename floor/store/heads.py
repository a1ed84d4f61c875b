"""The hash chain's head of each tournament, kept current in this process (``engine.chain``):
the wall and the open feed show it, and each draw is mixed with it (``engine.fair``).

The head after event N is a function of the log's first N events, so any process can work it
out; each keeps the last head it reached per tournament and goes on from there. Every batch
this process writes or hears on the bus carries its events as the log holds them
(``observe``): a head once asked for follows them with no read at all. A head asked for the
first time, or one that fell behind (a batch missed), reads the events since from the log,
walked in pages with the loop given back between them: no reader waits behind a day's whole
log, and readers of one tournament at once wait for one walk, not one each. Tournaments
nobody asked about cost nothing.
"""

from __future__ import annotations

import asyncio
from typing import Final

import msgspec

from ..engine import chain
from ..protocol import RawSequenced
from .ports import EventLog

#: Events read and linked between two turns of the loop (about 5 ms).
PAGE: Final = 2_000


class _Batch(msgspec.Struct, frozen=True):
    """What of a batch the chain needs; the rest of it is skipped unread."""

    tournament: str
    from_: int = msgspec.field(name="from")
    to: int = msgspec.field(name="to")
    events: list[RawSequenced] = msgspec.field(default_factory=list)


_batch = msgspec.json.Decoder(_Batch)


class ChainHeads:
    def __init__(self, log: EventLog) -> None:
        self.log = log
        self._heads: dict[str, tuple[int, bytes]] = {}
        self._locks: dict[str, asyncio.Lock] = {}

    async def head(self, tid: str, version: int) -> bytes:
        """The link after event ``version`` of ``tid`` (the genesis before the first)."""
        lock = self._locks.setdefault(tid, asyncio.Lock())
        async with lock:
            seq, head = self._heads.get(tid, (0, chain.genesis(tid)))
            if seq > version:
                # Asked for an older version than kept (another process's view lags): the
                # walk starts again rather than keep every head.
                seq, head = 0, chain.genesis(tid)
            while seq < version:
                page = await self.log.read(tid, seq, min(PAGE, version - seq))
                if not page:
                    break
                head = chain.head(head, (data for _, data in page))
                seq = page[-1][0]
                await asyncio.sleep(0)
            self._heads[tid] = (seq, head)
            return head

    def observe(self, payload: bytes) -> None:
        """A batch written or heard (``protocol.EventsOut``): a head kept just before it
        follows it."""
        try:
            batch = _batch.decode(payload)
        except msgspec.DecodeError:
            return
        kept = self._heads.get(batch.tournament)
        if kept is None or kept[0] != batch.from_ - 1 or not batch.events:
            return
        head = chain.head(kept[1], (bytes(item.event) for item in batch.events))
        self._heads[batch.tournament] = (batch.to, head)

    def forget(self, tid: str) -> None:
        """A tournament deleted or imported again under its id: its chain starts anew."""
        self._heads.pop(tid, None)
