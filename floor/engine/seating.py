"""Random seat draws: the initial draw, late entries, table breaks and the final table.

FLOOR-RULES sections 3, 5 and 6. Every draw takes the random source as an argument (a CSPRNG
in production, a seeded ``random.Random`` in tests) and returns the seats it drew, which the
caller records in an event, so that replaying the log never draws again.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterator
from heapq import heapify, heappop, heappush

from .errors import NotAllowed, refused
from .events import Seated
from .model import PlayerId, SeatNo, Spot, TableNo
from .moves import planned_seats
from .state import Assignment, Player, Table, Tournament


def _free_reserved(
    t: Tournament, taken: defaultdict[TableNo, set[SeatNo]], tables: set[TableNo] | None = None
) -> list[tuple[TableNo, SeatNo]]:
    out = []
    for n, seat in t.reserved_seats():
        table = t.state.tables.get(n)
        if table is None or table.status != "open" or (tables is not None and n not in tables):
            continue
        if seat <= table.seats and seat not in table.occupants and seat not in taken[n]:
            out.append((n, seat))
    return out


def _free_seats(
    t: Tournament, table: Table, taken: set[SeatNo], limit: int | None = None
) -> list[SeatNo]:
    top = table.seats if limit is None else min(limit, table.seats)
    occupants = table.occupants
    if not t.has_reserved_seats:  # most rooms: no per-seat lookup (a table break asks 9 times)
        return [s for s in range(1, top + 1) if s not in occupants and s not in taken]
    return [
        s
        for s in range(1, top + 1)
        if s not in occupants and s not in taken and not t.is_reserved(table.number, s)
    ]


def draw_initial(
    t: Tournament, players: list[Player], tables: list[Table], rng: random.Random
) -> list[Seated]:
    """The initial draw: counts differ by at most one, each player at a random seat.

    Which tables get the extra player is drawn too. Players who need a reserved seat are
    drawn to one first; nobody else is ever drawn to a reserved seat.
    """
    base, extra = divmod(len(players), len(tables))
    # The extra players go to tables with an ordinary seat to spare: in a full room a table
    # keeping a reserved seat free has one seat fewer (a room without them: every table).
    roomy = [i for i, tb in enumerate(tables) if len(_free_seats(t, tb, set())) > base]
    plus = set(rng.sample(roomy if len(roomy) >= extra else range(len(tables)), extra))
    quota = {tb.number: base + (i in plus) for i, tb in enumerate(tables)}
    taken: defaultdict[TableNo, set[SeatNo]] = defaultdict(set)
    out: list[Seated] = []
    others: list[Player] = []
    # The tables may not exist yet (the draw opens them): look at the ones given.
    by_number = {tb.number: tb for tb in tables}
    reserved = [
        (n, s)
        for n, s in t.reserved_seats()
        if n in by_number and s <= by_number[n].seats and s not in by_number[n].occupants
    ]
    for p in players:
        options = (
            [(n, s) for n, s in reserved if quota[n] > 0 and s not in taken[n]]
            if p.special_needs
            else []
        )
        if options:
            n, seat = rng.choice(options)
            out.append(Seated(p.id, n, seat))
            taken[n].add(seat)
            quota[n] -= 1
        else:
            others.append(p)
    pool: list[tuple[TableNo, SeatNo]] = []
    for tb in tables:
        free = _free_seats(t, tb, taken[tb.number])
        if len(free) < quota[tb.number]:
            raise refused(
                NotAllowed,
                "draw_table_no_room",
                {"table": tb.number, "free": len(free), "players": quota[tb.number]},
                field="tables",
            )
        pool.extend((tb.number, s) for s in rng.sample(free, quota[tb.number]))
    rng.shuffle(pool)
    rng.shuffle(others)
    out.extend(Seated(p.id, n, s) for p, (n, s) in zip(others, pool, strict=True))
    return out


def final_table_full(t: Tournament) -> bool:
    """Whether an entry finds no seat because the final table is drawn and every seat of it
    is taken or planned: refused for the whole room, before any player's own limits."""
    if t.state.final_table is None or not t.state.drawn:
        return False
    probe = Player(id="", name="", special_needs=False)
    # Whether a seat exists does not depend on which one the draw would pick.
    return registration_seat(t, probe, planned_seats(t), random.Random(0)) is None


def registration_seat(
    t: Tournament, p: Player, planned: set[tuple[TableNo, SeatNo]], rng: random.Random
) -> Spot | None:
    """A late entry's seat from the same seat pool (TDA 2024 rule 8, FLOOR-RULES 10.10).

    Among open or halted tables with a free unreserved seat not planned for a move, those
    with the fewest players seated now; a random one, a random free seat there. A player who
    needs a reserved seat gets a free one first, drawn the same way among the tables keeping
    one free. None when every seat is taken.
    """
    taken: defaultdict[TableNo, set[SeatNo]] = defaultdict(set)
    for n, s in planned:
        taken[n].add(s)
    if p.special_needs:
        options = _free_reserved(t, taken)
        if options:
            # The same pool as everybody's: a table with the fewest players, a seat there.
            fewest = min(t.table(n).count for n, _ in options)
            n = rng.choice(sorted({n for n, _ in options if t.table(n).count == fewest}))
            return Spot(n, rng.choice([seat for m, seat in options if m == n]))
    level: int | None = None
    candidates: list[tuple[TableNo, list[SeatNo]]] = []
    for count, _, n in t.open_by_count(lowest=True):
        if level is not None and count != level:
            break
        free = _free_seats(t, t.table(n), taken[n])
        if free:
            level = count
            candidates.append((n, free))
    if not candidates:
        return None
    n, free = rng.choice(candidates)
    return Spot(n, rng.choice(free))


