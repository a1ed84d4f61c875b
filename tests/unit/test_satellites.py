"""Satellites (issue 27, part 2): prizes that are seats in a target event, the end when the
players left are no more than the seats (a double bust-out at the bubble placed by the stack
rule), no deal, and the seats' tickets the house's ledger takes."""

from __future__ import annotations

import msgspec
import pytest

from floor.engine import commands as cmd
from floor.engine.errors import NotAllowed
from floor.engine.events import SatelliteEnded, SeatsIssued, TournamentFinished
from floor.engine.house.decide import claim_of
from floor.engine.house.tickets_events import IssueTicketsClaim, UseTicketClaim
from floor.engine.money import finish_of
from floor.engine.prize import PayoutRow, Prize, payouts
from floor.engine.rules import Level, Structure
from floor.engine.satellite_prize import Satellite, amounts
from floor.engine.validate import InvalidEvent, replay
from tests.unit.builders import Floor
from tests.unit.test_error_codes import assert_said


def structure(seat: int = 300, leftover: str = "next", buy_in: int = 100) -> Structure:
    sat = msgspec.convert({"target": "main", "seat": seat, "leftover": leftover}, Satellite)
    prize = Prize(
        currency="EUR",
        buy_in=buy_in,
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


def nine(**kw: object) -> Floor:
    """Nine entries of 100 at one table: a pool of 900, three seats of 300."""
    floor = Floor({1: "1-9 pos 1/2/3"}, structure=structure(**kw))  # type: ignore[arg-type]
    floor.do(cmd.ClockStart(), now=0.0)
    return floor


def test_the_seats_are_as_many_as_the_pool_holds_and_the_rest_goes_as_the_house_sets() -> None:
    sat = Satellite(target="main", seat=300)
    assert amounts(sat, 1000, 1) == [300, 300, 300, 100]
    split = Satellite(target="main", seat=300, leftover="split")
    assert amounts(split, 1000, 10) == [340, 330, 330]
    assert amounts(sat, 900, 1) == [300, 300, 300]
    # A pool that holds no seat pays what it has.
    assert amounts(sat, 200, 1) == [200]
    pool = payouts(structure().prize, entries=10)  # type: ignore[arg-type]
    assert [p.prize for p in pool.places] == [300, 300, 300, 100]
    assert sum(p.prize for p in pool.places) == pool.pool


def test_a_satellite_ends_when_the_players_left_equal_the_seats() -> None:
    floor = nine()
    for p in ("T1S9", "T1S8", "T1S7", "T1S6", "T1S5"):
        assert not any(isinstance(e, SatelliteEnded) for e in floor.bust(p))
    events = floor.bust("T1S4")

    (end,) = [e for e in events if isinstance(e, SatelliteEnded)]
    assert set(end.seats) == {"T1S1", "T1S2", "T1S3"}
    assert not any(isinstance(e, TournamentFinished) for e in events)
    s = floor.t.state
    assert s.winner is None and not s.clock.running
    # The three left share the places above: a seat each.
    finishes = [finish_of(floor.t, s.players[p]) for p in end.seats]
    assert [(f.place, f.tied, f.prize) for f in finishes if f] == [(1, 3, 300)] * 3
    # Nothing plays on.
    e = floor.refuse(cmd.Bust(player="T1S1"), NotAllowed, "type")
    assert_said(e, "satellite_ended", {})
    assert replay(floor.log).state == floor.t.state


def test_a_double_bust_out_at_the_bubble_gives_the_seat_to_the_bigger_stack() -> None:
    floor = nine()
    floor.bust("T1S9", "T1S8", "T1S7", "T1S6", "T1S5")
    # Four left for three seats: two out in one hand, the bigger stack placed third.
    busted = (cmd.Busted(player="T1S4", stack=800), cmd.Busted(player="T1S3", stack=1200))
    events = floor.do(cmd.BustSameHand(players=busted))

    (end,) = [e for e in events if isinstance(e, SatelliteEnded)]
    assert end.seats == ("T1S1", "T1S2", "T1S3")
    s = floor.t.state
    assert s.players["T1S3"].bust.place == 3  # type: ignore[union-attr]
    assert s.players["T1S4"].bust.place == 4  # type: ignore[union-attr]
    third = finish_of(floor.t, s.players["T1S3"])
    assert third is not None and third.prize == 300


def test_a_deal_at_a_satellite_is_refused() -> None:
    floor = nine()
    e = floor.refuse(cmd.ProposeDeal(method="icm"), NotAllowed, "type")
    assert_said(e, "deal_at_satellite", {})


def test_the_seats_are_issued_once_after_the_end_as_tickets_for_the_target() -> None:
    floor = nine()
    e = floor.refuse(cmd.IssueSeats(), NotAllowed, "type")
    assert_said(e, "satellite_not_ended", {})
    assert claim_of(floor.t.state, cmd.IssueSeats()) is None
    floor.bust("T1S9", "T1S8", "T1S7", "T1S6", "T1S5", "T1S4")

    claim = claim_of(floor.t.state, cmd.IssueSeats())
    assert isinstance(claim, IssueTicketsClaim)
    assert [(t.target, t.value, t.holder, t.source) for t in claim.tickets] == [
        ("main", 300, p, "satellite")
        for p in floor.t.state.satellite_end.seats  # type: ignore[union-attr]
    ]
    (issued,) = floor.do(cmd.IssueSeats())
    assert isinstance(issued, SeatsIssued)
    assert [t.ticket for t in issued.tickets] == [t.id for t in claim.tickets]
    e = floor.refuse(cmd.IssueSeats(), NotAllowed, "type")
    assert_said(e, "seats_issued", {})
    # The satellite closes with its seats (no single winner).
    floor.do(cmd.CloseTournament())
    assert replay(floor.log).state == floor.t.state


def test_a_log_with_a_satellite_ended_early_is_refused() -> None:
    floor = nine()
    floor.bust("T1S9")
    forged = SatelliteEnded(seats=("T1S1",), at=1.0)
    with pytest.raises(InvalidEvent) as caught:
        replay([*floor.log, forged])
    left = floor.t.active
    assert_said(caught.value.error, "satellite_players_left", {"left": left, "seats": 3})
    # Seats issued before any end: the satellite has not ended.
    with pytest.raises(InvalidEvent) as caught:
        replay([*floor.log, SeatsIssued(tickets=(), at=1.0)])
    assert_said(caught.value.error, "satellite_not_ended", {})


def test_a_registration_with_a_ticket_claims_it_in_the_house() -> None:
    floor = Floor({1: "1-5 pos 1/2/3"})
    register = cmd.Register(name="Ann", player="P7", ticket="sat-seat-1")
    claim = claim_of(floor.t.state, register)
    assert claim == UseTicketClaim(ticket="sat-seat-1", tournament="t", player="P7")
    (registered, *_) = floor.do(register)
    assert getattr(registered, "ticket", None) == "sat-seat-1"
    assert floor.t.state.entries == 6  # counted in the pool as the buy-in it replaces
