"""Splitting pots (FLOOR-RULES section 9): worked examples, refusals and chip conservation."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from floor.engine.calc.chiprace import DECK
from floor.engine.calc.pots import Contribution, GameKind, PotInput, PotResult, split_pot
from floor.engine.errors import RuleError


def c(seat: int, contributed: int, *, folded: bool = False) -> Contribution:
    return Contribution(seat=seat, contributed=contributed, folded=folded)


def totals(result: PotResult) -> dict[int, int]:
    return {a.seat: a.amount for a in result.totals}


def awards(result: PotResult, name: str) -> dict[int, int]:
    (pot,) = [p for p in result.pots if p.name == name]
    return {a.seat: a.amount for a in pot.awards}


# --- worked examples -------------------------------------------------------------------------


def test_three_way_all_in_makes_two_side_pots_and_gives_the_odd_chip_left_of_the_button() -> None:
    # Seat 1 all-in for 1,000, seat 3 all-in for 2,525, seats 4 and 6 go on to 4,000 each;
    # seat 8 folded after putting in 300. Seat 1 has the best hand, 3 and 6 tie behind it.
    result = split_pot(
        PotInput(
            game="flop",
            odd_chip_unit=25,
            button=4,
            contributions=[c(1, 1000), c(3, 2525), c(4, 4000), c(6, 4000), c(8, 300, folded=True)],
            high=[[1], [3, 6], [4]],
        )
    )

    assert [(p.name, p.amount, p.eligible) for p in result.pots] == [
        ("side pot 2", 2 * 1475, (4, 6)),
        ("side pot 1", 3 * 1525, (3, 4, 6)),
        ("main pot", 300 + 4 * 1000, (1, 3, 4, 6)),
    ]
    assert awards(result, "main pot") == {1: 4300}
    # 4,575 is 183 chips of 25: 91 each and the odd one to seat 6, first clockwise from 4.
    assert awards(result, "side pot 1") == {3: 2275, 6: 2300}
    # Seat 6 beats seat 4, the only other player who can win the last side pot.
    assert awards(result, "side pot 2") == {6: 2950}
    assert totals(result) == {1: 4300, 3: 2275, 4: 0, 6: 5250, 8: 0}


def test_split_main_pot_gives_the_odd_chip_to_the_first_winner_left_of_the_button() -> None:
    # 1,000 / 2,500 / 2,500 and a folded 300, with 100 the smallest chip: the main pot of
    # 3,300 is 33 chips; seats 2 and 7 tie for it and seat 7 is the first left of button 5.
    result = split_pot(
        PotInput(
            game="flop",
            odd_chip_unit=100,
            button=5,
            contributions=[c(2, 1000), c(5, 2500), c(7, 2500), c(9, 300, folded=True)],
            high=[[2, 7], [5]],
        )
    )

    assert awards(result, "main pot") == {2: 1600, 7: 1700}
    assert awards(result, "side pot 1") == {7: 3000}
    assert totals(result) == {2: 1600, 5: 0, 7: 4700, 9: 0}
    assert "odd chip of 100 to seat 7" in result.pots[-1].note


def test_odd_chip_left_of_the_button_wraps_around_past_the_last_seat() -> None:
    result = split_pot(
        PotInput(
            game="flop",
            odd_chip_unit=25,
            button=7,  # winners at 2 and 5: clockwise from 7 comes 8, 9, 1, 2 first
            contributions=[c(2, 75), c(5, 75), c(7, 75, folded=True)],
            high=[[5, 2]],
        )
    )

    assert totals(result) == {2: 125, 5: 100, 7: 0}


def test_odd_chip_goes_left_of_a_dead_button() -> None:
    result = split_pot(
        PotInput(
            game="flop",
            odd_chip_unit=25,
            button=4,  # nobody sits in seat 4
            contributions=[c(3, 75), c(6, 75), c(8, 75, folded=True)],
            high=[[3, 6]],
        )
    )

    assert totals(result)[6] == 125


def test_stud_odd_chip_goes_to_the_high_card_by_suit() -> None:
    # 315 in chips of 5 is 63 chips: seats 2 and 4 tie with a king each; spades beat hearts.
    result = split_pot(
        PotInput(
            game="stud",
            odd_chip_unit=5,
            contributions=[c(2, 105), c(4, 105), c(6, 105, folded=True)],
            high=[[2, 4]],
            high_cards={2: "Kh", 4: "Ks"},
        )
    )

    assert totals(result) == {2: 155, 4: 160, 6: 0}
    assert "to seat 4" in result.pots[0].note


def test_stud_odd_chip_goes_to_the_higher_rank_before_the_suit() -> None:
    result = split_pot(
        PotInput(
            game="stud",
            odd_chip_unit=5,
            contributions=[c(2, 105), c(4, 105), c(6, 105, folded=True)],
            high=[[2, 4]],
            high_cards={2: "Ac", 4: "Ks"},
        )
    )

    assert totals(result) == {2: 160, 4: 155, 6: 0}


def test_stud_tie_without_an_odd_chip_needs_no_cards() -> None:
    result = split_pot(
        PotInput(
            game="stud",
            odd_chip_unit=5,
            contributions=[c(2, 100), c(4, 100)],
            high=[[2, 4]],
        )
    )

    assert totals(result) == {2: 100, 4: 100}


@pytest.mark.parametrize("low", [None, []])
def test_hilo_with_no_qualifying_low_gives_the_high_hand_the_whole_pot(
    low: list[list[int]] | None,
) -> None:
    result = split_pot(
        PotInput(
            game="flop_hilo",
            odd_chip_unit=25,
            button=1,
            contributions=[c(3, 525), c(5, 525), c(7, 525)],
            high=[[5], [3], [7]],
            low=low,
        )
    )

    assert totals(result) == {3: 0, 5: 1575, 7: 0}
    assert "no qualifying low" in result.pots[0].note


def test_hilo_gives_the_odd_chip_of_the_pot_to_the_high_hand() -> None:
    # 1,575 is 63 chips of 25: 32 to the high hand, 31 to the low.
    result = split_pot(
        PotInput(
            game="flop_hilo",
            odd_chip_unit=25,
            button=1,
            contributions=[c(3, 525), c(5, 525), c(7, 525)],
            high=[[3], [5], [7]],
            low=[[5], [7]],
        )
    )

    assert totals(result) == {3: 800, 5: 775, 7: 0}
    assert "odd chip of the pot to the high hand" in result.pots[0].note


def test_hilo_tied_high_hands_share_the_high_half_with_the_odd_chip_left_of_the_button() -> None:
    # The main pot of 525 is 21 chips of 25: 11 to the high half, split 6 to seat 5 (first
    # left of button 4) and 5 to seat 3; 10 to seat 7's low. Seat 7 cannot win the side pot.
    result = split_pot(
        PotInput(
            game="flop_hilo",
            odd_chip_unit=25,
            button=4,
            contributions=[c(3, 275), c(5, 275), c(7, 175)],
            high=[[3, 5], [7]],
            low=[[7]],
        )
    )

    assert awards(result, "main pot") == {3: 125, 5: 150, 7: 250}
    assert awards(result, "side pot 1") == {3: 100, 5: 100}
    assert totals(result) == {3: 225, 5: 250, 7: 250}


def test_hilo_identical_hands_split_the_pot_as_evenly_as_possible() -> None:
    # The TDA example: two players with the same wheel win high and low; 66 chips split
    # 33 and 33, not 34 and 32 as two separate halves with an odd chip each would give.
    result = split_pot(
        PotInput(
            game="flop_hilo",
            odd_chip_unit=25,
            button=2,
            contributions=[c(1, 825), c(2, 825)],
            high=[[1, 2]],
            low=[[1, 2]],
        )
    )

    assert totals(result) == {1: 825, 2: 825}


def test_stud_hilo_ties_in_the_low_half_go_by_the_high_card_too() -> None:
    # 63 chips of 5: high 32 to seat 1, low 31 split between 2 and 3, the odd chip to the Qs.
    result = split_pot(
        PotInput(
            game="stud_hilo",
            odd_chip_unit=5,
            contributions=[c(1, 105), c(2, 105), c(3, 105)],
            high=[[1], [2, 3]],
            low=[[2, 3]],
            high_cards={2: "Qh", 3: "Qs"},
        )
    )

    assert totals(result) == {1: 160, 2: 75, 3: 80}


def test_hilo_side_pot_goes_to_the_high_hand_when_its_players_have_no_low() -> None:
    # Seat 1's low wins half the main pot but seat 1 is all-in: the side pot is scooped.
    result = split_pot(
        PotInput(
            game="flop_hilo",
            odd_chip_unit=100,
            button=1,
            contributions=[c(1, 1000), c(2, 3000), c(3, 3000)],
            high=[[2], [3], [1]],
            low=[[1]],
        )
    )

    assert awards(result, "main pot") == {1: 1500, 2: 1500}
    assert awards(result, "side pot 1") == {2: 4000}


def test_uncalled_bet_is_returned_as_a_pot_of_its_own() -> None:
    # Seat 1 shoves 5,000 into seat 2's 2,000 all-in: 3,000 was never called.
    result = split_pot(
        PotInput(
            game="flop",
            odd_chip_unit=100,
            button=2,
            contributions=[c(1, 5000), c(2, 2000), c(3, 200, folded=True)],
            high=[[2], [1]],
        )
    )

    uncalled = result.pots[0]
    assert (uncalled.kind, uncalled.amount, uncalled.eligible) == ("uncalled", 3000, (1,))
    assert "goes back" in uncalled.note
    assert awards(result, "main pot") == {2: 4200}
    assert totals(result) == {1: 3000, 2: 4200, 3: 0}


def test_a_bet_everybody_folds_to_wins_the_pot_and_comes_back() -> None:
    result = split_pot(
        PotInput(
            game="flop",
            odd_chip_unit=100,
            button=3,
            contributions=[c(1, 100, folded=True), c(2, 1200), c(3, 200, folded=True)],
            high=[[2]],
        )
    )

    assert [(p.kind, p.amount) for p in result.pots] == [("uncalled", 1000), ("main", 500)]
    assert totals(result) == {1: 0, 2: 1500, 3: 0}


def test_folded_chips_do_not_start_a_pot_of_their_own() -> None:
    # Seat 4 folded with 300 after seat 1 went all-in for 1,000: one pot for 1, 2 and 3.
    result = split_pot(
        PotInput(
            game="flop",
            odd_chip_unit=100,
            button=1,
            contributions=[c(1, 1000), c(2, 1000), c(3, 1000), c(4, 300, folded=True)],
            high=[[3], [1, 2]],
        )
    )

    assert [(p.name, p.amount) for p in result.pots] == [("main pot", 3300)]


def test_result_encodes_to_json_for_the_screens() -> None:
    result = split_pot(
        PotInput(
            game="flop",
            odd_chip_unit=100,
            button=2,
            contributions=[c(1, 5000), c(2, 2000)],
            high=[[2], [1]],
        )
    )

    data = msgspec.json.decode(msgspec.json.encode(result))
    assert data["totals"] == [{"seat": 1, "amount": 3000}, {"seat": 2, "amount": 4000}]
    assert msgspec.json.decode(msgspec.json.encode(result), type=PotResult) == result


def test_input_decodes_from_json_with_seat_keys_for_the_high_cards() -> None:
    raw = (
        b'{"game": "stud", "odd_chip_unit": 5, "high": [[2, 4]], "high_cards": {"2": "Kh",'
        b' "4": "Ks"}, "contributions": [{"seat": 2, "contributed": 105},'
        b' {"seat": 4, "contributed": 105}, {"seat": 6, "contributed": 105, "folded": true}]}'
    )
    pot = msgspec.json.decode(raw, type=PotInput)

    assert totals(split_pot(pot)) == {2: 155, 4: 160, 6: 0}
    assert msgspec.json.decode(msgspec.json.encode(pot), type=PotInput) == pot


# --- refusals --------------------------------------------------------------------------------

_GOOD: dict[str, Any] = {
    "game": "flop",
    "odd_chip_unit": 25,
    "button": 1,
    "contributions": [c(1, 100), c(2, 100), c(3, 100, folded=True)],
    "high": [[1], [2]],
}


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"odd_chip_unit": 0}, "odd_chip_unit"),
        ({"contributions": []}, "contributions"),
        ({"contributions": [c(1, 100), c(2, 100), c(3, -25)]}, "contributions[2].contributed"),
        ({"contributions": [c(1, 100), c(2, 100), c(1, 100)]}, "contributions[2].seat"),
        ({"contributions": [c(0, 100), c(2, 100)]}, "contributions[0].seat"),
        ({"contributions": [c(1, 100), c(2, 110)]}, "contributions[1].contributed"),
        ({"contributions": [c(1, 100, folded=True), c(2, 100, folded=True)]}, "contributions"),
        ({"high": [[1], [2], [3]]}, "high"),  # more winners than players still in
        ({"high": [[1], [7]]}, "high[1][0]"),  # not in the hand
        ({"high": [[1, 3]]}, "high[0][1]"),  # folded
        ({"high": [[1], [1]]}, "high[1][0]"),  # ranked twice
        ({"high": [[1]]}, "high"),  # leaves out seat 2
        ({"high": [[1], [], [2]]}, "high[1]"),
        ({"low": [[1]]}, "low"),  # hold'em has no low
        ({"button": None}, "button"),
        ({"button": 0}, "button"),
        ({"high_cards": {1: "As"}}, "high_cards"),
        ({"total": 325}, "total"),  # the contributions add up to 300
    ],
)
def test_bad_pot_is_refused_naming_the_field(change: dict[str, Any], field: str) -> None:
    with pytest.raises(RuleError) as refused:
        split_pot(PotInput(**{**_GOOD, **change}))

    assert refused.value.field == field


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"game": "flop_hilo", "low": [[2], [3]]}, "low[1][0]"),  # folded seat has no low
        ({"game": "flop_hilo", "low": [[2, 2]]}, "low[0][1]"),
        ({"game": "stud", "button": 1}, "button"),
        ({"game": "stud", "button": None, "high_cards": {1: "As", 9: "Kd"}}, "high_cards[9]"),
        ({"game": "stud", "button": None, "high_cards": {1: "1s"}}, "high_cards[1]"),
        ({"game": "stud", "button": None, "high_cards": {1: "As", 2: "As"}}, "high_cards"),
    ],
)
def test_bad_hilo_or_stud_pot_is_refused_naming_the_field(
    change: dict[str, Any], field: str
) -> None:
    with pytest.raises(RuleError) as refused:
        split_pot(PotInput(**{**_GOOD, **change}))

    assert refused.value.field == field


def test_contributions_that_do_not_add_up_to_the_pot_counted_are_refused() -> None:
    with pytest.raises(RuleError) as refused:
        split_pot(PotInput(**{**_GOOD, "total": 9_500}))

    assert refused.value.field == "total"
    assert refused.value.message == "the contributions add up to 300, not the 9,500 in the pot"
    assert split_pot(PotInput(**{**_GOOD, "total": 300})).pots


def test_stud_odd_chip_without_the_tied_players_cards_is_refused() -> None:
    pot = PotInput(
        game="stud",
        odd_chip_unit=5,
        contributions=[c(2, 105), c(4, 105), c(6, 105, folded=True)],
        high=[[2, 4]],
        high_cards={2: "Kh"},
    )

    with pytest.raises(RuleError, match="seat 4") as refused:
        split_pot(pot)
    assert refused.value.field == "high_cards"


def test_chips_that_only_folded_players_put_in_are_refused() -> None:
    # Seats 2 and 3 both folded with more in than the only player left: nobody can win it.
    pot = PotInput(
        game="flop",
        odd_chip_unit=100,
        button=1,
        contributions=[c(1, 300), c(2, 500, folded=True), c(3, 500, folded=True)],
        high=[[1]],
    )

    with pytest.raises(RuleError) as refused:
        split_pot(pot)
    assert refused.value.field == "contributions"


# --- properties ------------------------------------------------------------------------------


@st.composite
def rankings(draw: st.DrawFn, players: list[int]) -> list[list[int]]:
    """The players in a random order, neighbours tied at random."""
    groups: list[list[int]] = []
    for seat in draw(st.permutations(players)):
        tied = draw(st.booleans())
        if groups and tied:
            groups[-1].append(seat)
        else:
            groups.append([seat])
    return groups


@st.composite
def showdowns(draw: st.DrawFn) -> PotInput:
    """A random hand: 1-10 players, any contributions, a random ranking of those still in."""
    game: GameKind = draw(st.sampled_from(["flop", "stud", "flop_hilo", "stud_hilo"]))
    unit = draw(st.sampled_from([1, 5, 25, 100]))
    seats = draw(st.lists(st.integers(1, 10), min_size=1, max_size=10, unique=True))
    chips = draw(st.lists(st.integers(0, 400), min_size=len(seats), max_size=len(seats)))
    folded = draw(st.lists(st.booleans(), min_size=len(seats), max_size=len(seats)))
    # Every layer somebody paid into needs a live player who paid it too (else the hand is
    # refused): the biggest contributor is live, as the player nobody folded against is.
    folded[max(range(len(seats)), key=lambda i: chips[i])] = False
    contributions = [
        Contribution(seat=s, contributed=n * unit, folded=f)
        for s, n, f in zip(seats, chips, folded, strict=True)
    ]
    live = [x.seat for x in contributions if not x.folded]
    high = draw(rankings(live))
    low = None
    if game in ("flop_hilo", "stud_hilo"):
        low = draw(rankings(draw(st.lists(st.sampled_from(live), unique=True))))
    cards = None
    button = None
    if game in ("stud", "stud_hilo"):
        dealt = draw(st.permutations(DECK))
        cards = {s: dealt[i] for i, s in enumerate(seats)}
    else:
        button = draw(st.integers(1, 10))
    return PotInput(
        game=game,
        odd_chip_unit=unit,
        button=button,
        contributions=contributions,
        high=high,
        low=low,
        high_cards=cards,
    )


@given(showdowns())
def test_every_chip_put_in_is_awarded_once(pot: PotInput) -> None:
    result = split_pot(pot)

    put_in = sum(x.contributed for x in pot.contributions)
    assert sum(a.amount for a in result.totals) == put_in
    assert sum(p.amount for p in result.pots) == put_in
    for p in result.pots:
        assert sum(a.amount for a in p.awards) == p.amount
        assert all(a.amount % pot.odd_chip_unit == 0 for a in p.awards)


@given(showdowns())
def test_folded_players_get_back_only_an_uncalled_bet(pot: PotInput) -> None:
    result = split_pot(pot)

    folded = {x.seat for x in pot.contributions if x.folded}
    for p in result.pots:
        if p.kind != "uncalled":
            assert not folded & set(p.eligible)


@given(showdowns())
def test_tied_winners_of_one_split_differ_by_at_most_one_odd_chip(pot: PotInput) -> None:
    assume(pot.game not in ("flop_hilo", "stud_hilo"))
    result = split_pot(pot)

    for p in result.pots:
        amounts = [a.amount for a in p.awards]
        assert max(amounts) - min(amounts) <= pot.odd_chip_unit
