"""Flights of one event: the end of a day, bag and tag, the total-chips check, Day 2."""

from __future__ import annotations

import random
import re
from pathlib import Path

import msgspec
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from floor.engine import commands as cmd
from floor.engine import day2
from floor.engine.bagging import ChipLedger, Flag, check, ledger
from floor.engine.errors import NotAllowed
from floor.engine.events import BagCount, DayEnded, TableBagged, TournamentCreated
from floor.engine.flights import (
    Bagged,
    Flight,
    FlightRules,
    StackForward,
    day_over,
    forward,
    may_enter,
)
from floor.engine.read.views import chips_in_play
from floor.engine.rules import Break, Level, ReservedSeat, Rules, Structure
from floor.engine.state import Tournament
from floor.engine.validate import InvalidEvent, replay
from tests.unit.builders import Floor

STRUCTURE = Structure(
    name="main event",
    starting_stack=30_000,
    chips=(100, 500, 1_000),
    levels=(
        Level(small_blind=100, big_blind=200, minutes=60),  # step 0: level 1
        Level(small_blind=200, big_blind=400, minutes=60),  # step 1: level 2
        Break(minutes=15, color_up=(100,)),  # step 2: the break after level 2
        Level(small_blind=500, big_blind=1_000, minutes=60),  # step 3: level 3
        Level(small_blind=1_000, big_blind=2_000, minutes=60),  # step 4: level 4
    ),
)
RULES = Rules(game="holdem", seats=9, final_table=9)


def bag(player: str, flight: int, stack: int) -> Bagged:
    return Bagged(
        player=player, name=player, flight=f"1{'ABCDEF'[flight]}", order=flight, stack=stack
    )


# The house rule for a player in several flights ---------------------------------------------


def test_best_stack_forward_brings_the_biggest_bag_and_the_earliest_of_equal_ones() -> None:
    a, b, c = bag("p", 0, 40_000), bag("p", 1, 90_000), bag("p", 2, 90_000)
    assert forward("best", [a, b, c]) is b


def test_first_stack_forward_brings_the_earliest_flights_bag_whatever_its_size() -> None:
    a, b = bag("p", 0, 40_000), bag("p", 1, 90_000)
    assert forward("first", [b, a]) is a


def test_no_flight_after_a_bag_refuses_the_entry_and_keeps_a_stray_second_bag_out() -> None:
    rules = FlightRules(stack_forward="no_flight_after_bag")
    bags = [bag("p", 0, 40_000)]
    with pytest.raises(NotAllowed) as refused:
        may_enter(rules, "p", bags, order=1)
    assert refused.value.reason == "flight_after_bag"
    assert refused.value.params == {"player": "p", "flight": "1A"}
    may_enter(rules, "q", bags, order=1)  # somebody else may
    may_enter(FlightRules(stack_forward="best"), "p", bags, order=1)  # other houses allow it
    assert forward("no_flight_after_bag", [bag("p", 1, 90_000), bags[0]]) is bags[0]


# The end of a day ---------------------------------------------------------------------------


def test_a_day_ends_after_its_last_level_or_at_its_share_of_the_field() -> None:
    rules = FlightRules(last_level=2, end_share=0.15)
    assert day_over(rules, STRUCTURE, 1, left=500, field=1_000) is None  # level 2 in play
    assert day_over(rules, STRUCTURE, 2, left=500, field=1_000) is not None  # its break
    assert day_over(rules, STRUCTURE, 2, left=500, field=1_000) == "last_level"
    assert day_over(rules, STRUCTURE, 0, left=150, field=1_000) == "field_share"
    assert day_over(rules, STRUCTURE, 0, left=151, field=1_000) is None


def flight(players: int, **rules: object) -> Floor:
    floor = Floor({}, structure=STRUCTURE)
    floor.do(cmd.SetFlight(event="main", order=1, rules=msgspec.convert(rules, FlightRules)))
    floor.do(*(cmd.Register(player=f"p{i}", name=f"Player {i}") for i in range(players)))
    floor.do(cmd.DrawSeats(), cmd.ClockStart())
    return floor


