"""A knockout's bounties in a deal at the final table (issue 27.3): in (their sum added to what is
shared out, by chips in an ICM or chip-chop deal, off the heads) or out (left to be won, or each
player's own in a deal that ends the tournament); the deal's records, the results and the
bounty book show it; an undone deal puts every bounty back on its head."""

from __future__ import annotations

import msgspec
import pytest

from floor.engine import bounty_facts, deal
from floor.engine import commands as cmd
from floor.engine.deal import chip_chop, icm, in_units
from floor.engine.errors import NotAllowed
from floor.engine.events import DealMade, DealProposed, PlayerBusted
from floor.engine.fold.bounty import head
from floor.engine.prize import Prize
from floor.engine.read.views import results
from floor.engine.rules import Level, Structure
from floor.engine.state import Tournament
from floor.engine.validate import InvalidEvent, replay
from floor.exports.results import result_rows, results_csv
from tests.unit.builders import Floor

AGREED = ("T1S1", "T1S2", "T1S3")


def prize(kind: str = "progressive") -> Prize:
    bounty = {"kind": kind, "part": 10}
    if kind == "mystery":
        bounty |= {"envelopes": [[10, 5]], "mystery_from": "level", "mystery_level": 1}
    return msgspec.convert(
        {
            "currency": "EUR",
            "buy_in": 20,
            "payouts": [{"entries": 3, "percents": [50, 30, 20]}],
            **({"bounty": bounty} if kind else {}),
        },
        Prize,
    )


def three_left(kind: str = "progressive") -> Floor:
    """Five entries of 20, 10 of each to bounties (a prize pool of 50: 25/15/10); seat 5
    knocked out by seat 1, seat 4 by seat 2 (each bounty 10: 5 paid, 5 added); the three
    left counted at 3,000 / 5,000 / 2,000 with 15 / 15 / 10 on their heads."""
    s = Structure(
        name="test",
        starting_stack=2_000,
        chips=(25, 100),
        levels=(Level(small_blind=25, big_blind=50, minutes=20),),
        prize=prize(kind),
    )
    floor = Floor({1: "1-5 pos 1/2/3"}, structure=s)
    floor.do(cmd.ClockStart(), now=0.0)
    floor.do(cmd.Bust(player="T1S5", eliminators=("T1S1",)), cmd.Hand(table=1), now=10.0)
    floor.do(cmd.Bust(player="T1S4", eliminators=("T1S2",)), cmd.Hand(table=1), now=20.0)
    stacks = (("T1S1", 3000), ("T1S2", 5000), ("T1S3", 2000))
    floor.do(
        cmd.CountTable(table=1, stacks=tuple(cmd.Count(player=p, stack=n) for p, n in stacks)),
        now=30.0,
    )
    return floor


def offer(floor: Floor, bounties: str, method: str = "icm", left: int = 0) -> DealProposed:
    (e,) = floor.do(
        cmd.ProposeDeal(method=method, left_to_play=left, bounties=bounties),  # type: ignore[arg-type]
        now=40.0,
    )
    assert isinstance(e, DealProposed)
    return e


def heads(t: Tournament) -> dict[str, int]:
    s = t.state
    assert s.structure is not None and s.structure.prize is not None
    b = s.structure.prize.bounty
    assert b is not None
    return {pid: head(p, b) for pid, p in s.players.items() if not p.busted}


def whole(t: Tournament) -> None:
    """Won plus on heads plus unclaimed plus dealt make the bounty pool."""
    f = bounty_facts.facts(t)
    assert f is not None
    assert f.left == sum(heads(t).values()) if t.state.winner is None else True
    assert f.won + f.left + f.unclaimed + f.dealt == f.pool == 50


def test_the_bounties_in_are_added_to_what_is_shared_out_by_chips() -> None:
    floor = three_left()
    assert heads(floor.t) == {"T1S1": 15, "T1S2": 15, "T1S3": 10}
    facts = deal.facts(floor.t)
    assert facts is not None and facts.bounties == 40
    for method, share in (("icm", icm), ("chip_chop", chip_chop)):
        e = offer(floor, "in", method)
        assert e.bounties == 40 and e.prizes == (25, 15, 10)
        assert sum(x.amount for x in e.shares) == 50 + 40
        # The prizes by the method, the bounties by chips (5,000 / 3,000 / 2,000).
        stacks = [5000, 3000, 2000]
        exact = [
            x + 40 * n / 10_000 for x, n in zip(share(stacks, [25, 15, 10]), stacks, strict=True)
        ]
        assert [x.amount for x in e.shares] == in_units(exact, 90, 1)
    out = offer(floor, "out", "chip_chop")
    assert out.bounties == 0 and [x.amount for x in out.shares] == [20, 16, 14]


