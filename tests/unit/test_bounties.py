"""Bounties (issue 27, part 1): knockout and progressive knockout, the bounty part taken out
before the prize pool, a bust-out naming who won the pot, split pots, several out in one hand,
undo, payments at the table or the cashier; bounties paid plus bounties left equal the bounty
pool at every moment."""

from __future__ import annotations

import random
from pathlib import Path

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from floor import config
from floor.engine import bounty_facts
from floor.engine import commands as cmd
from floor.engine.bounty_rules import Bounty, BountyShare, clockwise, halves, split
from floor.engine.errors import ConfigError, NotAllowed, RuleError, UnknownPlayer
from floor.engine.events import (
    BountyPaid,
    BustUndone,
    Event,
    PlayerBusted,
    TournamentCreated,
    TournamentFinished,
)
from floor.engine.fold.bounty import head
from floor.engine.prize import Prize, bounty_pool, payouts
from floor.engine.read.views import results
from floor.engine.rules import Level, Structure
from floor.engine.state import Tournament
from floor.engine.validate import replay
from floor.exports.results import results_csv
from tests.browser.tournaments import BOUNTY, play
from tests.unit.builders import Floor


def prize(kind: str = "knockout", paid_at: str = "table", **more: object) -> Prize:
    return msgspec.convert(
        {
            "currency": "EUR",
            "buy_in": 200,
            "round_to": 5,
            "payouts": [{"entries": 2, "percents": [60, 40]}],
            "bounty": {"kind": kind, "part": 100, "paid_at": paid_at},
            **more,
        },
        Prize,
    )


def structure(p: Prize) -> Structure:
    return Structure(
        name="test",
        starting_stack=10_000,
        chips=(25, 100),
        levels=(Level(small_blind=25, big_blind=50, minutes=20),),
        prize=p,
    )


def floor_of(p: Prize, tables: dict[int, str] | None = None) -> Floor:
    return Floor(tables or {1: "1-9 pos 3/4/5"}, structure=structure(p))


def bounty_of(floor: Floor, pid: str) -> tuple[int, int, int]:
    """(on their head, won, paid)."""
    p = floor.t.state.players[pid]
    s = floor.t.state.structure
    assert s is not None and s.prize is not None and s.prize.bounty is not None
    r = p.bounty
    return (head(p, s.prize.bounty), r.won if r else 0, r.paid if r else 0)


def accounted(t: Tournament) -> None:
    """Bounties won plus those still on heads plus the unclaimed make the bounty pool."""
    s = t.state
    assert s.structure is not None and s.structure.prize is not None
    b = s.structure.prize.bounty
    assert b is not None
    pool = bounty_pool(s.structure.prize, s.entries, s.rebuys, s.add_ons)
    left = sum(head(p, b) for p in s.players.values() if not p.busted)
    book = s.bounties
    won = book.won if book else 0
    unclaimed = book.unclaimed if book else 0
    assert won + left + unclaimed == pool, (won, left, unclaimed, pool)
    # What a player won stays won when their entry is withdrawn later (unregistered): the
    # book keeps it, the player's record leaves with them.
    assert won >= sum(p.bounty.won for p in s.players.values() if p.bounty is not None)
    assert all(head(p, b) >= 0 for p in s.players.values())


def replays(floor: Floor) -> None:
    assert msgspec.msgpack.encode(replay(floor.log).state) == floor.snapshot()


# The money ---------------------------------------------------------------------------------


def test_the_bounty_part_is_taken_out_before_the_pool_the_guarantee_and_the_overlay() -> None:
    p = prize(guarantee=2_000)
    pool = payouts(p, 15)
    assert pool.bounties == 1_500
    assert pool.collected == 1_500  # 15 x (200 - 100)
    assert pool.pool == 2_000 and pool.overlay == 500
    # Rebuys and add-ons fund bounties only with a part set for them.
    more = prize(
        rebuy={"price": 200, "chips": 10_000, "until_level": 1},
        add_on={"price": 100, "chips": 5_000, "level": 1},
    )
    assert payouts(more, 10, 2, 3).bounties == 1_000
    both = msgspec.structs.replace(
        more, bounty=Bounty(kind="knockout", part=100, rebuy_part=50, add_on_part=20)
    )
    assert payouts(both, 10, 2, 3).bounties == 1_000 + 100 + 60
    assert payouts(both, 10, 2, 3).collected == 10 * 100 + 2 * 150 + 3 * 80


