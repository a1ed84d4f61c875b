"""A dealer room driven through the house's own decide and fold, with the time in hand."""

from __future__ import annotations

import msgspec

from floor.engine.house.commands import HouseCommand
from floor.engine.house.dealers import Room, RoomSettings, table_key
from floor.engine.house.dealers_commands import (
    ClockIn,
    PlayingTable,
    SaveDealer,
    SetSettings,
    SyncTables,
    Tick,
)
from floor.engine.house.decide import decide
from floor.engine.house.events import HouseEvent
from floor.engine.house.rotation import next_due
from floor.engine.house.state import HouseState, apply
from floor.engine.model import Game

_encode = msgspec.json.Encoder().encode
_decode = msgspec.json.Decoder(HouseEvent).decode


class RoomSim:
    """The house as the store keeps it: each command decided at ``now``, its events
    encoded, decoded and folded (as a log read back would be), and kept."""

    def __init__(self, settings: RoomSettings | None = None) -> None:
        self.state = HouseState()
        self.log: list[HouseEvent] = []
        self.now = 0.0
        self.versions: dict[str, int] = {}
        if settings is not None:
            self.send(SetSettings(settings=settings))

    @property
    def room(self) -> Room:
        return self.state.room

    def send(self, command: HouseCommand) -> list[HouseEvent]:
        events = decide(self.state, command, self.now)
        for e in events:
            e = _decode(_encode(e))
            apply(self.state, e)
            self.log.append(e)
        return events

    def dealers(self, *names: str, games: tuple[Game, ...] = ("holdem",)) -> None:
        for name in names:
            self.send(SaveDealer(dealer=name, name=name.title(), games=games))
            self.send(ClockIn(dealer=name))

    def tables(
        self,
        tid: str,
        numbers: list[int],
        game: Game = "holdem",
        held: bool = False,
        final: int | None = None,
    ) -> None:
        """``tid`` plays ``numbers`` now (a new version of it)."""
        version = self.versions[tid] = self.versions.get(tid, 0) + 1
        playing = tuple(PlayingTable(table=n, game=game) for n in numbers)
        self.send(
            SyncTables(tournament=tid, version=version, tables=playing, held=held, final=final)
        )

    def run_to(self, until: float, *, every: float | None = None) -> None:
        """The clock driver: a tick at every due moment up to ``until`` (``every``: at
        that interval instead, as a driver that is late would)."""
        while True:
            if every is None:
                due = next_due(self.room)
                if due is None or due > until:
                    self.now = until
                    self.send(Tick())
                    return
                self.now = max(self.now, due)
            else:
                if self.now + every > until:
                    self.now = until
                    self.send(Tick())
                    return
                self.now += every
            self.send(Tick())

    def at(self, tid: str, n: int) -> str | None:
        return self.room.tables[table_key(tid, n)].dealer

    def seated(self) -> dict[str, str]:
        """Dealer by table key, of the tables with a dealer."""
        return {k: t.dealer for k, t in self.room.tables.items() if t.dealer is not None}
