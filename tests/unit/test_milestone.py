"""A milestone satellite (issue 27.2): a seat to whoever reaches a chip count, who leaves with
their chips out of play; the chip check counts them, the satellite ends at the seats left, and
an undo gives the seat back as a bust-out's undo does."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from floor import config
from floor.engine import commands as cmd
from floor.engine.bagging import room_check
from floor.engine.desk.cashier import to_pay
from floor.engine.errors import ConfigError, NotAllowed, UnknownPlayer
from floor.engine.events import SatelliteEnded, SeatAwarded
from floor.engine.hand_for_hand import places_paid
from floor.engine.house.commands import SettleHold, TakeHold
from floor.engine.house.decide import claim_of
from floor.engine.house.decide import decide as house_decide
from floor.engine.house.state import HouseState
from floor.engine.house.state import apply as house_apply
from floor.engine.house.tickets_events import (
    IssueTicketsClaim,
    TicketIssue,
    UseTicketClaim,
    WithdrawTicketClaim,
)
from floor.engine.milestone import facts
from floor.engine.milestone import facts as milestone_facts
from floor.engine.money import finish_of, in_the_money
from floor.engine.prize import PayoutRow, Prize
from floor.engine.read.derived import staff_facts
from floor.engine.read.views import field_stats, results
from floor.engine.rules import Level, Structure
from floor.engine.satellite_prize import Satellite
from floor.engine.validate import InvalidEvent, replay
from tests.unit.builders import Floor
from tests.unit.test_error_codes import assert_said

MILESTONE = 5_000


def structure(milestone: int | None = MILESTONE) -> Structure:
    sat = Satellite(target="main", seat=300, milestone=milestone)
    # 18 entries of 110: a pool of 1,980, six seats of 300 and 180 to the next finisher.
    prize = Prize(
        currency="EUR",
        buy_in=110,
        fee=10,
        payouts=(PayoutRow(entries=1, percents=(100,)),),
        satellite=sat,
    )
    return Structure(
        name="sat",
        starting_stack=1_000,
        chips=(25, 100),
        levels=(Level(small_blind=25, big_blind=50, minutes=20),),
        prize=prize,
    )


def eighteen(milestone: int | None = MILESTONE) -> Floor:
    floor = Floor({1: "1-9 pos 1/2/3", 2: "1-9 pos 1/2/3"}, structure=structure(milestone), seats=9)
    floor.do(cmd.ClockStart(), now=0.0)
    return floor


def count(floor: Floor, player: str, stack: int) -> None:
    table = int(player[1])
    floor.do(cmd.CountTable(table=table, stacks=(cmd.Count(player=player, stack=stack),)))


def test_the_milestone_is_a_setting_of_the_satellite_refused_when_not_a_positive_count() -> None:
    raw = {"target": "main", "seat": 300, "milestone": 0}
    with pytest.raises(msgspec.ValidationError, match=r"\$\.milestone"):
        msgspec.convert(raw, Satellite)
    assert msgspec.convert({**raw, "milestone": 8_000}, Satellite).milestone == 8_000
    # An older satellite's settings decode as no milestone.
    assert msgspec.convert({"target": "main", "seat": 300}, Satellite).milestone is None


def test_the_milestone_in_a_tournament_file_is_read_and_a_bad_one_names_the_key(
    tmp_path: Path,
) -> None:
    path = tmp_path / "t.toml"
    text = (
        'name = "T"\nrules = "tda-2024"\nstructure = "demo-fast"\n'
        '[prize]\ncurrency = "EUR"\nbuy_in = 100\n'
        "[[prize.payouts]]\nentries = 2\npercents = [100]\n"
        '[prize.satellite]\ntarget = "main"\nseat = 1000\nmilestone = {}\n'
    )
    path.write_text(text.format(25_000))
    _, s = config.build_tournament(config.load_tournament(path))
    assert s.prize is not None and s.prize.satellite is not None
    assert s.prize.satellite.milestone == 25_000
    path.write_text(text.format(-5))
    with pytest.raises(ConfigError) as caught:
        config.load_tournament(path)
    assert "t.toml" in str(caught.value) and "satellite.milestone" in str(caught.value)


def test_an_award_is_refused_below_the_count_uncounted_unseated_out_or_no_milestone() -> None:
    floor = eighteen()
    e = floor.refuse(cmd.AwardSeat(player="T1S1"), NotAllowed, "player")
    assert_said(e, "milestone_uncounted", {"player": "T1S1"})
    count(floor, "T1S1", 4_999)
    e = floor.refuse(cmd.AwardSeat(player="T1S1"), NotAllowed, "player")
    assert_said(e, "milestone_not_reached", {"player": "T1S1", "stack": 4_999, "milestone": 5_000})
    floor.bust("T2S9")
    e = floor.refuse(cmd.AwardSeat(player="T2S9"), NotAllowed, "player")
    assert_said(e, "player_out", {"player": "T2S9"})
    floor.refuse(cmd.AwardSeat(player="P404"), UnknownPlayer, "player")
    # A waiting player has no seat to leave.
    floor.register("LATE")
    if floor.t.state.players["LATE"].table is None:
        e = floor.refuse(cmd.AwardSeat(player="LATE"), NotAllowed, "player")
        assert_said(e, "player_unseated", {"player": "LATE"})
    # A satellite without a milestone, and a tournament that is no satellite.
    plain = eighteen(milestone=None)
    count(plain, "T1S1", 9_000)
    e = plain.refuse(cmd.AwardSeat(player="T1S1"), NotAllowed, "type")
    assert_said(e, "milestone_none", {})
    e = Floor({1: "1-9 pos 1/2/3"}).refuse(cmd.AwardSeat(player="T1S1"), NotAllowed, "type")
    assert_said(e, "milestone_none", {})


def test_the_winner_leaves_with_their_chips_out_of_play_and_the_tables_balance() -> None:
    floor = eighteen()
    count(floor, "T1S1", 6_000)
    count(floor, "T1S2", 5_000)
    assert facts(floor.t) is not None
    assert facts(floor.t).reached == ["T1S1", "T1S2"]  # type: ignore[union-attr]
    events = floor.do(cmd.AwardSeat(player="T1S1", by="floor1"))
    award = events[0]
    assert isinstance(award, SeatAwarded)
    assert (award.player, award.stack, award.place, award.by) == ("T1S1", 6_000, 18, "floor1")
    events += floor.do(cmd.AwardSeat(player="T1S2"))
    s = floor.t.state
    assert floor.where("T1S1") is None and floor.t.active == 16
    assert (s.seats_won, s.chips_out) == (2, 11_000)
    # Not a bust-out: the player holds a seat, first among the seat winners.
    assert not any(e for e in events if type(e).__name__ == "PlayerBusted")
    mine = finish_of(floor.t, s.players["T1S1"])
    assert mine is not None and (mine.place, mine.prize) == (1, 300)
    # The players left and the average stack no longer count them or their chips.
    stats = field_stats(floor.t)
    assert (stats.players_left, stats.chips) == (16, 18_000 - 11_000)
    assert stats.average_stack == round(7_000 / 16)
    # Seven at table 1, nine at table 2: the planner moves one as after two bust-outs.
    ((_, (source, _), (to, _), _),) = floor.moves()
    assert (source, to) == (2, 1)
    m = staff_facts(floor.t).milestone
    assert m is not None and (m.milestone, m.reached, m.awarded) == (5_000, [], ["T1S1", "T1S2"])
    assert replay(floor.log).state == floor.t.state


def test_the_chip_check_counts_the_chips_out_of_play_against_what_must_exist() -> None:
    floor = eighteen()
    count(floor, "T1S1", 6_000)
    floor.do(cmd.AwardSeat(player="T1S1"))
    floor.do(cmd.EndDay(now=True))
    # The 17 left hold the 12,000 chips still in play.
    table_1 = tuple(cmd.Bag(player=f"T1S{seat}", stack=875) for seat in range(2, 10))
    left = 12_000 - 8 * 875
    per = [left // 9] * 9
    per[0] += left - sum(per)
    table_2 = tuple(cmd.Bag(player=f"T2S{i + 1}", stack=x) for i, x in enumerate(per))
    floor.do(cmd.BagTable(table=1, bags=table_1), cmd.BagTable(table=2, bags=table_2))
    check = room_check(floor.t)
    assert (check.expected, check.counted, check.out_of_play) == (18_000, 12_000, 6_000)
    assert check.difference == 0 and not check.flagged and not check.unbagged
    # The seat winner is no survivor whose bag is due.
    assert "T1S1" not in check.unbagged


def test_the_satellite_ends_at_the_seats_left_with_the_milestone_winners_first() -> None:
    floor = eighteen()
    count(floor, "T2S1", 7_000)
    floor.do(cmd.AwardSeat(player="T2S1"))
    count(floor, "T2S2", 5_500)
    floor.do(cmd.AwardSeat(player="T2S2"))
    # Six seats, two won: hand-for-hand is for the four left to play for, and the
    # satellite ends with four players left.
    assert places_paid(floor.t) == 4
    out = ["T1S9", "T1S8", "T1S7", "T2S9", "T1S6", "T2S8", "T1S5", "T2S7", "T1S4", "T2S6"]
    out += ["T1S3", "T2S5"]
    for p in out[:-1]:
        assert not any(isinstance(e, SatelliteEnded) for e in floor.bust(p))
    events = floor.bust(out[-1])
    (end,) = [e for e in events if isinstance(e, SatelliteEnded)]
    assert end.seats[:2] == ("T2S1", "T2S2") and len(end.seats) == 6
    s = floor.t.state
    rows = {r.player: r for r in results(floor.t)}
    assert [(rows[p].place, rows[p].tied, rows[p].prize) for p in end.seats] == [(1, 6, 300)] * 6
    # The last one out is seventh among everybody, and takes the 180 left over.
    last = rows[out[-1]]
    assert (last.place, last.prize) == (7, 180)
    assert finish_of(floor.t, s.players[out[-1]]) is not None
    assert finish_of(floor.t, s.players[out[-1]]).place == 7  # type: ignore[union-attr]
    # The bubble burst with the one out before: five places were played for, not seven.
    money = in_the_money(floor.t)
    assert money is not None and (money.places, money.players) == (5, (out[-2],))
    assert (rows[out[-2]].place, rows[out[-2]].prize) == (8, 0)
    # The first out, 16th of those in after the two seats were won, is last of all 18.
    assert (floor.t.state.players["T1S9"].bust.place, rows["T1S9"].place) == (16, 18)  # type: ignore[union-attr]
    # The staff's lists are sent the same place (the facts name each place that moved).
    facts = milestone_facts(floor.t)
    assert facts is not None
    assert facts.places == {r.player: r.place for r in rows.values() if r.player in out}
    # The milestone's winners have their tickets from the award; the others' enter now.
    claim = claim_of(s, cmd.IssueSeats())
    assert isinstance(claim, IssueTicketsClaim)
    assert [t.holder for t in claim.tickets] == list(end.seats[2:])
    assert [t.id for t in claim.tickets] == [f"t-seat-{i}" for i in range(1, 5)]
    assert replay(floor.log).state == floor.t.state


def test_an_undo_gives_the_seat_back_and_the_chips_to_play() -> None:
    floor = eighteen()
    count(floor, "T1S1", 6_000)
    floor.do(cmd.AwardSeat(player="T1S1"))
    floor.bust("T2S9")
    assert floor.t.state.players["T2S9"].bust.place == 17  # type: ignore[union-attr]
    floor.do(cmd.UndoBust(player="T1S1", reason="the count was wrong"))
    s = floor.t.state
    p = s.players["T1S1"]
    assert (p.busted, p.bust, p.stack, floor.where("T1S1")) == (False, None, 6_000, (1, 1))
    assert (s.seats_won, s.chips_out, floor.t.active) == (0, 0, 17)
    # The bust-out after it is one place down again, as after a bust-out's undo.
    assert s.players["T2S9"].bust.place == 18  # type: ignore[union-attr]
    assert field_stats(floor.t).chips == 17_000 + 1_000
    assert replay(floor.log).state == floor.t.state


def test_a_log_with_a_seat_awarded_below_the_milestone_is_refused() -> None:
    floor = eighteen()
    count(floor, "T1S1", 4_000)
    forged = SeatAwarded(player="T1S1", table=1, seat=1, hand=0, place=18, stack=4_000, at=1.0)
    with pytest.raises(InvalidEvent):
        replay([*floor.log, forged])
    plain = eighteen(milestone=None)
    forged = SeatAwarded(player="T1S1", table=1, seat=1, hand=0, place=18, stack=9_000, at=1.0)
    with pytest.raises(InvalidEvent):
        replay([*plain.log, forged])


def test_the_award_issues_its_ticket_and_its_undo_takes_it_back_unless_used() -> None:
    floor = eighteen()
    count(floor, "T1S1", 6_000)
    award = cmd.AwardSeat(player="T1S1")
    claim = claim_of(floor.t.state, award)
    issue = TicketIssue(
        id="t-milestone-1",
        target="main",
        value=300,
        holder="T1S1",
        name="T1S1",
        source="satellite",
        origin="t",
    )
    assert claim == IssueTicketsClaim(tickets=(issue,))
    (event, *_) = floor.do(award)
    assert isinstance(event, SeatAwarded) and event.seat_ticket == "t-milestone-1"
    # The cashier hands the winner their ticket.
    (row,) = [r for r in to_pay(floor.t, []).rows if r.player == "T1S1"]
    # The seat is paid with its ticket: no cash owed for it, and none in the cashier's total.
    assert (row.ticket, row.ticket_target, row.seat, row.amount) == (
        "t-milestone-1",
        "main",
        300,
        0,
    )
    assert to_pay(floor.t, []).owed == 0
    # The house takes the claim as a satellite's seats: held, then in the ledger.
    house = HouseState()
    for e in house_decide(
        house, TakeHold(hold="h1", tournament="t", command_id="c1", claim=claim), 1.0
    ):
        house_apply(house, e)
    for e in house_decide(house, SettleHold(hold="h1", committed=True), 1.0):
        house_apply(house, e)
    assert house.tickets.tickets["t-milestone-1"].status == "issued"

    undo = cmd.UndoBust(player="T1S1", reason="the count was wrong")
    withdraw = claim_of(floor.t.state, undo)
    assert withdraw == WithdrawTicketClaim(ticket="t-milestone-1")
    assert claim_of(floor.t.state, cmd.UndoBust(player="T2S9", reason="x")) is None
    take = TakeHold(hold="h2", tournament="t", command_id="c2", claim=withdraw)
    # Used in the main event already: the house refuses to take it back, so the undo too.
    used = HouseState()
    for c in (
        TakeHold(hold="h1", tournament="t", command_id="c1", claim=claim),
        SettleHold(hold="h1", committed=True),
        TakeHold(hold="u1", tournament="main", command_id="u1",
                 claim=UseTicketClaim(ticket="t-milestone-1", tournament="main", player="T1S1")),
        SettleHold(hold="u1", committed=True),
    ):  # fmt: skip
        for e in house_decide(used, c, 2.0):
            house_apply(used, e)
    with pytest.raises(NotAllowed) as caught:
        house_decide(used, take, 3.0)
    assert_said(
        caught.value, "ticket_not_issued", {"ticket": "t-milestone-1", "ticket_status": "used"}
    )
    # Not used: the undo takes it back once written.
    for c in (take, SettleHold(hold="h2", committed=True)):
        for e in house_decide(house, c, 3.0):  # type: ignore[arg-type]
            house_apply(house, e)
    floor.do(undo)
    assert house.tickets.tickets["t-milestone-1"].status == "withdrawn"
    # Awarded again: a new ticket, never the withdrawn one's id.
    (again, *_) = floor.do(award)
    assert isinstance(again, SeatAwarded) and again.seat_ticket == "t-milestone-2"
    assert floor.t.state.players["T1S1"].bust.seat_ticket == "t-milestone-2"  # type: ignore[union-attr]
    assert replay(floor.log).state == floor.t.state


def test_the_satellite_ends_when_every_seat_is_won_at_the_milestone() -> None:
    floor = eighteen()
    players = [f"T{n}S{seat}" for n in (1, 2) for seat in (1, 2, 3)]
    for p in players[:5]:
        count(floor, p, 5_000)
        assert not any(isinstance(e, SatelliteEnded) for e in floor.do(cmd.AwardSeat(player=p)))
    count(floor, players[5], 5_000)
    events = floor.do(cmd.AwardSeat(player=players[5]))
    (end,) = [e for e in events if isinstance(e, SatelliteEnded)]
    assert end.seats == tuple(players)
    assert not floor.t.state.clock.running
    e = floor.refuse(cmd.AwardSeat(player="T1S4"), NotAllowed, "type")
    assert_said(e, "satellite_ended", {})
    assert replay(floor.log).state == floor.t.state
