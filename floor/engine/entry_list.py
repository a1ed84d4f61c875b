"""A list of entries registered at once (an imported spreadsheet), as one batch of events.

``register_many`` registers its entries in order, each exactly as ``register`` would: the
same checks, the same id for an entry that names none, the same seat once the draw is made.
1,300 names are one command and one write, not 1,300. A refused entry refuses the whole
list, naming its row (``entries[17].name``), so a list is never half in; ``entry_check``
asks every entry the same questions without stopping at the first, so that the import's
preview says each row that would be refused, and why, before anything is registered.

The entries are decided on a copy of the tournament, each applied to it before the next:
the caller (``decide``) applies the events to the tournament itself.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from .commands import NewEntry, Register, RegisterMany
from .errors import BadValue, RuleError, refused
from .events import Event
from .names import has_visible, hidden_mark
from .state import Player, Tournament

#: Decides one registration (``decide._register``): the rule is written once.
RegisterOne = Callable[[Tournament, Register, float, random.Random], list[Event]]


def register_many(
    t: Tournament, c: RegisterMany, now: float, rng: random.Random, register: RegisterOne
) -> list[Event]:
    """Every entry's events, in order; the first refused entry refuses the list."""
    work = t.copy()
    events: list[Event] = []
    for i, entry in enumerate(c.entries):
        try:
            made = register(work, _register(entry), now, rng)
        except RuleError as refused:
            raise _at_row(refused, i) from None
        for event in made:
            work.apply(event)
        events.extend(made)
    return events


def details(c: Register, existing: Player | None) -> tuple[str | None, str | None]:
    """The country and the note an entry is registered with: as given, made one line; a
    re-entry that gives none keeps the player's."""
    country = shown_detail(c.country, "country")
    note = shown_detail(c.note, "note")
    if existing is not None:
        country = country if country is not None else existing.country
        note = note if note is not None else existing.note
    return country, note


def language(c: Register, existing: Player | None) -> str | None:
    """The language an entry is registered with: as given; a re-entry that gives none keeps
    the player's."""
    if c.lang is not None:
        return c.lang
    return existing.lang if existing is not None else None


def shown_detail(text: str | None, field: str) -> str | None:
    """``text`` as screens show it (runs of spaces made one), None when it shows nothing;
    ``BadValue`` for a control character or an invisible mark, as in a name."""
    if text is None:
        return None
    plain = " ".join(text.split())
    if hidden_mark(plain) is not None:
        raise refused(BadValue, "name_hidden_marks", {}, field=field)
    return plain if has_visible(plain) else None


def _register(entry: NewEntry) -> Register:
    return Register(
        name=entry.name,
        player=entry.player,
        special_needs=entry.special_needs,
        country=entry.country,
        note=entry.note,
        lang=entry.lang,
    )


def _at_row(e: RuleError, i: int) -> RuleError:
    """``e`` about row ``i`` of the list: its field under ``entries[i]``, its row first."""
    field = f"entries[{i}].{e.field}" if e.field else f"entries[{i}]"
    return e.recast(type(e), field, f"row {i + 1}: {e.message}")
