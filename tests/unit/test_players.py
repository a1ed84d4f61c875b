"""A player after registration (``floor.engine.players``): the name corrected, special needs
marked, the entry withdrawn with its refund, a move by hand with the stack, a seat lock.

Each change is accepted as an event the log replays through its checks, or refused with the
reason and the field, changing nothing. The staff facts say in advance what ``decide`` does.
"""

from __future__ import annotations

import msgspec
import pytest

from floor.engine import commands as cmd
from floor.engine.errors import BadValue, NotAllowed, UnknownPlayer
from floor.engine.events import (
    PlayerRenamed,
    PlayerUnregistered,
    SpecialNeedsSet,
    TimeCallEnded,
)
from floor.engine.read.derived import staff_facts
from floor.engine.read.views import field_stats, results
from floor.engine.validate import InvalidEvent, replay
from floor.engine.why import Why
from floor.server.views import find_players
from tests.browser.tournaments import MONEY, play
from tests.unit.builders import Floor
from tests.unit.test_derived import assert_refused_as, attempt
from tests.unit.test_entries_and_buys import PRIZE, STRUCTURE, at_step, table
from tests.unit.test_error_codes import assert_said


def replayed(floor: Floor) -> bytes:
    """The state the log folds to through the import checks: what the floor holds."""
    return msgspec.msgpack.encode(replay(floor.log).state)


def waiting(*names: str) -> Floor:
    """Players registered, no draw yet."""
    floor = Floor({}, structure=STRUCTURE)
    for i, name in enumerate(names):
        floor.do(cmd.Register(name=name, player=f"P{i}"))
    return floor


# --- the name ---------------------------------------------------------------------------------


def test_a_name_is_corrected_and_every_search_finds_the_new_one() -> None:
    floor = table()

    (event,) = floor.do(cmd.RenamePlayer(player="T1S2", name="  Tomáš   Novák "))

    assert event == PlayerRenamed(player="T1S2", name="Tomáš Novák", was="T1S2")
    assert floor.t.player("T1S2").name == "Tomáš Novák"
    assert [p.id for p in find_players(floor.t, "novak")] == ["T1S2"]
    assert replayed(floor) == floor.snapshot()


def test_an_out_players_name_is_corrected_too_for_the_results() -> None:
    floor = table()
    floor.bust("T1S4")

    floor.do(cmd.RenamePlayer(player="T1S4", name="Eva Svobodová"))

    assert [f.name for f in results(floor.t) if f.player == "T1S4"] == ["Eva Svobodová"]


@pytest.mark.parametrize(
    ("command", "error", "field", "reason"),
    [
        (cmd.RenamePlayer(player="T1S2", name="T1S2"), NotAllowed, "name", "name_unchanged"),
        (cmd.RenamePlayer(player="T1S2", name=" T1S2 "), NotAllowed, "name", "name_unchanged"),
        (cmd.RenamePlayer(player="T1S2", name="   "), BadValue, "name", "name_blank"),
        (cmd.RenamePlayer(player="T1S2", name="Jan\u202e"), BadValue, "name", "name_hidden_marks"),
        (cmd.RenamePlayer(player="NOBODY", name="Ann"), UnknownPlayer, "player", "player_unknown"),
    ],
)
def test_a_name_that_would_not_show_or_change_is_refused(
    command: cmd.Command, error: type[Exception], field: str, reason: str
) -> None:
    floor = table()
    refused = floor.refuse(command, error, field)  # type: ignore[arg-type]
    assert refused.reason == reason


# --- special needs ----------------------------------------------------------------------------


def test_special_needs_are_marked_and_unmarked_after_registration() -> None:
    floor = table()

    assert floor.do(cmd.SetSpecialNeeds(player="T1S3")) == [
        SpecialNeedsSet(player="T1S3", special_needs=True)
    ]
    player = floor.t.player("T1S3")
    assert player.special_needs and floor.t.needs_reserved(player)

    floor.do(cmd.SetSpecialNeeds(player="T1S3", special_needs=False))
    assert not floor.t.player("T1S3").special_needs
    assert replayed(floor) == floor.snapshot()


