"""The dealer room's commands.

``RoomCommand`` is what the dealer room's screen sends (``POST /api/dealers/commands``); the
server's own (``ServerRoomCommand``) come from the clock driver (``Tick``), from the batches of
the tournaments (``SyncTables``) and from the table screens (``SignIn``, ``SignOut``), and are
never taken from a request.
"""

from __future__ import annotations

from typing import Annotated

import msgspec
from msgspec import Meta

from ..model import Game
from .dealers import MAX_DEALERS, DealerName, Games, Mark, RoomSettings

#: A dealer is named by their account's username.
DealerRef = Annotated[str, Meta(pattern=r"^[a-z0-9._-]{1,32}$")]
TournamentRef = Annotated[str, Meta(pattern=r"^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$")]
TableNumber = Annotated[int, Meta(ge=1, le=100_000)]
#: A table of the room, as ``tournament/table``.
TableRef = Annotated[str, Meta(pattern=r"^[A-Za-z0-9][A-Za-z0-9_-]{0,39}/[1-9][0-9]{0,5}$")]
DealerList = Annotated[tuple[DealerRef, ...], Meta(max_length=MAX_DEALERS)]


class _Command(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", forbid_unknown_fields=True
):
    pass


# The dealer room's --------------------------------------------------------------------------


class SaveDealer(_Command, frozen=True, tag="save_dealer"):
    """Add a dealer to the room (their account exists), or correct their name or games."""

    dealer: DealerRef
    name: DealerName
    games: Games = ("holdem",)


class RemoveDealer(_Command, frozen=True, tag="remove_dealer"):
    dealer: DealerRef


class ClockIn(_Command, frozen=True, tag="clock_in"):
    dealer: DealerRef


class ClockOut(_Command, frozen=True, tag="clock_out"):
    dealer: DealerRef


class MarkDealer(_Command, frozen=True, tag="mark_dealer"):
    """Late, sick or absent: out of the rotation, replaced at once; None: back."""

    dealer: DealerRef
    mark: Mark | None


class Swap(_Command, frozen=True, tag="swap"):
    """Two tables' dealers change places now."""

    a: TableRef
    b: TableRef


class Move(_Command, frozen=True, tag="move"):
    """A dealer from the pool (or a break) deals at ``table`` now; its dealer goes out."""

    dealer: DealerRef
    table: TableRef


class Pin(_Command, frozen=True, tag="pin"):
    """``dealer`` comes to ``table`` at its next push (None: whoever the rotation picks)."""

    table: TableRef
    dealer: DealerRef | None


class SetSettings(_Command, frozen=True, tag="set_settings"):
    settings: RoomSettings


class SetFinalDealers(_Command, frozen=True, tag="set_final_dealers"):
    """The dealers of ``tournament``'s final table: it rotates among them alone."""

    tournament: TournamentRef
    dealers: Annotated[tuple[DealerRef, ...], Meta(max_length=20)]


class SetEarlyList(_Command, frozen=True, tag="set_early_list"):
    """The order dealers go home early in, when ``early_outs`` is ``list``."""

    dealers: DealerList


RoomCommand = (
    SaveDealer
    | RemoveDealer
    | ClockIn
    | ClockOut
    | MarkDealer
    | Swap
    | Move
    | Pin
    | SetSettings
    | SetFinalDealers
    | SetEarlyList
)


# The server's -------------------------------------------------------------------------------


class Tick(_Command, frozen=True, tag="room_tick"):
    """Make what is due (the clock driver's)."""


class PlayingTable(msgspec.Struct, frozen=True, array_like=True):
    table: TableNumber
    game: Game


class SyncTables(_Command, frozen=True, tag="sync_tables"):
    """The tables of ``tournament`` that play at its version ``version`` (from its state,
    by the consumer of its batches); the room's follow."""

    tournament: TournamentRef
    version: int
    tables: tuple[PlayingTable, ...]
    #: Hand-for-hand runs: its tables' pushes wait.
    held: bool = False
    final: int | None = None


class SignIn(_Command, frozen=True, tag="room_sign_in"):
    """A dealer signed in at a table screen: their down there starts."""

    dealer: DealerRef
    tournament: TournamentRef
    table: TableNumber


class SignOut(_Command, frozen=True, tag="room_sign_out"):
    """Whoever was signed in at the table screen signed out (or the screen went)."""

    tournament: TournamentRef
    table: TableNumber


ServerRoomCommand = Tick | SyncTables | SignIn | SignOut
