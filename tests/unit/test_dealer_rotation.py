"""The room's rotation (``floor.engine.house.rotation``), decided and folded as the house
keeps it: pushes on time by the next dealer free, breaks after N downs, the pool running
short (breaks shortened, tables waiting, in the house's order), dealers marked sick replaced,
the dealer room's swaps, moves and pins kept, games matched, the final table's own dealers,
hand-for-hand holding the pushes, a breaking table's dealer to the pool, a break or home in
the house's order, and the plan shown being the plan made."""

from __future__ import annotations

import msgspec
import pytest

from floor.engine.errors import ConfigValueError, NotAllowed, RuleError
from floor.engine.house.dealers import MAX_DEALERS, RoomSettings
from floor.engine.house.dealers_commands import (
    ClockIn,
    ClockOut,
    MarkDealer,
    Move,
    Pin,
    RemoveDealer,
    SaveDealer,
    SetEarlyList,
    SetFinalDealers,
    SetSettings,
    Swap,
    Tick,
)
from floor.engine.house.dealers_events import DealerSaved, Released, Sat, Waiting
from floor.engine.house.rotation import needed, needed_by_slot
from floor.engine.house.rotation_plan import alerts, forecast, room_view
from floor.engine.house.state import apply
from tests.unit.dealer_room import RoomSim

MIN = 60.0
#: Pushes every 30 minutes, a 20-minute break after 3 downs, never less than 10 minutes.
SETTINGS = RoomSettings(
    push_every=30 * MIN, break_every=3, break_length=20 * MIN, min_rest=10 * MIN
)


def room(*dealers: str, settings: RoomSettings = SETTINGS) -> RoomSim:
    sim = RoomSim(settings)
    sim.dealers(*dealers)
    return sim


def pushes(sim: RoomSim, since: int = 0) -> list[Sat]:
    return [e for e in sim.log[since:] if isinstance(e, Sat)]


def test_every_table_gets_a_dealer_from_the_pool_the_longest_waiting_first() -> None:
    sim = room("ann", "bob", "cat", "dan")
    sim.tables("main", [1, 2, 3])
    assert sim.seated() == {"main/1": "ann", "main/2": "bob", "main/3": "cat"}
    assert sim.room.dealers["dan"].status == "pool"
    assert all(t.due == 30 * MIN for t in sim.room.tables.values())


def test_a_dealer_is_pushed_after_the_set_time_and_goes_to_the_next_table() -> None:
    sim = room("ann", "bob", "cat")
    sim.tables("main", [1])
    sim.now = 10 * MIN
    sim.tables("main", [1, 2])  # table 2 opens ten minutes later
    assert sim.seated() == {"main/1": "ann", "main/2": "bob"}
    sim.run_to(30 * MIN)
    # cat pushes ann at 1; ann waits in the pool for table 2's push at 40 minutes.
    assert sim.seated() == {"main/1": "cat", "main/2": "bob"}
    plan = forecast(sim.room, sim.now)
    assert plan.next["ann"].to == "table" and plan.next["ann"].table == 2
    assert plan.next["ann"].arrives == 40 * MIN
    assert plan.next["bob"].leaves == 40 * MIN
    sim.run_to(40 * MIN)
    assert sim.seated() == {"main/1": "cat", "main/2": "ann"}
    assert sim.room.tables["main/2"].due == 70 * MIN


def test_a_push_written_late_is_made_at_its_own_instant() -> None:
    on_time, late = room("ann", "bob", "cat"), room("ann", "bob", "cat")
    for sim in (on_time, late):
        sim.tables("main", [1, 2])
    on_time.run_to(4 * 3600)
    late.run_to(4 * 3600, every=7 * MIN)  # a driver that looks every seven minutes
    made = [e for e in on_time.log if type(e).__name__ != "Advanced"]
    assert [e for e in late.log if type(e).__name__ != "Advanced"] == made


def test_a_break_comes_after_the_set_downs_and_lasts_its_length() -> None:
    sim = room("ann", "bob", "cat", "dan")
    sim.tables("main", [1, 2])
    sim.run_to(4 * 3600)
    breaks = [e for e in sim.log if isinstance(e, Released) and e.to == "break"]
    assert breaks, "nobody had a break"
    for b in breaks:
        assert b.until == b.at + 20 * MIN
        downs = [
            e for e in sim.log if isinstance(e, Released) and e.dealer == b.dealer and e.at < b.at
        ]
        since_break = [e for e in downs if e.to == "break"]
        last = since_break[-1].at if since_break else -1
        dealt = [e for e in downs if e.at > last and e.to in ("pool",)]
        assert len(dealt) == SETTINGS.break_every - 1, b
    assert not [e for e in sim.log if isinstance(e, Released) and e.shortened]


