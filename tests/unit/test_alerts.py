"""What a batch asks of somebody (floor/engine/read/alerts.py): the alerts a player's phone or a
floorperson's is woken for, and never a move the room has not been shown."""

from __future__ import annotations

from floor.engine import commands as cmd
from floor.engine.events import DayEnded
from floor.engine.read.alerts import PlayerAlert, StaffAlert, for_players, for_staff
from tests.unit.builders import Floor
from tests.unit.test_money import six


def test_a_planned_move_alerts_nobody_until_the_floor_calls_it() -> None:
    floor = Floor({1: "1-9 pos 1/2/3", 2: "1-6 pos 1/2/3"})
    busted = floor.bust("T2S6", "T2S5")
    assert floor.moves("balance"), "a balance move is planned"
    assert [a for a in for_players(busted, floor.t) if a.kind == "move_called"] == []

    mover = floor.moves("balance")[0][0]
    assert mover is not None
    called = floor.do(cmd.CallMove(player=mover))
    [alert] = for_players(called, floor.t)
    planned = floor.t.plan.move_of(mover)
    assert planned is not None
    assert alert == PlayerAlert(
        kind="move_called", player=mover, table=planned.to.table, seat=planned.to.seat
    )


def test_a_table_breaking_alerts_every_player_at_it_and_its_floorperson() -> None:
    floor = Floor({1: "1-8 pos 1/2/3", 2: "1-9 pos 1/2/3", 3: "1-3 pos 1/2/3"})
    assert for_players(floor.bust("T3S3"), floor.t) == []
    # Two seats free elsewhere for table 3's two players: it breaks by the rule.
    events = floor.bust("T1S8")
    mine = for_players(events, floor.t)
    assert sorted(a.player for a in mine if a.kind == "table_breaking") == ["T3S1", "T3S2"]
    assert {a.table for a in mine} == {3}
    assert for_staff(events) == [StaffAlert(kind="table_breaking", table=3)]


def test_a_time_call_alerts_the_floorperson_of_its_table_and_no_player() -> None:
    floor = Floor({1: "1-9 pos 1/2/3", 2: "1-9 pos 1/2/3"})
    events = floor.do(cmd.CallTime(table=2, seat=4))
    assert for_staff(events) == [StaffAlert(kind="time_called", table=2, seat=4)]
    assert for_players(events, floor.t) == []


def test_the_bubble_bursting_alerts_every_player_left_and_the_paid_their_payout() -> None:
    floor = six()
    before = floor.bust("T1S6", "T1S5")
    assert for_players(before, floor.t) == []  # out of the money: no payout, no bubble yet

    burst = floor.bust("T1S4")
    mine = for_players(burst, floor.t)
    assert sorted(a.player for a in mine) == ["T1S1", "T1S2", "T1S3"]
    assert {(a.kind, a.places) for a in mine} == {("in_the_money", 3)}

    # Out in the money: their payout is ready; the bubble is not told again.
    paid = for_players(floor.bust("T1S3"), floor.t)
    assert paid == [
        PlayerAlert(kind="payout_ready", player="T1S3", place=3, prize=120, currency="EUR")
    ]
    # The last bust-out makes the winner: both are paid.
    last = for_players(floor.bust("T1S2"), floor.t)
    assert sorted((a.player, a.place, a.prize) for a in last) == [
        ("T1S1", 1, 300),
        ("T1S2", 2, 180),
    ]


def test_bag_time_alerts_every_player_still_seated() -> None:
    floor = Floor({1: "1-3 pos 1/2/3", 2: "1-2 pos 1/2/3"})
    floor.bust("T2S2")
    mine = for_players([DayEnded(at=5.0, level=4)], floor.t)
    assert sorted((a.player, a.table, a.level) for a in mine) == [
        ("T1S1", 1, 4),
        ("T1S2", 1, 4),
        ("T1S3", 1, 4),
        ("T2S1", 2, 4),
    ]
