"""Chip counts (floor/engine/counts.py): a count sheet of a table in one event with the time
of the count, refusals that name the row, the chip leaders and average from the counts only,
and the chip race on counted stacks (a stack nobody counted is no count after a race either)."""

from __future__ import annotations

import msgspec
import pytest

from floor.engine import commands as cmd
from floor.engine.counts import chip_facts
from floor.engine.errors import NotAllowed, RuleError, UnknownPlayer, UnknownTable
from floor.engine.events import (
    ChipsRaced,
    CountedStack,
    HandStarted,
    StacksCounted,
)
from floor.engine.read.derived import public_facts
from floor.engine.rules import Break, Level, Structure
from floor.engine.state import Tournament
from floor.engine.validate import replay
from tests.unit.builders import Floor

STRUCTURE = Structure(
    name="counts",
    starting_stack=20_000,
    chips=(25, 100, 500, 1000),
    levels=(
        Level(small_blind=25, big_blind=50, minutes=20),
        Break(minutes=10, color_up=(25,)),
        Level(small_blind=100, big_blind=200, minutes=20),
    ),
)


def two_tables() -> Floor:
    floor = Floor({1: "1-5 pos 1/2/3", 2: "1-5 pos 1/2/3"}, structure=STRUCTURE)
    floor.now = 1_000.0
    return floor


def sheet(table: int, at: float | None = None, **stacks: int) -> cmd.CountTable:
    counts = tuple(cmd.Count(player=p, stack=s) for p, s in stacks.items())
    return cmd.CountTable(table=table, stacks=counts, at=at)


# --- the count sheet ---------------------------------------------------------------------------


def test_a_count_sheet_is_one_event_with_the_time_of_the_count() -> None:
    floor = two_tables()

    events = floor.do(sheet(1, at=940.0, T1S1=31_500, T1S2=8_200, T1S4=20_000))

    assert events == [
        StacksCounted(
            table=1,
            stacks=(
                CountedStack("T1S1", 31_500),
                CountedStack("T1S2", 8_200),
                CountedStack("T1S4", 20_000),
            ),
            at=940.0,
        )
    ]
    counted = {p: floor.t.player(p) for p in ("T1S1", "T1S2", "T1S3", "T1S4")}
    assert {p: (x.stack, x.counted, x.counted_at) for p, x in counted.items()} == {
        "T1S1": (31_500, True, 940.0),
        "T1S2": (8_200, True, 940.0),
        "T1S3": (None, False, None),  # an empty field: not counted
        "T1S4": (20_000, True, 940.0),
    }
    assert msgspec.msgpack.encode(Tournament.fold(floor.log).state) == floor.snapshot()
    # The import validator takes the log as the engine wrote it.
    assert msgspec.msgpack.encode(replay(floor.log).state) == floor.snapshot()


def test_a_count_without_a_time_is_counted_now_and_one_a_little_ahead_is_now_too() -> None:
    floor = two_tables()

    floor.do(sheet(2, T2S1=9_000))
    floor.do(sheet(2, at=floor.now + 20, T2S2=9_500))  # the phone's clock a little ahead

    assert floor.t.player("T2S1").counted_at == floor.now
    assert floor.t.player("T2S2").counted_at == floor.now


def test_a_single_count_is_a_sheet_of_one_and_set_stack_records_its_time() -> None:
    floor = two_tables()

    floor.do(sheet(1, T1S5=12_000))
    floor.do(cmd.SetStack(player="T2S5", stack=7_000), now=1_010.0)

    assert (floor.t.player("T1S5").stack, floor.t.player("T1S5").counted_at) == (12_000, 1_000.0)
    assert (floor.t.player("T2S5").stack, floor.t.player("T2S5").counted_at) == (7_000, 1_010.0)


# --- refused, naming the row, changing nothing --------------------------------------------------


@pytest.mark.parametrize(
    ("command", "error", "field", "reason"),
    [
        (sheet(9, T1S1=100), UnknownTable, "table", "table_unknown"),
        (sheet(1, T1S1=100, NOBODY=200), UnknownPlayer, "stacks[1].player", "player_unknown"),
        (sheet(1, T1S1=100, T2S1=200), NotAllowed, "stacks[1].player", "count_not_at_table"),
        (sheet(1, at=1_000.0 + 3_600, T1S1=100), NotAllowed, "at", "count_in_future"),
    ],
)
def test_a_bad_count_is_refused_naming_the_field(
    command: cmd.CountTable, error: type[RuleError], field: str, reason: str
) -> None:
    floor = two_tables()

    refused = floor.refuse(command, error, field)

    assert refused.reason == reason


def test_a_player_listed_twice_or_already_out_is_refused_by_row() -> None:
    floor = two_tables()
    twice = cmd.CountTable(
        table=1, stacks=(cmd.Count(player="T1S1", stack=1), cmd.Count(player="T1S1", stack=2))
    )
    floor.refuse(twice, NotAllowed, "stacks[1].player")
    floor.bust("T1S3")

    refused = floor.refuse(sheet(1, T1S1=100, T1S3=200), NotAllowed, "stacks[1].player")

    assert refused.reason == "player_out"


def test_a_count_older_than_the_stack_s_last_count_is_refused_not_laid_over_it() -> None:
    # Two phones count seat 2: the later count stands; the earlier one, arriving last from an
    # outbox, would put an old stack over it.
    floor = two_tables()
    floor.do(sheet(1, at=990.0, T1S2=14_000))

    refused = floor.refuse(
        sheet(1, at=900.0, T1S1=5_000, T1S2=9_000), NotAllowed, "stacks[1].player"
    )

    assert refused.reason == "count_older"
    assert floor.t.player("T1S2").stack == 14_000