def test_a_prize_without_bounty_decodes_as_before() -> None:
    p = msgspec.json.decode(
        b'{"currency":"EUR","buy_in":100,"payouts":[{"entries":2,"percents":[100]}]}', type=Prize
    )
    assert p.bounty is None and payouts(p, 4).pool == 400 and payouts(p, 4).bounties == 0


def test_a_bounty_part_bigger_than_the_buy_in_is_refused_naming_it() -> None:
    with pytest.raises(msgspec.ValidationError) as caught:
        prize(bounty={"part": 300})
    assert "bounty.part" in str(caught.value)
    with pytest.raises(msgspec.ValidationError):
        prize(bounty={"part": 100, "kind": "mystery-ish"})


def test_old_bust_out_events_decode_with_no_eliminator() -> None:
    old = b'{"type":"player_busted","player":"a","table":1,"seat":2,"hand":0,"place":9}'
    e = msgspec.json.decode(old, type=Event)
    assert isinstance(e, PlayerBusted) and e.eliminators == () and e.bounty_to == ()
    undo = msgspec.json.decode(
        b'{"type":"bust_undone","player":"a","table":1,"seat":2,"reason":"x"}', type=Event
    )
    assert isinstance(undo, BustUndone) and undo.bounty_from == ()


def test_split_rounds_to_the_unit_the_remainder_to_the_first() -> None:
    assert split(100, 3, 5) == [40, 30, 30]
    assert split(100, 3, 25) == [50, 25, 25]
    assert split(7, 2, 1) == [4, 3]
    assert halves(105, 5) == (50, 55)
    # Clockwise from a button at seat 3 of nine: 4, 6, then 2 (the button's right last).
    assert clockwise([2, 4, 6], 3, 9) == [1, 2, 0]
    assert clockwise([9, 1], 9, 9) == [1, 0]
    assert clockwise([5, 2], None, 9) == [1, 0]


# Knockout ----------------------------------------------------------------------------------


def test_a_knockout_pays_the_whole_bounty_to_the_eliminator_at_the_table() -> None:
    floor = floor_of(prize())
    (e,) = floor.do(cmd.Bust(player="T1S9", eliminators=("T1S1",)))
    assert isinstance(e, PlayerBusted)
    assert e.eliminators == ("T1S1",)
    assert e.bounty == 100 and e.bounty_to == (BountyShare("T1S1", 100, 0, True),)
    assert bounty_of(floor, "T1S1") == (100, 100, 100)
    assert bounty_of(floor, "T1S9") == (0, 0, 0)
    accounted(floor.t)
    replays(floor)


def test_a_split_pot_splits_the_bounty_the_remainder_clockwise_from_the_button() -> None:
    # Button at seat 3: of the winners at seats 2, 4 and 6 the first clockwise is seat 4.
    floor = floor_of(prize(round_to=25))
    (e,) = floor.do(cmd.Bust(player="T1S9", eliminators=("T1S2", "T1S6", "T1S4")))
    assert isinstance(e, PlayerBusted)
    assert e.eliminators == ("T1S4", "T1S6", "T1S2")
    assert [(x.player, x.cash) for x in e.bounty_to] == [("T1S4", 50), ("T1S6", 25), ("T1S2", 25)]
    accounted(floor.t)


# Progressive -------------------------------------------------------------------------------


def test_a_progressive_knockout_pays_half_and_adds_half_to_the_eliminator_s_bounty() -> None:
    floor = floor_of(prize("progressive"))
    floor.do(cmd.Bust(player="T1S9", eliminators=("T1S1",)))
    assert bounty_of(floor, "T1S1") == (150, 50, 50)
    floor.do(cmd.Hand(table=1))
    # The grown bounty is what the next eliminator takes: 75 paid, 75 added.
    floor.do(cmd.Bust(player="T1S1", eliminators=("T1S2",)))
    assert bounty_of(floor, "T1S2") == (175, 75, 75)
    assert bounty_of(floor, "T1S1") == (0, 50, 50)
    accounted(floor.t)
    replays(floor)