def test_the_clock_stops_when_the_level_after_the_last_one_comes() -> None:
    floor = flight(18, last_level=2)
    floor.do(cmd.ClockLevel(step=1))
    assert floor.t.state.day_ended is None
    events = floor.do(cmd.ClockLevel(step=1))
    ended = [e for e in events if isinstance(e, DayEnded)]
    assert len(ended) == 1 and (ended[0].level, ended[0].by) == (2, "last_level")
    clock = floor.t.state.clock
    assert not clock.running and clock.level == 2
    refused = floor.refuse(cmd.ClockResume(), NotAllowed, None)
    assert refused.reason == "day_ended"


def test_the_day_ends_at_the_bust_out_that_leaves_its_share_of_the_field() -> None:
    floor = flight(20, end_share=0.5)
    out = [p.id for p in floor.t.state.players.values()][:9]
    floor.bust(*out)
    assert floor.t.state.day_ended is None
    floor.bust(next(p.id for p in floor.t.state.players.values() if not p.busted))
    assert floor.t.state.day_ended is not None
    assert not floor.t.state.clock.running


def test_the_director_ends_the_day_only_when_it_is_over_or_by_a_word() -> None:
    floor = flight(18, last_level=4)
    assert floor.refuse(cmd.EndDay(), NotAllowed, "now").reason == "day_not_over"
    floor.do(cmd.EndDay(now=True))
    assert floor.t.state.day_ended is not None
    assert floor.refuse(cmd.EndDay(now=True), NotAllowed, None).reason == "day_ended"


# Bag and tag --------------------------------------------------------------------------------


def sheet(floor: Floor, table: int, stack: int = 30_000) -> cmd.BagTable:
    seated = sorted(floor.t.state.tables[table].occupants.items())
    return cmd.BagTable(
        table=table,
        bags=tuple(cmd.Bag(player=pid, stack=stack, bag=f"{table}-{s}") for s, pid in seated),
    )


def test_bags_are_taken_once_the_day_has_ended_with_every_survivor_of_the_table() -> None:
    floor = flight(18, last_level=4)
    assert floor.refuse(sheet(floor, 1), NotAllowed, None).reason == "day_not_ended"
    floor.do(cmd.EndDay(now=True))
    whole = sheet(floor, 1)
    short = msgspec.structs.replace(whole, bags=whole.bags[1:])
    assert floor.refuse(short, NotAllowed, "bags").reason == "bag_missing"
    twice = msgspec.structs.replace(
        whole, bags=(whole.bags[0], msgspec.structs.replace(whole.bags[1], bag=whole.bags[0].bag))
    )
    assert floor.refuse(twice, NotAllowed, "bags[1].bag").reason == "bag_number_twice"
    empty = msgspec.structs.replace(
        whole, bags=(msgspec.structs.replace(whole.bags[0], stack=0), *whole.bags[1:])
    )
    assert floor.refuse(empty, NotAllowed, "bags[0].stack").reason == "bag_empty"
    floor.do(whole)
    player = floor.t.state.players[whole.bags[0].player]
    assert player.stack == 30_000 and player.counted


def test_a_corrected_sheet_says_why_and_the_log_keeps_both() -> None:
    floor = flight(18, last_level=4)
    floor.do(cmd.EndDay(now=True))
    floor.do(sheet(floor, 1))
    again = sheet(floor, 1, stack=31_000)
    assert floor.refuse(again, NotAllowed, "reason").reason == "bags_correction_reason"
    floor.do(msgspec.structs.replace(again, reason="bag 1-1 miscounted"))
    sheets = [e for e in floor.log if isinstance(e, TableBagged)]
    assert [s.reason for s in sheets] == [None, "bag 1-1 miscounted"]
    assert floor.t.state.bags[1].bags[0].stack == 31_000
    # The log with its corrections replays through the import's checks to the same state.
    assert msgspec.msgpack.encode(replay(floor.log).state) == floor.snapshot()


def test_the_chips_that_must_exist_come_from_entries_and_what_was_added_or_taken() -> None:
    floor = flight(18)
    assert ledger(floor.t) == ChipLedger(entries=18, starting_stack=30_000)
    floor.t.state.chips_added = -300  # a colour-up race took 300 out
    assert ledger(floor.t).expected == 18 * 30_000 - 300


