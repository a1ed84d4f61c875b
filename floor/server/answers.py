"""Answers anyone may ask for, built once for what they are built from, and kept.

A public read built afresh for every request costs every request what building it costs:
the schema 35 ms, the rulebook 12 ms, the results of 10,000 players 6-9 ms, the night's
counts as many. Each answer is kept here under its kind and key (a tournament, a query) with
the version it was built for (a tournament's version, the rulebook as read): asked again at
that version it is the same bytes; a later version builds it again. The ``MOST`` asked for
last are kept, ``BUDGET`` bytes of them at most (a stranger asking ``/events`` from each
``since`` in turn keeps 2 MB answers coming). Each build is counted
(``floor_answers_built_total``), so that an answer built for every request shows.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Callable, Hashable
from typing import Any, Final, TypeVar, cast

from .metrics import Metrics

MOST: Final = 512
BUDGET: Final = 64 * 1024 * 1024

#: Each application's answers (by its metrics: one per ``Floor``), so that two in one
#: process, as the tests make, never share one.
_by_app: weakref.WeakKeyDictionary[Metrics, dict[tuple[str, Hashable], tuple[object, Any, int]]] = (
    weakref.WeakKeyDictionary()
)
T = TypeVar("T")


def _kept_of(metrics: Metrics) -> dict[tuple[str, Hashable], tuple[object, Any, int]]:
    kept = _by_app.get(metrics)
    if kept is None:
        kept = _by_app[metrics] = {}
    return kept


def _size(value: object) -> int:
    if isinstance(value, bytes):
        return len(value)
    if isinstance(value, tuple | list):
        return sum(_size(v) for v in value)
    return 0


def answer(
    metrics: Metrics, kind: str, key: Hashable, version: object, build: Callable[[], T]
) -> T:
    """What ``build()`` returns, built once for ``kind`` and ``key`` at ``version`` (compared
    by identity, or equality: an int version, or the object built from). Call it before the
    next ``await`` when ``build`` reads a tournament: the copy changes with the next command."""
    kept = _kept_of(metrics)
    held = kept.pop((kind, key), None)
    if held is None or not (held[0] is version or held[0] == version):
        built = build()
        metrics.answer_built(kind)
        size = _size(built)
        held = (version, built, size)
        total = sum(h[2] for h in kept.values()) + size
        while kept and (len(kept) >= MOST or total > BUDGET):
            oldest = next(iter(kept))  # the one asked for least lately
            total -= kept.pop(oldest)[2]
    kept[(kind, key)] = held
    return cast(T, held[1])


def answer_kept(metrics: Metrics, kind: str, key: Hashable, version: object) -> bytes | None:
    """The answer kept for ``kind`` and ``key`` at ``version``, if any (before reading what
    building it needs)."""
    held = _kept_of(metrics).get((kind, key))
    if held is not None and (held[0] is version or held[0] == version):
        return cast(bytes, held[1])
    return None


async def answer_off_loop(
    metrics: Metrics, kind: str, key: Hashable, version: object, build: Callable[[], bytes]
) -> bytes:
    """``answer``, built on a worker thread when it is not kept: only for a ``build`` that
    reads nothing another task may change meanwhile (a rulebook, not a live tournament)."""
    held = _kept_of(metrics).get((kind, key))
    if held is not None and (held[0] is version or held[0] == version):
        return answer(metrics, kind, key, version, build)
    built = await asyncio.to_thread(build)
    return answer(metrics, kind, key, version, lambda: built)


def kept(metrics: Metrics) -> int:
    """How many answers the application of ``metrics`` keeps."""
    return len(_kept_of(metrics))


def held(metrics: Metrics, kind: str, key: Hashable, version: object, of: type[T]) -> T | None:
    """The answer of type ``of`` kept for ``kind`` and ``key`` at ``version``, if any."""
    found = _kept_of(metrics).get((kind, key))
    if found is not None and (found[0] is version or found[0] == version):
        value = found[1]
        return value if isinstance(value, of) else None
    return None