def test_the_winner_takes_their_own_bounty_and_an_undo_puts_it_back() -> None:
    floor = floor_of(prize("progressive"), {1: "1-3 pos 1/2/3"})
    floor.do(cmd.Bust(player="T1S3", eliminators=("T1S1",)), cmd.Hand(table=1))
    events = floor.do(cmd.Bust(player="T1S2", eliminators=("T1S1",)))
    assert any(isinstance(e, TournamentFinished) for e in events)
    # Two bounties of 100: 50 + 50 paid in the play, and the 200 left on the winner's head.
    assert bounty_of(floor, "T1S1") == (0, 50 + 50 + 200, 100)
    accounted(floor.t)
    floor.do(cmd.UndoBust(player="T1S2", reason="wrong seat"))
    assert bounty_of(floor, "T1S1") == (150, 50, 50)
    assert bounty_of(floor, "T1S2") == (100, 0, 0)
    accounted(floor.t)
    replays(floor)


def test_several_out_in_one_hand_each_bounty_goes_to_the_winner_of_their_pot() -> None:
    # Seat 8 (1,000) and seat 9 (3,000) all-in: seat 1 wins the main pot (seat 8's), seat 9
    # loses the side pot to seat 2. Seat 8's bounty is seat 1's; seat 9's is seat 2's.
    floor = floor_of(prize("progressive"))
    events = floor.do(
        cmd.BustSameHand(
            players=(
                cmd.Busted(player="T1S8", stack=1_000, eliminators=("T1S1",)),
                cmd.Busted(player="T1S9", stack=3_000, eliminators=("T1S2",)),
            )
        )
    )
    busts = {e.player: e for e in events if isinstance(e, PlayerBusted)}
    assert busts["T1S8"].bounty_to == (BountyShare("T1S1", 50, 50, True),)
    assert busts["T1S9"].bounty_to == (BountyShare("T1S2", 50, 50, True),)
    accounted(floor.t)
    replays(floor)


def test_a_side_pot_winner_out_in_the_same_hand_carries_what_it_added() -> None:
    # Seat 8 (1,000) loses to seat 9 (3,000), who then loses the rest to seat 1: seat 9's
    # bounty, grown by half of seat 8's, is seat 1's.
    floor = floor_of(prize("progressive"))
    events = floor.do(
        cmd.BustSameHand(
            players=(
                cmd.Busted(player="T1S9", stack=3_000, eliminators=("T1S1",)),
                cmd.Busted(player="T1S8", stack=1_000, eliminators=("T1S9",)),
            )
        )
    )
    busts = [e for e in events if isinstance(e, PlayerBusted)]
    assert [e.player for e in busts] == ["T1S8", "T1S9"]
    assert busts[1].bounty == 150 and busts[1].bounty_to == (BountyShare("T1S1", 75, 75, True),)
    assert bounty_of(floor, "T1S9") == (0, 50, 50)
    accounted(floor.t)
    # The other way round is refused: seat 9 out first cannot have won seat 8's pot.
    again = floor_of(prize("progressive"))
    refused = again.refuse(
        cmd.BustSameHand(
            players=(
                cmd.Busted(player="T1S9", stack=1_000, eliminators=("T1S1",)),
                cmd.Busted(player="T1S8", stack=3_000, eliminators=("T1S9",)),
            )
        ),
        NotAllowed,
        "players[1].eliminators[0]",
    )
    # The English names the bust-out the winner went out before, as the template does.
    assert (refused.reason, refused.params) == (
        "bounty_eliminator_out_before",
        {"player": "T1S9", "busted": "T1S8"},
    )
    assert refused.message == "T1S9 is out in this hand before T1S8: they did not win that pot"


# Undo and payment --------------------------------------------------------------------------


def test_an_undone_bust_out_gives_the_bounty_back() -> None:
    floor = floor_of(prize("progressive"))
    floor.do(cmd.Bust(player="T1S9", eliminators=("T1S1", "T1S2")))
    (undo,) = [
        e for e in floor.do(cmd.UndoBust(player="T1S9", reason="x")) if isinstance(e, BustUndone)
    ]
    assert set(undo.bounty_from) == {"T1S1", "T1S2"}
    assert bounty_of(floor, "T1S9") == (100, 0, 0)
    assert bounty_of(floor, "T1S1") == (100, 0, 0) and bounty_of(floor, "T1S2") == (100, 0, 0)
    accounted(floor.t)
    # Corrected: the same bust-out with the right winner.
    floor.do(cmd.Bust(player="T1S9", eliminators=("T1S3",)))
    assert bounty_of(floor, "T1S3") == (150, 50, 50)
    accounted(floor.t)
    replays(floor)


