"""What a table shows (status, next big blind, waiting players: FLOOR-RULES 1-3), and the
numbers of the field: chips in play, the prize pool and the results.

Derived from the state and the plan, never stored; shared by ``floor scenario`` and screens.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

import msgspec

from .. import milestone
from ..count_age import OldCount, count_age
from ..deal import deal_prize
from ..events import (
    ClockStarted,
    Event,
    FinalTableFormed,
    GameChanged,
    LevelChanged,
    PlayersMoved,
    SeatsAssigned,
    SeatsDrawn,
    StackSet,
)
from ..model import FLOP_GAMES, PlayerId, ShownStatus, TableNo
from ..positions import button_seat, waiting_seats
from ..positions import next_big_blind as _next_bb
from ..prize import PrizePool, payouts, shared_prizes
from ..rules import Level
from ..state import Player, Table, Tournament
from ..windows import SaleKind, Standing, registration
from .derived import sales


class TableView(msgspec.Struct, frozen=True, kw_only=True):
    """What a screen shows of a table beyond its seats: status, next big blind, waiting."""

    table: int
    status: ShownStatus
    players: int
    next_big_blind: str | None
    waiting: list[str]
    #: The step of the hand in progress when it is an earlier level than the clock's: a new
    #: level applies from the next hand, so this hand finishes at the old blinds.
    old_step: int | None = None
    #: The seat the dealer button sits on now (``positions.button_seat``): after a button
    #: report, the seat reported. None when unknown or at stud.
    button: int | None = None
    #: The players seated here whose count is old, and why (``count_age``): a screen shows
    #: the count as old, the final table's asks for a recount.
    old_counts: dict[PlayerId, OldCount] = msgspec.field(default_factory=dict)


def table_view(t: Tournament, table: Table, halted: Collection[TableNo] | None = None) -> TableView:
    """``halted``: the plan's halted tables, for a caller that views every table (asked of
    the plan for each, a room of 667 tables and 486 halts took 324,000 steps)."""
    return TableView(
        table=table.number,
        status=shown_status(t, table, halted),
        players=table.count,
        next_big_blind=next_big_blind(t, table),
        waiting=waiting(t, table),
        old_step=old_step(t, table),
        button=button(t, table),
        old_counts=old_counts(t, table),
    )


def old_counts(t: Tournament, table: Table) -> dict[PlayerId, OldCount]:
    s = t.state
    out: dict[PlayerId, OldCount] = {}
    for pid in table.occupants.values():
        why = count_age(s, s.players[pid])
        if why is not None:
            out[pid] = why
    return out


def old_step(t: Tournament, table: Table) -> int | None:
    """The step the table's hand in progress plays at, when not the clock's step."""
    s = t.state
    step = table.hand_level
    if s.structure is None or not s.clock.started or step is None or step == s.clock.level:
        return None
    return step if isinstance(s.structure.levels[step], Level) else None


def touched_tables(events: Iterable[Event]) -> set[int] | None:
    """The tables whose view these events may change; None when it may be all of them."""
    out: set[int] = set()
    for e in events:
        # A new level can leave any table's hand in progress at the old blinds, and makes the
        # counts old; a stack set names no table.
        if isinstance(e, FinalTableFormed | GameChanged | LevelChanged | ClockStarted | StackSet):
            return None
        table = getattr(e, "table", None)
        if isinstance(table, int):
            out.add(table)
        if isinstance(e, PlayersMoved):
            for m in e.moves:
                out.add(m.from_.table)
                out.add(m.to.table)
        elif isinstance(e, SeatsDrawn | SeatsAssigned):
            out.update(s.table for s in e.seats)
    return out


def shown_status(
    t: Tournament, table: Table, halted: Collection[TableNo] | None = None
) -> ShownStatus:
    if table.status == "open" and table.number in (
        t.plan.halted_tables if halted is None else halted
    ):
        return "halted"
    return table.status


def _dealing_flop(t: Tournament) -> bool:
    return t.state.current_game in FLOP_GAMES


def button(t: Tournament, table: Table) -> int | None:
    """The seat the button sits on now; None when unknown, at stud, or nobody sits."""
    if table.positions is None or not table.occupants or not _dealing_flop(t):
        return None
    return button_seat(
        table.positions, table.button_reported, table.seats, table.occupants, table.count
    )


def next_big_blind(t: Tournament, table: Table) -> PlayerId | None:
    """The player in the next hand's big blind; None when unknown, at stud, or nobody sits."""
    if table.positions is None or not table.occupants or not _dealing_flop(t):
        return None
    seat = _next_bb(table.positions, table.seats, table.occupants)
    return None if seat is None else table.occupants[seat]


def waiting(t: Tournament, table: Table) -> list[PlayerId]:
    """Players not dealt the next hand: seated between the next button and small blind."""
    if table.positions is None or table.count < 3 or not _dealing_flop(t):
        return []
    seats = waiting_seats(table.positions, table.seats, table.occupants)
    return [table.occupants[s] for s in seats]


class FieldStats(msgspec.Struct, frozen=True, kw_only=True):
    """The numbers on the wall display: players left of entries, the average stack, the pool."""

    players_left: int
    entries: int
    tables_in_play: int
    #: Chips in play: every entry's starting stack, plus rebuys, add-ons and what chip races
    #: changed (None without a structure).
    chips: int | None
    average_stack: int | None
    rebuys: int = 0
    add_ons: int = 0
    #: The prize pool now (the guarantee or what came in); None without prize settings.
    prize_pool: int | None = None
    currency: str | None = None
    places_paid: int = 0
    #: What can be sold at the clock's step now (the windows of ``derived.sales``, whose offers
    #: the staff screens show with the reasons).
    registration_open: bool = True
    re_entry_open: bool = False
    rebuy_open: bool = False
    add_on_open: bool = False


