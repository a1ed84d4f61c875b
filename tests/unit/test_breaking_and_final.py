"""Breaking tables and the final table (FLOOR-RULES 5, 6 and 10.2, 10.4, 10.9)."""

from __future__ import annotations

from collections import Counter

import pytest

from floor.engine import commands as cmd
from floor.engine.errors import BadSeat, NotAllowed
from floor.engine.events import FinalTableFormed, SeatsAssigned, TableBreaking, TableBroken
from floor.engine.state import Assignment
from tests.unit.builders import Floor, Move

# Scenario 06 of the shared scenarios: 19 players at three tables of 9.
THREE_TABLES = {
    1: "1-6,8 pos 1/2/3",
    2: "2-4,6,7,9 pos 2/3/4",
    3: "1,3-5,7,8 pos 3/4/5",
}


def destinations(moves: list[Move]) -> Counter[int]:
    return Counter(to[0] for _, _, to, _ in moves)


def assert_seats_distinct_and_free(floor: Floor, moves: list[Move]) -> None:
    targets = [to for _, _, to, _ in moves]
    assert len(set(targets)) == len(targets)
    movers = {player for player, _, _, _ in moves}
    for table, seat in targets:
        assert seat is not None
        holder = floor.seats(table).get(seat)
        assert holder is None or holder in movers


def draws(floor: Floor) -> dict[str, Assignment]:
    return dict(floor.t.state.draws)


# --- when a table breaks ----------------------------------------------------------------------


def test_a_table_breaks_as_soon_as_the_others_can_seat_everybody() -> None:
    floor = Floor(THREE_TABLES)
    assert floor.moves() == []  # 19 players > 2 * 9

    events = floor.bust("T1S8")

    assert TableBreaking(table=3) in events
    assert [floor.status(n) for n in (1, 2, 3)] == ["open", "open", "breaking"]
    moves = floor.moves()
    assert sorted(m[0] or "" for m in moves) == sorted(floor.seats(3).values())
    assert {m[3] for m in moves} == {"break"}
    assert [m[1][1] for m in moves] == sorted(floor.seats(3))  # listed by seat
    assert destinations(moves) == {1: 3, 2: 3}
    assert_seats_distinct_and_free(floor, moves)


def test_by_default_the_highest_numbered_table_breaks_first() -> None:
    floor = Floor({**THREE_TABLES, 3: "1,3-5,7 pos 3/4/5"})

    assert floor.status(3) == "breaking"
    assert floor.status(2) == "open"


def test_an_explicit_break_order_chooses_the_table() -> None:
    floor = Floor({**THREE_TABLES, 3: "1,3-5,7 pos 3/4/5"}, break_order=(2, 3, 1))

    assert floor.status(2) == "breaking"
    assert floor.status(3) == "open"
    assert {m[1][0] for m in floor.moves()} == {2}


def test_a_smaller_break_fill_keeps_the_table_until_the_others_seat_all_at_fill() -> None:
    layout = {**THREE_TABLES, 3: "1,3-5,7 pos 3/4/5"}  # 18 players
    assert Floor(layout).status(3) == "breaking"  # 18 <= 2 * 9

    floor = Floor(layout, break_fill=8)
    assert floor.status(3) == "open"  # 18 > 2 * 8

    floor.bust("T3S1", "T3S3")
    assert floor.status(3) == "breaking"  # 16 <= 2 * 8


def test_the_two_step_draw_sends_each_seat_to_the_table_with_the_fewest_planned_players() -> None:
    # 15 players: table 3 breaks. Pool: T2 (4 -> 5), T2 (5 -> 6), T1 (tie 6, first in
    # balance order -> 7), T2 (6 -> 7), T1 (tie 7 -> 8).
    floor = Floor({1: "1-6 pos 1/2/3", 2: "1-4 pos 1/2/3", 3: "1-5 pos 1/2/3"})

    moves = floor.moves()
    assert destinations(moves) == {1: 2, 2: 3}
    assert_seats_distinct_and_free(floor, moves)


def test_who_gets_which_drawn_seat_is_random_but_the_same_seed_gives_the_same_draw() -> None:
    bust_one = Floor(THREE_TABLES, seed=11)
    bust_one.bust("T1S8")
    again = Floor(THREE_TABLES, seed=11)
    again.bust("T1S8")
    outcomes = set()
    for seed in range(8):
        floor = Floor(THREE_TABLES, seed=seed)
        floor.bust("T1S8")
        outcomes.add(tuple(floor.moves()))

    assert bust_one.moves() == again.moves()
    assert len(outcomes) > 1


