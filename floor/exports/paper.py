"""What the printables print (``web/print.html``): the seats, the draw, the tables, the moves
the floor is carrying out, the money and the results, as one read for the staff.

Seat cards are printed for the seat a player holds now and, for a planned or called move
(a balance, a break redraw, the final table), for the seat the move goes to: the card goes
with the player. Each card carries the seat's check code (``engine.seat_cards``). The
page sorts and lays out; every number and code is the server's.
"""

from __future__ import annotations

import msgspec

from ..engine.bounty_facts import BountyFacts, facts
from ..engine.flights import CheckFailed
from ..engine.model import MoveReason, TableStatus
from ..engine.prize import PrizePool
from ..engine.read.seat_cards import code, player_code
from ..engine.read.views import prize_pool
from ..engine.state import Tournament
from .results import ResultRow, result_rows


class PaperSeat(msgspec.Struct, frozen=True, kw_only=True):
    seat: int
    player: str
    name: str
    code: str
    country: str | None
    special_needs: bool
    #: The stack as last counted; None when nobody counted it.
    stack: int | None


class PaperTable(msgspec.Struct, frozen=True, kw_only=True):
    table: int
    seats: int
    status: TableStatus
    final: bool
    occupants: list[PaperSeat]


class PaperMove(msgspec.Struct, frozen=True, kw_only=True):
    """A move the floor is to carry out: the card for the seat it goes to."""

    player: str
    name: str
    from_table: int
    from_seat: int | None
    table: int
    #: None: the floor shows the seat on arrival (no card can say it yet).
    seat: int | None
    reason: MoveReason
    called: bool
    code: str | None


class PaperPlayer(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    name: str
    country: str | None
    table: int | None
    seat: int | None
    code: str | None
    entries: int
    busted: bool


class Paper(msgspec.Struct, frozen=True, kw_only=True):
    tournament: str
    name: str
    #: The server's time of the read: the time the cards say.
    printed_at: float
    #: The step in play (index), its level number (None before the first level) and
    #: whether it is a break.
    step: int
    level: int | None
    on_break: bool
    #: The chip denominations in play now, smallest first (the count sheets' columns).
    chips: list[int]
    players: list[PaperPlayer]
    tables: list[PaperTable]
    moves: list[PaperMove]
    pool: PrizePool | None
    results: list[ResultRow]
    #: Day 2 made from flights whose chip check failed: each check, the director's reason
    #: and account (its sheets say so).
    checks_failed: list[CheckFailed] = msgspec.field(default_factory=list)
    acknowledged: str | None = None
    acknowledged_by: str | None = None
    #: The draws are committed (``engine.fair``): each card names the page that checks it.
    committed: bool = False
    #: A bounty tournament's bounties (a mystery bounty's envelopes, for the payout sheet).
    bounties: BountyFacts | None = None


def paper(t: Tournament, now: float) -> Paper:
    s = t.state
    step = s.clock.level
    level: int | None = None
    on_break = False
    chips: list[int] = []
    if s.structure is not None:
        level, on_break = s.structure.level_played(min(step, len(s.structure.levels) - 1))
        chips = list(s.structure.chips_in_play(step))
    players = [
        PaperPlayer(
            id=p.id,
            name=p.name,
            country=p.country,
            table=p.table,
            seat=p.seat,
            code=player_code(t, p),
            entries=p.entries,
            busted=p.busted,
        )
        for p in s.players.values()
    ]
    tables = []
    for table in s.tables.values():
        if table.status == "broken":
            continue
        occupants = []
        for seat in sorted(table.occupants):
            p = s.players[table.occupants[seat]]
            occupants.append(
                PaperSeat(
                    seat=seat,
                    player=p.id,
                    name=p.name,
                    code=player_code(t, p) or "",
                    country=p.country,
                    special_needs=p.special_needs,
                    stack=p.stack if p.counted else None,
                )
            )
        tables.append(
            PaperTable(
                table=table.number,
                seats=table.seats,
                status=table.status,
                final=s.final_table == table.number,
                occupants=occupants,
            )
        )
    moves = []
    for m in t.plan.moves:
        if m.player is None:
            continue
        p = s.players[m.player]
        moves.append(
            PaperMove(
                player=p.id,
                name=p.name,
                from_table=m.from_.table,
                from_seat=m.from_.seat,
                table=m.to.table,
                seat=m.to.seat,
                reason=m.reason,
                called=m.called > 0,
                code=None
                if m.to.seat is None
                else code(s.id, p.id, p.entries, m.to.table, m.to.seat),
            )
        )
    pool = prize_pool(t)
    carried = s.carried
    return Paper(
        tournament=s.id,
        name=s.name,
        printed_at=now,
        step=step,
        level=level,
        on_break=on_break,
        chips=chips,
        players=players,
        tables=tables,
        moves=moves,
        pool=pool,
        results=result_rows(t, pool),
        checks_failed=list(carried.checks) if carried is not None else [],
        acknowledged=carried.acknowledged if carried is not None else None,
        acknowledged_by=carried.by if carried is not None else None,
        committed=s.fair is not None,
        bounties=facts(t),
    )
