"""Checks a ``floor scenario`` output against the scenario's ``expect`` block (FORMAT.md)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SHARED_SCENARIOS = ROOT.parent / "shared" / "scenarios"
# A copy, so that a clone checked out away from ../shared still runs every scenario instead
# of silently collecting none; test_scenarios checks the copy against ../shared when present.
VENDORED_SCENARIOS = ROOT / "tests" / "scenarios"


def scenario_paths() -> list[Path]:
    """Every scenario: those of ../shared/scenarios, and the copies of any it lacks."""
    found = {p.name: p for p in VENDORED_SCENARIOS.glob("*.json")}
    if SHARED_SCENARIOS.is_dir():
        found.update({p.name: p for p in SHARED_SCENARIOS.glob("*.json")})
    if not found:
        raise RuntimeError(f"no scenarios in {SHARED_SCENARIOS} or {VENDORED_SCENARIOS}")
    return sorted(found.values(), key=lambda p: p.name)


def _table(out: dict[str, Any], n: str | int) -> dict[str, Any]:
    for t in out["tables"]:
        if str(t["table"]) == str(n):
            return t
    raise AssertionError(f"table {n} is not in the output")


def _matches(move: dict[str, Any], partial: dict[str, Any]) -> bool:
    for key, want in partial.items():
        got = move.get(key)
        if isinstance(want, dict):
            if not isinstance(got, dict) or any(got.get(k) != v for k, v in want.items()):
                return False
        elif got != want:
            return False
    return True


def check(out: dict[str, Any], expect: dict[str, Any], rules: dict[str, Any]) -> None:
    """Raise AssertionError naming the first expectation the output misses."""
    for key, want in expect.items():
        if key in ("note", "error", "invariants"):
            continue
        if key == "positions":
            for n, pos in want.items():
                t = _table(out, n)
                got = {k: t[k] for k in ("button", "small_blind", "big_blind")}
                assert got == pos, f"positions of table {n}: {got} != {pos}"
        elif key in ("next_big_blind", "status", "players", "waiting"):
            for n, value in want.items():
                got = _table(out, n)[key]
                assert got == value, f"{key} of table {n}: {got} != {value}"
        elif key == "seats":
            for n, seats in want.items():
                got = _table(out, n)["seats"]
                for seat, pid in seats.items():
                    assert got.get(seat) == pid, f"table {n} seat {seat}: {got.get(seat)} != {pid}"
        elif key == "moves":
            got = [{k: m[k] for k in ("player", "from", "to", "reason")} for m in out["moves"]]
            assert got == want, f"moves: {got} != {want}"
        elif key == "moves_count":
            assert len(out["moves"]) == want, f"{len(out['moves'])} moves, expected {want}"
        elif key == "moves_include":
            free = list(out["moves"])
            for partial in want:
                hit = next((m for m in free if _matches(m, partial)), None)
                assert hit is not None, f"no move matches {partial} among {free}"
                free.remove(hit)
        elif key == "halted":
            assert out["halted"] == want, f"halted: {out['halted']} != {want}"
        elif key == "final_table":
            assert out["final_table"] == want, f"final_table: {out['final_table']} != {want}"
        else:
            raise AssertionError(f"unknown expectation {key!r}")
    for name in expect.get("invariants", []):
        if name == "plan_balances":
            plan_balances(out, rules)
        elif name != "random_draw":  # checked by running two seeds, see the tests
            raise AssertionError(f"unknown invariant {name!r}")


def plan_balances(out: dict[str, Any], rules: dict[str, Any]) -> None:
    """Carrying out the whole plan leaves every seat used once and open tables balanced."""
    seats: dict[tuple[int, str], str] = {}
    for t in out["tables"]:
        for seat, pid in t["seats"].items():
            seats[(t["table"], seat)] = pid
    movers = {m["player"] for m in out["moves"]}
    assert None not in movers, "a planned move names no player"
    assert len(movers) == len(out["moves"]), "a player is planned twice"
    after = {k: v for k, v in seats.items() if v not in movers}
    for m in out["moves"]:
        key = (m["to"]["table"], str(m["to"]["seat"]))
        assert key not in after, f"two players end in table {key[0]} seat {key[1]}"
        after[key] = m["player"]
    counts = Counter(table for table, _ in after)
    in_play = [t["table"] for t in out["tables"] if t["status"] in ("open", "halted")]
    sizes = [counts[n] for n in in_play]
    trigger = rules.get("balance_trigger", 2)
    assert not sizes or max(sizes) - min(sizes) < trigger, f"unbalanced after the plan: {sizes}"
    for t in out["tables"]:
        if t["status"] == "breaking":
            assert counts[t["table"]] == 0, f"breaking table {t['table']} keeps players"
