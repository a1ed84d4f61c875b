"""Player lists are read within bounds, and spreadsheets in a process of their own.

Issue 24: a workbook of 3,000,000 shared strings (400 KiB zipped) froze the server for 36 s
and kept 430 MB; a row of 200,000 inline cells (26 KiB) froze it for 6.8 s. ``sheet``
refuses them before openpyxl reads them, saying what to do; the worker reads under limits of
memory and time, in a process that goes away with what it used; nginx and floor take a list
of the same size.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import msgspec
import pytest

from floor.engine.errors import BadValue
from floor.imports import sheet
from floor.imports.worker import Read, Refused, Result
from floor.server import list_reader
from floor.server.routes_files import MAX_LIST
from tests import hostile_files

ROOT = Path(__file__).resolve().parents[2]


def refusal(data: bytes) -> BadValue:
    with pytest.raises(BadValue) as caught:
        sheet.read(data)
    assert caught.value.field == "file"
    return caught.value


def test_a_table_of_three_million_shared_strings_is_refused_before_it_is_read() -> None:
    e = refusal(hostile_files.shared_strings_bomb())
    assert e.reason == "import_sheet_too_large"
    assert e.params["bytes"] > sheet.MAX_UNPACKED
    assert "save it as CSV" in e.message


def test_a_row_of_200000_cells_is_refused_naming_the_row() -> None:
    e = refusal(hostile_files.wide_row())
    assert e.reason == "import_row_too_wide"
    assert e.params["line"] == 1
    assert "save the columns you need as CSV" in e.message


def test_a_sheet_that_unpacks_to_half_a_gigabyte_is_refused() -> None:
    e = refusal(hostile_files.zip_bomb())
    assert e.reason == "import_sheet_too_large"


def test_a_sheet_of_more_cells_than_a_list_has_is_refused() -> None:
    e = refusal(
        hostile_files.workbook(
            b"<worksheet><sheetData>"
            + b'<row><c t="inlineStr"><is><t>x</t></is></c></row>' * (sheet.MAX_CELLS + 1)
            + b"</sheetData></worksheet>"
        )
    )
    assert e.reason == "import_too_many_cells"


def test_a_sheet_that_claims_every_row_and_column_is_read_as_the_cells_it_has() -> None:
    got = sheet.read(hostile_files.dimension_bomb())
    # Not padded to 16,384 columns, nor read to row 1,048,576.
    assert got.rows == [["Jan Novak"]]


def test_a_line_of_csv_with_more_cells_than_a_list_has_is_refused_naming_the_line() -> None:
    data = b"Name;Card\n" + b";".join(b"x" for _ in range(sheet.MAX_ROW_CELLS + 1)) + b"\n"
    with pytest.raises(BadValue) as caught:
        sheet.read(data)
    assert caught.value.reason == "import_row_too_wide"
    assert caught.value.params["line"] == 2


def test_the_largest_honest_lists_are_read_whole() -> None:
    for data in (hostile_files.honest_xlsx(), hostile_files.honest_csv()):
        got = sheet.read(data)
        assert len(got.rows) == 10_001
        assert got.rows[1] == ["Jan Novák 0", "C100000", "CZ", "pays at the cage"]


def worker(data: bytes, memory: int = 512 * 1024 * 1024, seconds: float = 30) -> Result:
    done = subprocess.run(
        [sys.executable, "-m", "floor.imports.worker", "auto", "auto", str(memory), str(seconds)],
        input=data,
        capture_output=True,
        cwd=ROOT,
        check=True,
        timeout=120,
    )
    return msgspec.msgpack.decode(done.stdout, type=Result)


def test_the_worker_reads_a_sheet_in_a_process_of_its_own() -> None:
    result = worker(hostile_files.honest_xlsx())
    assert isinstance(result, Read)
    assert result.pid != os.getpid()
    assert len(result.sheet.rows) == 10_001


def test_the_worker_answers_a_refusal_as_the_reader_raised_it() -> None:
    result = worker(hostile_files.wide_row())
    assert isinstance(result, Refused)
    assert result.error().reason == "import_row_too_wide"
    assert result.error().field == "file"


async def test_a_sheet_that_needs_more_memory_than_the_reader_has_is_refused_saying_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # 400,000 shared strings (18 MB of XML, within the bounds) in 48 MB of address space:
    # the worker runs out, says so or dies of it, and either way the list is refused.
    monkeypatch.setattr(list_reader, "MEMORY", 48 * 1024 * 1024)
    with pytest.raises(BadValue) as caught:
        await list_reader.read_list(hostile_files.shared_strings_bomb(400_000), "auto", "auto")
    assert caught.value.reason == "import_too_much_memory"
    assert "save it as CSV" in caught.value.message


async def test_a_list_read_too_long_is_refused_and_its_reader_killed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(list_reader, "SECONDS", 0.05)
    with pytest.raises(BadValue) as caught:
        await list_reader.read_list(hostile_files.honest_xlsx(), "auto", "auto")
    assert caught.value.reason == "import_too_slow"


async def test_pasted_text_is_read_at_once_and_a_sheet_by_the_worker(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level("INFO", logger="floor.server"):
        pasted = await list_reader.read_list(b"Jan Novak\nEva Kos\n", "auto", "auto")
        assert not [r for r in caplog.records if r.getMessage() == "list read"]
        got = await list_reader.read_list(hostile_files.honest_xlsx(), "auto", "auto")
    assert pasted.rows == [["Jan Novak"], ["Eva Kos"]]
    assert len(got.rows) == 10_001
    (read,) = [r for r in caplog.records if r.getMessage() == "list read"]
    assert read.worker != os.getpid()  # type: ignore[attr-defined]


def test_nginx_takes_a_list_as_large_as_floor_does() -> None:
    """The shipped nginx stopped bodies at 64 KiB while floor took 8 MiB: an honest list of
    10,000 players (600 KB) failed behind it. The import's location has floor's limit."""
    conf = (ROOT / "deploy" / "nginx" / "floor.conf").read_text()
    block = re.search(r"location ~ \^/api/t/\[\^/\]\+/import\$ \{(.*?)\n    \}", conf, re.S)
    assert block is not None, "deploy/nginx/floor.conf has no location for the import"
    size = re.search(r"client_max_body_size (\d+)([km]?);", block.group(1))
    assert size is not None
    unit = {"": 1, "k": 1024, "m": 1024 * 1024}[size.group(2)]
    assert int(size.group(1)) * unit == MAX_LIST
    assert len(hostile_files.honest_csv()) < MAX_LIST
