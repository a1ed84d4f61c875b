"""Colour-up and chip race (FLOOR-RULES section 8): worked examples, refusals, conservation."""

from __future__ import annotations

import random
from collections.abc import MutableSequence, Sequence
from typing import Any

import msgspec
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from floor.engine.calc.chiprace import (
    DECK,
    ChipRaceInput,
    ChipRaceResult,
    RaceSeat,
    RaceSeatResult,
    card_strength,
    chip_race,
)
from floor.engine.errors import RuleError


class StackedDeck(random.Random):
    """A random source whose shuffle puts the given cards on top, to deal a chosen race."""

    def __init__(self, top: Sequence[str]) -> None:
        super().__init__(0)
        self.top = list(top)

    def shuffle(self, x: MutableSequence[Any]) -> None:
        x[:] = self.top + [card for card in x if card not in self.top]


def seat(seat: int, chips: int, stack: int) -> RaceSeat:
    return RaceSeat(seat=seat, chips=chips, stack=stack)


def by_seat(result: ChipRaceResult) -> dict[int, RaceSeatResult]:
    return {s.seat: s for s in result.seats}


# --- worked examples -------------------------------------------------------------------------


def test_chips_that_exchange_evenly_need_no_race() -> None:
    result = chip_race(
        ChipRaceInput(
            leaving=25, next_up=100, seats=[seat(1, 8, 10_200), seat(3, 4, 5_100), seat(5, 0, 900)]
        ),
        StackedDeck([]),
    )

    assert (result.odd_chips, result.odd_value, result.chips_raced) == (0, 0, 0)
    assert [(s.seat, s.exchanged, s.cards, s.won, s.stack) for s in result.seats] == [
        (1, 2, (), 0, 10_200),
        (3, 1, (), 0, 5_100),
        (5, 0, (), 0, 900),
    ]


def test_race_tie_in_rank_is_broken_by_suit() -> None:
    # Two odd 25s at a 100 colour-up are worth 50: half a chip rounds up to one chip.
    # Both players get a king; spades beat hearts.
    result = chip_race(
        ChipRaceInput(leaving=25, next_up=100, seats=[seat(1, 5, 1_125), seat(2, 1, 2_025)]),
        StackedDeck(["Kh", "Ks"]),
    )

    assert (result.odd_value, result.chips_raced) == (50, 1)
    assert result.seats == (
        RaceSeatResult(
            seat=1, exchanged=1, odd_chips=1, cards=("Kh",), won=0, stack=1_100, kept_in=False
        ),
        RaceSeatResult(
            seat=2, exchanged=0, odd_chips=1, cards=("Ks",), won=1, stack=2_100, kept_in=False
        ),
    )


def test_cards_are_dealt_from_seat_one_each_player_all_their_cards_at_once() -> None:
    result = chip_race(
        ChipRaceInput(
            leaving=25,
            next_up=100,
            seats=[seat(4, 1, 1_025), seat(1, 3, 1_075), seat(2, 2, 1_050)],
        ),
        StackedDeck(["2c", "3c", "4c", "5c", "6c", "7c"]),
    )

    assert [(s.seat, s.cards) for s in result.seats] == [
        (1, ("2c", "3c", "4c")),
        (2, ("5c", "6c")),
        (4, ("7c",)),
    ]


def test_a_player_wins_at_most_one_chip_even_holding_the_two_best_cards() -> None:
    # Six odd 25s are worth 150: 1.5 chips round up to 2. Seat 1 holds both aces but wins
    # one chip; the second goes to the next best card, seat 3's king.
    result = chip_race(
        ChipRaceInput(
            leaving=25,
            next_up=100,
            seats=[seat(1, 3, 1_075), seat(2, 1, 1_025), seat(3, 2, 1_050)],
        ),
        StackedDeck(["As", "Ah", "2c", "Qd", "3d", "Kc"]),
    )

    assert result.chips_raced == 2
    assert {s.seat: s.won for s in result.seats} == {1: 1, 2: 0, 3: 1}


