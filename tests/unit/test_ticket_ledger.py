"""The ticket ledger in the house (issue 27, part 2): issued by a satellite or sold, reserved
by a registration under its command id and used once when the tournament writes it, free
again when it refuses; expired, refunded, handed on only when transferable."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from floor.engine import commands as cmd
from floor.engine.errors import BadValue, NotAllowed
from floor.engine.flights import FlightRules
from floor.engine.house.commands import HouseCommand, SettleHold, TakeHold
from floor.engine.house.decide import claim_of, decide
from floor.engine.house.events import Sheet, SheetClaim
from floor.engine.house.state import HouseState, apply
from floor.engine.house.tickets_commands import (
    ExpireTicket,
    RefundTicket,
    SellTicket,
    TransferTicket,
)
from floor.engine.house.tickets_events import IssueTicketsClaim, TicketIssue, UseTicketClaim
from tests.unit.builders import Floor
from tests.unit.test_error_codes import assert_said


def run(state: HouseState, command: HouseCommand, now: float = 10.0) -> None:
    for e in decide(state, command, now):
        apply(state, e)


def refused(
    state: HouseState, command: HouseCommand, reason: str, params: dict[str, object]
) -> None:
    before = repr(state)
    with pytest.raises(NotAllowed) as caught:
        decide(state, command, 10.0)
    assert caught.value.field == "ticket"
    assert_said(caught.value, reason, params)
    assert repr(state) == before


def sold(state: HouseState, tid: str = "T1", **kw: object) -> None:
    run(state, SellTicket(id=tid, target="main", value=1100, **kw))  # type: ignore[arg-type]


def use(
    state: HouseState, cid: str, ticket: str = "T1", player: str | None = "P1", to: str = "main"
) -> None:
    claim = UseTicketClaim(ticket=ticket, tournament=to, player=player)
    run(state, TakeHold(hold=cid, tournament=to, command_id=cid, claim=claim))


def test_a_ticket_is_used_once_the_registration_is_written() -> None:
    state = HouseState()
    sold(state, holder="P1", name="Ann")
    use(state, "r1")
    assert state.tickets.tickets["T1"].status == "issued"
    # Reserved: a second registration with it at the same time is refused.
    refused(
        state,
        TakeHold(
            hold="r2",
            tournament="main",
            command_id="r2",
            claim=UseTicketClaim(ticket="T1", tournament="main", player="P1"),
        ),
        "ticket_held",
        {"ticket": "T1"},
    )
    run(state, SettleHold(hold="r1", committed=True))
    t = state.tickets.tickets["T1"]
    assert (t.status, t.used_in, t.used_by) == ("used", "main", "P1")
    refused(
        state,
        TakeHold(
            hold="r3",
            tournament="main",
            command_id="r3",
            claim=UseTicketClaim(ticket="T1", tournament="main", player="P1"),
        ),
        "ticket_not_issued",
        {"ticket": "T1", "ticket_status": "used"},
    )


def test_a_refused_registration_frees_its_ticket() -> None:
    state = HouseState()
    sold(state)
    use(state, "r1", player=None)
    run(state, SettleHold(hold="r1", committed=False))
    assert state.tickets.tickets["T1"].status == "issued"
    use(state, "r2", player=None)
    assert "r2" in state.holds


def test_a_ticket_enters_its_own_target_only_and_a_bound_one_its_holder_only() -> None:
    state = HouseState()
    sold(state, holder="P1")
    claim = UseTicketClaim(ticket="T1", tournament="side", player="P1")
    refused(
        state,
        TakeHold(hold="r", tournament="side", command_id="r", claim=claim),
        "ticket_other_event",
        {"ticket": "T1", "target": "main"},
    )
    claim = UseTicketClaim(ticket="T1", tournament="main", player="P2")
    refused(
        state,
        TakeHold(hold="r", tournament="main", command_id="r", claim=claim),
        "ticket_bound",
        {"ticket": "T1", "holder": "P1"},
    )
    refused(
        state,
        TransferTicket(ticket="T1", holder="P2"),
        "ticket_bound",
        {"ticket": "T1", "holder": "P1"},
    )
    claim = UseTicketClaim(ticket="T9", tournament="main", player="P1")
    refused(
        state,
        TakeHold(hold="r", tournament="main", command_id="r", claim=claim),
        "ticket_unknown",
        {"ticket": "T9"},
    )


def test_a_transferable_ticket_is_handed_on_and_used_by_its_new_holder() -> None:
    state = HouseState()
    sold(state, holder="P1", transferable=True)
    run(state, TransferTicket(ticket="T1", holder="P2", name="Bea"))
    assert (state.tickets.tickets["T1"].holder, state.tickets.tickets["T1"].name) == ("P2", "Bea")
    use(state, "r1", player="P2")
    run(state, SettleHold(hold="r1", committed=True))
    assert state.tickets.tickets["T1"].used_by == "P2"


def test_expired_and_refunded_tickets_are_not_used_and_a_held_one_not_refunded() -> None:
    state = HouseState()
    sold(state, "T1")
    sold(state, "T2")
    sold(state, "T3", expires=5.0)
    run(state, ExpireTicket(ticket="T1"))
    run(state, RefundTicket(ticket="T2"))
    for tid, status in (("T1", "expired"), ("T2", "refunded"), ("T3", "expired")):
        claim = UseTicketClaim(ticket=tid, tournament="main")
        refused(
            state,
            TakeHold(hold="r", tournament="main", command_id="r", claim=claim),
            "ticket_not_issued",
            {"ticket": tid, "ticket_status": status},
        )
    sold(state, "T4")
    use(state, "r4", ticket="T4", player=None)
    refused(state, RefundTicket(ticket="T4"), "ticket_held", {"ticket": "T4"})


def test_a_satellite_s_seats_enter_the_ledger_once_when_the_satellite_wrote_them() -> None:
    state = HouseState()
    issues = tuple(
        TicketIssue(
            id=f"sat-seat-{i}",
            target="main",
            value=1100,
            holder=f"P{i}",
            source="satellite",
            origin="sat",
        )
        for i in (1, 2, 3)
    )
    claim = IssueTicketsClaim(tickets=issues)
    run(state, TakeHold(hold="i1", tournament="sat", command_id="i1", claim=claim))
    assert not state.tickets.tickets
    refused(
        state,
        TakeHold(hold="i2", tournament="sat", command_id="i2", claim=claim),
        "ticket_exists",
        {"ticket": "sat-seat-1"},
    )
    run(state, SettleHold(hold="i1", committed=True))
    assert sorted(state.tickets.tickets) == ["sat-seat-1", "sat-seat-2", "sat-seat-3"]
    assert {t.holder for t in state.tickets.tickets.values()} == {"P1", "P2", "P3"}
    refused(
        state,
        TakeHold(hold="i3", tournament="sat", command_id="i3", claim=claim),
        "ticket_exists",
        {"ticket": "sat-seat-1"},
    )


@settings(max_examples=80, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["take", "commit", "release", "refund", "expire"]),
            st.integers(0, 3),
            st.integers(0, 2),
        ),
        max_size=40,
    )
)
def test_no_ticket_is_ever_used_twice_nor_held_twice(steps: list[tuple[str, int, int]]) -> None:
    state = HouseState()
    for i in range(3):
        sold(state, f"T{i}")
    used: dict[str, int] = {}
    for n, (what, reg, ticket) in enumerate(steps):
        tid, hid = f"T{ticket}", f"r{reg}"
        try:
            if what == "take":
                use(state, hid, ticket=tid, player=None)
            elif what in ("commit", "release"):
                before = {k: v.status for k, v in state.tickets.tickets.items()}
                run(state, SettleHold(hold=hid, committed=what == "commit"))
                for k, v in state.tickets.tickets.items():
                    if v.status == "used" and before[k] != "used":
                        used[k] = used.get(k, 0) + 1
            elif what == "refund":
                run(state, RefundTicket(ticket=tid))
            else:
                run(state, ExpireTicket(ticket=tid))
        except NotAllowed:
            pass
        held = [h.claim.ticket for h in state.holds.values() if isinstance(h.claim, UseTicketClaim)]
        assert len(held) == len(set(held)), n
        for k in held:
            assert state.tickets.tickets[k].status == "issued"
    assert all(v == 1 for v in used.values())


def test_a_ticket_sold_without_an_id_is_refused_naming_it() -> None:
    state = HouseState()
    with pytest.raises(BadValue) as caught:
        decide(state, SellTicket(target="main", value=1), 1.0)
    assert caught.value.field == "id"
    assert_said(caught.value, "ticket_no_id", {})
    sold(state)
    refused(state, SellTicket(id="T1", target="main", value=1), "ticket_exists", {"ticket": "T1"})


def test_a_ticket_into_a_later_flight_is_refused_to_a_player_who_bagged_earlier() -> None:

    floor = Floor({1: "1-5 pos 1/2/3"})
    rules = FlightRules(stack_forward="no_flight_after_bag")
    floor.do(cmd.SetFlight(event="main", order=2, rules=rules))
    claim = claim_of(floor.t.state, cmd.Register(name="Ann", player="P1", ticket="T1"))
    assert claim == UseTicketClaim(
        ticket="T1", tournament="t", player="P1", entry_event="main", entry_order=2
    )
    state = HouseState()
    run(state, SellTicket(id="T1", target="t", value=1100))
    bag = Sheet(flight="day1a", event="main", order=1, table=1, bags=(("P1", 5000),))
    run(state, TakeHold(hold="b", tournament="day1a", command_id="b", claim=SheetClaim(sheet=bag)))
    run(state, SettleHold(hold="b", committed=True))
    with pytest.raises(NotAllowed) as caught:
        decide(state, TakeHold(hold="r", tournament="t", command_id="r", claim=claim), 10.0)
    assert caught.value.reason == "flight_after_bag"
    assert not state.holds
