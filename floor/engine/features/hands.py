"""Hands and buttons: a hand dealt at a table, the button reported.

Each command's decision (``decide`` calls it) and each logged event's check (``validate``
calls it) live here together, calling the same refusals.
"""

from __future__ import annotations

import random

from .. import (
    lookups,
    rulings,
)
from ..commands import Button, Hand
from ..dispatch import decides, folds, validates
from ..errors import (
    NotAllowed,
    refused,
)
from ..events import (
    ButtonReported,
    Event,
    HandStarted,
)
from ..model import FLOP_GAMES
from ..positions import next_hand, reported_button
from ..state import Tournament
from . import checks


def _dealing_flop(t: Tournament) -> bool:
    game = t.state.current_game
    return game in FLOP_GAMES


def hand(t: Tournament, c: Hand, now: float, rng: random.Random) -> list[Event]:
    table = lookups.table(t, c.table)
    checks.in_play(table)
    if table.number in t.plan.halted_tables:
        raise refused(NotAllowed, "table_halted", {"table": table.number}, field="table")
    if table.count < 2:
        raise checks.short(table)
    level = t.state.clock.level if t.state.clock.started else None
    if not _dealing_flop(t):
        return [
            HandStarted(
                table=table.number, hand=table.hand + 1, positions=None, level=level, at=now
            )
        ]
    if table.positions is None:
        raise refused(NotAllowed, "positions_unknown", {"table": table.number}, field="table")
    positions = next_hand(table.positions, table.seats, table.occupants, table.count)
    return [
        HandStarted(
            table=table.number, hand=table.hand + 1, positions=positions, level=level, at=now
        )
    ]


def button(t: Tournament, c: Button, now: float, rng: random.Random) -> list[Event]:
    no_button(t)
    table = checks.playing(lookups.table(t, c.table))
    checks.occupant(table, c.seat)
    positions = reported_button(c.seat, table.seats, table.occupants, table.count)
    return [ButtonReported(table=table.number, seat=c.seat, positions=positions)]


def no_button(t: Tournament) -> None:
    if t.rules.stud_only:
        raise refused(NotAllowed, "stud_no_button", {}, field="table")


def check_hand_started(t: Tournament, e: HandStarted) -> None:
    table = checks.playing(lookups.table(t, e.table))
    if e.hand != table.hand + 1:
        raise checks.not_as_recorded("hand", e.hand, table.hand + 1)
    checks.positions(table, e.positions)


def check_button_reported(t: Tournament, e: ButtonReported) -> None:
    no_button(t)
    table = checks.playing(lookups.table(t, e.table))
    checks.occupant(table, e.seat)
    checks.positions(table, e.positions)


# Dispatch (``floor.engine.registry``) ------------------------------------------------------

DECIDES = (
    # A hand reported also ends the sit-outs it completed (``rulings``).
    decides(
        Hand, lambda t, c, now, rng: hand(t, c, now, rng) + rulings.hands_over(t, c.table, now)
    ),
    decides(Button, button),
)
CHECKS = (
    validates(HandStarted, check_hand_started),
    validates(ButtonReported, check_button_reported),
)
FOLDS = (
    folds(HandStarted, Tournament._hand_started),
    folds(ButtonReported, Tournament._button_reported),
)
