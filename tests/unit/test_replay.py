"""Replays: the state is a fold of the events, and the plan a function of the state.

A played sequence (draws, busts, breaks, balance and final moves, the clock, time calls...) is
replayed with ``Tournament.fold``; a snapshot is a msgpack round trip of the state. Both must
give the same state, byte for byte, and the same plan.
"""

from __future__ import annotations

from collections.abc import Callable

import msgspec
import pytest

from floor.engine import commands as cmd
from floor.engine.events import Event
from floor.engine.read.views import next_big_blind, waiting
from floor.engine.rules import Level, Structure
from floor.engine.state import Tournament, TournamentState
from tests.unit.builders import Floor

STRUCTURE = Structure(
    name="replay",
    starting_stack=10_000,
    chips=(25, 100),
    levels=(
        Level(small_blind=25, big_blind=50, minutes=20.0),
        Level(small_blind=50, big_blind=100, minutes=20.0),
        Level(small_blind=100, big_blind=200, minutes=20.0),
    ),
)


def first_move(floor: Floor, reason: str) -> str:
    player = floor.moves(reason)[0][0]
    assert player is not None
    return player


def bust_down_to(floor: Floor, players: int) -> None:
    """Bust the player in the lowest seat of the fullest table until ``players`` are left."""
    while floor.t.active > players:
        fullest = max(floor.t.state.tables.values(), key=lambda table: table.count)
        floor.bust(floor.seats(fullest.number)[min(fullest.occupants)])


def play(seed: int, check: Callable[[Floor], None] = lambda floor: None) -> Floor:
    """A tournament from three tables to the final table, ``check`` run after every step."""
    floor = Floor(
        {1: "1-6,8 pos 1/2/3", 2: "2-4,6,7,9 pos 2/3/4", 3: "1,3-5,7,8 pos 3/4/5"},
        seed=seed,
        structure=STRUCTURE,
    )
    steps: list[Callable[[], object]] = [
        lambda: floor.do(cmd.ClockStart(), now=0.0),
        lambda: floor.do(cmd.LockSeat(player="T1S4")),
        lambda: floor.bust("T1S8"),  # table 3 breaks
        lambda: floor.do(cmd.SetStack(player="T2S2", stack=31_500)),
        lambda: floor.hand(1, 2),
        lambda: floor.confirm(first_move(floor, "break")),
        lambda: floor.do(cmd.Cancel(player=first_move(floor, "break"))),
        lambda: floor.do(cmd.ConfirmAll(reason="break")),
        lambda: floor.do(cmd.CallTime(table=1, seat=3), now=100.0),
        lambda: floor.do(cmd.Tick(), now=1300.0),  # the time call ends, level 2 begins
        lambda: floor.bust("T2S2"),
        lambda: floor.do(cmd.UndoBust(player="T2S2", reason="chips found under a card")),
        lambda: floor.bust("T2S2", "T2S3", "T2S4"),
        lambda: floor.register("T2S2"),  # a re-entry
        lambda: floor.hand(1),
        lambda: bust_down_to(floor, 9),  # the final table forms
        lambda: floor.do(cmd.ConfirmAll(reason="final")),
        lambda: floor.button(floor.t.plan.final_table or 0, 1),
        lambda: floor.hand(floor.t.plan.final_table or 0),
        lambda: floor.do(cmd.ClockPause(), now=1500.0),
    ]
    check(floor)
    for step in steps:
        step()
        check(floor)
    return floor


def same_state_and_plan(a: Tournament, b: Tournament) -> None:
    assert msgspec.msgpack.encode(a.state) == msgspec.msgpack.encode(b.state)
    assert a.plan == b.plan
    for n, table in a.state.tables.items():
        other = b.table(n)
        assert next_big_blind(a, table) == next_big_blind(b, other)
        assert waiting(a, table) == waiting(b, other)


@pytest.mark.parametrize("seed", [0, 1, 7])
def test_the_played_sequence_reaches_the_final_table(seed: int) -> None:
    floor = play(seed)

    final = floor.t.plan.final_table
    assert final is not None
    assert floor.moves() == []
    assert floor.count(final) == floor.t.active
    assert floor.t.player("T2S2").entries == 2
    assert floor.t.state.clock.running is False


@pytest.mark.parametrize("seed", [0, 1, 7])
def test_replaying_the_events_gives_the_same_state_and_plan_after_every_step(seed: int) -> None:
    def check(floor: Floor) -> None:
        same_state_and_plan(Tournament.fold(floor.log), floor.t)

    play(seed, check)


def test_replaying_events_decoded_from_json_gives_the_same_state() -> None:
    floor = play(3)

    decoded = msgspec.json.decode(msgspec.json.encode(floor.log), type=list[Event])

    assert decoded == floor.log
    same_state_and_plan(Tournament.fold(decoded), floor.t)


@pytest.mark.parametrize("seed", [0, 5])
def test_a_msgpack_snapshot_of_the_state_gives_the_same_plan_after_every_step(seed: int) -> None:
    def check(floor: Floor) -> None:
        data = msgspec.msgpack.encode(floor.t.state)
        restored = Tournament(msgspec.msgpack.decode(data, type=TournamentState))
        same_state_and_plan(restored, floor.t)
        same_state_and_plan(floor.t.copy(), floor.t)

    play(seed, check)


def test_a_restored_snapshot_goes_on_exactly_like_the_original() -> None:
    floor = Floor({1: "1-6,8 pos 1/2/3", 2: "2-4,6,7,9 pos 2/3/4", 3: "1,3-5,7,8 pos 3/4/5"})
    twin = Floor({1: "1-9"})  # replaced by the snapshot below
    twin.t = Tournament(
        msgspec.msgpack.decode(msgspec.msgpack.encode(floor.t.state), type=TournamentState)
    )
    twin.rng.setstate(floor.rng.getstate())

    for f in (floor, twin):
        f.bust("T1S8")
        f.do(cmd.ConfirmAll(reason="break"))

    same_state_and_plan(twin.t, floor.t)


def test_a_log_must_start_with_the_tournament_created_event() -> None:
    floor = Floor({1: "1-9 pos 1/2/3"})
    events: list[Event] = floor.log[1:]

    with pytest.raises(ValueError, match="starts with tournament_created"):
        Tournament.fold(events)
