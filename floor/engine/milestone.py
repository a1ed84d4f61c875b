"""A milestone satellite: a seat to whoever reaches a chip count (issue 27.2).

A satellite with a ``milestone`` (``satellite_prize.Satellite``) gives a seat to a seated
player whose latest count (``counts``: the stack as counted at the table, never what they
were given) is at least the milestone, when the floor awards it (``AwardSeat``). The winner
leaves their seat with those chips out of play: the players left, the planner (the table is
balanced or broken as after a bust-out), the average stack and the chips in play no longer
count them, and the room's chip check counts their chips beside those bagged against what
must exist (``bagging.room_check``). They are not busted: the record is a bust-out's
(``BustRecord.seat_won``), so that an undo is a bust-out's undo and the places after it move
as they would, but places and prizes show a seat won (``standing``, ``views.results``).

Each seat's ticket enters the house's ledger with the award, as a satellite's seats do
(``award_claim``: the house holds it while the tournament decides); the award's undo takes it
back (``undo_claim``), which the house refuses once the ticket is used. The satellite ends
when the players left are no more than the seats left (its seats less those won at the
milestone, ``satellite.ending``); the milestone's winners stand first among the seat
winners, and ``IssueSeats`` issues the others' tickets.
"""

from __future__ import annotations

import bisect

import msgspec

from . import lookups
from .commands import AwardSeat, UndoBust
from .dispatch import decides, folds, validates
from .errors import NotAllowed, refused
from .events import Event, SeatAwarded
from .house.tickets_events import IssueTicketsClaim, TicketIssue, WithdrawTicketClaim
from .model import PlayerId
from .state import Player, Tournament, TournamentState


class MilestoneFacts(msgspec.Struct, frozen=True, kw_only=True):
    """A milestone satellite as the staff screens show it: the chips that win a seat, the
    seated players whose latest count reached them (each a one-tap award), and the seats won
    so far (in the order won)."""

    milestone: int
    reached: list[PlayerId]
    awarded: list[PlayerId]
    #: The place among everybody of each player out after a seat was won, where it is not
    #: their bust-out's own place (which counted only the players still in): the lists say
    #: the place the results say.
    places: dict[PlayerId, int] = {}


def mark(s: TournamentState) -> int | None:
    """The chips that win a seat; None: not a milestone satellite."""
    prize = s.structure.prize if s.structure is not None else None
    sat = prize.satellite if prize is not None else None
    return sat.milestone if sat is not None else None


def reached(s: TournamentState, p: Player, milestone: int) -> bool:
    """``p`` sits with a counted stack of at least ``milestone``: one the floor counted, so
    that a seat is never given for the chips a player was merely handed."""
    return (
        not p.busted
        and p.table is not None
        and p.counted
        and p.stack is not None
        and p.stack >= milestone
    )


def award(t: Tournament, c: AwardSeat, now: float) -> list[Event]:
    s = t.state
    milestone = mark(s)
    if milestone is None:
        raise refused(NotAllowed, "milestone_none", {}, field="type")
    p = lookups.seated(t, c.player)
    if not p.counted or p.stack is None:
        raise refused(NotAllowed, "milestone_uncounted", {"player": p.id}, field="player")
    if p.stack < milestone:
        raise refused(
            NotAllowed,
            "milestone_not_reached",
            {"player": p.id, "stack": p.stack, "milestone": milestone},
            field="player",
        )
    assert p.table is not None and p.seat is not None
    return [
        SeatAwarded(
            player=p.id,
            table=p.table,
            seat=p.seat,
            hand=t.table(p.table).hand,
            place=t.active,
            stack=p.stack,
            at=now,
            by=c.by,
            seat_ticket=ticket_id(s),
        )
    ]


def ticket_id(s: TournamentState) -> str:
    """The next milestone seat's ticket: numbered by every seat awarded so far, undone or not
    (a withdrawn ticket stays in the ledger under its id)."""
    return f"{s.id}-milestone-{s.seat_awards + 1}"