def test_an_undo_is_refused_while_the_winner_of_the_bounty_is_out_since() -> None:
    floor = floor_of(prize())
    floor.do(cmd.Bust(player="T1S9", eliminators=("T1S1",)))
    floor.do(cmd.Bust(player="T1S1", eliminators=("T1S2",)))
    refused = floor.refuse(cmd.UndoBust(player="T1S9", reason="x"), NotAllowed, "player")
    assert refused.reason == "bounty_undo_eliminator_out"
    floor.do(cmd.UndoBust(player="T1S1", reason="x"), cmd.UndoBust(player="T1S9", reason="x"))
    accounted(floor.t)


def test_bounties_paid_at_the_cashier_are_owed_until_paid() -> None:
    floor = floor_of(prize(paid_at="cashier"))
    floor.do(cmd.Bust(player="T1S9", eliminators=("T1S1",)))
    assert bounty_of(floor, "T1S1") == (100, 100, 0)
    (paid,) = floor.do(cmd.PayBounty(player="T1S1", by="cashier"))
    assert paid == BountyPaid(player="T1S1", amount=100, at=0.0, by="cashier")
    assert bounty_of(floor, "T1S1") == (100, 100, 100)
    book = floor.t.state.bounties
    assert book is not None and (book.won, book.paid) == (100, 100)
    refused = floor.refuse(cmd.PayBounty(player="T1S1"), NotAllowed, "player")
    assert refused.reason == "bounty_nothing_owed"
    replays(floor)


def test_a_disqualification_leaves_the_bounty_unclaimed() -> None:
    floor = floor_of(prize())
    floor.do(cmd.Bust(player="T1S9"))
    book = floor.t.state.bounties
    assert book is not None and book.unclaimed == 100 and book.won == 0
    accounted(floor.t)


# Refusals ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("named", "error", "field", "reason"),
    [
        (("T1S9",), NotAllowed, "eliminators[0]", "bounty_eliminator_self"),
        (("T1S1", "T1S1"), NotAllowed, "eliminators[1]", "bounty_eliminator_twice"),
        (("T2S1",), NotAllowed, "eliminators[0]", "bounty_eliminator_elsewhere"),
        (("T1S8",), NotAllowed, "eliminators[0]", "bounty_eliminator_out"),
        (("nobody",), UnknownPlayer, "eliminators[0]", "player_unknown"),
    ],
)
def test_a_bad_eliminator_is_refused_naming_the_field(
    named: tuple[str, ...], error: type[RuleError], field: str, reason: str
) -> None:
    floor = floor_of(prize(), {1: "1-9 pos 3/4/5", 2: "1-9"})
    floor.do(cmd.Bust(player="T1S8", eliminators=("T1S1",)))
    refused = floor.refuse(cmd.Bust(player="T1S9", eliminators=named), error, field)
    assert refused.reason == reason


def test_paying_a_bounty_in_a_tournament_without_bounties_is_refused() -> None:
    floor = Floor({1: "1-9"})
    assert floor.refuse(cmd.PayBounty(player="T1S1"), NotAllowed, "type").reason == "bounty_none"


def test_the_bounty_cannot_change_once_entries_are_sold() -> None:
    floor = floor_of(prize())
    floor.do(cmd.Register(player="late", name="Late"))
    changed = msgspec.structs.replace(prize(), bounty=Bounty(kind="progressive", part=100))
    refused = floor.refuse(cmd.SetPrize(prize=changed), NotAllowed, "prize")
    assert refused.reason == "prize_entries_sold"


def test_without_bounties_a_named_eliminator_is_recorded_and_pays_nothing() -> None:
    floor = Floor({1: "1-9"})
    (e,) = floor.do(cmd.Bust(player="T1S9", eliminators=("T1S1",)))
    assert isinstance(e, PlayerBusted) and e.eliminators == ("T1S1",) and e.bounty_to == ()
    assert floor.t.state.bounties is None


