"""The hash chain over a tournament's log: what makes a log that was changed afterwards show.

Each event's link is the SHA-256 of the link before it, of the event as the public is shown
it (``public_form``), and of the whole event as written (the staff's part included): the
public can check the chain from what it was sent and the hashes of the rest, a director or a
regulator holding the whole log checks everything. The head (the last link) is shown on the
wall and read from the open API as the day goes on, so a log rewritten later no longer leads
to the heads that were seen; an export carries every link and ``floor verify`` names the
first event that does not follow. The algorithm is written down in ``docs/chain-spec.md``
under the name ``SPEC``; a change to it is a new name.

Pure: the events are given as the JSON texts they are stored as (which never change once
written), so the links of an old log are the same whatever the code reading it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import Final

import msgspec

from . import public_form

SPEC: Final = "floor-chain/1"


class Link(msgspec.Struct, frozen=True):
    """One event's place in the chain, each hash in hex."""

    seq: int
    public: str
    staff: str
    link: str


class ChainHead(msgspec.Struct, frozen=True):
    """The chain's head after event ``seq``: what the wall shows and a reporter notes."""

    tournament: str
    spec: str
    seq: int
    head: str


class Break(msgspec.Struct, frozen=True):
    """Where a claimed chain stops following from its events."""

    seq: int
    why: str


def genesis(tid: str) -> bytes:
    """The link before the first event: the tournament's own, so no two chains share one."""
    return hashlib.sha256(f"{SPEC}\n{tid}".encode()).digest()


def step(prev: bytes, event: bytes) -> tuple[bytes, bytes, bytes]:
    """The public part's hash, the whole event's hash and the link, for ``event`` after
    ``prev``."""
    whole = hashlib.sha256(event).digest()
    public_text = public_form.event(event)
    public = whole if public_text is event else hashlib.sha256(public_text).digest()
    return public, whole, hashlib.sha256(prev + public + whole).digest()


def links(prev: bytes, events: Iterable[tuple[int, bytes]]) -> list[Link]:
    """The links of ``events`` (seq, JSON text) following ``prev``."""
    out: list[Link] = []
    for seq, event in events:
        public, whole, prev = step(prev, event)
        out.append(Link(seq, public.hex(), whole.hex(), prev.hex()))
    return out


def head(prev: bytes, events: Iterable[bytes]) -> bytes:
    """The link after ``events``, following ``prev``."""
    for event in events:
        prev = step(prev, event)[2]
    return prev


def first_break(tid: str, claimed: Iterable[tuple[int, bytes, str | None]]) -> Break | None:
    """The first event (seq, JSON text, the link written beside it) whose link is not the one
    its text and the events before it give, or that is out of its place; None when the whole
    chain follows."""
    prev = genesis(tid)
    expected = 1
    for seq, event, said in claimed:
        if seq != expected:
            return Break(seq, f"is numbered {seq} where event {expected} should be")
        prev = step(prev, event)[2]
        if said is None:
            return Break(seq, "has no link written beside it")
        if said != prev.hex():
            return Break(
                seq,
                f"does not follow: its link is written as {said[:16]}…, the events up to it "
                f"give {prev.hex()[:16]}… (this event, or the link beside it, was changed)",
            )
        expected += 1
    return None
