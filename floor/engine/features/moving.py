"""Moves: confirmed, confirmed all at once, cancelled, corrected, called; a seat locked.

Each command's decision (``decide`` calls it) and each logged event's check (``validate``
calls it) live here together, calling the same refusals.
"""

from __future__ import annotations

import random

from .. import (
    calls,
    lookups,
    moves,
)
from ..commands import CallAll, CallMove, Cancel, Confirm, ConfirmAll, CorrectSeat, LockSeat
from ..dispatch import decides, folds, validates
from ..errors import (
    BadSeat,
    NoPlannedMove,
    NotAllowed,
    refused,
)
from ..events import (
    CallsLapsed,
    Event,
    MoveCancelled,
    Moved,
    MovesCalled,
    PlayersMoved,
    SeatLockSet,
    SeatsAssigned,
)
from ..model import PlayerId, SeatNo, Spot, TableNo
from ..plan import PlannedMove
from ..state import Player, Tournament
from . import checks


def _move_for(t: Tournament, p: Player) -> PlannedMove:
    plan = t.plan
    move = plan.move_of(p.id)
    if move is not None:
        return move
    for m in plan.moves:
        if m.player is None and m.from_.table == p.table:
            return m
    raise _no_move(p)


def _no_move(p: Player) -> NoPlannedMove:
    return refused(NoPlannedMove, "no_planned_move", {"player": p.id}, field="player")


def _target_free(t: Tournament, to: Spot, mover: Player, moving: set[PlayerId], field: str) -> None:
    table = t.table(to.table)
    lookups.seat(table, to.seat, field)
    checks.in_play(table, field)
    if (why := moves.taken_bar(t, to, moving)) is not None:
        raise moves.refusal(why, field)


def confirm(t: Tournament, c: Confirm, now: float, rng: random.Random) -> list[Event]:
    p = lookups.seated(t, c.player)
    move = _move_for(t, p)
    seat = c.seat if c.seat is not None else move.to.seat
    if seat is None:
        raise refused(
            NotAllowed, "move_no_seat", {"player": p.id, "table": move.to.table}, field="seat"
        )
    if (called := calls.confirm_bar(t, p, c.seat)) is not None:
        raise called
    if c.seat is not None and c.seat != move.to.seat:
        # A redirect: another free seat at the same table, not one drawn for somebody else.
        to = Spot(move.to.table, c.seat)
        why = moves.redirect_bar(t, to, t.needs_reserved(p), moves.planned_seats(t))
        if why is not None:
            raise moves.refusal(why)
    assert p.table is not None and p.seat is not None
    to = Spot(move.to.table, seat)
    _target_free(t, to, p, {p.id}, "seat")
    moved = Moved(player=p.id, from_=Spot(p.table, p.seat), to=to)
    return [PlayersMoved(moves=(moved,), reason=move.reason, at=now)]


def confirm_all(t: Tournament, c: ConfirmAll, now: float, rng: random.Random) -> list[Event]:
    moves = [m for m in t.plan.moves if m.reason == c.reason]
    if not moves:
        raise refused(NoPlannedMove, "no_planned_moves", {"reason": c.reason}, field="reason")
    moving: set[PlayerId] = set()
    for m in moves:
        if m.player is None or m.to.seat is None:
            missing = "player" if m.player is None else "seat"
            raise refused(
                NotAllowed,
                "move_incomplete",
                {"table": m.to.table, "missing": missing},
                field="reason",
            )
        moving.add(m.player)
    out = []
    for m in moves:
        assert m.player is not None and m.to.seat is not None and m.from_.seat is not None
        to = Spot(m.to.table, m.to.seat)
        _target_free(t, to, t.player(m.player), moving, "reason")
        out.append(Moved(player=m.player, from_=Spot(m.from_.table, m.from_.seat), to=to))
    return [PlayersMoved(moves=tuple(out), reason=c.reason, at=now)]


def cancel(t: Tournament, c: Cancel, now: float, rng: random.Random) -> list[Event]:
    p = lookups.seated(t, c.player)
    move = t.plan.move_of(p.id)
    if move is None:
        raise _no_move(p)
    assert p.table is not None
    return [MoveCancelled(player=p.id, table=p.table, reason=move.reason)]


