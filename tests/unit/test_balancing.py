"""Balancing (FLOOR-RULES 4 and 10.1-10.8): who moves, to which seat, halts, confirm/cancel."""

from __future__ import annotations

from floor.engine import commands as cmd
from floor.engine.errors import BadSeat, NotAllowed
from floor.engine.events import PlayersMoved
from floor.engine.reasons import why
from tests.unit.builders import Floor

FULL = "1-9 pos 4/5/6"

# --- who moves and where to -------------------------------------------------------------------


def test_the_next_big_blind_of_the_fullest_table_moves_to_the_worst_seat_of_the_shortest() -> None:
    floor = Floor({1: FULL, 2: "1-5,7,9 pos 2/3/4"})

    # 9 v 7. T1: bb 6 -> next big blind T1S7. T2: after bb 4, seat 5 is taken, 6 is empty.
    assert floor.moves() == [("T1S7", (1, 7), (2, 6), "balance")]
    assert floor.t.plan.moves[0].why == why("tda-2024", "balance")


def test_one_move_is_enough_when_it_brings_the_tables_within_the_trigger() -> None:
    floor = Floor({1: FULL, 2: "1-8 pos 2/3/4"})

    assert floor.moves() == []


def test_the_worst_seat_wraps_around_past_the_last_seat() -> None:
    floor = Floor({1: FULL, 2: "2-7,9 pos 6/7/9"})

    assert floor.moves() == [("T1S7", (1, 7), (2, 1), "balance")]


def test_a_player_moved_right_after_the_big_blind_is_the_next_big_blind_at_once() -> None:
    floor = Floor({1: FULL, 2: "1-4,6,7,9 pos 2/3/4"})
    assert floor.moves() == [("T1S7", (1, 7), (2, 5), "balance")]

    floor.confirm("T1S7")

    assert floor.seats(2)[5] == "T1S7"
    assert floor.next_big_blind(2) == "T1S7"  # a single big blind at once (2024 11A)
    assert floor.waiting(2) == []


def test_the_worst_seat_is_never_the_small_blind_even_when_that_seat_is_empty() -> None:
    # T2's last big blind (seat 3) busted: seat 3 is sb' now; the first empty after it is 7.
    floor = Floor({1: FULL, 2: "1,2,4-6,8,9 pos 1/2/3"})

    assert floor.moves() == [("T1S7", (1, 7), (2, 7), "balance")]


def test_when_only_the_big_blind_seat_is_free_the_move_names_the_table_but_no_seat() -> None:
    # Seat 7 of T2 is reserved for special needs, so T2's only seat for T1S7 is seat 3 (sb').
    floor = Floor({1: FULL, 2: "1,2,4-6,8,9 pos 1/2/3"}, reserved_seats=[{"table": 2, "seat": 7}])

    assert floor.moves() == [("T1S7", (1, 7), (2, None), "balance")]
    refused = floor.refuse(cmd.Confirm(player="T1S7"), NotAllowed, "seat")
    assert "names no seat" in refused.message

    floor.confirm("T1S7", seat=3)  # the floor decides

    assert floor.seats(2)[3] == "T1S7"
    assert floor.moves() == []


def test_a_seat_locked_next_big_blind_is_skipped_for_the_next_occupied_seat() -> None:
    floor = Floor({1: FULL, 2: "1-5,7,9 pos 2/3/4"}, locked=("T1S7",))

    assert floor.moves() == [("T1S8", (1, 8), (2, 6), "balance")]


def test_two_locked_players_in_a_row_are_both_skipped_and_the_search_wraps() -> None:
    floor = Floor({1: "1-9 pos 6/7/8", 2: "1-5,7,9 pos 2/3/4"}, locked=("T1S9", "T1S1"))

    assert floor.moves() == [("T1S2", (1, 2), (2, 6), "balance")]


def test_players_planned_earlier_in_the_same_plan_are_skipped() -> None:
    floor = Floor({1: "1-9 pos 8/9/1", 2: "1,2,4,5,8 pos 1/2/4"})

    # 9 v 5: T1S2 -> seat 6; virtual 8 v 6: T1S3 (seat 2 already planned) -> seat 7; 7 v 7.
    assert floor.moves() == [
        ("T1S2", (1, 2), (2, 6), "balance"),
        ("T1S3", (1, 3), (2, 7), "balance"),
    ]


