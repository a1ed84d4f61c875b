"""Mystery bounties (issue 27.1, third kind): from the phase the director sets, each elimination
draws one envelope without replacement from a pool set in advance (amount x count), drawn from the
random source ``decide`` is given and recorded in the event; bust-outs before the phase pay
nothing; a split pot shares one envelope; the winner draws for the last elimination and takes the
envelopes left (or the house keeps them); an undo puts the envelope back. Envelopes drawn plus
envelopes left make the pool at every moment."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from floor import config
from floor.engine import bounty_facts
from floor.engine import commands as cmd
from floor.engine.bounty_rules import Bounty, BountyShare, Envelope
from floor.engine.errors import ConfigError, FloorError, RuleError
from floor.engine.events import (
    BustUndone,
    DayEnded,
    Event,
    PlayerBusted,
    TournamentFinished,
)
from floor.engine.prize import Prize
from floor.engine.read.views import results
from floor.engine.rules import Level, Structure
from floor.engine.state import Tournament
from floor.engine.validate import replay
from floor.exports.results import results_csv
from tests.unit.builders import Floor

POOL = [[1_000, 1], [200, 2], [50, 6]]  # 1,700 in 9 envelopes


def prize(round_to: int = 5, **bounty: Any) -> Prize:
    return msgspec.convert(
        {
            "currency": "EUR",
            "buy_in": 300,
            "round_to": round_to,
            "payouts": [
                {"entries": 2, "percents": [60, 40]},
                {"entries": 3, "percents": [50, 30, 20]},
            ],
            "bounty": {
                "kind": "mystery",
                "part": 100,
                "envelopes": POOL,
                "mystery_from": "level",
                "mystery_level": 1,
                **bounty,
            },
        },
        Prize,
    )


def floor_of(p: Prize, tables: dict[int, str] | None = None, seed: int = 0) -> Floor:
    s = Structure(
        name="test",
        starting_stack=10_000,
        chips=(25, 100),
        levels=(
            Level(small_blind=25, big_blind=50, minutes=20),
            Level(small_blind=50, big_blind=100, minutes=20),
        ),
        prize=p,
    )
    return Floor(tables or {1: "1-9 pos 3/4/5"}, structure=s, seed=seed)


def drawn_by_events(t: Tournament) -> Counter[int]:
    """The envelopes out of the pool, from the players' records (not the book)."""
    return Counter(
        p.bounty.envelope
        for p in t.state.players.values()
        if p.busted and p.bounty is not None and p.bounty.envelope
    )


def accounted(t: Tournament) -> None:
    """Envelopes drawn plus envelopes left make the pool, line by line, at every moment."""
    f = bounty_facts.facts(t)
    assert f is not None
    drawn = drawn_by_events(t)
    book = t.state.bounties
    assert Counter(book.drawn if book else {}) == drawn
    for line in f.envelopes:
        assert 0 <= line.left <= line.count
        assert drawn[line.amount] + line.left == line.count, (line, drawn)
    assert sum(drawn.values()) + sum(x.left for x in f.envelopes) == sum(c for _, c in POOL)
    rest = book.rest if book else 0
    assert sum(a * n for a, n in drawn.items()) + rest + f.left == f.pool == 1_700
    # What the players won is what was drawn (and the rest the winner took).
    won = sum(p.bounty.won for p in t.state.players.values() if p.bounty is not None)
    assert won == f.won == sum(a * n for a, n in drawn.items()) + rest


def replays(floor: Floor) -> None:
    assert msgspec.msgpack.encode(replay(floor.log).state) == floor.snapshot()


class Largest(random.Random):
    """A random source of another make (as committed seeds will give): always the last
    envelope in order of amount."""

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:  # type: ignore[override]
        return (start if stop is None else stop) - 1


# The settings ------------------------------------------------------------------------------


def test_the_envelopes_decode_with_their_defaults() -> None:
    b = prize().bounty
    assert b is not None
    assert b.envelopes == (Envelope(1_000, 1), Envelope(200, 2), Envelope(50, 6))
    assert (b.mystery_from, b.mystery_level, b.envelopes_left) == ("level", 1, "winner")
    old = msgspec.json.decode(b'{"kind":"progressive","part":50}', type=Bounty)
    assert old.envelopes == () and old.mystery_from == "money" and old.envelopes_left == "winner"
    e = msgspec.json.decode(
        b'{"type":"player_busted","player":"a","table":1,"seat":2,"hand":0,"place":9}', type=Event
    )
    assert isinstance(e, PlayerBusted) and e.envelope == 0