def bags_of(table: int, *stacks: int, on_table: int | None = None) -> TableBagged:
    return TableBagged(
        table=table,
        bags=tuple(BagCount(player=f"t{table}p{i}", stack=s) for i, s in enumerate(stacks)),
        chips_on_table=on_table,
    )


def test_a_table_off_by_5000_is_flagged_and_explains_the_room() -> None:
    chips = ChipLedger(entries=4, starting_stack=50_000)
    sheets = {
        1: bags_of(1, 60_000, 40_000, on_table=100_000),
        2: bags_of(2, 75_000, 30_000, on_table=100_000),  # 5,000 written too many
    }
    result = check(chips, sheets, ["t1p0", "t1p1", "t2p0", "t2p1"], tolerance=1_000)
    assert (result.expected, result.counted, result.difference) == (200_000, 205_000, 5_000)
    assert result.flagged
    assert [(tc.table, tc.difference, tc.flagged) for tc in result.tables] == [
        (1, 0, False),
        (2, 5_000, True),
    ]
    assert result.why == (Flag(kind="table_off", table=2, chips=5_000),)


def test_a_difference_within_the_tolerance_is_not_flagged_and_missing_bags_are_named() -> None:
    chips = ChipLedger(entries=4, starting_stack=50_000, other=-500)
    result = check(chips, {1: bags_of(1, 100_000, 99_000)}, ["t1p0", "t1p1", "x"], 1_000)
    assert result.difference == -500 and not result.flagged
    assert result.unbagged == ("x",)
    assert result.why == (Flag(kind="unbagged", players=1),)


def test_a_room_off_with_no_table_to_blame_says_by_how_much() -> None:
    chips = ChipLedger(entries=2, starting_stack=50_000)
    result = check(chips, {1: bags_of(1, 60_000, 45_000)}, ["t1p0", "t1p1"], 1_000)
    assert result.why == (Flag(kind="room_off", chips=5_000),)


# Day 2 --------------------------------------------------------------------------------------


def flights_of(*fields: dict[str, int]) -> list[Flight]:
    return [
        Flight(
            id=f"1{'ABCDEF'[i]}",
            name=f"Day 1{'ABCDEF'[i]}",
            order=i,
            entries=len(field) * 3,
            survivors=tuple(bag(p, i, s) for p, s in field.items()),
        )
        for i, field in enumerate(fields)
    ]


def test_day2_seats_every_survivor_once_with_the_house_rules_bag() -> None:
    flights = flights_of({"a": 50_000, "both": 40_000}, {"b": 70_000, "both": 90_000})
    plan = day2.plan(flights, "best", RULES, random.Random(1))
    assert {b.player: b.stack for b in plan.players} == {"a": 50_000, "both": 90_000, "b": 70_000}
    assert [(b.player, b.flight) for b in plan.set_aside] == [("both", "1A")]
    assert sorted(s.player for s in plan.seats) == ["a", "b", "both"]
    assert plan.entries == 12 and plan.chips == 210_000
    first = day2.plan(flights, "first", RULES, random.Random(1))
    assert {b.player: b.stack for b in first.players}["both"] == 40_000


def test_day2_keeps_reserved_seats_for_who_needs_one() -> None:
    rules = msgspec.structs.replace(RULES, reserved_seats=(ReservedSeat(table=1, seat=1),))
    field = {f"p{i}": 10_000 for i in range(30)}
    flights = flights_of(field)
    needy = msgspec.structs.replace(flights[0].survivors[7], special_needs=True)
    flights[0] = msgspec.structs.replace(
        flights[0], survivors=(*flights[0].survivors[:7], needy, *flights[0].survivors[8:])
    )
    for seed in range(5):
        plan = day2.plan(flights, "best", rules, random.Random(seed))
        at = {(s.table, s.seat): s.player for s in plan.seats}
        assert at[(1, 1)] == "p7"


