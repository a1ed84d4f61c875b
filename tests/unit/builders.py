"""A floor situation in a few lines, for the rule tests.

    floor = Floor({1: "1-9 pos 1/2/3", 2: "1-5,7 pos 5/6/7"})

Each table is a spec: the occupied seats (numbers and ranges; "-" for an empty table), then
optionally ``pos BUTTON/SMALL/BIG`` (the last hand dealt; absent = unknown positions) and
``opened A,B,C`` (stud: the empty seats in the order they opened, oldest first). The player in
seat s of table n is ``TnSs``, as in the shared scenarios. Keyword settings go to ``Rules``
(``game="holdem", seats=9, final_table=9`` unless given). Every draw uses a seeded
``random.Random``; every event (set-up included) is kept in ``floor.log`` for replays.
"""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest

from floor.engine import commands as cmd
from floor.engine.decide import decide
from floor.engine.errors import RuleError
from floor.engine.events import (
    Event,
    GameChanged,
    SeatLockSet,
    TableSetUp,
    TournamentCreated,
)
from floor.engine.model import DealtGame, Positions
from floor.engine.planner import housekeep
from floor.engine.read.views import next_big_blind, shown_status, waiting
from floor.engine.rules import Rules, Structure
from floor.engine.state import Tournament

#: A planned move as the tests spell it: (player, (table, seat), (table, seat), reason).
Move = tuple[str | None, tuple[int, int | None], tuple[int, int | None], str]


def parse_seats(text: str) -> list[int]:
    """``"1-4,6,8-9"`` -> [1, 2, 3, 4, 6, 8, 9]; ``"-"`` -> []."""
    if text == "-":
        return []
    seats: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        seats.extend(range(int(lo), int(hi or lo) + 1))
    return seats


def table_set_up(number: int, spec: str, seats: int) -> TableSetUp:
    words = spec.split()
    occupied = parse_seats(words[0])
    positions: Positions | None = None
    opened: tuple[int, ...] = ()
    rest = words[1:]
    while rest:
        key, value, *rest = rest
        if key == "pos":
            button, small, big = (int(x) for x in value.split("/"))
            positions = Positions(button=button, small_blind=small, big_blind=big)
        elif key == "opened":
            opened = tuple(parse_seats(value))
        else:
            raise ValueError(f"table {number}: unknown spec word {key!r}")
    return TableSetUp(
        table=number,
        seats=seats,
        occupants={s: f"T{number}S{s}" for s in occupied},
        positions=positions,
        opened=opened,
    )


class Floor:
    """A tournament on the floor: set up from specs, driven by commands through ``decide``."""

    def __init__(
        self,
        tables: dict[int, str],
        *,
        seed: int = 0,
        locked: tuple[str, ...] = (),
        game_now: DealtGame | None = None,
        structure: Structure | None = None,
        **settings: Any,
    ) -> None:
        self.rng = random.Random(seed)
        self.now = 0.0
        defaults = {"game": "holdem", "seats": 9, "final_table": 9}
        self.rules = msgspec.convert({**defaults, **settings}, Rules)
        created = TournamentCreated(id="t", name="test", rules=self.rules, structure=structure)
        self.t = Tournament.create(created)
        self.log: list[Event] = [created]
        for number, spec in tables.items():
            self._apply(table_set_up(number, spec, self.rules.seats))
        for pid in locked:
            self._apply(SeatLockSet(player=pid, locked=True))
        if game_now is not None:
            self._apply(GameChanged(game=game_now))
        self.log.extend(housekeep(self.t, self.rng))

    def _apply(self, event: Event) -> None:
        self.t.apply(event)
        self.log.append(event)

    # Commands ------------------------------------------------------------------------------

    def do(self, *commands: cmd.Command, now: float | None = None) -> list[Event]:
        """Decide and apply the commands in order; the events they caused."""
        out: list[Event] = []
        for c in commands:
            events = decide(self.t, c, self.now if now is None else now, self.rng)
            self.log.extend(events)
            out.extend(events)
        return out

    def bust(self, *players: str) -> list[Event]:
        return self.do(*(cmd.Bust(player=p) for p in players))

    def hand(self, *tables: int) -> list[Event]:
        return self.do(*(cmd.Hand(table=n) for n in tables))

    def button(self, table: int, seat: int) -> list[Event]:
        return self.do(cmd.Button(table=table, seat=seat))

    def confirm(self, player: str, seat: int | None = None) -> list[Event]:
        return self.do(cmd.Confirm(player=player, seat=seat))

    def register(self, player: str, *, special_needs: bool = False) -> list[Event]:
        return self.do(cmd.Register(player=player, name=player, special_needs=special_needs))

    def refuse(self, command: cmd.Command, error: type[RuleError], field: str | None) -> RuleError:
        """The command is refused with ``error`` naming ``field``, and nothing changes."""
        before = msgspec.msgpack.encode(self.t.state)
        plan = self.t.plan
        log = len(self.log)
        with pytest.raises(error) as caught:
            self.do(command)
        assert type(caught.value) is error, f"{type(caught.value).__name__}: {caught.value}"
        assert caught.value.field == field, str(caught.value)
        assert caught.value.message
        assert msgspec.msgpack.encode(self.t.state) == before
        assert self.t.plan == plan
        assert len(self.log) == log
        return caught.value

    # What the floor sees ---------------------------------------------------------------------

    def moves(self, reason: str | None = None) -> list[Move]:
        return [
            (m.player, (m.from_.table, m.from_.seat), (m.to.table, m.to.seat), m.reason)
            for m in self.t.plan.moves
            if reason is None or m.reason == reason
        ]

    def move_of(self, player: str) -> Move | None:
        for move in self.moves():
            if move[0] == player:
                return move
        return None

    def halted(self) -> tuple[int, ...]:
        return self.t.plan.halted_tables

    def seats(self, table: int) -> dict[int, str]:
        return dict(sorted(self.t.table(table).occupants.items()))

    def count(self, table: int) -> int:
        return self.t.table(table).count

    def positions(self, table: int) -> tuple[int, int, int] | None:
        pos = self.t.table(table).positions
        return None if pos is None else (pos.button, pos.small_blind, pos.big_blind)

    def next_big_blind(self, table: int) -> str | None:
        return next_big_blind(self.t, self.t.table(table))

    def waiting(self, table: int) -> list[str]:
        return waiting(self.t, self.t.table(table))

    def status(self, table: int) -> str:
        return shown_status(self.t, self.t.table(table))

    def where(self, player: str) -> tuple[int, int] | None:
        p = self.t.player(player)
        return None if p.table is None or p.seat is None else (p.table, p.seat)

    def snapshot(self) -> bytes:
        return msgspec.msgpack.encode(self.t.state)
