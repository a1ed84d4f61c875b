"""Invariants of the engine over random tournaments (hypothesis).

Random fields of 2 to 3,000 players on 6-, 8-, 9- and 10-seat tables are dealt and busted
one by one while the simulated floor carries out every plan. Throughout: nobody is lost or
seated twice and no seat is used twice; whenever the plan is carried out, the open tables are
within the balance trigger and there are as few of them as fit everybody; the final table
forms exactly at its size; replaying the events gives an identical state and plan.
"""

from __future__ import annotations

import math
import random

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from floor.engine import commands as cmd
from floor.engine.autopilot import next_step
from floor.engine.decide import decide
from floor.engine.events import Event, TournamentCreated
from floor.engine.rules import Rules
from floor.engine.state import Tournament


def new_tournament(
    players: int,
    seats: int,
    rng: random.Random,
    final_table: int | None = None,
    game: str = "holdem",
) -> tuple[Tournament, list[Event]]:
    rules = msgspec.convert(
        {"game": game, "seats": seats, "final_table": final_table or min(seats + 1, 10)},
        Rules,
    )
    created = TournamentCreated(id="prop", name="property", rules=rules)
    t = Tournament.create(created)
    log: list[Event] = [created]
    for i in range(players):
        log += decide(t, cmd.Register(name=f"Player {i}", player=f"P{i}"), 0.0, rng)
    log += decide(t, cmd.DrawSeats(), 0.0, rng)
    return t, log


def check_seating(t: Tournament) -> None:
    """Nobody lost or seated twice, no seat used twice, indexes agree with the state."""
    s = t.state
    seen: dict[str, tuple[int, int]] = {}
    for table in s.tables.values():
        assert len(table.occupants) <= table.seats
        for seat, pid in table.occupants.items():
            assert 1 <= seat <= table.seats
            assert pid not in seen, f"{pid} seated twice"
            seen[pid] = (table.number, seat)
            p = s.players[pid]
            assert (p.table, p.seat) == (table.number, seat)
            assert not p.busted
    alive = {pid for pid, p in s.players.items() if not p.busted}
    assert set(seen) == alive, "a player is lost"
    assert t.active == len(alive)
    assert s.busted + len(alive) == len(s.players)


def check_plan_carried_out(t: Tournament) -> None:
    """With nothing left to do: balanced, and as few tables as fit everybody."""
    rules = t.rules
    open_counts = [table.count for table in t.open_tables()]
    if t.state.final_table is None:
        assert max(open_counts) - min(open_counts) < rules.balance_trigger, open_counts
        assert len(open_counts) == max(1, math.ceil(t.active / rules.fill)), (
            len(open_counts),
            t.active,
        )
    else:
        final = t.table(t.state.final_table)
        assert final.count == t.active
        assert all(seat <= t.state.final_seats for seat in final.occupants)
        assert not t.breaking


def check_final_table(t: Tournament, tables_with_players: int) -> None:
    formed = t.state.final_table is not None
    if t.active <= t.rules.final_table and tables_with_players > 1:
        assert formed, "the final table should have formed"
    if formed:
        assert t.active <= t.rules.final_table


def play_out(players: int, seats: int, seed: int, every: int) -> None:
    rng = random.Random(seed)
    t, log = new_tournament(players, seats, rng)
    check_seating(t)
    steps = 0
    while True:
        before_nonempty = t.nonempty
        command = next_step(t, rng)
        if command is None:
            break
        log += decide(t, command, 0.0, rng)
        steps += 1
        check_final_table(t, before_nonempty if isinstance(command, cmd.Bust) else t.nonempty)
        if not t.plan.moves:
            check_plan_carried_out(t)
        if steps % every == 0:
            check_seating(t)
    check_seating(t)
    assert t.active == 1
    replay = Tournament.fold(log)
    assert msgspec.msgpack.encode(replay.state) == msgspec.msgpack.encode(t.state)
    assert replay.plan == t.plan


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(2, 120),
    seats=st.sampled_from([6, 8, 9, 10]),
    seed=st.integers(0, 2**32 - 1),
)
def test_small_fields_keep_every_invariant_to_the_winner(
    players: int, seats: int, seed: int
) -> None:
    play_out(players, seats, seed, every=1)


@pytest.mark.slow
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(121, 3_000),
    seats=st.sampled_from([6, 8, 9, 10]),
    seed=st.integers(0, 2**32 - 1),
)
def test_large_fields_keep_every_invariant_to_the_winner(
    players: int, seats: int, seed: int
) -> None:
    play_out(players, seats, seed, every=max(1, players // 40))


@pytest.mark.slow
@pytest.mark.parametrize("seats", [6, 8, 9, 10])
def test_a_field_of_3000_plays_down_to_one_winner(seats: int) -> None:
    play_out(3_000, seats, seed=seats, every=200)
