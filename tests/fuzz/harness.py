"""What the fuzz tests share: a tournament to aim at, and the proof that refused input changed
nothing (its sequence number and state, read back from the server after every input)."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import httpx

from tests.e2e.conftest import Api, ServerProcess

#: Long levels, rebuys, an add-on at the break and re-entries: every command has a path to
#: acceptance, and nothing comes due by itself while the tests run (only time calls end).
STRUCTURE: dict[str, Any] = {
    "name": "fuzz",
    "starting_stack": 10_000,
    "chips": [25, 100, 500, 1000],
    "levels": [
        {"type": "level", "small_blind": 25, "big_blind": 50, "minutes": 600},
        {"type": "break", "minutes": 600, "color_up": [25]},
        {"type": "level", "small_blind": 100, "big_blind": 200, "minutes": 600},
        {"type": "level", "small_blind": 200, "big_blind": 400, "minutes": 600},
        {"type": "break", "minutes": 600},
        {"type": "level", "small_blind": 500, "big_blind": 1000, "minutes": 600},
    ],
    "late_registration_until": 3,
    "prize": {
        "currency": "EUR",
        "buy_in": 100,
        "fee": 10,
        "guarantee": 1_000,
        "round_to": 10,
        "rebuy": {"price": 100, "chips": 10_000, "until_level": 3},
        "add_on": {"price": 100, "chips": 10_000, "level": 1},
        "re_entry": {"max_per_player": 2, "until_level": 3},
        "payouts": [
            {"entries": 2, "percents": [100]},
            {"entries": 10, "percents": [50, 30, 20]},
        ],
    },
}


def by_the_clock(event: dict[str, Any]) -> bool:
    """Written by the clock driver on its own (a time call running out, a level ending): the
    only events that may appear while refused input is being sent."""
    kind = event.get("type")
    if kind == "time_call_ended":
        return event.get("outcome") == "dead"
    if kind == "level_changed":
        return event.get("by") == "clock"
    return False


class Tally:
    """Inputs tried, by kind, for the report."""

    def __init__(self, what: str) -> None:
        self.what = what
        self.counts: dict[str, int] = {}
        #: How the server answered: HTTP statuses, close codes, "result ok"...
        self.answers: dict[str, int] = {}

    def answer(self, how: object) -> None:
        key = str(how)
        self.answers[key] = self.answers.get(key, 0) + 1

    def add(self, kind: str, n: int = 1) -> None:
        self.counts[kind] = self.counts.get(kind, 0) + n

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    def report(self) -> str:
        parts = ", ".join(f"{k} {v}" for k, v in sorted(self.counts.items()))
        answers = ", ".join(f"{k}: {v}" for k, v in sorted(self.answers.items()))
        return f"fuzzed {self.total} {self.what} inputs ({parts}); answers: {answers}"


class View:
    """A tournament as the server answers ``GET /api/t/{id}``."""

    __slots__ = ("seq", "state")

    def __init__(self, seq: int, state: dict[str, Any]) -> None:
        self.seq = seq
        self.state = state

    @property
    def players(self) -> list[str]:
        return sorted(self.state["players"])

    @property
    def active(self) -> int:
        return sum(1 for p in self.state["players"].values() if not p["busted"])

    @property
    def tables(self) -> list[int]:
        return sorted(int(n) for n in self.state["tables"])


class Target:
    """The tournament under fuzz; a fresh one when play has used the current one up."""

    def __init__(self, api: Api, prefix: str) -> None:
        self.api = api
        self.prefix = prefix
        self.made = 0
        self.tid = ""
        self.view = View(0, {})
        #: Player ids and table numbers to aim valid commands at (read from the state).
        self.players: list[str] = []
        self.tables: list[int] = []
        self.fresh()

    def fresh(self) -> None:
        self.made += 1
        self.tid = f"{self.prefix}-{self.made}"
        rules = ("tda-2024", "pfp-2014", "tda-2011")[self.made % 3]
        self.api.create(self.tid, 24, rules=rules, structure=STRUCTURE)
        self.view = self.look()

    def look(self) -> View:
        r = self.api.client.get(f"/api/t/{self.tid}")
        assert r.status_code == 200, r.text
        body = json.loads(r.content)
        view = View(body["seq"], body["state"])
        self.players = view.players or ["P0001"]
        self.tables = view.tables or [1]
        return view

    def settled(self) -> View:
        """The tournament once no command is half-way through being written.

        A command still being written (the clock's, or one whose connection uvicorn has
        already answered) is in the server's copy a moment before its sequence number is (see
        test_regressions: a read sees a command before it is written): wait for it.
        """
        before = self.view
        after = self.look()
        for _ in range(40):
            if after.seq != before.seq or after.state == before.state:
                break
            time.sleep(0.025)
            after = self.look()
        return after

    def events(self, since: int) -> list[dict[str, Any]]:
        r = self.api.client.get(f"/api/t/{self.tid}/events", params={"since": since})
        assert r.status_code == 200, r.text
        return [e["event"] for e in r.json()["events"]]

    def unchanged(self, what: object) -> None:
        """Nothing but the clock changed the tournament since the last look."""
        before = self.view
        after = self.settled()
        if after.seq != before.seq:
            assert after.seq > before.seq, f"{what}: the sequence went back"
            others = [e for e in self.events(before.seq) if not by_the_clock(e)]
            assert not others, f"{what} was refused but changed the tournament: {others}"
        else:
            assert after.state == before.state, (
                f"{what} was refused but changed the state without an event "
                f"(seq {after.seq}): {_diff(before.state, after.state)}"
            )
        self.view = after

    def changed(self, outcome: dict[str, Any], what: object) -> None:
        """An accepted command: its events are in the log."""
        after = self.look()
        if not outcome.get("duplicate"):
            assert after.seq >= outcome["last"], f"{what}: accepted, but the log ends first"
        self.view = after
        used_up = after.active < 6 or after.state.get("final_table") is not None
        if used_up or len(after.state["players"]) > 150 or len(after.tables) > 30:
            self.fresh()


def _diff(a: Any, b: Any, path: str = "") -> str:
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if a.get(k) != b.get(k):
                return _diff(a.get(k), b.get(k), f"{path}.{k}")
    return f"{path or '$'}: {a!r:.200} -> {b!r:.200}"


# The server's own log -----------------------------------------------------------------------

#: An error logged as JSON (uvicorn's "Exception in ASGI application" included), or a raw
#: traceback on stderr.
_TROUBLE = re.compile(r'^\{.*"level":"(error|critical)"|^Traceback \(most recent call last\)')


class LogWatch:
    """Errors the server logged (a 500 the client never saw, a crashed task)."""

    def __init__(self, server: ServerProcess) -> None:
        self.path: Path = server.log
        self.offset = self.path.stat().st_size if self.path.exists() else 0
        #: A known error the running test may cause (and that is not floor's).
        self.allow: re.Pattern[str] | None = None

    def trouble(self) -> list[str]:
        with self.path.open("rb") as f:
            f.seek(self.offset)
            raw = f.read()
        raw = raw[: raw.rfind(b"\n") + 1]  # whole lines: the rest is still being written
        self.offset += len(raw)
        text = raw.decode(errors="replace")
        return [line for line in text.splitlines() if _TROUBLE.search(line)]

    def assert_clean(self, what: str, allow: re.Pattern[str] | None = None) -> None:
        """No error logged since the last look; ``allow``: a known one that may be."""
        allow = allow or self.allow
        found = [line for line in self.trouble() if allow is None or not allow.search(line)]
        shown = [
            line if len(line) < 3000 else line[:1500] + " ... " + line[-1500:] for line in found[:5]
        ]
        assert not found, f"{what}: the server logged errors:\n" + "\n".join(shown)


def alive(server: ServerProcess) -> None:
    assert server.proc is not None and server.proc.poll() is None, "floor serve died"
    r = httpx.get(server.base + "/healthz", timeout=5)
    assert r.status_code == 200, r.text