# The property ------------------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(["knockout", "progressive"]))
def test_bounties_paid_plus_left_equal_the_pool_at_every_moment(seed: int, kind: str) -> None:
    rng = random.Random(seed)
    p = prize(
        kind,
        rebuy={"price": 200, "chips": 10_000, "until_level": 1},
        bounty={
            "kind": kind,
            "part": 100,
            "rebuy_part": 40,
            "paid_at": rng.choice(["table", "cashier"]),
        },
        round_to=rng.choice([1, 5, 25]),
        re_entry={},
    )
    floor = floor_of(p, {1: "1-9 pos 1/2/3", 2: "1-9 pos 1/2/3"})
    accounted(floor.t)
    for step in range(60):
        s = floor.t.state
        seated = [x for x in s.players.values() if not x.busted and x.table is not None]
        if len(seated) <= 2:
            break
        roll = rng.random()
        try:
            if roll < 0.5:
                out = rng.choice(seated)
                mates = [x.id for x in seated if x.table == out.table and x.id != out.id]
                named = tuple(rng.sample(mates, k=min(len(mates), rng.choice([0, 1, 1, 2, 3]))))
                floor.do(cmd.Bust(player=out.id, eliminators=named), now=float(step))
            elif roll < 0.65:
                busted = [x.id for x in s.players.values() if x.busted]
                if busted:
                    floor.do(cmd.UndoBust(player=rng.choice(busted), reason="x"), now=float(step))
            elif roll < 0.75:
                floor.do(cmd.Rebuy(player=rng.choice(seated).id), now=float(step))
            elif roll < 0.85:
                owed = [
                    x.id for x in s.players.values() if x.bounty and x.bounty.won > x.bounty.paid
                ]
                if owed:
                    floor.do(cmd.PayBounty(player=rng.choice(owed)), now=float(step))
            elif roll < 0.9:
                busted = [x.id for x in s.players.values() if x.busted]
                if busted:
                    pid = rng.choice(busted)
                    floor.do(cmd.Register(player=pid, name=pid), now=float(step))
            else:
                floor.do(cmd.Hand(table=rng.choice([1, 2])), now=float(step))
        except RuleError:
            pass
        accounted(floor.t)
    replays(floor)


def test_the_pool_stays_whole_through_a_random_day_of_every_command() -> None:
    """The parity games' knockout (every command the floor sends, with hand-for-hand,
    rulings, unregistrations, re-entries and rebuys): checked after every batch."""
    g = play(13, players=60, structure=BOUNTY, steps=900)
    first, *rest = g.batches
    created = first[0]
    assert isinstance(created, TournamentCreated)
    t = Tournament.create(created)
    for e in first[1:]:
        t.apply(e)
    won = 0
    for batch in rest:
        for e in batch:
            t.apply(e)
        accounted(t)
        won += sum(len(e.bounty_to) for e in batch if isinstance(e, PlayerBusted))
    assert won > 0 and t.state.bounties is not None and t.state.bounties.paid > 0


# The TOML config ---------------------------------------------------------------------------


def test_the_shipped_pko_night_is_a_progressive_knockout() -> None:
    _, s = config.build_tournament(config.load_tournament(config.tournaments()["pko-night"]))
    assert s.prize is not None
    assert s.prize.bounty == Bounty(kind="progressive", part=500, paid_at="table")
    pool = payouts(s.prize, 60)
    assert (pool.bounties, pool.collected, pool.pool, pool.overlay) == (30_000, 30_000, 30_000, 0)
    # Fewer entries: the guarantee is of the prizes, the bounties beside it.
    assert (payouts(s.prize, 20).pool, payouts(s.prize, 20).bounties) == (20_000, 10_000)


def test_a_bounty_part_in_a_file_bigger_than_the_buy_in_names_the_file_and_the_key(
    tmp_path: Path,
) -> None:
    path = tmp_path / "t.toml"
    path.write_text(
        'name = "T"\nrules = "tda-2024"\nstructure = "demo-fast"\n'
        '[prize]\ncurrency = "EUR"\nbuy_in = 100\n'
        "[prize.bounty]\npart = 150\n"
        "[[prize.payouts]]\nentries = 2\npercents = [100]\n"
    )
    with pytest.raises(ConfigError) as caught:
        config.load_tournament(path)
    assert "t.toml" in str(caught.value) and "bounty.part" in str(caught.value)