def test_when_short_a_break_is_shortened_but_never_below_the_minimum_rest() -> None:
    # Two tables, three dealers: a break of 20 minutes cannot be given in full.
    sim = room("ann", "bob", "cat")
    sim.tables("main", [1, 2])
    sim.run_to(6 * 3600)
    shortened = [e for e in sim.log if isinstance(e, Released) and e.shortened]
    assert shortened
    for e in shortened:
        started = max(
            b.at
            for b in sim.log
            if isinstance(b, Released) and b.dealer == e.dealer and b.to == "break" and b.at <= e.at
        )
        assert e.at - started >= SETTINGS.min_rest


def test_tables_wait_first_when_the_house_says_so_then_breaks_shorten() -> None:
    settings = msgspec.structs.replace(SETTINGS, when_short="tables_wait", max_wait=5 * MIN)
    sim = room("ann", "bob", "cat", settings=settings)
    sim.tables("main", [1, 2])
    sim.run_to(6 * 3600)
    waits = [e for e in sim.log if isinstance(e, Waiting) and e.since is not None]
    shortened = [e for e in sim.log if isinstance(e, Released) and e.shortened]
    assert waits and shortened
    for e in shortened:
        waited = max(w.since for w in waits if w.since is not None and w.since <= e.at)
        assert e.at - waited >= 5 * MIN - 1e-6


def test_a_dealer_marked_sick_is_replaced_from_the_pool_at_once() -> None:
    sim = room("ann", "bob", "cat")
    sim.tables("main", [1, 2])
    sim.now = 12 * MIN
    sim.send(MarkDealer(dealer="bob", mark="sick"))
    assert sim.seated() == {"main/1": "ann", "main/2": "cat"}
    assert sim.room.dealers["bob"].status == "off"
    # Back from being marked, and clocked in: in the pool again.
    sim.send(MarkDealer(dealer="bob", mark=None))
    sim.send(ClockIn(dealer="bob"))
    assert sim.room.dealers["bob"].status == "pool"


def test_a_table_left_waiting_with_nobody_shows_no_push() -> None:
    # Its dealer marked sick and nobody free: the table waits, and the push its dealer had
    # is no push of anybody's (the screen read "push at 00:30" at a table with no dealer).
    sim = room("ann", "bob")
    sim.tables("main", [1, 2])
    sim.now = 5 * MIN
    sim.send(MarkDealer(dealer="ann", mark="sick"))
    view = room_view(sim.room, sim.now, forecast(sim.room, sim.now))
    waiting = next(t for t in view.tables if t.key == "main/1")
    assert (waiting.dealer, waiting.waiting) == (None, 5 * MIN)
    assert (waiting.due, waiting.coming) == (None, None)
    dealing = next(t for t in view.tables if t.key == "main/2")
    assert dealing.dealer == "bob" and dealing.due is not None


def test_a_dealer_clocked_out_at_a_table_is_replaced() -> None:
    sim = room("ann", "bob", "cat")
    sim.tables("main", [1])
    sim.now = 5 * MIN
    sim.send(ClockOut(dealer="ann"))
    assert sim.seated() == {"main/1": "bob"}
    with pytest.raises(NotAllowed) as e:
        sim.send(ClockOut(dealer="ann"))
    assert e.value.reason == "dealer_not_clocked_in"
    with pytest.raises(NotAllowed) as e:
        sim.send(ClockIn(dealer="bob"))
    assert e.value.reason == "dealer_clocked_in"


def test_games_are_matched_a_stud_table_gets_a_dealer_who_deals_stud() -> None:
    sim = room("ann", "bob")
    sim.dealers("sue", games=("stud", "razz"))
    sim.dealers("max", games=("mixed",))
    sim.tables("stud", [1], game="stud")
    sim.tables("horse", [1], game="mixed")
    assert sim.at("stud", 1) == "sue"
    assert sim.at("horse", 1) == "max"
    sim.run_to(30 * MIN)
    # Nobody else deals stud or mixed: those tables wait; max may deal the stud table.
    assert sim.at("stud", 1) in ("sue", "max")
    with pytest.raises(NotAllowed) as e:
        sim.send(Move(dealer="ann", table="stud/1"))
    assert e.value.reason == "dealer_game"


