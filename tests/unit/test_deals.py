"""Deals at the final table (issue 27, part 3): ICM and chip-chop shares of the prizes left,
an amount kept back to play for, each player's agreement, and the tournament ended by the
deal (places by chips at it) or played on for what is left; what the payouts then show."""

from __future__ import annotations

from fractions import Fraction
from itertools import pairwise

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from floor.engine import commands as cmd
from floor.engine import finish
from floor.engine.deal import chip_chop, icm, in_units
from floor.engine.errors import NotAllowed
from floor.engine.events import DealMade, DealProposed, DealShare, Event, HandStarted
from floor.engine.money import finish_of
from floor.engine.prize import PayoutRow, Prize
from floor.engine.read.views import results
from floor.engine.rules import Level, Structure
from floor.engine.validate import InvalidEvent, replay
from floor.exports.results import hendon_csv, results_csv
from tests.unit.builders import Floor
from tests.unit.test_error_codes import assert_said

PRIZE = Prize(
    currency="EUR",
    buy_in=20,
    payouts=(PayoutRow(entries=3, percents=(50, 30, 20)),),
)
STRUCTURE = Structure(
    name="test",
    starting_stack=2_000,
    chips=(25, 100),
    levels=(Level(small_blind=25, big_blind=50, minutes=20),),
    prize=PRIZE,
)


def cents(xs: list[Fraction]) -> list[float]:
    return [round(float(x), 2) for x in xs]


# The shares, worked out --------------------------------------------------------------------


def test_icm_of_the_issue_s_figures() -> None:
    assert cents(icm([5000, 3000, 2000], [50, 30, 20])) == [38.39, 32.75, 28.86]


def test_chip_chop_gives_each_the_lowest_prize_and_splits_the_rest_by_chips() -> None:
    assert chip_chop([5000, 3000, 2000], [50, 30, 20]) == [40, 32, 28]


def test_icm_of_equal_stacks_is_an_even_split_and_a_dead_stack_takes_the_last_prize() -> None:
    assert icm([100, 100, 100, 100], [40, 30, 20, 10]) == [25, 25, 25, 25]
    # Fewer prizes than players: the places beyond them pay nothing.
    assert sum(icm([300, 200, 100], [60, 40])) == 100


stacks = st.lists(st.integers(min_value=1, max_value=10_000_000), min_size=2, max_size=9)
prize_lists = st.lists(st.integers(min_value=0, max_value=1_000_000), min_size=1, max_size=9)


@settings(max_examples=60, deadline=None)
@given(stacks, prize_lists, st.sampled_from([1, 5, 100]))
def test_shares_add_up_to_the_prizes_in_the_deal(
    chips: list[int], prizes: list[int], unit: int
) -> None:
    prizes = sorted(prizes, reverse=True)
    in_deal = sum(prizes[: len(chips)])
    for shares in (icm(chips, prizes), chip_chop(chips, prizes)):
        assert sum(shares) == in_deal
        assert all(x >= 0 for x in shares)
        money = in_units(shares, in_deal, unit)
        assert sum(money) == in_deal
        assert all(x >= 0 for x in money)
    # A bigger stack never gets less.
    ranked = sorted(range(len(chips)), key=lambda i: chips[i])
    equity = icm(chips, prizes)
    assert all(equity[a] <= equity[b] for a, b in pairwise(ranked))


# At the final table --------------------------------------------------------------------------


def three_left(counted: bool = True) -> Floor:
    """Five entries of 20 (a pool of 100: 50/30/20), two out, the three left counted at
    5,000/3,000/2,000 after the last hand."""
    floor = Floor({1: "1-5 pos 1/2/3"}, structure=STRUCTURE)
    floor.do(cmd.ClockStart(), now=0.0)
    floor.do(cmd.Bust(player="T1S5"), cmd.Hand(table=1), now=10.0)
    floor.do(cmd.Bust(player="T1S4"), cmd.Hand(table=1), now=20.0)
    if counted:
        count(floor, 30.0)
    return floor


