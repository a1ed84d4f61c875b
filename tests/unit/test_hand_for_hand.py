"""Hand-for-hand at the money bubble: every table plays one hand and reports it; the players
out in that hand are placed together by the chips they started it with, equal stacks sharing
a place and its prize; the bubble's burst ends it; the clock stands still or loses a set time
per hand; the right to undo follows the hands the tables report."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from floor.engine import commands as cmd
from floor.engine.errors import BadSeat, NotAllowed, RuleError
from floor.engine.events import (
    ClockAdjusted,
    ClockResumed,
    HandForHandDealt,
    HandForHandEnded,
    HandReported,
    PlayerBusted,
)
from floor.engine.prize import PayoutRow, Prize
from floor.engine.read.derived import public_facts, staff_facts
from floor.engine.read.views import results
from floor.engine.rules import Level, Structure
from floor.engine.state import Tournament
from floor.engine.validate import InvalidEvent, replay
from tests.unit.builders import Floor
from tests.unit.test_error_codes import assert_said

#: Ten entries of 1,000: 10,000 CZK, nine places paid.
PRIZE = Prize(
    currency="CZK",
    buy_in=1000,
    payouts=(PayoutRow(entries=10, percents=(30, 20, 12, 9, 8, 7, 6, 4, 4)),),
)
STRUCTURE = Structure(
    name="t",
    starting_stack=10_000,
    chips=(25,),
    levels=(
        Level(small_blind=25, big_blind=50, minutes=20),
        Level(small_blind=50, big_blind=100, minutes=20),
    ),
    prize=PRIZE,
)
MINUTES_20 = 20 * 60.0


def bubble(**settings: Any) -> Floor:
    """Two tables of five: ten left, nine paid, the clock running since 0; the final table
    (of six) some way off."""
    settings = {"final_table": 6, **settings}
    floor = Floor({1: "1-5 pos 1/2/3", 2: "1-5 pos 1/2/3"}, structure=STRUCTURE, **settings)
    floor.do(cmd.ClockStart(), now=0.0)
    return floor


def h4h(floor: Floor) -> dict[str, object] | None:
    facts = public_facts(floor.t).hand_for_hand
    return None if facts is None else msgspec.to_builtins(facts)


def done(table: int, *out: tuple[int, int | None]) -> cmd.HandDone:
    return cmd.HandDone(table=table, out=tuple(cmd.SeatOut(seat=s, stack=k) for s, k in out))


def places(floor: Floor) -> dict[str, tuple[int, int]]:
    return {
        p.id: (p.bust.place, p.bust.shares)
        for p in floor.t.state.players.values()
        if p.bust is not None and p.busted
    }


def test_the_console_suggests_hand_for_hand_one_player_from_the_money() -> None:
    floor = Floor({1: "1-6 pos 1/2/3", 2: "1-5 pos 1/2/3"}, structure=STRUCTURE)  # 11 left
    assert not staff_facts(floor.t).hand_for_hand_due

    floor.bust("T1S6")  # 10 left, 9 paid

    assert staff_facts(floor.t).hand_for_hand_due
    floor.do(cmd.StartHandForHand())
    assert not staff_facts(floor.t).hand_for_hand_due


def test_each_table_deals_reports_and_waits_until_every_table_has_reported() -> None:
    floor = bubble()
    floor.do(cmd.StartHandForHand(), now=60.0)
    assert h4h(floor) == {
        "round": 1,
        "tables": {1: "deal", 2: "deal"},
        "waiting_for": [1, 2],
        "out": [],
        "paid": 9,
        "left": 10,
        "seconds_per_hand": None,
    }

    floor.hand(1)
    assert h4h(floor)["tables"] == {1: "playing", 2: "deal"}  # type: ignore[index]
    floor.do(done(1))
    assert h4h(floor)["tables"] == {1: "done", 2: "deal"}  # type: ignore[index]
    assert h4h(floor)["waiting_for"] == [2]  # type: ignore[index]

    # A table never reported its hand: the floor's report counts as much.
    events = floor.do(done(2))

    assert HandForHandDealt(round=2) in events
    assert h4h(floor)["round"] == 2  # type: ignore[index]
    assert h4h(floor)["tables"] == {1: "deal", 2: "deal"}  # type: ignore[index]


def test_a_table_that_has_dealt_or_reported_waits_for_the_deal() -> None:
    floor = bubble()
    floor.do(cmd.StartHandForHand())
    floor.hand(1)

    dealt = floor.refuse(cmd.Hand(table=1), NotAllowed, "table")
    assert (dealt.reason, dealt.params) == ("h4h_dealt", {"table": 1, "round": 1})
    floor.do(done(1))
    for again in (cmd.Hand(table=1), done(1)):
        assert floor.refuse(again, NotAllowed, "table").reason == "h4h_reported"


def test_players_out_at_two_tables_with_equal_stacks_share_the_place_and_its_prize() -> None:
    floor = bubble()
    floor.do(cmd.StartHandForHand(), now=60.0)
    floor.do(done(1, (1, 3_000)))
    # Out, but seated until every table has played the hand: the places wait for it.
    assert floor.where("T1S1") == (1, 1)
    assert h4h(floor)["out"] == [{"table": 1, "seat": 1, "player": "T1S1"}]  # type: ignore[index]
    assert h4h(floor)["left"] == 9  # type: ignore[index]

    events = floor.do(done(2, (2, 3_000)), now=120.0)

    busted = [(e.player, e.place, e.shares) for e in events if isinstance(e, PlayerBusted)]
    assert sorted(busted) == [("T1S1", 9, 2), ("T2S2", 9, 2)]
    # Both covered the 9th and 10th places: the 9th's 400 CZK split, the 10th pays nothing.
    prizes = {f.player: (f.place, f.tied, f.prize) for f in results(floor.t)}
    assert prizes == {"T1S1": (9, 2, 200), "T2S2": (9, 2, 200)}
    # Eight left for nine places: the bubble burst, hand-for-hand is over, the clock runs.
    assert HandForHandEnded(by="bubble", at=120.0) in events
    assert floor.t.state.hand_for_hand is None and h4h(floor) is None
    assert floor.t.state.clock.running


def test_the_bigger_starting_stack_places_higher_across_tables() -> None:
    floor = bubble()
    floor.do(cmd.StartHandForHand())
    floor.do(done(1, (1, 3_000), (4, 8_000)))
    floor.do(done(2, (2, 5_000)))

    assert places(floor) == {"T1S4": (8, 1), "T2S2": (9, 1), "T1S1": (10, 1)}
    assert {f.player: f.prize for f in results(floor.t)} == {
        "T1S4": 400,
        "T2S2": 400,
        "T1S1": 0,
    }


def test_a_round_nobody_busts_in_deals_the_next_hand_and_keeps_the_bubble() -> None:
    floor = bubble()
    floor.do(cmd.StartHandForHand())
    for _ in range(3):
        floor.do(done(1), done(2))

    assert h4h(floor)["round"] == 4  # type: ignore[index]
    assert floor.t.active == 10


def test_a_single_player_out_on_the_bubble_is_placed_alone_and_unpaid() -> None:
    floor = bubble()
    floor.do(cmd.StartHandForHand())
    floor.do(cmd.SetStack(player="T2S5", stack=2_500))
    floor.do(cmd.CountTable(table=2, stacks=(cmd.Count(player="T2S5", stack=2_500),)))

    events = floor.do(done(1), done(2, (5, None)))  # the counted stack stands

    busted = [(e.player, e.place, e.shares, e.stack) for e in events if isinstance(e, PlayerBusted)]
    assert busted == [("T2S5", 10, 1, None)]
    assert floor.t.state.hand_for_hand is None


def test_the_clock_stops_for_hand_for_hand_by_default() -> None:
    floor = bubble()
    floor.do(cmd.StartHandForHand(), now=300.0)
    assert not floor.t.state.clock.running
    assert floor.t.state.clock.remaining == MINUTES_20 - 300.0

    floor.do(done(1), done(2), now=400.0)
    events = floor.do(done(1, (1, 1_000)), done(2), now=900.0)

    # The whole of hand-for-hand took nothing off the level.
    assert ClockResumed(at=900.0, ends_at=900.0 + MINUTES_20 - 300.0) in events
    assert not any(isinstance(e, ClockAdjusted) for e in events)


def test_a_house_setting_takes_a_set_time_off_the_level_per_hand() -> None:
    floor = bubble(hand_for_hand_seconds=90)
    floor.do(cmd.StartHandForHand(), now=300.0)
    assert h4h(floor)["seconds_per_hand"] == 90  # type: ignore[index]

    floor.do(done(1), done(2), now=400.0)
    assert floor.t.state.clock.remaining == MINUTES_20 - 300.0 - 90
    assert not floor.t.state.clock.running
    events = floor.do(done(1, (1, 1_000)), done(2), now=900.0)

    assert ClockResumed(at=900.0, ends_at=900.0 + MINUTES_20 - 300.0 - 180) in events


def test_a_clock_the_director_had_paused_stays_paused_after_hand_for_hand() -> None:
    floor = bubble()
    floor.do(cmd.ClockPause(), now=100.0)
    floor.do(cmd.StartHandForHand(), now=200.0)

    events = floor.do(done(1, (1, 1_000)), done(2), now=300.0)

    assert not any(isinstance(e, ClockResumed) for e in events)
    assert not floor.t.state.clock.running


def test_a_bust_out_of_the_bubble_hand_may_be_undone_until_its_table_deals_again() -> None:
    floor = bubble()
    floor.do(cmd.StartHandForHand())
    floor.do(cmd.SetStack(player="T1S2", stack=1))  # not counted: the report gives it
    floor.do(done(1, (1, 4_000)), done(2, (3, 4_000)))
    undo = {u.player: u.hand for u in staff_facts(floor.t).undo}
    assert undo == {"T1S1": 0, "T2S3": 0}

    floor.hand(1)  # table 1 deals the next hand: its bust-out's dispute is over

    assert [u.player for u in staff_facts(floor.t).undo] == ["T2S3"]
    refused = floor.refuse(cmd.UndoBust(player="T1S1", reason="x"), NotAllowed, "player")
    assert refused.reason == "dispute_over"
    floor.do(cmd.UndoBust(player="T2S3", reason="the pot was chopped"))
    assert floor.where("T2S3") == (2, 3)


def test_the_director_ends_hand_for_hand_placing_the_players_out_so_far() -> None:
    floor = bubble()
    floor.do(cmd.StartHandForHand(), now=10.0)
    floor.do(done(1, (2, 6_000)))

    events = floor.do(cmd.EndHandForHand(), now=50.0)

    assert [(e.player, e.place) for e in events if isinstance(e, PlayerBusted)] == [("T1S2", 10)]
    assert HandForHandEnded(by="director", at=50.0) in events
    assert floor.t.state.clock.running
    assert floor.refuse(cmd.EndHandForHand(), NotAllowed, None).reason == "h4h_off"


def test_players_are_reported_out_with_the_hand_not_one_by_one() -> None:
    floor = bubble()
    floor.do(cmd.StartHandForHand())
    for one in (cmd.Bust(player="T1S1"), cmd.Bust(table=1, seat=1)):
        assert floor.refuse(one, NotAllowed, "player").reason == "h4h_bust_with_hand"
    same = cmd.BustSameHand(
        players=(cmd.Busted(player="T1S1", stack=1), cmd.Busted(player="T2S1", stack=2))
    )
    assert floor.refuse(same, NotAllowed, "player").reason == "h4h_bust_with_hand"


def test_a_bad_report_names_its_field_and_changes_nothing() -> None:
    floor = bubble()
    floor.do(cmd.StartHandForHand())
    cases: list[tuple[cmd.HandDone, type[RuleError], str, str]] = [
        (done(1, (7, 1_000)), BadSeat, "out[0].seat", "seat_empty"),
        (done(1, (10, 1_000)), BadSeat, "out[0].seat", "seat_unknown"),
        (done(1, (1, 1_000), (1, 2_000)), RuleError, "out[1].seat", "seat_listed_twice"),
        (done(1, (1, 1_000), (2, None)), NotAllowed, "out[1].stack", "start_stack_needed"),
        (
            done(1, *((s, 1_000) for s in range(1, 6))),
            NotAllowed,
            "out",
            "h4h_table_all_out",
        ),
        (done(9), NotAllowed, "table", "table_unknown"),
    ]
    for command, error, field, reason in cases:
        assert floor.refuse(command, error, field).reason == reason


def test_hand_for_hand_starts_once_with_two_tables_playing() -> None:
    floor = bubble()
    assert floor.refuse(done(1), NotAllowed, None).reason == "h4h_off"
    floor.do(cmd.StartHandForHand())
    assert floor.refuse(cmd.StartHandForHand(), NotAllowed, None).reason == "h4h_on"

    one = Floor({1: "1-9 pos 1/2/3"}, structure=STRUCTURE)
    refused = one.refuse(cmd.StartHandForHand(), NotAllowed, None)
    assert (refused.reason, refused.params) == ("h4h_one_table", {"tables": 1})


def test_a_replayed_log_gives_the_same_state() -> None:
    floor = bubble(hand_for_hand_seconds=30)
    floor.do(cmd.StartHandForHand(), now=5.0)
    floor.hand(1)
    floor.do(done(1), done(2), now=50.0)
    floor.do(done(1, (1, 2_000)), now=70.0)
    assert msgspec.msgpack.encode(Tournament.fold(floor.log).state) == floor.snapshot()
    floor.do(done(2, (1, 2_000)), now=90.0)
    assert msgspec.msgpack.encode(Tournament.fold(floor.log).state) == floor.snapshot()


def test_an_imported_log_with_hand_for_hand_is_checked_event_by_event() -> None:
    floor = bubble()
    floor.do(cmd.StartHandForHand(), now=5.0)
    floor.do(done(1), done(2), now=9.0)
    assert isinstance(floor.log[-1], HandForHandDealt)
    assert msgspec.msgpack.encode(replay(floor.log).state) == floor.snapshot()

    log = [*floor.log[:-1], HandForHandDealt(round=3)]  # a hand skipped
    with pytest.raises(InvalidEvent) as caught:
        replay(log)
    assert (caught.value.error.reason, caught.value.error.field) == ("h4h_round", "round")


def test_an_imported_report_naming_a_player_not_at_the_seat_says_who_and_where() -> None:
    floor = bubble()
    floor.do(cmd.StartHandForHand(), now=5.0)
    floor.do(done(1, (1, 2_000)), now=9.0)
    (reported,) = [e for e in floor.log if isinstance(e, HandReported)]
    out = msgspec.structs.replace(reported.out[0], player="T2S1")
    forged = msgspec.structs.replace(reported, out=(out,))
    log = [forged if e is reported else e for e in floor.log]
    with pytest.raises(InvalidEvent) as caught:
        replay(log)
    assert caught.value.error.field == "out[0].player"
    # Not "seat 1 is empty": the seat holds T1S1, and the English says whom the log put there.
    assert_said(caught.value.error, "player_not_at_seat", {"player": "T2S1", "table": 1, "seat": 1})


def test_a_round_is_over_when_the_last_table_to_report_is_broken_instead() -> None:
    # Tables break by rule at four a table: ten players stay at three tables, and the
    # director may still break one into the seats left.
    floor = Floor(
        {1: "1-4 pos 1/2/3", 2: "1-3 pos 1/2/3", 3: "1-3 pos 1/2/3"},
        structure=STRUCTURE,
        final_table=6,
        seats=6,
        break_fill=4,
    )  # ten left, nine paid
    floor.do(cmd.StartHandForHand())
    floor.do(done(1), done(2))
    assert h4h(floor)["waiting_for"] == [3]  # type: ignore[index]

    # The director breaks the table still to report: it will never report, and the round
    # is over: the next hand is dealt at the tables left.
    events = floor.do(cmd.BreakTable(table=3))

    assert HandForHandDealt(round=2) in events
    assert h4h(floor)["round"] == 2  # type: ignore[index]
    assert h4h(floor)["tables"] == {1: "deal", 2: "deal"}  # type: ignore[index]
    # Its players, moved in, play the next hand where they sit; one out bursts the bubble.
    events = floor.do(done(1, (4, 5_000)), done(2))
    assert HandForHandEnded(by="bubble", at=0.0) in events
    assert places(floor)["T1S4"] == (10, 1)
    assert replay(floor.log).state == floor.t.state
