"""Every route at its worst case, against a real ``floor serve`` whose event loop is watched.

The routes come from the application itself (``worst_cases.route_keys``): a route added
without a worst case here fails the first test. Each probe sends a route the most it accepts
in a room of 10,000 players (and a flight of 10,000 bagged): the largest bodies, 100,000
entries, the hostile spreadsheets, zip and dimension bombs, and what it must refuse, whose
4xx must name the field. Meanwhile the watchdog (``loop_watch``) times every stretch the
server's loop computes without a break, in CPU time of its own thread: none may pass
``LIMIT``, one second times ``FLOOR_TEST_TIMEOUT_FACTOR``. Before issue 24 a standard payout
table held it 6.2 s, a shared-strings bomb 36 s, a list's preview minutes.

Then one test per finding of issue 24, each failing on the code before it: the payout table,
the spreadsheets read in a worker (its process id in the log, the server's memory kept), the
public answers built once per version, and the clock writing its level changes while a
command of 17 s of the engine is decided.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import psutil
import pytest
import redis

from floor import signing
from floor.engine.events import LevelChanged
from floor.protocol import decode_event
from floor.redisdb.embedded import EmbeddedServer
from floor.redisdb.keys import Keys
from tests import hostile_files
from tests.e2e import worst_cases
from tests.e2e.conftest import add_user
from tests.e2e.loop_watch import Hold, WatchedServer
from tests.e2e.worst_rooms import CLOCK, ROOM, build
from tests.timing import scaled

#: The most CPU time one callback may hold the server's loop for.
LIMIT = scaled(1.0)


@pytest.fixture(scope="module")
def rooms(valkey: EmbeddedServer) -> dict[str, int]:
    return asyncio.run(build(valkey.url))


@pytest.fixture(scope="module")
def server(
    valkey: EmbeddedServer, rooms: dict[str, int], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[WatchedServer]:
    add_user(valkey.url, "boss", "director-secret", "director")
    add_user(valkey.url, "fred", "floor-secret", "floor")
    # The venue signs: its signed results and key list are probed with the rest.
    keys = tmp_path_factory.mktemp("worst-keys")
    signing.new_key(keys, time.time())
    proc = WatchedServer(
        valkey.url,
        tmp_path_factory.mktemp("worst") / "server.log",
        least=0.05,
        FLOOR_SIGNING_KEY=str(keys / signing.KEY_FILE),
    )
    proc.start(timeout=scaled(60))
    try:
        yield proc
    finally:
        proc.stop()


@pytest.fixture(scope="module")
def world(server: WatchedServer) -> worst_cases.World:
    tokens = []
    for name, secret in (("boss", "director-secret"), ("fred", "floor-secret")):
        r = httpx.post(f"{server.base}/api/signin", json={"username": name, "secret": secret})
        assert r.status_code == 200, r.text
        tokens.append(r.json()["token"])
    return worst_cases.World(server.base, *tokens, worst_cases.Files.make())


def held(holds: list[Hold]) -> list[Hold]:
    return [h for h in holds if h.cpu > LIMIT]


def shown(holds: list[Hold]) -> str:
    return "; ".join(f"{h.cpu:.2f} s of CPU at {h.where}" for h in holds)


def test_every_route_of_the_application_has_a_worst_case() -> None:
    routes, probed = worst_cases.route_keys(), set(worst_cases.PROBES)
    assert not routes - probed, f"no worst case in worst_cases.py for {sorted(routes - probed)}"
    assert not probed - routes, f"worst cases of routes that are gone: {sorted(probed - routes)}"


class LevelChanges:
    """The clock tournament's level changes as they are written: (due, written)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.seen: list[tuple[float, float]] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._read, daemon=True)

    def _read(self) -> None:
        client = redis.Redis.from_url(self.url)
        key = Keys(CLOCK).events
        last = client.xinfo_stream(key)["last-generated-id"]
        while not self.stop.is_set():
            for _, entries in client.xread({key: last}, block=200) or []:
                written = time.time()
                for entry_id, fields in entries:
                    last = entry_id
                    event = decode_event(fields[b"e"])
                    if isinstance(event, LevelChanged) and event.by == "clock":
                        self.seen.append((event.at, written))


def test_the_clock_writes_each_level_change_while_a_long_command_is_decided(
    server: WatchedServer, world: worst_cases.World, valkey: EmbeddedServer
) -> None:
    """A list of 900 entries into a room of 10,000 with its 2,253 moves still planned is
    17 s of the engine (first of the tests here: the probes carry the moves out). The level
    changes of another tournament due meanwhile were written when it was done, all at once,
    and the clock's lease could lapse; now each is written as it comes due, before the
    next."""
    changes = LevelChanges(valkey.url)
    changes.thread.start()
    headers = world.headers("director")
    try:
        r = httpx.post(
            f"{server.base}/api/t/{CLOCK}/commands",
            json={"command": {"type": "clock_start"}},
            headers=headers,
        )
        assert r.status_code == 200, r.text
        entries = worst_cases._entries(world.unique("C"), worst_cases.MAX_BODY - 1_000)
        start = time.time()
        r = httpx.post(
            f"{server.base}/api/t/{ROOM}/commands",
            json={"command": {"type": "register_many", "entries": entries}},
            headers=headers,
            timeout=scaled(300),
        )
        end = time.time()
        assert r.status_code == 200, r.text
        time.sleep(1.5)
    finally:
        changes.stop.set()
        changes.thread.join(5)
    due = sorted(c for c in changes.seen if start <= c[0] <= end)
    assert len(due) >= 2, f"the command took {end - start:.1f} s: too short to tell"
    (first_due, first_written), (last_due, _) = due[0], due[-1]
    assert first_written < last_due, (
        f"the change due at +{first_due - start:.1f} s was written at "
        f"+{first_written - start:.1f} s, after the one due at +{last_due - start:.1f} s"
    )
    assert not held(server.holds.between(start, end))


