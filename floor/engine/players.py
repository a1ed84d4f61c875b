"""A player after registration: the name corrected, special needs marked, an entry withdrawn.

Each is an event in the log, so every screen folds it and the log says who changed what:

- a *rename* corrects the name the player was registered under (a typo at the desk, the name
  they prefer); out players too, since the results carry the name;
- *special needs* are marked or unmarked for a player still in: from then on the planner
  keeps them to the reserved seats (``Tournament.needs_reserved``);
- an *unregistration* withdraws an entry and refunds it: the player leaves the field as if
  they had never entered. Before the draw, or after it while late registration is open (the
  same window a new entry has, ``windows.registration``); never for a player who is out (a
  finish is not refunded), nor for a re-entry (the finish of the entry before it stands, and
  the entry is one the player bought back into). The buy-in and the fee are paid back, and
  so are the rebuys and add-ons the player bought; the prize pool drops by the buy-in and
  their prices, and the chips in play by the player's stack, which leaves with them.

Moving a player by hand with their stack is ``CorrectSeat`` and a seat lock ``LockSeat``
(``decide``); the player panels of the screens send those too.

Each check returns None when the rule allows the change, else a ``Why``; ``decide`` raises
``refusal(why, player)``, and the staff facts send the ``Why``: the refund window
(``refund_window``) for everybody, a player's own bar (``unregister_bar``) per player.
"""

from __future__ import annotations

from typing import Final

from . import clock, windows
from .errors import NotAllowed, refused
from .events import Event, PlayerRenamed, PlayerUnregistered, SpecialNeedsSet, TimeCallEnded
from .model import PlayerId
from .names import shown_name
from .state import Player, Tournament, TournamentState
from .why import Why

# The checks ----------------------------------------------------------------------------------


def refund_window(s: TournamentState, step: int) -> Why | None:
    """Why no entry may be withdrawn and refunded at ``step``: late registration has closed.

    Open before the draw, and after it for as long as a new player may still enter."""
    if not s.drawn:
        return None
    closed = windows.registration(s, step)
    return None if closed is None else Why("unregister_closed", {"until": closed.number("until")})


def unregister_bar(p: Player) -> Why | None:
    """Why ``p``, still in, may not be unregistered whatever the window: a re-entry.

    (An out player is told so first, ``decide`` and screens alike: the standing shows.)"""
    if p.entries > 1 and not p.busted:
        return Why("unregister_re_entry", {"player": p.id, "entries": p.entries})
    return None


def refund(s: TournamentState, p: Player) -> int | None:
    """What withdrawing ``p``'s entry pays back: the buy-in and the fee, and every rebuy and
    add-on at its price and fee; None without prize settings."""
    prize = s.structure.prize if s.structure is not None else None
    if prize is None:
        return None
    total = prize.buy_in + prize.fee
    if prize.rebuy is not None:
        total += p.rebuys * (prize.rebuy.price + prize.rebuy.fee)
    if prize.add_on is not None:
        total += p.add_ons * (prize.add_on.price + prize.add_on.fee)
    return total


# The changes ---------------------------------------------------------------------------------


def rename(p: Player, name: str) -> list[Event]:
    shown = shown_name(name)
    if shown == p.name:
        raise refusal(Why("name_unchanged", {"player": p.id}), p.id)
    return [PlayerRenamed(player=p.id, name=shown, was=p.name)]


def set_special_needs(p: Player, special_needs: bool) -> list[Event]:
    if (why := special_needs_bar(p, special_needs)) is not None:
        raise refusal(why, p.id)
    return [SpecialNeedsSet(player=p.id, special_needs=special_needs)]


def special_needs_bar(p: Player, special_needs: bool) -> Why | None:
    """Why ``p``'s special needs cannot be set to ``special_needs``: out, or already so."""
    if p.busted:
        return Why("player_is_out", {"player": p.id})
    if p.special_needs == special_needs:
        if special_needs:
            return Why("special_needs_already", {"player": p.id})
        return Why("special_needs_not_marked", {"player": p.id})
    return None


def unregister(t: Tournament, p: Player, now: float) -> list[Event]:
    s = t.state
    # The player's own standing first (out is out in any window), then the window.
    why = unregister_out(p) or refund_window(s, clock.current_step(s, now)) or unregister_bar(p)
    if why is not None:
        raise refusal(why, p.id)
    events: list[Event] = [
        # A time call on the seat ends with the player gone: nobody is left to act.
        TimeCallEnded(table=c.table, seat=c.seat, at=now, outcome="cancelled")
        for c in s.time_calls
        if c.player == p.id and (c.table, c.seat) == (p.table, p.seat)
    ]
    events.append(
        PlayerUnregistered(
            player=p.id,
            name=p.name,
            table=p.table,
            seat=p.seat,
            refund=refund(s, p),
            rebuys=p.rebuys,
            add_ons=p.add_ons,
            change=chips_change(s, p),
            at=now,
        )
    )
    return events


def unregister_out(p: Player) -> Why | None:
    """Why ``p`` may not be unregistered in any window: out (a finish is not refunded)."""
    return Why("unregister_out", {"player": p.id}) if p.busted else None


def chips_change(s: TournamentState, p: Player) -> int:
    """What withdrawing ``p`` changes the chips in play beyond the entries' stacks by: one
    starting stack fewer is counted, and the player's own stack leaves with them (the stack
    given, when it was never counted)."""
    starting = s.structure.starting_stack if s.structure is not None else None
    if starting is None:
        return 0
    return starting - (p.stack if p.stack is not None else starting)


# The refusal ---------------------------------------------------------------------------------


#: The field a player change's refusal names, where it is not the player.
_FIELD: Final[dict[str, str]] = {
    "name_unchanged": "name",
    "special_needs_already": "special_needs",
    "special_needs_not_marked": "special_needs",
}


def refusal(why: Why, player: PlayerId) -> NotAllowed:
    """What ``decide`` raises for ``why`` about ``player`` (a window's ``Why`` names nobody)."""
    field = _FIELD.get(why.reason, "player")
    return refused(NotAllowed, why.reason, {**why.params, "player": player}, field)
