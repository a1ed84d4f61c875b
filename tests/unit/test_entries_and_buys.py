"""Entries and buys (FLOOR-RULES 3 and 11, PFP 23, TDA 2024 rule 8): rebuys declared before the
deal, the add-on at its break, re-entries within their limits, each refused with the reason,
and the chips in play and the prize pool the wall shows."""

from __future__ import annotations

import msgspec

from floor.engine import commands as cmd
from floor.engine.errors import NotAllowed
from floor.engine.events import AddOnMade, RebuyMade
from floor.engine.prize import AddOn, PayoutRow, Prize, Rebuy, ReEntry
from floor.engine.read.derived import staff_facts
from floor.engine.read.views import field_stats, results
from floor.engine.rules import Break, Level, Structure
from floor.engine.state import Tournament
from floor.engine.why import Why
from tests.unit.builders import Floor

PRIZE = Prize(
    currency="CZK",
    buy_in=500,
    fee=100,
    rebuy=Rebuy(price=500, chips=10_000, max_per_player=2, until_level=2, max_stack=20_000),
    add_on=AddOn(price=400, chips=15_000, level=2),
    re_entry=ReEntry(max_per_player=1),
    payouts=(PayoutRow(entries=2, percents=(100,)), PayoutRow(entries=6, percents=(65, 35))),
)

STRUCTURE = Structure(
    name="rebuy",
    starting_stack=20_000,
    chips=(25, 100, 500),
    levels=(
        Level(small_blind=25, big_blind=50, minutes=20),  # step 0: level 1
        Level(small_blind=50, big_blind=100, minutes=20),  # step 1: level 2
        Break(minutes=10, color_up=(25,)),  # step 2: the break after level 2
        Level(small_blind=100, big_blind=200, minutes=20),  # step 3: level 3
        Level(small_blind=200, big_blind=400, minutes=20),  # step 4: level 4
    ),
    late_registration_until=2,
    prize=PRIZE,
)


def table(prize: Prize | None = PRIZE, *, stacks: int | None = 20_000) -> Floor:
    """Four players at table 1, each with ``stacks`` chips on record."""
    structure = msgspec.structs.replace(STRUCTURE, prize=prize)
    floor = Floor({1: "1-4 pos 1/2/3"}, structure=structure)
    if stacks is not None:
        floor.do(*(cmd.SetStack(player=f"T1S{s}", stack=stacks) for s in range(1, 5)))
    return floor


def at_step(floor: Floor, step: int) -> Floor:
    floor.do(cmd.ClockStart(), cmd.ClockLevel(to=step))
    return floor


def replayed(floor: Floor) -> bytes:
    return msgspec.msgpack.encode(Tournament.fold(floor.log).state)


# --- rebuys -----------------------------------------------------------------------------------


def test_a_rebuy_adds_its_chips_to_the_stack_the_chips_in_play_and_the_pool() -> None:
    floor = table()
    floor.do(cmd.SetStack(player="T1S1", stack=3_000))

    (event,) = floor.do(cmd.Rebuy(player="T1S1"))

    assert event == RebuyMade(player="T1S1", chips=10_000, price=500, count=1, stack=13_000)
    stats = field_stats(floor.t)
    assert stats.chips == 4 * 20_000 + 10_000
    assert stats.average_stack == 90_000 // 4
    assert (stats.rebuys, stats.prize_pool, stats.currency) == (1, 4 * 500 + 500, "CZK")
    assert replayed(floor) == floor.snapshot()


def test_rebuys_stay_open_through_the_break_after_their_last_level() -> None:
    floor = at_step(table(), 2)

    floor.do(cmd.Rebuy(player="T1S2"))

    assert floor.t.player("T1S2").rebuys == 1


def test_a_rebuy_after_the_rebuy_period_is_refused_with_the_reason() -> None:
    floor = at_step(table(), 3)

    refused = floor.refuse(cmd.Rebuy(player="T1S2"), NotAllowed, "player")

    assert refused.message == "rebuys closed after level 2 (this is level 3)"


def test_a_player_rebuys_only_as_often_as_the_house_allows() -> None:
    floor = table()
    floor.do(cmd.Rebuy(player="T1S3"), cmd.SetStack(player="T1S3", stack=0))
    floor.do(cmd.Rebuy(player="T1S3"), cmd.SetStack(player="T1S3", stack=0))

    refused = floor.refuse(cmd.Rebuy(player="T1S3"), NotAllowed, "player")

    assert refused.message == "T1S3 has made 2 rebuys, the most a player may make"


