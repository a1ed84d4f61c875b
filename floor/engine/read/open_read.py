"""The open read API's documents (``/api/open/v1``): what a reporter, the venue's website or
another tool reads of a tournament, as plain JSON built here from the state, so that a
reader folds nothing and knows no rule.

Each document is read off the public record of the state: every player passes through
``staff_fields.public`` first and each document names the fields it carries, so that a
special need, a seat lock or a note (``model.STAFF``) never reaches one, nor a seat drawn
for a break or the final table before the floor calls it (``state.draws``: the room is
shown a move once it is called, ``state.calls``). Nothing here reads a clock: a document
says when (``ends_at``, ``counted_at``) and the reader counts from its own now, so that a
document is the same bytes for a whole version of the tournament and is built once.

The feed of changes (``changes``) says what happened in public terms, from the events as
they are written: bust-outs and their corrections, moves called and made, the clock's
levels, tables broken, the final table, the winner.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Final, Literal

import msgspec

from .. import finish
from ..clock import level_view
from ..count_age import OldCount, count_age, level_changed_at
from ..events import (
    BustUndone,
    CallsLapsed,
    ClockPaused,
    ClockResumed,
    ClockStarted,
    Event,
    FinalTableFormed,
    LevelChanged,
    MovesCalled,
    PlayerBusted,
    PlayerSeated,
    PlayersMoved,
    SeatsDrawn,
    TableBroken,
    TournamentClosed,
    TournamentFinished,
)
from ..model import PlayerId, TableNo
from ..rules import Break
from ..state import Player, Tournament
from . import staff_fields
from .views import field_stats, prize_pool, results

#: The version of these documents' shapes: a change that breaks a reader makes a v2.
VERSION: Final = "1"


class Doc(msgspec.Struct, frozen=True, kw_only=True):
    tournament: str
    #: The tournament's sequence number the document was built at.
    seq: int


class OpenClock(Doc, frozen=True, kw_only=True):
    status: finish.Status
    started: bool
    running: bool
    #: The step of the structure (levels and breaks, from 0); None without a structure.
    step: int | None
    kind: Literal["level", "break"] | None
    #: The level's number (None at a break).
    number: int | None
    small_blind: int = 0
    big_blind: int = 0
    ante: int = 0
    big_blind_ante: bool = False
    game: str | None = None
    minutes: float | None = None
    #: When the step ends while the clock runs (seconds since the epoch, UTC); None paused.
    ends_at: float | None
    #: Seconds left of the step when the clock stood (paused or not started).
    remaining: float
    #: The next step, as this one is described; None at the last.
    next: OpenStep | None = None


class OpenStep(msgspec.Struct, frozen=True, kw_only=True):
    step: int
    kind: Literal["level", "break"]
    number: int | None
    small_blind: int = 0
    big_blind: int = 0
    ante: int = 0
    minutes: float


class OpenField(Doc, frozen=True, kw_only=True):
    name: str
    status: finish.Status
    players_left: int
    entries: int
    rebuys: int
    add_ons: int
    tables_in_play: int
    chips: int | None
    average_stack: int | None
    prize_pool: int | None
    currency: str | None
    places_paid: int
    registration_open: bool
    winner: PlayerId | None
    winner_name: str | None
    finished_at: float | None


class OpenSeat(msgspec.Struct, frozen=True, kw_only=True):
    seat: int
    player: PlayerId
    name: str
    country: str | None


class OpenTable(msgspec.Struct, frozen=True, kw_only=True):
    table: TableNo
    status: str
    seats: list[OpenSeat]


class OpenMove(msgspec.Struct, frozen=True, kw_only=True):
    """A move the floor has called: the player goes from ``from_table`` to ``table``
    (``seat`` None: shown on arrival)."""

    player: PlayerId
    name: str
    from_table: TableNo
    table: TableNo
    seat: int | None
    reason: str
    called_at: float


class OpenSeats(Doc, frozen=True, kw_only=True):
    final_table: TableNo | None
    tables: list[OpenTable]
    moves: list[OpenMove]


class OpenCount(msgspec.Struct, frozen=True, kw_only=True):
    player: PlayerId
    name: str
    table: TableNo | None
    seat: int | None
    stack: int
    #: When the stack was counted (seconds since the epoch, UTC).
    counted_at: float | None
    #: Why the count is no longer the stack in play: "level" (a level changed since) or
    #: "bust" (a player busted at the table since); None while it stands.
    old: OldCount | None


class OpenCounts(Doc, frozen=True, kw_only=True):
    players_left: int
    counted: int
    average: int | None
    #: When the clock last changed level (a count before it is old).
    level_changed_at: float | None
    #: The counted stacks of the players still in, biggest first.
    counts: list[OpenCount]


class OpenBust(msgspec.Struct, frozen=True, kw_only=True):
    place: int
    #: Players sharing the place (busted in the same hand with equal stacks).
    tied: int
    player: PlayerId
    name: str
    prize: int
    #: When the player busted (None: the winner).
    at: float | None
    table: TableNo | None
    seat: int | None


class OpenResults(Doc, frozen=True, kw_only=True):
    status: finish.Status
    currency: str | None
    #: Best place first; the winner once one is left.
    results: list[OpenBust]


class OpenPlace(msgspec.Struct, frozen=True, kw_only=True):
    place: int
    percent: float
    prize: int


class OpenPayouts(Doc, frozen=True, kw_only=True):
    currency: str | None
    entries: int
    pool: int | None
    guarantee: int | None
    places: list[OpenPlace]


# The documents -----------------------------------------------------------------------------


#: The staff's fields of a player (``model.STAFF``): a player with any of them set is read
#: as the public is shown it.
_STAFF_OF_PLAYER: Final = staff_fields.BY_TYPE.get(Player, ())


def _players(t: Tournament) -> Iterable[Player]:
    """Every player as the public is shown them (a player with no staff fact set is as
    shown already: ``public`` costs 10 us a player, 100 ms at 10,000)."""
    for p in t.state.players.values():
        yield staff_fields.public(p) if any(getattr(p, n) for n in _STAFF_OF_PLAYER) else p


def _name(t: Tournament, player: PlayerId) -> str:
    p = t.state.players.get(player)
    return p.name if p is not None else player


def _step(t: Tournament, index: int) -> OpenStep:
    s = t.state
    assert s.structure is not None
    v = level_view(s.structure, index)
    return OpenStep(
        step=index,
        kind="break" if v.kind == "break" else "level",
        number=v.number,
        small_blind=v.small_blind,
        big_blind=v.big_blind,
        ante=v.ante,
        minutes=v.minutes,
    )


def clock(t: Tournament, seq: int) -> OpenClock:
    s = t.state
    c = s.clock
    empty = OpenClock(
        tournament=s.id,
        seq=seq,
        status=finish.status(s),
        started=c.started,
        running=c.running,
        step=None,
        kind=None,
        number=None,
        ends_at=c.ends_at if c.running else None,
        remaining=c.remaining,
    )
    if s.structure is None:
        return empty
    v = level_view(s.structure, c.level)
    last = c.level + 1 >= len(s.structure.levels)
    return msgspec.structs.replace(
        empty,
        step=c.level,
        kind="break" if v.kind == "break" else "level",
        number=v.number,
        small_blind=v.small_blind,
        big_blind=v.big_blind,
        ante=v.ante,
        big_blind_ante=v.big_blind_ante,
        game=v.game,
        minutes=v.minutes,
        next=None if last else _step(t, c.level + 1),
    )


def field(t: Tournament, seq: int) -> OpenField:
    s = t.state
    f = field_stats(t)
    won = finish.winner(s)
    return OpenField(
        tournament=s.id,
        seq=seq,
        name=s.name,
        status=finish.status(s),
        players_left=f.players_left,
        entries=f.entries,
        rebuys=f.rebuys,
        add_ons=f.add_ons,
        tables_in_play=f.tables_in_play,
        chips=f.chips,
        average_stack=f.average_stack,
        prize_pool=f.prize_pool,
        currency=f.currency,
        places_paid=f.places_paid,
        registration_open=f.registration_open,
        winner=None if won is None else won.player,
        winner_name=None if won is None else won.name,
        finished_at=s.finished_at,
    )


def seats(t: Tournament, seq: int, table: TableNo | None = None) -> OpenSeats:
    """Where every player still in sits now (``table``: that table's only), and the moves
    the floor has called. A seat drawn and not called yet is not where the player sits."""
    s = t.state
    at: dict[TableNo, list[OpenSeat]] = {}
    for p in _players(t):
        if p.busted or p.table is None or p.seat is None:
            continue
        if table is not None and p.table != table:
            continue
        at.setdefault(p.table, []).append(
            OpenSeat(seat=p.seat, player=p.id, name=p.name, country=p.country)
        )
    tables = [
        OpenTable(table=n, status=x.status, seats=sorted(at.get(n, []), key=lambda o: o.seat))
        for n, x in sorted(s.tables.items())
        if (table is None or n == table) and (x.status != "broken" or n in at)
    ]
    moves = [
        OpenMove(
            player=pid,
            name=_name(t, pid),
            from_table=c.from_table,
            table=c.table,
            seat=c.seat,
            reason=c.reason,
            called_at=c.at,
        )
        for pid, c in sorted(s.calls.items())
        if table is None or table in (c.from_table, c.table)
    ]
    return OpenSeats(
        tournament=s.id, seq=seq, final_table=s.final_table, tables=tables, moves=moves
    )


def counts(
    t: Tournament, seq: int, table: TableNo | None = None, top: int | None = None
) -> OpenCounts:
    """The counted stacks of the players still in (``table``: at that table), biggest first
    (equal stacks by player id), each with when it was counted and whether it is old; the
    ``top`` biggest only, when given (the leaders, without the whole field)."""
    s = t.state
    left = [p for p in _players(t) if not p.busted and p.table is not None]
    counted = [p for p in left if p.counted and p.stack is not None]
    total = sum(p.stack or 0 for p in counted)
    shown = sorted(
        (p for p in counted if table is None or p.table == table),
        key=lambda p: (-(p.stack or 0), p.id),
    )
    return OpenCounts(
        tournament=s.id,
        seq=seq,
        players_left=len(left),
        counted=len(counted),
        average=round(total / len(counted)) if counted else None,
        level_changed_at=level_changed_at(s),
        counts=[
            OpenCount(
                player=p.id,
                name=p.name,
                table=p.table,
                seat=p.seat,
                stack=p.stack or 0,
                counted_at=p.counted_at,
                old=count_age(s, p),
            )
            for p in (shown if top is None else shown[:top])
        ],
    )


def bust_outs(t: Tournament, seq: int) -> OpenResults:
    """Every bust-out with its place and prize, best place first, and the winner."""
    s = t.state
    pool = prize_pool(t)
    out = []
    for r in results(t, pool):
        p = s.players.get(r.player)
        bust = p.bust if p is not None else None
        out.append(
            OpenBust(
                place=r.place,
                tied=r.tied,
                player=r.player,
                name=r.name,
                prize=r.prize,
                at=r.at,
                table=bust.table if bust is not None else None,
                seat=bust.seat if bust is not None else None,
            )
        )
    return OpenResults(
        tournament=s.id,
        seq=seq,
        status=finish.status(s),
        currency=None if pool is None else pool.currency,
        results=out,
    )


def payouts(t: Tournament, seq: int) -> OpenPayouts:
    s = t.state
    pool = prize_pool(t)
    return OpenPayouts(
        tournament=s.id,
        seq=seq,
        currency=None if pool is None else pool.currency,
        entries=s.entries,
        pool=None if pool is None else pool.pool,
        guarantee=None if pool is None else pool.guarantee,
        places=[]
        if pool is None
        else [OpenPlace(place=x.place, percent=x.percent, prize=x.prize) for x in pool.places],
    )


# The feed of changes ---------------------------------------------------------------------


ChangeKind = Literal[
    "seats_drawn",
    "seated",
    "bust",
    "bust_undone",
    "move_called",
    "moves_lapsed",
    "moved",
    "clock_started",
    "clock_paused",
    "clock_resumed",
    "level",
    "table_broken",
    "final_table",
    "finished",
    "closed",
]


class Change(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One thing that changed, in public terms, at the sequence number ``seq``."""

    seq: int
    kind: ChangeKind
    at: float | None = None
    player: PlayerId | None = None
    name: str | None = None
    #: A bust-out's place (and the players sharing it).
    place: int | None = None
    tied: int | None = None
    #: Where: a bust-out's seat, a move's destination, the table broken or formed.
    table: TableNo | None = None
    seat: int | None = None
    from_table: TableNo | None = None
    from_seat: int | None = None
    reason: str | None = None
    #: A level change's step and level number; a draw's count of seats.
    step: int | None = None
    number: int | None = None
    players: int | None = None


class OpenChanges(Doc, frozen=True, kw_only=True):
    #: The changes after ``since`` up to ``to`` (the last sequence number read); ask again
    #: with ``since=to`` for the next. ``more``: the tournament is past ``to`` already.
    since: int
    to: int
    more: bool
    changes: list[Change]


def changes(t: Tournament, first: int, events: Iterable[Event]) -> list[Change]:
    """The public changes of ``events``, the first of which has the sequence number
    ``first``. Names are the players' names now (a corrected name reads corrected)."""
    out: list[Change] = []
    for seq, e in enumerate(events, first):
        out += _change(t, seq, e)
    return out


def _change(t: Tournament, seq: int, e: Event) -> list[Change]:
    match e:
        case SeatsDrawn():
            return [Change(seq=seq, kind="seats_drawn", at=e.at, players=len(e.seats))]
        case PlayerSeated():
            return [
                Change(
                    seq=seq,
                    kind="seated",
                    at=e.at,
                    table=e.table,
                    seat=e.seat,
                    player=e.player,
                    name=_name(t, e.player),
                )
            ]
        case PlayerBusted():
            return [
                Change(
                    seq=seq,
                    kind="bust",
                    at=e.at,
                    place=e.place,
                    tied=e.shares,
                    table=e.table,
                    seat=e.seat,
                    player=e.player,
                    name=_name(t, e.player),
                )
            ]
        case BustUndone():
            return [
                Change(
                    seq=seq,
                    kind="bust_undone",
                    at=e.at,
                    table=e.table,
                    seat=e.seat,
                    player=e.player,
                    name=_name(t, e.player),
                )
            ]
        case MovesCalled():
            return [
                Change(
                    seq=seq,
                    kind="move_called",
                    at=e.at,
                    from_table=c.from_.table,
                    from_seat=c.from_.seat,
                    table=c.to.table,
                    seat=c.to.seat,
                    reason=c.reason,
                    player=c.player,
                    name=_name(t, c.player),
                )
                for c in e.calls
            ]
        case CallsLapsed():
            return [
                Change(seq=seq, kind="moves_lapsed", player=p, name=_name(t, p)) for p in e.players
            ]
        case PlayersMoved():
            return [
                Change(
                    seq=seq,
                    kind="moved",
                    at=e.at,
                    from_table=m.from_.table,
                    from_seat=m.from_.seat,
                    table=m.to.table,
                    seat=m.to.seat,
                    reason=e.reason,
                    player=m.player,
                    name=_name(t, m.player),
                )
                for m in e.moves
            ]
        case ClockStarted():
            return [Change(seq=seq, kind="clock_started", at=e.at, step=e.level)]
        case ClockPaused():
            return [Change(seq=seq, kind="clock_paused", at=e.at)]
        case ClockResumed():
            return [Change(seq=seq, kind="clock_resumed", at=e.at)]
        case LevelChanged():
            structure = t.state.structure
            number = (
                structure.level_number(e.level)
                if structure is not None and e.level < len(structure.levels)
                else None
            )
            return [Change(seq=seq, kind="level", at=e.at, step=e.level, number=number)]
        case TableBroken():
            return [Change(seq=seq, kind="table_broken", table=e.table)]
        case FinalTableFormed():
            return [Change(seq=seq, kind="final_table", table=e.table, players=e.seats)]
        case TournamentFinished():
            return [
                Change(seq=seq, kind="finished", at=e.at, player=e.winner, name=_name(t, e.winner))
            ]
        case TournamentClosed():
            return [Change(seq=seq, kind="closed", at=e.at)]
    return []


# Open Tournament Summary ----------------------------------------------------------------------

#: The version of the Open Tournament Summary specification the summary follows.
OTS_VERSION: Final = "1.1.5"


def _utc(at: float | None) -> str | None:
    if at is None:
        return None
    return datetime.fromtimestamp(at, tz=UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def ots(t: Tournament, site: str, internal_version: str) -> dict[str, object]:
    """The results as an Open Tournament Summary (``{"ots": {...}}``): every player who
    entered, each finish with its place and prize, the players still in as still playing.
    Amounts are in the prize settings' currency units; without prize settings they are 0."""
    s = t.state
    prize = s.structure.prize if s.structure is not None else None
    pool = prize_pool(t)
    finished = {r.player: r for r in results(t, pool)}
    finishes: list[dict[str, object]] = []
    for r in finished.values():
        finishes.append(
            {
                "player_name": r.name,
                "finish_position": r.place,
                "still_playing": False,
                "prize": r.prize,
                "ticket_value": 0,
            }
        )
    players = sorted(_players(t), key=lambda p: p.id)
    for p in players:
        if p.id not in finished and not p.busted:
            finishes.append({"player_name": p.name, "still_playing": True})
    rebuys = [
        {"player_name": p.name, "rebuys": p.rebuys + p.entries - 1, "addons": p.add_ons}
        for p in players
        if p.rebuys or p.add_ons or p.entries > 1
    ]
    first = (
        next((x for x in s.structure.levels if not isinstance(x, Break)), None)
        if s.structure
        else None
    )
    started = s.level_history[0].at if s.level_history else s.created_at
    summary: dict[str, object] = {
        "spec_version": OTS_VERSION,
        "site_name": site,
        "network_name": site,
        "internal_version": internal_version,
        "tournament_number": s.id,
        "tournament_name": s.name,
        "start_date_utc": _utc(started),
        "end_date_utc": _utc(s.finished_at),
        "currency": prize.currency if prize is not None else "",
        "buyin_amount": prize.buy_in if prize is not None else 0,
        "fee_amount": prize.fee if prize is not None else 0,
        "bounty_fee_amount": None,
        "bounty_value_amount": None,
        "initial_stack": s.structure.starting_stack if s.structure is not None else 0,
        "type": "MTT",
        "flags": [],
        "speed": {"type": "Normal", "round_time": round(first.minutes * 60) if first else 0},
        "prize_pool": pool.pool if pool is not None else 0,
        "player_count": s.entries,
        "tournament_finishes_and_winnings": finishes,
    }
    if prize is not None and prize.rebuy is not None:
        summary["rebuy_cost"] = prize.rebuy.price + prize.rebuy.fee
    if prize is not None and prize.add_on is not None:
        summary["addon_cost"] = prize.add_on.price + prize.add_on.fee
    if rebuys:
        summary["tournament_rebuys"] = rebuys
    return {"ots": summary}
