"""A list's bytes as rows of text: an .xlsx sheet, or CSV/TSV text in whatever encoding.

What a director brings: a sheet saved from Excel (an .xlsx file, read by openpyxl), a CSV
saved from Excel in Czech (Windows-1250, semicolons), one in UTF-8 with or without its byte
order mark (commas), a column pasted from a spreadsheet (tabs), or a plain list of names.
The encoding is UTF-8 when the bytes are UTF-8 (or carry a byte order mark), else
Windows-1250, which Czech Excel writes; the director may name another. The delimiter is a
tab when any line has one, else the semicolon or comma most lines hold, else none (one name
a line).

Refused, naming the problem: what is neither text nor a sheet, bytes the encoding asked for
cannot read, more than ``MAX_ROWS`` rows, no row at all. Cells are cut at ``MAX_CELL``
characters and rows at ``MAX_COLUMNS`` cells: a hostile file costs what a large honest one
does.

What a list may hold, so that reading it is bounded by the list and not by what a file says
it holds (each refusal says what to do instead):

- a row of more than ``MAX_ROW_CELLS`` cells (a sheet of one row of 200,000 cells took 6.8 s
  to read);
- a sheet whose parts unpack to more than ``MAX_UNPACKED`` bytes (3,000,000 shared strings in
  400 KiB of zip took 36 s and 430 MB), or of more than ``MAX_CELLS`` cells in all: both are
  told from the zip's directory and one pass over the sheet's XML before openpyxl reads it;
- more than ``MAX_KEPT`` characters of cells in all (a short text repeated in every cell of
  a sheet is small zipped and large read).

The server reads a sheet, and any list larger than a pasted one, in a process of its own
with limits on its memory and time (``floor.imports.worker``): what these bounds do not
catch, the process's limits do.
"""

from __future__ import annotations

import csv
import io
import re
import zipfile
from collections.abc import Iterable, Iterator
from datetime import date, datetime, time
from typing import IO, Final, Literal

import msgspec

from ..engine.errors import BadValue, refused

#: A tournament seats 10,000 players: no list is longer.
MAX_ROWS: Final = 10_000
MAX_COLUMNS: Final = 64
#: Longer than any field a row fills (a note is 200): a cell is not a place for a book.
MAX_CELL: Final = 1_000
#: Rows read from a sheet at most, empty ones included: formatting can stretch a sheet to a
#: million empty rows, which are not read one by one.
_MOST_READ: Final = 4 * MAX_ROWS
#: A row's cells before it is cut to ``MAX_COLUMNS``: a spreadsheet's row of formatting runs
#: to a few hundred; a list's row of 200,000 is not a list.
MAX_ROW_CELLS: Final = 1_024
#: A sheet's parts unpacked, together: ten times an honest list of 10,000 players.
MAX_UNPACKED: Final = 64 * 1024 * 1024
#: Cells in a sheet: a list of 10,000 players in 25 columns.
MAX_CELLS: Final = 250_000
#: Characters of the cells kept, in all: four times the largest list body (the server's).
MAX_KEPT: Final = 16 * 1024 * 1024
#: Parts of a workbook: a few dozen in a real one.
_MOST_PARTS: Final = 1_000

Kind = Literal["auto", "xlsx", "csv", "tsv", "lines"]
Encoding = Literal["auto", "utf-8", "windows-1250", "iso-8859-2", "windows-1252", "utf-16"]
ENCODINGS: Final[tuple[Encoding, ...]] = (
    "auto",
    "utf-8",
    "windows-1250",
    "iso-8859-2",
    "windows-1252",
    "utf-16",
)


class Sheet(msgspec.Struct, frozen=True, kw_only=True):
    """The rows of a list as read, blank rows left out, each with its line in the file."""

    kind: Literal["xlsx", "csv", "tsv", "lines"]
    #: The text's encoding (None for a sheet).
    encoding: str | None
    #: True when the encoding was not said and the bytes were not UTF-8: a guess to show.
    guessed: bool = False
    rows: list[list[str]]
    #: The line (or sheet row) each row stands on, 1 for the first.
    lines: list[int]


def read(data: bytes, kind: Kind = "auto", encoding: Encoding = "auto") -> Sheet:
    """The rows ``data`` holds; ``BadValue`` (naming the problem) when it holds none."""
    if kind == "xlsx":
        return _sheet(data)
    if kind == "auto" and data.startswith(b"PK\x03\x04"):
        return _sheet(data)
    if data.startswith(b"\xd0\xcf\x11\xe0"):
        raise _unreadable("xls (save it as .xlsx or CSV)")
    text, used, guessed = _decode(data, encoding)
    found = _kind(text) if kind == "auto" else kind
    rows, lines = _split(text, found)
    return Sheet(kind=found, encoding=used, guessed=guessed, rows=rows, lines=lines)


