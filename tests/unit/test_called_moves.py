"""Players see only what is settled: a move reaches the room once the floor calls it.

A planned move is a proposal (the staff see it); the room (the wall, a player screen, a
follower's phone) is sent only the moves the floor has called or carried out. A called move
keeps its destination across later changes, and is redirected only by calling it again.
"""

from __future__ import annotations

import json
from typing import Any

import msgspec

from floor.engine import commands as cmd
from floor.engine.errors import BadSeat, NotAllowed
from floor.engine.events import CallsLapsed, MoveCall, MovesCalled, PlayersMoved, SeatsAssigned
from floor.engine.model import Spot
from floor.engine.plan import Place
from floor.engine.read.derived import staff_facts
from floor.engine.validate import replay
from floor.protocol import encode_derived, encode_event, events_message
from floor.server.redact import for_public
from floor.server.views import find_players, packed_snapshots, snapshots
from tests.unit.builders import Floor

# 9 v 7: T1's next big blind (T1S7) is planned to T2's worst seat, 6.
LAYOUT = {1: "1-9 pos 4/5/6", 2: "1-5,7,9 pos 2/3/4"}
# 19 players: one bust-out more and the other two tables seat everybody, so table 3 breaks.
BREAKING = {1: "1-9 pos 4/5/6", 2: "1-7 pos 1/2/3", 3: "1-3 pos 1/2/3"}


def public_batch(floor: Floor, events: list[Any]) -> dict[str, Any]:
    """The batch of ``events`` as a public screen is sent it."""
    raw = [encode_event(e) for e in events]
    data = events_message("t", len(floor.log), raw, encode_derived(floor.t, events))
    shown: dict[str, Any] = json.loads(for_public(data))
    return shown


def public_snapshot(floor: Floor) -> dict[str, Any]:
    shown: dict[str, Any] = json.loads(snapshots("t", floor.t, len(floor.log))["public"])
    return shown


def test_an_uncalled_move_is_planned_for_the_staff_and_not_sent_to_the_room() -> None:
    floor = Floor(LAYOUT)
    events = floor.bust("T2S9")  # 9 v 6: still the one move, T1S7 to T2 seat 6
    assert floor.moves() == [("T1S7", (1, 7), (2, 6), "balance")]
    assert floor.t.plan.moves[0].called == 0

    assert public_batch(floor, events)["plan"]["moves"] == []
    assert public_snapshot(floor)["plan"]["moves"] == []
    packed = json.loads(packed_snapshots("t", floor.t, len(floor.log))["public"])
    assert packed["plan"]["moves"] == []
    # Nor does the player search, which anybody may ask.
    assert find_players(floor.t, "T1S7")[0].moving_to is None
    # The staff are sent it as planned.
    staff = json.loads(snapshots("t", floor.t, len(floor.log))["staff"])
    assert [m["player"] for m in staff["plan"]["moves"]] == ["T1S7"]


def test_a_called_move_reaches_the_room_with_its_call() -> None:
    floor = Floor(LAYOUT)
    events = floor.do(cmd.CallMove(player="T1S7"), now=100.0)

    call = MoveCall(player="T1S7", from_=Spot(1, 7), to=Place(2, 6), reason="balance")
    assert events == [MovesCalled(calls=(call,), at=100.0)]
    move = floor.t.plan.moves[0]
    assert (move.called, move.called_at) == (1, 100.0)
    shown = public_batch(floor, events)
    assert [m["player"] for m in shown["plan"]["moves"]] == ["T1S7"]
    assert shown["events"][0]["event"]["type"] == "moves_called"
    assert find_players(floor.t, "T1S7")[0].moving_to == {"table": 2, "seat": 6}
    # Carried out, the move is done and the call gone.
    floor.confirm("T1S7")
    assert floor.where("T1S7") == (2, 6)
    assert floor.t.state.calls == {}


def test_the_seats_drawn_for_a_break_are_not_sent_to_the_room_until_called() -> None:
    floor = Floor(BREAKING)
    events = floor.bust("T1S1")  # 18 players fit two tables: table 3 breaks
    drawn = [e for e in events if isinstance(e, SeatsAssigned)]
    assert drawn and drawn[0].seats

    shown = public_batch(floor, events)
    assigned = [x["event"] for x in shown["events"] if x["event"]["type"] == "seats_assigned"]
    assert assigned == [{"type": "seats_assigned", "reason": "break", "seats": [], "withdrawn": []}]
    assert shown["plan"]["moves"] == []
    assert public_snapshot(floor)["state"]["draws"] == {}

    # "Call all" for the break: every seat called at once, then shown.
    called = floor.do(cmd.CallAll(reason="break"))
    assert [len(e.calls) for e in called if isinstance(e, MovesCalled)] == [3]
    shown = public_batch(floor, called)
    assert sorted(m["player"] for m in shown["plan"]["moves"]) == ["T3S1", "T3S2", "T3S3"]
    assert all(m["called"] == 1 for m in shown["plan"]["moves"])
    refused = floor.refuse(cmd.CallAll(reason="break"), NotAllowed, "reason")
    assert refused.reason == "no_moves_to_call"


