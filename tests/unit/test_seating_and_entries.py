"""Seating and entries (FLOOR-RULES 3, 10.6, 10.10, 11): the initial draw, late entries and
re-entries, wrong-seat corrections, seat locks, undoing a bust, and closing late registration."""

from __future__ import annotations

import math
from collections import Counter

import pytest

from floor.engine import commands as cmd
from floor.engine.errors import BadSeat, NotAllowed
from floor.engine.events import PlayerRegistered, PlayerSeated, SeatsDrawn, TableOpened
from floor.engine.rules import Break, Level, Structure
from tests.unit.builders import Floor

# --- the initial draw -------------------------------------------------------------------------


def registered(count: int, *, seed: int = 0, special: int = 0, **settings: object) -> Floor:
    """A tournament before the draw: ``count`` players registered, the first ``special`` of
    them with special needs."""
    floor = Floor({}, seed=seed, **settings)
    for i in range(1, count + 1):
        pid = f"P{i:02d}"
        floor.do(cmd.Register(player=pid, name=pid, special_needs=i <= special))
    return floor


def drawn(floor: Floor) -> dict[str, tuple[int, int]]:
    events = floor.do(cmd.DrawSeats())
    (draw,) = [e for e in events if isinstance(e, SeatsDrawn)]
    return {s.player: (s.table, s.seat) for s in draw.seats}


def test_players_registered_before_the_draw_wait_without_a_seat() -> None:
    floor = registered(3)

    assert [floor.where(p) for p in ("P01", "P02", "P03")] == [None, None, None]
    assert floor.t.state.tables == {}


@pytest.mark.parametrize("count", [10, 19, 20, 27])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_initial_draw_spreads_players_evenly_counts_differ_by_at_most_one(
    count: int, seed: int
) -> None:
    floor = registered(count, seed=seed)

    seats = drawn(floor)

    assert len(seats) == count
    assert len(set(seats.values())) == count
    per_table = Counter(table for table, _ in seats.values())
    assert sorted(per_table) == list(range(1, math.ceil(count / 9) + 1))
    assert max(per_table.values()) - min(per_table.values()) <= 1
    assert all(floor.where(p) == spot for p, spot in seats.items())


def test_the_same_seed_gives_the_same_draw_and_another_seed_another() -> None:
    first = drawn(registered(20, seed=42))
    again = drawn(registered(20, seed=42))
    others = [drawn(registered(20, seed=s)) for s in range(3)]

    assert first == again
    assert any(other != first for other in others)


@pytest.mark.parametrize("seed", range(5))
def test_special_needs_players_get_the_reserved_seats_and_nobody_else_does(seed: int) -> None:
    reserved = [{"table": 1, "seat": 1}, {"table": 1, "seat": 5}]
    floor = registered(8, seed=seed, special=2, reserved_seats=reserved)
    floor.do(cmd.OpenTable(table=1))

    events = floor.do(cmd.DrawSeats(tables=(1,)))

    (draw,) = [e for e in events if isinstance(e, SeatsDrawn)]
    seats = {s.player: (s.table, s.seat) for s in draw.seats}
    assert sorted([seats["P01"], seats["P02"]]) == [(1, 1), (1, 5)]
    assert {p for p, spot in seats.items() if spot in {(1, 1), (1, 5)}} == {"P01", "P02"}


def test_special_needs_players_get_reserved_seats_at_tables_the_draw_opens() -> None:
    reserved = [{"table": 1, "seat": 1}, {"table": 2, "seat": 5}]
    for seed in range(5):
        floor = registered(16, seed=seed, special=2, reserved_seats=reserved)

        seats = drawn(floor)

        assert sorted([seats["P01"], seats["P02"]]) == [(1, 1), (2, 5)]


def test_tables_opened_before_the_draw_stay_open_for_it() -> None:
    floor = registered(12)
    floor.do(cmd.OpenTable(table=1), cmd.OpenTable(table=2))
    assert floor.status(2) == "open"

    floor.do(cmd.DrawSeats(tables=(1, 2)))

    assert (floor.count(1), floor.count(2)) == (6, 6)


def test_seats_cannot_be_drawn_twice() -> None:
    floor = registered(4)
    drawn(floor)

    refused = floor.refuse(cmd.DrawSeats(), NotAllowed, None)

    assert "already drawn" in refused.message