def _unreadable(what: str) -> BadValue:
    return refused(BadValue, "import_unreadable", {"format": what}, field="file")


def _too_wide(line: int, cells: int) -> BadValue:
    return refused(
        BadValue,
        "import_row_too_wide",
        {"line": line, "cells": cells, "most": MAX_ROW_CELLS},
        field="file",
    )


def _too_large(size: int, most: int) -> BadValue:
    return refused(BadValue, "import_sheet_too_large", {"bytes": size, "most": most}, field="file")


def _too_many_cells(cells: int) -> BadValue:
    return refused(
        BadValue, "import_too_many_cells", {"cells": cells, "most": MAX_CELLS}, field="file"
    )


def _too_many(rows: int) -> BadValue:
    return refused(BadValue, "import_too_many_rows", {"rows": rows, "most": MAX_ROWS}, field="file")


# Text ---------------------------------------------------------------------------------------

_BOMS: Final = (
    (b"\xef\xbb\xbf", "utf-8-sig", "utf-8"),
    (b"\xff\xfe", "utf-16", "utf-16"),
    (b"\xfe\xff", "utf-16", "utf-16"),
)


def _decode(data: bytes, encoding: Encoding) -> tuple[str, str, bool]:
    """The text, the encoding it was read in, and whether that was a guess."""
    if encoding != "auto":
        codec = "utf-8-sig" if encoding == "utf-8" else encoding
        try:
            return data.decode(codec), encoding, False
        except UnicodeDecodeError:
            raise _unreadable(f"text in {encoding}") from None
    for mark, codec, name in _BOMS:
        if data.startswith(mark):
            try:
                return data.decode(codec), name, False
            except UnicodeDecodeError:
                raise _unreadable(f"text in {name}") from None
    try:
        return data.decode("utf-8"), "utf-8", False
    except UnicodeDecodeError:
        pass
    if b"\x00" in data[:4096]:
        # UTF-16 saved without its mark ("Unicode text" from Excel): NULs between letters.
        order = "utf-16-le" if data[1:2] == b"\x00" else "utf-16-be"
        try:
            return data.decode(order), "utf-16", True
        except UnicodeDecodeError:
            raise _unreadable("text") from None
    try:
        return data.decode("windows-1250"), "windows-1250", True
    except UnicodeDecodeError:
        raise _unreadable("text") from None


def _kind(text: str) -> Literal["csv", "tsv", "lines"]:
    sample = [line for line in text.splitlines()[:50] if line.strip()]
    if any("\t" in line for line in sample):
        return "tsv"
    if not sample:
        return "lines"
    for sep in (";", ","):
        # Most lines hold it, outside quotes as csv reads them: a name "Novák, Jan" alone
        # on its line is one cell.
        split = sum(1 for row in csv.reader(sample, delimiter=sep) if len(row) > 1)
        if split >= max(1, 0.8 * len(sample)):
            return "csv"
    return "lines"


def _delimiter(text: str) -> str:
    sample = [line for line in text.splitlines()[:50] if line.strip()]
    counts = {
        sep: sum(1 for row in csv.reader(sample, delimiter=sep) if len(row) > 1)
        for sep in (";", ",")
    }
    return ";" if counts[";"] >= counts[","] else ","


def _split(text: str, kind: Literal["csv", "tsv", "lines"]) -> tuple[list[list[str]], list[int]]:
    lines = text.splitlines()
    if kind == "lines":
        cells: Iterable[list[str]] = ([_cut(line)] for line in lines)
    else:
        sep = "\t" if kind == "tsv" else _delimiter(text)
        cells = csv.reader(lines, delimiter=sep)
    rows: list[list[str]] = []
    numbers: list[int] = []
    try:
        for number, row in enumerate(cells, 1):
            if len(row) > MAX_ROW_CELLS:
                raise _too_wide(number, len(row))
            kept = [_cut(c) for c in row[:MAX_COLUMNS]]
            if not any(c.strip() for c in kept):
                continue
            rows.append(kept)
            numbers.append(number)
            if len(rows) > MAX_ROWS + 1:  # a header above them
                raise _too_many(sum(1 for line in lines if line.strip()))
    except csv.Error:
        raise _unreadable(kind.upper()) from None
    return rows, numbers


def _cut(cell: str) -> str:
    return cell[:MAX_CELL]


# Sheets -------------------------------------------------------------------------------------


