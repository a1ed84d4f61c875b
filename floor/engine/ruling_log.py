"""The day's rulings and the sit-outs running, as the tournament's state keeps them.

The rulings feature folds its own events into this record (``rulings``: a ruling recorded, a
sit-out over), so a new event of the feature changes no line here; the other folds hand it
the facts that count for it (a hand dealt at a table, a player out). What a command may
record, and what the screens are told of it, is ``rulings``' too. The record holds no clock:
a sit-out of minutes ends when the ``sit_out_ended`` the clock driver writes says so.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated

import msgspec

from .events import PenaltyGiven
from .model import STAFF, PlayerId, TableNo


class Ruling(msgspec.Struct, kw_only=True):
    """A ruling as recorded (``RulingRecorded`` without its tag)."""

    number: int
    table: TableNo | None
    hand: int | None
    players: tuple[PlayerId, ...]
    rule: str | None
    #: The floor's own words: staff text, None where the public is shown the ruling.
    note: Annotated[str | None, STAFF]
    penalties: tuple[PenaltyGiven, ...]
    at: float


class SitOut(msgspec.Struct, kw_only=True):
    """A player sitting out by a ruling: for minutes until ``ends_at``, or for hands."""

    player: PlayerId
    ruling: int
    at: float
    ends_at: float | None = None
    #: The hands still to miss after the one dealt now: each hand the player's table deals
    #: takes one off; the hand dealt when none is left deals the player in again.
    hands_left: int | None = None


class RulingLog(msgspec.Struct, kw_only=True):
    made: list[Ruling] = msgspec.field(default_factory=list)
    sit_outs: list[SitOut] = msgspec.field(default_factory=list)
    #: The players disqualified, with the ruling that did it.
    disqualified: dict[PlayerId, int] = msgspec.field(default_factory=dict)

    def hand_dealt(self, seated: Iterable[PlayerId]) -> None:
        """A table dealt a hand to ``seated``: one hand fewer for those sitting out there."""
        if not self.sit_outs:
            return
        there = set(seated)
        for s in self.sit_outs:
            if s.hands_left and s.player in there:
                s.hands_left -= 1

    def without_notes(self) -> RulingLog:
        """This record with the floor's notes left out (itself when it has none)."""
        if not any(r.note for r in self.made):
            return self
        made = [msgspec.structs.replace(r, note=None) if r.note else r for r in self.made]
        return msgspec.structs.replace(self, made=made)

    def drop(self, player: PlayerId) -> None:
        """``player`` is out: their sit-out ends with them."""
        self.sit_outs[:] = [s for s in self.sit_outs if s.player != player]
