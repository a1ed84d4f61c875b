"""Refusals: each names the error class, the field and the reason, and changes nothing.

``Floor.refuse`` (tests/unit/builders.py) checks that the state (msgpack encoding), the plan and
the event log are the same before and after the refused command.
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from floor.engine import commands as cmd
from floor.engine.errors import (
    BadSeat,
    BadValue,
    NoPlannedMove,
    NotAllowed,
    UnknownPlayer,
    UnknownTable,
)
from floor.engine.events import PlayerRegistered, PlayerSeated
from floor.engine.rules import Rules
from tests.unit.builders import Floor
from tests.unit.test_entries_and_buys import at_step, table

TWO_TABLES = {1: "1-9 pos 4/5/6", 2: "1-5,7,9 pos 2/3/4"}


@pytest.fixture
def floor() -> Floor:
    """9 v 7: T1S7 is planned to table 2 seat 6."""
    return Floor(TWO_TABLES)


# --- players and tables ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        cmd.Bust(player="NOBODY"),
        cmd.Confirm(player="NOBODY"),
        cmd.Cancel(player="NOBODY"),
        cmd.LockSeat(player="NOBODY"),
        cmd.UndoBust(player="NOBODY", reason="mistake"),
        cmd.CorrectSeat(player="NOBODY", table=1, seat=1),
        cmd.SetStack(player="NOBODY", stack=100),
    ],
    ids=lambda c: type(c).__name__,
)
def test_an_unknown_player_is_refused_by_name(floor: Floor, command: cmd.Command) -> None:
    refused = floor.refuse(command, UnknownPlayer, "player")

    assert refused.message == "NOBODY is not in the tournament"
    assert refused.code == "unknown_player"


def test_busting_a_busted_player_is_refused(floor: Floor) -> None:
    floor.bust("T1S2")

    refused = floor.refuse(cmd.Bust(player="T1S2"), NotAllowed, "player")

    assert refused.message == "T1S2 is already out"


@pytest.mark.parametrize(
    "command",
    [
        cmd.Hand(table=7),
        cmd.Button(table=7, seat=1),
        cmd.Bust(table=7, seat=1),
        cmd.WaiveHalt(table=7),
        cmd.BreakTable(table=7),
        cmd.CorrectSeat(player="T1S1", table=7, seat=1),
        cmd.CallTime(table=7, seat=1),
    ],
    ids=lambda c: type(c).__name__,
)
def test_an_unknown_table_is_refused_by_number(floor: Floor, command: cmd.Command) -> None:
    refused = floor.refuse(command, UnknownTable, "table")

    assert refused.message == "there is no table 7"


@pytest.mark.parametrize(
    "command",
    [
        cmd.Bust(table=1, seat=10),
        cmd.Button(table=1, seat=10),
        cmd.CorrectSeat(player="T1S1", table=2, seat=10),
        cmd.CallTime(table=1, seat=10),
    ],
    ids=lambda c: type(c).__name__,
)
def test_a_seat_that_does_not_exist_is_refused(floor: Floor, command: cmd.Command) -> None:
    refused = floor.refuse(command, BadSeat, "seat")

    assert "has no seat 10" in refused.message


@pytest.mark.parametrize(
    "command",
    [cmd.Bust(table=2, seat=6), cmd.Button(table=2, seat=6), cmd.CallTime(table=2, seat=6)],
    ids=lambda c: type(c).__name__,
)
def test_an_empty_seat_is_refused(floor: Floor, command: cmd.Command) -> None:
    refused = floor.refuse(command, BadSeat, "seat")

    assert refused.message == "table 2 seat 6 is empty"


def test_a_bust_names_the_player_or_the_table_and_seat(floor: Floor) -> None:
    floor.refuse(cmd.Bust(table=1), NotAllowed, "player")
    floor.refuse(cmd.Bust(seat=3), NotAllowed, "player")


def test_a_bust_naming_player_and_seat_is_refused_when_they_no_longer_sit_there(
    floor: Floor,
) -> None:
    refused = floor.refuse(cmd.Bust(player="T1S1", table=1, seat=2), BadSeat, "seat")
    assert "T1S1 is not at table 1 seat 2 (they sit at table 1 seat 1)" in refused.message


def test_a_bust_naming_player_and_seat_busts_when_they_sit_there(floor: Floor) -> None:
    events = floor.do(cmd.Bust(player="T1S1", table=1, seat=1))
    assert events[0].player == "T1S1"  # type: ignore[union-attr]


# --- hands and buttons ------------------------------------------------------------------------


def test_a_hand_at_a_table_with_unknown_positions_is_refused() -> None:
    floor = Floor({1: "1-9"})

    refused = floor.refuse(cmd.Hand(table=1), NotAllowed, "table")

    assert refused.message == "table 1 has unknown positions: report the button first"


def test_a_hand_at_a_table_with_fewer_than_two_players_is_refused() -> None:
    floor = Floor({1: "4 pos 1/2/3"})

    refused = floor.refuse(cmd.Hand(table=1), NotAllowed, "table")

    assert refused.message == "table 1 has fewer than 2 players"


def test_a_hand_at_a_breaking_table_is_refused() -> None:
    floor = Floor({1: "1-6 pos 1/2/3", 2: "1-6 pos 1/2/3", 3: "1-6 pos 1/2/3"})
    assert floor.status(3) == "breaking"

    refused = floor.refuse(cmd.Hand(table=3), NotAllowed, "table")

    assert refused.message == "table 3 is breaking"


def test_a_button_report_in_a_stud_game_is_refused() -> None:
    floor = Floor({1: "1-8"}, game="stud", seats=8, final_table=8)

    refused = floor.refuse(cmd.Button(table=1, seat=1), NotAllowed, "table")

    assert refused.message == "stud games have no button"


def test_a_button_report_at_a_table_with_one_player_is_refused() -> None:
    floor = Floor({1: "4"})

    floor.refuse(cmd.Button(table=1, seat=4), NotAllowed, "table")


# --- moves ------------------------------------------------------------------------------------


def test_confirming_a_player_without_a_planned_move_is_refused(floor: Floor) -> None:
    refused = floor.refuse(cmd.Confirm(player="T1S8"), NoPlannedMove, "player")

    assert refused.message == "T1S8 has no planned move"


def test_cancelling_a_player_without_a_planned_move_is_refused(floor: Floor) -> None:
    floor.refuse(cmd.Cancel(player="T2S1"), NoPlannedMove, "player")


def test_confirming_a_move_that_names_no_seat_without_giving_one_is_refused() -> None:
    floor = Floor({1: "1-9 pos 4/5/6", 2: "1-7"})

    refused = floor.refuse(cmd.Confirm(player="T1S7"), NotAllowed, "seat")

    assert "names no seat" in refused.message


def test_confirm_all_without_such_moves_is_refused(floor: Floor) -> None:
    refused = floor.refuse(cmd.ConfirmAll(reason="final"), NoPlannedMove, "reason")

    assert refused.message == "there are no planned final moves"


def test_confirm_all_with_a_move_that_names_no_seat_is_refused() -> None:
    floor = Floor({1: "1-9 pos 4/5/6", 2: "1-7"})

    refused = floor.refuse(cmd.ConfirmAll(reason="balance"), NotAllowed, "reason")

    assert "confirm it on its own" in refused.message


def test_a_wrong_seat_correction_into_a_seat_planned_for_a_move_is_refused(floor: Floor) -> None:
    refused = floor.refuse(cmd.CorrectSeat(player="T2S1", table=2, seat=6), BadSeat, "seat")

    assert refused.message == "table 2 seat 6 is planned for another player"


def test_a_redirect_into_a_reserved_seat_is_refused_for_a_player_who_does_not_need_it() -> None:
    floor = Floor(TWO_TABLES, reserved_seats=[{"table": 2, "seat": 8}])

    refused = floor.refuse(cmd.Confirm(player="T1S7", seat=8), BadSeat, "seat")

    assert refused.message == "table 2 seat 8 is reserved"


# --- entries and the draw ---------------------------------------------------------------------


def test_undoing_a_bust_after_the_next_hand_is_refused(floor: Floor) -> None:
    floor.bust("T1S2")
    floor.hand(1)

    refused = floor.refuse(cmd.UndoBust(player="T1S2", reason="recount"), NotAllowed, "player")

    assert "the right to dispute has ended" in refused.message


def test_undoing_the_bust_of_a_player_who_is_not_out_is_refused(floor: Floor) -> None:
    refused = floor.refuse(cmd.UndoBust(player="T2S2", reason="recount"), NotAllowed, "player")

    assert refused.message == "T2S2 is not out"


def test_registering_a_seated_player_is_refused(floor: Floor) -> None:
    refused = floor.refuse(cmd.Register(player="T2S2", name="Two"), NotAllowed, "player")

    assert refused.message == "T2S2 is already in the tournament"


def test_drawing_seats_twice_is_refused(floor: Floor) -> None:
    floor.register("N1")

    refused = floor.refuse(cmd.DrawSeats(), NotAllowed, None)

    assert "already drawn" in refused.message


def test_opening_a_table_that_exists_is_refused(floor: Floor) -> None:
    floor.refuse(cmd.OpenTable(table=2), NotAllowed, "table")


def test_opening_a_table_the_field_does_not_need_is_refused_saying_it_would_break_at_once(
    floor: Floor,
) -> None:
    refused = floor.refuse(cmd.OpenTable(table=3), NotAllowed, "table")

    assert refused.message.startswith(
        "the 16 players left fit at the 2 open tables (18 seats): table 3 would break at once"
    )


def test_a_table_for_one_is_refused_naming_the_seats() -> None:
    with pytest.raises(msgspec.ValidationError, match=r"seats"):
        msgspec.json.decode(b'{"type": "open_table", "seats": 1}', type=cmd.Command)


def test_time_called_twice_on_a_seat_is_refused_and_the_first_call_runs_on(floor: Floor) -> None:
    floor.do(cmd.CallTime(table=1, seat=3))

    refused = floor.refuse(cmd.CallTime(table=1, seat=3), NotAllowed, "seat")

    assert refused.message == "time is already called at table 1 seat 3"


def test_a_rebuy_or_add_on_past_the_largest_stack_is_refused() -> None:

    floor = at_step(table(), 2)
    floor.do(cmd.SetStack(player="T1S1", stack=2**53 - 1))

    refused = floor.refuse(cmd.AddOn(player="T1S1"), NotAllowed, "player")

    assert "more than the 9,007,199,254,740,991 a stack may hold" in refused.message


@pytest.mark.parametrize(
    ("command", "field", "says"),
    [
        (cmd.Register(name="   "), "name", "at least one letter or digit"),
        (cmd.Register(name="\u202eevil"), "name", "invisible marks"),
        (cmd.Register(name="a\u0000b"), "name", "control characters"),
        (cmd.Register(name="Ok", player="a\u0000b"), "player", "a player id may not hold"),
        (cmd.Register(name="Ok", player=" N1"), "player", "spaces at either end"),
    ],
)
def test_a_registration_with_a_name_or_id_no_screen_can_show_is_refused(
    floor: Floor, command: cmd.Register, field: str, says: str
) -> None:
    refused = floor.refuse(command, BadValue, field)

    assert says in refused.message


@pytest.mark.parametrize(
    ("name", "player", "field", "reason"),
    [
        ("\u2800", None, "name", "name_hidden_marks"),
        ("\u3164", None, "name", "name_hidden_marks"),
        ("\u115f\u1160", None, "name", "name_hidden_marks"),
        ("Jan\U000e0041\U000e0042", None, "name", "name_hidden_marks"),
        ("\u061cJan", None, "name", "name_hidden_marks"),
        ("Jan\u180e", None, "name", "name_hidden_marks"),
        ("Jan\u200d", None, "name", "name_hidden_marks"),
        ("\ue000", None, "name", "name_hidden_marks"),
        ("\u0301\u0302", None, "name", "name_blank"),
        ("\u3000", None, "name", "name_blank"),
        ("Jan", "\u2800", "player", "player_id_unshown"),
        ("Jan", "A\u3164", "player", "player_id_unshown"),
        ("Jan", "A1\U000e0020", "player", "player_id_unshown"),
        ("Jan", "A\u00a01", "player", "player_id_unshown"),
        ("Jan", "A1\u200d", "player", "player_id_unshown"),
    ],
    ids=[
        "braille blank",
        "hangul filler",
        "hangul jamo fillers",
        "tags",
        "arabic letter mark",
        "mongolian vowel separator",
        "a joiner at the end",
        "private use",
        "marks alone",
        "ideographic space",
        "id braille blank",
        "id hangul filler",
        "id tag",
        "id nbsp",
        "id joiner",
    ],
)
def test_a_name_or_id_that_shows_as_nothing_or_hides_a_mark_is_refused(
    floor: Floor, name: str, player: str | None, field: str, reason: str
) -> None:
    """Each passed the "nothing hidden" rule before: a move card then showed no name."""
    refused = floor.refuse(cmd.Register(name=name, player=player), BadValue, field)

    assert refused.reason == reason


def test_a_name_of_emoji_joined_by_zero_width_joiners_is_accepted(floor: Floor) -> None:
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467 Novák"
    floor.do(cmd.Register(name=family, player="N3"))

    assert floor.t.player("N3").name == family


def test_a_player_id_in_any_script_and_with_inner_spaces_is_accepted(floor: Floor) -> None:
    floor.do(cmd.Register(name="Jana Nováková", player="Nováková 7"))

    assert floor.where("Nováková 7") is not None


def test_a_name_pasted_with_tabs_and_spaces_is_kept_with_single_spaces(floor: Floor) -> None:
    floor.do(cmd.Register(name="Jan\t Novák", player="N1"))

    assert floor.t.player("N1").name == "Jan Novák"


def test_a_name_written_with_joiners_is_accepted(floor: Floor) -> None:
    floor.do(cmd.Register(name="Ali\u200cReza", player="N2"))

    assert floor.t.player("N2").name == "Ali\u200cReza"


def test_a_player_on_record_re_enters_under_their_id_and_name_as_they_stand() -> None:
    floor = Floor({1: "1-5 pos 1/2/3"})
    # An id from before ids were checked, and a name with a tab in it.
    floor._apply(PlayerRegistered(player="Novák 12", name="Jan\tNovák"))
    floor._apply(PlayerSeated(player="Novák 12", table=1, seat=6))
    floor.bust("Novák 12")

    floor.do(cmd.Register(player="Novák 12", name="Jan\tNovák"))

    assert floor.t.player("Novák 12").entries == 2


def test_a_time_call_that_ran_out_does_not_stop_the_next_one(floor: Floor) -> None:
    floor.do(cmd.CallTime(table=1, seat=3, seconds=30, count=10), now=0.0)

    floor.do(cmd.CallTime(table=1, seat=3), now=45.0)  # the clock has not written its end yet

    assert [c.at for c in floor.t.state.time_calls if (c.table, c.seat) == (1, 3)][-1] == 45.0


# --- invalid rules ----------------------------------------------------------------------------

BASE = {"game": "holdem", "seats": 9, "final_table": 9}


@pytest.mark.parametrize(
    ("bad", "named"),
    [
        ({"seats": 1}, "$.seats"),
        ({"seats": 13}, "$.seats"),
        ({"final_table": 1}, "$.final_table"),
        ({"balance_trigger": 1}, "$.balance_trigger"),
        ({"halt_short": -1}, "$.halt_short"),
        ({"break_order": [3, 2, 3]}, "break_order"),
        ({"balance_order": [1, 1]}, "balance_order"),
        ({"break_fill": 10}, "break_fill"),
        ({"reserved_seats": [{"table": 1, "seat": 10}]}, "reserved_seats[0].seat"),
        ({"reserved_seats": [{"table": 1, "seat": 0}]}, "$.reserved_seats[0].seat"),
        ({"game": "bridge"}, "$.game"),
        ({"max_players": 9}, "max_players"),
    ],
)
def test_invalid_rules_raise_a_validation_error_naming_the_field(
    bad: dict[str, Any], named: str
) -> None:
    with pytest.raises(msgspec.ValidationError) as caught:
        msgspec.convert({**BASE, **bad}, Rules)

    assert named in str(caught.value)


def test_the_larger_of_seats_and_final_table_bounds_a_reserved_seat() -> None:
    rules = msgspec.convert(
        {
            "game": "holdem",
            "seats": 6,
            "final_table": 7,
            "reserved_seats": [{"table": 1, "seat": 7}],
        },
        Rules,
    )

    assert rules.reserved() == {(1, 7)}


def test_the_last_player_left_cannot_be_busted() -> None:
    floor = Floor({1: "1-2 pos 1/2/1"})
    floor.do(cmd.Bust(player="T1S1"))
    refused = floor.refuse(cmd.Bust(player="T1S2"), NotAllowed, "player")
    assert "T1S2 is the last player left" in refused.message