def seat_at_new_table(t: Tournament, table: Table, p: Player, rng: random.Random) -> SeatNo:
    """A seat at a table just opened for a late entry: reserved ones only for who needs one."""
    reserved = [s for s in range(1, table.seats + 1) if t.is_reserved(table.number, s)]
    if p.special_needs and reserved:
        return rng.choice(reserved)
    free = [s for s in range(1, table.seats + 1) if s not in reserved]
    return rng.choice(free or reserved)


def _pool_draw(
    t: Tournament,
    rng: random.Random,
    needy: list[Player],
    planned: dict[TableNo, int],
    taken: defaultdict[TableNo, set[SeatNo]],
    spared: TableNo | None = None,
) -> list[Seated]:
    """The TDA 2-step random draw for the players of a breaking table.

    Step one builds a pool of one seat per player, each at the open table with the fewest
    planned players (ties by balance order), a random free seat there; step two shuffles the
    pool and the players and pairs them. A ``spared`` table (the next to break, soon: the
    house's ``spare_next_break``) is offered a seat only once every other table is full.
    """
    tables = t.state.tables
    out: list[Seated] = []
    others: list[Player] = []
    for p in needy:
        spot = _reserved_at_fewest(t, rng, planned, taken) if t.needs_reserved(p) else None
        if spot is not None:
            n, seat = spot
            out.append(Seated(p.id, n, seat))
            taken[n].add(seat)
            planned[n] = planned.get(n, tables[n].count) + 1
        else:
            others.append(p)
    pool: list[tuple[TableNo, SeatNo]] = []
    for n_, count in _fewest_first(t, planned, len(others), spared):
        free = _free_seats(t, tables[n_], taken[n_])
        if not free:
            continue  # full: never offered again
        seat = rng.choice(free)
        pool.append((n_, seat))
        taken[n_].add(seat)
        planned[n_] = count + 1
        if len(pool) == len(others):
            break
    rng.shuffle(pool)
    order = list(others)
    rng.shuffle(order)
    out.extend(Seated(p.id, n, s) for p, (n, s) in zip(order, pool, strict=False))
    return out


def _reserved_at_fewest(
    t: Tournament,
    rng: random.Random,
    planned: dict[TableNo, int],
    taken: defaultdict[TableNo, set[SeatNo]],
) -> tuple[TableNo, SeatNo] | None:
    """A free reserved seat for a player who needs one, drawn like any break seat: at the
    table with the fewest planned players among those keeping one free (ties by balance
    order), a random one there. None when no open table keeps a free reserved seat."""
    options = _free_reserved(t, taken)
    if not options:
        return None
    tables = t.state.tables
    n = min(
        {n for n, _ in options},
        key=lambda n: (planned.get(n, tables[n].count), t.balance_rank(n)),
    )
    return n, rng.choice([seat for m, seat in options if m == n])


def _fewest_first(
    t: Tournament, planned: dict[TableNo, int], wanted: int, spared: TableNo | None = None
) -> Iterator[tuple[TableNo, int]]:
    """Open tables by the players they will have, fewest first, ties by balance order: each
    (table, count) as the pool draw asks for the next seat. A table given a seat comes round
    again with one more (``planned`` is updated by the caller); one left out is full.

    The tables a draw has touched are in a heap; the untouched rest come from the room's
    count buckets in order, so a thousand tables are never scanned or sorted for a few seats.
    The ``spared`` table sorts after every other (its count raised by ``_LAST``).
    """

    def key(n: TableNo, count: int) -> tuple[int, int, TableNo]:
        return (count + _LAST if n == spared else count, t.balance_rank(n), n)

    heap = [key(n, count) for n, count in planned.items()]
    if spared is not None and spared not in planned and t.table(spared).status == "open":
        heap.append(key(spared, t.table(spared).count))
    heapify(heap)
    touched = set(planned)
    if spared is not None:
        touched.add(spared)
    room = (x for x in t.open_by_count(lowest=True) if x[2] not in touched)
    waiting = next(room, None)
    given = 0
    while given < wanted:
        if waiting is not None and (not heap or waiting < heap[0]):
            count, _, n = waiting
            touched.add(n)
            waiting = next(room, None)
        elif heap:
            sort_count, _, n = heappop(heap)
            count = sort_count - _LAST if n == spared else sort_count
        else:
            return
        yield n, count
        if planned.get(n) == count + 1:  # seated one there: it comes round again
            heappush(heap, key(n, count + 1))
            given += 1


