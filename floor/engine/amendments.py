"""Money and structure changed once a tournament exists: the director's own changes.

A tournament is created with its structure and its prize settings (``Structure.prize``);
the console changes them later with ``set_prize`` and ``set_structure``, each an event in the
log (``PrizeChanged``, ``StructureChanged``), so every screen and every replay agrees on what
was in force when. What has been sold or played stays as it was:

- the currency, buy-in and fee once an entry paid them (the pool counts entries at one
  price); a rebuy's or an add-on's price, fee and chips once one was sold;
- every step played and the one in play (the clock stands in it), the chip set once the
  clock has started, and the starting stack once an entry was given it.

Everything else (the guarantee, the payout table, the rounding, the limits and windows, the
levels still to come) may change until the tournament finishes. A change is checked as the
TOML files are, by the Structs' own checks, and against what it meets: a prize against the
structure's levels and chips, a structure against the rule set's game and the prize.
"""

from __future__ import annotations

from typing import Final, cast

import msgspec

from .commands import SetPrize, SetStructure
from .dispatch import decides, folds, validates
from .errors import ConfigValueError, NotAllowed, Reason, refused
from .events import Event, PrizeChanged, StructureChanged
from .prize import Prize
from .rules import Level, Rules, Structure
from .state import Tournament, TournamentState
from .why import Param, Why


def games_bar(rules: Rules, structure: Structure) -> Why | None:
    """Why the structure's levels do not fit the rule set's game, or None when they do."""
    for i, step in enumerate(structure.levels):
        if not isinstance(step, Level):
            continue
        if rules.game == "mixed" and step.game is None:
            return Why("level_no_game", {"step": i + 1})
        if rules.game != "mixed" and step.game not in (None, rules.game):
            return Why("level_other_game", {"step": i + 1, "game": step.game, "dealt": rules.game})
    return None


def games_mismatch(rules: Rules, structure: Structure) -> str | None:
    """``games_bar`` in words, naming the file's key (``floor.config``)."""
    why = games_bar(rules, structure)
    if why is None:
        return None
    i = why.number("step") - 1
    if why.reason == "level_no_game":
        return (
            f"{structure.name} levels[{i}] names no game, "
            f"but rule set {rules.name!r} is for a mixed game"
        )
    return (
        f"{structure.name} levels[{i}] deals {why.text('game')}, "
        f"but rule set {rules.name!r} is for {rules.game}"
    )


def prize_bar(s: TournamentState, prize: Prize | None) -> Why | None:
    """Why ``prize`` cannot replace the tournament's money now; None when it can."""
    if s.structure is None:
        return Why("no_structure")
    now = s.structure.prize
    if prize == now:
        return Why("prize_unchanged")
    if s.entries and _price(now) != _price(prize):
        return Why("prize_entries_sold", {"entries": s.entries})
    if s.rebuys and _bought(now, "rebuy") != _bought(prize, "rebuy"):
        return Why("prize_rebuys_sold", {"rebuys": s.rebuys})
    if s.add_ons and _bought(now, "add_on") != _bought(prize, "add_on"):
        return Why("prize_add_ons_sold", {"add_ons": s.add_ons})
    return _fits(s.structure, prize)


def structure_bar(s: TournamentState, rules: Rules, structure: Structure) -> Why | None:
    """Why ``structure`` cannot replace the tournament's structure now; None when it can."""
    old = s.structure
    prize = old.prize if old is not None else None
    if structure.prize is not None and structure.prize != prize:
        return Why("structure_has_prize")
    if old is not None and msgspec.structs.replace(old, prize=None) == structure:
        return Why("structure_unchanged")
    if (mismatch := games_bar(rules, structure)) is not None:
        return mismatch
    clock = s.clock
    if clock.level >= len(structure.levels):
        return Why("structure_step_played", {"step": clock.level + 1})
    if old is not None and clock.started:
        for i in range(clock.level + 1):
            if i >= len(old.levels) or old.levels[i] != structure.levels[i]:
                return Why("structure_step_played", {"step": i + 1})
        if old.chips != structure.chips:
            return Why("structure_chips_started")
    given = old.starting_stack if old is not None else None
    if s.entries and given is not None and structure.starting_stack != given:
        return Why("structure_stack_entered", {"stack": given, "entries": s.entries})
    return _fits(structure, prize)


