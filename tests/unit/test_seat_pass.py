"""The digital seat card's rules (``floor.engine.read.seat_pass``): a card signed for a seated
player's entry reads back only under the floor's key and untouched; it is the seat's for as
long as the seat is theirs (the same card each time it is made), void after a move, a
bust-out or a new entry; read at another table it says whose seat it names and where the
player sits now. The QR code the server draws of it (segno) holds the code.
"""

from __future__ import annotations

import pytest

from floor.engine import commands as cmd
from floor.engine.read import seat_pass
from floor.server.seat_pass import qr_of
from tests.unit.test_entries_and_buys import table

KEY = b"k" * 32


def test_a_card_reads_back_under_the_key_that_signed_it_and_no_other() -> None:
    floor = table()
    card = seat_pass.card_of(floor.t, "T1S2")
    assert card == seat_pass.Binding("t", "T1S2", 1, 1, 2)
    code = seat_pass.sign(card, KEY)
    assert seat_pass.read(code, KEY) == card
    # The same seat, the same card: a phone that shows it again shows the one scanned.
    assert seat_pass.sign(seat_pass.card_of(floor.t, "T1S2"), KEY) == code  # type: ignore[arg-type]
    assert seat_pass.read(code, b"x" * 32) is None


@pytest.mark.parametrize(
    "forged",
    [
        "",
        "hello",
        "FS1.",
        "FS1.abc",
        "FS1.abc.def",
        "FS1." + "A" * 500,
        "FS1.!!!.@@@",
    ],
)
def test_a_code_that_is_not_a_card_of_this_floor_reads_as_none(forged: str) -> None:
    assert seat_pass.read(forged, KEY) is None


def test_a_card_changed_to_name_another_seat_fails_its_signature() -> None:
    floor = table()
    code = seat_pass.sign(seat_pass.Binding("t", "T1S2", 1, 1, 2), KEY)
    other = seat_pass.sign(seat_pass.Binding("t", "T1S2", 1, 1, 3), KEY)
    # The body of one with the tag of the other.
    spliced = other.rsplit(".", 1)[0] + "." + code.rsplit(".", 1)[1]
    assert seat_pass.read(spliced, KEY) is None
    card = seat_pass.read(code, KEY)
    assert card is not None and seat_pass.judge(floor.t, card, 1).verdict == "ok"


def test_a_card_is_the_players_at_their_table_and_says_where_at_another() -> None:
    floor = table()
    card = seat_pass.Binding("t", "T1S2", 1, 1, 2)
    here = seat_pass.judge(floor.t, card, 1)
    assert (here.verdict, here.name, here.right_table, here.right_seat) == ("ok", "T1S2", 1, 2)
    assert seat_pass.judge(floor.t, card, None).verdict == "ok"
    there = seat_pass.judge(floor.t, card, 7)
    assert (there.verdict, there.right_table, there.right_seat) == ("other_table", 1, 2)


def test_a_move_voids_the_card_and_names_the_seat_now() -> None:
    floor = table()
    card = seat_pass.card_of(floor.t, "T1S2")
    assert card is not None
    floor.do(cmd.CorrectSeat(player="T1S2", table=1, seat=7))
    judged = seat_pass.judge(floor.t, card, 1)
    assert (judged.verdict, judged.right_table, judged.right_seat) == ("void", 1, 7)
    assert seat_pass.card_of(floor.t, "T1S2") == seat_pass.Binding("t", "T1S2", 1, 1, 7)
    assert seat_pass.used_mark(card) != seat_pass.used_mark(
        seat_pass.card_of(floor.t, "T1S2")  # type: ignore[arg-type]
    )


def test_a_bust_out_voids_the_card_and_an_unknown_player_has_none() -> None:
    floor = table()
    card = seat_pass.card_of(floor.t, "T1S3")
    assert card is not None
    floor.do(cmd.Bust(player="T1S3"))
    judged = seat_pass.judge(floor.t, card, 1)
    assert (judged.verdict, judged.right_table, judged.right_seat) == ("void", None, None)
    assert seat_pass.card_of(floor.t, "T1S3") is None
    assert seat_pass.card_of(floor.t, "nobody") is None
    ghost = seat_pass.judge(floor.t, seat_pass.Binding("t", "nobody", 1, 1, 9), 1)
    assert (ghost.verdict, ghost.name) == ("void", None)


def test_the_qr_code_is_square_and_of_a_size_a_phone_camera_reads() -> None:
    code = seat_pass.sign(seat_pass.Binding("a" * 40, "P" * 64, 3, 10_000, 10), KEY)
    qr = qr_of(code)
    assert qr.size == len(qr.rows) and all(len(r) == qr.size for r in qr.rows)
    assert set("".join(qr.rows)) == {"0", "1"}
    # Version 10 (57 modules) for the longest card (ids of 40 and 64 characters); a usual
    # one (a registry id at a day's flight) version 6 (41) or less, easy for a camera.
    assert qr.size <= 57, qr.size
    usual = qr_of(seat_pass.sign(seat_pass.Binding("main-day1a", "R0123456789", 1, 120, 9), KEY))
    assert usual.size <= 41, usual.size
