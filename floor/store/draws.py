"""The shell of draws anyone can check (``floor.engine.fair``): each tournament's secret seed
chain kept (``SeedKeeper``), committed at its creation, and each decision's random source
made from the next seed.

The engine is handed a ``FairRng`` for every command of a committed tournament; only a
decision that drew from it (``rng.used``) spends the seed, written last in its batch as a
``DrawMade`` that reveals it with everything the draw was mixed with and the command, so
the whole log's holder decides it again (``floor verify``). A tournament whose secret is not
kept (created before, or restored without its keys) draws from the system's source, as before.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import Protocol

import msgspec

from ..engine import fair
from ..engine.events import DrawsCommitted
from ..engine.fair_rng import FairRng
from ..engine.state import Tournament
from .heads import ChainHeads

log = logging.getLogger("floor.store")

_encode_chain = msgspec.msgpack.Encoder().encode
_decode_chain = msgspec.msgpack.Decoder(fair.Chain).decode


class SeedKeeper(Protocol):
    """Where the chains' secret halves are kept (``floor.redisdb.seeds``)."""

    async def keep(self, tid: str, chain: bytes) -> bytes:
        """Keep ``chain`` unless one is kept for ``tid`` already: the one kept."""
        ...

    async def get(self, tid: str) -> bytes | None: ...


class Source(msgspec.Struct, frozen=True):
    """One decision's random source and what it was made from."""

    rng: FairRng
    index: int
    seed: bytes
    link: bytes
    witness: str

    @property
    def drawn(self) -> tuple[int, bytes, bytes, str]:
        return self.index, self.seed, self.link, self.witness


class Draws:
    def __init__(self, seeds: SeedKeeper, heads: ChainHeads, length: int = fair.LENGTH) -> None:
        self.seeds = seeds
        self.heads = heads
        self.length = length
        self._chains: dict[str, fair.Chain] = {}
        #: Each tournament's block of seeds being drawn from (``Chain.block``).
        self._blocks: dict[str, tuple[int, list[bytes]]] = {}
        #: Tournaments committed elsewhere whose secret is not kept (said once, not per draw).
        self._missing: set[str] = set()

    async def commitment(self, tid: str, now: float) -> DrawsCommitted:
        """A new chain for ``tid`` kept (or the one a first try of this creation kept), and
        the commitment to its head."""
        top = secrets.token_bytes(32)
        # Tens of milliseconds of hashing: off the loop.
        chain = await asyncio.to_thread(fair.make_chain, top, self.length)
        kept = await self.seeds.keep(tid, _encode_chain(chain))
        if kept != _encode_chain(chain):
            chain = _decode_chain(kept)
        self._chains[tid] = chain
        self._blocks.pop(tid, None)
        self._missing.discard(tid)
        return fair.committed(chain.head, chain.length, now)

    def first(self, tid: str, link: bytes) -> Source:
        """The source of a new tournament's first draw (its chain just made here), made in
        its creation after ``link``: Day 2's redraw."""
        seed = self._chains[tid].seed(1)
        rng = FairRng(fair.material(tid, 1, seed, link, ""))
        return Source(rng=rng, index=1, seed=seed, link=link, witness="")

    async def source(self, tid: str, version: int, t: Tournament) -> Source | None:
        """The next draw's source for a command decided on ``t`` at ``version``; None where
        the tournament's draws are not committed or its secret is not kept here."""
        index = fair.next_index(t)
        if index is None:
            return None
        chain = await self._chain(tid)
        if chain is None:
            return None
        committed = t.state.fair
        assert committed is not None
        if chain.head.hex() != committed.head:
            log.error("the seeds kept for %s are not the ones committed: draws not checkable", tid)
            return None
        seed = self._seed(tid, chain, index)
        link = await self.heads.head(tid, version)
        witness = committed.witness
        rng = FairRng(fair.material(tid, index, seed, link, witness))
        return Source(rng=rng, index=index, seed=seed, link=link, witness=witness)

    async def revealed(self, tid: str, index: int, t: Tournament) -> bytes | None:
        """Draw ``index``'s seed once it is made (and so in the log already), else None."""
        committed = t.state.fair
        if committed is None or not 1 <= index <= committed.used:
            return None
        chain = await self._chain(tid)
        if chain is None or chain.head.hex() != committed.head:
            return None
        return chain.seed(index)

    def _seed(self, tid: str, chain: fair.Chain, index: int) -> bytes:
        first, seeds = self._blocks.get(tid, (0, []))
        if not first <= index < first + len(seeds):
            first, seeds = self._blocks[tid] = chain.block(index)
        return seeds[index - first]

    async def _chain(self, tid: str) -> fair.Chain | None:
        chain = self._chains.get(tid)
        if chain is None:
            if tid in self._missing:
                return None
            data = await self.seeds.get(tid)
            if data is None:
                log.warning("no seeds are kept for %s: its draws cannot be checked", tid)
                self._missing.add(tid)
                return None
            chain = self._chains[tid] = _decode_chain(data)
        return chain

    def forget(self, tid: str) -> None:
        self._chains.pop(tid, None)
        self._blocks.pop(tid, None)
        self._missing.discard(tid)
