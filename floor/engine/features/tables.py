"""Tables: opened, set up, halted and waived, broken, the final table, the game of a mixed event.

Each command's decision (``decide`` calls it) and each logged event's check (``validate``
calls it) live here together, calling the same refusals.
"""

from __future__ import annotations

import random

from .. import (
    final,
    halts,
    lookups,
    room,
)
from ..commands import BreakTable, OpenTable, SetGame, StartFinal, WaiveHalt
from ..dispatch import decides, folds, validates
from ..errors import (
    NotAllowed,
    RuleError,
    refused,
)
from ..events import (
    Event,
    FinalTableFormed,
    GameChanged,
    HaltWaived,
    TableBreaking,
    TableBroken,
    TableOpened,
    TableSetUp,
)
from ..model import PlayerId, TableNo
from ..planner import choose_final_table, next_to_break
from ..state import Table, Tournament
from . import checks


def open_table(t: Tournament, c: OpenTable, now: float, rng: random.Random) -> list[Event]:
    s = t.state
    number = c.table if c.table is not None else max(s.tables, default=0) + 1
    if (refusal := table_exists(t, number)) is not None:
        raise refusal
    opened = TableOpened(table=number, seats=c.seats or s.rules.seats)
    if s.drawn and s.final_table is None and t.active <= (space := room.room(t)):
        # The planner breaks a table as soon as the others can seat everybody: asked on a
        # copy with the table open (a rare command; the copy costs a few milliseconds).
        after = t.copy()
        after.apply(opened)
        if next_to_break(after) == number:
            raise refused(
                NotAllowed,
                "table_would_break",
                {
                    "players": t.active,
                    "tables": t.open_count,
                    "room": space,
                    "table": number,
                },
                field="table",
            )
    return [opened]


def waive_halt(t: Tournament, c: WaiveHalt, now: float, rng: random.Random) -> list[Event]:
    table = lookups.table(t, c.table)
    checks.in_play(table)
    if (refusal := halts.waive_bar(table, c.waived)) is not None:
        raise refusal
    return [HaltWaived(table=table.number, waived=c.waived)]


def break_table(t: Tournament, c: BreakTable, now: float, rng: random.Random) -> list[Event]:
    table = lookups.table(t, c.table)
    checks.in_play(table)
    if (why := room.break_bar(t, table)) is not None:
        raise room.refusal(why)
    return [TableBreaking(table=table.number, by="director")]


def start_final(t: Tournament, c: StartFinal, now: float, rng: random.Random) -> list[Event]:
    if (why := final.start_bar(t)) is not None:
        raise final.refusal(why)
    table = choose_final_table(t)
    assert table is not None
    return [FinalTableFormed(table=table, seats=final.seats(t))]


def set_game(t: Tournament, c: SetGame, now: float, rng: random.Random) -> list[Event]:
    mixed_game(t)
    return [GameChanged(game=c.game)]


def check_table_set_up(t: Tournament, e: TableSetUp) -> None:
    table = new_table(t, e.table, e.seats)
    seated: set[PlayerId] = set()
    for seat, pid in sorted(e.occupants.items()):
        where = f"occupants.{seat}"
        lookups.seat(table, seat, where)
        if pid in seated:
            raise checks.listed_twice(pid, where)
        seated.add(pid)
        if pid in t.state.players:
            checks.unseated(t, pid, where)
        else:
            checks.player_id(pid, where)
    checks.positions(table, e.positions)
    for i, seat in enumerate(e.opened):
        lookups.seat(table, seat, f"opened[{i}]")


def new_table(t: Tournament, n: TableNo, seats: int) -> Table:
    """The table a logged event opens: a new number, seats within the limits."""
    if (refusal := table_exists(t, n)) is not None:
        raise refusal
    checks.in_range("table", n, 1, checks.MAX_TABLE, "table")
    checks.in_range("seats", seats, checks.MIN_SEATS, checks.MAX_SEATS)
    return Table(number=n, seats=seats)


def table_exists(t: Tournament, n: TableNo) -> NotAllowed | None:
    if n not in t.state.tables:
        return None
    return refused(NotAllowed, "table_exists", {"table": n}, field="table")


def mixed_game(t: Tournament) -> None:
    """Refuse a change of game in a tournament of one game."""
    if t.rules.game != "mixed":
        raise refused(NotAllowed, "not_mixed", {"game": t.rules.game}, field="game")


def check_table_broken(t: Tournament, e: TableBroken) -> None:
    table = lookups.table(t, e.table)
    if table.status != "breaking" or table.count:
        raise refused(
            RuleError,
            "break_unfinished",
            {"table": table.number, "status": table.status, "players": table.count},
            field="table",
        )


def check_halt_waived(t: Tournament, e: HaltWaived) -> None:
    if (refusal := halts.waive_bar(checks.open_table(t, e.table), e.waived)) is not None:
        raise refusal


def check_final_table_formed(t: Tournament, e: FinalTableFormed) -> None:
    if (why := final.formed_bar(t)) is not None:
        raise final.refusal(why)
    lookups.unbroken_table(t, e.table)
    checks.in_range("seats", e.seats, checks.MIN_SEATS, checks.MAX_SEATS)


# Dispatch (``floor.engine.registry``) ------------------------------------------------------

DECIDES = (
    decides(OpenTable, open_table),
    decides(WaiveHalt, waive_halt),
    decides(BreakTable, break_table),
    decides(StartFinal, start_final),
    decides(SetGame, set_game),
)
CHECKS = (
    validates(TableBreaking, lambda t, e: checks.open_table(t, e.table)),
    validates(TableBroken, check_table_broken),
    validates(HaltWaived, check_halt_waived),
    validates(TableOpened, lambda t, e: new_table(t, e.table, e.seats)),
    validates(TableSetUp, check_table_set_up),
    validates(FinalTableFormed, check_final_table_formed),
    validates(GameChanged, lambda t, e: mixed_game(t)),
)
FOLDS = (
    folds(TableBreaking, Tournament._table_breaking),
    folds(TableBroken, Tournament._table_broken),
    folds(HaltWaived, Tournament._halt_waived),
    folds(TableOpened, Tournament._table_opened),
    folds(TableSetUp, Tournament._table_set_up),
    folds(FinalTableFormed, Tournament._final_table_formed),
    folds(GameChanged, Tournament._game_changed),
)