def test_special_needs_already_so_or_of_a_player_out_are_refused() -> None:
    floor = table()
    floor.bust("T1S4")

    unmark = cmd.SetSpecialNeeds(player="T1S1", special_needs=False)
    refused = floor.refuse(unmark, NotAllowed, "special_needs")
    assert_said(refused, "special_needs_not_marked", {"player": "T1S1"})
    floor.do(cmd.SetSpecialNeeds(player="T1S1"))
    refused = floor.refuse(cmd.SetSpecialNeeds(player="T1S1"), NotAllowed, "special_needs")
    assert_said(refused, "special_needs_already", {"player": "T1S1"})
    refused = floor.refuse(cmd.SetSpecialNeeds(player="T1S4"), NotAllowed, "player")
    assert_said(refused, "player_is_out", {"player": "T1S4"})


# --- unregistering with a refund --------------------------------------------------------------


def test_before_the_draw_an_entry_is_withdrawn_and_the_pool_drops_by_the_buy_in() -> None:
    floor = waiting("Ann", "Bob", "Cy")
    before = field_stats(floor.t)

    (event,) = floor.do(cmd.Unregister(player="P1"))

    assert event == PlayerUnregistered(player="P1", name="Bob", refund=600, at=0.0)
    assert "P1" not in floor.t.state.players
    after = field_stats(floor.t)
    assert (before.entries, after.entries) == (3, 2)
    assert before.prize_pool is not None and after.prize_pool is not None
    assert before.prize_pool - after.prize_pool == PRIZE.buy_in
    assert before.chips is not None and after.chips is not None
    assert before.chips - after.chips == STRUCTURE.starting_stack
    floor.do(cmd.DrawSeats())
    assert sorted(p.table is not None for p in floor.t.state.players.values()) == [True, True]
    assert replayed(floor) == floor.snapshot()


def test_within_late_registration_a_seated_player_leaves_with_their_chips_and_money() -> None:
    floor = at_step(table(), 1)  # level 2: late registration is open until level 2
    floor.do(cmd.SetStack(player="T1S2", stack=13_000), cmd.Rebuy(player="T1S2"))
    before = field_stats(floor.t)

    (event,) = floor.do(cmd.Unregister(player="T1S2"))

    assert isinstance(event, PlayerUnregistered)
    # The entry (buy-in and fee) and the rebuy (its price) are paid back.
    assert (event.table, event.seat, event.refund, event.rebuys) == (1, 2, 500 + 100 + 500, 1)
    assert 2 not in floor.seats(1)
    after = field_stats(floor.t)
    assert before.chips is not None and after.chips is not None
    assert before.chips - after.chips == 13_000 + 10_000
    assert before.prize_pool is not None and after.prize_pool is not None
    assert before.prize_pool - after.prize_pool == PRIZE.buy_in + 500
    assert (after.entries, after.rebuys, after.players_left) == (3, 0, 3)
    assert replayed(floor) == floor.snapshot()


def test_a_withdrawn_entry_moves_every_place_recorded_up_one() -> None:
    floor = table()
    floor.bust("T1S4")
    assert floor.t.player("T1S4").bust.place == 4  # type: ignore[union-attr]

    floor.do(cmd.Unregister(player="T1S1"))

    assert floor.t.player("T1S4").bust.place == 3  # type: ignore[union-attr]
    assert [(f.place, f.player) for f in results(floor.t)] == [(3, "T1S4")]
    floor.bust("T1S3")
    assert floor.t.player("T1S3").bust.place == 2  # type: ignore[union-attr]
    assert replayed(floor) == floor.snapshot()


def test_a_time_call_on_a_player_who_leaves_ends_with_them() -> None:
    floor = table()
    floor.do(cmd.CallTime(table=1, seat=2))

    events = floor.do(cmd.Unregister(player="T1S2"))

    assert isinstance(events[0], TimeCallEnded) and events[0].outcome == "cancelled"
    assert floor.t.state.time_calls == []


def test_a_new_player_never_gets_the_id_of_one_who_left() -> None:
    floor = waiting()
    floor.do(*(cmd.Register(name=n) for n in ("Ann", "Bob", "Cy")))
    assert sorted(floor.t.state.players) == ["P0001", "P0002", "P0003"]

    floor.do(cmd.Unregister(player="P0003"), cmd.Register(name="Dan"))

    assert floor.t.state.players["P0004"].name == "Dan"


def test_after_late_registration_closes_an_entry_is_not_refunded() -> None:
    floor = at_step(table(), 3)  # level 3: late registration closed after level 2

    refused = floor.refuse(cmd.Unregister(player="T1S1"), NotAllowed, "player")

    assert_said(refused, "unregister_closed", {"player": "T1S1", "until": 2})


