"""Downs as dealt, for the dealers' pay: a sheet per dealer and totals per pay period.

A down is counted from the dealer's sign-in at the table screen to their sign-out, the next
dealer's sign-in there, or the table's end: what happened, not what was planned. It belongs
to the pay day it started in, a pay day starting ``day_starts`` minutes after local
midnight, so a night that crosses midnight stays one day; pay periods are ``period_days`` pay
days long, counted from ``period_from``. (The zone is passed in resolved: reading the zone
database is the caller's.)
"""

from __future__ import annotations

from datetime import date, datetime, timedelta, tzinfo

import msgspec

from .dealers import DealerId, Down, Room, RoomSettings


class DownRow(msgspec.Struct, frozen=True, kw_only=True):
    dealer: DealerId
    name: str
    tournament: str
    table: int
    start: float
    #: None while the dealer is still signed in there (not counted in the totals yet).
    end: float | None
    seconds: float | None
    #: The pay day (ISO date) the down counts to.
    day: str


class DealerTotal(msgspec.Struct, frozen=True, kw_only=True):
    dealer: DealerId
    name: str
    downs: int
    seconds: float
    #: Downs still open (not counted above).
    open: int


class Sheet(msgspec.Struct, frozen=True, kw_only=True):
    """One pay period's downs: every down by dealer, and each dealer's totals."""

    first: str
    last: str
    rows: tuple[DownRow, ...]
    totals: tuple[DealerTotal, ...]
    #: Every pay period with a down, newest first (ISO dates of their first days).
    periods: tuple[str, ...]


def pay_day(at: float, zone: tzinfo, settings: RoomSettings) -> date:
    """The pay day the instant ``at`` counts to."""
    local = datetime.fromtimestamp(at, zone) - timedelta(minutes=settings.day_starts)
    return local.date()


def period_of(day: date, settings: RoomSettings) -> tuple[date, date]:
    """The first and last pay day of the period ``day`` is in."""
    start = date.fromisoformat(settings.period_from)
    n = (day - start).days // settings.period_days
    first = start + timedelta(days=n * settings.period_days)
    return first, first + timedelta(days=settings.period_days - 1)


def sheet(room: Room, zone: tzinfo, now: float, period: date | None = None) -> Sheet:
    """The pay period that holds ``period`` (a day in it; None: the one holding ``now``)."""
    s = room.settings
    first, last = period_of(period or pay_day(now, zone, s), s)
    periods: set[date] = set()
    rows: list[DownRow] = []
    for down in room.downs:
        day = pay_day(down.start, zone, s)
        periods.add(period_of(day, s)[0])
        if first <= day <= last:
            rows.append(_row(room, down, day))
    rows.sort(key=lambda r: (r.name.casefold(), r.dealer, r.start))
    totals: dict[DealerId, DealerTotal] = {}
    for row in rows:
        held = totals.get(row.dealer) or DealerTotal(
            dealer=row.dealer, name=row.name, downs=0, seconds=0.0, open=0
        )
        if row.seconds is None:
            held = msgspec.structs.replace(held, open=held.open + 1)
        else:
            held = msgspec.structs.replace(
                held, downs=held.downs + 1, seconds=held.seconds + row.seconds
            )
        totals[row.dealer] = held
    return Sheet(
        first=first.isoformat(),
        last=last.isoformat(),
        rows=tuple(rows),
        totals=tuple(totals.values()),
        periods=tuple(p.isoformat() for p in sorted(periods, reverse=True)),
    )


def _row(room: Room, down: Down, day: date) -> DownRow:
    d = room.dealers.get(down.dealer)
    return DownRow(
        dealer=down.dealer,
        name=d.name if d is not None else down.dealer,
        tournament=down.tournament,
        table=down.table,
        start=down.start,
        end=down.end,
        seconds=None if down.end is None else down.end - down.start,
        day=day.isoformat(),
    )
