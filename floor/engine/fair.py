"""Draws anyone can check: a committed chain of secret seeds, one used and revealed per draw.

Before anyone registers, the server makes a secret ``top`` and hashes it ``length`` times:
``seed(i - 1) = SHA-256(seed(i))``, ``seed(length) = top``. ``seed(0)``, the head, is
published in the tournament's log (``DrawsCommitted``) before its first entry; nobody can go
from it to the seeds above it. Each decision that draws anything (a seat, a table's break, the
final table) uses the next seed, ``seed(1)``, ``seed(2)``, ..., revealed in the log beside the
draw (``DrawMade``), so anyone checks that it hashes to the seed before it, back to the head.

What the draw is made from (``material``) mixes the seed with what the operator cannot choose
after the commitment: the hash chain's link before the draw (the log so far, ``chain``) and the
witness's number, announced in the room and entered before the draw (``WitnessSet``). The
steps from the material to the choices are ``fair_rng``'s, and ``docs/draw-spec.md`` writes
them down under ``SPEC``; each draw names its spec.

Pure: the secret is kept by the shell (``floor.store``), which gives the engine the seed.
"""

from __future__ import annotations

import hashlib
from typing import Final

import msgspec

from .commands import Command, SetWitness
from .dispatch import decides, folds, validates
from .errors import BadValue, NotAllowed, refused
from .events import DrawMade, DrawsCommitted, Event, WitnessSet
from .fair_fold import fold as fair_fold
from .fair_fold import seated_by
from .fair_rng import FairRng
from .state import Tournament

SPEC: Final = "floor-draw/1"
#: Seeds in a chain: a festival day's draws (every entry, break and final table) and more.
LENGTH: Final = 65_536
#: Every this many seeds one is kept, so a seed is at most this many hashes away.
CHECKPOINT: Final = 256

_encode_command = msgspec.json.Encoder().encode


def previous(seed: bytes) -> bytes:
    """The seed before ``seed`` in the chain."""
    return hashlib.sha256(seed).digest()


