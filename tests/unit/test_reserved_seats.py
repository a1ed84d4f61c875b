"""Seats kept for special needs when tables break and the final table forms (FLOOR-RULES 5, 6,
10.6): a free reserved seat is room for a player who needs it and for nobody else, a player who
needs one is drawn to it at a table with the fewest players, and at the final table a reserved
seat nobody left needs is an ordinary seat."""

from __future__ import annotations

import pytest

from floor.engine import commands as cmd
from floor.engine.events import TableBroken
from tests.unit.builders import Floor

# --- the final table --------------------------------------------------------------------------

# Ten players at two tables of 9; one bust-out leaves 9 and forms the final table at table 1,
# whose seat 2 is kept for special needs though nobody sits in a reserved seat.
TEN = {1: "1,3,5,7,9 pos 3/5/7", 2: "2,3,5,6,8 pos 5/6/8"}


@pytest.mark.parametrize("seed", range(8))
def test_a_reserved_final_seat_nobody_needs_seats_the_last_of_the_players_left(
    seed: int,
) -> None:
    floor = Floor(TEN, seed=seed, reserved_seats=[{"table": 1, "seat": 2}])
    floor.bust("T2S3")
    left = sorted([*floor.seats(1).values(), *floor.seats(2).values()])

    moves = floor.moves("final")
    assert sorted(m[0] or "" for m in moves) == left
    assert sorted(m[2] for m in moves) == [(1, s) for s in range(1, 10)]

    events = floor.do(cmd.ConfirmAll(reason="final"))

    assert TableBroken(table=2) in events
    assert sorted(floor.seats(1).values()) == left
    assert floor.seats(2) == {}
    assert floor.moves() == []


def test_a_reserved_final_seat_still_goes_to_the_player_who_needs_it() -> None:
    # T2S2 sits in a reserved seat, so needs one: seat 2 of the final table is theirs.
    reserved = [{"table": 1, "seat": 2}, {"table": 2, "seat": 2}]
    for seed in range(8):
        floor = Floor(TEN, seed=seed, reserved_seats=reserved)
        floor.bust("T2S3")

        assert floor.move_of("T2S2") == ("T2S2", (2, 2), (1, 2), "final")
        assert len(floor.moves("final")) == 9


# --- when a table breaks ----------------------------------------------------------------------


def test_a_table_breaks_when_its_players_fit_reserved_seats_free_at_the_others() -> None:
    # T3S1 sits in a reserved seat; seat 1 of table 1 is reserved and free. Tables 1 and 2 seat
    # 11 others and T3S1 in that seat: table 3 breaks rather than being filled by balancing.
    floor = Floor(
        {1: "2-6 pos 2/3/4", 2: "1-6 pos 1/2/3", 3: "1 pos 1/1/1"},
        seats=6,
        final_table=6,
        halt_short=0,
        reserved_seats=[{"table": 1, "seat": 1}, {"table": 3, "seat": 1}],
    )

    assert floor.status(3) == "breaking"
    assert floor.moves() == [("T3S1", (3, 1), (1, 1), "break")]

    floor.do(cmd.ConfirmAll(reason="break"))

    assert floor.status(3) == "broken"
    assert floor.where("T3S1") == (1, 1)
    assert floor.moves() == []


def test_a_free_reserved_seat_is_room_only_for_as_many_as_need_one() -> None:
    # As above with a second player at table 3 who needs no reserved seat: 13 players, and
    # the others seat 11 + 1 of them. Table 3 plays on.
    floor = Floor(
        {1: "2-6 pos 2/3/4", 2: "1-6 pos 1/2/3", 3: "1,2 pos 1/1/2"},
        seats=6,
        final_table=6,
        halt_short=0,
        reserved_seats=[{"table": 1, "seat": 1}, {"table": 3, "seat": 1}],
    )

    assert floor.status(3) == "open"
    assert floor.moves("break") == []


@pytest.mark.parametrize("seed", range(10))
def test_a_player_who_needs_a_reserved_seat_goes_to_one_at_the_table_with_fewest_players(
    seed: int,
) -> None:
    # Table 3 breaks (14 players, 16 ordinary seats elsewhere). T3S1 sits in a reserved seat;
    # tables 1 (7 players) and 2 (4 players) each keep seat 1 free: T3S1 goes to table 2.
    floor = Floor(
        {1: "2-8 pos 2/3/4", 2: "2-5 pos 2/3/4", 3: "1-3 pos 1/2/3"},
        seed=seed,
        reserved_seats=[{"table": 1, "seat": 1}, {"table": 2, "seat": 1}, {"table": 3, "seat": 1}],
    )

    assert floor.status(3) == "breaking"
    assert floor.move_of("T3S1") == ("T3S1", (3, 1), (2, 1), "break")
    assert {m[2] for m in floor.moves("break")}.isdisjoint({(1, 1)})


def test_among_tables_with_a_free_reserved_seat_the_fewest_players_wins_ties_by_balance_order() -> (
    None
):
    # Tables 1 and 2 have 5 players each and keep seat 1 free: the player who needs it goes to
    # the first of them in the balance order.
    layout = {1: "2-6 pos 2/3/4", 2: "2-6 pos 2/3/4", 3: "1-3 pos 1/2/3"}
    reserved = [{"table": n, "seat": 1} for n in (1, 2, 3)]
    for order, table in (((1, 2, 3), 1), ((2, 1, 3), 2)):
        for seed in range(4):
            floor = Floor(layout, seed=seed, reserved_seats=reserved, balance_order=order)

            assert [floor.status(n) for n in (1, 2, 3)] == ["open", "open", "breaking"]
            assert floor.move_of("T3S1") == ("T3S1", (3, 1), (table, 1), "break")


# --- late entries -----------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(10))
def test_a_late_entry_who_needs_a_reserved_seat_gets_one_at_a_table_with_fewest_players(
    seed: int,
) -> None:
    # Seat 1 is kept free at tables 1 (8 players) and 2 (5 players): the entry sits at 2.
    floor = Floor(
        {1: "2-9 pos 2/3/4", 2: "2-6 pos 2/3/4"},
        seed=seed,
        halt_short=0,
        reserved_seats=[{"table": 1, "seat": 1}, {"table": 2, "seat": 1}],
    )

    floor.register("L0", special_needs=True)

    assert floor.where("L0") == (2, 1)
