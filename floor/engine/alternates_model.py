"""A flight's capacity and its line of alternates: the records, and their fold.

Kept apart from the rules (``alternates``) so that ``events`` and ``state`` can import the
records without importing the rules, which read the whole tournament; the fold of the events
is ``alternates_fold``.

The line is one frozen record, replaced at every change: a patch compares it whole (a field
of ``TournamentState`` outside the keyed records), and it is bounded (``MAX_LINE``).
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from .errors import ConfigValueError, refused
from .limits import check_limits
from .model import PlayerId

#: The most alternates one line holds: a sold-out festival flight's hallway (400) with room.
MAX_LINE = 1000

CallMode = Literal["each", "wave"]
AtClose = Literal["seat", "refund"]


class Capacity(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """How many may play at once, and how the alternates are called when seats open.

    ``seats`` or ``tables`` (tables of the rule set's seats), not both; neither: no limit, a
    full room opens another table (as without a capacity). ``call``: ``each``, the next
    alternate called as each seat opens; ``wave``, called together at each level change
    (``wave`` at most, 0: as many as seats are open). ``minutes``: a called alternate's time
    to take the seat before the next is called. ``at_close``: what becomes of those still in
    line when late registration closes (seated as seats open, or refunded at once).
    """

    seats: Annotated[int, Meta(ge=2, le=100_000)] | None = None
    tables: Annotated[int, Meta(ge=1, le=10_000)] | None = None
    call: CallMode = "each"
    wave: Annotated[int, Meta(ge=0, le=MAX_LINE)] = 0
    minutes: Annotated[float, Meta(ge=0.1, le=120)] = 5.0
    at_close: AtClose = "seat"

    def __post_init__(self) -> None:
        check_limits(self)
        if self.seats is not None and self.tables is not None:
            raise refused(ConfigValueError, "capacity_seats_and_tables", {})

    def limit(self, seats_per_table: int) -> int | None:
        """The players at most in play at once; None: no limit."""
        if self.seats is not None:
            return self.seats
        if self.tables is not None:
            return self.tables * seats_per_table
        return None


class Alternate(msgspec.Struct, frozen=True, kw_only=True):
    """One person in line. ``player``: a busted player's re-entry (None: a new player)."""

    id: str
    name: str
    at: float
    player: PlayerId | None = None
    #: Joined from the code on the wall (a public write), not at the desk.
    public: bool = False
    #: Called to take a seat, and until when (then the next is called).
    called_at: float | None = None
    ends_at: float | None = None


class AlternateLine(msgspec.Struct, frozen=True, kw_only=True):
    """The capacity in force and the line, in order (the called ones keep their place)."""

    capacity: Capacity | None = None
    line: tuple[Alternate, ...] = ()
    #: Ids given so far (``A1``, ``A2``...): never one given twice.
    issued: int = 0
    seated: int = 0
    lapsed: int = 0
    refunded: int = 0

    @property
    def called(self) -> tuple[Alternate, ...]:
        return tuple(a for a in self.line if a.called_at is not None)

    @property
    def waiting(self) -> tuple[Alternate, ...]:
        return tuple(a for a in self.line if a.called_at is None)

    def find(self, alternate: str) -> Alternate | None:
        for a in self.line:
            if a.id == alternate:
                return a
        return None