def test_the_dealer_room_s_swap_move_and_pin_are_kept_by_the_rotation() -> None:
    sim = room("ann", "bob", "cat", "dan")
    sim.tables("main", [1, 2])
    sim.now = 5 * MIN
    sim.send(Swap(a="main/1", b="main/2"))
    assert sim.seated() == {"main/1": "bob", "main/2": "ann"}
    sim.send(Move(dealer="dan", table="main/1"))
    assert sim.seated() == {"main/1": "dan", "main/2": "ann"}
    assert sim.room.tables["main/1"].due == 30 * MIN  # the table keeps its push
    sim.send(Pin(table="main/2", dealer="bob"))  # bob, not cat who waited longer
    sim.run_to(30 * MIN)
    assert sim.at("main", 2) == "bob"
    assert sim.at("main", 1) == "cat"
    with pytest.raises(NotAllowed) as e:
        sim.send(Move(dealer="bob", table="main/1"))
    assert e.value.reason == "dealer_busy"
    with pytest.raises(NotAllowed) as e:
        sim.send(Swap(a="main/1", b="main/1"))
    assert e.value.reason == "swap_same"
    with pytest.raises(RuleError) as e:
        sim.send(Swap(a="main/1", b="main/9"))
    assert e.value.reason == "room_table_unknown"


def test_hand_for_hand_holds_the_pushes_and_they_are_made_when_it_ends() -> None:
    sim = room("ann", "bob", "cat")
    sim.tables("main", [1, 2])
    sim.now = 25 * MIN
    sim.tables("main", [1, 2], held=True)
    sim.run_to(50 * MIN)
    assert sim.seated() == {"main/1": "ann", "main/2": "bob"}
    sim.tables("main", [1, 2], held=False)
    assert sim.at("main", 1) == "cat"
    assert sim.room.tables["main/1"].since == 50 * MIN


def test_a_breaking_table_s_dealer_goes_to_the_pool_or_home_in_the_house_s_order() -> None:
    sim = room("ann", "bob", "cat", "dan", "eve", "fay")
    sim.tables("main", [1, 2, 3, 4])
    assert needed(4, SETTINGS) == 5 and needed(2, SETTINGS) == 3
    sim.now = 10 * MIN
    sim.tables("main", [1, 2])  # tables 3 and 4 break
    # Six working, three needed, one reserve: two go home, the first clocked in first (ann
    # and bob deal: they go at their next push; nobody else is sent).
    leaving = {d.id for d in sim.room.dealers.values() if d.leaving}
    home = {d.id for d in sim.room.dealers.values() if d.status == "home"}
    assert (leaving, home) == ({"ann", "bob"}, set())
    sim.run_to(30 * MIN)
    assert {d.id for d in sim.room.dealers.values() if d.status == "home"} == {"ann", "bob"}
    assert set(sim.seated().values()) <= {"cat", "dan", "eve", "fay"}


def test_early_outs_follow_the_dealer_room_s_list() -> None:
    settings = msgspec.structs.replace(SETTINGS, early_outs="list", reserve=0)
    sim = room("ann", "bob", "cat", "dan", "eve", settings=settings)
    sim.tables("main", [1, 2, 3])
    sim.send(SetEarlyList(dealers=("eve", "dan")))
    sim.now = 10 * MIN
    sim.tables("main", [1, 2])
    assert {d.id for d in sim.room.dealers.values() if d.status == "home"} == {"eve", "dan"}


def test_the_final_table_rotates_among_the_dealers_chosen_for_it() -> None:
    sim = room("ann", "bob", "cat", "dan", "eve")
    sim.tables("main", [1, 2, 3])
    sim.send(SetFinalDealers(tournament="main", dealers=("dan", "eve")))
    sim.now = 10 * MIN
    sim.tables("main", [1], final=1)
    assert {a.kind for a in alerts(sim.room, sim.now)} >= {"missing"}
    sim.run_to(5 * 3600)
    at_final = {e.dealer for e in pushes(sim) if e.key == "main/1" and e.at > 10 * MIN}
    assert at_final == {"dan", "eve"}


