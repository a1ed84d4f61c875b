"""Every scenario in ../shared/scenarios passes, through the engine and through the CLI.

A copy lives in tests/scenarios for clones checked out without ../shared beside them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from floor.scenario import ScenarioError, run
from tests.scenario_expect import (
    SHARED_SCENARIOS,
    VENDORED_SCENARIOS,
    check,
    scenario_paths,
)

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = scenario_paths()


def _load(path: Path) -> dict:
    return json.loads(path.read_text())


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
@pytest.mark.parametrize("seed", [0, 1, 7, 2024])
def test_scenario_output_meets_its_expectations(path: Path, seed: int) -> None:
    sc = _load(path)
    expect = sc.get("expect", {})
    if expect.get("error"):
        with pytest.raises(ScenarioError):
            run(path.read_bytes(), seed)
        return
    check(run(path.read_bytes(), seed), expect, sc["rules"])


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_same_seed_gives_the_same_output(path: Path) -> None:
    if _load(path).get("expect", {}).get("error"):
        return
    assert run(path.read_bytes(), 5) == run(path.read_bytes(), 5)


@pytest.mark.parametrize(
    "path",
    [p for p in SCENARIOS if "random_draw" in _load(p).get("expect", {}).get("invariants", [])],
    ids=lambda p: p.stem,
)
def test_random_draws_differ_between_seeds(path: Path) -> None:
    outputs = {json.dumps(run(path.read_bytes(), seed)["moves"]) for seed in range(8)}
    assert len(outputs) > 1


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_floor_scenario_command_prints_json_or_exits_2(path: Path) -> None:
    sc = _load(path)
    proc = subprocess.run(
        [sys.executable, "-m", "floor", "scenario", str(path), "--seed", "3"],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )
    if sc.get("expect", {}).get("error"):
        assert proc.returncode == 2
        assert proc.stdout == ""
        lines = proc.stderr.strip().splitlines()
        assert len(lines) == 1
        assert lines[0].startswith("events[0].")
    else:
        assert proc.returncode == 0, proc.stderr
        check(json.loads(proc.stdout), sc.get("expect", {}), sc["rules"])


def test_the_copied_scenarios_are_those_of_the_shared_folder() -> None:
    copies = sorted(VENDORED_SCENARIOS.glob("*.json"))
    assert len(copies) >= 14
    if not SHARED_SCENARIOS.is_dir():
        return
    stale = [
        p.name
        for p in copies
        if not (SHARED_SCENARIOS / p.name).is_file()
        or (SHARED_SCENARIOS / p.name).read_bytes() != p.read_bytes()
    ]
    assert not stale, f"tests/scenarios differs from {SHARED_SCENARIOS}: {stale}; copy them again"