@pytest.mark.parametrize(
    ("bounty", "reason"),
    [
        ({"envelopes": []}, "bounty_envelopes"),
        ({"kind": "knockout"}, "bounty_envelopes"),
        ({"envelopes": [[100, 2], [100, 1]]}, "bounty_envelopes_twice"),
        ({"mystery_level": None}, "bounty_mystery_level"),
        ({"mystery_from": "money"}, "bounty_mystery_level"),
    ],
)
def test_bad_envelope_settings_are_refused_naming_them(bounty: dict[str, Any], reason: str) -> None:
    with pytest.raises(msgspec.ValidationError) as caught:
        prize(**bounty)
    assert "bounty" in str(caught.value)
    assert getattr(caught.value.__cause__, "reason", None) == reason
    with pytest.raises(msgspec.ValidationError):
        prize(envelopes=[[0, 3]])


def test_a_mystery_bounty_in_a_toml_file(tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    text = (
        'name = "T"\nrules = "tda-2024"\nstructure = "demo-fast"\n'
        '[prize]\ncurrency = "EUR"\nbuy_in = 300\n'
        '[prize.bounty]\nkind = "mystery"\npart = 100\nenvelopes = [[1000, 1], [50, 6]]\n'
        'envelopes_left = "house"\n'
        "[[prize.payouts]]\nentries = 2\npercents = [100]\n"
    )
    path.write_text(text)
    _, s = config.build_tournament(config.load_tournament(path))
    assert s.prize is not None and s.prize.bounty is not None
    b = s.prize.bounty
    assert (b.kind, b.envelopes, b.mystery_from, b.envelopes_left) == (
        "mystery",
        (Envelope(1_000, 1), Envelope(50, 6)),
        "money",
        "house",
    )
    path.write_text(text.replace("envelopes = [[1000, 1], [50, 6]]\n", ""))
    with pytest.raises(ConfigError) as caught:
        config.load_tournament(path)
    assert "t.toml" in str(caught.value) and "bounty" in str(caught.value)


# The drawing -------------------------------------------------------------------------------


def test_each_elimination_draws_one_envelope_recorded_in_its_event() -> None:
    floor = floor_of(prize())
    floor.rng = Largest()
    (e,) = floor.do(cmd.Bust(player="T1S9", eliminators=("T1S1",)))
    assert isinstance(e, PlayerBusted)
    # The last envelope by amount: the 1,000, the only one of it.
    assert e.envelope == 1_000 and e.bounty == 0
    assert e.bounty_to == (BountyShare("T1S1", 1_000, 0, True),)
    floor.do(cmd.Hand(table=1))
    (e,) = floor.do(cmd.Bust(player="T1S8", eliminators=("T1S1",)))
    assert isinstance(e, PlayerBusted) and e.envelope == 200
    r = floor.t.state.players["T1S1"].bounty
    assert r is not None and (r.head, r.won, r.paid, r.drew) == (0, 1_200, 1_200, (1_000, 200))
    accounted(floor.t)
    # Replay takes the envelopes from the events: it never draws again.
    replays(floor)


def test_the_draw_is_the_random_source_s_without_replacement() -> None:
    seen: list[list[int]] = []
    for seed in (1, 2, 1):
        floor = floor_of(prize(), {1: "1-9 pos 3/4/5", 2: "1-9 pos 3/4/5"}, seed=seed)
        got = []
        for i in range(2, 10):
            for table in (1, 2):
                events = floor.do(cmd.Bust(player=f"T{table}S{i}", eliminators=(f"T{table}S1",)))
                e = events[0]
                assert isinstance(e, PlayerBusted)
                got.append(e.envelope)
                accounted(floor.t)
        seen.append(got)
    # Nine envelopes for sixteen bust-outs: all nine drawn, then nothing left to draw.
    assert sorted(x for x in seen[0] if x) == [50] * 6 + [200] * 2 + [1_000]
    assert seen[0][9:] == [0] * 7
    assert seen[0] == seen[2]


def test_eliminations_before_the_phase_pay_nothing() -> None:
    # From the money: three places paid, so the bust-outs to places 9 to 4 draw nothing.
    floor = floor_of(prize(mystery_from="money", mystery_level=None), {1: "1-9 pos 3/4/5"})
    for seat in range(9, 4, -1):
        (e,) = floor.do(cmd.Bust(player=f"T1S{seat}", eliminators=("T1S1",)))
        assert isinstance(e, PlayerBusted)
        assert e.eliminators == ("T1S1",) and e.envelope == 0 and e.bounty_to == ()
    f = bounty_facts.facts(floor.t)
    assert f is not None and not f.drawing and f.won == 0
    (e,) = floor.do(cmd.Bust(player="T1S4", eliminators=("T1S1",)))
    assert isinstance(e, PlayerBusted) and e.place == 4 and e.envelope == 0
    f = bounty_facts.facts(floor.t)
    assert f is not None and f.drawing
    (e,) = floor.do(cmd.Bust(player="T1S3", eliminators=("T1S1",)))
    assert isinstance(e, PlayerBusted) and e.place == 3 and e.envelope > 0
    accounted(floor.t)
    replays(floor)


def test_the_phase_may_start_at_a_level_or_on_day_2() -> None:
    floor = floor_of(prize(mystery_level=2))
    (e,) = floor.do(cmd.Bust(player="T1S9", eliminators=("T1S1",)))
    assert isinstance(e, PlayerBusted) and e.envelope == 0
    floor.do(cmd.ClockStart(), cmd.ClockLevel(step=1))
    assert bounty_facts.touches(floor.t, floor.log[-2:])
    (e,) = floor.do(cmd.Bust(player="T1S8", eliminators=("T1S1",)))
    assert isinstance(e, PlayerBusted) and e.envelope > 0
    replays(floor)

    day2 = floor_of(prize(mystery_from="day2", mystery_level=None))
    (e,) = day2.do(cmd.Bust(player="T1S9", eliminators=("T1S1",)))
    assert isinstance(e, PlayerBusted) and e.envelope == 0
    # The first day over: the next day draws.
    day2.t.apply(DayEnded(at=1.0))
    (e,) = day2.do(cmd.Bust(player="T1S8", eliminators=("T1S1",)))
    assert isinstance(e, PlayerBusted) and e.envelope > 0


def test_a_split_pot_shares_one_envelope() -> None:
    floor = floor_of(prize())
    floor.rng = Largest()
    (e,) = floor.do(cmd.Bust(player="T1S9", eliminators=("T1S2", "T1S6", "T1S4")))
    assert isinstance(e, PlayerBusted) and e.envelope == 1_000
    # 1,000 in fives among three: 335 to the first clockwise from the button at seat 3.
    assert [(x.player, x.cash) for x in e.bounty_to] == [
        ("T1S4", 340),
        ("T1S6", 330),
        ("T1S2", 330),
    ]
    book = floor.t.state.bounties
    assert book is not None and book.drawn == {1_000: 1}
    accounted(floor.t)


def test_several_out_in_one_hand_draw_without_replacement() -> None:
    floor = floor_of(prize(envelopes=[[500, 1], [100, 1]]))
    events = floor.do(
        cmd.BustSameHand(
            players=(
                cmd.Busted(player="T1S8", stack=1_000, eliminators=("T1S1",)),
                cmd.Busted(player="T1S9", stack=3_000, eliminators=("T1S2",)),
            )
        )
    )
    envelopes = sorted(e.envelope for e in events if isinstance(e, PlayerBusted))
    assert envelopes == [100, 500]
    (e,) = floor.do(cmd.Bust(player="T1S7", eliminators=("T1S1",)))
    assert isinstance(e, PlayerBusted) and e.envelope == 0 and e.bounty_to == ()
    replays(floor)


def test_a_bust_out_naming_nobody_draws_nothing() -> None:
    floor = floor_of(prize())
    (e,) = floor.do(cmd.Bust(player="T1S9"))
    assert isinstance(e, PlayerBusted) and e.envelope == 0
    accounted(floor.t)


def test_an_undone_bust_out_puts_its_envelope_back() -> None:
    floor = floor_of(prize())
    floor.rng = Largest()
    floor.do(cmd.Bust(player="T1S9", eliminators=("T1S1", "T1S2")))
    (undo,) = [
        e for e in floor.do(cmd.UndoBust(player="T1S9", reason="x")) if isinstance(e, BustUndone)
    ]
    assert set(undo.bounty_from) == {"T1S1", "T1S2"}
    book = floor.t.state.bounties
    assert book is not None and book.drawn == {} and book.won == 0 and book.paid == 0
    r = floor.t.state.players["T1S1"].bounty
    assert r is not None and (r.won, r.paid, r.drew) == (0, 0, ())
    accounted(floor.t)
    # Corrected: the 1,000 is back in the pool, to be drawn again.
    (e,) = floor.do(cmd.Bust(player="T1S9", eliminators=("T1S3",)))
    assert isinstance(e, PlayerBusted) and e.envelope == 1_000
    accounted(floor.t)
    replays(floor)


def test_the_winner_draws_for_the_last_elimination_and_takes_the_envelopes_left() -> None:
    floor = floor_of(prize(), {1: "1-3 pos 1/2/3"})
    floor.rng = Largest()
    floor.do(cmd.Bust(player="T1S3", eliminators=("T1S1",)), cmd.Hand(table=1))
    events = floor.do(cmd.Bust(player="T1S2", eliminators=("T1S1",)))
    assert any(isinstance(e, TournamentFinished) for e in events)
    last = next(e for e in events if isinstance(e, PlayerBusted))
    assert last.envelope == 200
    r = floor.t.state.players["T1S1"].bounty
    # 1,000 and 200 drawn; the 200 and six 50s left (500) are the winner's too.
    assert r is not None and (r.won, r.own, r.drew) == (1_700, 500, (1_000, 200))
    f = bounty_facts.facts(floor.t)
    assert f is not None and (f.won, f.left, f.rest, f.drawing) == (1_700, 0, 500, False)
    accounted(floor.t)
    assert {x.player: x.bounty for x in results(floor.t)}["T1S1"] == 1_700
    assert results_csv(floor.t).decode().splitlines()[1].endswith(",1700")
    floor.do(cmd.UndoBust(player="T1S2", reason="wrong seat"))
    r = floor.t.state.players["T1S1"].bounty
    assert r is not None and (r.won, r.own, r.drew) == (1_000, 0, (1_000,))
    accounted(floor.t)
    replays(floor)


def test_the_house_may_keep_the_envelopes_left() -> None:
    floor = floor_of(prize(envelopes_left="house"), {1: "1-2 pos 1/2/1"})
    floor.do(cmd.Bust(player="T1S2", eliminators=("T1S1",)))
    f = bounty_facts.facts(floor.t)
    assert f is not None and f.rest == 0 and f.won + f.left == 1_700 and f.left > 0
    accounted(floor.t)


def test_an_imported_log_with_another_envelope_is_refused_naming_it() -> None:
    floor = floor_of(prize(envelopes=[[500, 1], [100, 1]]))
    floor.rng = Largest()
    floor.do(cmd.Bust(player="T1S9", eliminators=("T1S1",)))
    e = floor.log[-1]
    assert isinstance(e, PlayerBusted) and e.envelope == 500
    # Another envelope left is a draw the log may hold (replay never draws again: which one
    # the random source gave is the log's word); one not in the pool, or none, is refused.
    other = msgspec.structs.replace(e, envelope=100, bounty_to=(BountyShare("T1S1", 100, 0, True),))
    assert replay([*floor.log[:-1], other]).state.bounties.drawn == {100: 1}  # type: ignore[union-attr]
    for amount in (777, 0):
        shares = (BountyShare("T1S1", amount, 0, True),) if amount else ()
        forged = msgspec.structs.replace(e, envelope=amount, bounty_to=shares)
        with pytest.raises(FloorError) as caught:
            replay([*floor.log[:-1], forged])
        assert "envelope" in str(caught.value)
    # Drawn twice: the second 500 is not in the pool.
    floor.do(cmd.Hand(table=1))
    hand = floor.log[-1]
    again = msgspec.structs.replace(e, player="T1S8", seat=8, hand=1, place=8)
    with pytest.raises(FloorError):
        replay([*floor.log[:-1], hand, again])


def test_the_facts_show_the_envelopes_left_and_the_last_drawn() -> None:
    floor = floor_of(prize())
    floor.rng = Largest()
    floor.do(cmd.Bust(player="T1S9", eliminators=("T1S1",)), now=10.0)
    floor.do(cmd.Hand(table=1), now=11.0)
    floor.do(cmd.Bust(player="T1S8", eliminators=("T1S1", "T1S2")), now=20.0)
    f = bounty_facts.facts(floor.t)
    assert f is not None
    assert (f.kind, f.pool, f.won, f.left, f.drawing, f.largest) == (
        "mystery",
        1_700,
        1_200,
        500,
        True,
        [],
    )
    assert f.envelopes == [
        bounty_facts.EnvelopesLeft(50, 6, 6),
        bounty_facts.EnvelopesLeft(200, 1, 2),
        bounty_facts.EnvelopesLeft(1_000, 0, 1),
    ]
    assert [(w.busted, w.winners, w.amount) for w in f.last] == [
        ("T1S8", ["T1S1", "T1S2"], 200),
        ("T1S9", ["T1S1"], 1_000),
    ]


def test_hand_for_hand_draws_for_each_bust_out_of_the_round() -> None:
    floor = floor_of(prize(), {1: "1-5 pos 1/2/3", 2: "1-5 pos 1/2/3"})
    floor.do(cmd.ClockStart(), cmd.StartHandForHand())
    floor.do(cmd.HandDone(table=1, out=(cmd.SeatOut(seat=5, stack=1_000, winners=(2, 3)),)))
    events = floor.do(cmd.HandDone(table=2, out=(cmd.SeatOut(seat=4, stack=2_000, winners=(1,)),)))
    busts = [e for e in events if isinstance(e, PlayerBusted)]
    assert len(busts) == 2 and all(b.envelope > 0 for b in busts)
    accounted(floor.t)
    replays(floor)


# The property ------------------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32))
def test_envelopes_drawn_plus_left_equal_the_pool_at_every_moment(seed: int) -> None:
    rng = random.Random(seed)
    start = rng.choice(
        [{"mystery_from": "money", "mystery_level": None}, {"mystery_from": "level"}]
    )
    p = prize(round_to=rng.choice([1, 5, 25]), paid_at=rng.choice(["table", "cashier"]), **start)
    floor = floor_of(p, {1: "1-9 pos 1/2/3", 2: "1-9 pos 1/2/3"}, seed=seed)
    accounted(floor.t)
    for step in range(80):
        s = floor.t.state
        seated = [x for x in s.players.values() if not x.busted and x.table is not None]
        roll = rng.random()
        try:
            if roll < 0.45:
                out = rng.choice(seated)
                mates = [x.id for x in seated if x.table == out.table and x.id != out.id]
                named = tuple(rng.sample(mates, k=min(len(mates), rng.choice([0, 1, 1, 2]))))
                floor.do(cmd.Bust(player=out.id, eliminators=named), now=float(step))
            elif roll < 0.55:
                at = [x for x in seated if x.table == 1]
                two = rng.sample(at, k=min(2, len(at)))
                mates = [x.id for x in at if x not in two]
                floor.do(
                    cmd.BustSameHand(
                        players=tuple(
                            cmd.Busted(
                                player=x.id,
                                stack=rng.choice([1_000, 2_000]),
                                eliminators=tuple(rng.sample(mates, k=min(1, len(mates)))),
                            )
                            for x in two
                        )
                    ),
                    now=float(step),
                )
            elif roll < 0.75:
                busted = [x.id for x in s.players.values() if x.busted]
                if busted:
                    floor.do(cmd.UndoBust(player=rng.choice(busted), reason="x"), now=float(step))
            elif roll < 0.85:
                owed = [
                    x.id for x in s.players.values() if x.bounty and x.bounty.won > x.bounty.paid
                ]
                if owed:
                    floor.do(cmd.PayBounty(player=rng.choice(owed)), now=float(step))
            else:
                floor.do(cmd.Hand(table=rng.choice([1, 2])), now=float(step))
        except RuleError:
            pass
        accounted(floor.t)
    replays(floor)
