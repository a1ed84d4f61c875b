"""Hand positions (FLOOR-RULES 2, 3 and 10.8, 10.11): the dead button, heads-up, a reported
button, the next big blind and the players who wait for the button to pass."""

from __future__ import annotations

import pytest

from floor.engine import commands as cmd
from tests.unit.builders import Floor

# --- the dead button -------------------------------------------------------------------------


def test_when_the_small_blind_busts_the_next_button_is_dead_on_the_empty_seat() -> None:
    floor = Floor({1: "1-9 pos 1/2/3"})

    floor.bust("T1S2")
    floor.hand(1)

    assert floor.positions(1) == (2, 3, 4)
    assert 2 not in floor.seats(1)
    assert floor.next_big_blind(1) == "T1S5"


def test_after_a_dead_button_the_button_moves_on_one_seat_at_a_time() -> None:
    floor = Floor({1: "1-9 pos 1/2/3"})
    floor.bust("T1S2")

    floor.hand(1)
    floor.hand(1)

    assert floor.positions(1) == (3, 4, 5)


def test_when_the_big_blind_busts_the_next_small_blind_is_dead_and_the_button_follows() -> None:
    floor = Floor({1: "1-9 pos 1/2/3"})
    floor.bust("T1S3")

    floor.hand(1)
    assert floor.positions(1) == (2, 3, 4)  # seat 3 is empty: a dead small blind

    floor.hand(1)
    assert floor.positions(1) == (3, 4, 5)  # and then a dead button on seat 3


def test_when_the_next_big_blind_busts_the_big_blind_goes_to_the_player_after_him() -> None:
    floor = Floor({1: "1-9 pos 1/2/3"})
    assert floor.next_big_blind(1) == "T1S4"

    floor.bust("T1S4")

    assert floor.next_big_blind(1) == "T1S5"
    floor.hand(1)
    assert floor.positions(1) == (2, 3, 5)


def test_the_big_blind_skips_empty_seats_and_is_posted_once_by_the_next_player() -> None:
    floor = Floor({1: "1-3,6-9 pos 1/2/3"})

    floor.hand(1)

    assert floor.positions(1) == (2, 3, 6)
    assert floor.next_big_blind(1) == "T1S7"


def test_empty_seats_between_button_and_small_blind_do_not_stop_the_button() -> None:
    # Seats 3 and 4 are empty; the big blind passed them last hand (2 -> 5).
    floor = Floor({1: "1,2,5-9 pos 1/2/5"})

    floor.hand(1)
    assert floor.positions(1) == (2, 5, 6)
    assert floor.waiting(1) == []

    floor.hand(1)
    assert floor.positions(1) == (5, 6, 7)


# --- heads-up ---------------------------------------------------------------------------------


def test_heads_up_the_button_posts_the_small_blind_and_the_blinds_alternate() -> None:
    floor = Floor({1: "3,7 pos 3/3/7"})

    floor.hand(1)
    assert floor.positions(1) == (7, 7, 3)
    assert floor.next_big_blind(1) == "T1S7"

    floor.hand(1)
    assert floor.positions(1) == (3, 3, 7)


@pytest.mark.parametrize(
    ("busted", "expected"),
    [
        ("T1S1", (7, 7, 4)),  # the button busts
        ("T1S4", (7, 7, 1)),  # the small blind busts
        ("T1S7", (4, 4, 1)),  # the big blind busts
    ],
)
def test_going_from_three_to_two_players_nobody_has_the_big_blind_twice_in_a_row(
    busted: str, expected: tuple[int, int, int]
) -> None:
    floor = Floor({1: "1,4,7 pos 1/4/7"})

    floor.bust(busted)
    floor.hand(1)

    button, small, big = floor.positions(1) or (0, 0, 0)
    assert (button, small, big) == expected
    assert button == small  # heads-up the button posts the small blind
    assert big != 7  # seat 7 had the big blind in the last hand


# --- a reported button ------------------------------------------------------------------------


def test_a_reported_button_records_the_last_hand_as_if_it_had_been() -> None:
    floor = Floor({1: "1-3,5,6,8,9"})
    assert floor.positions(1) is None

    floor.button(1, 2)

    assert floor.positions(1) == (1, 2, 3)
    assert floor.next_big_blind(1) == "T1S5"
    floor.hand(1)
    assert floor.positions(1) == (2, 3, 5)


def test_a_reported_button_finds_the_seats_before_and_after_it_around_the_table() -> None:
    floor = Floor({1: "1,3,5,9"})

    floor.button(1, 1)

    assert floor.positions(1) == (9, 1, 3)
    floor.hand(1)
    assert floor.positions(1) == (1, 3, 5)


def test_a_reported_button_heads_up_makes_the_reported_seat_button_and_small_blind() -> None:
    floor = Floor({1: "2,6"})

    floor.button(1, 6)

    assert floor.positions(1) == (2, 2, 6)
    assert floor.next_big_blind(1) == "T1S2"
    floor.hand(1)
    assert floor.positions(1) == (6, 6, 2)


