"""Chips: a stack set, rebuys and add-ons, the chip race, and the checks of their logged events.

Each command's decision (``decide`` calls it) and each logged event's check (``validate``
calls it) live here together, calling the same refusals.
"""

from __future__ import annotations

import random
from typing import Literal

from .. import (
    clock,
    colour_up,
    counts,
    lookups,
    windows,
)
from ..calc.chiprace import ChipRaceInput, RaceSeat, chip_race
from ..commands import AddOn, ChipRace, CountTable, Rebuy, SetStack
from ..dispatch import decides, folds, validates
from ..errors import (
    NotAllowed,
    RuleError,
    refused,
)
from ..events import (
    AddOnMade,
    ChipsRaced,
    Event,
    RacedPlayer,
    RebuyMade,
    StacksCounted,
    StackSet,
)
from ..model import MAX_CHIPS, PlayerId, SeatNo
from ..state import Player, Tournament
from . import checks


def _buyer(t: Tournament, pid: PlayerId, what: Literal["rebuy", "add_on"]) -> Player:
    p = lookups.player(t, pid)
    if windows.standing(p) == "out":
        if what == "rebuy":
            raise refused(NotAllowed, "rebuy_busted", {"player": pid}, field="player")
        raise refused(NotAllowed, "add_on_busted", {"player": pid}, field="player")
    return lookups.seated(t, pid)


def rebuy(t: Tournament, c: Rebuy, now: float, rng: random.Random) -> list[Event]:
    p = _buyer(t, c.player, "rebuy")
    s = t.state
    why = windows.rebuy_window(s, clock.current_step(s, now)) or windows.rebuy_limit(s, p)
    if why is not None:
        raise windows.refusal(why, p.id)
    rules = windows.rebuy_rules(s)
    assert rules is not None  # the window is shut without rebuys
    return [_sale(RebuyMade, p, rules.chips, rules.price, p.rebuys + 1, now)]


def add_on(t: Tournament, c: AddOn, now: float, rng: random.Random) -> list[Event]:
    p = _buyer(t, c.player, "add_on")
    s = t.state
    why = windows.add_on_window(s, clock.current_step(s, now)) or windows.add_on_limit(s, p)
    if why is not None:
        raise windows.refusal(why, p.id)
    rules = windows.add_on_rules(s)
    assert rules is not None  # the window is shut without an add-on
    return [_sale(AddOnMade, p, rules.chips, rules.price, p.add_ons + 1, now)]


def _sale(
    kind: type[RebuyMade | AddOnMade], p: Player, chips: int, price: int, count: int, now: float
) -> Event:
    stack = None if p.stack is None else p.stack + chips
    return kind(player=p.id, chips=chips, price=price, count=count, stack=stack, at=now)


def race_chips(t: Tournament, c: ChipRace, now: float, rng: random.Random) -> list[Event]:
    """Colour-up at one table: the leaving chips exchanged, the odd ones raced (PFP 20)."""
    structure = t.state.structure
    if structure is None:
        raise refused(NotAllowed, "no_chip_set", {}, field="table")
    # A breaking table still races: its players take their new chips to their new seats.
    table = lookups.unbroken_table(t, c.table)
    race_terms = colour_up.terms(structure, clock.current_step(t.state, now), c.leaving)
    if not isinstance(race_terms, colour_up.Terms):
        raise colour_up.refusal(race_terms)
    leaving = race_terms.leaving
    if any(r.table == table.number and r.result.leaving == leaving for r in t.state.chip_races):
        raise refused(
            NotAllowed, "already_raced", {"table": table.number, "chip": leaving}, field="table"
        )
    players: list[RacedPlayer] = []
    race: list[RaceSeat] = []
    for i, count in enumerate(c.seats):
        where = f"seats[{i}]"
        pid = table.occupants.get(lookups.seat(table, count.seat, f"{where}.seat"))
        if pid is None:
            raise checks.empty(table.number, count.seat, f"{where}.seat")
        raced = t.player(pid)
        stack = count.stack if count.stack is not None else raced.stack
        if stack is None:
            raise refused(
                NotAllowed,
                "race_stack_unknown",
                {"player": pid, "seat": count.seat},
                field=f"{where}.stack",
            )
        # A stack nobody counted races as the stack the player was given: not a count after.
        counted = count.stack is not None or raced.counted
        players.append(RacedPlayer(seat=count.seat, player=pid, stack=stack, counted=counted))
        race.append(RaceSeat(seat=count.seat, chips=count.chips, stack=stack))
    race_input = ChipRaceInput(
        leaving=leaving,
        next_up=race_terms.next_up,
        seats=race,
        smallest_in_play=race_terms.smallest_in_play,
    )
    try:
        result = chip_race(race_input, rng)
    except RuleError as e:
        # The race names its own input; the floor sent ``leaving`` and ``seats``.
        field = "leaving" if e.field in ("next_up", "smallest_in_play") else e.field
        raise e.recast(NotAllowed, field) from None
    change = sum(r.stack for r in result.seats) - sum(p.stack for p in players)
    return [
        ChipsRaced(
            table=table.number,
            players=tuple(sorted(players, key=lambda p: p.seat)),
            result=result,
            change=change,
            at=now,
        )
    ]


