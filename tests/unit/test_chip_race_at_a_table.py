"""The chip race at a table (FLOOR-RULES 8, PFP 20, TDA 2024 rule 24): the floor's counts per
seat, the leaving chip from the colour-up break, the cards from the engine's random source,
the new stacks recorded, the chips in play the wall averages, and bad counts refused."""

from __future__ import annotations

import msgspec
import pytest

from floor.engine import commands as cmd
from floor.engine.errors import BadSeat, NotAllowed, RuleError, UnknownTable
from floor.engine.events import ChipsRaced, RacedPlayer
from floor.engine.read.views import field_stats
from floor.engine.rules import Break, Level, Structure
from floor.engine.state import Tournament
from tests.unit.builders import Floor
from tests.unit.test_chiprace import StackedDeck

STRUCTURE = Structure(
    name="race",
    starting_stack=20_000,
    chips=(25, 100, 500, 1000),
    levels=(
        Level(small_blind=25, big_blind=50, minutes=20),  # step 0
        Break(minutes=10, color_up=(25,)),  # step 1: the 25s go
        Level(small_blind=100, big_blind=200, minutes=20),  # step 2
        Break(minutes=10, color_up=(100, 500)),  # step 3: two go at once
        Level(small_blind=1000, big_blind=2000, minutes=20),  # step 4
    ),
)


def at_break(step: int = 1) -> Floor:
    """Three tables of seven (21 players) at step ``step`` of the structure."""
    floor = Floor(dict.fromkeys((1, 2, 3), "1-7 pos 1/2/3"), structure=STRUCTURE)
    floor.do(cmd.ClockStart(), cmd.ClockLevel(to=step))
    return floor


def count(seat: int, chips: int, stack: int | None = None) -> cmd.RaceCount:
    return cmd.RaceCount(seat=seat, chips=chips, stack=stack)


def race(*counts: cmd.RaceCount, table: int = 1, leaving: int | None = None) -> cmd.ChipRace:
    return cmd.ChipRace(table=table, seats=counts, leaving=leaving)


# --- worked example ---------------------------------------------------------------------------


def test_a_chip_race_with_a_player_who_would_be_raced_out() -> None:
    # At the break the 25s go. Seat 1 holds seven 25s (one 100 in exchange, three odd), seat 2
    # has a single 25 and nothing else, seat 3 two 25s. Six odd 25s are 150: one and a half
    # 100s, so two chips are raced. Seat 3's ace and seat 1's king win them; seat 2's queen
    # loses, and seat 2 would be out: they get one 100, the smallest chip still in play.
    floor = at_break()
    floor.rng = StackedDeck(["Kh", "2c", "3d", "Qs", "As", "4h"])

    (event,) = floor.do(race(count(1, 7, 20_175), count(2, 1, 25), count(3, 2, 9_050)))

    assert isinstance(event, ChipsRaced)
    result = event.result
    assert (result.leaving, result.next_up, result.odd_chips, result.chips_raced) == (25, 100, 6, 2)
    assert [(s.seat, s.cards, s.won, s.stack, s.kept_in) for s in result.seats] == [
        (1, ("Kh", "2c", "3d"), 1, 20_200, False),
        (2, ("Qs",), 0, 100, True),
        (3, ("As", "4h"), 1, 9_100, False),
    ]
    assert event.players == (
        RacedPlayer(seat=1, player="T1S1", stack=20_175),
        RacedPlayer(seat=2, player="T1S2", stack=25),
        RacedPlayer(seat=3, player="T1S3", stack=9_050),
    )
    assert event.change == 150  # 29,400 after, 29,250 before
    assert [floor.t.player(f"T1S{s}").stack for s in (1, 2, 3)] == [20_200, 100, 9_100]
    assert not floor.t.player("T1S2").busted
    # The table can see its cards again after a reload: the race is kept in the state.
    assert floor.t.state.chip_races[-1].result == result
    assert floor.t.state.chip_races[-1].players == event.players


def test_a_chip_race_changes_the_chips_in_play_that_the_wall_averages() -> None:
    floor = at_break()
    floor.rng = StackedDeck(["Kh", "2c", "3d", "Qs", "As", "4h"])
    before = field_stats(floor.t)

    floor.do(race(count(1, 7, 20_175), count(2, 1, 25), count(3, 2, 9_050)))

    after = field_stats(floor.t)
    assert before.chips == 21 * 20_000
    assert after.chips == 21 * 20_000 + 150
    assert after.average_stack == round((21 * 20_000 + 150) / 21)
    assert msgspec.msgpack.encode(Tournament.fold(floor.log).state) == floor.snapshot()


