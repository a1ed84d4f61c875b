"""Chip counts: what the floor counted at the tables, and the chip leaders that follow.

A count is a stack the floor saw at an instant: a sheet of a whole table (every seat at once)
or a single seat, each stack named by its player so a count sent late from a phone's outbox
never lands on whoever sits in the seat by then. A stack nobody counted is the stack the
player was given, which no screen shows as a count: the leaders and the average here are of
counted stacks only, with how many there are.

A count stands at the time it was taken (``at``, the server's time as the phone knows it),
not at the time it arrived: one taken before the stack's last count (by another phone, or a
chip race) is out of date, and refused rather than laid over the newer one.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Sequence

import msgspec

from . import lookups
from .commands import CountTable
from .count_age import OldCount, count_age
from .errors import NotAllowed, refused
from .events import (
    AddOnMade,
    ChipsRaced,
    CountedStack,
    Event,
    LevelChanged,
    PlayerBusted,
    PlayersMoved,
    RebuyMade,
    StacksCounted,
    StackSet,
    TableBagged,
    TableSetUp,
)
from .model import PlayerId
from .state import Player, Table, Tournament, TournamentState

#: How far a count's time may run ahead of the server's clock: the phone's estimate of the
#: server's time is off by a round trip at most, far less than this.
AHEAD = 60.0
#: The chip leaders the screens are sent.
LEADERS = 10


def count_table(t: Tournament, c: CountTable, now: float) -> list[Event]:
    """The event of a count sheet, or a refusal naming the field (nothing changes then)."""
    table = lookups.table(t, c.table)
    at = now if c.at is None else c.at
    if at > now + AHEAD:
        ahead = round(at - now)
        raise refused(NotAllowed, "count_in_future", {"seconds": ahead}, field="at")
    # A phone a little ahead counted now, not in the future.
    at = min(at, now)
    seen: set[PlayerId] = set()
    stacks: list[CountedStack] = []
    for i, count in enumerate(c.stacks):
        field = f"stacks[{i}].player"
        p = counted(t, table, count.player, seen, field)
        if p.counted_at is not None and p.counted_at > at:
            raise refused(NotAllowed, "count_older", {"player": p.id}, field=field)
        stacks.append(CountedStack(player=p.id, stack=count.stack))
    return [StacksCounted(table=table.number, stacks=tuple(stacks), at=at)]


# The chip leaders ------------------------------------------------------------------------------


class Leader(msgspec.Struct, frozen=True, array_like=True):
    """``[player, stack, counted at, old]``: one of the biggest counted stacks, and why the
    count is old (``count_age``; None: it stands)."""

    player: PlayerId
    stack: int
    at: float | None
    old: OldCount | None = None


class ChipFacts(msgspec.Struct, frozen=True, kw_only=True):
    """The counted stacks of the players still in, as the wall and player screens show them."""

    #: Players still in whose stack was counted (or raced); the rest are not counted.
    counted: int
    #: The average of the counted stacks; None when nobody is counted.
    average: int | None
    #: The biggest counted stacks, biggest first (equal stacks by player id: a move does not
    #: reorder them).
    leaders: list[Leader]
    #: The latest count; None when nobody is counted.
    last_at: float | None


def chip_facts(t: Tournament) -> ChipFacts:
    counted = [p for p in _seated(t.state.players.values()) if p.counted and p.stack is not None]
    total = sum(p.stack or 0 for p in counted)
    top = heapq.nsmallest(LEADERS, counted, key=_rank)
    times = [p.counted_at for p in counted if p.counted_at is not None]
    return ChipFacts(
        counted=len(counted),
        average=round(total / len(counted)) if counted else None,
        leaders=[Leader(p.id, p.stack or 0, p.counted_at, count_age(t.state, p)) for p in top],
        last_at=max(times, default=None),
    )


def _seated(players: Iterable[Player]) -> Iterable[Player]:
    return (p for p in players if not p.busted and p.table is not None)


def _rank(p: Player) -> tuple[int, PlayerId]:
    return (-(p.stack or 0), p.id)


def touches_counts(t: Tournament, events: Sequence[Event]) -> bool:
    """Whether these events (applied to ``t``) may change the chip facts: a count, a race, a
    sale, anything that names a counted player (out, back, gone), or what made a count old
    (``count_age``: a level change, a bust-out at its table, a move to a table with one; a
    count never becomes current again but by a new count)."""
    s = t.state
    players = s.players
    for e in events:
        if isinstance(e, StackSet | StacksCounted | ChipsRaced | RebuyMade | AddOnMade):
            return True
        if isinstance(e, TableSetUp | TableBagged | LevelChanged):
            return True
        if isinstance(e, PlayerBusted) and e.table in s.tables:
            seated = s.tables[e.table].occupants.values()
            if any(_made_old(s, players[pid]) for pid in seated):
                return True
        elif isinstance(e, PlayersMoved) and any(_made_old(s, players[m.player]) for m in e.moves):
            return True
        pid = getattr(e, "player", None)
        if isinstance(pid, str):
            p = players.get(pid)
            if p is None or p.counted:
                return True
    return False


def _made_old(s: TournamentState, p: Player) -> bool:
    return count_age(s, p) == "bust"


def counted(t: Tournament, table: Table, pid: PlayerId, seen: set[PlayerId], field: str) -> Player:
    """A player a count of ``table`` names: seated there, and named once (``seen``)."""
    p = lookups.seated(t, pid, field)
    if p.id in seen:
        raise refused(NotAllowed, "player_listed_twice", {"player": p.id}, field=field)
    seen.add(p.id)
    if p.table != table.number:
        raise refused(
            NotAllowed,
            "count_not_at_table",
            {"player": p.id, "table": table.number, "at_table": p.table},
            field=field,
        )
    return p
