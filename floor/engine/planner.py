"""The plan after every change: final table, table breaks, balancing, halts (FLOOR-RULES 4-6, 10).

Two halves. ``housekeep`` makes the decisions that need the random source or change the state
(a table starts breaking, seats are drawn for a break or the final table, a table is broken)
and returns them as events. ``compute_plan`` derives the rest (balance moves, halts) from the
state alone, so the plan is a pure function of the folded events.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterable

from .calls import lapsed
from .events import Event, FinalTableFormed, SeatsAssigned, TableBreaking, TableBroken
from .model import PlayerId, SeatNo, TableNo, is_stud
from .plan import Halt, Place, Plan, PlannedMove
from .positions import after
from .reasons import Decision, rule_id, why
from .room import room
from .seating import draw_break_seats, draw_final_seats
from .state import Called, Player, Table, Tournament, register_planner


class Virtual:
    """The seating with the plan so far applied: who leaves, which seats are spoken for."""

    def __init__(self, t: Tournament) -> None:
        self.t = t
        self.gone: set[PlayerId] = set()
        self.taken: defaultdict[TableNo, set[SeatNo]] = defaultdict(set)
        self.unnamed: defaultdict[TableNo, int] = defaultdict(int)
        self.delta: defaultdict[TableNo, int] = defaultdict(int)

    def count(self, n: TableNo) -> int:
        return self.t.table(n).count + self.delta.get(n, 0)

    def overrides(self) -> dict[TableNo, int]:
        tables = self.t.state.tables
        return {n: self.count(n) for n in self.delta if tables[n].status == "open"}

    def free(self, table: Table, seat: SeatNo, needs_reserved: bool) -> bool:
        pid = table.occupants.get(seat)
        if pid is not None and pid not in self.gone:
            return False
        if seat in self.taken.get(table.number, ()):
            return False
        return needs_reserved or not self.t.is_reserved(table.number, seat)

    def arrive(self, n: TableNo, seat: SeatNo | None) -> None:
        if seat is None:
            self.unnamed[n] += 1
        else:
            self.taken[n].add(seat)
        self.delta[n] += 1


# The plan ------------------------------------------------------------------------------------


def compute_plan(t: Tournament) -> Plan:
    s = t.state
    book = s.rules.rulebook
    v = Virtual(t)
    final: list[PlannedMove] = []
    breaks: list[PlannedMove] = []
    calls = s.calls
    for pid, a in s.draws.items():
        p = s.players[pid]
        assert p.table is not None
        c = calls.get(pid) if calls else None
        held = c is not None and (c.table, c.seat) == (a.table, a.seat)
        move = PlannedMove(
            player=pid,
            from_=Place(p.table, p.seat),
            to=Place(a.table, a.seat),
            reason=a.reason,
            why=why(book, a.reason),
            rule=rule_id(a.reason),
            called=c.count if c is not None and held else 0,
            called_at=c.at if c is not None and held else None,
        )
        (final if a.reason == "final" else breaks).append(move)
        v.gone.add(pid)
        if p.table != a.table:
            v.arrive(a.table, a.seat)
        else:
            v.taken[a.table].add(a.seat)
    final.sort(key=lambda m: (t.input_index(m.from_.table), m.from_.seat or 0))
    breaks.sort(key=lambda m: (t.break_rank(m.from_.table), m.from_.seat or 0))
    halted = _halts(t)
    balance = _balance(t, v, halted) if s.final_table is None else []
    return Plan(moves=(*final, *breaks, *balance), halted=halted, final_table=s.final_table)


def _halts(t: Tournament) -> tuple[Halt, ...]:
    short = t.rules.halt_short
    if short <= 0 or t.open_count < 2:
        return ()
    top = t.max_open_count()
    tables = [n for n in t.tables_with_at_most(top - short) if not t.table(n).halt_waived]
    tables.sort(key=t.input_index)
    text = why(t.rules.rulebook, "halt")
    rule = rule_id("halt")
    return tuple(Halt(table=n, short=top - t.table(n).count, why=text, rule=rule) for n in tables)


def _balance(t: Tournament, v: Virtual, halted: tuple[Halt, ...]) -> list[PlannedMove]:
    trigger = t.rules.balance_trigger
    moves = _called_balance(t, v)
    spared = _spared(t, halted)
    while True:
        overrides = v.overrides()
        hi = t.extreme(overrides, lowest=False)
        lo = t.extreme(overrides, lowest=True) if spared is None else _lowest(t, overrides, spared)
        if hi is None or lo is None or v.count(hi) - v.count(lo) < trigger:
            return moves
        move = _balance_move(t, v, t.table(hi), t.table(lo))
        if move is None:
            return moves
        moves.append(move)


def _balance_decision(t: Tournament) -> Decision:
    if t.rules.stud_only:
        return "balance_stud"
    return "balance_mixed" if is_stud(t.state.current_game) else "balance"


def _called_balance(t: Tournament, v: Virtual) -> list[PlannedMove]:
    """The balance moves the floor has called, first and as called, while they fit: the
    mover still at the table called from, both tables open, the seat (or, where the floor
    picks it, a seat) still free. One that does not fit is left out, and its call lapses."""
    s = t.state
    out: list[PlannedMove] = []
    for pid, c in s.calls.items():
        if c.reason != "balance":
            continue
        p = s.players[pid]
        if p.busted or p.table != c.from_table or pid in v.gone:
            continue
        src = s.tables[c.from_table]
        dst = s.tables.get(c.table)
        if src.status != "open" or dst is None or dst.status != "open":
            continue
        needs = t.needs_reserved(p)
        if c.seat is None:
            free = sum(1 for x in range(1, dst.seats + 1) if v.free(dst, x, needs))
            if free - v.unnamed.get(dst.number, 0) <= 0:
                continue
        elif c.seat > dst.seats or not v.free(dst, c.seat, needs):
            continue
        out.append(_record(t, v, src, dst, p, c.seat, _balance_decision(t), c))
    return out


def _spared(t: Tournament, halted: tuple[Halt, ...]) -> TableNo | None:
    """The table balancing moves nobody into, and a break draw seats only once the others
    are full (the house's ``spare_next_break``): the next to break, while it breaks within
    that many bust-outs and is not halted."""
    near = t.rules.spare_next_break
    if near <= 0 or t.open_count < 2:
        return None
    first = t.first_to_break()
    if first is None or any(h.table == first for h in halted):
        return None
    # The others hold at most their break fill: most of the day that alone says "far".
    if t.active - (t.open_count - 1) * t.rules.fill > near:
        return None
    return first if t.active - room(t, without=first) <= near else None


def _lowest(t: Tournament, overrides: dict[TableNo, int], spared: TableNo) -> TableNo | None:
    """``t.extreme(overrides, lowest=True)`` among the open tables but ``spared``."""
    best: tuple[int, int, TableNo] | None = None
    for c, rank, n in t.open_by_count(lowest=True):
        if n != spared and n not in overrides:
            best = (c, rank, n)
            break
    for n, vc in overrides.items():
        cand = (vc, t.balance_rank(n), n)
        if n != spared and (best is None or cand < best):
            best = cand
    return None if best is None else best[2]


def _pick(t: Tournament, v: Virtual, src: Table, order: Iterable[SeatNo]) -> Player | None:
    """The first player in ``order`` who may go (FLOOR-RULES 10.5).

    Seat-locked players, players already planned and players the floor excused are skipped;
    a player who already made a balance or break move goes only if nobody else can.
    """
    fallback: Player | None = None
    players = t.state.players
    for seat in order:
        pid = src.occupants.get(seat)
        if pid is None or pid in v.gone:
            continue
        p = players[pid]
        if p.locked or p.excused:
            continue
        if p.moved:
            if fallback is None:
                fallback = p
            continue
        return p
    return fallback


def _balance_move(t: Tournament, v: Virtual, src: Table, dst: Table) -> PlannedMove | None:
    if t.rules.stud_only:
        return _stud_move(t, v, src, dst)
    decision = _balance_decision(t)
    mover: Player | None = None
    if src.positions is not None:
        mover = _pick(t, v, src, after(src.positions.big_blind, src.seats))
        if mover is None:
            return None
    needs = mover is not None and t.needs_reserved(mover)
    free = [s for s in range(1, dst.seats + 1) if v.free(dst, s, needs)]
    if len(free) - v.unnamed.get(dst.number, 0) <= 0:
        return None
    seat: SeatNo | None = None
    if dst.positions is not None:
        bb = dst.positions.big_blind
        open_seats = set(free)
        # The worst position: the first empty seat the big blind reaches, never the small
        # blind (the last big blind's own seat); if only that is left, the floor decides.
        for s in after(bb, dst.seats):
            if s == bb:
                break
            if s in open_seats:
                seat = s
                break
    return _record(t, v, src, dst, mover, seat, decision)


def _stud_move(t: Tournament, v: Virtual, src: Table, dst: Table) -> PlannedMove | None:
    seat: SeatNo | None = None
    for s in reversed(dst.opened):
        if s <= dst.seats and v.free(dst, s, False):
            seat = s
            break
    mover: Player | None = None
    if seat is None:
        free = sum(1 for s in range(1, dst.seats + 1) if v.free(dst, s, False))
        if free - v.unnamed.get(dst.number, 0) <= 0:
            return None
    else:
        start = (seat - 2) % src.seats + 1
        mover = _pick(t, v, src, after(start, src.seats))
        if mover is None:
            return None
    return _record(t, v, src, dst, mover, seat, "balance_stud")


def _record(
    t: Tournament,
    v: Virtual,
    src: Table,
    dst: Table,
    mover: Player | None,
    seat: SeatNo | None,
    decision: Decision,
    called: Called | None = None,
) -> PlannedMove:
    if mover is not None:
        v.gone.add(mover.id)
    v.delta[src.number] -= 1
    v.arrive(dst.number, seat)
    return PlannedMove(
        player=None if mover is None else mover.id,
        from_=Place(src.number, None if mover is None else mover.seat),
        to=Place(dst.number, seat),
        reason="balance",
        why=why(t.rules.rulebook, decision),
        rule=rule_id(decision),
        called=0 if called is None else called.count,
        called_at=None if called is None else called.at,
    )


# Housekeeping: the decisions that change the state -------------------------------------------


def housekeep(t: Tournament, rng: random.Random) -> list[Event]:
    """After a change: form the final table, start breaks, draw seats, mark broken tables."""
    events: list[Event] = []

    def emit(e: Event) -> None:
        t.apply(e)
        events.append(e)

    s = t.state
    rules = s.rules
    if not s.drawn:
        # Tables opened ahead of the draw are empty on purpose: nothing to break yet.
        return events
    if s.final_table is None and t.active <= rules.final_table and t.nonempty > 1:
        final = choose_final_table(t)
        if final is not None:
            emit(FinalTableFormed(table=final, seats=rules.final_table))
    if s.final_table is not None:
        seats = draw_final_seats(t, rng, everybody=not s.final_drawn)
        if seats:
            emit(SeatsAssigned(reason="final", seats=tuple(seats)))
    else:
        while (first := next_to_break(t)) is not None:
            emit(TableBreaking(table=first))
        if t.breaking:
            spared = _spared(t, _halts(t))
            for _, seats, dropped in draw_break_seats(t, rng, spared):
                emit(SeatsAssigned(reason="break", seats=tuple(seats), withdrawn=tuple(dropped)))
    for n in sorted(t.breaking, key=t.break_rank):
        if t.table(n).count == 0:
            emit(TableBroken(table=n))
    # Last, against the plan all this made: a call it can no longer keep is called off.
    if s.calls and (off := lapsed(t)) is not None:
        emit(off)
    return events


def next_to_break(t: Tournament) -> TableNo | None:
    """The table that breaks now, if the others can seat everybody (FLOOR-RULES 5)."""
    # The count alone rules it out after almost every bust-out, without a look at the tables.
    if t.open_count <= 1 or t.active > (t.open_count - 1) * t.rules.fill:
        return None
    first = t.first_to_break()
    return first if first is not None and t.active <= room(t, without=first) else None


def choose_final_table(t: Tournament) -> TableNo | None:
    """The configured final table if it is still in play, else the last open in break order."""
    wanted = t.rules.final_table_number
    if wanted is not None and wanted in t.state.tables and t.table(wanted).status == "open":
        return wanted
    candidates = list(t.open_tables())
    if not candidates:
        candidates = [tb for tb in t.state.tables.values() if tb.count]
    if not candidates:
        return None
    return max(candidates, key=lambda tb: t.break_rank(tb.number)).number


register_planner(compute_plan)
