"""``floor verify``'s check of the draws (``floor.engine.fair``), in words a regulator reads.

For an export of a tournament whose draws were committed: the commitment came before the
first entry; each draw's seed hashes to the one before it, back to the committed head; each
was mixed with the chain's link before it; and each decision that drew is decided again from
its revealed seed, on the state the log had folded to, and must write exactly the events the
log holds after it. Where it does not, the draw, the player and the seat are named: what the
log holds and what the committed seed gives.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

import msgspec

from .backup import Line
from .engine import chain, day2, fair
from .engine.commands import Command
from .engine.decide import decide
from .engine.errors import FloorError
from .engine.events import (
    DrawMade,
    DrawsCommitted,
    Event,
    PlayerRegistered,
    SeatsDrawn,
    TableOpened,
    TournamentCreated,
)
from .engine.fair_rng import FairRng
from .engine.state import Tournament
from .protocol import decode_event, encode_event

_command = msgspec.json.Decoder(Command)


class Said(Protocol):
    """Where each finding is said (``verify.Report``)."""

    def ok(self, text: str) -> None: ...
    def bad(self, text: str) -> None: ...
    def note(self, text: str) -> None: ...


def check(tid: str, lines: list[Line], said: Said) -> None:
    raw = [bytes(x.event) for x in lines]
    try:
        events = [decode_event(data) for data in raw]
    except (msgspec.MsgspecError, RecursionError):
        said.bad("the draws: an event cannot be read (see above): the draws were not checked")
        return
    commitments = [k for k, e in enumerate(events) if isinstance(e, DrawsCommitted)]
    if not commitments:
        said.note("the draws: not committed (this tournament was made before committed draws)")
        return
    first_entry = next((k for k, e in enumerate(events) if isinstance(e, PlayerRegistered)), None)
    at = commitments[0]
    if first_entry is not None and first_entry < at:
        said.bad(
            f"the draws: the commitment (event {at + 1}) was published after registration "
            f"opened (the first entry is event {first_entry + 1}): its draws prove nothing"
        )
        return
    head = events[at]
    assert isinstance(head, DrawsCommitted)
    if head.spec != fair.SPEC:
        said.bad(f"the draws: committed to {head.spec!r}, which this floor cannot check")
        return
    _redecide(tid, events, raw, said)


def _redecide(tid: str, events: list[Event], raw: list[bytes], said: Said) -> None:
    links = [bytes.fromhex(x.link) for x in chain.links(chain.genesis(tid), enumerate(raw, 1))]
    # Each draw's record follows the events its decision wrote: where those events start.
    starts: dict[int, int] = {}
    for k, e in enumerate(events):
        if isinstance(e, DrawMade):
            starts[k - e.events] = k
    t: Tournament | None = None
    checked = unchecked = 0
    failed = False
    k = 0
    while k < len(events):
        event = events[k]
        if isinstance(event, TournamentCreated):
            t = Tournament.create(event)
            k += 1
            continue
        if t is None:
            said.bad("the draws: the log does not start with the tournament's creation")
            return
        end = starts.get(k)
        if end is None:
            t.apply(event)
            k += 1
            continue
        made = events[end]
        assert isinstance(made, DrawMade)
        fair_now = t.state.fair
        before = links[k - 1] if k else chain.genesis(tid)
        name = f"draw {made.index} (event {end + 1})"
        if fair_now is None:
            said.bad(f"{name}: made before any commitment")
            return
        if not fair.follows(made.seed, fair_now.last_seed):
            said.bad(
                f"{name}: its seed {made.seed[:16]}... does not hash to the seed before it "
                f"({fair_now.last_seed[:16]}...): it is not the committed seed"
            )
            failed = True
            if not fair.is_hash(made.seed):
                return  # not even a seed: nothing to draw from
        if made.link != before.hex():
            said.bad(
                f"{name}: mixed with the link {made.link[:16]}..., but the chain's link "
                f"before its events is {before.hex()[:16]}...: it was not made on this log"
            )
            failed = True
        logged = raw[k:end]
        if made.decided == fair.DAY2_REDRAW:
            seed = bytes.fromhex(made.seed)
            rng = FairRng(fair.material(tid, made.index, seed, before, made.witness))
            wrong = _day2(t, events[k:end], rng)
            if wrong:
                said.bad(f"{name} (Day 2's redraw): {wrong}")
                return
            for e in events[k : end + 1]:
                t.apply(e)
            checked += 1
            k = end + 1
            continue
        if made.decided is None:
            unchecked += 1
            for e in events[k : end + 1]:
                t.apply(e)
            k = end + 1
            continue
        rng = FairRng(
            fair.material(tid, made.index, bytes.fromhex(made.seed), before, made.witness)
        )
        command = _command.decode(made.decided)
        kind = type(command).__struct_config__.tag
        try:
            again = decide(t, command, made.at, rng)
        except FloorError as e:
            said.bad(f"{name}: decided again, its command ({kind}) is refused: {e}")
            return
        mine = [encode_event(e) for e in again]
        if mine != logged:
            said.bad(f"{name} ({kind}): {_difference(t, logged, mine)}")
            return
        t.apply(made)
        checked += 1
        k = end + 1
    if failed:
        return
    line = f"the draws ({fair.SPEC}): {checked} decided again from their committed seeds"
    if unchecked:
        said.note(f"{unchecked} draws' commands are the staff's, not in this export")
    said.ok(f"{line}, each to exactly the seats the log holds")


def _day2(t: Tournament, events: list[Event], rng: FairRng) -> str | None:
    """Day 2's redraw made again from its own entries: what differs, or None."""
    drawn = day2.drawn_from(events)
    numbers, seats = day2.redraw(drawn, t.state.rules, rng)
    opened = tuple(e.table for e in events if isinstance(e, TableOpened))
    if opened != numbers:
        return f"the log opens {len(opened)} tables, the committed seed's draw {len(numbers)}"
    logged = next((e.seats for e in events if isinstance(e, SeatsDrawn)), ())
    said = {x.player: (x.table, x.seat) for x in logged}
    mine = {x.player: (x.table, x.seat) for x in seats}
    names = {pid: name for pid, name, _ in drawn}
    return _moved(said, mine, lambda pid: f"{names.get(pid, pid)} ({pid})")