def test_a_player_out_or_in_on_a_re_entry_is_not_unregistered() -> None:
    floor = table()
    floor.bust("T1S4")
    refused = floor.refuse(cmd.Unregister(player="T1S4"), NotAllowed, "player")
    assert_said(refused, "unregister_out", {"player": "T1S4"})

    floor.do(cmd.Register(name="T1S4", player="T1S4"))
    refused = floor.refuse(cmd.Unregister(player="T1S4"), NotAllowed, "player")
    assert_said(refused, "unregister_re_entry", {"player": "T1S4", "entries": 2})
    floor.refuse(cmd.Unregister(player="NOBODY"), UnknownPlayer, "player")


def test_the_staff_facts_say_when_an_entry_can_be_refunded_and_for_how_much() -> None:
    floor = table()
    facts = staff_facts(floor.t)
    assert facts.refund is not None
    assert (facts.refund.closed, facts.refund.entry, facts.refund.rebuy) == (None, 600, 500)
    assert facts.refund.add_on == 400

    floor.bust("T1S4")
    floor.do(cmd.Register(name="T1S4", player="T1S4"))
    bars = staff_facts(floor.t).bars
    assert bars["T1S4"]["unregister"] == Why(  # type: ignore[index]
        "unregister_re_entry", {"player": "T1S4", "entries": 2}
    )

    at_step(floor, 3)
    facts = staff_facts(floor.t)
    assert facts.refund is not None
    assert facts.refund.closed == Why("unregister_closed", {"until": 2})


# --- moving by hand and seat locks ------------------------------------------------------------


def test_a_player_moved_by_hand_to_another_table_keeps_their_counted_stack() -> None:
    floor = Floor({1: "1-6 pos 1/2/3", 2: "1-6 pos 1/2/3"}, structure=STRUCTURE)
    floor.do(cmd.SetStack(player="T1S3", stack=31_250))

    floor.do(cmd.CorrectSeat(player="T1S3", table=2, seat=8))

    player = floor.t.player("T1S3")
    assert (floor.where("T1S3"), player.stack, player.counted) == ((2, 8), 31_250, True)
    assert replayed(floor) == floor.snapshot()


def test_a_seat_lock_is_set_and_lifted_and_refused_for_a_player_out() -> None:
    floor = table()
    floor.do(cmd.LockSeat(player="T1S1"))
    assert floor.t.player("T1S1").locked
    floor.do(cmd.LockSeat(player="T1S1", locked=False))
    assert not floor.t.player("T1S1").locked
    floor.bust("T1S4")
    floor.refuse(cmd.LockSeat(player="T1S4"), NotAllowed, "player")


# --- a log brought in --------------------------------------------------------------------------


def test_a_forged_withdrawal_is_refused_where_it_does_not_follow_the_log() -> None:
    floor = table()
    honest = PlayerUnregistered(
        player="T1S2", name="T1S2", table=1, seat=2, refund=600, change=0, at=0.0
    )
    assert floor.do(cmd.Unregister(player="T1S2")) == [honest]
    for forged, name in [
        (msgspec.structs.replace(honest, refund=6_000), "refund"),
        (msgspec.structs.replace(honest, seat=3), "player"),
        (msgspec.structs.replace(honest, change=-5), "change"),
    ]:
        with pytest.raises(InvalidEvent) as caught:
            replay([*floor.log[:-1], forged])
        assert caught.value.error.field == name, caught.value


def test_the_refund_the_facts_offer_is_what_decide_accepts() -> None:
    """Random tournaments, before and after late registration closes: for every player still
    in, unregistering is accepted exactly when the facts say, refused with their reason."""
    checked = {"accepted": 0, "closed": 0, "barred": 0}
    for seed in range(3):
        g = play(seed, players=40, steps=120)
        for step in range(2):
            t = g.t
            facts = staff_facts(t)
            assert facts.refund is not None
            for p in list(t.state.players.values()):
                if p.busted:
                    continue
                error = attempt(t, cmd.Unregister(player=p.id))
                barred = (facts.bars.get(p.id) or {}).get("unregister")
                why = facts.refund.closed or barred
                if why is None:
                    assert error is None, error
                    checked["accepted"] += 1
                else:
                    assert_refused_as(error, why, p.id)
                    checked["closed" if facts.refund.closed else "barred"] += 1
            if step == 0:  # on to a level after late registration
                g.do(cmd.ClockStart())
                g.do(cmd.ClockLevel(to=len(MONEY["levels"]) - 1))
    assert all(checked.values()), checked
