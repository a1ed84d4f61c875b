"""The preview of issue 25's Czech sheet and its kin: the header found or asked about, no
seat reserved from a column's values, the count of special-needs seats said, surnames kept,
a name twice in a list ticked once."""

from __future__ import annotations

import io
from typing import Any

import msgspec
import pytest
from openpyxl import Workbook

from floor.engine.errors import BadValue
from floor.imports import sheet
from floor.imports.preview import ImportPreview, build
from tests.unit.test_error_codes import assert_said
from tests.unit.test_paper_files import NOW, tournament

PLAYERS = [("Dvořák", "Jiří"), ("Nováková", "Jana"), ("Černý", "Petr"), ("Šimek", "Filip"),
           ("Kučerová", "Anna"), ("Růžička", "Ondřej")]  # fmt: skip


def _xlsx(rows: list[list[Any]]) -> bytes:
    book = Workbook()
    ws = book.active
    assert ws is not None
    for row in rows:
        ws.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _preview(data: bytes, **kw: Any) -> ImportPreview:
    return build(sheet.read(data), tournament()[0], NOW, **kw)


def test_the_czech_sheet_of_issue_25_has_a_header_and_no_special_needs() -> None:
    rows: list[list[Any]] = [["Příjmení a jméno", "Klub", "Buy-in zaplaceno"]]
    rows += [[f"{s} {g}", "PokerClub Praha", "ano"] for s, g in PLAYERS]
    p = _preview(_xlsx(rows))
    assert (p.header, p.asked) == (True, False)
    assert [c.field for c in p.columns] == ["surname_name", None, None]
    assert [(r.name, r.surname) for r in p.rows] == [(f"{g} {s}", s) for s, g in PLAYERS]
    assert (p.total, p.included, p.special_needs) == (6, 6, 0)
    assert not any(r.entry is not None and r.entry.special_needs for r in p.rows)


def test_a_special_needs_column_named_by_its_header_is_counted_for_the_director() -> None:
    rows = [["Jméno", "Vozík"], *([f"{g} {s}", "ano" if i % 3 == 0 else ""]
                                  for i, (s, g) in enumerate(PLAYERS))]  # fmt: skip
    p = _preview(_xlsx(rows))
    assert [c.field for c in p.columns] == ["name", "special_needs"]
    assert p.special_needs == 2
    assert [r.name for r in p.rows if r.special_needs] == ["Jiří Dvořák", "Filip Šimek"]


def test_a_first_row_the_shape_leaves_open_is_asked_and_the_answer_holds() -> None:
    data = "\n".join(["SEZNAM", *(f"{g} {s}" for s, g in PLAYERS)]).encode()
    p = _preview(data)
    # Asked: shown as a player meanwhile, the question with its cells.
    assert (p.asked, p.header, p.first, p.total) == (True, False, ["SEZNAM"], 7)
    yes = _preview(data, header=True)
    assert (yes.asked, yes.header, yes.total) == (False, True, 6)
    no = _preview(data, header=False)
    assert (no.asked, no.header, no.total) == (False, False, 7)


def test_a_list_split_into_first_and_last_names_says_its_surnames() -> None:
    data = "Vorname;Name;Land\nJürgen;Müller;DE\nKäthe;Groß;AT\n".encode()
    p = _preview(data)
    assert [c.field for c in p.columns] == ["first_name", "last_name", "country"]
    assert [(r.name, r.surname) for r in p.rows] == [("Jürgen Müller", "Müller"),
                                                     ("Käthe Groß", "Groß")]  # fmt: skip


def test_a_name_twice_in_one_list_is_ticked_once() -> None:
    data = "Jan Novák\nEva Svobodová\njan novák\nJan Novák\n".encode()
    p = _preview(data)
    assert [(r.line, r.include) for r in p.rows] == [(1, True), (2, True), (3, False), (4, False)]
    assert [[f.params for f in r.flags] for r in p.rows[2:]] == [[{"line": 1}], [{"line": 1}]]
    assert p.included == 2
    # The preview is what the console is sent: each row's tick and surname.
    said = msgspec.json.decode(msgspec.json.encode(p))
    assert [r["include"] for r in said["rows"]] == [True, True, False, False]
    assert said["asked"] is False and said["special_needs"] == 0


def test_a_column_mapping_that_is_not_field_equals_column_says_so_not_no_such_column() -> None:
    data = "\n".join(f"{g} {s}" for s, g in PLAYERS).encode()
    with pytest.raises(BadValue) as caught:
        _preview(data, mapping="name:0")
    assert caught.value.field == "map"
    assert_said(caught.value, "import_map_part", {"part": "name:0"})
    with pytest.raises(BadValue) as caught:
        _preview(data, mapping="name=5")
    assert_said(caught.value, "import_column_unknown", {"column": "5", "columns": 1})