def test_no_ping_pong_a_player_who_just_moved_stays_while_another_can_go() -> None:
    floor = Floor({1: "1-6 pos 1/2/3", 2: "1-3,5 pos 1/2/3"}, seats=6, final_table=6)
    assert floor.moves() == [("T1S4", (1, 4), (2, 4), "balance")]
    floor.confirm("T1S4")
    assert floor.next_big_blind(2) == "T1S4"

    floor.bust("T1S1", "T1S2")

    # 3 v 5: T2's next big blind is T1S4, who just came: T2S5 goes instead (no ping-pong).
    assert floor.moves() == [("T2S5", (2, 5), (1, 4), "balance")]


def test_a_player_who_just_moved_goes_again_when_nobody_else_can() -> None:
    floor = Floor({1: "1-6 pos 1/2/3", 2: "1-3,5 pos 1/2/3"}, seats=6, final_table=6)
    floor.confirm("T1S4")
    floor.do(*(cmd.LockSeat(player=p) for p in ("T2S1", "T2S2", "T2S3", "T2S5")))

    floor.bust("T1S1", "T1S2")

    assert floor.moves() == [("T1S4", (2, 4), (1, 4), "balance")]


def test_unknown_positions_at_the_source_plan_the_next_big_blind_without_naming_him() -> None:
    floor = Floor({1: "1-9", 2: "1-5,7,9 pos 2/3/4"})

    assert floor.moves() == [(None, (1, None), (2, 6), "balance")]

    floor.confirm("T1S8")  # the floor names who goes

    assert floor.seats(2)[6] == "T1S8"
    assert floor.moves() == []


def test_unknown_positions_at_the_destination_plan_the_move_without_a_seat() -> None:
    floor = Floor({1: FULL, 2: "1-7"})

    assert floor.moves() == [("T1S7", (1, 7), (2, None), "balance")]

    floor.confirm("T1S7", seat=9)

    assert floor.seats(2)[9] == "T1S7"


def test_a_reserved_seat_is_never_the_worst_position_for_a_player_who_does_not_need_one() -> None:
    floor = Floor({1: FULL, 2: "1-5,7,9 pos 2/3/4"}, reserved_seats=[{"table": 2, "seat": 6}])

    assert floor.moves() == [("T1S7", (1, 7), (2, 8), "balance")]


def test_a_player_sitting_in_a_reserved_seat_may_be_moved_to_a_reserved_worst_seat() -> None:
    floor = Floor(
        {1: FULL, 2: "1-5,7,9 pos 2/3/4"},
        reserved_seats=[{"table": 1, "seat": 7}, {"table": 2, "seat": 6}],
    )

    assert floor.moves() == [("T1S7", (1, 7), (2, 6), "balance")]


def test_ties_between_tables_go_by_ascending_table_number_by_default() -> None:
    tables = {1: "1-9 pos 1/2/3", 2: "1-9 pos 1/2/3", 3: "1-7 pos 1/2/3", 4: "1-7 pos 1/2/3"}
    floor = Floor(tables)

    assert floor.moves() == [
        ("T1S4", (1, 4), (3, 8), "balance"),
        ("T2S4", (2, 4), (4, 8), "balance"),
    ]


def test_ties_between_tables_follow_an_explicit_balance_order() -> None:
    tables = {1: "1-9 pos 1/2/3", 2: "1-9 pos 1/2/3", 3: "1-7 pos 1/2/3", 4: "1-7 pos 1/2/3"}
    floor = Floor(tables, balance_order=(2, 1, 4, 3))

    assert floor.moves() == [
        ("T2S4", (2, 4), (4, 8), "balance"),
        ("T1S4", (1, 4), (3, 8), "balance"),
    ]


def test_a_balance_trigger_of_3_leaves_a_difference_of_2_alone() -> None:
    assert Floor({1: FULL, 2: "1-5,7,9 pos 2/3/4"}, balance_trigger=3).moves() == []

    floor = Floor({1: FULL, 2: "1-5,7 pos 2/3/4"}, balance_trigger=3)

    # 9 v 6: one move, then 8 v 7 is within the trigger.
    assert floor.moves() == [("T1S7", (1, 7), (2, 6), "balance")]