# What the screens and the files show -------------------------------------------------------


def test_the_facts_show_the_largest_bounties_left_and_the_last_won() -> None:
    floor = floor_of(prize("progressive"))
    floor.do(cmd.Bust(player="T1S9", eliminators=("T1S1",)), now=10.0)
    floor.do(cmd.Hand(table=1), now=11.0)
    floor.do(cmd.Bust(player="T1S8", eliminators=("T1S1", "T1S2")), now=20.0)
    f = bounty_facts.facts(floor.t)
    assert f is not None
    assert (f.kind, f.part, f.currency, f.pool) == ("progressive", 100, "EUR", 900)
    # Seat 1: 150, then half of 50 (25) added; seat 2: 25 added.
    assert f.largest[:2] == [bounty_facts.Held("T1S1", 175), bounty_facts.Held("T1S2", 125)]
    assert [(w.busted, w.winners, w.amount) for w in f.last] == [
        ("T1S8", ["T1S1", "T1S2"], 100),
        ("T1S9", ["T1S1"], 100),
    ]
    assert f.won + f.left + f.unclaimed == f.pool
    # Sent with the batches that change a bounty, and never without bounties.
    (hand,) = floor.do(cmd.Hand(table=1))
    assert not bounty_facts.touches(floor.t, [hand])
    assert bounty_facts.facts(Floor({1: "1-9"}).t) is None


def test_the_results_file_and_the_pool_show_the_bounties() -> None:
    floor = floor_of(prize("progressive"), {1: "1-3 pos 1/2/3"})
    floor.do(cmd.Bust(player="T1S3", eliminators=("T1S1",)), cmd.Hand(table=1))
    floor.do(cmd.Bust(player="T1S2", eliminators=("T1S1",)))
    lines = results_csv(floor.t).decode().splitlines()
    assert lines[0].endswith(",deal,bounties")
    assert lines[1].startswith("1,1,") and lines[1].endswith(",300")
    assert lines[2].endswith(",0")
    got = {r.player: r.bounty for r in results(floor.t)}
    assert got == {"T1S1": 300, "T1S2": 0, "T1S3": 0}
    pool = payouts(prize("progressive"), 3)
    assert (pool.pool, pool.bounties) == (300, 300)
    # A freezeout's file is as it was.
    assert results_csv(Floor({1: "1-9"}).t).decode().splitlines()[0].endswith(",deal")


# Hand-for-hand -----------------------------------------------------------------------------


def test_a_hand_for_hand_report_names_the_seats_that_won_the_pots() -> None:
    floor = floor_of(prize(), {1: "1-5 pos 1/2/3", 2: "1-5 pos 1/2/3"})
    floor.do(cmd.ClockStart(), cmd.StartHandForHand())
    floor.do(
        cmd.HandDone(table=1, out=(cmd.SeatOut(seat=5, stack=1_000, winners=(2, 3)),)),
    )
    # Placed once every table has played the hand: the bounty is paid then.
    assert bounty_of(floor, "T1S2") == (100, 0, 0)
    events = floor.do(cmd.HandDone(table=2, out=(cmd.SeatOut(seat=4, stack=2_000, winners=(1,)),)))
    busts = {e.player: e for e in events if isinstance(e, PlayerBusted)}
    # 100 split in fives: 50 / 50, the first clockwise from the button at seat 1 is seat 2.
    assert busts["T1S5"].bounty_to == (
        BountyShare("T1S2", 50, 0, True),
        BountyShare("T1S3", 50, 0, True),
    )
    assert busts["T2S4"].bounty_to == (BountyShare("T2S1", 100, 0, True),)
    accounted(floor.t)
    replays(floor)
    refused = floor.refuse(
        cmd.HandDone(table=1, out=(cmd.SeatOut(seat=4, stack=1_000, winners=(4,)),)),
        NotAllowed,
        "out[0].winners[0]",
    )
    assert refused.reason == "bounty_eliminator_self"
