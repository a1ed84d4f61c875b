"""The day's rulings and the sit-outs running, as the tournament's state keeps them.

``Tournament.apply`` hands this record the events that change it (a ruling recorded, a
sit-out over) and the facts that count for it (a hand dealt at a table, a player out); what a
command may record, and what the screens are told of it, is ``rulings``'. The record holds no
clock: a sit-out of minutes ends when the ``sit_out_ended`` the clock driver writes says so.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated

import msgspec

from .events import PenaltyGiven, RulingRecorded, SitOutEnded
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

    def record(self, e: RulingRecorded) -> int:
        """Keep the ruling and start its sit-outs; the chips it took out of the tournament."""
        self.made.append(
            Ruling(
                number=e.number,
                table=e.table,
                hand=e.hand,
                players=e.players,
                rule=e.rule,
                note=e.note,
                penalties=e.penalties,
                at=e.at,
            )
        )
        removed = 0
        for p in e.penalties:
            if p.kind == "sit_out":
                self.sit_outs.append(
                    SitOut(
                        player=p.player,
                        ruling=e.number,
                        at=e.at,
                        ends_at=p.ends_at,
                        hands_left=p.hands,
                    )
                )
            elif p.kind == "disqualification":
                self.disqualified[p.player] = e.number
                self.drop(p.player)
                removed += p.chips or 0
        return removed

    def end(self, e: SitOutEnded) -> None:
        self.sit_outs[:] = [
            s for s in self.sit_outs if (s.player, s.ruling) != (e.player, e.ruling)
        ]

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
