"""When a chip count is old (floor/engine/count_age.py): after a level change, or a bust-out at
its table since it was taken, the table being every table the player sat at since; and how
the verdict reaches the screens: the chip leaders, each table's view, the batches that change
it (issue 25: a final table showed "22,000 · 220 BB" from a count forty bust-outs old)."""

from __future__ import annotations

import msgspec

from floor.engine import commands as cmd
from floor.engine.count_age import count_age, level_changed_at
from floor.engine.counts import chip_facts
from floor.engine.events import LevelChanged, PlayerBusted
from floor.engine.read.derived import public_facts
from floor.engine.read.views import table_view, touched_tables
from floor.engine.rules import Level, Structure
from floor.engine.state import Tournament
from tests.unit.builders import Floor

STRUCTURE = Structure(
    name="ages",
    starting_stack=20_000,
    chips=(25, 100, 500),
    levels=(
        Level(small_blind=25, big_blind=50, minutes=20),
        Level(small_blind=50, big_blind=100, minutes=20),
        Level(small_blind=100, big_blind=200, minutes=20),
    ),
)


def room() -> Floor:
    """Three tables of eight, the clock running from 1,000 s."""
    tables = dict.fromkeys((1, 2, 3), "1-8 pos 1/2/3")
    floor = Floor(tables, structure=STRUCTURE)
    floor.now = 1_000.0
    floor.do(cmd.ClockStart())
    return floor


def count(floor: Floor, table: int, at: float | None = None, **stacks: int) -> None:
    counts = tuple(cmd.Count(player=p, stack=s) for p, s in stacks.items())
    floor.do(cmd.CountTable(table=table, stacks=counts, at=at))


def age(floor: Floor, player: str) -> str | None:
    return count_age(floor.t.state, floor.t.player(player))


def test_a_count_stands_until_the_level_changes_and_a_new_count_makes_it_current() -> None:
    floor = room()
    count(floor, 1, T1S1=31_000, T1S2=9_000)
    assert age(floor, "T1S1") is None
    assert age(floor, "T1S3") is None  # no count: nothing to call old

    floor.now = 1_500.0
    floor.do(cmd.ClockLevel(step=1))
    assert level_changed_at(floor.t.state) == 1_500.0
    assert (age(floor, "T1S1"), age(floor, "T1S2")) == ("level", "level")

    floor.now = 1_600.0
    count(floor, 1, T1S1=40_000)
    assert (age(floor, "T1S1"), age(floor, "T1S2")) == (None, "level")


def test_the_clocks_start_is_no_level_change_nor_is_a_step_set_before_it() -> None:
    floor = Floor({1: "1-5 pos 1/2/3"}, structure=STRUCTURE)
    floor.now = 900.0
    floor.do(cmd.ClockLevel(to=1))  # before the start: no hand was played at the first
    count(floor, 1, T1S1=31_000)  # Day 2's bags, say: the stacks the day starts with
    floor.now = 1_000.0
    floor.do(cmd.ClockStart())
    assert level_changed_at(floor.t.state) is None
    assert age(floor, "T1S1") is None
    floor.now = 2_000.0
    floor.do(cmd.ClockLevel(step=1))
    assert age(floor, "T1S1") == "level"


def test_a_bust_out_makes_the_counts_at_its_table_old_and_no_others() -> None:
    floor = room()
    count(floor, 1, T1S1=31_000, T1S2=9_000)
    count(floor, 2, T2S1=25_000)
    floor.now = 1_100.0
    floor.bust("T1S5")  # nobody counted it: its chips went to somebody at table 1
    assert (age(floor, "T1S1"), age(floor, "T1S2"), age(floor, "T2S1")) == ("bust", "bust", None)
    # A count taken after the bust-out stands (sent late from a phone: as of when it was taken).
    count(floor, 1, at=1_050.0, T1S3=20_000)
    count(floor, 1, at=1_100.0, T1S4=20_000)
    assert (age(floor, "T1S3"), age(floor, "T1S4")) == ("bust", None)


