"""What a phone following one player is shown: their seat, the clock and the board, not the room.

Thousands of players follow their own seat on the venue's wifi; the whole room (2.5 MB at
10,000 players, 120 KB gzipped) is what the wall needs, not them. A follower's view has
three parts, each sent again only when it changes:

- ``FollowStatic``: the tournament's name, rules and structure (the clock's levels);
- ``FollowRoom``: what every follower of the tournament shares: the clock, the field's
  numbers, the public facts without the search keys, the board, the chip leaders' names;
- ``FollowMe``: the followed player as the public sees them (no staff flags or notes),
  their table and its status, and their move once the floor has called it.
"""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from ..board import BoardEntry
from ..counts import chip_facts
from ..events import Announced, CallsLapsed, DayEnded, Event, MovesCalled
from ..model import DealtGame, PlayerId, TableNo
from ..money import PlayerFinish, finish_of
from ..plan import Halt, Plan, PlannedMove
from ..rules import Rules, Structure
from ..state import ClockState, Player, Table, Tournament
from .derived import Facts, StepFacts, players_in, public_facts, steps
from .views import FieldStats, TableView, field_stats, table_view, touched_tables

#: Board lines a follower is sent (the player screen shows 25).
BOARD_LINES = 25


class FollowStatic(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    rules: Rules
    structure: Structure | None
    steps: list[StepFacts]


class FollowRoom(msgspec.Struct, frozen=True, kw_only=True):
    clock: ClockState
    current_game: DealtGame
    final_table: TableNo | None
    stats: FieldStats
    facts: Facts
    board: list[BoardEntry]
    #: The names of the chip leaders (``facts.chips``): the follower holds no other player.
    names: dict[PlayerId, str]
    #: The day's end (a flight's, or a day of a tournament over days), and when each
    #: table's bag sheet came in: the night's counts are published once the day is over.
    day_ended: DayEnded | None = None
    bagged: dict[TableNo, float] = msgspec.field(default_factory=dict)
    #: The director's message to the room (``announce``).
    announcement: Announced | None = None


class FollowMe(msgspec.Struct, frozen=True, kw_only=True):
    #: None: no such player (unregistered since, or a wrong id).
    player: Player | None
    table: Table | None = None
    view: TableView | None = None
    #: Their move, once called (``Plan.settled``: the room is shown no other).
    move: PlannedMove | None = None
    halt: Halt | None = None
    #: Their place and prize once out, or as the winner (``money.finish_of``).
    finish: PlayerFinish | None = None


def static(t: Tournament) -> FollowStatic:
    s = t.state
    return FollowStatic(
        name=s.name,
        rules=s.rules,
        structure=s.structure,
        steps=steps(s.structure) if s.structure is not None else [],
    )


def room(t: Tournament) -> FollowRoom:
    s = t.state
    chips = chip_facts(t)
    # No search keys (a follower searches on the server) and so no scan of the field.
    facts = msgspec.structs.replace(public_facts(t, ()), full=True, chips=chips)
    names = {x.player: s.players[x.player].name for x in chips.leaders if x.player in s.players}
    return FollowRoom(
        clock=s.clock,
        current_game=s.current_game,
        final_table=s.final_table,
        stats=field_stats(t),
        facts=facts,
        board=s.board.newest(BOARD_LINES),
        names=names,
        day_ended=s.day_ended,
        bagged={n: sheet.at for n, sheet in s.bags.items()},
        announcement=s.announcement,
    )


def me(t: Tournament, player: PlayerId, settled: Plan) -> FollowMe:
    """``player`` as a follower is shown them; ``settled``: ``t.plan.settled()``, worked out
    once for every follower of the room."""
    s = t.state
    p = s.players.get(player)
    if p is None:
        return FollowMe(player=None)
    done = finish_of(t, p)
    if p.special_needs or p.locked or p.note is not None:
        p = msgspec.structs.replace(p, special_needs=False, locked=False, note=None)
    table = s.tables.get(p.table) if p.table is not None and not p.busted else None
    return FollowMe(
        player=p,
        finish=done,
        table=table,
        view=table_view(t, table) if table is not None else None,
        move=settled.move_of(player),
        halt=next((h for h in settled.halted if table and h.table == table.number), None),
    )


def touched(events: Iterable[Event]) -> tuple[set[PlayerId], set[TableNo] | None]:
    """The players whose ``me`` these events may change (named, or their move called or
    called off), and the tables whose view they may change (None: any). A halt that comes or
    goes with a bust-out elsewhere is not here: compare ``Plan.halted`` before and after."""
    seen = list(events)
    players = players_in(seen)
    for e in seen:
        if isinstance(e, MovesCalled):
            players.update(c.player for c in e.calls)
        elif isinstance(e, CallsLapsed):
            players.update(e.players)
    return players, touched_tables(seen)
