"""Fewer pointless moves, a house setting (``spare_next_break``; off in the TDA rule sets).

Nobody is balanced into the next table to break while that break is near: within the set
number of bust-outs (the players left less the seats the other open tables hold at the break
fill, FLOOR-RULES 5). A halted table is still balanced; a break draw seats the spared table
only once the others are full.
"""

from __future__ import annotations

from floor.engine.events import SeatsAssigned
from tests.unit.builders import Floor

# 24 players; table 3 breaks first (highest number) once 18 are left: 6 bust-outs away.
NEAR = {1: "1-9 pos 4/5/6", 2: "1-8 pos 1/2/3", 3: "1-7 pos 1/2/3"}


def test_off_the_short_table_is_balanced_even_when_it_breaks_next() -> None:
    floor = Floor(NEAR)
    assert floor.moves() == [("T1S7", (1, 7), (3, 8), "balance")]


def test_on_nobody_is_balanced_into_the_next_table_to_break_when_its_break_is_near() -> None:
    floor = Floor(NEAR, spare_next_break=6)
    # T1 9 against T2 8 is within the trigger once table 3 is left out.
    assert floor.moves() == []
    # Farther than the setting: balanced as the TDA has it.
    assert Floor(NEAR, spare_next_break=5).moves() == [("T1S7", (1, 7), (3, 8), "balance")]


def test_the_spared_table_still_gives_players_to_balance_others() -> None:
    # Table 3 (next to break) is the fullest: its next big blind goes to the shortest other.
    floor = Floor({1: "1-7 pos 1/2/3", 2: "1-8 pos 1/2/3", 3: "1-9 pos 4/5/6"}, spare_next_break=6)
    assert floor.moves() == [("T3S7", (3, 7), (1, 8), "balance")]


def test_a_halted_next_table_to_break_is_balanced_all_the_same() -> None:
    # Table 3 is 3 short of the fullest: halted, so it is filled rather than left idle.
    floor = Floor({1: "1-9 pos 4/5/6", 2: "1-9 pos 4/5/6", 3: "1-6 pos 1/2/3"}, spare_next_break=9)
    assert floor.halted() == (3,)
    assert [m[2][0] for m in floor.moves()] == [3, 3]


def test_a_break_draw_seats_the_next_table_to_break_only_once_the_others_are_full() -> None:
    # Break fill 8 of 9 seats: table 4 (3 players) breaks at 24 players; table 3 is next, 8
    # bust-outs away. Off, the three seats go one to each table of 7.
    layout = {1: "1-7 pos 1/2/3", 2: "1-7 pos 1/2/3", 3: "1-7 pos 1/2/3", 4: "1-3 pos 1/2/3"}
    off = Floor(layout, break_fill=8, halt_short=0)
    on = Floor(layout, break_fill=8, halt_short=0, spare_next_break=8)

    def drawn_to(floor: Floor) -> list[int]:
        return sorted(s.table for e in floor.log if isinstance(e, SeatsAssigned) for s in e.seats)

    assert drawn_to(off) == [1, 2, 3]
    assert 3 not in drawn_to(on) and len(drawn_to(on)) == 3
