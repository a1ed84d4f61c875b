"""Each entry of a list asked as ``register_many`` would ask it, none stopping the others.

The import's preview shows, row by row, which entries the list command would refuse and why,
before anything is registered: each entry is decided by ``decide`` itself on a copy of the
tournament (the rows accepted before it applied, the rows refused left out), so the answer
is the rule's own and nothing changes.

While no final table is drawn a late entry's seat refuses nobody, so its entry is asked
without one (``decide.registration``): drawing it replans the room, 17 ms an entry at 10,000
players, and a list of 10,000 took three minutes.
"""

from __future__ import annotations

import random

import msgspec

from .commands import NewEntry, Register
from .decide import decide, registration
from .errors import RuleError
from .state import Tournament


def check(t: Tournament, entries: tuple[NewEntry, ...], now: float) -> list[RuleError | None]:
    """For each entry, the refusal its row would meet (as if the rows refused before it
    were left out), or None."""
    work = t.copy()
    # Seats drawn here are not kept: any draw shows whether a seat is left.
    rng = random.Random(0)
    out: list[RuleError | None] = []
    for entry in entries:
        command = Register(
            name=entry.name,
            player=entry.player,
            special_needs=entry.special_needs,
            country=entry.country,
            note=entry.note,
            lang=entry.lang,
        )
        try:
            if work.state.final_table is None:
                # The places of those out are not the next entry's business: moving each
                # one down is a scan of the field per entry.
                registered = registration(work, command, now)
                work.apply(msgspec.structs.replace(registered, shifts_places=False))
            else:
                decide(work, command, now, rng)
        except RuleError as e:
            out.append(e)
        else:
            out.append(None)
    return out