def test_a_player_carries_the_bust_outs_of_the_table_left_and_not_those_after() -> None:
    floor = room()
    count(floor, 1, T1S1=31_000, T1S2=9_000)
    floor.now = 1_050.0
    floor.do(cmd.CorrectSeat(player="T1S1", table=2, seat=9))
    floor.now = 1_100.0
    floor.bust("T1S5")
    assert age(floor, "T1S1") is None  # table 1's bust-out came after the player left it
    assert age(floor, "T1S2") == "bust"
    floor.now = 1_150.0
    floor.do(cmd.CorrectSeat(player="T1S2", table=3, seat=9))
    assert floor.where("T1S2") == (3, 9)
    assert age(floor, "T1S2") == "bust"  # it came before: the player carries it
    floor.now = 1_200.0
    floor.bust("T2S5")
    assert age(floor, "T1S1") == "bust"


def test_a_bust_out_at_a_table_before_the_player_sat_down_there_is_not_theirs() -> None:
    # The final table's case: its players come from other tables, their counts with them.
    floor = room()
    count(floor, 1, T1S1=31_000)
    floor.now = 1_050.0
    floor.bust("T2S5")
    floor.now = 1_100.0
    floor.do(cmd.CorrectSeat(player="T1S1", table=2, seat=9))
    assert age(floor, "T1S1") is None
    assert floor.t.player("T1S1").seated_bust_at == 1_050.0
    floor.now = 1_200.0
    floor.bust("T2S4")
    assert age(floor, "T1S1") == "bust"


def test_the_leaders_and_the_views_carry_the_verdict_and_the_batches_that_change_it() -> None:
    floor = room()
    count(floor, 1, T1S1=31_000, T1S2=9_000)
    leaders = chip_facts(floor.t).leaders
    assert [(x.player, x.stack, x.at, x.old) for x in leaders] == [
        ("T1S1", 31_000, 1_000.0, None),
        ("T1S2", 9_000, 1_000.0, None),
    ]
    assert table_view(floor.t, floor.t.table(1)).old_counts == {}

    # A bust-out where nobody was counted changes nothing the screens hold: nothing is sent.
    floor.now = 1_050.0
    quiet = floor.bust("T2S5")
    assert public_facts(floor.t, quiet).chips is msgspec.UNSET

    floor.now = 1_100.0
    count(floor, 2, at=1_060.0, T2S1=25_000)
    busted = floor.bust("T1S5")
    assert isinstance(busted[0], PlayerBusted)
    # T1S5 was never counted: the batch still says the counts at its table are old now.
    chips = public_facts(floor.t, busted).chips
    assert not isinstance(chips, msgspec.UnsetType)
    assert [(x.player, x.old) for x in chips.leaders] == [
        ("T1S1", "bust"),
        ("T2S1", None),
        ("T1S2", "bust"),
    ]
    assert touched_tables(busted) == {1}
    assert table_view(floor.t, floor.t.table(1)).old_counts == {"T1S1": "bust", "T1S2": "bust"}
    assert table_view(floor.t, floor.t.table(2)).old_counts == {}

    floor.now = 1_500.0
    changed = floor.do(cmd.ClockLevel(step=1))
    assert any(isinstance(e, LevelChanged) for e in changed)
    assert touched_tables(changed) is None  # every table's view again
    chips = public_facts(floor.t, changed).chips
    assert not isinstance(chips, msgspec.UnsetType)
    assert {x.player: x.old for x in chips.leaders} == {
        "T1S1": "level",
        "T2S1": "level",
        "T1S2": "level",
    }
    assert table_view(floor.t, floor.t.table(2)).old_counts == {"T2S1": "level"}


def test_the_state_a_log_folds_to_holds_where_the_bust_outs_were() -> None:
    floor = room()
    count(floor, 1, T1S1=31_000)
    floor.now = 1_100.0
    floor.bust("T1S5")
    floor.do(cmd.CorrectSeat(player="T1S1", table=2, seat=9))
    folded = Tournament.fold(floor.log).state
    assert folded.tables[1].busted_at == 1_100.0
    assert folded.players["T1S1"].left_bust_at == 1_100.0
    assert folded.players["T1S1"].seated_bust_at is None  # table 2 had no bust-out then
    assert msgspec.msgpack.encode(folded) == floor.snapshot()