# --- stud-only games --------------------------------------------------------------------------


def stud(tables: dict[int, str], **settings: object) -> Floor:
    return Floor(tables, game="stud", seats=8, final_table=8, **settings)


def test_stud_fills_the_seat_that_opened_most_recently_from_the_same_seat_number() -> None:
    floor = stud({1: "1-8", 2: "1-3,5,7,8 opened 6,4"})

    assert floor.moves() == [("T1S4", (1, 4), (2, 4), "balance")]
    assert floor.t.plan.moves[0].why == why("tda-2024", "balance_stud")


def test_stud_takes_the_next_occupied_seat_clockwise_when_that_seat_number_is_empty() -> None:
    floor = stud({1: "1-3,5-8 opened 4", 2: "1-3,6,7 opened 8,5,4"})

    assert floor.moves() == [("T1S5", (1, 5), (2, 4), "balance")]


def test_stud_skips_opened_seats_that_were_taken_again_and_wraps_around() -> None:
    # Seat 5 opened last but is taken again; seat 8 is the last still empty. T1 seat 8 is
    # empty, so the next occupied seat clockwise is 1.
    floor = stud({1: "1-7", 2: "1-3,5,6 opened 4,8,5"})

    assert floor.moves() == [("T1S1", (1, 1), (2, 8), "balance")]


def test_stud_counts_a_bust_as_the_seat_that_opened_most_recently() -> None:
    floor = stud({1: "1-8", 2: "1-7 opened 8"})

    floor.bust("T2S3")

    assert floor.moves() == [("T1S3", (1, 3), (2, 3), "balance")]


def test_stud_with_no_recorded_opened_seats_names_neither_player_nor_seat() -> None:
    floor = stud({1: "1-8", 2: "1-6"})

    assert floor.moves() == [(None, (1, None), (2, None), "balance")]


# --- mixed games during the stud round --------------------------------------------------------


def test_during_stud_a_mixed_game_moves_the_next_big_blind_of_the_frozen_positions() -> None:
    floor = Floor({1: FULL, 2: "1-5,7,9 pos 2/3/4"}, game="mixed", game_now="stud")

    assert floor.moves() == [("T1S7", (1, 7), (2, 6), "balance")]
    assert floor.t.plan.moves[0].why == why("tda-2024", "balance_mixed")


def test_hands_dealt_during_the_stud_round_do_not_move_the_button() -> None:
    floor = Floor({1: FULL, 2: "1-5,7,9 pos 2/3/4"}, game="mixed", game_now="razz")

    floor.hand(1, 1, 2)

    assert floor.positions(1) == (4, 5, 6)
    assert floor.positions(2) == (2, 3, 4)
    assert floor.moves() == [("T1S7", (1, 7), (2, 6), "balance")]


# --- halting ----------------------------------------------------------------------------------


def test_a_table_3_short_of_the_fullest_is_halted_even_while_its_moves_are_planned() -> None:
    floor = Floor({1: FULL, 2: "1-9 pos 1/2/3", 3: "1,2,4,5,7,8 pos 1/2/4"})

    assert floor.halted() == (3,)
    assert floor.status(3) == "halted"
    assert floor.t.plan.halted[0].short == 3
    # 9, 9, 6 -> T1 (first in balance order) gives one; 8, 9, 7 -> T2 gives one; 8, 8, 8.
    assert floor.moves() == [
        ("T1S7", (1, 7), (3, 6), "balance"),
        ("T2S4", (2, 4), (3, 9), "balance"),
    ]


def test_a_table_2_short_is_not_halted() -> None:
    floor = Floor({1: FULL, 2: "1-5,7,9 pos 2/3/4"})

    assert floor.halted() == ()
    assert floor.status(2) == "open"


def test_halt_short_0_turns_halting_off() -> None:
    floor = Floor({1: FULL, 2: "1-5 pos 2/3/4"}, halt_short=0)

    assert floor.halted() == ()
    assert floor.moves() != []


