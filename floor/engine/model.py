"""The shared vocabulary of the floor: tables, seats, players, games and positions.

Every other engine module speaks in these names, so a reader meets each idea once.
"""

from __future__ import annotations

from typing import Final, Literal

import msgspec

PlayerId = str
TableNo = int
SeatNo = int

#: What the rules are written for: a flop game, a stud game, or a rotation of both.
Game = Literal["holdem", "omaha", "stud", "razz", "mixed"]
#: What is dealt at a table in one hand (a mixed event deals one of these at a time).
DealtGame = Literal["holdem", "omaha", "stud", "razz"]
#: The most chips a stack may hold: what every JSON reader (a browser's too) holds exactly.
MAX_CHIPS: Final = 2**53 - 1

#: A field only the staff are shown (``Annotated[bool, STAFF]``): a player's special needs
#: and seat lock, the staff's notes. The public is sent such a field at its default (False,
#: None) in snapshots, patches and events alike, and the declaration is all it takes
#: (``staff_fields``; ``floor.server.redact``).
STAFF: Final = msgspec.Meta(extra={"staff": True})

FLOP_GAMES: frozenset[str] = frozenset({"holdem", "omaha"})
STUD_GAMES: frozenset[str] = frozenset({"stud", "razz"})

#: Stored status of a table. "halted" is not stored: it follows from the counts.
TableStatus = Literal["open", "breaking", "broken"]
ShownStatus = Literal["open", "halted", "breaking", "broken"]

#: Why a move is planned.
MoveReason = Literal["balance", "break", "final"]
#: Why a player changed seats: a planned move, or a floor correction of a wrong seat.
SeatChange = Literal["balance", "break", "final", "correction"]

Rulebook = Literal["tda-2011", "tda-2024", "pfp-2014"]


class Spot(msgspec.Struct, frozen=True):
    """A seat at a table."""

    table: TableNo
    seat: SeatNo

    def __str__(self) -> str:
        return f"table {self.table} seat {self.seat}"


class Positions(msgspec.Struct, frozen=True):
    """The button and blinds of the last hand dealt at a table; any may be an empty seat."""

    button: SeatNo
    small_blind: SeatNo
    big_blind: SeatNo


def is_stud(game: str) -> bool:
    return game in STUD_GAMES
