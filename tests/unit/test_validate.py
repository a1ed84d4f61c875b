"""A log from elsewhere is checked event by event as the rules would have written it
(floor/engine/validate.py): what the live floor writes always passes, a forged event is
refused with its number, its reason and the same sentence the screens would render."""

from __future__ import annotations

import contextlib
import random
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from floor.engine import commands as cmd
from floor.engine.autopilot import next_step
from floor.engine.decide import decide
from floor.engine.errors import FloorError
from floor.engine.events import (
    BustUndone,
    ButtonReported,
    ChipsRaced,
    ClockStarted,
    Event,
    FinalTableFormed,
    HandStarted,
    LevelChanged,
    Moved,
    PlayerBusted,
    PlayerRegistered,
    PlayerSeated,
    PlayersMoved,
    RebuyMade,
    SeatsDrawn,
    StackSet,
    TableBroken,
    TableOpened,
    TableSetUp,
    TimeCallEnded,
    TournamentCreated,
)
from floor.engine.model import Positions, Spot
from floor.engine.prize import AddOn, PayoutRow, Prize, Rebuy, ReEntry
from floor.engine.rules import Break, Level, Rules, Structure
from floor.engine.state import Tournament
from floor.engine.validate import InvalidEvent, replay
from tests.unit.builders import Floor
from tests.unit.test_error_codes import assert_said

PRIZE = Prize(
    currency="CZK",
    buy_in=500,
    fee=100,
    rebuy=Rebuy(price=500, chips=10_000, max_per_player=3, until_level=3),
    add_on=AddOn(price=400, chips=15_000, level=2),
    re_entry=ReEntry(max_per_player=2),
    payouts=(PayoutRow(entries=2, percents=(100,)), PayoutRow(entries=6, percents=(65, 35))),
)
#: Short levels, a colour-up break, rebuys, an add-on and re-entries: every command has a
#: way to be accepted while the clock runs through the levels.
STRUCTURE = Structure(
    name="validate",
    starting_stack=20_000,
    chips=(25, 100, 500),
    levels=(
        Level(small_blind=25, big_blind=50, minutes=5),
        Level(small_blind=50, big_blind=100, minutes=5),
        Break(minutes=5, color_up=(25,)),
        Level(small_blind=100, big_blind=200, minutes=5),
        Level(small_blind=200, big_blind=400, minutes=5),
    ),
    late_registration_until=3,
    prize=PRIZE,
)


# --- what the floor writes passes ------------------------------------------------------------