@pytest.mark.parametrize("key", worst_cases.order())
async def test_the_worst_case_of(key: str, server: WatchedServer, world: worst_cases.World) -> None:
    start = time.time()
    await worst_cases.run(world, key)
    holds = held(server.holds.between(start, time.time()))
    assert not holds, f"{key}: the loop was held: {shown(holds)}"


def metric(server: WatchedServer, token: str, name: str) -> dict[str, float]:
    """The samples of the counter ``name``, by their one label's value."""
    text = httpx.get(f"{server.base}/metrics", headers={"Authorization": f"Bearer {token}"}).text
    out = {}
    for line in text.splitlines():
        if line.startswith(name + "{"):
            label, value = line[len(name) + 1 :].split("} ")
            out[label.split('"')[1]] = float(value)
    return out


def test_a_payout_table_of_100000_entries_is_refused_before_it_is_built(
    server: WatchedServer,
) -> None:
    """It cost 6.2 s of the loop and answered 27.8 MB, for anyone who asked."""
    r = httpx.get(f"{server.base}/api/payouts/standard", params={"entries": 100_000, "paid": 50})
    assert r.status_code == 422
    error = r.json()["error"]
    assert error["field"] == "entries"
    assert error["reason"] == "payout_table_too_large"
    assert error["params"]["places"] == 5_559_517
    fits = error["params"]["most_entries"]
    r = httpx.get(f"{server.base}/api/payouts/standard", params={"entries": fits, "paid": 50})
    assert r.status_code == 200
    assert sum(len(row["percents"]) for row in r.json()["payouts"]) <= error["params"]["most"]


def rss(server: WatchedServer) -> int:
    return int(psutil.Process(server.pid).memory_info().rss)


def test_spreadsheet_bombs_are_refused_and_the_server_keeps_no_memory(
    server: WatchedServer, world: worst_cases.World
) -> None:
    """A shared-strings bomb froze the server 36 s and took it from 213 to 640 MB for good;
    a row of 200,000 cells froze it 6.8 s."""
    headers = world.headers("director")
    before = rss(server)
    start = time.time()
    for bomb, reason in (
        (hostile_files.shared_strings_bomb(), "import_sheet_too_large"),
        (hostile_files.wide_row(), "import_row_too_wide"),
        (hostile_files.zip_bomb(), "import_sheet_too_large"),
    ):
        r = httpx.post(
            f"{server.base}/api/t/{ROOM}/import", content=bomb, headers=headers, timeout=120
        )
        assert r.status_code == 422, r.text
        assert r.json()["error"]["field"] == "file"
        assert r.json()["error"]["reason"] == reason
        assert "as CSV" in r.json()["error"]["message"]
    assert not held(server.holds.between(start, time.time()))
    assert rss(server) - before < 64 * 1024 * 1024


def test_a_sheet_is_read_by_a_process_of_its_own(
    server: WatchedServer, world: worst_cases.World
) -> None:
    r = httpx.post(
        f"{server.base}/api/t/{ROOM}/import",
        content=hostile_files.honest_xlsx(),
        headers=world.headers("director"),
        timeout=120,
    )
    assert r.status_code == 200, r.text
    assert r.json()["total"] == 10_000
    reads = [
        record
        for line in server.log.read_text().splitlines()
        if line.startswith("{") and (record := json.loads(line)).get("msg") == "list read"
    ]
    assert reads, "the server logged no list read"
    assert all(read["worker"] != server.pid for read in reads)
    assert reads[-1]["kind"] == "xlsx"


def test_public_answers_are_built_once_per_version(
    server: WatchedServer, world: worst_cases.World
) -> None:
    """``/api/schema`` (35 ms), ``/events?since=`` (30 ms), the rulebook (12 ms), the results
    and the night's counts were built afresh for every request."""
    seq = httpx.head(f"{server.base}/api/t/{ROOM}/snapshot").headers["floor-seq"]
    reads = {
        "schema": "/api/schema",
        "rulebook": "/api/rulebook?q=button",
        "events": f"/api/t/{ROOM}/events?since={int(seq) - 100}",
        "prizes": f"/api/t/{ROOM}/prizes",
        "results.csv": f"/api/t/{ROOM}/results.csv",
        "export/hendon.csv": f"/api/t/{ROOM}/export/hendon.csv",
        "counts": "/api/t/flight/counts",
        "counts.csv": "/api/t/flight/counts.csv",
        # The open read API: each document once per version, the feed once per page.
        "open:seats": f"/api/open/v1/t/{ROOM}/seats",
        "open:counts": f"/api/open/v1/t/{ROOM}/counts",
        "open:results": f"/api/open/v1/t/{ROOM}/results",
        "open:ots": f"/api/open/v1/t/{ROOM}/ots.json",
        "open:changes": f"/api/open/v1/t/{ROOM}/changes?since={int(seq) - 100}",
    }
    token = world.director
    before = metric(server, token, "floor_answers_built_total")
    for _ in range(3):
        for path in reads.values():
            assert httpx.get(server.base + path).status_code == 200, path
    after = metric(server, token, "floor_answers_built_total")
    assert httpx.head(f"{server.base}/api/t/{ROOM}/snapshot").headers["floor-seq"] == seq
    for kind in reads:
        assert kind in after, f"{kind}: no builds counted"
        assert after[kind] - before.get(kind, 0) <= 1, f"{kind} built for each request"


def test_no_callback_held_the_loop_while_the_worst_cases_ran(server: WatchedServer) -> None:
    holds = held(server.holds.read())
    assert not holds, f"the loop was held: {shown(holds)}"
    assert Path(server.report).exists()
