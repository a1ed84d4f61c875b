"""A list's rows as entries, each flagged, before anything is registered.

For every row: the entry ``register_many`` would take, and what is wrong with the row.
Errors leave the row out (``include`` false): no name, a field too long for its place, a
card number given twice, a refusal the rules would give (``entry_check``: registration
closed, the player already in, a name no screen shows). Warnings leave it in, said: the same
name twice in the list or already registered (two players may share a name; the director
looks), a cell a spreadsheet would run as a formula (kept as text; the exports neutralise
it). A row whose name is already registered is left out until the director ticks it: an
import run twice registers nobody twice.
"""

from __future__ import annotations

from typing import Final, Literal

import msgspec

from ..engine.commands import NewEntry
from ..engine.entry_check import check
from ..engine.errors import BadValue, FloorError
from ..engine.state import Tournament
from ..exports.cells import FORMULA_START
from .columns import FIELDS, Column, Field, fold, guess, header_fields, parse_mapping, special_needs
from .sheet import Sheet

#: The longest each field may be (``engine.commands``: Name, PlayerRef, Country, Note).
_LONGEST: Final[dict[str, int]] = {"name": 80, "player": 64, "country": 56, "note": 200}

FlagCode = Literal[
    "blank",
    "too_long",
    "duplicate_id",
    "duplicate_name",
    "registered_name",
    "formula",
    "refused",
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
    player: str | None
    country: str | None
    special_needs: bool
    note: str | None
    flags: list[Flag]
    #: Registered when the director sends the list (the director may tick or untick it).
    include: bool
    #: What ``register_many`` is sent for it; None when it cannot be registered.
    entry: NewEntry | None


class Problem(msgspec.Struct, frozen=True, kw_only=True):
    reason: str
    params: dict[str, object]
    message: str


class ImportPreview(msgspec.Struct, frozen=True, kw_only=True):
    kind: str
    encoding: str | None
    guessed: bool
    header: bool
    columns: list[Column]
    rows: list[Row]
    #: Rows in all, rows to register, rows with an error, rows with a warning.
    total: int
    included: int
    errors: int
    warnings: int
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
    """The preview of ``sheet`` for ``t`` at ``now``; ``header`` None: found by its words,
    ``mapping`` None: guessed (``columns``)."""
    rows, lines = sheet.rows, sheet.lines
    if not rows:
        raise BadValue("the list holds no rows to register", field="file", reason="import_no_rows")
    width = max(len(r) for r in rows)
    found = header_fields(rows[0])
    has_header = any(f is not None for f in found) if header is None else header
    body, body_lines = (rows[1:], lines[1:]) if has_header else (rows, lines)
    if mapping:
        chosen: list[Field | None] = [None] * width
        for field, index in parse_mapping(mapping, width).items():
            chosen[index] = field
    elif has_header and any(f is not None for f in found):
        chosen = [*found, *[None] * (width - len(found))]
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
    named = any(f in ("name", "first_name", "last_name") for f in chosen)
    if not body or not named:
        error = (
            BadValue("the list holds no rows to register", reason="import_no_rows")
            if not body
            else BadValue(
                "no column holds the names: choose the one that does",
                reason="import_no_name_column",
            )
        )
        return ImportPreview(
            kind=sheet.kind,
            encoding=sheet.encoding,
            guessed=sheet.guessed,
            header=has_header,
            columns=columns,
            rows=[],
            total=len(body),
            included=0,
            errors=0,
            warnings=0,
            problem=_problem(error),
        )
    where = {f: chosen.index(f) for f in FIELDS if f in chosen}
    out = [_row(cells, line, where) for cells, line in zip(body, body_lines, strict=True)]
    out = _with_duplicates(out, t)
    out = _with_rules(out, t, now)
    return ImportPreview(
        kind=sheet.kind,
        encoding=sheet.encoding,
        guessed=sheet.guessed,
        header=has_header,
        columns=columns,
        rows=out,
        total=len(out),
        included=sum(r.include for r in out),
        errors=sum(any(f.error for f in r.flags) for r in out),
        warnings=sum(bool(r.flags) and not any(f.error for f in r.flags) for r in out),
    )


def _problem(e: FloorError) -> Problem:
    return Problem(reason=e.reason, params=dict(e.params), message=e.message)


def _cell(cells: list[str], where: dict[Field, int], field: Field) -> str:
    i = where.get(field)
    return " ".join(cells[i].split()) if i is not None and i < len(cells) else ""


def _row(cells: list[str], line: int, where: dict[Field, int]) -> Row:
    name = _cell(cells, where, "name")
    if not name:
        name = " ".join(
            x for x in (_cell(cells, where, "first_name"), _cell(cells, where, "last_name")) if x
        )
    values = {
        "name": name,
        "player": _cell(cells, where, "player"),
        "country": _cell(cells, where, "country"),
        "note": _cell(cells, where, "note"),
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
    ok = not any(f.error for f in flags)
    entry = (
        NewEntry(
            name=name,
            player=values["player"] or None,
            special_needs=needs,
            country=values["country"] or None,
            note=values["note"] or None,
        )
        if ok
        else None
    )
    return Row(
        line=line,
        name=name,
        player=values["player"] or None,
        country=values["country"] or None,
        special_needs=needs,
        note=values["note"] or None,
        flags=flags,
        include=ok,
        entry=entry,
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