def any_command(t: Tournament, rng: random.Random) -> cmd.Command | None:
    """The floor's next step half the time, else any command aimed at who and what is there
    (many are refused, which writes nothing)."""
    if rng.random() < 0.45:
        return next_step(t, rng)
    s = t.state
    seated = sorted(p for p, x in s.players.items() if x.table is not None)
    busted = sorted(p for p, x in s.players.items() if x.busted)
    tables = sorted(s.tables) or [1]
    who = rng.choice(seated) if seated else "nobody"
    n = rng.choice(tables)
    seat = rng.randint(1, 10)
    options: list[Any] = [
        lambda: cmd.Register(name=f"Late {len(s.players)}"),
        lambda: cmd.SetStack(player=who, stack=rng.randrange(0, 60_000, 25)),
        lambda: cmd.Rebuy(player=who),
        lambda: cmd.AddOn(player=who),
        lambda: cmd.Cancel(player=who),
        lambda: cmd.LockSeat(player=who, locked=rng.random() < 0.5),
        lambda: cmd.Confirm(player=who, seat=seat),
        lambda: cmd.CorrectSeat(player=who, table=n, seat=seat),
        lambda: cmd.RenamePlayer(player=who, name=rng.choice(["Ann Other", "Bo Ek"])),
        lambda: cmd.SetSpecialNeeds(player=who, special_needs=rng.random() < 0.5),
        lambda: cmd.Unregister(player=who),
        lambda: cmd.ChipRace(
            table=n,
            seats=tuple(
                cmd.RaceCount(seat=x, chips=rng.randint(0, 9))
                for x in sorted(s.tables[n].occupants if n in s.tables else ())
            ),
            leaving=rng.choice([25, None]),
        ),
        lambda: cmd.CallTime(table=n, seat=seat),
        lambda: cmd.EndTimeCall(table=n, seat=seat, outcome=rng.choice(["acted", "cancelled"])),
        lambda: cmd.WaiveHalt(table=n, waived=rng.random() < 0.5),
        lambda: cmd.BreakTable(table=n),
        lambda: cmd.Hand(table=n),
        lambda: cmd.Button(table=n, seat=seat),
        lambda: cmd.OpenTable(seats=rng.choice([None, 6, 10])),
        lambda: cmd.StartFinal(),
        lambda: cmd.ClockStart(),
        lambda: cmd.ClockPause(),
        lambda: cmd.ClockResume(),
        lambda: cmd.ClockAdjust(seconds=rng.choice([-120, 60, 600])),
        lambda: cmd.ClockLevel(step=rng.choice([-1, 1])),
        lambda: cmd.Tick(),
        lambda: cmd.SetGame(game=rng.choice(["holdem", "stud", "omaha", "razz"])),
        lambda: cmd.ConfirmAll(reason=rng.choice(["balance", "break", "final"])),
    ]
    if busted:
        options.append(lambda: cmd.Register(name="Again", player=rng.choice(busted)))
        options.append(lambda: cmd.UndoBust(player=rng.choice(busted), reason="dispute"))
    if len(seated) >= 3:
        # Equal stacks now and then: places shared by two or three players.
        options.append(
            lambda: cmd.BustSameHand(
                players=tuple(
                    cmd.Busted(player=p, stack=rng.choice([100, 200]))
                    for p in rng.sample(seated, rng.choice([2, 3]))
                )
            )
        )
    command: cmd.Command = rng.choice(options)()
    return command


def played(
    seed: int, game: str, players: int, seats: int, steps: int
) -> tuple[Tournament, list[Event]]:
    rng = random.Random(seed)
    rules = msgspec.convert(
        {
            "game": game,
            "seats": seats,
            "final_table": seats,
            "reserved_seats": [{"table": 2, "seat": 3}],
        },
        Rules,
    )
    created = TournamentCreated(id="v", name="validate", rules=rules, structure=STRUCTURE)
    t = Tournament.create(created)
    log: list[Event] = [created]
    for i in range(players):
        register = cmd.Register(name=f"Hráč {i}", player=f"P{i}", special_needs=i % 13 == 5)
        log += decide(t, register, 0.0, rng)
    log += decide(t, cmd.DrawSeats(), 0.0, rng)
    now = 0.0
    for _ in range(steps):
        now += rng.choice([0, 1, 5, 30, 120])
        command = any_command(t, rng)
        if command is None:
            break
        with contextlib.suppress(FloorError):  # a refusal writes nothing
            log += decide(t, command, now, rng)
    return t, log


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    game=st.sampled_from(["holdem", "stud", "mixed"]),
    players=st.integers(2, 90),
    seats=st.sampled_from([6, 9, 10]),
)
def test_every_log_the_floor_writes_replays_through_the_checks(
    seed: int, game: str, players: int, seats: int
) -> None:
    t, log = played(seed, game, players, seats, steps=500)

    replayed = replay(log)

    assert msgspec.msgpack.encode(replayed.state) == msgspec.msgpack.encode(t.state)


def test_a_log_set_up_table_by_table_replays_through_the_checks() -> None:
    floor = Floor({1: "1-9 pos 1/2/3", 2: "1-6 pos 4/5/6", 3: "2-8"}, seed=4)
    rng = random.Random(4)
    for _ in range(300):
        command = next_step(floor.t, rng)
        if command is None:
            break
        floor.do(command)

    assert floor.t.active == 1
    assert msgspec.msgpack.encode(replay(floor.log).state) == floor.snapshot()


