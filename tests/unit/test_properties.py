"""Invariants of the engine over random tournaments (hypothesis).

Random fields of 2 to 3,000 players on 6-, 8-, 9- and 10-seat tables are dealt and busted
one by one while the simulated floor carries out every plan; some seats are kept for special
needs, some players need one, and the floor locks and unlocks seats as play goes on.
Throughout: nobody is lost or seated twice and no seat is used twice; every planned move goes
to a free seat of a table in play, nobody is planned twice, a locked player is never moved for
balance and only a player who needs one is sent to a reserved seat; whenever the plan is
carried out, the open tables are within the balance trigger (unless the fullest has nobody to
move) and no table could break; the final table forms exactly at its size and seats
everybody; replaying the events gives an identical state and plan.
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
from floor.engine.state import Table, Tournament


def new_tournament(
    players: int,
    seats: int,
    rng: random.Random,
    final_table: int | None = None,
    game: str = "holdem",
    reserved: int = 0,
    special: int = 0,
) -> tuple[Tournament, list[Event]]:
    """A drawn tournament; ``reserved`` tables keep one seat for special needs (perhaps one
    only the larger final table has) and ``special`` players need one."""
    final_table = final_table or min(seats + 1, 10)
    # A table keeping a seat seats one fewer at the draw: enough tables for everybody.
    tables = math.ceil(players / (seats - 1 if reserved else seats))
    kept = [
        {"table": n, "seat": rng.randint(1, max(seats, final_table))}
        for n in sorted(rng.sample(range(1, tables + 1), min(reserved, tables)))
    ]
    rules = msgspec.convert(
        {"game": game, "seats": seats, "final_table": final_table, "reserved_seats": kept},
        Rules,
    )
    created = TournamentCreated(id="prop", name="property", rules=rules)
    t = Tournament.create(created)
    log: list[Event] = [created]
    needy = set(rng.sample(range(players), min(special, players)))
    for i in range(players):
        register = cmd.Register(name=f"Player {i}", player=f"P{i}", special_needs=i in needy)
        log += decide(t, register, 0.0, rng)
    log += decide(t, cmd.DrawSeats(tables=tuple(range(1, tables + 1))), 0.0, rng)
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


def check_plan(t: Tournament) -> None:
    """Every planned move goes to a free seat of a table in play, and obeys locks and
    reserved seats; once the final table is drawn, everybody has a seat there."""
    moves = t.plan.moves
    movers = [m.player for m in moves if m.player is not None]
    assert len(movers) == len(set(movers)), "a player is planned twice"
    targets = [(m.to.table, m.to.seat) for m in moves if m.to.seat is not None]
    assert len(targets) == len(set(targets)), "two moves to one seat"
    moving = set(movers)
    for m in moves:
        dst = t.table(m.to.table)
        assert dst.status == "open", m
        p = None if m.player is None else t.player(m.player)
        if p is not None:
            assert (p.table, p.seat) == (m.from_.table, m.from_.seat), m
            assert not (m.reason == "balance" and p.locked), f"locked {p.id} moved for balance"
        if m.to.seat is None:
            continue
        assert 1 <= m.to.seat <= dst.seats, m
        holder = dst.occupants.get(m.to.seat)
        assert holder is None or holder in moving, f"{m} goes to the seat of {holder}"
        if m.reason != "final" and t.is_reserved(dst.number, m.to.seat):
            # At the final table a reserved seat nobody left needs is an ordinary seat.
            assert p is not None and t.needs_reserved(p), f"{m}: a reserved seat"
    final = t.state.final_table
    if final is not None and t.state.final_drawn:
        final_movers = {m.player for m in moves if m.reason == "final" and m.to.seat is not None}
        for table in t.state.tables.values():
            if table.number != final:
                assert set(table.occupants.values()) <= final_movers, "a player has no final seat"


def _could_break(t: Tournament, table: Table) -> bool:
    """The other open tables seat everybody at the break fill, a free reserved seat counting
    only for a player of ``table`` who needs one (FLOOR-RULES 5, 10.6)."""
    fill = t.rules.fill
    ordinary = spare = 0
    for other in t.open_tables():
        if other.number == table.number:
            continue
        kept = sum(
            1
            for seat in range(1, other.seats + 1)
            if seat not in other.occupants and t.is_reserved(other.number, seat)
        )
        ordinary += min(fill, other.seats - kept)
        spare += min(fill, other.seats) - min(fill, other.seats - kept)
    needy = sum(1 for pid in table.occupants.values() if t.needs_reserved(t.player(pid)))
    return t.active <= ordinary + min(spare, needy)


def check_plan_carried_out(t: Tournament) -> None:
    """With nothing left to do: balanced, and as few tables as fit everybody."""
    rules = t.rules
    tables = list(t.open_tables())
    open_counts = [table.count for table in tables]
    if t.state.final_table is None:
        hi = max(tables, key=lambda table: (table.count, -table.number))
        if max(open_counts) - min(open_counts) >= rules.balance_trigger:
            # Balancing stops when the fullest table has nobody it may move.
            players = [t.player(pid) for pid in hi.occupants.values()]
            assert all(p.locked for p in players), open_counts
        assert len(tables) >= math.ceil(t.active / rules.fill)
        if not rules.reserved_seats:
            assert len(tables) == max(1, math.ceil(t.active / rules.fill)), (
                len(tables),
                t.active,
            )
        if len(tables) > 1:
            first = max(tables, key=lambda table: table.number)  # the default break order
            assert not _could_break(t, first), (open_counts, t.active)
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


def lock_or_unlock(t: Tournament, rng: random.Random) -> cmd.Command:
    """The floor locks a seat (or lifts a lock) of a random player still in."""
    table = rng.choice([table for table in t.state.tables.values() if table.count])
    p = t.player(table.occupants[rng.choice(sorted(table.occupants))])
    return cmd.LockSeat(player=p.id, locked=not p.locked)


def play_out(
    players: int,
    seats: int,
    seed: int,
    every: int,
    reserved: int = 0,
    special: int = 0,
    lock_rate: float = 0.0,
) -> None:
    rng = random.Random(seed)
    t, log = new_tournament(players, seats, rng, reserved=reserved, special=special)
    check_seating(t)
    steps = 0
    while True:
        before_nonempty = t.nonempty
        command: cmd.Command | None
        if t.active > 1 and lock_rate and rng.random() < lock_rate:
            command = lock_or_unlock(t, rng)
        else:
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
            check_plan(t)
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


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(2, 120),
    seats=st.sampled_from([6, 8, 9, 10]),
    seed=st.integers(0, 2**32 - 1),
    reserved=st.integers(0, 4),
    special=st.integers(0, 4),
    lock_rate=st.sampled_from([0.0, 0.05, 0.2]),
)
def test_reserved_seats_and_seat_locks_keep_every_invariant_to_the_winner(
    players: int, seats: int, seed: int, reserved: int, special: int, lock_rate: float
) -> None:
    play_out(players, seats, seed, 1, reserved, special, lock_rate)


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
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(121, 1_500),
    seats=st.sampled_from([6, 8, 9, 10]),
    seed=st.integers(0, 2**32 - 1),
    reserved=st.integers(1, 30),
    special=st.integers(1, 30),
)
def test_large_fields_with_reserved_seats_and_locks_keep_every_invariant(
    players: int, seats: int, seed: int, reserved: int, special: int
) -> None:
    play_out(players, seats, seed, max(1, players // 40), reserved, special, lock_rate=0.05)


@pytest.mark.slow
@pytest.mark.parametrize("seats", [6, 8, 9, 10])
def test_a_field_of_3000_plays_down_to_one_winner(seats: int) -> None:
    play_out(3_000, seats, seed=seats, every=200)