# --- draws are kept while they fit ------------------------------------------------------------


def test_when_a_drawn_player_busts_the_other_draws_are_kept() -> None:
    floor = Floor(THREE_TABLES)
    floor.bust("T1S8")
    before = draws(floor)

    floor.bust("T3S4")

    after = draws(floor)
    assert "T3S4" not in after
    assert after == {pid: a for pid, a in before.items() if pid != "T3S4"}
    assert len(floor.moves("break")) == 5


def test_a_draw_whose_target_table_starts_breaking_is_redrawn_and_the_others_kept() -> None:
    # 11 players: table 3 breaks; its 3 players are drawn to T1 (4 -> 5), T2 (4 -> 5), T1.
    floor = Floor({1: "1-4 pos 1/2/3", 2: "1-4 pos 1/2/3", 3: "1-3 pos 1/2/3"}, final_table=6)
    assert destinations(floor.moves()) == {1: 2, 2: 1}
    before = draws(floor)

    floor.bust("T1S1")
    assert draws(floor) == before  # 10 players: nothing changes

    floor.bust("T1S2")  # 9 <= 1 * 9: table 2 breaks too

    assert floor.status(2) == "breaking"
    after = draws(floor)
    kept = {pid: a for pid, a in before.items() if a.table == 1}
    assert {pid: after[pid] for pid in kept} == kept
    assert {a.table for a in after.values()} == {1}
    assert len(after) == 7  # 3 from table 3 and 4 from table 2
    assert_seats_distinct_and_free(floor, floor.moves())


def test_an_undone_bust_that_takes_back_a_drawn_seat_withdraws_only_that_draw() -> None:
    floor = Floor(THREE_TABLES)
    floor.bust("T1S8")
    before = draws(floor)
    (lost,) = [pid for pid, a in before.items() if (a.table, a.seat) == (1, 8)]

    events = floor.do(cmd.UndoBust(player="T1S8", reason="misread hand"))

    # 19 players and 18 open seats: the misfit cannot be drawn again until somebody leaves.
    assert SeatsAssigned(reason="break", seats=(), withdrawn=(lost,)) in events
    assert draws(floor) == {pid: a for pid, a in before.items() if pid != lost}
    assert floor.status(3) == "breaking"  # a table stays breaking once chosen
    assert floor.move_of(lost) is None


def test_a_breaking_table_is_broken_once_its_last_player_has_left() -> None:
    floor = Floor(THREE_TABLES)
    floor.bust("T1S8")
    players = [m[0] for m in floor.moves()]

    for pid in players[:-1]:
        assert pid is not None
        floor.confirm(pid)
        assert floor.status(3) == "breaking"
    assert players[-1] is not None
    events = floor.confirm(players[-1])

    assert TableBroken(table=3) in events
    assert floor.status(3) == "broken"
    assert floor.count(3) == 0
    assert (floor.count(1), floor.count(2)) == (9, 9)
    assert floor.moves() == []


def test_confirm_all_break_seats_a_whole_breaking_table_at_once() -> None:
    floor = Floor(THREE_TABLES)
    floor.bust("T1S8")
    planned = {m[0]: m[2] for m in floor.moves()}

    events = floor.do(cmd.ConfirmAll(reason="break"))

    assert TableBroken(table=3) in events
    assert {pid: floor.where(pid or "") for pid in planned} == planned
    assert floor.status(3) == "broken"


def test_players_from_a_broken_table_wait_only_between_the_next_button_and_small_blind() -> None:
    # Table 1 has two free seats: 4 (between btn' 3 and sb' 5) and 7 (after the big blind).
    floor = Floor({1: "1-3,5,6,8,9 pos 2/3/5", 2: "1,2 pos 1/1/2"}, final_table=6)
    assert sorted(m[2] for m in floor.moves()) == [(1, 4), (1, 7)]

    floor.do(cmd.ConfirmAll(reason="break"))

    assert floor.waiting(1) == [floor.seats(1)[4]]
    assert floor.seats(1)[7] not in floor.waiting(1)


# --- the director breaks a table --------------------------------------------------------------


def test_the_director_can_break_a_table_when_the_others_have_room() -> None:
    # 16 players, break_fill 7: no table breaks by rule (16 > 2 * 7).
    floor = Floor({1: "1-6 pos 1/2/3", 2: "1-5 pos 1/2/3", 3: "1-5 pos 1/2/3"}, break_fill=7)
    assert floor.status(3) == "open"

    events = floor.do(cmd.BreakTable(table=1))

    assert TableBreaking(table=1, by="director") in events
    assert floor.status(1) == "breaking"
    assert destinations(floor.moves("break")) == {2: 3, 3: 3}


