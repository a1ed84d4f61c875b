"""Cells a spreadsheet reads as text, whatever they hold.

A cell that begins with ``=``, ``+``, ``-`` or ``@`` (or a tab or carriage return, which some
spreadsheets skip before looking) is run as a formula when the file is opened: a player
registered as ``=HYPERLINK("http://...")`` would put a link in the director's results, and
``=cmd|' /c calc'!A1`` ran programs in older Excel. Spreadsheets also skip leading spaces
before looking, and some read the full-width forms (U+FF1D, U+FF0B, U+FF0D, U+FF20, typed by
an East Asian keyboard) as the signs they stand for. Such a cell is written with a leading
apostrophe, which every spreadsheet shows as the text it was.

Every file floor writes for a spreadsheet goes through ``csv_bytes`` (or ``text`` for a cell
written another way): ``tests/integration/test_export_formulas.py`` feeds hostile names,
labels and notes to every export route the app has.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from typing import Final

#: What a spreadsheet runs as a formula when a cell begins with it (after any spaces).
FORMULA_START: Final = (
    "=",
    "+",
    "-",
    "@",
    "\t",
    "\r",
    "\uff1d",  # FULLWIDTH EQUALS SIGN
    "\uff0b",  # FULLWIDTH PLUS SIGN
    "\uff0d",  # FULLWIDTH HYPHEN-MINUS
    "\uff20",  # FULLWIDTH COMMERCIAL AT
)

Cell = str | int | float | None


def runs_as_formula(value: str) -> bool:
    """Whether a spreadsheet would run ``value`` as a formula: it begins with one of
    ``FORMULA_START``, also after leading white space (a tab, a no-break or ideographic
    space too)."""
    return value.startswith(FORMULA_START) or value.lstrip().startswith(FORMULA_START)


def text(value: str) -> str:
    """``value`` as a cell no spreadsheet runs."""
    return "'" + value if runs_as_formula(value) else value


def csv_bytes(header: Sequence[str], rows: Iterable[Sequence[Cell]]) -> bytes:
    """A CSV file: UTF-8 with its byte order mark (so Excel reads the diacritics), CRLF
    lines, text cells neutralised; numbers written as numbers."""
    out = io.StringIO()
    out.write("\ufeff")
    w = csv.writer(out, lineterminator="\r\n")
    w.writerow([text(c) for c in header])
    for row in rows:
        w.writerow(["" if c is None else text(c) if isinstance(c, str) else c for c in row])
    return out.getvalue().encode()
