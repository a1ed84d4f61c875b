"""A satellite: its prizes are seats in a target event (``satellite_prize``), and it ends when
the players left are no more than its seats.

The bubble is played as any bubble (hand-for-hand suggested one player from the seats); players
out in the same hand are placed by the stack rule (``same_hand``), so a double bust-out from
one player over the seats gives the seat to the bigger stack. The players left then share the
places above (each a seat); the clock stops, nothing plays on, and a deal is refused. The
director then enters the seats in the house's ledger (``IssueSeats``: a hold in the house,
``floor.engine.house.tickets``), one ticket per seat winner, bound to them or transferable
as the satellite says.
"""

from __future__ import annotations

from . import clock
from .commands import (
    CloseTournament,
    Command,
    IssueSeats,
    MakeDeal,
    ProposeDeal,
    RenamePlayer,
    Tick,
)
from .dispatch import decides, folds, validates
from .errors import NotAllowed, RuleError, refused
from .events import Event, SatelliteEnded, SeatsIssued, SeatTicket
from .house.tickets_events import TicketIssue
from .milestone import winners as milestone_winners
from .milestone import won as milestone_won
from .model import PlayerId
from .prize import payouts
from .satellite_prize import Satellite, seat_count
from .state import Tournament, TournamentState


def of(s: TournamentState) -> Satellite | None:
    prize = s.structure.prize if s.structure is not None else None
    return prize.satellite if prize is not None else None


def seats(s: TournamentState) -> int:
    """The seats the pool holds so far (0: not a satellite)."""
    sat = of(s)
    prize = s.structure.prize if s.structure is not None else None
    if sat is None or prize is None:
        return 0
    return seat_count(sat, payouts(prize, s.entries, s.rebuys, s.add_ons).pool)


def bar(t: Tournament, c: Command) -> RuleError | None:
    """A deal at a satellite (its prizes are seats); anything that plays on once it ended."""
    s = t.state
    if of(s) is not None and isinstance(c, ProposeDeal | MakeDeal):
        return refused(NotAllowed, "deal_at_satellite", {}, field="type")
    if s.satellite_end is not None and not isinstance(
        c, IssueSeats | CloseTournament | RenamePlayer | Tick
    ):
        return refused(NotAllowed, "satellite_ended", {}, field="type")
    return None


def ending(t: Tournament, now: float) -> list[Event]:
    """The end a command has just brought: the players left are no more than the seats."""
    s = t.state
    n = seats(s)
    if n == 0 or s.satellite_end is not None or s.winner is not None or not s.drawn:
        return []
    # The seats won at a milestone are no longer played for (``milestone``).
    n -= s.seats_won
    # Every seat won at the milestone: nothing is left to play for.
    if (n > 0 and t.active > n) or (t.active == 0 and not s.seats_won):
        return []
    events: list[Event] = []
    for change in clock.due(s, now):
        t.apply(change)
        events.append(change)
    remaining = clock.remaining(s.clock, now) if s.clock.running else None
    end = SatelliteEnded(seats=winners(t, n), at=now, remaining=remaining)
    t.apply(end)
    events.append(end)
    return events


def winners(t: Tournament, n: int) -> tuple[PlayerId, ...]:
    """The seats won at a milestone (in the order won), the players left (by table and seat),
    then any busted into one of the ``n`` seats left, best place first: a place shared across
    the last seat gives no seat (its players share its prize)."""
    s = t.state
    # Every seat won at the milestone: those still seated have none to take.
    tables = sorted(s.tables) if n > 0 else []
    left = [pid for number in tables for _, pid in sorted(s.tables[number].occupants.items())]
    placed = sorted(
        (p.bust.place, p.id)
        for p in s.players.values()
        if p.busted
        and p.bust is not None
        and not p.bust.seat_won
        and p.bust.place + p.bust.shares - 1 <= n
    )
    return tuple(milestone_winners(s)) + tuple(left) + tuple(pid for _, pid in placed)


def issue(t: Tournament, c: IssueSeats, now: float) -> list[Event]:
    s = t.state
    _issuable(s, "type")
    tickets = tuple(SeatTicket(ticket=i.id, player=i.holder or "") for i in seat_tickets(s))
    return [SeatsIssued(tickets=tickets, at=now)]


def _issuable(s: TournamentState, field: str) -> None:
    """The seats are issued once, after the satellite ended (a command, or a logged event)."""
    if s.satellite_end is None:
        raise refused(NotAllowed, "satellite_not_ended", {}, field=field)
    if s.seats_issued is not None:
        raise refused(NotAllowed, "seats_issued", {}, field=field)


def seat_tickets(s: TournamentState) -> tuple[TicketIssue, ...]:
    """The tickets of the seat winners, as the ledger takes them (none before the end, nor
    once issued; a milestone's winners' came with their seats)."""
    sat = of(s)
    end = s.satellite_end
    if sat is None or end is None or s.seats_issued is not None:
        return ()
    # The milestone's winners have theirs already, issued with their seats (``milestone``).
    seated = [pid for pid in end.seats if not (pid in s.players and milestone_won(s.players[pid]))]
    return tuple(
        TicketIssue(
            id=f"{s.id}-seat-{i}",
            target=sat.target,
            value=sat.seat,
            holder=pid,
            name=s.players[pid].name if pid in s.players else "",
            transferable=sat.transferable,
            source="satellite",
            origin=s.id,
        )
        for i, pid in enumerate(seated, start=1)
    )


def check(t: Tournament, event: SatelliteEnded | SeatsIssued) -> None:
    """What an imported log may hold: an end only of a satellite down to its seats, with its
    seat winners; the seats issued once, after it."""
    s = t.state
    if isinstance(event, SeatsIssued):
        _issuable(s, "tickets")
        return
    n = seats(s) - s.seats_won
    if s.satellite_end is not None:
        raise refused(NotAllowed, "satellite_ended", {}, field="seats")
    if n + s.seats_won <= 0 or (n > 0 and t.active > n):
        raise refused(
            NotAllowed, "satellite_players_left", {"left": t.active, "seats": n}, field="seats"
        )
    if event.seats != winners(t, n):
        raise refused(
            NotAllowed,
            "not_as_recorded",
            {"name": "seats", "value": list(event.seats), "expected": list(winners(t, n))},
            field="seats",
        )


# Dispatch (``floor.engine.registry``) ------------------------------------------------------


def _issued(t: Tournament, e: SeatsIssued) -> None:
    t.state.seats_issued = e


DECIDES = (decides(IssueSeats, lambda t, c, now, rng: issue(t, c, now)),)
CHECKS = (
    validates(SatelliteEnded, check),
    validates(SeatsIssued, check),
)
FOLDS = (
    folds(SatelliteEnded, Tournament._satellite_ended),
    folds(SeatsIssued, _issued),
)