def test_a_reported_button_replaces_known_positions() -> None:
    floor = Floor({1: "1-9 pos 1/2/3"})

    floor.button(1, 7)

    assert floor.positions(1) == (6, 7, 8)
    assert floor.next_big_blind(1) == "T1S9"


# --- the next big blind -------------------------------------------------------------------------


def test_the_next_big_blind_wraps_around_past_the_last_seat() -> None:
    floor = Floor({1: "2-9 pos 7/8/9"})

    assert floor.next_big_blind(1) == "T1S2"


def test_the_next_big_blind_skips_empty_seats() -> None:
    floor = Floor({1: "1-3,6-9 pos 1/2/3"})

    assert floor.next_big_blind(1) == "T1S6"


def test_unknown_positions_give_no_next_big_blind_and_nobody_waits() -> None:
    floor = Floor({1: "1-9"})

    assert floor.positions(1) is None
    assert floor.next_big_blind(1) is None
    assert floor.waiting(1) == []


def test_an_empty_table_has_no_next_big_blind() -> None:
    floor = Floor({1: "1-9 pos 1/2/3", 2: "- pos 1/2/3"}, final_table=2)

    assert floor.next_big_blind(2) is None


# --- waiting for the button to pass -----------------------------------------------------------


def test_a_late_entry_between_the_next_button_and_small_blind_waits_one_hand() -> None:
    floor = Floor({1: "1-9 pos 1/2/3", 2: "2-9 pos 8/9/2"})

    floor.register("N1")

    assert floor.seats(2)[1] == "N1"  # the only free seat
    assert floor.waiting(2) == ["N1"]  # btn' = 9, sb' = 2: seat 1 lies between
    assert floor.waiting(1) == []
    floor.hand(2)
    assert floor.positions(2) == (9, 2, 3)
    assert floor.waiting(2) == []


def test_a_late_entry_on_the_big_blind_seat_is_dealt_in_at_once() -> None:
    # The last big blind busts: its seat is the next small blind, a newcomer there plays.
    floor = Floor({1: "1-9 pos 1/2/3", 2: "1-9 pos 4/5/6"})
    floor.bust("T2S6")

    floor.register("N1")

    assert floor.seats(2)[6] == "N1"
    assert floor.waiting(2) == []


def test_a_late_entry_on_the_dead_button_seat_is_dealt_in_at_once() -> None:
    floor = Floor({1: "1-9 pos 1/2/3", 2: "1-9 pos 4/5/6"})
    floor.bust("T2S5")  # the small blind: seat 5 is btn'

    floor.register("N1")

    assert floor.seats(2)[5] == "N1"
    assert floor.waiting(2) == []
    floor.hand(2)
    assert floor.positions(2) == (5, 6, 7)


def test_a_player_arriving_from_a_broken_table_between_button_and_small_blind_waits() -> None:
    # 9 players and room for all at table 1: table 2 breaks; its one player can only go to
    # table 1 seat 4, which lies between btn' 3 and sb' 5.
    floor = Floor({1: "1-3,5-9 pos 2/3/5", 2: "1 pos 1/1/1"}, final_table=6)
    assert floor.status(2) == "breaking"
    assert floor.moves() == [("T2S1", (2, 1), (1, 4), "break")]

    floor.confirm("T2S1")

    assert floor.waiting(1) == ["T2S1"]
    assert floor.next_big_blind(1) == "T1S6"


def test_heads_up_nobody_waits_both_players_are_dealt_in() -> None:
    # The last hand's small blind (2) and big blind (6) are gone: seat 4 lies between them.
    floor = Floor({1: "4,8 pos 1/2/6"})
    assert Floor({1: "4,5,8 pos 1/2/6"}).waiting(1) == ["T1S4", "T1S5"]

    assert floor.waiting(1) == []
    floor.hand(1)
    assert floor.positions(1) == (4, 4, 8)


def test_in_the_stud_round_of_a_mixed_game_nobody_waits_and_no_next_big_blind_shows() -> None:
    flop = Floor({1: "1-9 pos 1/2/4"}, game="mixed", game_now="holdem")
    stud = Floor({1: "1-9 pos 1/2/4"}, game="mixed", game_now="stud")

    assert flop.waiting(1) == ["T1S3"]
    assert flop.next_big_blind(1) == "T1S5"
    assert stud.waiting(1) == []
    assert stud.next_big_blind(1) is None


def test_a_stud_tournament_has_no_positions_and_no_next_big_blind() -> None:
    floor = Floor({1: "1-8"}, game="razz", seats=8, final_table=8)

    floor.hand(1)

    assert floor.positions(1) is None
    assert floor.next_big_blind(1) is None
    assert floor.t.table(1).hand == 1


def test_a_mixed_game_back_from_stud_deals_the_flop_hand_from_the_frozen_button() -> None:
    floor = Floor({1: "1-9 pos 1/2/3"}, game="mixed", game_now="stud")

    floor.hand(1)
    floor.hand(1)
    assert floor.positions(1) == (1, 2, 3)  # stud hands do not move the button

    floor.do(cmd.SetGame(game="holdem"))
    floor.hand(1)
    assert floor.positions(1) == (2, 3, 4)