def count(floor: Floor, now: float, at: float | None = None) -> None:
    stacks = (("T1S1", 3000), ("T1S2", 5000), ("T1S3", 2000))
    floor.do(
        cmd.CountTable(
            table=1,
            stacks=tuple(cmd.Count(player=p, stack=s) for p, s in stacks),
            at=at,
        ),
        now=now,
    )


def offered(floor: Floor, method: str = "icm", left: int = 0) -> DealProposed:
    (event,) = floor.do(cmd.ProposeDeal(method=method, left_to_play=left), now=40.0)  # type: ignore[arg-type]
    assert isinstance(event, DealProposed)
    return event


AGREED = ("T1S1", "T1S2", "T1S3")


def test_an_icm_deal_offered_on_the_counted_stacks_biggest_first() -> None:
    floor = three_left()

    offer = offered(floor)

    assert offer.prizes == (50, 30, 20)
    # 38.39 / 32.75 / 28.86 in whole euros: the two units rounding leaves go to the largest
    # remainders.
    assert offer.shares == (
        DealShare(player="T1S2", stack=5000, amount=38),
        DealShare(player="T1S1", stack=3000, amount=33),
        DealShare(player="T1S3", stack=2000, amount=29),
    )
    assert floor.t.state.deal_offer == offer


def test_a_chip_chop_offered() -> None:
    floor = three_left()
    assert [x.amount for x in offered(floor, "chip_chop").shares] == [40, 32, 28]


def test_a_deal_that_ends_the_tournament_places_by_chips_and_pays_the_shares() -> None:
    floor = three_left()
    offered(floor, "chip_chop")

    events = floor.do(cmd.MakeDeal(agreed=AGREED), now=50.0)

    made = events[-1]
    assert isinstance(made, DealMade) and made.ends and made.agreed == ("T1S2", "T1S1", "T1S3")
    s = floor.t.state
    assert finish.status(s) == "finished" and s.winner == "T1S2"
    assert not s.clock.running
    got = [(r.place, r.player, r.prize, r.deal) for r in results(floor.t)]
    assert got == [
        (1, "T1S2", 40, True),
        (2, "T1S1", 32, True),
        (3, "T1S3", 28, True),
        (4, "T1S4", 0, False),
        (5, "T1S5", 0, False),
    ]
    mine = finish_of(floor.t, s.players["T1S1"])
    assert mine is not None and (mine.place, mine.prize) == (2, 32)
    # No bust-out after a deal that placed everybody; the close stands as before.
    refused = floor.refuse(cmd.Bust(player="T1S3"), NotAllowed, None)
    assert refused.reason == "tournament_finished"
    floor.do(cmd.CloseTournament(), now=60.0)
    # The log replays to the same state, and the files show the deal.
    assert msgspec.msgpack.encode(replay(floor.log).state) == floor.snapshot()
    assert "deal" in results_csv(floor.t).decode().splitlines()[0]
    assert any(
        ",40," in line or line.endswith(",40") for line in hendon_csv(floor.t).decode().splitlines()
    )


def test_a_deal_that_plays_on_pays_what_was_left_to_the_winner() -> None:
    floor = three_left()
    offer = offered(floor, "icm", left=10)
    # 10 kept back from the top prize: 40/30/20 shared out, 90 in all.
    assert offer.prizes == (50, 30, 20) and sum(x.amount for x in offer.shares) == 90

    floor.do(cmd.MakeDeal(agreed=AGREED), now=50.0)
    assert finish.status(floor.t.state) == "live"
    floor.do(cmd.Bust(player="T1S2"), cmd.Hand(table=1), now=60.0)
    floor.do(cmd.Bust(player="T1S3"), now=70.0)

    shares = {x.player: x.amount for x in offer.shares}
    got = {r.player: (r.place, r.prize) for r in results(floor.t) if r.deal}
    assert got == {
        "T1S1": (1, shares["T1S1"] + 10),
        "T1S3": (2, shares["T1S3"]),
        "T1S2": (3, shares["T1S2"]),
    }
    assert sum(r.prize for r in results(floor.t)) == 100