def test_the_plan_shown_is_the_plan_made() -> None:
    sim = room("ann", "bob", "cat", "dan", "eve")
    sim.tables("main", [1, 2, 3])
    sim.now = 7 * MIN
    sim.tables("side", [1])
    compared = 0
    for step in range(12):
        plan = forecast(sim.room, sim.now)
        start = len(sim.log)
        sim.run_to(sim.now + 35 * MIN)
        made = pushes(sim, start)
        for key, (at, dealer) in plan.coming.items():
            first = next((e for e in made if e.key == key), None)
            if first is not None:
                assert (first.at, first.dealer) == (at, dealer), (step, key)
                compared += 1
        # Each dealer pushed out goes where the plan said.
        for did, nxt in plan.next.items():
            if nxt.to == "table" and nxt.arrives is not None and nxt.arrives <= sim.now:
                key = f"{nxt.tournament}/{nxt.table}"
                assert any(e.dealer == did and e.key == key and e.at == nxt.arrives for e in made)
                compared += 1
    assert compared > 40


def test_alerts_name_a_dealer_not_signed_in_after_the_grace() -> None:
    sim = room("ann", "bob")
    sim.tables("main", [1])
    assert alerts(sim.room, sim.now + 60) == []
    late = alerts(sim.room, sim.now + SETTINGS.signin_grace)
    assert [(a.kind, a.dealer) for a in late] == [("missing", "ann")]


def test_alerts_of_the_same_moment_come_in_table_order() -> None:
    """Tables waiting since the same moment: 3 before 20 (they came as 2, 20, 21, 3)."""
    sim = room("ann")
    sim.tables("main", [1, 2, 3, 20, 21])
    waiting = [a.table for a in alerts(sim.room, sim.now) if a.kind == "no_dealer"]
    assert waiting == [2, 3, 20, 21]


def test_bad_commands_are_refused_and_change_nothing() -> None:
    sim = room("ann", "bob")
    sim.tables("main", [1])
    with pytest.raises(RuleError) as e:
        sim.send(ClockIn(dealer="zed"))
    assert e.value.reason == "dealer_unknown"
    with pytest.raises(NotAllowed) as e:
        sim.send(RemoveDealer(dealer="ann"))
    assert e.value.reason == "dealer_busy"
    with pytest.raises(NotAllowed) as e:
        sim.send(SetEarlyList(dealers=("ann", "ann")))
    assert e.value.reason == "dealer_listed_twice"
    sim.send(MarkDealer(dealer="bob", mark="absent"))
    before = len(sim.log)
    with pytest.raises(NotAllowed) as e:
        sim.send(Pin(table="main/1", dealer="bob"))
    assert e.value.reason == "dealer_unavailable"
    assert len(sim.log) == before
    with pytest.raises(msgspec.ValidationError):
        msgspec.convert({"min_rest": 3000, "break_length": 600}, RoomSettings)
    with pytest.raises(ConfigValueError):
        RoomSettings(min_rest=3000, break_length=600)
    with pytest.raises(msgspec.ValidationError):
        msgspec.json.decode(
            b'{"type": "save_dealer", "dealer": "Bad Name", "name": "x"}', type=SaveDealer
        )


def test_dealers_needed_by_half_hour_for_the_forecaster() -> None:
    assert needed_by_slot([0, 1, 6, 60], SETTINGS) == [0, 2, 8, 74]
    fast = RoomSettings(push_every=1, break_every=1, break_length=1, min_rest=0)
    assert needed(10, fast) == 20


def test_a_tick_with_nothing_due_writes_nothing() -> None:
    sim = room("ann", "bob")
    sim.tables("main", [1])
    sim.now = 60
    assert sim.send(Tick()) == []
    settings = msgspec.structs.replace(SETTINGS, push_every=90)
    assert sim.send(SetSettings(settings=settings))
    assert sim.room.settings.push_every == 90


def test_the_room_holds_at_most_its_bound_of_dealers() -> None:
    """Every command copies the room and its screen lists every dealer: the room is bounded
    (a name corrected still passes when it is full)."""
    sim = room()
    for i in range(MAX_DEALERS):
        apply(sim.state, DealerSaved(dealer=f"d{i}", name=f"D {i}", games=("holdem",)))
    before = len(sim.log)
    with pytest.raises(NotAllowed) as e:
        sim.send(SaveDealer(dealer="one-more", name="One More"))
    assert (e.value.reason, e.value.field, e.value.params) == (
        "dealer_room_full",
        "dealer",
        {"most": MAX_DEALERS},
    )
    assert len(sim.log) == before and "one-more" not in sim.room.dealers
    sim.send(SaveDealer(dealer="d7", name="Seven Renamed"))
    assert sim.room.dealers["d7"].name == "Seven Renamed"