def set_prize(s: TournamentState, c: SetPrize, now: float) -> list[Event]:
    if (why := prize_bar(s, c.prize)) is not None:
        raise refusal(why, "prize")
    return [PrizeChanged(prize=c.prize, at=now)]


def set_structure(s: TournamentState, rules: Rules, c: SetStructure, now: float) -> list[Event]:
    if (why := structure_bar(s, rules, c.structure)) is not None:
        raise refusal(why, "structure")
    prize = s.structure.prize if s.structure is not None else None
    structure = msgspec.structs.replace(c.structure, prize=prize)
    # Before the start the clock shows its step whole, as at the creation.
    remaining = None if s.clock.started else structure.levels[s.clock.level].minutes * 60.0
    return [StructureChanged(structure=structure, remaining=remaining, at=now)]


def check(s: TournamentState, rules: Rules, event: PrizeChanged | StructureChanged) -> None:
    """What an imported log must hold: the change as ``set_prize`` or ``set_structure``
    would have written it."""
    if isinstance(event, PrizeChanged):
        if (why := prize_bar(s, event.prize)) is not None:
            raise refusal(why, "prize")
        return
    prize = s.structure.prize if s.structure is not None else None
    if event.structure.prize != prize:
        raise refusal(Why("structure_has_prize"), "structure.prize")
    bare = msgspec.structs.replace(event.structure, prize=None)
    if (why := structure_bar(s, rules, bare)) is not None:
        raise refusal(why, "structure")
    whole = None if s.clock.started else bare.levels[s.clock.level].minutes * 60.0
    if event.remaining != whole:
        raise refused(
            NotAllowed,
            "not_as_recorded",
            {"name": "remaining", "value": event.remaining, "expected": whole},
            field="remaining",
        )


#: The part of the structure a refusal names, where it is not the whole (``field``).
_PART: Final[dict[str, str]] = {
    "structure_has_prize": "prize",
    "structure_step_played": "levels",
    "structure_chips_started": "chips",
    "structure_stack_entered": "starting_stack",
    "level_no_game": "levels",
    "level_other_game": "levels",
}


def refusal(why: Why, field: str) -> NotAllowed:
    """What ``decide`` raises for ``why`` (the English is each reason's template)."""
    part = _PART.get(why.reason)
    return refused(NotAllowed, why.reason, why.params, f"{field}.{part}" if part else field)


def _price(prize: Prize | None) -> tuple[str, int, int, object] | None:
    # The bounty part is part of the price: the bounties on the players' heads came from it.
    return None if prize is None else (prize.currency, prize.buy_in, prize.fee, prize.bounty)


def _bought(prize: Prize | None, kind: str) -> tuple[int, int, int] | None:
    bought = getattr(prize, kind, None) if prize is not None else None
    return None if bought is None else (bought.price, bought.fee, bought.chips)


def _fits(structure: Structure, prize: Prize | None) -> Why | None:
    """None when ``structure`` can pay ``prize`` (its levels and chips), else the reason
    its own check gives (``Structure._check_prize``)."""
    try:
        msgspec.structs.replace(structure, prize=prize)
    except ConfigValueError as e:
        return Why(cast(Reason, e.reason), cast(dict[str, Param], dict(e.params)))
    return None


# Dispatch (``floor.engine.registry``) ------------------------------------------------------

DECIDES = (
    decides(SetPrize, lambda t, c, now, rng: set_prize(t.state, c, now)),
    decides(SetStructure, lambda t, c, now, rng: set_structure(t.state, t.rules, c, now)),
)
CHECKS = (
    validates(PrizeChanged, lambda t, e: check(t.state, t.rules, e)),
    validates(StructureChanged, lambda t, e: check(t.state, t.rules, e)),
)
FOLDS = (
    folds(PrizeChanged, Tournament._prize_changed),
    folds(StructureChanged, Tournament._structure_changed),
)