def test_a_called_move_keeps_its_seat_when_a_later_bust_out_would_change_it() -> None:
    # Uncalled, the worst seat follows the table: seat 5 empties, and the plan takes it.
    plain = Floor(LAYOUT)
    plain.bust("T2S5")
    assert plain.move_of("T1S7") == ("T1S7", (1, 7), (2, 5), "balance")

    floor = Floor(LAYOUT)
    floor.do(cmd.CallMove(player="T1S7"))
    events = floor.bust("T2S5")
    assert floor.move_of("T1S7") == ("T1S7", (1, 7), (2, 6), "balance")
    assert floor.t.plan.move_of("T1S7").called == 1  # type: ignore[union-attr]
    assert not any(isinstance(e, CallsLapsed) for e in events)
    # And another bust-out at the source: still as called (the floor may cancel it).
    floor.bust("T1S1")
    assert floor.move_of("T1S7") == ("T1S7", (1, 7), (2, 6), "balance")


def test_a_redirect_after_the_call_is_refused_until_the_floor_calls_the_move_again() -> None:
    floor = Floor(LAYOUT)
    floor.do(cmd.CallMove(player="T1S7"))

    refused = floor.refuse(cmd.Confirm(player="T1S7", seat=8), NotAllowed, "seat")
    assert refused.reason == "move_called"
    assert refused.params == {"player": "T1S7", "table": 2, "seat": 6, "to": 8}
    refused = floor.refuse(cmd.CallMove(player="T1S7"), NotAllowed, "seat")
    assert refused.reason == "move_already_called_seat"
    assert refused.message == "the move of T1S7 is already called to table 2 seat 6"
    # A seat somebody holds is no more callable than it is a redirect.
    refused = floor.refuse(cmd.CallMove(player="T1S7", seat=1), BadSeat, "seat")
    assert refused.reason == "seat_taken"

    events = floor.do(cmd.CallMove(player="T1S7", seat=8), now=50.0)
    call = events[0]
    assert isinstance(call, MovesCalled)
    assert (call.calls[0].to.seat, call.calls[0].count) == (8, 2)
    move = floor.t.plan.move_of("T1S7")
    assert move is not None and (move.to.seat, move.called) == (8, 2)
    assert staff_facts(floor.t).seats[0].called == 8
    floor.refuse(cmd.Confirm(player="T1S7", seat=6), NotAllowed, "seat")
    moved = floor.confirm("T1S7")
    assert isinstance(moved[0], PlayersMoved) and floor.where("T1S7") == (2, 8)


def test_a_call_the_plan_can_no_longer_keep_lapses_for_every_screen_to_see() -> None:
    # T1S7 called to the short table 3; a bust-out then breaks table 3: the call is off.
    floor = Floor(BREAKING)
    assert floor.move_of("T1S7") == ("T1S7", (1, 7), (3, 4), "balance")
    floor.do(cmd.CallMove(player="T1S7"))
    events = floor.bust("T2S1")
    assert [e for e in events if isinstance(e, CallsLapsed)] == [CallsLapsed(players=("T1S7",))]
    assert floor.t.state.calls == {}
    assert all(m.called == 0 for m in floor.t.plan.moves)


def test_a_cancelled_or_lapsed_call_folds_the_same_from_the_log() -> None:
    floor = Floor(LAYOUT)
    floor.do(cmd.CallMove(player="T1S7"), cmd.Cancel(player="T1S7"))
    assert floor.t.state.calls == {}
    # The log, checked and folded, gives the same state and plan.
    again = replay(floor.log)
    assert msgspec.msgpack.encode(again.state) == floor.snapshot()
    assert again.plan == floor.t.plan


def test_the_floor_sees_how_often_each_player_has_moved_today() -> None:
    floor = Floor(LAYOUT)
    floor.confirm("T1S7")
    assert floor.t.player("T1S7").moves == 1
    assert staff_facts(floor.t).moves == {"T1S7": 1}
    # A batch names the players it moved, and only those.
    events = floor.do(cmd.CorrectSeat(player="T1S7", table=2, seat=8))
    assert staff_facts(floor.t, events).moves == {"T1S7": 1}  # a correction is no move