def test_the_command_s_own_bounds_are_the_decoder_s() -> None:
    with pytest.raises(msgspec.ValidationError, match=r"stacks"):
        msgspec.json.decode(b'{"type": "count_table", "table": 1, "stacks": []}', type=cmd.Command)
    with pytest.raises(msgspec.ValidationError, match=r"stack"):
        msgspec.json.decode(
            b'{"type": "count_table", "table": 1, "stacks": [{"player": "P1", "stack": -5}]}',
            type=cmd.Command,
        )
    with pytest.raises(msgspec.ValidationError, match=r"\$\.at"):
        msgspec.json.decode(
            b'{"type": "count_table", "table": 1, "stacks": [{"player": "P1", "stack": 5}],'
            b' "at": 1e999}',
            type=cmd.Command,
        )


# --- the chip leaders and the average, from counts only ------------------------------------------


def test_the_chip_leaders_and_average_are_of_the_counted_stacks_only() -> None:
    floor = two_tables()
    assert chip_facts(floor.t).counted == 0

    floor.do(sheet(1, at=950.0, T1S1=31_500, T1S2=8_200))
    floor.do(sheet(2, at=980.0, T2S3=44_000, T2S4=8_200))

    facts = chip_facts(floor.t)
    assert facts.counted == 4
    assert facts.average == round((31_500 + 8_200 + 44_000 + 8_200) / 4)
    assert [(x.player, x.stack) for x in facts.leaders] == [
        ("T2S3", 44_000),
        ("T1S1", 31_500),
        ("T1S2", 8_200),  # equal stacks by player id
        ("T2S4", 8_200),
    ]
    assert facts.last_at == 980.0


def test_a_counted_leader_who_busts_leaves_the_leaders_and_the_batch_says_so() -> None:
    floor = two_tables()
    floor.do(sheet(2, T2S3=44_000, T2S4=8_200))
    uncounted = floor.bust("T1S5")
    assert public_facts(floor.t, uncounted).chips is msgspec.UNSET  # nothing to send

    busted = floor.bust("T2S3")

    chips = public_facts(floor.t, busted).chips
    assert not isinstance(chips, msgspec.UnsetType)
    assert [(x.player, x.stack) for x in chips.leaders] == [("T2S4", 8_200)]
    assert chips.counted == 1


# --- the chip race on counted stacks --------------------------------------------------------------


def test_the_chip_race_takes_the_counted_stacks_and_an_uncounted_stack_stays_uncounted() -> None:
    floor = Floor({}, structure=STRUCTURE)
    for name in ("Ann", "Bob", "Cy"):
        floor.do(cmd.Register(name=name))  # given the starting stack, 20,000
    floor.do(cmd.DrawSeats(), cmd.ClockStart(), cmd.ClockLevel(to=1))
    ann, bob = floor.t.player("P0001"), floor.t.player("P0002")
    assert ann.table is not None and ann.seat is not None and bob.seat is not None
    floor.do(sheet(ann.table, P0001=8_050))
    counts = (cmd.RaceCount(seat=ann.seat, chips=2), cmd.RaceCount(seat=bob.seat, chips=4))

    (event,) = floor.do(cmd.ChipRace(table=ann.table, seats=counts))

    assert isinstance(event, ChipsRaced)
    assert {r.player: (r.stack, r.counted) for r in event.players} == {
        "P0001": (8_050, True),  # the count, not the starting stack
        "P0002": (20_000, False),
    }
    assert (ann.counted, ann.counted_at) == (True, floor.now)
    assert (bob.counted, bob.counted_at) == (False, None)  # still not counted
    assert msgspec.msgpack.encode(Tournament.fold(floor.log).state) == floor.snapshot()


# --- same-hand bust-outs: a stack nobody counted does not place anybody ---------------------------


def test_a_same_hand_bust_out_takes_the_last_count_but_never_a_stack_nobody_counted() -> None:
    floor = Floor({}, structure=STRUCTURE)
    for name in ("Ann", "Bob", "Cy"):
        floor.do(cmd.Register(name=name))
    floor.do(cmd.DrawSeats())
    table = floor.t.player("P0001").table
    assert table is not None and floor.t.player("P0002").stack == 20_000  # given, not counted
    floor.do(sheet(table, P0001=6_000))
    same = cmd.BustSameHand(players=(cmd.Busted(player="P0001"), cmd.Busted(player="P0002")))

    refused = floor.refuse(same, NotAllowed, "players[1].stack")

    assert refused.reason == "start_stack_needed"


# --- the button the phone shows (defect 6) --------------------------------------------------------


def test_after_button_here_on_seat_4_the_table_view_shows_the_button_on_seat_4() -> None:
    from floor.engine.read.views import table_view

    floor = Floor({1: "1-9"})
    floor.button(1, 4)

    assert table_view(floor.t, floor.t.table(1)).button == 4
    # The recorded last hand is a virtual one before seat 4; its own button is seat 3.
    assert floor.positions(1) == (3, 4, 5)

    (hand,) = [e for e in floor.hand(1) if isinstance(e, HandStarted)]

    assert hand.positions is not None and hand.positions.button == 4
    assert table_view(floor.t, floor.t.table(1)).button == 4  # the hand dealt from seat 4
    floor.hand(1)
    assert table_view(floor.t, floor.t.table(1)).button == 5


def test_a_reported_button_heads_up_is_the_reported_seat_too() -> None:
    from floor.engine.read.views import table_view

    floor = Floor({1: "2,7"})
    floor.button(1, 7)

    assert table_view(floor.t, floor.t.table(1)).button == 7
    floor.hand(1)
    assert table_view(floor.t, floor.t.table(1)).button == 7