def test_the_director_cannot_break_a_table_when_the_others_have_no_room() -> None:
    floor = Floor({1: "1-9 pos 1/2/3", 2: "1-8 pos 1/2/3"})

    refused = floor.refuse(cmd.BreakTable(table=2), NotAllowed, "table")

    assert "0 free seats for 8 players" in refused.message


def test_the_director_can_break_a_table_whose_players_fit_a_free_reserved_seat_elsewhere() -> None:
    # T3S1 sits in a reserved seat, so needs one; seat 1 of table 1 is reserved and free and
    # seat 1 of table 2 is free: T3S1 and T3S2 fit. 12 players > 2 * 5: no break by rule.
    floor = Floor(
        {1: "2-6 pos 2/3/4", 2: "2-6 pos 2/3/4", 3: "1,2 pos 1/1/2"},
        seats=6,
        final_table=6,
        break_fill=5,
        halt_short=0,
        reserved_seats=[{"table": 1, "seat": 1}, {"table": 3, "seat": 1}],
    )
    assert floor.status(3) == "open"

    events = floor.do(cmd.BreakTable(table=3))

    assert TableBreaking(table=3, by="director") in events
    assert floor.move_of("T3S1") == ("T3S1", (3, 1), (1, 1), "break")
    assert floor.move_of("T3S2") == ("T3S2", (3, 2), (2, 1), "break")
    floor.do(cmd.ConfirmAll(reason="break"))
    assert floor.status(3) == "broken"


def test_a_free_reserved_seat_is_no_room_for_the_director_to_break_a_table_nobody_needs_it() -> (
    None
):
    # As above, but neither player at table 3 sits in a reserved seat: seat 1 of table 1 is
    # room for neither, and seat 1 of table 2 seats one of the two.
    floor = Floor(
        {1: "2-6 pos 2/3/4", 2: "2-6 pos 2/3/4", 3: "2,3 pos 2/2/3"},
        seats=6,
        final_table=6,
        break_fill=5,
        halt_short=0,
        reserved_seats=[{"table": 1, "seat": 1}, {"table": 3, "seat": 1}],
    )

    refused = floor.refuse(cmd.BreakTable(table=3), NotAllowed, "table")

    assert (refused.reason, refused.params) == ("break_no_room", {"room": 1, "players": 2})


def test_the_director_cannot_break_the_last_table() -> None:
    floor = Floor({1: "1-9 pos 1/2/3"})

    refused = floor.refuse(cmd.BreakTable(table=1), NotAllowed, "table")

    assert "last table" in refused.message


# --- the final table --------------------------------------------------------------------------

TEN = {1: "1,3,5,7,9 pos 3/5/7", 2: "2,3,5,6,8 pos 5/6/8"}


def test_the_final_table_forms_exactly_when_final_table_players_are_left() -> None:
    floor = Floor(TEN)
    assert floor.t.plan.final_table is None
    assert floor.moves() == []

    events = floor.bust("T2S3")

    assert FinalTableFormed(table=1, seats=9) in events
    assert floor.t.plan.final_table == 1
    assert floor.status(2) == "breaking"


def test_one_table_with_final_table_players_or_fewer_forms_no_final_table() -> None:
    floor = Floor({1: "1-8 pos 1/2/3"})

    assert floor.t.plan.final_table is None
    assert floor.moves() == []


def test_every_active_player_gets_a_final_move_those_at_the_final_table_too() -> None:
    floor = Floor(TEN)
    floor.bust("T2S3")

    moves = floor.moves()
    assert {m[3] for m in moves} == {"final"}
    assert sorted(m[0] or "" for m in moves) == sorted(
        [*floor.seats(1).values(), *floor.seats(2).values()]
    )
    assert [m[1][0] for m in moves] == [1] * 5 + [2] * 4  # by source table, then seat
    assert sorted(m[2] for m in moves) == [(1, s) for s in range(1, 10)]


def test_final_table_positions_are_unknown_until_the_button_is_reported() -> None:
    floor = Floor(TEN)
    floor.bust("T2S3")
    assert floor.positions(1) is None
    floor.do(cmd.ConfirmAll(reason="final"))

    floor.refuse(cmd.Hand(table=1), NotAllowed, "table")
    floor.button(1, 4)
    floor.hand(1)

    assert floor.positions(1) == (4, 5, 6)


