"""Cells a spreadsheet reads as text, whatever they hold.

A cell that begins with ``=``, ``+``, ``-`` or ``@`` (or a tab or carriage return, which some
spreadsheets skip before looking) is run as a formula when the file is opened: a player
registered as ``=HYPERLINK("http://...")`` would put a link in the director's results, and
``=cmd|' /c calc'!A1`` ran programs in older Excel. Such a cell is written with a leading
apostrophe, which every spreadsheet shows as the text it was.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from typing import Final

#: What a spreadsheet runs as a formula when a cell begins with it.
FORMULA_START: Final = ("=", "+", "-", "@", "\t", "\r")

Cell = str | int | float | None


def text(value: str) -> str:
    """``value`` as a cell no spreadsheet runs."""
    return "'" + value if value.startswith(FORMULA_START) else value


def csv_bytes(header: Sequence[str], rows: Iterable[Sequence[Cell]]) -> bytes:
    """A CSV file: UTF-8 with its byte order mark (so Excel reads the diacritics), CRLF
    lines, text cells neutralised; numbers written as numbers."""
    out = io.StringIO()
    out.write("\ufeff")
    w = csv.writer(out, lineterminator="\r\n")
    w.writerow(header)
    for row in rows:
        w.writerow(["" if c is None else text(c) if isinstance(c, str) else c for c in row])
    return out.getvalue().encode()