def correct_seat(t: Tournament, c: CorrectSeat, now: float, rng: random.Random) -> list[Event]:
    p = lookups.seated(t, c.player)
    table = lookups.table(t, c.table)
    lookups.seat(table, c.seat)
    assert p.table is not None and p.seat is not None
    if (p.table, p.seat) == (c.table, c.seat):
        raise refused(
            NotAllowed,
            "already_there",
            {"player": p.id, "table": c.table, "seat": c.seat},
            field="seat",
        )
    if (why := moves.planned_bar(moves.planned_seats(t), Spot(c.table, c.seat))) is not None:
        raise moves.refusal(why)
    holder = table.occupants.get(c.seat)
    if holder is not None:
        raise refused(
            BadSeat,
            "seat_taken_floor",
            {"table": c.table, "seat": c.seat, "holder": holder},
            field="seat",
        )
    checks.in_play(table)
    moved = Moved(player=p.id, from_=Spot(p.table, p.seat), to=Spot(c.table, c.seat))
    return [PlayersMoved(moves=(moved,), reason="correction", at=now)]


def lock_seat(t: Tournament, c: LockSeat, now: float, rng: random.Random) -> list[Event]:
    p = lockable(t, c.player)
    return [SeatLockSet(player=p.id, locked=c.locked)]


def check_players_moved(t: Tournament, e: PlayersMoved) -> None:
    movers: set[PlayerId] = set()
    for i, m in enumerate(e.moves):
        where = f"moves[{i}]"
        if m.player in movers:
            raise checks.listed_twice(m.player, f"{where}.player")
        movers.add(m.player)
        checks.at(t, m.player, m.from_.table, m.from_.seat, f"{where}.from")
    taken: dict[tuple[TableNo, SeatNo], PlayerId] = {}
    for i, m in enumerate(e.moves):
        where = f"moves[{i}].to"
        table = checks.open_table(t, m.to.table, f"{where}.table")
        seat = lookups.seat(table, m.to.seat, f"{where}.seat")
        holder = table.occupants.get(seat)
        if holder is not None and holder in movers:
            holder = None  # everybody stands up before anybody sits down
        holder = holder or taken.get((table.number, seat))
        if holder is not None:
            raise checks.taken(table.number, seat, holder, f"{where}.seat")
        taken[(table.number, seat)] = m.player


def call_move(t: Tournament, c: CallMove, now: float, rng: random.Random) -> list[Event]:
    p = lookups.seated(t, c.player)
    return [calls.call(t, p, _move_for(t, p), c.seat, now)]


def lockable(t: Tournament, pid: PlayerId) -> Player:
    """A player whose seat may be locked: one not out."""
    p = lookups.player(t, pid)
    if p.busted:
        raise refused(NotAllowed, "player_is_out", {"player": p.id}, field="player")
    return p


def check_seats_assigned(t: Tournament, e: SeatsAssigned) -> None:
    for i, s in enumerate(e.seats):
        lookups.still_in(t, s.player, f"seats[{i}].player")
        table = checks.open_table(t, s.table, f"seats[{i}].table")
        lookups.seat(table, s.seat, f"seats[{i}].seat")
    for i, pid in enumerate(e.withdrawn):
        lookups.player(t, pid, f"withdrawn[{i}]")


def check_move_cancelled(t: Tournament, e: MoveCancelled) -> None:
    if e.player is not None:
        lookups.seated(t, e.player)
    lookups.table(t, e.table)


def check_moves_called(t: Tournament, e: MovesCalled) -> None:
    for i, c in enumerate(e.calls):
        checks.at(t, c.player, c.from_.table, c.from_.seat, f"calls[{i}].player")
        table = checks.open_table(t, c.to.table, f"calls[{i}].to.table")
        if c.to.seat is not None:
            lookups.seat(table, c.to.seat, f"calls[{i}].to.seat")


def check_calls_lapsed(t: Tournament, e: CallsLapsed) -> None:
    for i, pid in enumerate(e.players):
        lookups.player(t, pid, f"players[{i}]")


# Dispatch (``floor.engine.registry``) ------------------------------------------------------

DECIDES = (
    decides(Confirm, confirm),
    decides(ConfirmAll, confirm_all),
    decides(Cancel, cancel),
    decides(CallMove, call_move),
    decides(CallAll, lambda t, c, now, rng: [calls.call_all(t, c.reason, now)]),
    decides(CorrectSeat, correct_seat),
    decides(LockSeat, lock_seat),
)
CHECKS = (
    validates(PlayersMoved, check_players_moved),
    validates(SeatsAssigned, check_seats_assigned),
    validates(MoveCancelled, check_move_cancelled),
    validates(MovesCalled, check_moves_called),
    validates(CallsLapsed, check_calls_lapsed),
    validates(SeatLockSet, lambda t, e: lockable(t, e.player)),
)
FOLDS = (
    folds(PlayersMoved, Tournament._players_moved),
    folds(SeatsAssigned, Tournament._seats_assigned),
    folds(MoveCancelled, Tournament._move_cancelled),
    folds(MovesCalled, Tournament._moves_called),
    folds(CallsLapsed, Tournament._calls_lapsed),
    folds(SeatLockSet, Tournament._seat_lock_set),
)