def test_the_director_may_waive_a_halt_and_the_table_deals_again() -> None:
    floor = Floor({1: FULL, 2: "1-6 pos 2/3/4"})
    assert floor.halted() == (2,)

    floor.do(cmd.WaiveHalt(table=2))

    assert floor.halted() == ()
    assert floor.status(2) == "open"
    floor.hand(2)
    assert floor.positions(2) == (3, 4, 5)


def test_a_hand_at_a_halted_table_is_refused() -> None:
    floor = Floor({1: FULL, 2: "1-6 pos 2/3/4"})

    refused = floor.refuse(cmd.Hand(table=2), NotAllowed, "table")

    assert "halted" in refused.message


def test_a_halt_lifts_once_the_planned_move_is_carried_out() -> None:
    floor = Floor({1: FULL, 2: "1-6 pos 2/3/4"})
    assert floor.moves() == [("T1S7", (1, 7), (2, 7), "balance")]

    floor.confirm("T1S7")

    assert floor.halted() == ()
    assert floor.status(2) == "open"


# --- confirming, redirecting and cancelling ---------------------------------------------------


def test_confirming_a_move_seats_the_player_and_the_plan_is_recomputed() -> None:
    floor = Floor({1: "1-9 pos 8/9/1", 2: "1,2,4,5,8 pos 1/2/4"})

    events = floor.confirm("T1S2")

    assert isinstance(events[0], PlayersMoved)
    assert events[0].reason == "balance"
    assert floor.where("T1S2") == (2, 6)
    assert floor.moves() == [("T1S3", (1, 3), (2, 7), "balance")]


def test_a_move_can_be_redirected_to_another_free_seat_at_the_same_table() -> None:
    floor = Floor({1: FULL, 2: "1-5,7,9 pos 2/3/4"})

    floor.confirm("T1S7", seat=8)

    assert floor.where("T1S7") == (2, 8)
    assert 6 not in floor.seats(2)


def test_a_redirect_into_a_taken_seat_is_refused() -> None:
    floor = Floor({1: FULL, 2: "1-5,7,9 pos 2/3/4"})

    refused = floor.refuse(cmd.Confirm(player="T1S7", seat=7), BadSeat, "seat")

    assert "taken by T2S7" in refused.message


def test_a_redirect_into_a_seat_planned_for_another_player_is_refused() -> None:
    floor = Floor({1: "1-9 pos 8/9/1", 2: "1,2,4,5,8 pos 1/2/4"})

    refused = floor.refuse(cmd.Confirm(player="T1S2", seat=7), BadSeat, "seat")

    assert "planned for another player" in refused.message


def test_cancelling_a_balance_move_plans_the_next_player_instead() -> None:
    floor = Floor({1: FULL, 2: "1-5,7,9 pos 2/3/4"})

    floor.do(cmd.Cancel(player="T1S7"))

    assert floor.moves() == [("T1S8", (1, 8), (2, 6), "balance")]


def test_a_cancelled_player_is_excused_only_until_his_table_deals_its_next_hand() -> None:
    others = ("T1S1", "T1S2", "T1S3", "T1S5", "T1S6")
    floor = Floor({1: "1-6 pos 1/2/3", 2: "1-4 pos 1/2/3"}, seats=6, final_table=6, locked=others)
    assert floor.moves() == [("T1S4", (1, 4), (2, 5), "balance")]

    floor.do(cmd.Cancel(player="T1S4"))
    assert floor.moves() == []  # everybody else is seat-locked
    floor.hand(2)
    assert floor.moves() == []  # another table's hand does not end the excuse

    floor.hand(1)
    assert floor.moves() == [("T1S4", (1, 4), (2, 5), "balance")]


def test_confirm_all_balance_seats_every_planned_player_together() -> None:
    floor = Floor({1: "1-9 pos 8/9/1", 2: "1,2,4,5,8 pos 1/2/4"})
    assert floor.halted() == (2,)

    floor.do(cmd.ConfirmAll(reason="balance"))

    assert floor.where("T1S2") == (2, 6)
    assert floor.where("T1S3") == (2, 7)
    assert (floor.count(1), floor.count(2)) == (7, 7)
    assert floor.moves() == []
    assert floor.halted() == ()