def award_claim(s: TournamentState, c: AwardSeat) -> IssueTicketsClaim | None:
    """What an award claims in the house: its seat's ticket, issued as a satellite's seat
    winners' are (``satellite.seat_tickets``), bound to the winner unless the satellite's
    tickets are transferable. None where the award is refused anyway (no milestone, nobody)."""
    prize = s.structure.prize if s.structure is not None else None
    sat = prize.satellite if prize is not None else None
    p = s.players.get(c.player)
    if sat is None or sat.milestone is None or p is None:
        return None
    issue = TicketIssue(
        id=ticket_id(s),
        target=sat.target,
        value=sat.seat,
        holder=p.id,
        name=p.name,
        transferable=sat.transferable,
        source="satellite",
        origin=s.id,
    )
    return IssueTicketsClaim(tickets=(issue,))


def undo_claim(s: TournamentState, c: UndoBust) -> WithdrawTicketClaim | None:
    """An undo of a milestone's seat takes its ticket back (refused by the house once the
    ticket is used); an undo of a bust-out claims nothing."""
    p = s.players.get(c.player)
    if p is None or not won(p) or p.bust is None or p.bust.seat_ticket is None:
        return None
    return WithdrawTicketClaim(ticket=p.bust.seat_ticket)


def check(t: Tournament, e: SeatAwarded) -> None:
    """What an imported log may hold: a seat awarded as ``award`` would, at the place the
    players left give."""
    s = t.state
    milestone = mark(s)
    if milestone is None:
        raise refused(NotAllowed, "milestone_none", {}, field="type")
    p = lookups.seated(t, e.player)
    if (p.table, p.seat) != (e.table, e.seat):
        raise refused(
            NotAllowed,
            "milestone_not_reached",
            {"player": p.id, "stack": e.stack, "milestone": milestone},
            field="seat",
        )
    if e.seat_ticket not in (None, ticket_id(s)):
        raise refused(
            NotAllowed,
            "milestone_not_reached",
            {"player": p.id, "stack": e.stack, "milestone": milestone},
            field="seat_ticket",
        )
    if e.stack < milestone or e.place != t.active or e.hand != t.table(e.table).hand:
        raise refused(
            NotAllowed,
            "milestone_not_reached",
            {"player": p.id, "stack": e.stack, "milestone": milestone},
            field="stack",
        )


def facts(t: Tournament) -> MilestoneFacts | None:
    """The staff's facts of a milestone satellite; None for any other tournament."""
    s = t.state
    milestone = mark(s)
    if milestone is None:
        return None
    return MilestoneFacts(
        milestone=milestone,
        reached=sorted(
            p.id for p in s.players.values() if s.satellite_end is None and reached(s, p, milestone)
        ),
        awarded=winners(s),
        places=_moved_places(s),
    )


def _moved_places(s: TournamentState) -> dict[PlayerId, int]:
    standing = Standing(s)
    places: dict[PlayerId, int] = {}
    for p in s.players.values():
        if p.busted and p.bust is not None and not p.bust.seat_won:
            place = standing.place(p.bust.place)
            if place != p.bust.place:
                places[p.id] = place
    return places


def winners(s: TournamentState) -> list[PlayerId]:
    """The milestone's seat winners still out with their seat, in the order they won it."""
    if not s.seats_won:
        return []
    won = sorted(
        (p.bust.at, -p.bust.place, p.id)
        for p in s.players.values()
        if p.busted and p.bust is not None and p.bust.seat_won
    )
    return [pid for _, _, pid in won]


def won(p: Player) -> bool:
    return p.busted and p.bust is not None and p.bust.seat_won


class Standing:
    """The places of a satellite's busted players among everybody: a seat won at the milestone
    stands above every place, so each bust-out after it moves one place down (the bust-out's
    own ``place`` counted only the players still in)."""

    __slots__ = ("_places",)

    def __init__(self, s: TournamentState) -> None:
        # The places the seats were won at (the players in then), lowest first.
        self._places = (
            sorted(p.bust.place for p in s.players.values() if won(p) and p.bust is not None)
            if s.seats_won
            else []
        )

    def place(self, place: int) -> int:
        """The place among everybody of a bust-out at ``place`` among the players in."""
        if not self._places:
            return place
        return place + len(self._places) - bisect.bisect_right(self._places, place)


# Dispatch (``floor.engine.registry``) ------------------------------------------------------

DECIDES = (decides(AwardSeat, lambda t, c, now, rng: award(t, c, now)),)
CHECKS = (validates(SeatAwarded, check),)
FOLDS = (folds(SeatAwarded, Tournament._seat_awarded),)