def test_a_rebuy_needs_a_stack_at_or_below_the_houses_limit() -> None:
    floor = table()
    floor.do(cmd.SetStack(player="T1S1", stack=20_025))

    refused = floor.refuse(cmd.Rebuy(player="T1S1"), NotAllowed, "player")

    assert refused.message == "T1S1 has 20,025 chips: a rebuy needs 20,000 or less"


def test_a_rebuy_with_a_limit_needs_the_stack_on_record() -> None:
    floor = table(stacks=None)

    refused = floor.refuse(cmd.Rebuy(player="T1S1"), NotAllowed, "player")

    assert "is not known: set it first" in refused.message


def test_a_busted_player_comes_back_by_re_entry_not_by_a_rebuy() -> None:
    floor = table()
    floor.bust("T1S4")

    refused = floor.refuse(cmd.Rebuy(player="T1S4"), NotAllowed, "player")

    assert refused.message == (
        "T1S4 is out: a busted player comes back by a re-entry (register), not a rebuy"
    )


def test_a_tournament_without_rebuys_refuses_one() -> None:
    floor = table(prize=None)

    refused = floor.refuse(cmd.Rebuy(player="T1S1"), NotAllowed, "player")

    assert refused.message == "this tournament has no rebuys"


# --- the add-on -------------------------------------------------------------------------------


def test_the_add_on_is_offered_at_the_break_after_its_level_and_only_once() -> None:
    floor = at_step(table(), 1)
    refused = floor.refuse(cmd.AddOn(player="T1S1"), NotAllowed, "player")
    assert refused.message == ("the add-on is offered at the break after level 2; this is level 2")
    floor.do(cmd.ClockLevel(to=2))

    (event,) = floor.do(cmd.AddOn(player="T1S1"))

    assert event == AddOnMade(player="T1S1", chips=15_000, price=400, count=1, stack=35_000)
    refused = floor.refuse(cmd.AddOn(player="T1S1"), NotAllowed, "player")
    assert refused.message == "T1S1 has taken 1 add-on, the most a player may take"
    stats = field_stats(floor.t)
    assert (stats.chips, stats.add_ons, stats.prize_pool) == (95_000, 1, 4 * 500 + 400)


def test_an_add_on_after_its_break_is_refused_saying_when_it_was_offered() -> None:
    floor = at_step(table(), 3)

    refused = floor.refuse(cmd.AddOn(player="T1S1"), NotAllowed, "player")

    assert refused.message == "the add-on is offered at the break after level 2; this is level 3"


def test_an_add_on_not_tied_to_the_break_is_offered_during_its_level_too() -> None:
    during = msgspec.structs.replace(
        PRIZE, add_on=AddOn(price=400, chips=15_000, level=2, at_break=False)
    )
    floor = at_step(table(prize=during), 1)

    floor.do(cmd.AddOn(player="T1S1"))

    assert floor.t.player("T1S1").add_ons == 1


# --- re-entries -------------------------------------------------------------------------------


def test_a_re_entry_is_a_new_buy_in_and_a_new_seat_from_the_same_pool() -> None:
    floor = table()
    floor.bust("T1S2")

    floor.register("T1S2")

    p = floor.t.player("T1S2")
    assert (p.entries, p.busted, p.stack) == (2, False, 20_000)
    assert floor.where("T1S2") is not None
    stats = field_stats(floor.t)
    assert (stats.entries, stats.chips, stats.prize_pool) == (5, 5 * 20_000, 5 * 500)


def test_a_re_entry_after_late_registration_closed_is_refused_with_the_reason() -> None:
    floor = table()
    floor.bust("T1S2")
    at_step(floor, 3)

    refused = floor.refuse(cmd.Register(player="T1S2", name="T1S2"), NotAllowed, "player")

    assert refused.message == (
        "T1S2 cannot re-enter: late registration and re-entry closed after level 2 "
        "(this is level 3)"
    )


def test_a_player_re_enters_only_as_often_as_the_house_allows() -> None:
    floor = table()
    floor.bust("T1S2")
    floor.register("T1S2")
    floor.bust("T1S2")

    refused = floor.refuse(cmd.Register(player="T1S2", name="T1S2"), NotAllowed, "player")

    assert refused.message == "T1S2 cannot re-enter: 1 re-entry made, the most a player may make"