def test_a_deal_with_the_bounties_in_takes_them_off_the_heads() -> None:
    floor = three_left()
    offer(floor, "in", "chip_chop")
    (made,) = [
        e for e in floor.do(cmd.MakeDeal(agreed=AGREED), now=50.0) if isinstance(e, DealMade)
    ]
    assert made.bounties == 40 and made.ends
    book = floor.t.state.bounties
    assert book is not None and book.dealt == 40
    f = bounty_facts.facts(floor.t)
    assert f is not None and (f.left, f.dealt, f.won) == (0, 40, 10)
    whole(floor.t)
    # The shares paid are the deal's, the bounties in them; what each put in is in the file.
    got = {r.player: (r.prize, r.bounty, r.deal_bounties) for r in result_rows(floor.t)}
    shares = {x.player: x.amount for x in made.shares}
    assert got["T1S1"] == (shares["T1S1"], 5, 15)
    assert got["T1S3"] == (shares["T1S3"], 0, 10)
    assert got["T1S5"] == (0, 0, 0)
    lines = results_csv(floor.t).decode().splitlines()
    assert lines[0].endswith(",deal,bounties,deal_bounties")
    assert msgspec.msgpack.encode(replay(floor.log).state) == floor.snapshot()


def test_with_the_bounties_out_an_ending_deal_leaves_each_their_own() -> None:
    floor = three_left()
    offer(floor, "out")
    floor.do(cmd.MakeDeal(agreed=AGREED), now=50.0)
    won = {r.player: r.bounty for r in results(floor.t)}
    # 15, 15 and 10 of their own, beside the 5 each of seat 1 and 2 won in play.
    assert (won["T1S1"], won["T1S2"], won["T1S3"]) == (20, 20, 10)
    assert "deal_bounties" not in results_csv(floor.t).decode().splitlines()[0]
    whole(floor.t)


def test_a_deal_that_plays_on_with_the_bounties_in_leaves_none_to_win() -> None:
    floor = three_left()
    offer(floor, "in", left=5)
    floor.do(cmd.MakeDeal(agreed=AGREED), now=50.0)
    assert heads(floor.t) == {"T1S1": 0, "T1S2": 0, "T1S3": 0}
    (e, *_) = floor.do(cmd.Bust(player="T1S3", eliminators=("T1S2",)), now=60.0)
    assert isinstance(e, PlayerBusted) and e.bounty == 0
    assert all(x.cash == 0 and x.added == 0 for x in e.bounty_to)
    whole(floor.t)


@pytest.mark.parametrize("bounties", ["in", "out"])
def test_an_undone_deal_puts_every_bounty_back_on_its_head(bounties: str) -> None:
    # The deal that ended the tournament with the bounties out gave each their own: undone,
    # the old fold left them taken (heads at 0, the book's won counting them).
    floor = three_left()
    offer(floor, bounties)
    floor.do(cmd.MakeDeal(agreed=AGREED), now=50.0)
    floor.do(cmd.UndoDeal(reason="typed wrong"), now=55.0)
    assert heads(floor.t) == {"T1S1": 15, "T1S2": 15, "T1S3": 10}
    book = floor.t.state.bounties
    assert book is not None and (book.won, book.dealt) == (10, 0)
    whole(floor.t)
    assert msgspec.msgpack.encode(replay(floor.log).state) == floor.snapshot()


@pytest.mark.parametrize("kind", ["", "mystery"])
def test_bounties_in_without_knockout_bounties_are_refused_naming_the_field(kind: str) -> None:
    floor = three_left(kind)
    refused = floor.refuse(cmd.ProposeDeal(method="icm", bounties="in"), NotAllowed, "bounties")
    assert refused.reason == "deal_bounties_none"
    facts = deal.facts(floor.t)
    assert facts is not None and facts.bounties is None


def test_custom_shares_add_up_to_the_prizes_and_the_bounties_in() -> None:
    floor = three_left()
    short = tuple(
        cmd.DealAmount(player=p, amount=a) for p, a in zip(AGREED, (20, 20, 10), strict=True)
    )
    refused = floor.refuse(
        cmd.ProposeDeal(method="custom", bounties="in", shares=short), NotAllowed, "shares"
    )
    assert refused.reason == "deal_shares_total" and refused.params["expected"] == 90
    whole_shares = tuple(
        cmd.DealAmount(player=p, amount=a) for p, a in zip(AGREED, (35, 35, 20), strict=True)
    )
    e = floor.do(cmd.ProposeDeal(method="custom", bounties="in", shares=whole_shares))
    assert isinstance(e[0], DealProposed) and e[0].bounties == 40


def test_a_log_whose_deal_holds_other_bounties_does_not_import() -> None:
    floor = three_left()
    offer(floor, "in")
    floor.do(cmd.MakeDeal(agreed=AGREED), now=50.0)
    made = floor.log[-1]
    assert isinstance(made, DealMade)
    forged = msgspec.structs.replace(
        made,
        bounties=30,
        shares=(
            msgspec.structs.replace(made.shares[0], amount=made.shares[0].amount - 10),
            *made.shares[1:],
        ),
    )
    with pytest.raises(InvalidEvent) as caught:
        replay([*floor.log[:-1], forged])
    assert "bounties" in str(caught.value)