class Chain(msgspec.Struct, frozen=True):
    """A chain's secret part, as the shell keeps it: its top and every ``CHECKPOINT``-th
    seed below it (``checkpoints[k]`` is ``seed(k * CHECKPOINT)``, so ``checkpoints[0]`` is
    the head)."""

    top: bytes
    length: int
    checkpoints: list[bytes]

    @property
    def head(self) -> bytes:
        return self.checkpoints[0]

    def seed(self, index: int) -> bytes:
        """``seed(index)``: at most ``CHECKPOINT - 1`` hashes from the checkpoint above."""
        if not 0 <= index <= self.length:
            raise ValueError(f"seed {index} is outside the chain of {self.length}")
        start = min(-(-index // CHECKPOINT) * CHECKPOINT, self.length)
        seed = self.top if start == self.length else self.checkpoints[start // CHECKPOINT]
        for _ in range(start - index):
            seed = previous(seed)
        return seed

    def block(self, index: int) -> tuple[int, list[bytes]]:
        """The seeds of the block of ``CHECKPOINT`` draws holding draw ``index`` (from 1):
        its first index and its seeds in order, so that draws made one after another cost
        one hash each rather than up to ``CHECKPOINT``."""
        if not 1 <= index <= self.length:
            raise ValueError(f"draw {index} is outside the chain of {self.length}")
        first = (index - 1) // CHECKPOINT * CHECKPOINT + 1
        last = min(first + CHECKPOINT - 1, self.length)
        seed = self.seed(last)
        seeds = [seed]
        for _ in range(last - first):
            seed = previous(seed)
            seeds.append(seed)
        seeds.reverse()
        return first, seeds


def make_chain(top: bytes, length: int = LENGTH) -> Chain:
    """The chain hashed down from ``top`` (``length`` hashes: tens of milliseconds)."""
    if len(top) != 32 or length < 1:
        raise ValueError("a chain's top is 32 bytes and it holds at least one seed")
    checkpoints: list[bytes] = [b""] * (length // CHECKPOINT + 1)
    seed = top
    for i in range(length, -1, -1):
        if i % CHECKPOINT == 0:
            checkpoints[i // CHECKPOINT] = seed
        if i:
            seed = previous(seed)
    return Chain(top=top, length=length, checkpoints=checkpoints)


def material(tid: str, index: int, seed: bytes, link: bytes, witness: str) -> bytes:
    """What draw ``index`` is made from: SHA-256 of the spec's name, the tournament, the
    index, the seed, the chain's link before the draw and the witness's number."""
    return hashlib.sha256(
        b"\n".join((SPEC.encode(), tid.encode(), str(index).encode(), seed, link, witness.encode()))
    ).digest()


def made(
    t: Tournament,
    command: Command,
    events: list[Event],
    rng: FairRng,
    drawn: tuple[int, bytes, bytes, str],
    now: float,
) -> list[Event]:
    """``events``, decided on ``t`` with ``rng`` made from ``drawn`` (the index, seed, link
    and witness), and after them the draw's record if the decision drew anything (applied
    to ``t`` too): its seed is spent and revealed, the seats it gave named."""
    out = _recorded(events, rng, drawn, _encode_command(command).decode(), now)
    if out is not events:
        t.apply(out[-1])
    return out


#: What Day 2's redraw records as its decision: made in its creation, from its own entries
#: (``day2.redraw``), so that the draw is made again from Day 2's log alone.
DAY2_REDRAW: Final = '{"type":"day2_redraw"}'


def creation_draw(
    events: list[Event], rng: FairRng, drawn: tuple[int, bytes, bytes, str], now: float
) -> list[Event]:
    """A creation's later events (Day 2's tables, players and redraw), and after them the
    draw's record if they drew anything."""
    return _recorded(events, rng, drawn, DAY2_REDRAW, now)


def _recorded(
    events: list[Event],
    rng: FairRng,
    drawn: tuple[int, bytes, bytes, str],
    decided: str,
    now: float,
) -> list[Event]:
    if not rng.used or not events:
        return events
    index, seed, link, witness = drawn
    record = DrawMade(
        index=index,
        seed=seed.hex(),
        link=link.hex(),
        spec=SPEC,
        events=len(events),
        seated=seated_by(events),
        witness=witness,
        decided=decided,
        at=now,
    )
    return [*events, record]


def committed(head: bytes, length: int, at: float) -> DrawsCommitted:
    return DrawsCommitted(spec=SPEC, head=head.hex(), length=length, at=at)


def next_index(t: Tournament) -> int | None:
    """The index of the next draw's seed, or None where the draws are not committed (a
    tournament from before, or its chain used up)."""
    fair = t.state.fair
    if fair is None or fair.used >= fair.length:
        return None
    return fair.used + 1


def witness(t: Tournament, c: SetWitness, now: float) -> list[Event]:
    if t.state.fair is None:
        raise _uncommitted()
    value = c.value.strip()
    if not value:
        raise refused(BadValue, "witness_blank", {}, field="value")
    return [WitnessSet(value=value, at=now)]


# An imported log's events, checked (``validate``) ------------------------------------------------


def check(t: Tournament, event: DrawsCommitted | DrawMade | WitnessSet) -> None:
    """Refuse what no honest server could have written: a commitment after the first entry
    or a second one, a draw out of order, a seed that does not hash to the one before."""
    s = t.state
    match event:
        case DrawsCommitted():
            if s.fair is not None:
                raise refused(NotAllowed, "draws_committed_twice", {})
            if s.entries or s.players or s.drawn:
                raise refused(NotAllowed, "draws_committed_late", {})
            if event.spec != SPEC or not is_hash(event.head) or event.length < 1:
                raise refused(BadValue, "draws_spec_unknown", {"spec": event.spec}, field="spec")
        case DrawMade():
            fair = s.fair
            if fair is None:
                raise _uncommitted()
            if event.index != fair.used + 1 or event.index > fair.length:
                raise refused(
                    NotAllowed, "draw_out_of_order", {"index": event.index, "used": fair.used}
                )
            if event.spec != fair.spec:
                raise refused(
                    BadValue,
                    "not_as_recorded",
                    {"name": "spec", "value": event.spec, "expected": fair.spec},
                    field="spec",
                )
            if not follows(event.seed, fair.last_seed):
                raise refused(
                    NotAllowed,
                    "draw_seed_wrong",
                    {"index": event.index, "seed": event.seed[:16], "before": fair.last_seed[:16]},
                )
        case WitnessSet():
            if s.fair is None:
                raise _uncommitted()


def follows(seed: str, before: str) -> bool:
    """Whether the revealed ``seed`` (hex) is the chain's next: it hashes to ``before``."""
    return is_hash(seed) and previous(bytes.fromhex(seed)).hex() == before


def is_hash(text: str) -> bool:
    return len(text) == 64 and all(ch in "0123456789abcdef" for ch in text)


def _uncommitted() -> NotAllowed:
    return refused(NotAllowed, "draws_uncommitted", {})


# Dispatch (``floor.engine.registry``) ------------------------------------------------------


def _fold(t: Tournament, e: DrawsCommitted | DrawMade | WitnessSet) -> None:
    t.state.fair = fair_fold(t.state.fair, e)


DECIDES = (decides(SetWitness, lambda t, c, now, rng: witness(t, c, now)),)
CHECKS = (
    validates(DrawsCommitted, check),
    validates(DrawMade, check),
    validates(WitnessSet, check),
)
FOLDS = (
    folds(DrawsCommitted, _fold),
    folds(DrawMade, _fold),
    folds(WitnessSet, _fold),
)