def test_the_stacks_on_record_are_used_when_the_floor_gives_none() -> None:
    floor = at_break()
    floor.do(cmd.SetStack(player="T2S1", stack=5_050), cmd.SetStack(player="T2S2", stack=7_025))

    (event,) = floor.do(race(count(1, 2), count(2, 1), table=2))

    assert isinstance(event, ChipsRaced)
    # 75 odd: one chip raced among three cards, so the stacks end at 5,000 or 5,100, 7,000
    # or 7,100 - and the chips in play moved by the race's rounding (+25).
    stacks = (floor.t.player("T2S1").stack, floor.t.player("T2S2").stack)
    assert stacks in ((5_100, 7_000), (5_000, 7_100))
    assert event.change == 25


def test_a_stack_is_counted_once_the_floor_sets_it_or_a_race_records_it() -> None:
    floor = at_break()
    given = [floor.t.player(f"T1S{s}") for s in (1, 2, 3)]
    assert [p.counted for p in given] == [False] * 3  # only what they were given
    floor.do(cmd.SetStack(player="T1S1", stack=20_175))
    assert [p.counted for p in given] == [True, False, False]

    floor.do(race(count(2, 1, 25), count(3, 2, 9_050)))

    assert [p.counted for p in given] == [True, True, True]
    assert not floor.t.player("T2S1").counted


def test_seats_that_hold_none_of_the_leaving_chip_are_left_alone() -> None:
    floor = at_break()
    floor.do(cmd.SetStack(player="T1S4", stack=12_345))

    floor.do(race(count(1, 4, 20_000)))

    assert floor.t.player("T1S4").stack == 12_345
    assert floor.t.player("T1S1").stack == 20_000  # four 25s are one 100: nothing to race


def test_outside_a_colour_up_break_the_floor_names_the_leaving_chip() -> None:
    floor = at_break(step=0)
    refused = floor.refuse(race(count(1, 4, 20_000)), NotAllowed, "leaving")
    assert refused.message == "the clock is not at a colour-up break: name the leaving denomination"

    (event,) = floor.do(race(count(1, 4, 20_000), leaving=25))

    assert isinstance(event, ChipsRaced)
    assert (event.result.leaving, event.result.next_up) == (25, 100)


def test_a_break_that_colours_up_two_chips_asks_which_and_exchanges_past_both() -> None:
    floor = at_break(step=3)
    refused = floor.refuse(race(count(1, 5, 20_000)), NotAllowed, "leaving")
    assert refused.message == "this break colours up 100, 500: name the denomination to race"

    (event,) = floor.do(race(count(1, 10, 20_000), leaving=100))

    assert isinstance(event, ChipsRaced)
    assert event.result.next_up == 1000  # the 500s leave too


# --- refusals: bad counts get a clear error and change nothing ------------------------------


@pytest.mark.parametrize(
    ("command", "error", "field", "message"),
    [
        (race(count(1, -3, 20_000)), NotAllowed, "seats[0].chips", "cannot be negative"),
        (race(count(1, 2, 20_000), count(8, 1, 100)), BadSeat, "seats[1].seat", "seat 8 is empty"),
        (race(count(10, 1, 100)), BadSeat, "seats[0].seat", "has no seat 10"),
        (race(count(1, 2, 20_000), count(1, 1, 100)), NotAllowed, "seats[1].seat", "twice"),
        (race(count(1, 9, 100)), NotAllowed, "seats[0].stack", "smaller than its 9 chips"),
        (race(count(1, 3)), NotAllowed, "seats[0].stack", "is not known: give it"),
        (race(count(1, 3, 20_000), table=7), UnknownTable, "table", "there is no table 7"),
        (race(count(1, 3, 20_000), leaving=5), NotAllowed, "leaving", "5 is not in play"),
        (race(count(1, 3, 20_000), leaving=1000), NotAllowed, "leaving", "no larger chip"),
        (race(), NotAllowed, "seats", "needs at least one player"),
    ],
    ids=[
        "negative count",
        "empty seat",
        "seat that does not exist",
        "seat twice",
        "stack below its chips",
        "stack unknown",
        "unknown table",
        "chip not in play",
        "largest chip",
        "nobody",
    ],
)
def test_a_bad_chip_race_is_refused_naming_the_field_and_changes_nothing(
    command: cmd.ChipRace, error: type[RuleError], field: str, message: str
) -> None:
    floor = at_break()

    refused = floor.refuse(command, error, field)

    assert message in refused.message


def test_a_table_races_each_denomination_once() -> None:
    floor = at_break()
    floor.do(race(count(1, 3, 20_000)))

    refused = floor.refuse(race(count(2, 3, 20_000)), NotAllowed, "table")

    assert refused.message == "table 1 has already raced off its 25s"
    floor.do(race(count(2, 3, 20_000), table=2))  # another table races its own
