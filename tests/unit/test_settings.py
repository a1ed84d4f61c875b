"""Every environment variable floor reads is listed by --help and in the README's table."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from floor.server.settings import VARIABLES, from_env

ROOT = Path(__file__).resolve().parents[2]


def test_the_readme_table_lists_exactly_the_variables_floor_reads() -> None:
    readme = (ROOT / "README.md").read_text()
    table = [line for line in readme.splitlines() if line.startswith("| `")]
    listed = {
        name for line in table for name in re.findall(r"`([A-Z][A-Z_]+)`", line.split("|")[1])
    }
    assert listed == {name for name, _, _ in VARIABLES}


def test_serve_help_lists_every_variable() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "floor", "serve", "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    for name, _, _ in VARIABLES:
        assert f"  {name} " in out


def test_a_setting_that_is_not_a_number_is_refused_naming_it() -> None:
    with pytest.raises(SystemExit, match="FLOOR_PORT must be a number, not 'eighty'"):
        from_env({"FLOOR_PORT": "eighty"})