def test_shares_that_do_not_add_up_are_refused_naming_the_field() -> None:
    floor = three_left()
    bad = cmd.ProposeDeal(
        method="custom",
        shares=(
            cmd.DealAmount(player="T1S1", amount=40),
            cmd.DealAmount(player="T1S2", amount=40),
            cmd.DealAmount(player="T1S3", amount=30),
        ),
    )
    refused = floor.refuse(bad, NotAllowed, "shares")
    assert_said(refused, "deal_shares_total", {"total": 110, "expected": 100})

    good = msgspec.structs.replace(
        bad, shares=(*bad.shares[:2], cmd.DealAmount(player="T1S3", amount=20))
    )
    (offer,) = floor.do(good, now=40.0)
    assert isinstance(offer, DealProposed) and [x.amount for x in offer.shares] == [40, 40, 20]


def test_a_player_missing_or_not_in_the_deal_is_refused() -> None:
    floor = three_left()
    two = (cmd.DealAmount(player="T1S1", amount=50), cmd.DealAmount(player="T1S2", amount=50))
    refused = floor.refuse(cmd.ProposeDeal(method="custom", shares=two), NotAllowed, "shares")
    assert_said(refused, "deal_share_missing", {"player": "T1S3"})
    out = (*two, cmd.DealAmount(player="T1S4", amount=0))
    refused = floor.refuse(
        cmd.ProposeDeal(method="custom", shares=out), NotAllowed, "shares[2].player"
    )
    assert_said(refused, "deal_share_player", {"player": "T1S4"})


def test_every_player_must_agree() -> None:
    floor = three_left()
    offered(floor)
    refused = floor.refuse(cmd.MakeDeal(agreed=("T1S1", "T1S2")), NotAllowed, "agreed")
    assert_said(refused, "deal_not_agreed", {"player": "T1S3"})


def test_counts_older_than_the_last_hand_are_refused() -> None:
    floor = three_left(counted=False)
    # Counted at 15, before the hand reported at 20.
    count(floor, 25.0, at=15.0)
    refused = floor.refuse(cmd.ProposeDeal(method="icm"), NotAllowed, "type")
    assert refused.reason == "deal_count_old"


def test_stacks_never_counted_are_refused() -> None:
    floor = three_left(counted=False)
    refused = floor.refuse(cmd.ProposeDeal(method="icm"), NotAllowed, "type")
    assert refused.reason == "deal_not_counted"


def test_a_deal_away_from_the_final_table_is_refused() -> None:
    floor = Floor({1: "1-5 pos 1/2/3", 2: "1-5 pos 1/2/3"}, structure=STRUCTURE)
    refused = floor.refuse(cmd.ProposeDeal(method="icm"), NotAllowed, "type")
    assert_said(refused, "deal_not_final", {"left": 10})


def test_more_left_to_play_for_than_the_top_prize_over_the_lowest_is_refused() -> None:
    floor = three_left()
    refused = floor.refuse(
        cmd.ProposeDeal(method="icm", left_to_play=31), NotAllowed, "left_to_play"
    )
    assert_said(refused, "deal_left_too_much", {"left": 31, "most": 30})


def test_an_offer_made_stale_by_a_new_count_is_refused() -> None:
    floor = three_left()
    offered(floor, left=10)
    floor.do(cmd.CountTable(table=1, stacks=(cmd.Count(player="T1S3", stack=2100),)), now=45.0)
    refused = floor.refuse(cmd.MakeDeal(agreed=AGREED), NotAllowed, "type")
    assert_said(refused, "deal_no_offer", {})


def test_a_log_with_a_deal_whose_shares_do_not_add_up_does_not_import() -> None:
    floor = three_left()
    offer = offered(floor)
    bad = msgspec.structs.replace(
        offer, shares=(*offer.shares[:2], DealShare(player="T1S3", stack=2000, amount=1))
    )
    with pytest.raises(InvalidEvent):
        replay([*floor.log[:-1], bad])


def test_old_logs_decode_without_a_hand_s_time() -> None:
    raw = b'{"type":"hand_started","table":1,"hand":2,"positions":null}'
    e = msgspec.json.decode(raw, type=Event)
    assert isinstance(e, HandStarted) and e.at is None
