"""Folding the events of the tables: opened, drawn, dealt, broken, the final table."""

from __future__ import annotations

from ..events import (
    ButtonReported,
    FinalTableFormed,
    GameChanged,
    HaltWaived,
    HandStarted,
    SeatsDrawn,
    TableBreaking,
    TableBroken,
    TableOpened,
    TableSetUp,
)
from ..records import Table
from .index import Indexed


class TableFolds(Indexed):
    """The folds of the tables' events."""

    __slots__ = ()

    def _table_opened(self, e: TableOpened) -> None:
        table = Table(number=e.table, seats=e.seats)
        self.state.tables[e.table] = table
        self._index_table(table)

    def _table_set_up(self, e: TableSetUp) -> None:
        table = Table(number=e.table, seats=e.seats, positions=e.positions, opened=list(e.opened))
        self.state.tables[e.table] = table
        self._index_table(table)
        for seat, pid in sorted(e.occupants.items()):
            self._sit(self._player(pid), table, seat)
        self.state.drawn = True

    def _seats_drawn(self, e: SeatsDrawn) -> None:
        for s in e.seats:
            self._sit(self.state.players[s.player], self.state.tables[s.table], s.seat)
        self.state.drawn = True
        self._field_point(e.at)

    def _hand_started(self, e: HandStarted) -> None:
        table = self.state.tables[e.table]
        table.hand = e.hand
        table.hand_level = e.level
        if e.at is not None:
            table.hand_at = e.at
        table.button_reported = False
        if e.positions is not None:
            table.positions = e.positions
        players = self.state.players
        for pid in table.occupants.values():
            players[pid].excused = False
        self.state.rulings.hand_dealt(table.occupants.values())
        if self.state.hand_for_hand is not None:
            self.state.hand_for_hand.dealt_at(e.table)

    def _button_reported(self, e: ButtonReported) -> None:
        table = self.state.tables[e.table]
        table.positions = e.positions
        table.button_reported = True

    def _table_breaking(self, e: TableBreaking) -> None:
        self._set_status(self.state.tables[e.table], "breaking")

    def _table_broken(self, e: TableBroken) -> None:
        self._set_status(self.state.tables[e.table], "broken")

    def _final_table_formed(self, e: FinalTableFormed) -> None:
        s = self.state
        s.final_table = e.table
        s.final_seats = e.seats
        s.final_drawn = False
        s.draws.clear()
        final = s.tables[e.table]
        self._bucket_remove(final)
        final.seats = max(final.seats, e.seats)
        if final.seats >= s.rules.fill:
            self.small_tables.discard(final.number)
        final.positions = None
        final.button_reported = False
        self._bucket_add(final)
        for table in s.tables.values():
            if table.number != e.table and table.status == "open":
                self._set_status(table, "breaking")

    def _halt_waived(self, e: HaltWaived) -> None:
        self.state.tables[e.table].halt_waived = e.waived

    def _game_changed(self, e: GameChanged) -> None:
        self.state.current_game = e.game