def set_stack(t: Tournament, c: SetStack, now: float, rng: random.Random) -> list[Event]:
    p = lookups.seated(t, c.player)
    return [StackSet(player=p.id, stack=c.stack, at=now)]


def check_bought(t: Tournament, e: RebuyMade | AddOnMade) -> None:
    p = lookups.seated(t, e.player)
    checks.in_range("chips", e.chips, 0, MAX_CHIPS)
    checks.in_range("price", e.price, 0, MAX_CHIPS)
    made = p.rebuys if isinstance(e, RebuyMade) else p.add_ons
    if e.count != made + 1:
        raise checks.not_as_recorded("count", e.count, made + 1)
    stack = None if p.stack is None else p.stack + e.chips
    if e.stack != stack:
        raise checks.not_as_recorded("stack", e.stack, stack)
    if stack is not None:
        checks.stack(stack)


def check_stacks_counted(t: Tournament, e: StacksCounted) -> None:
    table = lookups.table(t, e.table)
    seen: set[PlayerId] = set()
    for i, c in enumerate(e.stacks):
        where = f"stacks[{i}]"
        counts.counted(t, table, c.player, seen, f"{where}.player")
        checks.stack(c.stack, f"{where}.stack")
    checks.not_negative("at", e.at)


def check_chips_raced(t: Tournament, e: ChipsRaced) -> None:
    table = lookups.unbroken_table(t, e.table)
    seats: set[SeatNo] = set()
    before = 0
    for i, r in enumerate(e.players):
        where = f"players[{i}]"
        checks.at(t, r.player, table.number, r.seat, f"{where}.player")
        checks.stack(r.stack, f"{where}.stack")
        seats.add(r.seat)
        before += r.stack
    after = 0
    for i, s in enumerate(e.result.seats):
        where = f"result.seats[{i}]"
        if s.seat not in seats:
            raise checks.empty(table.number, s.seat, f"{where}.seat")
        checks.stack(s.stack, f"{where}.stack")
        after += s.stack
    if e.change != after - before:
        raise checks.not_as_recorded("change", e.change, after - before, "change")


def check_stack_set(t: Tournament, e: StackSet) -> None:
    lookups.seated(t, e.player)
    checks.stack(e.stack)


# Dispatch (``floor.engine.registry``) ------------------------------------------------------

DECIDES = (
    decides(SetStack, set_stack),
    decides(CountTable, lambda t, c, now, rng: counts.count_table(t, c, now)),
    decides(Rebuy, rebuy),
    decides(AddOn, add_on),
    decides(ChipRace, race_chips),
)
CHECKS = (
    validates(StackSet, check_stack_set),
    validates(StacksCounted, check_stacks_counted),
    validates(RebuyMade, check_bought),
    validates(AddOnMade, check_bought),
    validates(ChipsRaced, check_chips_raced),
)
FOLDS = (
    folds(StackSet, Tournament._stack_set),
    folds(StacksCounted, Tournament._stacks_counted),
    folds(RebuyMade, Tournament._rebuy_made),
    folds(AddOnMade, Tournament._add_on_made),
    folds(ChipsRaced, Tournament._chips_raced),
)
