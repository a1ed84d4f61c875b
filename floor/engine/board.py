"""The board of seat changes players read to find their new seat.

What goes on it: a move carried out, a called move called again to another seat or called
off, a sit-out or a disqualification and a sit-out's end, a table breaking or broken, the
final table formed. Only what the room is shown: a move reaches the board when it is carried
out (or called again), never while it is a plan the floor has not called. Which event puts
which line is said in the one classification of events (``touches.touch``, exhaustive by
type); here is how a line is built and kept.

The board is part of the state (``TournamentState.board``), folded with every event
(``add``), each line with the player's name as it stood then: every process holds the same
board, a snapshot carries it, and a screen is sent its new lines in the batch's patch
(``patch``). A phone that follows one player is sent its last lines (``follow``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Literal, Protocol, assert_never

import msgspec

from .events import Event
from .model import PlayerId, SeatNo, Spot, TableNo
from .touches import AtSeat, AtTable, CallDropped, CalledOff, CallMade, MovedOn, board_steps

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
    """One line of the board. ``key`` is unique in the tournament (the lines counted from
    the first); ``at`` the event's own time where it has one."""

    key: str
    kind: BoardKind
    at: float | None = None
    player: PlayerId | None = None
    name: str | None = None
    from_: Spot | None = msgspec.field(default=None, name="from")
    to: Spot | None = None
    reason: str | None = None
    table: TableNo | None = None
    seat: SeatNo | None = None


class BoardCall(msgspec.Struct, frozen=True, array_like=True):
    """The last call of a player's move: a lapse or a cancel after it calls it off."""

    table: TableNo
    seat: SeatNo | None


class BoardLog(msgspec.Struct, kw_only=True):
    """The board as the state keeps it: the last ``LIMIT`` lines, oldest first."""

    lines: list[BoardEntry] = msgspec.field(default_factory=list)
    calls: dict[PlayerId, BoardCall] = msgspec.field(default_factory=dict)
    #: Lines ever put on the board: the next line's key.
    count: int = 0

    def newest(self, n: int) -> list[BoardEntry]:
        """The last ``n`` lines, newest first (as the screens list them)."""
        return self.lines[: -n - 1 : -1] if n else []


class Seated(Protocol):
    """What the board reads of a player: their name and seat as the event left them."""

    @property
    def name(self) -> str: ...

    @property
    def table(self) -> TableNo | None: ...

    @property
    def seat(self) -> SeatNo | None: ...


def add(log: BoardLog, e: Event, players: Mapping[PlayerId, Seated], limit: int = LIMIT) -> None:
    """Fold ``e`` into the board, on the players as ``e`` left them."""
    new = list(_lines(log, e, players))
    if not new:
        return
    log.lines.extend(new)
    if len(log.lines) > limit:
        del log.lines[: len(log.lines) - limit]


def _lines(log: BoardLog, e: Event, players: Mapping[PlayerId, Seated]) -> Iterable[BoardEntry]:
    at: float | None = getattr(e, "at", None) or None

    def line(
        kind: BoardKind,
        player: PlayerId | None = None,
        from_: Spot | None = None,
        to: Spot | None = None,
        reason: str | None = None,
        table: TableNo | None = None,
        seat: SeatNo | None = None,
    ) -> BoardEntry:
        held = players.get(player) if player is not None else None
        key = str(log.count)
        log.count += 1
        return BoardEntry(
            key=key,
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

    def seat_of(player: PlayerId) -> tuple[TableNo | None, SeatNo | None]:
        p = players.get(player)
        return (p.table, p.seat) if p is not None else (None, None)

    def called_off(player: PlayerId) -> Iterable[BoardEntry]:
        call = log.calls.pop(player, None)
        if call is not None:
            yield line("called_off", player=player, table=call.table, seat=call.seat)

    for step in board_steps(e):
        match step:
            case MovedOn(move=m, reason=reason):
                log.calls.pop(m.player, None)
                yield line("move", player=m.player, from_=m.from_, to=m.to, reason=reason)
            case CallDropped(player=player):
                log.calls.pop(player, None)
            case CallMade(call=c):
                log.calls[c.player] = BoardCall(c.to.table, c.to.seat)
                # A first call is on the board as a move to make; a second is a change.
                if c.count > 1:
                    yield line("recalled", player=c.player, table=c.to.table, seat=c.to.seat)
            case CalledOff(player=player):
                yield from called_off(player)
            case AtSeat(kind=kind, player=player):
                table, seat = seat_of(player)
                yield line(kind, player=player, table=table, seat=seat)
            case AtTable(kind=kind, table=table):
                yield line(kind, table=table)
            case _:
                assert_never(step)
