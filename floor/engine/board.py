"""The board of seat changes players read to find their new seat, newest first.

What goes on it: a move carried out, a called move called again to another seat or called
off, a sit-out or a disqualification and a sit-out's end, a table breaking or broken, the
final table formed. Only what the room is shown: a move reaches the board when it is carried
out (or called again), never while it is a plan the floor has not called.

The board is folded from the events as they come (``Board.add``), each entry with the
player's name as it stood then, so a phone that follows one player is sent the board without
the room's players. ``web/js/board.js`` folds the same for the screens that hold the room.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Literal

import msgspec

from .events import (
    CallsLapsed,
    Event,
    FinalTableFormed,
    MoveCancelled,
    MovesCalled,
    PlayerBusted,
    PlayersMoved,
    RulingRecorded,
    SitOutEnded,
    TableBreaking,
    TableBroken,
)
from .model import PlayerId, SeatNo, Spot, TableNo
from .state import TournamentState

BoardKind = Literal[
    "move",
    "recalled",
    "called_off",
    "sit_out",
    "disqualified",
    "sit_out_over",
    "breaking",
    "broken",
    "final",
]

#: Entries kept: what the wall keeps for its page of seat changes (the player screen 40, a
#: follower 25).
LIMIT = 120


class BoardEntry(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One line of the board. ``key`` is unique in the tournament (the event's number and the
    line's place in it); ``at`` the event's own time where it has one."""

    key: str
    seq: int
    kind: BoardKind
    at: float | None = None
    player: PlayerId | None = None
    name: str | None = None
    from_: Spot | None = msgspec.field(default=None, name="from")
    to: Spot | None = None
    reason: str | None = None
    table: TableNo | None = None
    seat: SeatNo | None = None


class _Call(msgspec.Struct, frozen=True):
    seq: int
    table: TableNo
    seat: SeatNo | None


class Board:
    """The board, folded event by event (``add``) on the state each event left."""

    __slots__ = ("_calls", "changes", "entries", "limit")

    def __init__(self, limit: int = LIMIT) -> None:
        self.limit = limit
        #: How many times the board changed: what was built from it is good while this holds.
        self.changes = 0
        #: Newest first.
        self.entries: list[BoardEntry] = []
        #: The last call of each player's move: a lapse or cancel after it calls it off.
        self._calls: dict[PlayerId, _Call] = {}

    def add(self, seq: int, event: Event, state: TournamentState) -> bool:
        """Fold the event numbered ``seq``; True when the board changed."""
        new = list(self._lines(seq, event, state))
        if not new:
            return False
        self.entries[:0] = reversed(new)
        del self.entries[self.limit :]
        self.changes += 1
        return True

    def add_all(self, numbered: Iterable[tuple[int, Event]], state: TournamentState) -> bool:
        changed = False
        for seq, event in numbered:
            changed = self.add(seq, event, state) or changed
        return changed

    def _lines(self, seq: int, e: Event, s: TournamentState) -> Iterable[BoardEntry]:
        at: float | None = getattr(e, "at", None) or None

        def line(
            i: int,
            kind: BoardKind,
            player: PlayerId | None = None,
            from_: Spot | None = None,
            to: Spot | None = None,
            reason: str | None = None,
            table: TableNo | None = None,
            seat: SeatNo | None = None,
        ) -> BoardEntry:
            held = s.players.get(player) if player is not None else None
            return BoardEntry(
                key=f"{seq}.{i}",
                seq=seq,
                kind=kind,
                at=at,
                player=player,
                name=held.name if held is not None else None,
                from_=from_,
                to=to,
                reason=reason,
                table=table,
                seat=seat,
            )

        if isinstance(e, PlayersMoved):
            for i, m in enumerate(e.moves):
                self._calls.pop(m.player, None)
                yield line(i, "move", player=m.player, from_=m.from_, to=m.to, reason=e.reason)
        elif isinstance(e, PlayerBusted):
            self._calls.pop(e.player, None)
        elif isinstance(e, MovesCalled):
            for i, c in enumerate(e.calls):
                self._calls[c.player] = _Call(seq, c.to.table, c.to.seat)
                # A first call is on the board as a move to make; a second is a change.
                if c.count > 1:
                    yield line(i, "recalled", player=c.player, table=c.to.table, seat=c.to.seat)
        elif isinstance(e, CallsLapsed):
            for i, player in enumerate(e.players):
                yield from self._called_off(seq, player, i, line)
        elif isinstance(e, MoveCancelled):
            if e.player is not None:
                yield from self._called_off(seq, e.player, 0, line)
        elif isinstance(e, RulingRecorded):
            for i, pen in enumerate(x for x in e.penalties if x.kind != "warning"):
                kind: BoardKind = "sit_out" if pen.kind == "sit_out" else "disqualified"
                table, seat = _seat_of(s, pen.player)
                yield line(i, kind, player=pen.player, table=table, seat=seat)
        elif isinstance(e, SitOutEnded):
            table, seat = _seat_of(s, e.player)
            yield line(0, "sit_out_over", player=e.player, table=table, seat=seat)
        elif isinstance(e, TableBreaking):
            yield line(0, "breaking", table=e.table)
        elif isinstance(e, TableBroken):
            yield line(0, "broken", table=e.table)
        elif isinstance(e, FinalTableFormed):
            yield line(0, "final", table=e.table)

    def _called_off(
        self, seq: int, player: PlayerId, i: int, line: Callable[..., BoardEntry]
    ) -> Iterable[BoardEntry]:
        call = self._calls.get(player)
        if call is None or call.seq > seq:
            return
        del self._calls[player]
        yield line(i, "called_off", player=player, table=call.table, seat=call.seat)


def _seat_of(s: TournamentState, player: PlayerId) -> tuple[TableNo | None, SeatNo | None]:
    p = s.players.get(player)
    return (p.table, p.seat) if p is not None else (None, None)