def _seats(data: list[bytes]) -> dict[str, tuple[int, int]]:
    """Every (player, table, seat) the events hold, by player: the last one."""
    found: dict[str, tuple[int, int]] = {}

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            player, table, seat = node.get("player"), node.get("table"), node.get("seat")
            if isinstance(player, str) and isinstance(table, int) and isinstance(seat, int):
                found[player] = (table, seat)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for item in data:
        walk(msgspec.json.decode(item))
    return found


def _difference(t: Tournament, logged: list[bytes], mine: list[bytes]) -> str:
    def label(pid: str) -> str:
        who = t.state.players.get(pid)
        return f"{who.name} ({pid})" if who is not None else pid

    moved = _moved(_seats(logged), _seats(mine), label)
    if moved is not None:
        return moved
    if len(logged) != len(mine):
        return f"the log holds {len(logged)} events before it, the committed seed gives {len(mine)}"
    for number, (a, b) in enumerate(zip(logged, mine, strict=True), 1):
        if a != b:
            return f"its event {number} differs from what the committed seed gives"
    return "differs from what the committed seed gives"


Spots = dict[str, tuple[int, int]]


def _moved(said: Spots, drawn: Spots, label: Callable[[str], str]) -> str | None:
    """The first player (by id) the log seats elsewhere than the committed seed draws."""
    for player in sorted(set(said) | set(drawn)):
        if said.get(player) != drawn.get(player):
            return (
                f"{label(player)}: the log seats them at {_where(said.get(player))}, the "
                f"committed seed draws {_where(drawn.get(player))}"
            )
    return None


def _where(spot: tuple[int, int] | None) -> str:
    return "no seat" if spot is None else f"table {spot[0]}, seat {spot[1]}"