# --- late registration and re-entry -----------------------------------------------------------


def test_a_late_entry_sits_at_the_table_with_the_fewest_players_random_among_ties() -> None:
    tables = set()
    for seed in range(12):
        floor = Floor({1: "1-8", 2: "1-7", 3: "1-7"}, seed=seed)
        events = floor.register("N1")
        (seated,) = [e for e in events if isinstance(e, PlayerSeated)]
        assert seated.seat not in Floor({1: "1-8", 2: "1-7", 3: "1-7"}).seats(seated.table)
        tables.add(seated.table)

    assert tables == {2, 3}


@pytest.mark.parametrize("seed", range(4))
def test_a_late_entry_never_takes_a_seat_planned_for_a_move(seed: int) -> None:
    floor = Floor({1: "1-9 pos 4/5/6", 2: "1-5,7,9 pos 2/3/4"}, seed=seed)
    assert floor.moves() == [("T1S7", (1, 7), (2, 6), "balance")]

    floor.register("N1")

    assert floor.where("N1") == (2, 8)
    assert floor.moves() == []  # 9 v 8 now


def test_a_busted_player_may_enter_again_and_the_entry_number_goes_up() -> None:
    floor = Floor({1: "1-8 pos 1/2/3"})
    floor.bust("T1S3")

    events = floor.register("T1S3")

    assert PlayerRegistered(player="T1S3", name="T1S3", entry=2, shifts_places=True) in events
    player = floor.t.player("T1S3")
    assert (player.busted, player.entries) == (False, 2)
    assert floor.where("T1S3") is not None
    assert floor.t.state.entries == 9
    assert floor.t.active == 8


def test_a_seated_player_cannot_register_again() -> None:
    floor = Floor({1: "1-8 pos 1/2/3"})

    refused = floor.refuse(cmd.Register(player="T1S3", name="T1S3"), NotAllowed, "player")

    assert "already in the tournament" in refused.message


def test_when_every_seat_is_taken_a_new_table_is_opened_for_the_entry() -> None:
    floor = Floor({1: "1-9 pos 1/2/3"})

    events = floor.register("N1")

    assert TableOpened(table=2, seats=9) in events
    assert floor.seats(2) == {floor.where("N1")[1]: "N1"}  # type: ignore[index]
    assert floor.halted() == (2,)
    assert floor.moves("balance")


def test_a_table_opened_for_a_late_entry_keeps_its_reserved_seats_out_of_the_draw() -> None:
    reserved = [{"table": 2, "seat": s} for s in range(1, 9)]
    spots = set()
    for seed in range(10):
        floor = Floor({1: "1-9 pos 1/2/3"}, seed=seed, reserved_seats=reserved)
        floor.register("N1")
        spots.add(floor.where("N1"))

    assert spots == {(2, 9)}


# --- corrections and seat locks ---------------------------------------------------------------


def test_a_player_in_the_wrong_seat_moves_to_the_right_free_seat_with_his_stack() -> None:
    floor = Floor({1: "1-8 pos 1/2/3"})
    floor.do(cmd.SetStack(player="T1S3", stack=23_456))

    events = floor.do(cmd.CorrectSeat(player="T1S3", table=1, seat=9))

    assert events[0].reason == "correction"  # type: ignore[union-attr]
    assert floor.where("T1S3") == (1, 9)
    assert 3 not in floor.seats(1)
    player = floor.t.player("T1S3")
    assert (player.stack, player.moved) == (23_456, False)


def test_a_wrong_seat_correction_into_a_taken_seat_is_refused() -> None:
    floor = Floor({1: "1-8 pos 1/2/3"})

    refused = floor.refuse(cmd.CorrectSeat(player="T1S3", table=1, seat=4), BadSeat, "seat")

    assert "taken by T1S4" in refused.message


def test_a_seat_lock_keeps_the_player_from_being_moved_for_balance_until_lifted() -> None:
    floor = Floor({1: "1-9 pos 4/5/6", 2: "1-5,7,9 pos 2/3/4"})

    floor.do(cmd.LockSeat(player="T1S7"))
    assert floor.t.player("T1S7").locked
    assert floor.moves() == [("T1S8", (1, 8), (2, 6), "balance")]

    floor.do(cmd.LockSeat(player="T1S7", locked=False))
    assert floor.moves() == [("T1S7", (1, 7), (2, 6), "balance")]


