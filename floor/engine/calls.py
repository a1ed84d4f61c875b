"""Called moves: what the floor has announced to the room, and why it then stays put.

A planned move is the floor's proposal; players are shown it only once the floor calls it
(or carries it out). A player who heard a call gets up and walks, so a called move keeps
its destination: the planner keeps it in the plan as called while it fits (``planner``), a
redirect to another seat is refused until the floor calls the move again to that seat (a
change every screen shows), and a call the plan can no longer keep (the destination broke,
the final table formed, the seat was taken) lapses by an event the room is shown too.

``decide`` dispatches the commands here after finding the player and the move; the checks
return None when the rules allow it, else the error to raise.
"""

from __future__ import annotations

from .errors import BadSeat, NotAllowed, RuleError, refused
from .events import CallsLapsed, MoveCall, MovesCalled
from .model import MoveReason, SeatNo, Spot
from .moves import planned_seats, redirect_bar, refusal, taken_bar
from .plan import Place, PlannedMove
from .state import Called, Player, Tournament


def call(
    t: Tournament, p: Player, move: PlannedMove, seat: SeatNo | None, now: float
) -> MovesCalled:
    """The floor calls ``p``'s ``move`` (to ``seat`` at its table, if given)."""
    assert p.table is not None and p.seat is not None
    before = t.state.calls.get(p.id)
    to_seat = seat if seat is not None else move.to.seat
    if before is not None and to_seat == before.seat:
        raise _already(p, before)
    if to_seat is not None and to_seat != move.to.seat:
        _check_seat(t, p, Spot(move.to.table, to_seat))
    count = 1 if before is None else before.count + 1
    moved = MoveCall(
        player=p.id,
        from_=Spot(p.table, p.seat),
        to=Place(move.to.table, to_seat),
        reason=move.reason,
        count=count,
    )
    return MovesCalled(calls=(moved,), at=now)


def call_all(t: Tournament, reason: MoveReason, now: float) -> MovesCalled:
    """Every planned ``reason`` move not called yet that names its player."""
    out = []
    for m in t.plan.moves:
        if m.reason != reason or m.called or m.player is None or m.from_.seat is None:
            continue
        out.append(
            MoveCall(
                player=m.player,
                from_=Spot(m.from_.table, m.from_.seat),
                to=m.to,
                reason=m.reason,
            )
        )
    if not out:
        raise refused(NotAllowed, "no_moves_to_call", {"reason": reason}, field="reason")
    return MovesCalled(calls=tuple(out), at=now)


def confirm_bar(t: Tournament, p: Player, seat: SeatNo | None) -> NotAllowed | None:
    """Why ``p``'s move may not be carried out to ``seat``: it was called to another one."""
    called = t.state.calls.get(p.id)
    if called is None or called.seat is None or seat is None or seat == called.seat:
        return None
    return refused(
        NotAllowed,
        "move_called",
        {"player": p.id, "table": called.table, "seat": called.seat, "to": seat},
        field="seat",
    )


def lapsed(t: Tournament) -> CallsLapsed | None:
    """The calls the plan no longer keeps as called (None: it keeps them all)."""
    calls = t.state.calls
    if not calls:
        return None
    plan = t.plan
    gone = tuple(pid for pid, c in calls.items() if not _kept(plan.move_of(pid), c))
    return CallsLapsed(players=gone) if gone else None


def _kept(m: PlannedMove | None, c: Called) -> bool:
    return m is not None and m.called > 0 and (m.to.table, m.to.seat) == (c.table, c.seat)


def _check_seat(t: Tournament, p: Player, to: Spot) -> None:
    """A call to a seat other than the planned one follows the rules of a redirect."""
    table = t.table(to.table)
    if not 1 <= to.seat <= table.seats:
        raise refused(BadSeat, "seat_unknown", {"table": to.table, "seat": to.seat}, field="seat")
    why = redirect_bar(t, to, t.needs_reserved(p), planned_seats(t)) or taken_bar(t, to, {p.id})
    if why is not None:
        raise refusal(why)


def _already(p: Player, c: Called) -> RuleError:
    return refused(
        NotAllowed,
        "move_already_called" if c.seat is None else "move_already_called_seat",
        {"player": p.id, "table": c.table, "seat": c.seat},
        field="seat",
    )
