"""A list's rows as entries, each flagged, before anything is registered.

For every row: the entry ``register_many`` would take, and what is wrong with the row.
Errors leave the row out (``include`` false): no name, a field too long for its place, a
card number given twice, a refusal the rules would give (``entry_check``: registration
closed, the player already in, a name no screen shows). Warnings leave it in, said: a cell a
spreadsheet would run as a formula (kept as text; the exports neutralise it). A name met
before, in the list or among the players registered, is left out until the director ticks
it: two players may share a name, but an import run twice, or a player written twice,
registers nobody twice.

The first row is a header when ``header`` says so or its shape does; when the shape leaves
it open the preview asks (``asked``), and the console registers nothing before the director
answers. A list written surname first is registered first name first, as a list of first
and last names is, and each row says its ``surname``: the player's state holds one name,
so the preview is where the surname is said.
"""

from __future__ import annotations

from typing import Final, Literal

import msgspec

from ..engine.commands import NewEntry
from ..engine.entry_check import check
from ..engine.errors import BadValue, FloorError, refused
from ..engine.state import Tournament
from ..exports.cells import FORMULA_START
from .columns import (
    FIELDS,
    NAME_FIELDS,
    Column,
    Field,
    guess,
    header_fields,
    parse_mapping,
    special_needs,
    split_name,
    unnamed,
)
from .header import judge
from .languages import language_code
from .sheet import Sheet
from .words import fold

#: The longest each field may be (``engine.commands``: Name, PlayerRef, Country, Note).
_LONGEST: Final[dict[str, int]] = {
    "name": 80,
    "player": 64,
    "country": 56,
    "note": 200,
    "language": 40,
}

FlagCode = Literal[
    "blank",
    "too_long",
    "duplicate_id",
    "duplicate_name",
    "registered_name",
    "formula",
    "refused",
    "language_unknown",
]


class Flag(msgspec.Struct, frozen=True, kw_only=True):
    code: FlagCode
    #: True: the row is left out.
    error: bool
    params: dict[str, str | int] = {}
    #: For ``refused``: the rules' reason and parameters (rendered as any refusal is).
    reason: str | None = None
    reason_params: dict[str, object] | None = None


class Row(msgspec.Struct, frozen=True, kw_only=True):
    #: The line (or sheet row) in the file, 1 for the first.
    line: int
    name: str
    #: The words of ``name`` that are the surname, when the list said (a surname column, or
    #: names written surname first); None when it did not.
    surname: str | None = None
    player: str | None
    country: str | None
    special_needs: bool
    note: str | None
    flags: list[Flag]
    #: Registered when the director sends the list (the director may tick or untick it).
    include: bool
    #: What ``register_many`` is sent for it; None when it cannot be registered.
    entry: NewEntry | None
    #: The language the player reads and hears, from a language column (issue 29.3).
    lang: str | None = None


class Problem(msgspec.Struct, frozen=True, kw_only=True):
    reason: str
    params: dict[str, object]
    message: str


class ImportPreview(msgspec.Struct, frozen=True, kw_only=True):
    kind: str
    encoding: str | None
    guessed: bool
    header: bool
    #: The first row's shape leaves open whether it is a header: the director says (the
    #: rows are shown as without one meanwhile). False once ``header`` is said.
    asked: bool = False
    #: The first row's cells, for the question.
    first: list[str] = []
    columns: list[Column]
    rows: list[Row]
    #: Rows in all, rows to register, rows with an error, rows with a warning.
    total: int
    included: int
    errors: int
    warnings: int
    #: Rows to register with a special-needs seat: the console asks the director to confirm.
    special_needs: int = 0
    #: Why no row can be read as an entry (no column holds names); None when rows can.
    problem: Problem | None = None


def build(
    sheet: Sheet,
    t: Tournament,
    now: float,
    *,
    header: bool | None = None,
    mapping: str | None = None,
) -> ImportPreview:
    """The preview of ``sheet`` for ``t`` at ``now``; ``header`` None: judged by its shape
    (``header.judge``), ``mapping`` None: named by the header, else guessed (``columns``)."""
    rows, lines = sheet.rows, sheet.lines
    if not rows:
        raise refused(BadValue, "import_no_rows", {}, field="file")
    width = max(len(r) for r in rows)
    verdict = judge(rows) if header is None else "yes" if header else "no"
    has_header = verdict == "yes"
    body, body_lines = (rows[1:], lines[1:]) if has_header else (rows, lines)
    if mapping:
        chosen: list[Field | None] = [None] * width
        for field, index in parse_mapping(mapping, width).items():
            chosen[index] = field
    elif has_header:
        pad = width - len(rows[0])
        found = [*header_fields(rows[0]), *[None] * pad]
        free = [*unnamed(rows[0]), *[True] * pad]
        guessed = guess(body, width, only=free, taken=[f for f in found if f is not None])
        chosen = [f if f is not None else g for f, g in zip(found, guessed, strict=True)]
    else:
        chosen = guess(body, width)
    titles = rows[0] if has_header else []
    columns = [
        Column(
            index=i,
            title=titles[i] if i < len(titles) else "",
            field=chosen[i],
            sample=[r[i] for r in body[:3] if i < len(r)],
        )
        for i in range(width)
    ]
    out: list[Row] = []
    problem = None
    if not body:
        problem = _problem(refused(BadValue, "import_no_rows", {}))
    elif not any(f in NAME_FIELDS for f in chosen):
        problem = _problem(refused(BadValue, "import_no_name_column", {}))
    else:
        where = {f: chosen.index(f) for f in FIELDS if f in chosen}
        out = [_row(cells, line, where) for cells, line in zip(body, body_lines, strict=True)]
        out = _with_rules(_with_duplicates(out, t), t, now)
    return ImportPreview(
        kind=sheet.kind,
        encoding=sheet.encoding,
        guessed=sheet.guessed,
        header=has_header,
        asked=verdict == "ask",
        first=list(rows[0]),
        columns=columns,
        rows=out,
        total=len(out) if out else len(body),
        included=sum(r.include for r in out),
        errors=sum(any(f.error for f in r.flags) for r in out),
        warnings=sum(bool(r.flags) and not any(f.error for f in r.flags) for r in out),
        special_needs=sum(r.include and r.special_needs for r in out),
        problem=problem,
    )