def test_rounding_three_odd_25s_at_a_100_colour_up_race_one_chip() -> None:
    result = chip_race(
        ChipRaceInput(leaving=25, next_up=100, seats=[seat(1, 3, 575), seat(2, 0, 400)]),
        StackedDeck(["9d", "Jc", "2s"]),
    )

    assert (result.odd_chips, result.odd_value, result.chips_raced) == (3, 75, 1)
    assert by_seat(result)[1].won == 1
    assert by_seat(result)[1].stack == 600


def test_odd_value_under_half_a_chip_races_nothing_and_deals_no_card() -> None:
    result = chip_race(
        ChipRaceInput(leaving=25, next_up=100, seats=[seat(1, 1, 525), seat(2, 4, 100)]),
        StackedDeck([]),
    )

    assert (result.odd_value, result.chips_raced) == (25, 0)
    assert by_seat(result)[1].cards == ()
    assert by_seat(result)[1].stack == 500


def test_player_who_would_be_raced_out_gets_the_smallest_chip_in_play() -> None:
    # Seat 2's whole stack is one 25; seat 1's three odd 25s and seat 2's make 100: one chip,
    # and seat 1's ace wins it. Seat 2 is not raced out: they get a 100 chip.
    result = chip_race(
        ChipRaceInput(leaving=25, next_up=100, seats=[seat(1, 3, 5_075), seat(2, 1, 25)]),
        StackedDeck(["As", "Ac", "Ad", "Kh"]),
    )

    one, two = by_seat(result)[1], by_seat(result)[2]
    assert (one.won, one.stack, one.kept_in) == (1, 5_100, False)
    assert (two.won, two.stack, two.kept_in) == (0, 100, True)


def test_kept_in_chip_is_the_smallest_denomination_named_when_one_stays_in_play() -> None:
    result = chip_race(
        ChipRaceInput(
            leaving=100,
            next_up=500,
            smallest_in_play=25,
            seats=[seat(1, 4, 1_400), seat(2, 1, 100)],
        ),
        StackedDeck(["As", "Ks", "Qs", "Js", "2c"]),
    )

    assert (by_seat(result)[2].stack, by_seat(result)[2].kept_in) == (25, True)


def test_player_with_other_chips_who_loses_the_race_keeps_them_and_is_not_kept_in() -> None:
    result = chip_race(
        ChipRaceInput(leaving=25, next_up=100, seats=[seat(1, 3, 575), seat(2, 1, 525)]),
        StackedDeck(["As", "Ac", "Ad", "Kh"]),
    )

    assert (by_seat(result)[2].stack, by_seat(result)[2].kept_in) == (500, False)


def test_same_seed_deals_the_same_cards() -> None:
    race = ChipRaceInput(
        leaving=25,
        next_up=100,
        seats=[seat(s, 3, 3_075) for s in range(1, 10)],
    )

    first = chip_race(race, random.Random(2014))
    again = chip_race(race, random.Random(2014))
    other = chip_race(race, random.Random(2024))

    assert first == again
    assert [s.cards for s in first.seats] != [s.cards for s in other.seats]


def test_result_encodes_to_json_for_the_screens() -> None:
    race = ChipRaceInput(leaving=25, next_up=100, seats=[seat(1, 5, 1_125), seat(2, 1, 2_025)])
    result = chip_race(race, StackedDeck(["Kh", "Ks"]))

    data = msgspec.json.decode(msgspec.json.encode(result))
    assert data["seats"][1]["cards"] == ["Ks"]
    assert msgspec.json.decode(msgspec.json.encode(result), type=ChipRaceResult) == result
    assert msgspec.json.decode(msgspec.json.encode(race), type=ChipRaceInput) == race


def test_cards_rank_by_rank_then_suit() -> None:
    order = sorted(["Kh", "2s", "Ks", "Ac", "Kc", "Kd"], key=card_strength, reverse=True)

    assert order == ["Ac", "Ks", "Kh", "Kd", "Kc", "2s"]
    assert len(set(DECK)) == 52


@pytest.mark.parametrize("card", ["", "10s", "Kx", "ks", "AS"])
def test_a_string_that_is_not_a_card_is_refused(card: str) -> None:
    with pytest.raises(ValueError, match="not a card"):
        card_strength(card)