def test_re_entry_can_close_before_late_registration() -> None:
    early = msgspec.structs.replace(PRIZE, re_entry=ReEntry(until_level=1))
    floor = at_step(table(prize=early), 1)
    floor.bust("T1S2")

    refused = floor.refuse(cmd.Register(player="T1S2", name="T1S2"), NotAllowed, "player")
    floor.register("N1")  # a first entry is still welcome in level 2

    assert refused.message == (
        "T1S2 cannot re-enter: re-entry closed after level 1 (this is level 2)"
    )


def test_a_freezeout_refuses_a_re_entry() -> None:
    floor = table(prize=msgspec.structs.replace(PRIZE, re_entry=None))
    floor.bust("T1S2")

    refused = floor.refuse(cmd.Register(player="T1S2", name="T1S2"), NotAllowed, "player")

    assert refused.message == "T1S2 cannot re-enter: this tournament allows no re-entry"


# --- the prize pool on the wall ---------------------------------------------------------------


def test_the_prize_pool_and_places_paid_are_recomputed_as_entries_come_in() -> None:
    floor = table()
    assert (field_stats(floor.t).prize_pool, field_stats(floor.t).places_paid) == (2_000, 1)

    floor.register("N1")
    floor.register("N2")

    stats = field_stats(floor.t)
    assert (stats.entries, stats.prize_pool, stats.places_paid) == (6, 3_000, 2)


def test_a_tournament_without_prize_settings_shows_no_pool() -> None:
    stats = field_stats(table(prize=None).t)

    assert (stats.prize_pool, stats.currency, stats.places_paid) == (None, None, 0)
    assert stats.chips == 80_000


# --- what the screens may offer now -----------------------------------------------------------


def test_the_stats_say_what_can_be_sold_at_each_step_of_the_clock() -> None:
    def offered(step: int) -> tuple[bool, bool, bool, bool]:
        stats = field_stats(at_step(table(), step).t)
        return (stats.registration_open, stats.re_entry_open, stats.rebuy_open, stats.add_on_open)

    # level 1: registration, re-entry and rebuys; the add-on waits for the break after level 2
    assert offered(0) == (True, True, True, False)
    assert offered(2) == (True, True, True, True)  # the break after level 2
    assert offered(3) == (False, False, False, False)  # level 3: all closed


def test_a_sale_is_decided_at_the_step_played_now_and_offered_at_the_step_written() -> None:
    floor = at_step(table(), 1)  # level 2, running
    ends_at = floor.t.state.clock.ends_at
    assert ends_at is not None
    closed = Why("add_on_at_break_only", {"offered": 2, "level": 2, "at_break": False})
    assert staff_facts(floor.t).sales["seated"]["add_on"].closed == closed

    # Level 2 is over, the break not yet written: the floor sells the add-on of the break,
    # and the screens offer it once the clock's next tick writes the break.
    (event,) = floor.do(cmd.AddOn(player="T1S1"), now=ends_at + 1)

    assert isinstance(event, AddOnMade)
    assert staff_facts(floor.t).sales["seated"]["add_on"].closed == closed
    floor.do(cmd.Tick(), now=ends_at + 1)
    assert staff_facts(floor.t).sales["seated"]["add_on"].closed is None
    assert staff_facts(floor.t).bars["T1S1"]["add_on"] == Why(
        "add_on_limit", {"player": "T1S1", "taken": 1}
    )


def test_a_freezeout_offers_no_re_entry_rebuy_or_add_on() -> None:
    freezeout = msgspec.structs.replace(PRIZE, rebuy=None, add_on=None, re_entry=None)
    stats = field_stats(at_step(table(freezeout), 0).t)
    assert (stats.registration_open, stats.re_entry_open, stats.rebuy_open, stats.add_on_open) == (
        True,
        False,
        False,
        False,
    )


def test_a_re_entry_finishes_as_a_new_entry_and_nobody_shares_a_place_by_it() -> None:
    floor = table()
    floor.bust("T1S2")  # 4th of 4
    floor.bust("T1S3")  # 3rd of 4
    floor.register("T1S2")  # the 5th entry: T1S3 is now 4th
    floor.bust("T1S4")
    floor.bust("T1S2")

    assert [(f.place, f.tied, f.player) for f in results(floor.t)] == [
        (1, 1, "T1S1"),
        (2, 1, "T1S2"),
        (3, 1, "T1S4"),
        (4, 1, "T1S3"),
    ]
