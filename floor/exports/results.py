"""The results as files: every finisher with where and when they went out, a results file
for the public results databases, and the payout sheet.

- ``results_csv``: place (and how many share it), name, id, country, entries, rebuys,
  add-ons, when the player went out, the level and table of the bust-out, the prize.
- ``hendon_csv``: the paid places in the layout results databases such as the Hendon Mob
  take: the event, its date, buy-in and entries on every row, then position, first name,
  last name, country and prize.
- ``payouts_csv``: the payout table as it stands: place, percent, prize, and who finished
  there once somebody has (and what they are paid, when a deal at the final table set it).

A deal at the final table (``engine.deal``) shows in each: the prize is the player's share,
and a column says it was a deal.

Times are written in the server's local time zone with its offset (ISO 8601).
"""

from __future__ import annotations

from datetime import datetime

import msgspec

from ..engine.prize import PrizePool
from ..engine.read.views import prize_pool, results
from ..engine.state import Tournament
from .cells import Cell, csv_bytes


class ResultRow(msgspec.Struct, frozen=True, kw_only=True):
    place: int
    tied: int
    name: str
    player: str
    country: str | None
    entries: int
    rebuys: int
    add_ons: int
    #: When the player went out (None: the winner, or still in).
    out_at: float | None
    #: The level played when the player went out, and whether it was the break after it.
    level: int | None
    on_break: bool
    table: int | None
    seat: int | None
    prize: int
    #: The prize is the player's part of a deal at the final table.
    deal: bool = False
    #: The bounties won (a bounty tournament; None otherwise).
    bounty: int | None = None
    #: The bounty on the player's head that went into a deal made with the bounties in it
    #: (None: no such deal).
    deal_bounties: int | None = None


def result_rows(t: Tournament, pool: PrizePool | None = None) -> list[ResultRow]:
    """Every finisher, best place first (``engine.views.results``), with the bust-out's
    time, level and table."""
    s = t.state
    pool = pool if pool is not None else prize_pool(t)
    out = []
    played = s.structure.levels_played() if s.structure is not None else []
    for f in results(t, pool):
        p = s.players[f.player]
        bust = p.bust if p.busted else None
        level: int | None = None
        on_break = False
        if bust is not None and bust.level is not None and bust.level < len(played):
            level, on_break = played[bust.level]
        out.append(
            ResultRow(
                place=f.place,
                tied=f.tied,
                name=f.name,
                player=f.player,
                country=p.country,
                entries=f.entries,
                rebuys=f.rebuys,
                add_ons=f.add_ons,
                out_at=bust.at if bust is not None else None,
                level=level,
                on_break=on_break,
                table=bust.table if bust is not None else None,
                seat=bust.seat if bust is not None else None,
                prize=f.prize,
                deal=f.deal,
                bounty=f.bounty,
                deal_bounties=_dealt(t, f.player),
            )
        )
    return out


def _dealt(t: Tournament, pid: str) -> int | None:
    deal = t.state.deal
    if deal is None or not deal.bounties:
        return None
    r = t.state.players[pid].bounty
    return r.dealt if r is not None else 0


def local_time(at: float | None) -> str:
    if at is None:
        return ""
    return datetime.fromtimestamp(at).astimezone().isoformat(timespec="seconds")


def results_csv(t: Tournament) -> bytes:
    pool = prize_pool(t)
    currency = pool.currency if pool else ""
    header = [
        "place",
        "tied",
        "name",
        "player",
        "country",
        "entries",
        "rebuys",
        "add_ons",
        "out_at",
        "level",
        "on_break",
        "table",
        "seat",
        "prize",
        "currency",
        "deal",
    ]
    # A bounty tournament: the bounties each won, after the prize (other files as before).
    bounties = pool is not None and pool.bounties > 0
    if bounties:
        header.append("bounties")
    # A deal made with the bounties in it: what each player's head put in.
    deal = t.state.deal
    dealt = deal is not None and deal.bounties > 0
    if dealt:
        header.append("deal_bounties")
    rows = (
        [
            r.place,
            r.tied,
            r.name,
            r.player,
            r.country,
            r.entries,
            r.rebuys,
            r.add_ons,
            local_time(r.out_at),
            r.level,
            1 if r.on_break else 0,
            r.table,
            r.seat,
            r.prize,
            currency,
            1 if r.deal else 0,
            *([r.bounty] if bounties else []),
            *([r.deal_bounties] if dealt else []),
        ]
        for r in result_rows(t, pool)
    )
    return csv_bytes(header, rows)


def split_name(name: str) -> tuple[str, str]:
    """First and last name as the databases file them: the last word is the last name."""
    first, _, last = name.rpartition(" ")
    return first, last


def hendon_csv(t: Tournament) -> bytes:
    """The paid places (every finisher when no money is tracked)."""
    s = t.state
    pool = prize_pool(t)
    prize = s.structure.prize if s.structure is not None else None
    buy_in = prize.buy_in + prize.fee if prize is not None else None
    date = datetime.fromtimestamp(s.created_at).astimezone().date().isoformat()
    header = [
        "Event",
        "Date",
        "Buy-in",
        "Currency",
        "Entries",
        "Prize pool",
        "Position",
        "First Name",
        "Last Name",
        "Country",
        "Prize",
        # The databases mark a prize agreed in a deal apart from one paid by the payout table.
        "Deal",
    ]
    rows: list[list[Cell]] = []
    for r in result_rows(t, pool):
        if pool is not None and not r.prize:
            continue
        first, last = split_name(r.name)
        rows.append(
            [
                s.name,
                date,
                buy_in,
                pool.currency if pool else None,
                s.entries,
                pool.pool if pool else None,
                r.place,
                first,
                last,
                r.country,
                r.prize if pool else None,
                "Deal" if r.deal else None,
            ]
        )
    return csv_bytes(header, rows)


def payouts_csv(t: Tournament) -> bytes:
    pool = prize_pool(t)
    # ``paid``: what the player there is paid when a deal at the final table changed it.
    header = ["place", "percent", "prize", "currency", "name", "player", "paid"]
    if pool is None:
        return csv_bytes(header, [])
    at: dict[int, list[ResultRow]] = {}
    for r in result_rows(t, pool):
        for place in range(r.place, r.place + r.tied):
            at.setdefault(place, []).append(r)
    rows: list[list[Cell]] = []
    for p in pool.places:
        who = at.get(p.place, [])
        rows.append(
            [
                p.place,
                f"{p.percent:.2f}",
                p.prize,
                pool.currency,
                " / ".join(r.name for r in who) or None,
                " / ".join(r.player for r in who) or None,
                " / ".join(str(r.prize) for r in who if r.deal) or None,
            ]
        )
    return csv_bytes(header, rows)