#: Added to the spared table's count: more than any table seats, so it comes last.
_LAST = 1_000


def draw_break_seats(
    t: Tournament, rng: random.Random, spared: TableNo | None = None
) -> list[tuple[TableNo, list[Seated], list[PlayerId]]]:
    """Seats for every player of a breaking table who lacks one that still fits.

    Draws are kept while they fit (the player still there, the table still open, the seat
    still free); misfits are drawn again, table by table in break order (FLOOR-RULES 10.4).
    ``spared``: a table seated only once the others are full (``_pool_draw``).
    Returns, per table, the new seats and the players whose old draw is withdrawn unreplaced.
    """
    s = t.state
    tables = s.tables
    planned: dict[TableNo, int] = {}
    taken: defaultdict[TableNo, set[SeatNo]] = defaultdict(set)
    keep: set[PlayerId] = set()
    for pid, a in s.draws.items():
        if _fits(t, s.players[pid], a, taken):
            keep.add(pid)
            taken[a.table].add(a.seat)
            planned[a.table] = planned.get(a.table, tables[a.table].count) + 1
    # A called balance move keeps its seat (``calls``): no break draw gives it away.
    for c in s.calls.values():
        if c.reason == "balance" and tables[c.from_table].status == "open":
            target = tables.get(c.table)
            if target is not None and target.status == "open":
                if c.seat is not None:
                    taken[c.table].add(c.seat)
                planned[c.table] = planned.get(c.table, target.count) + 1
    out = []
    for n in sorted(t.breaking, key=t.break_rank):
        needy = [
            s.players[pid] for _, pid in sorted(tables[n].occupants.items()) if pid not in keep
        ]
        if not needy:
            continue
        seats = _pool_draw(t, rng, needy, planned, taken, spared)
        seated = {x.player for x in seats}
        dropped = [p.id for p in needy if p.id not in seated and p.id in s.draws]
        if seats or dropped:
            out.append((n, seats, dropped))
    return out


def _fits(
    t: Tournament, p: Player, a: Assignment, taken: defaultdict[TableNo, set[SeatNo]]
) -> bool:
    target = t.state.tables.get(a.table)
    return (
        a.reason == "break"
        and p.table is not None
        and p.table in t.breaking
        and target is not None
        and target.status == "open"
        and a.seat <= target.seats
        and a.seat not in target.occupants
        and a.seat not in taken[a.table]
    )


def draw_final_seats(t: Tournament, rng: random.Random, everybody: bool) -> list[Seated]:
    """The final table redraw (TDA 2024 RP-9): everybody to seats 1..final_table at random.

    Once made, the draw is kept; later calls draw only for players who have no seat in it
    (a bust undone, a late entry) and for a drawn seat now held by a settled player.
    """
    s = t.state
    final_no = s.final_table
    assert final_no is not None
    final = s.tables[final_no]
    limit = s.final_seats
    sources = [final_no, *sorted(t.breaking, key=t.input_index)]
    players = [
        s.players[pid]
        for n in sorted(sources, key=t.input_index)
        for _, pid in sorted(s.tables[n].occupants.items())
    ]
    taken: defaultdict[TableNo, set[SeatNo]] = defaultdict(set)
    settled = (
        set()
        if everybody
        else {seat for seat, pid in final.occupants.items() if pid not in s.draws}
    )
    needy: list[Player] = []
    for p in players:
        a = None if everybody else s.draws.get(p.id)
        if a is not None and a.seat not in settled and a.seat not in taken[final_no]:
            taken[final_no].add(a.seat)
        elif everybody or a is not None or p.table != final_no:
            needy.append(p)
    if not needy:
        return []
    # Settled players keep their seats; everybody else is drawn among the rest.
    taken[final_no].update(settled)
    out: list[Seated] = []
    others: list[Player] = []
    for p in needy:
        options = (
            [
                seat
                for n, seat in t.reserved_seats()
                if n == final_no and seat <= limit and seat not in taken[n]
            ]
            if t.needs_reserved(p)
            else []
        )
        if options:
            seat = rng.choice(options)
            out.append(Seated(p.id, final_no, seat))
            taken[final_no].add(seat)
        else:
            others.append(p)
    free = [seat for seat in range(1, min(limit, final.seats) + 1) if seat not in taken[final_no]]
    pool = [seat for seat in free if not t.is_reserved(final_no, seat)]
    if len(pool) < len(others):
        # Everybody who needs a reserved seat has one by now: one left over is needed by
        # nobody, and is an ordinary seat rather than a player left without a final seat.
        spare = [seat for seat in free if t.is_reserved(final_no, seat)]
        pool += rng.sample(spare, min(len(spare), len(others) - len(pool)))
    rng.shuffle(pool)
    order = list(others)
    rng.shuffle(order)
    out.extend(Seated(p.id, final_no, seat) for p, seat in zip(order, pool, strict=False))
    return out
