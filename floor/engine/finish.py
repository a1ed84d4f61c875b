"""The end of a tournament: the winner, the clock stopped, and the director's close.

The last bust-out (one player left, counting every table) makes the winner: ``ending`` adds
``TournamentFinished`` to the events of whatever command left one player, so a bust-out, a
same-hand bust-out or a correction all end the tournament the same way. The clock stops with
it as a pause stops it (what was left of the step is kept): no level changes, no break comes.

A finished tournament takes only an undo of a bust-out (the last hand may still be disputed,
TDA 19), which makes it live again with the clock still stopped for the director to resume,
and the director's close (a bust-out reported twice is refused by the bust-out's own rule,
"the last player left"). A closed tournament takes nothing: its results stand (``bar``).
The screens read ``status`` and the winner from the derived facts.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from . import clock
from .commands import (
    Bust,
    CloseTournament,
    Command,
    PayBounty,
    RenamePlayer,
    Tick,
    UndoBust,
    UndoDeal,
)
from .dispatch import decides, folds, validates
from .errors import NotAllowed, RuleError, refused
from .events import (
    BountyPaid,
    BustUndone,
    DealUndone,
    Event,
    PlayerRenamed,
    TournamentClosed,
    TournamentFinished,
)
from .features import checks
from .model import PlayerId
from .state import Tournament, TournamentState
from .why import Why

#: Where a tournament is: under way, won (still open to an undo), or closed by the director.
Status = Literal["live", "finished", "closed"]


class Winner(msgspec.Struct, frozen=True, kw_only=True):
    """The winner as every screen shows it."""

    player: PlayerId
    name: str
    #: When the last bust-out made the winner, and when the director closed the tournament.
    at: float
    closed_at: float | None = None


def status(s: TournamentState) -> Status:
    if s.closed_at is not None:
        return "closed"
    if s.winner is not None:
        return "finished"
    return "live"


def winner(s: TournamentState) -> Winner | None:
    if s.winner is None or s.finished_at is None:
        return None
    p = s.players[s.winner]
    return Winner(player=p.id, name=p.name, at=s.finished_at, closed_at=s.closed_at)


def last_player(t: Tournament) -> PlayerId | None:
    """The one player still seated once bust-outs have left only them; None otherwise."""
    s = t.state
    if t.active != 1 or not s.busted:
        return None
    # One seated player: the first table with anybody holds them (a scan only at the end).
    for table in s.tables.values():
        for pid in table.occupants.values():
            return pid
    return None


def ending(t: Tournament, now: float) -> list[Event]:
    """The end a command has just brought, applied to ``t``: the level changes due by
    ``now`` (so the clock stops in the right step), then the finish. Nothing before it."""
    s = t.state
    if s.winner is not None or s.satellite_end is not None:
        return []
    pid = last_player(t)
    if pid is None:
        return []
    events: list[Event] = []
    for change in clock.due(s, now):
        t.apply(change)
        events.append(change)
    remaining = clock.remaining(s.clock, now) if s.clock.running else None
    finished = TournamentFinished(winner=pid, at=now, remaining=remaining)
    t.apply(finished)
    events.append(finished)
    return events


def ended(s: TournamentState) -> Why | None:
    """Why nothing that plays on may be done any more (the facts grey out the sales and the
    final table's start with it); None while the tournament is live."""
    if s.closed_at is not None:
        return Why("tournament_closed")
    if s.winner is not None:
        return Why("tournament_finished", {"player": s.winner})
    return None


def bar(t: Tournament, c: Command) -> RuleError | None:
    """Why ``c`` cannot be sent to a finished or closed tournament; None when it can."""
    why = ended(t.state)
    if why is None:
        return None
    # A deal that ended the tournament placed everybody left: no bust-out follows it.
    deal = t.state.deal
    if deal is not None and deal.ends and isinstance(c, Bust | UndoBust):
        return refusal(why)
    # A second phone's report of the last bust-out hears why from the bust-out itself; a
    # name misspelt on the results is put right before the director closes them; the
    # cashier pays the bounties owed (the winner's among them) after the last hand.
    if why.reason == "tournament_finished" and isinstance(
        c, UndoBust | CloseTournament | Tick | Bust | RenamePlayer | UndoDeal | PayBounty
    ):
        return None
    return refusal(why)


def refusal(why: Why) -> NotAllowed:
    """What ``decide`` raises for ``ended``'s ``why`` (its words are the reason's template)."""
    return refused(NotAllowed, why.reason, why.params)


def close(t: Tournament, now: float) -> list[Event]:
    """The director's close: only once there is a winner or a satellite has ended (a closed
    one is refused by ``bar``)."""
    closable(t)
    return [TournamentClosed(at=now)]


def closable(t: Tournament) -> None:
    """A tournament closes once there is a winner or a satellite has ended (the close, and
    a logged close)."""
    if t.state.winner is None and t.state.satellite_end is None:
        raise refused(NotAllowed, "tournament_not_finished", {"left": t.active}, field="type")


def check(t: Tournament, event: Event) -> None:
    """What an imported log may hold about the end (``validate``): nothing after the close,
    only an undo, a name corrected, a bounty paid (at the cashier) or the close after the
    finish, a finish only with one player left."""
    s = t.state
    why = ended(s)
    ended_by_deal = s.deal is not None and s.deal.ends
    if why is not None and (
        why.reason == "tournament_closed"
        or not isinstance(
            event, BustUndone | TournamentClosed | PlayerRenamed | DealUndone | BountyPaid
        )
        or (ended_by_deal and isinstance(event, BustUndone))
    ):
        raise refusal(why)
    if isinstance(event, TournamentFinished):
        left = last_player(t)
        if left is None:
            raise refused(NotAllowed, "tournament_not_finished", {"left": t.active}, field="winner")
        if event.winner != left:
            raise refused(NotAllowed, "last_player", {"player": left}, field="winner")
    elif isinstance(event, TournamentClosed):
        closable(t)


# Dispatch (``floor.engine.registry``) ------------------------------------------------------


def _check_finished(t: Tournament, e: TournamentFinished) -> None:
    if e.remaining is not None:
        checks.not_negative("remaining", e.remaining)


def _check_closed(t: Tournament, e: TournamentClosed) -> None:
    """Nothing beyond ``check``, which every event passes: only once there is a winner."""


def _closed(t: Tournament, e: TournamentClosed) -> None:
    t.state.closed_at = e.at


DECIDES = (decides(CloseTournament, lambda t, c, now, rng: close(t, now)),)
CHECKS = (
    validates(TournamentFinished, _check_finished),
    validates(TournamentClosed, _check_closed),
)
FOLDS = (
    folds(TournamentFinished, Tournament._tournament_finished),
    folds(TournamentClosed, _closed),
)