def test_players_out_in_one_hand_sharing_places_replay_through_the_checks() -> None:
    floor = Floor({1: "1-9 pos 1/2/3"})
    floor.do(
        cmd.BustSameHand(
            players=(
                cmd.Busted(player="T1S1", stack=500),
                cmd.Busted(player="T1S2", stack=500),
                cmd.Busted(player="T1S3", stack=500),
                cmd.Busted(player="T1S4", stack=900),
            )
        )
    )
    shared = [e for e in floor.log if isinstance(e, PlayerBusted)]
    assert [(e.place, e.shares) for e in shared] == [(7, 3), (7, 3), (7, 3), (6, 1)]

    assert msgspec.msgpack.encode(replay(floor.log).state) == floor.snapshot()


# --- a forged event is refused -----------------------------------------------------------------


def drawn() -> Floor:
    """Two 9-seat tables, 14 players, a structure with rebuys; T1S1 has 20,000 chips."""
    floor = Floor({1: "1-7 pos 1/2/3", 2: "1-7 pos 1/2/3"}, structure=STRUCTURE)
    floor.do(cmd.SetStack(player="T1S1", stack=20_000))
    return floor


def refusal(log: list[Event], *forged: Event) -> InvalidEvent:
    with pytest.raises(InvalidEvent) as caught:
        replay([*log, *forged])
    return caught.value


def bust(player: str, table: int, seat: int, place: int, shares: int = 1) -> PlayerBusted:
    return PlayerBusted(player=player, table=table, seat=seat, hand=0, place=place, shares=shares)


