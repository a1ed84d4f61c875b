"""The results and the payout sheet, signed by the venue (``floor.signing``).

One JSON document: the finishers as ``results.csv`` lists them, the payout table, the
sequence number they stand at and the hash chain's head there (so the results name the very
log they come from), and the venue's signature of the document's bytes::

    {"document": {"format": "floor-results", "version": 1, "tournament": ..., "seq": ...,
                  "chain": {"spec": "floor-chain/1", "head": "..."}, "results": [...],
                  "payouts": [...]},
     "signature": {"alg": "ed25519", "key_id": "ed25519:...", ...}}

``floor verify`` checks it offline against the venue's published key list.
"""

from __future__ import annotations

from typing import Final

import msgspec

from ..engine import chain
from ..engine.prize import PaidPlace
from ..engine.read.views import prize_pool
from ..engine.state import Tournament
from ..signing import Signature, Signer
from .results import ResultRow, result_rows

FORMAT: Final = "floor-results"
VERSION: Final = 1


class Head(msgspec.Struct, frozen=True):
    spec: str
    head: str


class Results(msgspec.Struct, frozen=True, kw_only=True):
    format: str = FORMAT
    version: int = VERSION
    tournament: str
    name: str
    seq: int
    chain: Head
    currency: str | None
    pool: int | None
    results: list[ResultRow]
    payouts: list[PaidPlace]


class SignedResults(msgspec.Struct, frozen=True):
    document: msgspec.Raw
    signature: Signature


def document(t: Tournament, tid: str, seq: int, head: bytes) -> Results:
    pool = prize_pool(t)
    return Results(
        tournament=tid,
        name=t.state.name,
        seq=seq,
        chain=Head(chain.SPEC, head.hex()),
        currency=pool.currency if pool is not None else None,
        pool=pool.pool if pool is not None else None,
        results=result_rows(t, pool),
        payouts=list(pool.places) if pool is not None else [],
    )


def signed(doc: Results, signer: Signer) -> bytes:
    body = msgspec.json.encode(doc)
    return msgspec.json.encode(SignedResults(msgspec.Raw(body), signer.sign(body)))
