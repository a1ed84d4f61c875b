"""A scenario that names one seat twice is refused, never played with a player gone (FORMAT.md:
a bad scenario exits 2 with one line naming the place in the file)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from floor.scenario import ScenarioError, run

ROOT = Path(__file__).resolve().parents[2]


def scenario(
    seats: str, *, rules: str = '"game": "holdem", "seats": 9, "final_table": 9', events: str = ""
) -> str:
    """A scenario as written, so that a key can be given twice (a dict cannot hold that)."""
    return (
        '{"rules": {' + rules + '}, "state": {"tables": ['
        '{"table": 1, "button": 1, "small_blind": 2, "big_blind": 3,'
        ' "seats": {"1": "A1", "2": "A2", "3": "A3"}},'
        '{"table": 2, "button": 1, "small_blind": 2, "big_blind": 3, "seats": {' + seats + "}}"
        ']}, "events": [' + events + "]}"
    )


BAD = [
    pytest.param(
        scenario('"1": "B1", "4": "B4", "4": "B5"'),
        "state.tables[1].seats.4: table 2 seat 4 is listed twice",
        id="same-key",
    ),
    pytest.param(
        scenario('"1": "B1", "4": "B4", "04": "B5"'),
        'state.tables[1].seats.04: table 2 seat 4 is listed twice (also as "4")',
        id="leading-zero",
    ),
    pytest.param(
        scenario('"1": "B1", "4": "B4", "\u0664": "B5"'),
        'state.tables[1].seats.\u0664: table 2 seat 4 is listed twice (also as "4")',
        id="arabic-indic-digit",
    ),
    pytest.param(
        scenario('"1": "B1", "\\u0034": "B4", "4": "B5"'),
        "state.tables[1].seats.4: table 2 seat 4 is listed twice",
        id="escaped-in-json",
    ),
    pytest.param(
        scenario('"1": "B1", "\u00b2": "B2"'),
        "state.tables[1].seats.\u00b2: table 2 has no seat \u00b2",
        id="superscript-two",
    ),
    pytest.param(
        scenario('"1": "B1", "2": "B2"', events='{"bust": "A1", "bust": "B2"}'),
        'events[0].bust: "bust" is given twice',
        id="event-key",
    ),
    pytest.param(
        scenario('"1": "B1", "2": "B2"', rules='"game": "holdem", "seats": 9, "seats": 6'),
        'rules.seats: "seats" is given twice',
        id="rules-key",
    ),
]


@pytest.mark.parametrize(("text", "message"), BAD)
def test_a_seat_or_key_given_twice_is_refused_naming_the_place(text: str, message: str) -> None:
    with pytest.raises(ScenarioError) as caught:
        run(text.encode(), 0)

    assert str(caught.value) == message


@pytest.mark.parametrize(("text", "message"), BAD)
def test_floor_scenario_exits_2_with_one_line_naming_the_place(
    tmp_path: Path, text: str, message: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")

    proc = subprocess.run(
        [sys.executable, "-m", "floor", "scenario", str(path), "--seed", "3"],
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
        cwd=ROOT,
    )

    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.splitlines() == [message]


def test_a_seat_spelled_another_way_alone_is_that_seat() -> None:
    out = run(scenario('"1": "B1", "04": "B4", "\u0667": "B7"').encode(), 0)

    (table,) = [t for t in out["tables"] if t["table"] == 2]
    assert table["seats"] == {"1": "B1", "4": "B4", "7": "B7"}
    assert table["players"] == 3