def _sales_open(t: Tournament) -> dict[str, bool]:
    """Late registration, re-entry, rebuys and the add-on at the clock's current step: the
    windows of ``windows.py``, which the screens' offers show with their reasons."""
    sold = sales(t)

    def open_now(where: Standing, kind: SaleKind) -> bool:
        sale = sold[where].get(kind)
        return sale is not None and sale.closed is None

    return {
        "registration_open": registration(t.state, t.state.clock.level) is None,
        "re_entry_open": open_now("out", "re_entry"),
        "rebuy_open": open_now("seated", "rebuy"),
        "add_on_open": open_now("seated", "add_on"),
    }


def chips_in_play(t: Tournament) -> int | None:
    s = t.state
    if s.structure is None:
        return None
    # Less what a milestone satellite's seat winners took out of play (``milestone``).
    return s.entries * s.structure.starting_stack + s.chips_added - s.chips_out


def prize_pool(t: Tournament) -> PrizePool | None:
    """The pool and payout table for the field so far; None without prize settings."""
    s = t.state
    prize = s.structure.prize if s.structure is not None else None
    if prize is None:
        return None
    return payouts(prize, s.entries, s.rebuys, s.add_ons)


def field_stats(t: Tournament) -> FieldStats:
    s = t.state
    chips = chips_in_play(t)
    left = t.active
    pool = prize_pool(t)
    return FieldStats(
        players_left=left,
        entries=s.entries,
        tables_in_play=t.open_count,
        chips=chips,
        # With one player left the "average" is every chip in play: no figure to show.
        average_stack=None if chips is None or left < 2 else round(chips / left),
        rebuys=s.rebuys,
        add_ons=s.add_ons,
        prize_pool=None if pool is None else pool.pool,
        currency=None if pool is None else pool.currency,
        places_paid=0 if pool is None else len(pool.places),
        **_sales_open(t),
    )


class Finish(msgspec.Struct, frozen=True, kw_only=True):
    """A player's result: the place (shared with ``tied - 1`` others) and the prize."""

    place: int
    #: Players sharing the place; they cover places ``place`` to ``place + tied - 1``.
    tied: int
    player: PlayerId
    name: str
    prize: int
    entries: int
    rebuys: int
    add_ons: int
    #: When the player busted; None for the winner.
    at: float | None
    #: The prize is the player's part of a deal made at the final table (``deal``).
    deal: bool = False
    #: The bounties the player won (with the winner's own); None: not a bounty tournament.
    bounty: int | None = None
    #: A satellite's seat: won at its end, or at its milestone (``milestone``).
    seat: bool = False


def results(t: Tournament, pool: PrizePool | None = None) -> list[Finish]:
    """Busted players from the best place to the worst, and the winner once one is left.

    Players who share a place share the prizes of the places they cover (``shared_prizes``);
    the odd currency units go one each to the first of them in table and seat order.
    """
    pool = pool if pool is not None else prize_pool(t)
    groups: dict[int, list[Player]] = {}
    # A seat won at a milestone stands above every place (``milestone``).
    standing = milestone.Standing(t.state)
    for p in t.state.players.values():
        if p.busted and p.bust is not None and not p.bust.seat_won:
            groups.setdefault(standing.place(p.bust.place), []).append(p)
    s = t.state
    seats: list[Player] = []
    if s.deal is not None and s.deal.ends:
        # The deal placed everybody left by their chips at it.
        for i, x in enumerate(s.deal.shares):
            groups[i + 1] = [s.players[x.player]]
    elif s.satellite_end is not None:
        # A satellite's players left share the places above the busted: a seat each (the
        # milestone's winners first, as the end lists them).
        seats = [
            s.players[x]
            for x in s.satellite_end.seats
            if not s.players[x].busted or milestone.won(s.players[x])
        ]
        groups[1] = seats
    elif s.seats_won:
        # The seats won at the milestone before the end.
        seats = [s.players[x] for x in milestone.winners(s)]
        groups[1] = seats
    elif t.active == 1 and t.state.busted:
        players = t.state.players.values()
        groups[1] = [next(p for p in players if not p.busted and p.table is not None)]
    out: list[Finish] = []
    bounties = (
        s.structure is not None
        and s.structure.prize is not None
        and (s.structure.prize.bounty is not None)
    )
    for place in sorted(groups):
        group = groups[place] if place == 1 and seats else sorted(groups[place], key=_where_busted)
        prizes = shared_prizes(pool, place, len(group)) if pool else [0] * len(group)
        for p, prize in zip(group, prizes, strict=True):
            dealt = deal_prize(s, p.id, place) if s.deal is not None else None
            out.append(
                Finish(
                    place=place,
                    tied=len(group),
                    player=p.id,
                    name=p.name,
                    prize=prize if dealt is None else dealt,
                    entries=p.entries,
                    rebuys=p.rebuys,
                    add_ons=p.add_ons,
                    at=p.bust.at if p.busted and p.bust else None,
                    deal=dealt is not None,
                    bounty=won_bounties(p) if bounties else None,
                    seat=place == 1 and bool(seats),
                )
            )
    return out


def won_bounties(p: Player) -> int:
    return p.bounty.won if p.bounty is not None else 0


def _where_busted(p: Player) -> tuple[int, int]:
    return (p.bust.table, p.bust.seat) if p.bust is not None else (0, 0)
