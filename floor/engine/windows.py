"""When a player may enter, enter again or buy chips: the sale windows and each one's limits.

Late registration, re-entry, rebuys and the add-on, by the prize settings (``prize.py``).
Each check returns None when the rule allows the sale, else a ``Why``; ``decide`` raises
``refusal(why, player)`` and the derived facts show the ``Why``. Two kinds:

- a *window* is the same for every player of a standing at a step of the clock: ``decide``
  asks it at the step played now (a level change due but not yet written counts), the facts
  at the clock's step as written (the next batch brings the change within a tick);
- a *limit* is one player's: the most re-entries, rebuys or add-ons, the stack a rebuy
  allows, the chips a stack may hold.

``decide`` refuses a sale by its window first, then by the player's limits.
"""

from __future__ import annotations

from typing import Literal

from .errors import NotAllowed, refused
from .model import MAX_CHIPS, PlayerId
from .prize import AddOn, Prize, Rebuy
from .state import Player, TournamentState
from .why import Why

#: What a floorperson sells at a player's seat (re-entry: at the registration desk too).
SaleKind = Literal["re_entry", "rebuy", "add_on"]
#: Where a player stands for a sale: out (may re-enter) or seated (may rebuy, take the add-on).
Standing = Literal["out", "seated"]


def standing(p: Player) -> Standing | None:
    """What ``p`` may buy: out, an entry again (never a rebuy); seated, rebuys and the add-on;
    None (registered, no seat yet), nothing."""
    if p.busted:
        return "out"
    return "seated" if p.table is not None else None


def _prize(s: TournamentState) -> Prize | None:
    return s.structure.prize if s.structure is not None else None


def _level(s: TournamentState, step: int) -> tuple[int, bool]:
    """The level played at ``step`` and whether it is the break after it."""
    structure = s.structure
    assert structure is not None
    return structure.level_played(step)


def _late(s: TournamentState, step: int) -> tuple[int, int] | None:
    """``(until, level)`` once late registration has closed at ``step``, else None."""
    structure = s.structure
    if structure is None or structure.late_registration_until is None or not s.clock.started:
        return None
    until = structure.late_registration_until
    level, _ = structure.level_played(step)
    return (until, level) if level > until else None


# Windows -------------------------------------------------------------------------------------


def registration(s: TournamentState, step: int) -> Why | None:
    """Why a new player may not enter at ``step``: late registration has closed."""
    late = _late(s, step)
    return None if late is None else Why("late_registration_closed", {"until": late[0]})


def re_entry_window(s: TournamentState, step: int) -> Why | None:
    """Why a busted player may not enter again at ``step``: late registration has closed,
    the tournament allows no re-entry, or its re-entry window has closed."""
    late = _late(s, step)
    if late is not None:
        return Why("re_entry_late_closed", {"until": late[0], "level": late[1]})
    prize = _prize(s)
    if prize is None:
        return None
    rules = prize.re_entry
    if rules is None:
        return Why("re_entry_none")
    if rules.until_level is not None and s.clock.started:
        level, _ = _level(s, step)
        if level > rules.until_level:
            return Why("re_entry_closed", {"until": rules.until_level, "level": level})
    return None


def rebuy_rules(s: TournamentState) -> Rebuy | None:
    prize = _prize(s)
    return prize.rebuy if prize is not None else None


def add_on_rules(s: TournamentState) -> AddOn | None:
    prize = _prize(s)
    return prize.add_on if prize is not None else None


def rebuy_window(s: TournamentState, step: int) -> Why | None:
    """Why nobody may rebuy at ``step``: no rebuys, or their last level is over."""
    rules = rebuy_rules(s)
    if rules is None:
        return Why("no_rebuys")
    level, _ = _level(s, step)
    if level > rules.until_level:
        return Why("rebuys_closed", {"until": rules.until_level, "level": level})
    return None


def add_on_window(s: TournamentState, step: int) -> Why | None:
    """Why nobody may take the add-on at ``step``: none offered, or not offered now."""
    rules = add_on_rules(s)
    if rules is None:
        return Why("no_add_on")
    level, at_break = _level(s, step)
    if level != rules.level or (rules.at_break and not at_break):
        return Why(
            "add_on_at_break_only" if rules.at_break else "add_on_during_level",
            {"offered": rules.level, "level": level, "at_break": at_break},
        )
    return None


# Limits --------------------------------------------------------------------------------------


def re_entry_limit(s: TournamentState, p: Player) -> Why | None:
    """Why busted ``p`` may not enter again whatever the window: a disqualification, the
    re-entries made."""
    ruling = s.rulings.disqualified.get(p.id)
    if ruling is not None:
        return Why("player_disqualified", {"player": p.id, "ruling": ruling})
    prize = _prize(s)
    rules = prize.re_entry if prize is not None else None
    made = p.entries - 1
    if rules is not None and rules.max_per_player is not None and made >= rules.max_per_player:
        return Why("re_entry_limit", {"player": p.id, "made": made})
    return None


def rebuy_limit(s: TournamentState, p: Player) -> Why | None:
    """Why seated ``p`` may not rebuy whatever the window: the rebuys made, the stack."""
    rules = rebuy_rules(s)
    if rules is None:
        return None
    if rules.max_per_player is not None and p.rebuys >= rules.max_per_player:
        return Why("rebuy_limit", {"player": p.id, "made": p.rebuys})
    most = rules.max_stack
    if most is not None:
        if p.stack is None:
            return Why("rebuy_stack_unknown", {"player": p.id, "most": most})
        if p.stack > most:
            return Why("rebuy_stack_too_big", {"player": p.id, "stack": p.stack, "most": most})
    return _stack_limit(p, rules.chips)


def add_on_limit(s: TournamentState, p: Player) -> Why | None:
    """Why seated ``p`` may not take the add-on whatever the window: those taken, the stack."""
    rules = add_on_rules(s)
    if rules is None:
        return None
    if p.add_ons >= rules.max_per_player:
        return Why("add_on_limit", {"player": p.id, "taken": p.add_ons})
    return _stack_limit(p, rules.chips)


def _stack_limit(p: Player, chips: int) -> Why | None:
    if p.stack is not None and p.stack + chips > MAX_CHIPS:
        return Why("stack_limit", {"player": p.id, "stack": p.stack + chips, "most": MAX_CHIPS})
    return None


# The refusal ---------------------------------------------------------------------------------


def refusal(why: Why, player: PlayerId | None) -> NotAllowed:
    """What ``decide`` raises for ``why``: about ``player``, whom a window leaves out."""
    return refused(NotAllowed, why.reason, {**why.params, "player": str(player)}, "player")
