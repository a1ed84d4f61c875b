"""The money (floor/engine/money.py): the bubble's bursting as a public fact the screens show
for a while, taken back with an undo; a player's place and prize once out or as the winner,
a shared place split with its odd unit to the first in table and seat order (issue 25)."""

from __future__ import annotations

from floor.engine import commands as cmd
from floor.engine.money import MONEY_SECONDS, InTheMoney, PlayerFinish, finish_of, in_the_money
from floor.engine.prize import PayoutRow, Prize
from floor.engine.read.derived import public_facts
from floor.engine.read.follow import me
from floor.engine.rules import Level, Structure
from tests.unit.builders import Floor

#: Six entries of 100 EUR, three places paid: 300, 180, 120.
PRIZE = Prize(
    currency="EUR",
    buy_in=100,
    payouts=(PayoutRow(entries=2, percents=(100,)), PayoutRow(entries=5, percents=(50, 30, 20))),
)


def structure(prize: Prize | None = PRIZE) -> Structure:
    levels = (Level(small_blind=25, big_blind=50, minutes=20),)
    return Structure(name="money", starting_stack=10_000, chips=(25,), levels=levels, prize=prize)


def six(prize: Prize | None = PRIZE) -> Floor:
    floor = Floor({1: "1-6 pos 1/2/3"}, structure=structure(prize))
    floor.now = 1_000.0
    return floor


def finish(floor: Floor, player: str) -> PlayerFinish | None:
    return finish_of(floor.t, floor.t.player(player))


def test_the_bubble_bursts_with_the_last_unpaid_player_and_an_undo_takes_it_back() -> None:
    floor = six()
    floor.bust("T1S6", "T1S5")
    assert in_the_money(floor.t) is None  # four left, three paid: the bubble

    floor.now = 1_200.0
    busted = floor.bust("T1S4")

    burst = InTheMoney(places=3, at=1_200.0, until=1_200.0 + MONEY_SECONDS, players=("T1S4",))
    assert in_the_money(floor.t) == burst
    assert public_facts(floor.t, busted).in_the_money == burst
    assert public_facts(floor.t).in_the_money == burst
    floor.now = 1_300.0
    floor.bust("T1S3")
    assert in_the_money(floor.t) == burst  # the moment it burst, whatever came after

    floor.do(cmd.UndoBust(player="T1S3", reason="mistake"))
    floor.do(cmd.UndoBust(player="T1S4", reason="mistake"))
    assert in_the_money(floor.t) is None
    assert public_facts(floor.t).in_the_money is None


def test_a_bubble_shared_in_one_hand_bursts_with_both() -> None:
    floor = six()
    floor.bust("T1S6", "T1S5")
    floor.now = 1_500.0
    floor.do(
        cmd.BustSameHand(
            players=(cmd.Busted(player="T1S4", stack=5_000), cmd.Busted(player="T1S3", stack=5_000))
        )
    )
    got = in_the_money(floor.t)
    assert got is not None
    assert (got.places, got.at, got.players) == (3, 1_500.0, ("T1S3", "T1S4"))
    # They share places 3 and 4: third's 120 split, 60 each.
    assert finish(floor, "T1S3") == PlayerFinish(place=3, tied=2, prize=60, currency="EUR")


def test_no_money_no_bubble_and_a_field_all_paid_has_none_to_burst() -> None:
    free = six(prize=None)
    free.bust("T1S6", "T1S5", "T1S4")
    assert in_the_money(free.t) is None
    assert finish(free, "T1S4") == PlayerFinish(place=4, tied=1, prize=None, currency=None)

    everybody = Prize(currency="EUR", buy_in=100, payouts=(PayoutRow(entries=2, percents=(100,)),))
    small = Floor({1: "1-2 pos 1/1/2"}, structure=structure(everybody))
    assert in_the_money(small.t) is None


def test_a_player_out_and_the_winner_are_told_their_place_and_prize() -> None:
    floor = six()
    floor.bust("T1S6", "T1S5", "T1S4")
    assert finish(floor, "T1S4") == PlayerFinish(place=4, tied=1, prize=0, currency="EUR")
    assert finish(floor, "T1S1") is None  # still playing
    floor.bust("T1S3", "T1S2")
    assert finish(floor, "T1S3") == PlayerFinish(place=3, tied=1, prize=120, currency="EUR")
    assert finish(floor, "T1S2") == PlayerFinish(place=2, tied=1, prize=180, currency="EUR")
    assert finish(floor, "T1S1") == PlayerFinish(place=1, tied=1, prize=300, currency="EUR")

    # The phone following each is sent it.
    settled = floor.t.plan.settled()
    assert me(floor.t, "T1S1", settled).finish == finish(floor, "T1S1")
    assert me(floor.t, "T1S4", settled).finish == finish(floor, "T1S4")


def test_a_shared_prize_gives_its_odd_unit_to_the_first_in_table_and_seat_order() -> None:
    # Six entries of 105 EUR: 630 pays 315, 189, 126; second and third shared: 315 over two.
    odd = Prize(
        currency="EUR",
        buy_in=105,
        payouts=(
            PayoutRow(entries=2, percents=(100,)),
            PayoutRow(entries=5, percents=(50, 30, 20)),
        ),
    )
    floor = Floor({1: "1-6 pos 1/2/3"}, structure=structure(odd))
    floor.bust("T1S6", "T1S5", "T1S4")
    floor.do(
        cmd.BustSameHand(
            players=(cmd.Busted(player="T1S3", stack=5_000), cmd.Busted(player="T1S2", stack=5_000))
        )
    )
    assert finish(floor, "T1S2") == PlayerFinish(place=2, tied=2, prize=158, currency="EUR")
    assert finish(floor, "T1S3") == PlayerFinish(place=2, tied=2, prize=157, currency="EUR")