FORGED: list[tuple[str, list[Event], str, dict[str, Any]]] = [
    (
        "seat 99 at a 9-seat table",
        [PlayerRegistered(player="N", name="New"), PlayerSeated(player="N", table=1, seat=99)],
        "seat_unknown",
        {"table": 1, "seat": 99},
    ),
    (
        "a seat that is taken",
        [PlayerRegistered(player="N", name="New"), PlayerSeated(player="N", table=1, seat=3)],
        "seat_taken",
        {"table": 1, "seat": 3, "holder": "T1S3"},
    ),
    (
        "a stack of -5",
        [StackSet(player="T1S2", stack=-5)],
        "out_of_range",
        {"name": "stack", "value": -5, "least": 0, "most": 2**53 - 1},
    ),
    (
        "a stack past what JSON holds",
        [StackSet(player="T1S2", stack=2**53)],
        "out_of_range",
        {"name": "stack", "value": 2**53, "least": 0, "most": 2**53 - 1},
    ),
    (
        "a bust-out in place 1",
        [bust("T1S7", 1, 7, place=1)],
        "place_wrong",
        {"player": "T1S7", "place": 1, "shares": 1, "left": 14},
    ),
    (
        "a place the players left do not give",
        [bust("T1S7", 1, 7, place=9)],
        "place_wrong",
        {"player": "T1S7", "place": 9, "shares": 1, "left": 14},
    ),
    (
        "a shared place without its first bust-out",
        [bust("T1S7", 1, 7, place=13, shares=3)],
        "place_wrong",
        {"player": "T1S7", "place": 13, "shares": 3, "left": 14},
    ),
    (
        "a shared place reported half",
        [bust("T1S7", 1, 7, place=13, shares=2), HandStarted(table=1, hand=1, positions=None)],
        "shares_incomplete",
        {"place": 13, "shares": 2, "busted": 1},
    ),
    (
        "a bust-out of a player who is not at that seat",
        [bust("T1S7", 1, 6, place=14)],
        "bust_wrong_seat",
        {"player": "T1S7", "table": 1, "seat": 6, "at_table": 1, "at_seat": 7},
    ),
    (
        "a bust-out of nobody",
        [bust("NOBODY", 1, 7, place=14)],
        "player_unknown",
        {"player": "NOBODY"},
    ),
    (
        "a bust-out of a player already out",
        [bust("T1S7", 1, 7, place=14), bust("T1S7", 1, 7, place=13)],
        "player_out",
        {"player": "T1S7"},
    ),
    (
        "a hand number skipped",
        [HandStarted(table=1, hand=5, positions=None)],
        "not_as_recorded",
        {"name": "hand", "value": 5, "expected": 1},
    ),
    (
        "a table of 40 seats",
        [TableOpened(table=3, seats=40)],
        "out_of_range",
        {"name": "seats", "value": 40, "least": 2, "most": 12},
    ),
    (
        "a table opened twice",
        [TableOpened(table=2, seats=9)],
        "table_exists",
        {"table": 2},
    ),
    (
        "an open table broken",
        [TableBroken(table=2)],
        "break_unfinished",
        {"table": 2, "status": "open", "players": 7},
    ),
    (
        "a name of braille blanks",
        [PlayerRegistered(player="N", name="\u2800\u2800")],
        "name_hidden_marks",
        {},
    ),
    (
        "an id of a Hangul filler",
        [PlayerRegistered(player="\u3164", name="Jan")],
        "player_id_unshown",
        {"player": "\u3164"},
    ),
    (
        "a name holding a tab",
        [PlayerRegistered(player="N", name="Jan\tNovák")],
        "not_as_recorded",
        {"name": "name", "value": "Jan\tNovák", "expected": "Jan Novák"},
    ),
    (
        "a player registered again while seated",
        [PlayerRegistered(player="T1S1", name="T1S1", entry=2)],
        "player_exists",
        {"player": "T1S1"},
    ),
    (
        "two players moved to one seat",
        [
            PlayersMoved(
                moves=(
                    Moved(player="T1S1", from_=Spot(1, 1), to=Spot(2, 9)),
                    Moved(player="T1S2", from_=Spot(1, 2), to=Spot(2, 9)),
                ),
                reason="correction",
            )
        ],
        "seat_taken",
        {"table": 2, "seat": 9, "holder": "T1S1"},
    ),
    (
        "a move to a table that does not exist",
        [
            PlayersMoved(
                moves=(Moved(player="T1S1", from_=Spot(1, 1), to=Spot(7, 1)),),
                reason="balance",
            )
        ],
        "table_unknown",
        {"table": 7},
    ),
    (
        "a second draw",
        [SeatsDrawn(seats=())],
        "seats_drawn",
        {},
    ),
    (
        "a level the structure does not have",
        [LevelChanged(at=0.0, level=99, ends_at=None, remaining=300.0)],
        "no_step",
        {"step": 99, "last": 4},
    ),
    (
        "a clock started twice",
        [
            ClockStarted(at=0.0, level=0, ends_at=300.0),
            ClockStarted(at=1.0, level=0, ends_at=301.0),
        ],
        "clock_started",
        {},
    ),
    (
        "a time call ended that never began",
        [TimeCallEnded(table=1, seat=2, at=0.0, outcome="acted")],
        "no_time_call",
        {"table": 1, "seat": 2},
    ),
    (
        "a bust undone of a player who is in",
        [BustUndone(player="T1S1", table=1, seat=1, reason="x")],
        "player_not_out",
        {"player": "T1S1"},
    ),
    (
        "a rebuy whose stack does not add up",
        [RebuyMade(player="T1S1", chips=10_000, price=500, count=1, stack=99_000)],
        "not_as_recorded",
        {"name": "stack", "value": 99_000, "expected": 30_000},
    ),
    (
        "a tournament created twice",
        [
            TournamentCreated(
                id="t", name="again", rules=Rules(game="holdem", seats=9, final_table=9)
            )
        ],
        "log_start",
        {},
    ),
]


