"""Bust-outs: one player, several in one hand, an undo; the places they finish in.

Each command's decision (``decide`` calls it) and each logged event's check (``validate``
calls it) live here together, calling the same refusals.
"""

from __future__ import annotations

import random

from .. import (
    bounty,
    lookups,
    same_hand,
    undo,
)
from ..commands import Bust, BustSameHand, UndoBust
from ..dispatch import decides, folds, validates, validates_after
from ..errors import (
    NotAllowed,
    RuleError,
    refused,
)
from ..events import (
    BustUndone,
    Event,
    PlayerBusted,
)
from ..model import PlayerId
from ..state import Player, Tournament
from . import checks


def bust(t: Tournament, c: Bust, now: float, rng: random.Random) -> list[Event]:
    if c.player is not None:
        p = lookups.seated(t, c.player)
        # Both given (a phone resending after an outage): only if the player is still
        # there, so a late resend can never bust whoever sits in that seat now.
        if (c.table is not None or c.seat is not None) and (c.table, c.seat) != (p.table, p.seat):
            raise checks.wrong_seat(p, c.table, c.seat, "seat")
    else:
        if c.table is None or c.seat is None:
            raise refused(NotAllowed, "bust_who", {}, field="player")
        p = t.state.players[checks.occupant(lookups.table(t, c.table), c.seat)]
    assert p.table is not None and p.seat is not None
    # Two phones reporting the heads-up bust-out: the second would bust the winner.
    not_last(t, p)
    table = t.table(p.table)
    out = PlayerBusted(
        player=p.id, table=p.table, seat=p.seat, hand=table.hand, place=t.active, at=now, by=c.by
    )
    return [bounty.one(t, out, c.eliminators, rng)]


def bust_same_hand(t: Tournament, c: BustSameHand, now: float, rng: random.Random) -> list[Event]:
    """Places by the stacks the players started the hand with: more chips, a better place;
    equal stacks share the place (and the prizes of the places they cover)."""
    busted: list[tuple[int, Player]] = []
    seen: set[PlayerId] = set()
    for i, b in enumerate(c.players):
        where = f"players[{i}]"
        p = lookups.seated(t, b.player, f"{where}.player")
        if p.id in seen:
            raise checks.listed_twice(p.id, f"{where}.player")
        seen.add(p.id)
        # The stack on record only when counted: a stack nobody counted is what the player
        # was given, which would place everybody uncounted together.
        stack = b.stack if b.stack is not None else p.stack if p.counted else None
        if stack is None:
            raise refused(
                NotAllowed, "start_stack_needed", {"player": p.id}, field=f"{where}.stack"
            )
        busted.append((stack, p))
    if len(busted) >= t.active:
        raise refused(
            NotAllowed, "all_out", {"busted": len(busted), "left": t.active}, field="players"
        )
    return list(bounty.same_hand(t, same_hand.place(t, busted, now, c.by), c.players, rng))


def undo_bust(t: Tournament, c: UndoBust, now: float, rng: random.Random) -> list[Event]:
    p = lookups.player(t, c.player)
    if (bar := undo.undo_bar(t, p, now)) is not None:
        raise undo.refusal(t, p, bar)
    record = p.bust
    assert record is not None
    back = bounty.undone(t, p)
    return [
        BustUndone(
            player=p.id,
            table=record.table,
            seat=record.seat,
            reason=c.reason,
            at=now,
            bounty_from=back,
        )
    ]


def check_player_busted(t: Tournament, e: PlayerBusted, previous: Event | None) -> None:
    p = checks.at(t, e.player, e.table, e.seat)
    table = t.table(e.table)
    if e.hand != table.hand:
        raise checks.not_as_recorded("hand", e.hand, table.hand)
    left = t.active
    not_last(t, p)
    # A place is the players still in when the bust came (the winner is first). Players out
    # in one hand with equal stacks share the places ``place`` to ``place + shares - 1``, and
    # their events come one after another, the worst place first: the first of them busts
    # with ``place + shares - 1`` left, the last with ``place`` left.
    first = e.place + e.shares - 1
    continues = (
        isinstance(previous, PlayerBusted)
        and (previous.place, previous.shares) == (e.place, e.shares)
        and left >= previous.place
    )
    if (
        e.shares < 1
        or e.place < 2
        or not e.place <= left <= first
        or (left < first and not continues)
    ):
        raise _place_wrong(p.id, e.place, e.shares, left)
    if e.stack is not None:
        checks.stack(e.stack)
    # Who won the bounty and what each took, as worked out when it was recorded.
    bounty.check(t, e)


def share_closed(t: Tournament, previous: Event | None, event: Event | None) -> None:
    """A place shared by several players is reported whole before anything else happens."""
    if not isinstance(previous, PlayerBusted) or t.active < previous.place:
        return
    if isinstance(event, PlayerBusted) and (event.place, event.shares) == (
        previous.place,
        previous.shares,
    ):
        return
    busted = previous.place + previous.shares - 1 - t.active
    raise refused(
        RuleError,
        "shares_incomplete",
        {"place": previous.place, "shares": previous.shares, "busted": busted},
        field="shares",
    )


def check_bust_undone(t: Tournament, e: BustUndone) -> None:
    """The undo ``decide`` allows, but for the clock's window, which the log does not say."""
    p = lookups.player(t, e.player)
    bar = undo.undo_bar(t, p, timed=False)
    if bar == "player_not_out":
        raise undo.refusal(t, p, bar)
    record = p.bust
    assert record is not None
    if e.table != record.table:
        raise checks.not_as_recorded("table", e.table, record.table)
    if e.seat != record.seat:
        raise checks.not_as_recorded("seat", e.seat, record.seat)
    if bar is not None:
        raise undo.refusal(t, p, bar)


def _place_wrong(pid: PlayerId, place: int, shares: int, left: int) -> RuleError:
    return refused(
        RuleError,
        "place_wrong",
        {"player": pid, "place": place, "shares": shares, "left": left},
        field="place",
    )


def not_last(t: Tournament, p: Player) -> None:
    """Refuse the bust-out of the last player left: the winner."""
    if t.active <= 1:
        raise refused(NotAllowed, "last_player", {"player": p.id}, field="player")


# Dispatch (``floor.engine.registry``) ------------------------------------------------------

DECIDES = (
    decides(Bust, bust),
    decides(BustSameHand, bust_same_hand),
    decides(UndoBust, undo_bust),
)
CHECKS = (
    validates_after(PlayerBusted, check_player_busted),
    validates(BustUndone, check_bust_undone),
)
FOLDS = (
    folds(PlayerBusted, Tournament._player_busted),
    folds(BustUndone, Tournament._bust_undone),
)