# --- undoing a bust ---------------------------------------------------------------------------


def test_a_bust_can_be_undone_until_the_table_deals_its_next_hand() -> None:
    floor = Floor({1: "1-9 pos 1/2/3", 2: "1-9 pos 1/2/3"})
    floor.bust("T1S5")
    floor.hand(2)  # another table's hand does not end the right to dispute

    floor.do(cmd.UndoBust(player="T1S5", reason="the chips were miscounted"))

    player = floor.t.player("T1S5")
    assert (player.busted, player.bust) == (False, None)
    assert floor.where("T1S5") == (1, 5)
    assert floor.t.state.busted == 0
    assert floor.t.active == 18


def test_a_bust_cannot_be_undone_after_the_table_dealt_its_next_hand() -> None:
    floor = Floor({1: "1-9 pos 1/2/3", 2: "1-9 pos 1/2/3"})
    floor.bust("T1S5")
    floor.hand(1)

    refused = floor.refuse(cmd.UndoBust(player="T1S5", reason="late claim"), NotAllowed, "player")

    assert "right to dispute has ended" in refused.message


def test_a_bust_cannot_be_undone_when_the_seat_was_taken_meanwhile() -> None:
    floor = Floor({1: "1-9 pos 1/2/3"})
    floor.bust("T1S5")
    floor.register("N1")
    assert floor.where("N1") == (1, 5)  # the only free seat

    refused = floor.refuse(cmd.UndoBust(player="T1S5", reason="misread"), BadSeat, "player")

    assert "taken by N1" in refused.message


def test_after_an_undone_bust_the_finishing_places_stay_unique() -> None:
    floor = Floor({1: "1-9 pos 1/2/3", 2: "1-9 pos 1/2/3", 3: "1-9 pos 1/2/3"})
    floor.bust("T1S5")  # 27th, as it seemed
    floor.bust("T2S5")  # 26th
    floor.do(cmd.UndoBust(player="T1S5", reason="split pot, not a loss"))

    floor.bust("T3S5")

    places = [p.bust.place for p in floor.t.state.players.values() if p.bust is not None]
    assert sorted(places) == [26, 27]


# --- closing late registration ----------------------------------------------------------------

STRUCTURE = Structure(
    name="test",
    starting_stack=20_000,
    chips=(25, 100, 500),
    levels=(
        Level(small_blind=25, big_blind=50, minutes=20),
        Level(small_blind=50, big_blind=100, minutes=20),
        Break(minutes=10, color_up=(25,)),
        Level(small_blind=100, big_blind=200, minutes=20),
    ),
    late_registration_until=2,
)


def test_late_registration_is_open_through_its_last_level_and_the_break_after_it() -> None:
    floor = Floor({1: "1-4 pos 1/2/3"}, structure=STRUCTURE)
    floor.register("N1")  # before the clock starts
    floor.do(cmd.ClockStart())
    floor.do(cmd.ClockLevel(to=1))
    floor.register("N2")  # level 2
    floor.do(cmd.ClockLevel(to=2))
    floor.register("N3")  # the break after level 2

    assert all(floor.where(p) is not None for p in ("N1", "N2", "N3"))
    assert floor.t.player("N1").stack == 20_000


def test_late_registration_and_re_entry_close_after_the_last_late_level() -> None:
    floor = Floor({1: "1-4 pos 1/2/3"}, structure=STRUCTURE)
    floor.do(cmd.ClockStart())
    floor.bust("T1S2")
    floor.do(cmd.ClockLevel(to=3))

    refused = floor.refuse(cmd.Register(player="N1", name="N1"), NotAllowed, "player")
    floor.refuse(cmd.Register(player="T1S2", name="T1S2"), NotAllowed, "player")

    assert "closed after level 2" in refused.message


def test_late_registration_closes_when_the_clock_runs_past_the_last_late_level() -> None:
    floor = Floor({1: "1-4 pos 1/2/3"}, structure=STRUCTURE)
    floor.do(cmd.ClockStart(), now=0.0)

    floor.register("N1")  # level 1

    # Levels 1 and 2 end at 40 minutes, the break at 50: at 55 minutes level 3 is played.
    floor.now = 55 * 60.0
    floor.refuse(cmd.Register(player="N2", name="N2"), NotAllowed, "player")
