"""The hash chain's head of each tournament, kept current in this process (``engine.chain``).

The head after event N is a function of the log's first N events, so any process can work it
out; each keeps the last head it reached per tournament and goes on from there, reading only
the events written since. A long log read for the first time is walked in pages, the loop
given back between them: no reader waits behind a day's whole log. Readers of one tournament
at once wait for one walk, not one each.
"""

from __future__ import annotations

import asyncio
from typing import Final

from ..engine import chain
from ..store.service import Service

#: Events read and linked between two turns of the loop (about 5 ms).
PAGE: Final = 2_000


class ChainHeads:
    def __init__(self, store: Service) -> None:
        self.store = store
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
                page = await self.store.log.read(tid, seq, min(PAGE, version - seq))
                if not page:
                    break
                head = chain.head(head, (data for _, data in page))
                seq = page[-1][0]
                await asyncio.sleep(0)
            self._heads[tid] = (seq, head)
            return head

    def forget(self, tid: str) -> None:
        """A tournament deleted or imported again under its id: its chain starts anew."""
        self._heads.pop(tid, None)
