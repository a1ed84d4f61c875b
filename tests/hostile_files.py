# ruff: noqa: E501 (the parts of a workbook, as Excel writes them, one per line)
"""Spreadsheets made to hurt the reader of player lists, and the largest honest lists.

Each workbook is a valid .xlsx (content types, relationships, a workbook of one sheet) that
openpyxl opens; what is hostile is inside:

- ``shared_strings_bomb``: 3,000,000 shared strings of 30 letters (about 400 KiB zipped,
  141 MB of XML): reading the table of strings alone took 36 s and 430 MB on the loop;
- ``wide_row``: one row of 200,000 inline-string cells (26 KiB zipped): 6.8 s;
- ``zip_bomb``: a sheet of 512 MiB of blanks in about 500 KiB;
- ``dimension_bomb``: a sheet that says it spans A1:XFD1048576, with a cell at each corner.

``honest_xlsx`` and ``honest_csv`` are the largest lists a director brings: 10,000 players.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterator

_CONTENT_TYPES = b"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
<Default Extension="xml" ContentType="application/xml"/>
<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>
<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>
<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>
</Types>"""
_RELS = b"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>
</Relationships>"""
_WORKBOOK = b"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">
<sheets><sheet name="Players" sheetId="1" r:id="rId1"/></sheets>
</workbook>"""
_WORKBOOK_RELS = b"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>
<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>
</Relationships>"""
_SHEET_OPEN = (
    b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    b'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
)
_NO_STRINGS = (
    b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    b'<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="0" '
    b'uniqueCount="0"/>'
)


def workbook(
    sheet: Iterator[bytes] | bytes, strings: Iterator[bytes] | bytes = _NO_STRINGS
) -> bytes:
    """An .xlsx of one sheet; each part given whole or as chunks (written as they come)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        z.writestr("[Content_Types].xml", _CONTENT_TYPES)
        z.writestr("_rels/.rels", _RELS)
        z.writestr("xl/workbook.xml", _WORKBOOK)
        z.writestr("xl/_rels/workbook.xml.rels", _WORKBOOK_RELS)
        for name, part in (("xl/worksheets/sheet1.xml", sheet), ("xl/sharedStrings.xml", strings)):
            if isinstance(part, bytes):
                z.writestr(name, part)
                continue
            with z.open(name, "w", force_zip64=True) as f:
                for chunk in part:
                    f.write(chunk)
    return out.getvalue()


def _sheet(rows: bytes, dimension: bytes = b"") -> bytes:
    return _SHEET_OPEN + dimension + b"<sheetData>" + rows + b"</sheetData></worksheet>"


def shared_strings_bomb(strings: int = 3_000_000) -> bytes:
    """One cell naming string 0 of ``strings`` shared strings, each 30 letters."""
    letters = b"abcdefghijklmnopqrstuvwxyz" * 3

    def table() -> Iterator[bytes]:
        yield (
            b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
            b'<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
        )
        for first in range(0, strings, 10_000):
            yield b"".join(
                b"<si><t>" + letters[i % 26 : i % 26 + 30] + b"</t></si>"
                for i in range(first, min(strings, first + 10_000))
            )
        yield b"</sst>"

    return workbook(_sheet(b'<row r="1"><c r="A1" t="s"><v>0</v></c></row>'), table())


def wide_row(cells: int = 200_000) -> bytes:
    """One row of ``cells`` inline strings."""
    row = b'<row r="1">' + b'<c t="inlineStr"><is><t>x</t></is></c>' * cells + b"</row>"
    return workbook(_sheet(row))


def zip_bomb(blank: int = 512 * 1024 * 1024) -> bytes:
    """A sheet of ``blank`` bytes of spaces between two rows of names."""

    def sheet() -> Iterator[bytes]:
        yield _SHEET_OPEN + b"<sheetData>"
        yield b'<row r="1"><c r="A1" t="inlineStr"><is><t>Name</t></is></c></row>'
        chunk = b" " * (1024 * 1024)
        for _ in range(blank // len(chunk)):
            yield chunk
        yield b'<row r="2"><c r="A2" t="inlineStr"><is><t>Jan Novak</t></is></c></row>'
        yield b"</sheetData></worksheet>"

    return workbook(sheet())


def dimension_bomb() -> bytes:
    """A sheet that claims every row and column a sheet can have."""
    rows = (
        b'<row r="1"><c r="A1" t="inlineStr"><is><t>Jan Novak</t></is></c></row>'
        b'<row r="1048576"><c r="XFD1048576" t="inlineStr"><is><t>Eva</t></is></c></row>'
    )
    return workbook(_sheet(rows, b'<dimension ref="A1:XFD1048576"/>'))


def honest_rows(players: int = 10_000) -> list[list[str]]:
    """A festival's list: a header and a row per player (name, card, country, note)."""
    first = ["Jan", "Petr", "Jiří", "Tomáš", "Eva", "Jana", "Šárka", "Zoë", "Anna", "Klára"]
    last = ["Novák", "Svoboda", "Dvořák", "Černý", "Procházka", "Müller", "García", "Kučera"]
    rows = [["Name", "Card", "Country", "Note"]]
    for i in range(players):
        rows.append(
            [
                f"{first[i % 10]} {last[i // 10 % 8]} {i}",
                f"C{100_000 + i}",
                "CZ",
                "pays at the cage",
            ]
        )
    return rows


def honest_csv(players: int = 10_000) -> bytes:
    return "".join(";".join(row) + "\r\n" for row in honest_rows(players)).encode()


def honest_xlsx(players: int = 10_000) -> bytes:
    """The list as Excel saves it: shared strings, one per distinct text."""
    rows = honest_rows(players)
    index: dict[str, int] = {}
    cells = []
    for r, row in enumerate(rows, 1):
        refs = []
        for c, text in enumerate(row):
            n = index.setdefault(text, len(index))
            refs.append(f'<c r="{"ABCD"[c]}{r}" t="s"><v>{n}</v></c>')
        cells.append(f'<row r="{r}">{"".join(refs)}</row>')
    strings = "".join(
        f"<si><t>{t.replace('&', '&amp;').replace('<', '&lt;')}</t></si>" for t in index
    )
    sst = (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        '<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
        f"{strings}</sst>"
    )
    return workbook(_sheet("".join(cells).encode()), sst.encode())
