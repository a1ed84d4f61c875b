"""The exclusion check's rules: who matches a register of excluded people, and when the desk
must refuse.

A register (the Czech RVO, Germany's OASIS, a venue's own list) is asked through a port
(``floor.store.exclusion_port``); the adapter for a list the venue imports reads a CSV of
surname, given names, birth date and document number. The list is kept as digests of the
keys a person is matched by (``keys``), never as the names themselves, and the check's log
holds who asked, when and the answer, never a copy of the register.

The check fails closed (``verdict``): a register that cannot answer, or a list older than the
venue allows, refuses the buy-in like a match does; only a director's override, with a
reason, lets it through, and is logged as such.
"""

from __future__ import annotations

import csv
import datetime
import hashlib
import io
from collections.abc import Iterable
from typing import Final, Literal

import msgspec

from ..errors import BadValue, refused
from ..rulebook import fold

#: The answer of a register: the person is on it, or not.
Answer = Literal["clear", "excluded"]
#: What the desk does with it: ``clear`` and ``overridden`` let the buy-in through.
Result = Literal["clear", "excluded", "unavailable", "stale", "overridden"]
#: The columns of an imported list, in this order (a header row naming them is skipped).
COLUMNS: Final = ("surname", "given_names", "birth_date", "document_number")
#: Rows in one imported list at most (the Czech RVO holds some 200,000 people).
MOST_ROWS: Final = 500_000


class Person(msgspec.Struct, frozen=True, kw_only=True):
    """Who is checked: as the desk typed them."""

    surname: str
    given_names: str
    birth_date: datetime.date
    doc_number: str


class BadRow(msgspec.Struct, frozen=True, kw_only=True):
    line: int
    problem: str


def _plain(text: str) -> str:
    return " ".join(fold(text).replace("-", " ").split())


def _doc(number: str) -> str:
    return "".join(ch for ch in number.upper() if ch.isalnum())


def _digest(kind: str, value: str) -> str:
    return hashlib.sha256(f"{kind}\x1f{value}".encode()).hexdigest()[:32]


def keys(person: Person) -> tuple[str, ...]:
    """The digests a person is matched by: the name with the birth date, and the document
    number (either one on the register is a match; no diacritics, no case)."""
    name = f"{_plain(person.surname)}\x1f{_plain(person.given_names)}"
    out = [_digest("name", f"{name}\x1f{person.birth_date.isoformat()}")]
    doc = _doc(person.doc_number)
    if len(doc) >= 4:
        out.append(_digest("doc", doc))
    return tuple(out)


def read_list(text: str) -> tuple[set[str], int, list[BadRow]]:
    """An imported list's match keys, its rows, and the rows it could not read (line,
    problem). A list over ``MOST_ROWS`` is refused whole."""
    found: set[str] = set()
    bad: list[BadRow] = []
    rows = 0
    reader = csv.reader(io.StringIO(text.lstrip("\ufeff")))
    for line, cells in enumerate(reader, start=1):
        if not cells or not any(c.strip() for c in cells):
            continue
        if line == 1 and _plain(cells[0]) in ("surname", "prijmeni", "nachname", "name"):
            continue
        if len(cells) < 3:
            bad.append(BadRow(line=line, problem="needs surname, given names and birth date"))
            continue
        surname, given, born = (c.strip() for c in cells[:3])
        doc = cells[3].strip() if len(cells) > 3 else ""
        try:
            birth = datetime.date.fromisoformat(born)
        except ValueError:
            bad.append(BadRow(line=line, problem=f"birth date {born[:20]!r} is not YYYY-MM-DD"))
            continue
        if not surname:
            bad.append(BadRow(line=line, problem="no surname"))
            continue
        rows += 1
        if rows > MOST_ROWS:
            raise refused(BadValue, "desk_list_too_long", {"most": MOST_ROWS}, field="list")
        person = Person(surname=surname, given_names=given, birth_date=birth, doc_number=doc)
        found.update(keys(person))
    return found, rows, bad


def matches(person: Person, listed: Iterable[bool]) -> Answer:
    """The register's answer from whether each of ``keys(person)`` is on it."""
    return "excluded" if any(listed) else "clear"


def verdict(
    answer: Answer | None,
    imported_at: float | None,
    now: float,
    max_age_hours: float,
) -> Result:
    """What the desk does: ``answer`` None when the register could not answer. A list
    imported longer ago than ``max_age_hours`` (or never) is stale: the desk refuses."""
    if answer is None:
        return "unavailable"
    if imported_at is not None and now - imported_at > max_age_hours * 3600:
        return "stale"
    return answer


def lets_through(result: Result) -> bool:
    return result in ("clear", "overridden")
