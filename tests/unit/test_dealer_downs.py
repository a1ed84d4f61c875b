"""Downs as dealt (``floor.engine.house.downs``): counted from a dealer's sign-in at a table
screen to their sign-out, the next dealer's sign-in there, their own sign-in elsewhere or
the table's end; counted to the pay day they started in (a night crossing midnight stays
one day) and to the house's pay period; a sheet's totals are the sum of its downs."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone

from floor.engine.house.dealers import RoomSettings
from floor.engine.house.dealers_commands import SignIn, SignOut
from floor.engine.house.downs import pay_day, period_of, sheet
from tests.unit.dealer_room import RoomSim

PRAGUE_WINTER = timezone(timedelta(hours=1))
#: 2026-03-02 18:00 in Prague (a Monday).
EVENING = datetime(2026, 3, 2, 18, 0, tzinfo=PRAGUE_WINTER).timestamp()
SETTINGS = RoomSettings(day_starts=6 * 60, period_days=7, period_from="2026-01-05")


def sim() -> RoomSim:
    s = RoomSim(SETTINGS)
    s.dealers("ann", "bob", "cat")
    s.now = EVENING
    s.tables("main", [1, 2])
    return s


def at(s: RoomSim, minutes: float) -> None:
    s.now = EVENING + minutes * 60


def test_a_down_runs_from_a_sign_in_to_the_next_dealer_s_sign_in_there() -> None:
    s = sim()
    s.send(SignIn(dealer="ann", tournament="main", table=1))
    at(s, 31)
    s.send(SignIn(dealer="cat", tournament="main", table=1))
    at(s, 33)
    s.send(SignIn(dealer="ann", tournament="main", table=2))  # ann walked to table 2
    at(s, 60)
    s.send(SignOut(tournament="main", table=2))
    rows = [(d.dealer, d.table, d.start, d.end) for d in s.room.downs]
    assert rows == [
        ("ann", 1, EVENING, EVENING + 31 * 60),
        ("cat", 1, EVENING + 31 * 60, None),
        ("ann", 2, EVENING + 33 * 60, EVENING + 60 * 60),
    ]
    # Signing in again on the same screen goes on with the same down.
    s.send(SignIn(dealer="cat", tournament="main", table=1))
    assert len(s.room.downs) == 3
    # A sign-out with nobody signed in records nothing.
    assert s.send(SignOut(tournament="main", table=2)) == []


def test_a_dealer_signing_in_elsewhere_ends_their_own_down_and_the_table_s_end_ends_one() -> None:
    s = sim()
    s.send(SignIn(dealer="bob", tournament="main", table=2))
    at(s, 10)
    s.send(SignIn(dealer="bob", tournament="side", table=5))
    assert [(d.table, d.end) for d in s.room.downs] == [(2, EVENING + 600), (5, None)]
    at(s, 20)
    s.send(SignIn(dealer="cat", tournament="main", table=1))
    at(s, 25)
    s.tables("main", [2])  # table 1 breaks: cat's down there ends
    assert s.room.downs[-1].end == EVENING + 25 * 60
    assert "main/1" not in s.room.open_at


def test_a_night_crossing_midnight_counts_to_the_pay_day_it_started_in() -> None:
    late = datetime(2026, 3, 3, 1, 30, tzinfo=PRAGUE_WINTER).timestamp()  # 01:30, Tuesday
    early = datetime(2026, 3, 3, 6, 30, tzinfo=PRAGUE_WINTER).timestamp()
    assert pay_day(late, PRAGUE_WINTER, SETTINGS) == date(2026, 3, 2)
    assert pay_day(early, PRAGUE_WINTER, SETTINGS) == date(2026, 3, 3)
    assert pay_day(late, UTC, SETTINGS) == date(2026, 3, 2)  # 00:30 UTC, also before 06:00
    assert period_of(date(2026, 3, 2), SETTINGS) == (date(2026, 3, 2), date(2026, 3, 8))
    assert period_of(date(2026, 3, 1), SETTINGS) == (date(2026, 2, 23), date(2026, 3, 1))
    fortnight = RoomSettings(period_days=14, period_from="2026-01-05")
    assert period_of(date(2026, 1, 4), fortnight) == (date(2025, 12, 22), date(2026, 1, 4))


def test_the_sheet_lists_every_down_and_its_totals_add_up() -> None:
    s = sim()
    minute = 0.0
    for dealer in ["ann", "bob", "cat", "ann", "bob", "ann"]:
        s.send(SignIn(dealer=dealer, tournament="main", table=1))
        minute += 30
        at(s, minute)
    # The last down (ann's) stays open: listed, not counted yet.
    sheet_now = sheet(s.room, PRAGUE_WINTER, s.now)
    assert (sheet_now.first, sheet_now.last) == ("2026-03-02", "2026-03-08")
    by = {t.dealer: t for t in sheet_now.totals}
    assert {k: (v.downs, v.seconds, v.open) for k, v in by.items()} == {
        "ann": (2, 3600.0, 1),
        "bob": (2, 3600.0, 0),
        "cat": (1, 1800.0, 0),
    }
    for total in sheet_now.totals:
        rows = [r for r in sheet_now.rows if r.dealer == total.dealer and r.seconds is not None]
        assert sum(r.seconds or 0 for r in rows) == total.seconds
    assert sheet_now.periods == ("2026-03-02",)
    # A period with nothing in it is empty, not an error.
    empty = sheet(s.room, PRAGUE_WINTER, s.now, date(2026, 1, 10))
    assert (empty.first, empty.rows, empty.totals) == ("2026-01-05", (), ())