def _sheet(data: bytes) -> Sheet:
    # Imported here: a list of names pasted as text never needs the spreadsheet reader.
    from openpyxl import load_workbook

    _measure(data)
    try:
        book = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except (zipfile.BadZipFile, KeyError, ValueError, OSError, TypeError):
        raise _unreadable("xlsx") from None
    except MemoryError:
        raise  # the worker's limit: not the file's fault, and said so (``worker``)
    except Exception:  # openpyxl's own parse errors have no common base
        raise _unreadable("xlsx") from None
    try:
        sheet = book.worksheets[0] if book.worksheets else None
        if sheet is None:
            raise _unreadable("xlsx")
        rows: list[list[str]] = []
        numbers: list[int] = []
        size = 0
        # At most MAX_COLUMNS columns: a sheet that says it is 16,384 columns wide (its
        # dimension), or that has a cell in column XFD, is not padded to that width, row
        # after row. Rows padded here, not by the sheet's own width, lose the padding again.
        width = sheet.max_column
        honest = isinstance(width, int) and 0 < width <= MAX_COLUMNS
        cells = sheet.iter_rows(values_only=True, max_col=width if honest else MAX_COLUMNS)
        for number, values in enumerate(_values(cells), 1):
            if number > _MOST_READ:
                break
            if not any(v is not None for v in values):
                continue
            kept = [_text(v) for v in values[:MAX_COLUMNS]]
            while not honest and kept and not kept[-1]:
                kept.pop()
            if not any(c.strip() for c in kept):
                continue
            size += sum(map(len, kept))
            if size > MAX_KEPT:
                raise _too_large(size, MAX_KEPT)
            rows.append(kept)
            numbers.append(number)
            if len(rows) > MAX_ROWS + 1:  # a header above them
                raise _too_many(len(rows) + _more(sheet.iter_rows(min_row=number + 1)))
    except (BadValue, MemoryError):
        raise
    except Exception:
        raise _unreadable("xlsx") from None
    finally:
        book.close()
    return Sheet(kind="xlsx", encoding=None, rows=rows, lines=numbers)


def _measure(data: bytes) -> None:
    """Refuse a workbook larger than a list before it is read: its parts' unpacked sizes
    from the zip's directory (what openpyxl reads of a part stops at its stated size), then
    the cells of its sheets, counted in one pass over their XML, a row at a time."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            parts = z.infolist()
            if len(parts) > _MOST_PARTS:
                raise _unreadable(f"xlsx (a workbook of {len(parts):,} parts)")
            unpacked = sum(part.file_size for part in parts)
            if unpacked > MAX_UNPACKED:
                raise _too_large(unpacked, MAX_UNPACKED)
            cells = 0
            for part in parts:
                if part.filename.startswith("xl/worksheets/") and part.filename.endswith(".xml"):
                    with z.open(part) as xml:
                        cells += _count_cells(xml)
    except (BadValue, MemoryError):
        raise
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, ValueError):
        raise _unreadable("xlsx") from None
    except Exception:  # zlib and zipfile errors have no common base
        raise _unreadable("xlsx") from None


_ROW = re.compile(rb"<(?:\w+:)?row[\s>]")
_CELL = re.compile(rb"<(?:\w+:)?c[\s>/]")


def _count_cells(xml: IO[bytes]) -> int:
    """The cells of a sheet's XML, each row's at most ``MAX_ROW_CELLS`` (else refused), in
    all at most ``MAX_CELLS``: read a megabyte at a time, cut before the last tag begun."""
    total = row_cells = rows = 0
    carry = b""
    while True:
        chunk = xml.read(1024 * 1024)
        data = carry + chunk
        cut = data.rfind(b"<") if chunk else len(data)
        if cut <= 0 or len(data) - cut > 4096:
            cut = len(data)
        piece, carry = data[:cut], data[cut:]
        pieces = _ROW.split(piece)
        for i, part in enumerate(pieces):
            if i:  # a new row begins
                rows += 1
                row_cells = 0
            n = len(_CELL.findall(part))
            row_cells += n
            total += n
            if row_cells > MAX_ROW_CELLS:
                raise _too_wide(rows, row_cells)
            if total > MAX_CELLS:
                raise _too_many_cells(total)
        if not chunk:
            return total


def _values(rows: Iterable[tuple[object, ...]]) -> Iterator[tuple[object, ...]]:
    yield from rows


def _more(rows: Iterable[object]) -> int:
    return sum(1 for _ in zip(range(_MOST_READ), rows, strict=False))


def _text(value: object) -> str:
    """A cell as the sheet shows it: a card number 12345, not 12345.0; a date as a date."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "1" if value else ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, datetime):
        return value.isoformat(sep=" ", timespec="minutes")
    if isinstance(value, date | time):
        return value.isoformat()
    return _cut(str(value))