def _problem(e: FloorError) -> Problem:
    return Problem(reason=e.reason, params=dict(e.params), message=e.message)


def _cell(cells: list[str], where: dict[Field, int], field: Field) -> str:
    i = where.get(field)
    return " ".join(cells[i].split()) if i is not None and i < len(cells) else ""


def _name(cells: list[str], where: dict[Field, int]) -> tuple[str, str | None]:
    """The name, first name first, and its surname when the list says which it is."""
    name = _cell(cells, where, "name")
    if name:
        return name, None
    whole = _cell(cells, where, "surname_name")
    if whole:
        given, surname = split_name(whole)
        return " ".join(x for x in (given, surname) if x), surname or None
    first, last = _cell(cells, where, "first_name"), _cell(cells, where, "last_name")
    return " ".join(x for x in (first, last) if x), last or None


def _row(cells: list[str], line: int, where: dict[Field, int]) -> Row:
    name, surname = _name(cells, where)
    values = {
        "name": name,
        "player": _cell(cells, where, "player"),
        "country": _cell(cells, where, "country"),
        "note": _cell(cells, where, "note"),
        "language": _cell(cells, where, "language"),
    }
    flags: list[Flag] = []
    if not name:
        flags.append(Flag(code="blank", error=True))
    for key, longest in _LONGEST.items():
        if len(values[key]) > longest:
            flags.append(Flag(code="too_long", error=True, params={"field": key, "most": longest}))
    i = where.get("special_needs")
    raw = [cells[i] for i in where.values() if i < len(cells)]
    if any(c.lstrip(" ").startswith(FORMULA_START) for c in raw if c.strip()):
        flags.append(Flag(code="formula", error=False))
    needs = special_needs(cells[i]) if i is not None and i < len(cells) else False
    lang = language_code(values["language"])
    if values["language"] and lang is None:
        # Registered all the same, in the venue's language: a language is never guessed.
        flags.append(
            Flag(code="language_unknown", error=False, params={"value": values["language"]})
        )
    ok = not any(f.error for f in flags)
    entry = (
        NewEntry(
            name=name,
            player=values["player"] or None,
            special_needs=needs,
            country=values["country"] or None,
            note=values["note"] or None,
            lang=lang,
        )
        if ok
        else None
    )
    return Row(
        line=line,
        name=name,
        surname=surname,
        player=values["player"] or None,
        country=values["country"] or None,
        special_needs=needs,
        note=values["note"] or None,
        flags=flags,
        include=ok,
        entry=entry,
        lang=lang,
    )


def _with_duplicates(rows: list[Row], t: Tournament) -> list[Row]:
    ids: dict[str, int] = {}
    names: dict[str, int] = {}
    registered = {fold(p.name) for p in t.state.players.values() if not p.busted}
    out = []
    for r in rows:
        flags = list(r.flags)
        include = r.include
        entry = r.entry
        if r.player is not None:
            if r.player in ids:
                flags.append(Flag(code="duplicate_id", error=True, params={"line": ids[r.player]}))
                include, entry = False, None
            else:
                ids[r.player] = r.line
        key = fold(r.name)
        if key:
            if key in names:
                flags.append(Flag(code="duplicate_name", error=False, params={"line": names[key]}))
                include = False
            else:
                names[key] = r.line
            if key in registered and (r.player is None or r.player not in t.state.players):
                flags.append(Flag(code="registered_name", error=False))
                include = False
        out.append(msgspec.structs.replace(r, flags=flags, include=include, entry=entry))
    return out


def _with_rules(rows: list[Row], t: Tournament, now: float) -> list[Row]:
    """Each row the rules would refuse, and why (the rows before it that pass, registered)."""
    asked = [r for r in rows if r.entry is not None]
    answers = dict(
        zip(
            (id(r) for r in asked),
            check(t, tuple(r.entry for r in asked if r.entry is not None), now),
            strict=True,
        )
    )
    out = []
    for r in rows:
        refused = answers.get(id(r))
        if refused is None:
            out.append(r)
            continue
        flag = Flag(
            code="refused",
            error=True,
            reason=refused.reason,
            reason_params=dict(refused.params),
            params={"message": refused.message},
        )
        out.append(msgspec.structs.replace(r, flags=[*r.flags, flag], include=False, entry=None))
    return out