def test_day2s_first_events_fold_into_the_drawn_room_at_the_next_level() -> None:
    flights = flights_of(
        {f"a{i}": 20_000 + i for i in range(12)}, {f"b{i}": 30_000 for i in range(9)}
    )
    plan = day2.plan(flights, "best", RULES, random.Random(3))
    created = TournamentCreated(id="d2", name="Day 2", rules=RULES, structure=STRUCTURE)
    step = day2.resume_step(STRUCTURE, STRUCTURE.level_index(2))
    t = Tournament.fold(day2.first_events(created, plan, step, now=100.0))
    assert t.state.clock.level == 3 and not t.state.clock.started
    # The event's field: every flight's entries (places and the pool count them all).
    assert t.active == 21 and t.state.entries == plan.entries == 63
    assert t.state.players["a5"].stack == 20_005 and t.state.players["a5"].counted
    # The chips in play are the bags', not 21 starting stacks.
    assert chips_in_play(t) == plan.chips == sum(20_000 + i for i in range(12)) + 9 * 30_000
    counts = sorted(tb.count for tb in t.state.tables.values())
    assert counts[-1] - counts[0] <= 1


def test_a_flight_listed_twice_is_refused() -> None:
    flights = flights_of({"a": 1, "b": 2})
    with pytest.raises(NotAllowed) as refused:
        day2.plan([flights[0], flights[0]], "best", RULES, random.Random(0))
    assert refused.value.reason == "flight_twice" and refused.value.field == "flights[1]"


def test_day2_waits_for_every_flights_bags() -> None:
    flights = flights_of({"a": 1, "b": 2})
    late = msgspec.structs.replace(flights[0], unbagged=3)
    with pytest.raises(NotAllowed) as refused:
        day2.plan([late], "best", RULES, random.Random(0))
    assert refused.value.reason == "flight_not_bagged"
    assert refused.value.params == {"flight": "1A", "players": 3}


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.dictionaries(st.sampled_from([f"p{i}" for i in range(40)]), st.integers(1, 10**7)),
        min_size=1,
        max_size=5,
    ),
    st.sampled_from(["best", "first", "no_flight_after_bag"]),
    st.integers(0, 2**32),
)
def test_a_merge_keeps_every_survivor_exactly_once_with_the_right_stack(
    fields: list[dict[str, int]], rule: StackForward, seed: int
) -> None:
    flights = flights_of(*fields)
    survivors = {p for f in fields for p in f}
    assume(len(survivors) >= 2)
    plan = day2.plan(flights, rule, RULES, random.Random(seed))
    assert sorted(b.player for b in plan.players) == sorted(survivors)
    assert sorted(s.player for s in plan.seats) == sorted(survivors)
    assert len({(s.table, s.seat) for s in plan.seats}) == len(survivors)
    for b in plan.players:
        made = [(i, f[b.player]) for i, f in enumerate(fields) if b.player in f]
        want = max(s for _, s in made) if rule == "best" else made[0][1]
        assert b.stack == want
    assert len(plan.set_aside) == sum(len(f) for f in fields) - len(survivors)


# The screens' texts -------------------------------------------------------------------------

WEB = Path(__file__).resolve().parents[2] / "web" / "js"
KEY = re.compile(r'^\s*"([a-z0-9_]+(?:\.[a-z0-9_]+)+)":', re.MULTILINE)


def test_every_flights_text_is_in_english_and_czech_and_every_one_used_exists() -> None:
    en = set(KEY.findall((WEB / "lang" / "flights-en.js").read_text(encoding="utf-8")))
    cs = set(KEY.findall((WEB / "lang" / "flights-cs.js").read_text(encoding="utf-8")))
    assert en == cs
    known = en | set(KEY.findall((WEB / "lang" / "en.js").read_text(encoding="utf-8")))
    code = (WEB / "flights.js").read_text(encoding="utf-8")
    used = set(re.findall(r'\bt\("([a-z0-9_.]+)"', code))
    used |= {f"flights.ended_by.{k}" for k in ("last_level", "field_share", "director")}
    used |= {f"flights.forward.{k}" for k in ("best", "first", "no_flight_after_bag")}
    used |= {f"flights.why.{k}" for k in ("table_off", "unbagged", "room_off")}
    used |= {f"flights.col.{k}" for k in ("table", "bags", "counted", "on_table")}
    assert sorted(used - known) == []