@pytest.mark.parametrize(
    ("forged", "reason", "params"),
    [(events, reason, params) for _, events, reason, params in FORGED],
    ids=[what for what, *_ in FORGED],
)
def test_a_forged_event_is_refused_naming_it_and_why(
    forged: list[Event], reason: str, params: dict[str, Any]
) -> None:
    floor = drawn()

    refused = refusal(floor.log, *forged)

    assert refused.number == len(floor.log) + len(forged)
    assert refused.kind == type(forged[-1]).__struct_config__.tag
    assert_said(refused.error, reason, params)
    # The refusal of the log: the event's number, then the event's own refusal.
    assert (refused.code, refused.reason, refused.params) == (
        refused.error.code,
        reason,
        params,
    )
    assert str(refused) == f"event {refused.number} ({refused.kind}): {refused.error}"


def test_a_shared_place_left_half_at_the_end_of_the_log_is_refused() -> None:
    floor = drawn()

    refused = refusal(floor.log, bust("T1S7", 1, 7, place=13, shares=2))

    assert refused.number == len(floor.log) + 1
    assert_said(refused.error, "shares_incomplete", {"place": 13, "shares": 2, "busted": 1})


def test_a_log_that_does_not_start_with_the_tournament_is_refused() -> None:
    floor = drawn()

    refused = refusal(floor.log[1:])

    assert (refused.number, refused.error.reason) == (1, "log_start")


def test_a_chip_race_whose_change_does_not_add_up_is_refused() -> None:
    floor = drawn()
    floor.do(cmd.ClockStart(), cmd.ClockLevel(to=2))
    floor.do(cmd.ChipRace(table=1, seats=(cmd.RaceCount(seat=1, chips=3),)))
    race = floor.log.pop()
    assert isinstance(race, ChipsRaced)
    forged = msgspec.structs.replace(race, change=race.change + 1_000)

    refused = refusal(floor.log, forged)

    assert refused.error.reason == "not_as_recorded"
    assert refused.error.params["name"] == "change"


def test_a_table_set_up_with_a_seat_past_its_seats_is_refused() -> None:
    created = TournamentCreated(
        id="t", name="t", rules=Rules(game="holdem", seats=9, final_table=9)
    )

    refused = refusal([created], TableSetUp(table=1, seats=9, occupants={1: "A", 10: "B"}))

    assert_said(refused.error, "seat_unknown", {"table": 1, "seat": 10})


def _same_refusal(floor: Floor, command: cmd.Command, forged: Event) -> None:
    """The floor refuses ``command`` and the log's check refuses the event it would have
    written with the same reason, field and parameters: one check, called by both."""
    with pytest.raises(FloorError) as live:
        floor.do(command)
    logged = refusal(floor.log, forged).error
    assert (logged.reason, logged.field, logged.params) == (
        live.value.reason,
        live.value.field,
        live.value.params,
    )


def test_an_undo_into_a_seat_taken_since_is_refused_alike_live_and_in_a_log() -> None:
    # ``validate`` once restated this refusal and named the seat where ``decide`` names the
    # player (the command has no seat field).
    floor = drawn()
    floor.bust("T1S7")
    floor.do(cmd.CorrectSeat(player="T2S1", table=1, seat=7))

    _same_refusal(
        floor,
        cmd.UndoBust(player="T1S7", reason="misdealt"),
        BustUndone(player="T1S7", table=1, seat=7, reason="misdealt"),
    )


def test_a_button_at_stud_is_refused_alike_live_and_in_a_log() -> None:
    floor = Floor({1: "1-7"}, game="stud")

    _same_refusal(
        floor,
        cmd.Button(table=1, seat=1),
        ButtonReported(table=1, seat=1, positions=Positions(button=1, small_blind=2, big_blind=3)),
    )


def test_a_second_final_table_is_refused_alike_live_and_in_a_log() -> None:
    floor = Floor({1: "1-5 pos 1/2/3", 2: "1-4 pos 1/2/3"})
    floor.bust("T1S1")  # nine left: the final table forms by itself
    assert floor.t.state.final_table is not None

    _same_refusal(floor, cmd.StartFinal(), FinalTableFormed(table=2, seats=9))
