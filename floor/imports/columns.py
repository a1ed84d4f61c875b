"""Which column holds what: named by the header, guessed from the values, or as the director
says.

A header cell names its field in any of eight languages (``words``): "Jméno", "Karta",
"Nationalité", "Poznámka"... A name may be split into two columns ("Vorname" and "Name",
"Jméno" and "Příjmení"), joined first name first, or held in one column surname first
("Příjmení a jméno", "Surname, first name", "Nachname Vorname": the field ``surname_name``),
whose surname ``split_name`` keeps apart.

Without a header, or under a header cell that names nothing, a column is judged by its
values: digits are card numbers, two or three capitals a country code, the column of the
most words the names. Nothing that changes seating is ever guessed from values: a column
of yes/no marks may say who paid as well as who needs a wheelchair, so a special-needs
column is one its header says so in words, or the director chooses.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final, Literal

import msgspec

from ..engine.errors import BadValue, refused
from . import words
from .words import fold, tokens, words_of

Field = Literal[
    "name",
    "surname_name",
    "first_name",
    "last_name",
    "player",
    "country",
    "special_needs",
    "note",
    "language",
]
FIELDS: Final[tuple[Field, ...]] = (
    "name",
    "surname_name",
    "first_name",
    "last_name",
    "player",
    "country",
    "special_needs",
    "note",
    "language",
)
NAME_FIELDS: Final[frozenset[Field]] = frozenset(
    {"name", "surname_name", "first_name", "last_name"}
)
#: The fields no value decides: only a header's words or the director.
SEATING: Final[frozenset[Field]] = frozenset({"special_needs"})

_DIGITS = re.compile(r"^[0-9][0-9 ./-]*$")
_CODE = re.compile(r"^[A-Z]{2,3}$")
#: A header cell read: a field, "generic" (a name, first or last by its neighbours), "other"
#: (a header word naming no field: "Klub"), or None (no word known).
_Read = Field | Literal["generic", "other"] | None


class Column(msgspec.Struct, frozen=True, kw_only=True):
    index: int
    #: The header cell, or "" without a header.
    title: str
    field: Field | None
    #: The first few values under it, to show beside the choice.
    sample: list[str]


def _read(cell: str) -> _Read:
    found = tokens(cell)
    if not found:
        return None
    has = set(found)
    if has & words.SPECIAL_NEEDS:
        return "special_needs"
    if has & words.CARD:
        return "player"
    if has & words.COUNTRY:
        return "country"
    if has & words.NOTE:
        return "note"
    if has & words.LANGUAGE:
        return "language"

    def at(group: frozenset[str]) -> int | None:
        return next((i for i, w in enumerate(found) if w in group), None)

    surname, given, generic = at(words.SURNAME), at(words.GIVEN), at(words.GENERIC)
    other = given if given is not None else generic
    if surname is not None and other is not None:
        return "surname_name" if surname < other else "name"
    if given is not None and generic is not None:
        # "Name, Vorname", "Nom et prénom": beside a first name, a name is the surname.
        return "surname_name" if generic < given else "name"
    if surname is not None:
        return "last_name"
    if given is not None:
        return "first_name"
    if generic is not None:
        return "generic"
    if has & words.PLAYER:
        return "name"
    if has & words.OTHER:
        return "other"
    return None


def _header(row: Sequence[str]) -> list[_Read]:
    read = [_read(c) for c in row]
    out: list[_Read] = []
    for r in read:
        if r == "generic":
            # Beside a surname column a name is the first name ("Jméno", "Příjmení"; "Nome",
            # "Cognome"); beside a first name the surname ("Vorname", "Name"; "Prénom",
            # "Nom"); alone, the whole name.
            r = (
                "first_name"
                if "last_name" in read
                else "last_name"
                if "first_name" in read
                else "name"
            )
        out.append(r if r in ("other", None) or r not in out else None)
    return out


def header_fields(row: Sequence[str]) -> list[Field | None]:
    """The field each cell of a header row names (None: none)."""
    return [r if r not in ("generic", "other") else None for r in _header(row)]  # type: ignore[misc]


def unnamed(row: Sequence[str]) -> list[bool]:
    """Each header cell that says nothing known ("" or words not in ``words``): its column
    may be judged by its values. A cell that names no field ("Klub") is not unnamed."""
    return [r is None for r in _header(row)]


def guess(
    rows: Sequence[Sequence[str]], width: int, *, only: Sequence[bool] | None = None,
    taken: Sequence[Field] = (),
) -> list[Field | None]:  # fmt: skip
    """The field each column holds, judged by its values (a list without a header, or the
    columns ``only`` marks), the fields ``taken`` left out. Never a field in ``SEATING``."""
    sample = rows[:200]
    out: list[Field | None] = [None] * width
    scores: list[dict[str, float]] = []
    for i in range(width):
        cells = [r[i].strip() for r in sample if i < len(r) and r[i].strip()]
        n = max(1, len(cells))
        scores.append(
            {
                "filled": len(cells) / max(1, len(sample)),
                "digits": sum(bool(_DIGITS.match(c)) for c in cells) / n,
                "code": sum(bool(_CODE.match(c)) for c in cells) / n,
                "words": sum(any(ch.isalpha() for ch in c) for c in cells) / n,
                "spaces": sum(" " in c for c in cells) / n,
            }
        )
    free = {i for i in range(width) if only is None or (i < len(only) and only[i])}

    def pick(field: Field, ok: str, least: float) -> None:
        if field in taken:
            return
        best = max(
            (i for i in free if scores[i][ok] >= least),
            key=lambda i: (scores[i][ok], scores[i]["filled"]),
            default=None,
        )
        if best is not None:
            out[best] = field
            free.discard(best)

    pick("player", "digits", 0.9)
    pick("country", "code", 0.9)
    if not NAME_FIELDS & set(taken):
        names = [i for i in free if scores[i]["words"] >= 0.5]
        if names:
            best = max(names, key=lambda i: (scores[i]["spaces"], scores[i]["filled"], -i))
            out[best] = "name"
    return out


def parse_mapping(text: str, width: int) -> dict[Field, int]:
    """``name=0,player=2`` (columns from 0) as a mapping; ``BadValue`` naming what is wrong."""
    out: dict[Field, int] = {}
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        key, _, value = part.partition("=")
        field = next((f for f in FIELDS if f == key.strip()), None)
        if field is None or not value.strip().isdigit():
            raise refused(BadValue, "import_map_part", {"part": part}, field="map")
        index = int(value)
        if index >= width:
            raise refused(
                BadValue,
                "import_column_unknown",
                {"column": str(index), "columns": width},
                field="map",
            )
        out[field] = index
    return out


def special_needs(cell: str) -> bool:
    """A cell of a special-needs column: a need unless it says no (or none) in so many words."""
    said = fold(cell)
    return bool(said) and said not in words.NO and said not in words.NONE


#: Lower-case words that begin a surname: "van der Berg Jan", "de la Cruz Juan".
_SURNAME_START: Final = words_of(
    "van von der den de del della di da das do dos du la le ten ter zu af"
)


def split_name(cell: str) -> tuple[str, str]:
    """A name written surname first, as (first names, surname): "Novák, Jan" and "Novák Jan"
    are ("Jan", "Novák"), "van der Berg Jan" ("Jan", "van der Berg"). After a comma the
    first names; without one the surname is the first word (and the particles before it)."""
    text = " ".join(cell.split())
    if "," in text:
        surname, _, given = text.partition(",")
        return " ".join(given.split()), surname.strip()
    parts = text.split(" ")
    n = 0
    while n < len(parts) - 2 and parts[n].casefold() in _SURNAME_START:
        n += 1
    return " ".join(parts[n + 1 :]), " ".join(parts[: n + 1])
