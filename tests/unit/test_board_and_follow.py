"""The board of seat changes and what a follower of one player is shown (``engine.board``,
``engine.follow``): only what the room is shown, each line with the player's name."""

from __future__ import annotations

import json

import msgspec

from floor.engine import commands as cmd
from floor.engine.board import LIMIT, BoardEntry, BoardLog, add
from floor.engine.model import Spot
from floor.engine.read import follow
from tests.unit.builders import Floor
from tests.unit.test_entries_and_buys import STRUCTURE
from tests.unit.test_flights import flight, sheet

# 9 v 7: T1's next big blind (T1S7) is planned to T2's worst seat, 6.
LAYOUT = {1: "1-9 pos 4/5/6", 2: "1-5,7,9 pos 2/3/4"}
# 19 players: one bust-out more and the other two tables seat everybody, so table 3 breaks.
BREAKING = {1: "1-9 pos 4/5/6", 2: "1-7 pos 1/2/3", 3: "1-3 pos 1/2/3"}


def newest(floor: Floor) -> list[BoardEntry]:
    """The board the state holds, newest first, as the screens list it."""
    return floor.t.state.board.newest(LIMIT)


def test_a_move_is_on_the_board_once_carried_out_with_the_name_it_had() -> None:
    floor = Floor(LAYOUT)
    floor.bust("T2S9")
    assert newest(floor) == []  # planned: nothing for the room
    floor.do(cmd.CallMove(player="T1S7"))
    assert newest(floor) == []  # a first call is the move to make, not a change
    floor.confirm("T1S7")
    [line] = newest(floor)
    assert (line.kind, line.player, line.from_, line.to, line.reason) == (
        "move",
        "T1S7",
        Spot(1, 7),
        Spot(2, 6),
        "balance",
    )
    assert line.name == floor.t.state.players["T1S7"].name
    assert line.key == "0"
    wire = json.loads(msgspec.json.encode(line))
    assert wire["from"] == {"table": 1, "seat": 7} and "table" not in wire


def test_a_move_called_again_is_a_change_and_one_cancelled_after_its_call_is_called_off() -> None:
    floor = Floor(LAYOUT)
    floor.do(cmd.CallMove(player="T1S7"))
    floor.do(cmd.CallMove(player="T1S7", seat=8))
    assert [(x.kind, x.table, x.seat) for x in newest(floor)] == [("recalled", 2, 8)]
    floor.do(cmd.Cancel(player="T1S7"))
    assert [(x.kind, x.player, x.table, x.seat) for x in newest(floor)] == [
        ("called_off", "T1S7", 2, 8),
        ("recalled", "T1S7", 2, 8),
    ]


def test_a_table_breaking_and_broken_is_on_the_board_newest_first() -> None:
    floor = Floor(BREAKING)
    floor.bust("T1S1")
    assert [x.kind for x in newest(floor)] == ["breaking"]
    floor.do(cmd.CallAll(reason="break"))
    for player in ("T3S1", "T3S2", "T3S3"):
        floor.confirm(player)
    lines = newest(floor)
    kinds = [x.kind for x in lines]
    assert kinds[0] == "broken" and kinds[-1] == "breaking"
    assert sorted(x.player or "" for x in lines if x.kind == "move") == [
        "T3S1",
        "T3S2",
        "T3S3",
    ]
    keys = [int(x.key) for x in lines]
    assert keys == sorted(keys, reverse=True)


def test_the_board_keeps_its_limit_of_the_newest_lines() -> None:
    floor = Floor(BREAKING)
    board = BoardLog()
    events = [*floor.bust("T1S1"), *floor.do(cmd.CallAll(reason="break"))]
    for player in ("T3S1", "T3S2", "T3S3"):
        events += floor.confirm(player)
    for e in events:
        add(board, e, floor.t.state.players, limit=2)
    assert len(board.lines) == 2 and board.newest(2)[0].kind == "broken"
    assert board.count == 5  # breaking, three moves, broken: counted, two kept


def test_a_follower_is_shown_their_move_once_called_and_no_staff_flag() -> None:
    floor = Floor(LAYOUT, structure=STRUCTURE)
    floor.do(cmd.SetSpecialNeeds(player="T1S7", special_needs=True))
    floor.bust("T2S9")
    me = follow.me(floor.t, "T1S7", floor.t.plan.settled())
    assert me.player is not None and me.player.special_needs is False
    assert me.move is None  # planned only
    assert me.table is not None and me.table.number == 1 and me.view is not None
    floor.do(cmd.CallMove(player="T1S7"))
    me = follow.me(floor.t, "T1S7", floor.t.plan.settled())
    assert me.move is not None and (me.move.to.table, me.move.to.seat) == (2, 6)
    floor.bust("T1S1")
    out = follow.me(floor.t, "T1S1", floor.t.plan.settled())
    assert out.player is not None and out.player.busted and out.table is None
    assert follow.me(floor.t, "NOBODY", floor.t.plan.settled()).player is None


def test_the_room_part_holds_the_clock_and_numbers_not_the_players() -> None:
    floor = Floor(LAYOUT, structure=STRUCTURE)
    room = follow.room(floor.t)
    assert room.stats.players_left == 16 and room.facts.search == {}
    assert room.board == [] and room.names == {}
    wire = msgspec.json.encode(room).decode()
    assert "T1S7" not in wire  # no player of the room in it
    static = follow.static(floor.t)
    assert static.structure is STRUCTURE and len(static.steps) == len(STRUCTURE.levels)


def test_a_batch_names_the_followers_to_work_out_again() -> None:
    floor = Floor(LAYOUT)
    players, tables = follow.touched(floor.do(cmd.CallMove(player="T1S7")))
    assert players == {"T1S7"} and tables == set()
    players, tables = follow.touched(floor.bust("T2S1"))
    assert "T2S1" in players and tables is not None and 2 in tables
    assert "T1S3" not in players  # at another table, untouched: not worked out again


def test_a_follower_is_told_the_day_is_over_and_when_each_sheet_came_in() -> None:
    floor = flight(18, last_level=4)
    assert follow.room(floor.t).day_ended is None
    floor.do(cmd.EndDay(now=True), now=50.0)
    floor.do(sheet(floor, 1), now=60.0)
    room = follow.room(floor.t)
    assert room.day_ended is not None and room.day_ended.by == "director"
    assert room.bagged == {1: 60.0}
    wire = msgspec.json.encode(room).decode()
    assert '"bags"' not in wire  # the counts themselves are read from /counts