# Day 2 from a flight whose chip check failed -------------------------------------------------


def bagged_flight(over: int, tolerance: int) -> Floor:
    """A flight of 18 (540,000 chips must exist) ended and bagged, its bags ``over`` chips
    more than that (the first table's first bag), at a tolerance of ``tolerance``."""
    floor = flight(18, last_level=4, chip_tolerance=tolerance)
    floor.do(cmd.EndDay(now=True))
    for n, table in sorted(floor.t.state.tables.items()):
        if not table.occupants:
            continue
        whole = sheet(floor, n)
        if n == 1:
            first = msgspec.structs.replace(whole.bags[0], stack=30_000 + over)
            whole = msgspec.structs.replace(whole, bags=(first, *whole.bags[1:]))
        floor.do(whole)
    return floor


def test_a_flight_10000_over_a_tolerance_of_5000_makes_day2_only_with_a_reason() -> None:
    one = day2.flight_of(bagged_flight(over=10_000, tolerance=5_000).t)
    assert one.check_failed is not None
    assert (one.check_failed.difference, one.check_failed.tolerance) == (10_000, 5_000)
    assert (one.check_failed.expected, one.check_failed.counted) == (540_000, 550_000)

    with pytest.raises(NotAllowed) as refused:
        day2.plan([one], "best", RULES, random.Random(1), STRUCTURE)
    assert (refused.value.reason, refused.value.field) == ("day2_check_failed", "acknowledge")
    assert refused.value.params == {
        "flight": one.id, "difference": 10_000, "tolerance": 5_000, "flights": 1
    }  # fmt: skip
    blank = day2.Acknowledgement(reason="   ", flights=(one.id,))
    with pytest.raises(NotAllowed) as refused:
        day2.plan([one], "best", RULES, random.Random(1), STRUCTURE, blank)
    assert (refused.value.reason, refused.value.field) == ("day2_ack_reason", "acknowledge.reason")

    # A word for another flight is no word for this one.
    elsewhere = day2.Acknowledgement(reason="recounted", flights=("1B",))
    with pytest.raises(NotAllowed) as refused:
        day2.plan([one], "best", RULES, random.Random(1), STRUCTURE, elsewhere)
    assert refused.value.reason == "day2_check_failed"
    word = day2.Acknowledgement(
        reason=" a rack of 10,000 counted twice at table 1 ", flights=(one.id,)
    )
    plan = day2.plan([one], "best", RULES, random.Random(1), STRUCTURE, word)
    assert plan.checks == (one.check_failed,)
    assert plan.acknowledged == "a rack of 10,000 counted twice at table 1"
    created = TournamentCreated(id="d2", name="Day 2", rules=RULES, structure=STRUCTURE)
    log = day2.first_events(created, plan, None, now=50.0, by="boss")
    carried = Tournament.fold(log).state.carried
    assert carried is not None and carried.checks == plan.checks
    assert (carried.acknowledged, carried.by) == (plan.acknowledged, "boss")
    # Day 2's log, imported, says the same; without the reason it is no log the rules wrote.
    assert replay(log).state.carried == carried
    bare = [msgspec.structs.replace(e, acknowledged=None) if e is log[-1] else e for e in log]
    assert type(log[-1]).__name__ == "FieldCarried"
    with pytest.raises(InvalidEvent) as invalid:
        replay(bare)
    assert (invalid.value.kind, invalid.value.error.reason) == ("field_carried", "day2_ack_reason")


def test_a_flight_within_its_tolerance_needs_no_word_and_a_word_for_nothing_is_not_kept() -> None:
    one = day2.flight_of(bagged_flight(over=5_000, tolerance=5_000).t)
    assert one.check_failed is None
    plan = day2.plan([one], "best", RULES, random.Random(1), STRUCTURE)
    assert (plan.checks, plan.acknowledged) == ((), None)
    word = day2.Acknowledgement(reason="just in case", flights=(one.id,))
    plan = day2.plan([one], "best", RULES, random.Random(1), STRUCTURE, word)
    assert (plan.checks, plan.acknowledged) == ((), None)