# --- refusals --------------------------------------------------------------------------------

_GOOD: dict[str, Any] = {"leaving": 25, "next_up": 100, "seats": [seat(1, 3, 575), seat(2, 1, 25)]}


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"leaving": 0}, "leaving"),
        ({"next_up": 110}, "next_up"),  # not a multiple of 25
        ({"next_up": 25}, "next_up"),  # not larger
        ({"smallest_in_play": 25}, "smallest_in_play"),  # it is leaving
        ({"smallest_in_play": 500}, "smallest_in_play"),
        ({"seats": []}, "seats"),
        ({"seats": [seat(1, 3, 575), seat(2, -1, 25)]}, "seats[1].chips"),
        ({"seats": [seat(1, 3, 575), seat(1, 1, 25)]}, "seats[1].seat"),
        ({"seats": [seat(0, 3, 575)]}, "seats[0].seat"),
        ({"seats": [seat(1, 3, 50)]}, "seats[0].stack"),  # three 25s are worth 75
        ({"seats": [seat(1, 0, 0)]}, "seats[0].stack"),  # busted: not in the race
        # 99 odd 1s at a 100 colour-up need 99 cards.
        ({"leaving": 1, "seats": [seat(1, 99, 99)]}, "seats"),
    ],
)
def test_bad_colour_up_is_refused_naming_the_field(change: dict[str, Any], field: str) -> None:
    with pytest.raises(RuleError) as refused:
        chip_race(ChipRaceInput(**{**_GOOD, **change}), random.Random(1))

    assert refused.value.field == field


# --- properties ------------------------------------------------------------------------------


@st.composite
def colour_ups(draw: st.DrawFn) -> ChipRaceInput:
    leaving = draw(st.sampled_from([1, 5, 25, 100, 500]))
    ratio = draw(st.sampled_from([2, 4, 5, 10]))
    seats = draw(st.lists(st.integers(1, 10), min_size=1, max_size=10, unique=True))
    players = []
    for s in seats:
        chips = draw(st.integers(0, 3 * ratio))
        other = draw(st.integers(0 if chips else 1, 20)) * leaving * ratio
        players.append(RaceSeat(seat=s, chips=chips, stack=chips * leaving + other))
    return ChipRaceInput(leaving=leaving, next_up=leaving * ratio, seats=players)


def _needs_too_many_cards(race: ChipRaceInput) -> bool:
    ratio = race.next_up // race.leaving
    return sum(s.chips % ratio for s in race.seats) > len(DECK)


@given(colour_ups(), st.integers(0, 2**32))
def test_chip_value_changes_only_by_the_raced_and_the_kept_in_chips(
    race: ChipRaceInput, seed: int
) -> None:
    assume(not _needs_too_many_cards(race))
    result = chip_race(race, random.Random(seed))

    before = sum(s.stack for s in race.seats)
    after = sum(s.stack for s in result.seats)
    kept_in = sum(s.kept_in for s in result.seats)
    assert after - before == result.chips_raced * race.next_up - result.odd_value + kept_in * (
        race.next_up
    )
    assert sum(s.won for s in result.seats) == result.chips_raced
    assert all(s.stack > 0 for s in result.seats)


@given(colour_ups(), st.integers(0, 2**32))
def test_the_best_cards_win_one_chip_each(race: ChipRaceInput, seed: int) -> None:
    assume(not _needs_too_many_cards(race))
    result = chip_race(race, random.Random(seed))

    dealt = [card for s in result.seats for card in s.cards]
    assert len(dealt) == len(set(dealt))
    if not result.chips_raced:
        assert not dealt
        return
    assert len(dealt) == result.odd_chips
    best = {s.seat: max(map(card_strength, s.cards)) for s in result.seats if s.cards}
    winners = [best[s.seat] for s in result.seats if s.won]
    losers = [best[s.seat] for s in result.seats if s.cards and not s.won]
    assert all(s.won in (0, 1) for s in result.seats)
    assert not losers or min(winners) > max(losers)
