"""The dealer room as the house keeps it: the dealers (people), the tables they deal at (of
every tournament running in the room), the rotation's settings and the downs dealt.

One room per house, across tournaments: a dealer pushed out of a Main Event table may deal
the next down at a side event's. The rotation (``rotation``) moves dealers between tables,
the pool, breaks and home; the downs (``downs``) are what the dealers signed in and out of at
the table screens, whatever was planned.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from ..errors import ConfigValueError, refused
from ..model import Game

#: A table of the room: its tournament and number (``key``).
TableKey = str
DealerId = str

#: Where a dealer is: not clocked in, waiting in the pool, at a table, on a break, gone home.
Status = Literal["off", "pool", "dealing", "break", "home"]
#: Why a dealer is out of the rotation, as the dealer room marked them.
Mark = Literal["late", "sick", "absent"]
#: What comes first when the pool runs short: breaks shortened (never below the minimum
#: rest), or tables waiting for their push (up to ``max_wait``, then breaks shorten).
WhenShort = Literal["shorten_breaks", "tables_wait"]
#: Who goes home first when tables break and the room needs fewer dealers: the first
#: clocked in, the last clocked in, or the dealer room's own list.
EarlyOuts = Literal["first_in", "last_in", "list"]

Seconds = Annotated[float, Meta(ge=1, le=12 * 3600)]
Rest = Annotated[float, Meta(ge=0, le=12 * 3600)]
#: The longest a dealer's name is.
MAX_NAME = 80
#: Most dealers, tables and list entries the room holds.
MAX_DEALERS = 5_000
DealerName = Annotated[str, Meta(min_length=1, max_length=MAX_NAME)]
Games = Annotated[tuple[Game, ...], Meta(min_length=1, max_length=5)]


def table_key(tournament: str, table: int) -> TableKey:
    return f"{tournament}/{table}"


def deals(games: tuple[Game, ...], game: Game) -> bool:
    """Whether a dealer of ``games`` deals a table of ``game``: the game itself, or any game
    for a dealer of mixed games (a mixed table wants one)."""
    return game in games or "mixed" in games


class RoomSettings(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """How the house rotates its dealers, and counts their downs. Times in seconds."""

    #: A dealer is pushed after this long at a table.
    push_every: Seconds = 1800.0
    #: A break after this many downs, of ``break_length``.
    break_every: Annotated[int, Meta(ge=1, le=50)] = 3
    break_length: Seconds = 1200.0
    #: A break is never shortened below this.
    min_rest: Rest = 600.0
    when_short: WhenShort = "shorten_breaks"
    #: With ``tables_wait``: how long a table waits for its push before a break shortens.
    max_wait: Rest = 600.0
    #: Tournaments served first when the pool runs short (a final table always is).
    priority: Annotated[tuple[str, ...], Meta(max_length=200)] = ()
    early_outs: EarlyOuts = "first_in"
    #: Dealers kept beyond what the tables need before anybody goes home early.
    reserve: Annotated[int, Meta(ge=0, le=MAX_DEALERS)] = 1
    #: A planned dealer not signed in at the table this long after the push alerts the room.
    signin_grace: Seconds = 180.0
    #: The pay day starts this many minutes after local midnight: a down that starts before
    #: counts to the day before (a night crossing midnight stays one day).
    day_starts: Annotated[int, Meta(ge=0, le=1439)] = 360
    #: A pay period is this many pay days, the first starting on ``period_from``.
    period_days: Annotated[int, Meta(ge=1, le=31)] = 7
    period_from: Annotated[str, Meta(pattern=r"^\d{4}-\d{2}-\d{2}$")] = "2026-01-05"
    #: The house's time zone (an IANA name), for the pay days.
    zone: Annotated[str, Meta(min_length=1, max_length=64)] = "UTC"

    def __post_init__(self) -> None:
        if self.min_rest > self.break_length:
            raise refused(ConfigValueError, "rest_longer_than_break", {}, field="min_rest")


class Dealer(msgspec.Struct, kw_only=True):
    """A dealer: who they are (``name``, the ``games`` they deal) and where they are now."""

    #: Their account's username: what they sign in with at a table screen.
    id: DealerId
    name: str
    games: tuple[Game, ...] = ("holdem",)
    status: Status = "off"
    #: When the status began: the pool's order, and a break's start.
    since: float = 0.0
    #: The table they deal at (``dealing``).
    table: TableKey | None = None
    #: When their break ends (``break``).
    until: float | None = None
    #: Downs since their last break.
    downs: int = 0
    clocked_in: float | None = None
    mark: Mark | None = None
    #: Going home at their next push (an early out).
    leaving: bool = False


class RoomTable(msgspec.Struct, kw_only=True):
    """A table of a tournament running in the room, while it plays."""

    key: TableKey
    tournament: str
    table: int
    game: Game
    opened: float
    #: The dealer the rotation put here, since when, and when they are pushed.
    dealer: DealerId | None = None
    since: float | None = None
    due: float | None = None
    #: Hand-for-hand: pushes wait until it ends.
    held: bool = False
    final: bool = False
    #: Since when the table waits for a dealer (its push overdue, or none at all).
    waiting: float | None = None
    #: The dealer the dealer room chose for the next push here.
    pin: DealerId | None = None
    #: Who is signed in at the table's screen now, and since when.
    signed: DealerId | None = None
    signed_at: float | None = None


class Down(msgspec.Struct, frozen=True, kw_only=True):
    """A down as dealt: from the dealer's sign-in at the table screen to their sign-out (or
    the next dealer's sign-in there, or the table's end)."""

    dealer: DealerId
    tournament: str
    table: int
    start: float
    end: float | None = None


class Room(msgspec.Struct, kw_only=True):
    settings: RoomSettings = msgspec.field(default_factory=RoomSettings)
    dealers: dict[DealerId, Dealer] = msgspec.field(default_factory=dict)
    tables: dict[TableKey, RoomTable] = msgspec.field(default_factory=dict)
    #: The tournament version each tournament's tables were last synced at.
    synced: dict[str, int] = msgspec.field(default_factory=dict)
    #: The dealers the dealer room chose for each tournament's final table.
    final_dealers: dict[str, tuple[DealerId, ...]] = msgspec.field(default_factory=dict)
    #: The dealer room's order of early outs (``early_outs = "list"``).
    early_list: tuple[DealerId, ...] = ()
    #: Every down dealt, in the order they started.
    downs: list[Down] = msgspec.field(default_factory=list)
    #: The open down of each table, and of each dealer: indexes into ``downs``.
    open_at: dict[TableKey, int] = msgspec.field(default_factory=dict)
    #: The last instant the rotation was brought up to.
    at: float = 0.0


def copy_room(room: Room) -> Room:
    """A copy the rotation may change (a decision, a forecast) without touching ``room``.
    Downs are frozen: their list is copied, not each of them."""
    return Room(
        settings=room.settings,
        dealers={k: msgspec.structs.replace(d) for k, d in room.dealers.items()},
        tables={k: msgspec.structs.replace(t) for k, t in room.tables.items()},
        synced=dict(room.synced),
        final_dealers=dict(room.final_dealers),
        early_list=room.early_list,
        downs=list(room.downs),
        open_at=dict(room.open_at),
        at=room.at,
    )


def reserved_for(room: Room, dealer: DealerId) -> TableKey | None:
    """The final table ``dealer`` was chosen for, if that final table is in the room."""
    for key, table in room.tables.items():
        if table.final and dealer in room.final_dealers.get(table.tournament, ()):
            return key
    return None
