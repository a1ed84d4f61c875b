"""What the engine works out for a request, bounded and no slower than the room needs.

Issue 24: the standard payout table for 100,000 entries paying half listed 5.6 million
places (28 MB, 6 s); the prizes of a 1,500-place row were worked out in Fractions at every
version (136 ms) and the results of 10,000 scanned every paid place for each finisher
(366 ms); the import's preview replanned a room of 10,000 for each row (three minutes for a
list of 10,000). Each is shown here to give the same answers as before, bounded.
"""

from __future__ import annotations

import random
import time
from fractions import Fraction

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from floor.engine import commands as cmd
from floor.engine.calc.payout_curve import MOST_PLACES, percents, standard_table, table_places
from floor.engine.decide import decide
from floor.engine.entry_check import check
from floor.engine.errors import RuleError
from floor.engine.events import TournamentCreated
from floor.engine.prize import PayoutRow, Prize, payouts, shared_prizes
from floor.engine.rules import Level, Rules, Structure
from floor.engine.state import Tournament


@pytest.mark.parametrize(
    ("entries", "paid"), [(2, 0.15), (100, 0.15), (1_000, 0.15), (1_000, 0.5), (10_000, 0.1)]
)
def test_a_standard_tables_places_are_counted_without_building_it(
    entries: int, paid: float
) -> None:
    table = standard_table(entries, paid)
    assert table_places(entries, paid) == sum(len(row.percents) for row in table)


def test_half_of_100000_entries_paid_lists_more_places_than_a_payout_table_holds() -> None:
    assert table_places(100_000, 0.5) == 5_559_517
    assert table_places(100_000, 0.5) > MOST_PLACES


def test_a_table_of_the_most_places_fits_one_set_prize_command() -> None:
    # The largest table the tool answers at the default share, as the console sends it.
    entries = max(e for e in range(2, 20_000, 50) if table_places(e, 0.15) <= MOST_PLACES)
    prize = {"currency": "CZK", "buy_in": 1000, "payouts": standard_table(entries, 0.15)}
    body = msgspec.json.encode({"id": "x", "command": {"type": "set_prize", "prize": prize}})
    assert len(body) <= 65_536, (entries, len(body))


def _fraction_prizes(pool: int, row: PayoutRow, unit: int) -> list[int]:
    """The prizes as they were worked out before: in Fractions."""
    amounts = [pool * Fraction(str(p)) / 100 // unit * unit for p in row.percents]
    amounts[0] = pool - sum(amounts[1:])
    return [int(a) for a in amounts]


@settings(max_examples=200, deadline=None)
@given(
    places=st.sampled_from([1, 2, 3, 9, 27, 100, 1_500]),
    unit=st.sampled_from([1, 5, 25, 100, 1_000]),
    buy_in=st.integers(0, 10**6),
    guarantee=st.integers(0, 10**9),
    more=st.integers(0, 50_000),
)
def test_prizes_in_whole_numbers_are_the_prizes_fractions_gave(
    places: int, unit: int, buy_in: int, guarantee: int, more: int
) -> None:
    row = PayoutRow(entries=places, percents=percents(places))
    prize = Prize(currency="CZK", buy_in=buy_in, round_to=unit, guarantee=guarantee, payouts=(row,))
    pool = payouts(prize, places + more)
    assert [p.prize for p in pool.places] == _fraction_prizes(pool.pool, row, unit)
    assert sum(p.prize for p in pool.places) == pool.pool


def test_percentages_with_more_than_two_decimals_are_taken_as_written() -> None:
    row = PayoutRow(entries=3, percents=(33.3334, 33.3333, 33.3333))
    prize = Prize(currency="CZK", buy_in=1_000_003, payouts=(row,))
    pool = payouts(prize, 3)
    assert [p.prize for p in pool.places] == _fraction_prizes(pool.pool, row, 1)


@given(place=st.integers(1, 30), players=st.integers(1, 8))
def test_a_shared_place_shares_the_prizes_of_the_places_it_covers(place: int, players: int) -> None:
    row = PayoutRow(entries=20, percents=percents(20))
    pool = payouts(Prize(currency="CZK", buy_in=997, payouts=(row,)), 25)
    covered = range(place, place + players)
    total = sum(p.prize for p in pool.places if p.place in covered)
    shares = shared_prizes(pool, place, players)
    assert sum(shares) == total
    assert max(shares) - min(shares) <= 1


def _drawn_room(players: int, seed: int, bust: float) -> Tournament:
    rng = random.Random(seed)
    structure = Structure(
        name="s",
        starting_stack=1000,
        chips=(25,),
        levels=(Level(small_blind=25, big_blind=50, minutes=20),),
        late_registration_until=1,
    )
    rules = msgspec.convert({"game": "holdem", "seats": 9, "final_table": 9}, Rules)
    t = Tournament.create(TournamentCreated(id="t", name="t", rules=rules, structure=structure))
    now = time.time()
    for i in range(players):
        decide(t, cmd.Register(name=f"Player {i}", player=f"P{i}"), now, rng)
    decide(t, cmd.DrawSeats(), now, rng)
    for p in rng.sample(sorted(t.state.players), int(bust * players)):
        decide(t, cmd.Bust(player=p), now, rng)
    return t


_NAMES = st.sampled_from(["Jan Novák", "Eva", " ", "Zoë\u200b", "x" * 90, "Petr Kos"])
_IDS = st.one_of(st.none(), st.sampled_from(["P1", "P2", "P3", "N1", "N2", "bad id", "P40"]))
_ENTRIES = st.lists(
    st.builds(lambda name, pid: cmd.NewEntry(name=name, player=pid), _NAMES, _IDS), max_size=25
)


@settings(max_examples=60, deadline=None)
@given(entries=_ENTRIES, seed=st.integers(0, 10))
def test_the_previews_rules_answer_each_row_as_registering_it_would(
    entries: list[cmd.NewEntry], seed: int
) -> None:
    """The preview asks each entry without drawing its seat: the same refusal, row by row,
    as registering the rows one after another (those refused left out)."""
    t = _drawn_room(60, seed, 0.3)
    asked = [None if e is None else e.reason for e in check(t, tuple(entries), time.time())]
    work = t.copy()
    rng = random.Random(0)
    registered: list[str | None] = []
    for e in entries:
        try:
            decide(work, cmd.Register(name=e.name, player=e.player), time.time(), rng)
        except RuleError as refused:
            registered.append(refused.reason)
        else:
            registered.append(None)
    assert asked == registered


def test_the_preview_of_a_long_list_does_not_replan_the_room_for_each_row() -> None:
    t = _drawn_room(2_000, 1, 0.3)
    rows = tuple(cmd.NewEntry(name=f"Late {i}", player=f"L{i}") for i in range(2_000))
    plans = 0
    real = Tournament.plan.fget
    assert real is not None

    def counted(self: Tournament) -> object:
        nonlocal plans
        if self._plan is None:
            plans += 1
        return real(self)

    Tournament.plan = property(counted)  # type: ignore[assignment,method-assign]
    try:
        answers = check(t, rows, time.time())
    finally:
        Tournament.plan = property(real)  # type: ignore[assignment,method-assign]
    assert answers == [None] * len(rows)
    assert plans <= 1
