"""Folding the chips: stacks set and counted, rebuys, add-ons, chip races and bags."""

from __future__ import annotations

from ..events import (
    AddOnMade,
    ChipsRaced,
    FieldCarried,
    RebuyMade,
    StacksCounted,
    StackSet,
    TableBagged,
)
from ..records import Player, RaceRecord
from .index import Indexed


class ChipFolds(Indexed):
    """The folds of the chips' events."""

    __slots__ = ()

    def _stack_set(self, e: StackSet) -> None:
        p = self.state.players[e.player]
        p.stack = e.stack
        p.counted = True
        p.counted_at = e.at

    def _stacks_counted(self, e: StacksCounted) -> None:
        players = self.state.players
        for c in e.stacks:
            p = players[c.player]
            p.stack = c.stack
            p.counted = True
            p.counted_at = e.at

    def _rebuy_made(self, e: RebuyMade) -> None:
        self._bought(e).rebuys = e.count
        self.state.rebuys += 1

    def _add_on_made(self, e: AddOnMade) -> None:
        self._bought(e).add_ons = e.count
        self.state.add_ons += 1

    def _bought(self, e: RebuyMade | AddOnMade) -> Player:
        p = self.state.players[e.player]
        p.stack = e.stack
        self.state.chips_added += e.chips
        return p

    def _chips_raced(self, e: ChipsRaced) -> None:
        players = self.state.players
        who = {r.seat: r for r in e.players}
        for r in e.result.seats:
            raced = who[r.seat]
            p = players[raced.player]
            p.stack = r.stack
            if raced.counted:
                p.counted = True
                p.counted_at = e.at
        self.state.chips_added += e.change
        self.state.chip_races.append(
            RaceRecord(table=e.table, at=e.at, result=e.result, players=e.players)
        )

    def _table_bagged(self, e: TableBagged) -> None:
        self.state.bags[e.table] = e
        # A bag is the last count of the day: the stack Day 2 starts with.
        for b in e.bags:
            p = self.state.players[b.player]
            p.stack = b.stack
            p.counted = True
            p.counted_at = e.at

    def _field_carried(self, e: FieldCarried) -> None:
        s = self.state
        s.carried = e
        s.entries += e.entries
        s.rebuys += e.rebuys
        s.add_ons += e.add_ons
        s.chips_added += e.chips