def test_final_moves_can_be_confirmed_one_by_one_where_the_drawn_seat_is_free() -> None:
    floor = Floor(TEN, seed=3)
    floor.bust("T2S3")
    free_now = [m for m in floor.moves() if m[2][1] not in floor.seats(1)]
    blocked = [m for m in floor.moves() if floor.seats(1).get(m[2][1]) not in (None, m[0])]
    assert free_now
    assert blocked

    player, _, to, _ = free_now[0]
    assert player is not None
    floor.confirm(player)
    assert floor.where(player) == to

    player, _, to, _ = blocked[0]
    assert player is not None
    holder = floor.seats(1)[to[1] or 0]
    refused = floor.refuse(cmd.Confirm(player=player), BadSeat, "seat")
    assert f"taken by {holder}" in refused.message


def test_confirm_all_final_seats_everybody_and_breaks_the_other_tables() -> None:
    floor = Floor(TEN)
    floor.bust("T2S3")
    planned = {m[0]: m[2] for m in floor.moves()}

    events = floor.do(cmd.ConfirmAll(reason="final"))

    assert TableBroken(table=2) in events
    assert {pid: floor.where(pid or "") for pid in planned} == planned
    assert sorted(floor.seats(1)) == list(range(1, 10))
    assert floor.status(2) == "broken"
    assert floor.moves() == []
    assert floor.halted() == ()


def test_a_six_max_event_plays_a_final_table_of_seven() -> None:
    floor = Floor({1: "1-4 pos 1/2/3", 2: "1-4 pos 1/2/3"}, seats=6, final_table=7)
    assert floor.t.plan.final_table is None

    floor.bust("T2S1")

    assert floor.t.table(1).seats == 7
    assert sorted(m[2] for m in floor.moves()) == [(1, s) for s in range(1, 8)]
    floor.do(cmd.ConfirmAll(reason="final"))
    assert sorted(floor.seats(1)) == list(range(1, 8))


def test_the_final_table_number_setting_names_the_final_table() -> None:
    floor = Floor(TEN, final_table_number=2)

    floor.bust("T2S3")

    assert floor.t.plan.final_table == 2
    assert floor.status(1) == "breaking"
    assert {m[2][0] for m in floor.moves()} == {2}


def test_the_director_can_start_the_final_table_early() -> None:
    # 8 players, final_table 6, break_fill 3: neither a break nor a final by rule.
    floor = Floor({1: "1-4 pos 1/2/3", 2: "1-4 pos 1/2/3"}, final_table=6, break_fill=3)
    assert floor.t.plan.final_table is None

    events = floor.do(cmd.StartFinal())

    assert FinalTableFormed(table=1, seats=8) in events
    assert sorted(m[2] for m in floor.moves()) == [(1, s) for s in range(1, 9)]


@pytest.mark.parametrize(
    ("layout", "message"),
    [
        ({1: "1-5 pos 1/2/3", 2: "1-5 pos 1/2/3"}, "10 players do not fit a final table of 9"),
        ({1: "1-4 pos 1/2/3", 2: "1-4 pos 1/2/3"}, "already at table 1"),
    ],
)
def test_the_director_cannot_start_a_final_table_too_early_or_twice(
    layout: dict[int, str], message: str
) -> None:
    floor = Floor(layout, final_table=8)

    refused = floor.refuse(cmd.StartFinal(), NotAllowed, None)

    assert message in refused.message


def test_a_bust_at_a_breaking_table_can_be_undone_and_the_player_is_drawn_a_break_seat() -> None:
    floor = Floor(THREE_TABLES)
    floor.bust("T1S8")  # 18 left: table 3 breaks
    assert floor.status(3) == "breaking"
    floor.bust("T3S1")

    floor.do(cmd.UndoBust(player="T3S1", reason="wrong seat busted"))

    assert floor.where("T3S1") == (3, 1)
    move = floor.move_of("T3S1")
    assert move is not None and move[3] == "break"
    assert_seats_distinct_and_free(floor, floor.moves())


def test_a_free_seat_kept_for_special_needs_is_no_room_for_others_when_a_table_could_break() -> (
    None
):
    floor = Floor(
        {1: "2-6 pos 2/3/4", 2: "1-6 pos 1/2/3"},
        seats=6,
        final_table=6,
        halt_short=0,
        reserved_seats=[{"table": 1, "seat": 1}, {"table": 2, "seat": 1}],
    )

    floor.register("L0")  # no free seat but the kept one: a third table opens for L0

    assert floor.where("L0") is not None and floor.where("L0")[0] == 3  # type: ignore[index]
    # 12 players; tables 1 and 2 seat 5 + 6 of them: table 3 plays on.
    assert floor.status(3) == "open"
    assert floor.moves("break") == []
