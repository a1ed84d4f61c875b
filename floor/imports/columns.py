"""Which row is the header and which column holds what: guessed, and as the director says.

A header is a first row that names a column the import knows ("Jméno", "Player ID",
"Country", "Poznámka"...), in English or Czech, with or without diacritics. Without one,
each column is judged by what it holds: digits are card numbers, two or three capitals a
country code, yes/no marks the special needs, and the column of the most words the names.
A list split into first and last names ("Jméno" and "Příjmení") is joined into one name.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from typing import Final, Literal

import msgspec

from ..engine.errors import BadValue

Field = Literal["name", "first_name", "last_name", "player", "country", "special_needs", "note"]
FIELDS: Final[tuple[Field, ...]] = (
    "name",
    "first_name",
    "last_name",
    "player",
    "country",
    "special_needs",
    "note",
)

#: Header words by the field they name, folded (lower case, no diacritics).
_HEADERS: Final[dict[Field, frozenset[str]]] = {
    "name": frozenset(
        {
            "name",
            "names",
            "full name",
            "player",
            "player name",
            "players",
            "jmeno",
            "jmena",
            "cele jmeno",
            "jmeno a prijmeni",
            "hrac",
            "jmeno hrace",
            "nick",
            "nickname",
            "prezdivka",
        }
    ),
    "first_name": frozenset({"first name", "firstname", "given name", "forename", "krestni jmeno"}),
    "last_name": frozenset({"last name", "lastname", "surname", "family name", "prijmeni"}),
    "player": frozenset(
        {
            "id",
            "player id",
            "id hrace",
            "card",
            "card number",
            "card no",
            "card no.",
            "member",
            "member id",
            "membership",
            "karta",
            "cislo karty",
            "cislo",
            "clenske cislo",
            "registrace",
        }
    ),
    "country": frozenset(
        {
            "country",
            "country code",
            "nationality",
            "nation",
            "zeme",
            "stat",
            "narodnost",
            "statni prislusnost",
        }
    ),
    "special_needs": frozenset(
        {
            "special needs",
            "special",
            "needs",
            "wheelchair",
            "accessibility",
            "handicap",
            "specialni potreby",
            "zvlastni potreby",
            "vozik",
            "invalidni vozik",
            "bezbarierove",
            "bezbarierove misto",
        }
    ),
    "note": frozenset(
        {"note", "notes", "comment", "comments", "remark", "remarks", "poznamka", "poznamky"}
    ),
}
#: What a special-needs cell says: these are no, anything else written is yes.
_NO: Final = frozenset({"", "0", "no", "n", "false", "ne", "-", "–", "x0"})
_YES: Final = frozenset({"1", "yes", "y", "true", "ano", "a", "x", "✓", "✔", "*"})
_DIGITS = re.compile(r"^[0-9][0-9 ./-]*$")
_CODE = re.compile(r"^[A-Z]{2,3}$")


class Column(msgspec.Struct, frozen=True, kw_only=True):
    index: int
    #: The header cell, or "" without a header.
    title: str
    field: Field | None
    #: The first few values under it, to show beside the choice.
    sample: list[str]


def fold(text: str) -> str:
    """Lower case, no diacritics, runs of spaces one: how header words are compared."""
    plain = unicodedata.normalize("NFKD", text.casefold())
    plain = "".join(c for c in plain if not unicodedata.combining(c))
    return " ".join(plain.replace("_", " ").split()).strip(" :*#")


def header_fields(row: Sequence[str]) -> list[Field | None]:
    """The field each cell of a header row names (None: none)."""
    found: list[Field | None] = []
    words = [fold(c) for c in row]
    split = any(w in _HEADERS["last_name"] for w in words)
    for w in words:
        field: Field | None = None
        if split and w in ("jmeno", "name"):
            field = "first_name"  # "Jméno" beside "Příjmení" is the first name
        else:
            field = next((f for f, names in _HEADERS.items() if w in names), None)
        found.append(field if field not in found else None)
    return found


def is_header(row: Sequence[str]) -> bool:
    return any(f is not None for f in header_fields(row))


def guess(rows: Sequence[Sequence[str]], width: int) -> list[Field | None]:
    """The field each column holds, judged by its values (a list without a header)."""
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
                "mark": sum(fold(c) in _YES | _NO for c in cells) / n,
                "words": sum(any(ch.isalpha() for ch in c) for c in cells) / n,
                "spaces": sum(" " in c for c in cells) / n,
            }
        )
    taken: set[int] = set()

    def pick(field: Field, ok: str, least: float) -> None:
        best = max(
            (i for i in range(width) if i not in taken and scores[i][ok] >= least),
            key=lambda i: (scores[i][ok], scores[i]["filled"]),
            default=None,
        )
        if best is not None:
            out[best] = field
            taken.add(best)

    pick("player", "digits", 0.9)
    pick("country", "code", 0.9)
    pick("special_needs", "mark", 0.9)
    names = [i for i in range(width) if i not in taken and scores[i]["words"] >= 0.5]
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
            raise BadValue(
                f"map: {part!r} is not field=column",
                field="map",
                reason="import_column_unknown",
                params={"column": part, "columns": width},
            )
        index = int(value)
        if index >= width:
            raise BadValue(
                f"map: there is no column {index} (the list has {width})",
                field="map",
                reason="import_column_unknown",
                params={"column": str(index), "columns": width},
            )
        out[field] = index
    return out


def special_needs(cell: str) -> bool:
    return fold(cell) not in _NO
