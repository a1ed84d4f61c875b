"""The day forecaster on a real server: its runs played by worker processes at the lowest
priority (children of the staff process, never its loop), one forecast at a time per
tournament (a new what-if stops the one running), bad asks refused naming the field, the
records kept beside the log, the wall's line.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Iterator
from typing import Any

import httpx
import msgspec
import psutil
import pytest

from floor.engine.commands import ClockAdjust, Command
from floor.redisdb.connection import connect
from floor.redisdb.embedded import EmbeddedServer
from floor.redisdb.forecasts import RedisForecasts
from floor.redisdb.log import RedisLog
from floor.server.tournament_setup import NewTournament, tournament_setup
from floor.store.service import Service
from tests.e2e.conftest import Api, ServerProcess, add_user, sign_in

DIRECTOR = ("boss", "director-secret")
FLOOR = ("fred", "floor-secret")


@pytest.fixture(scope="module")
def server(
    valkey: EmbeddedServer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServerProcess]:
    logs = tmp_path_factory.mktemp("forecast-logs")
    add_user(valkey.url, *DIRECTOR, "director")
    add_user(valkey.url, *FLOOR, "floor")
    proc = ServerProcess(valkey.url, logs / "server.log", (), FLOOR_FORECAST_WORKERS="1")
    proc.start()
    try:
        yield proc
    finally:
        proc.stop()


@pytest.fixture(scope="module")
def director(server: ServerProcess) -> Iterator[Api]:
    api = Api(server, sign_in(server, *DIRECTOR))
    yield api
    api.client.close()


def register(api: Api, tid: str, players: int) -> None:
    r = api.client.post(
        "/api/tournaments",
        json={"id": tid, "name": tid, "config": "pfp-2014-main-event"},
    )
    assert r.status_code == 201, r.text
    for first in range(0, players, 1000):
        entries = [
            {"name": f"Player {i}", "player": f"P{i}"}
            for i in range(first, min(players, first + 1000))
        ]
        api.ok(tid, {"type": "register_many", "entries": entries})
    api.ok(tid, {"type": "draw_seats"})
    api.ok(tid, {"type": "clock_start"})


@pytest.fixture(scope="module")
def big(director: Api) -> str:
    """A field whose forecast of a thousand runs takes a worker some seconds."""
    register(director, "fc-big", 3000)
    return "fc-big"


@pytest.fixture(scope="module")
def small(director: Api) -> str:
    register(director, "fc-small", 60)
    return "fc-small"


def job(api: Api, tid: str, job_id: str) -> dict[str, Any]:
    r = api.client.get(f"/api/t/{tid}/forecast/jobs/{job_id}")
    assert r.status_code == 200, r.text
    result: dict[str, Any] = r.json()
    return result


def finished(api: Api, tid: str, job_id: str, timeout: float = 120.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = job(api, tid, job_id)
        if state["state"] != "running":
            return state
        time.sleep(0.2)
    raise AssertionError(f"job {job_id} still running after {timeout} s")


def test_a_forecast_is_played_by_workers_off_the_loop_at_the_lowest_priority(
    director: Api, server: ServerProcess, small: str
) -> None:
    r = director.client.post(f"/api/t/{small}/forecast", json={"runs": 100})
    assert r.status_code == 202, r.text
    done = finished(director, small, r.json()["id"])
    assert done["state"] == "done"
    assert done["played"] == 100
    forecast = done["forecast"]
    assert forecast["runs"] == 100 and forecast["complete"] is True
    # Every figure the director asked for, as percentiles.
    for key in ("money", "final_table"):
        p10, p50, p90 = forecast[key]["at"]
        assert p10 is not None and p10 <= p50 <= p90
    assert forecast["day_end"]["by"] == {"winner": 1.0}  # a tournament played to the end
    assert forecast["players"] and forecast["dealers"] and forecast["tables_breaking"]
    # The runs were played in a child of the server at niceness 19, not in the server.
    assert assert_workers(server, done["workers"])
    view = director.client.get(f"/api/t/{small}/forecast").json()
    assert view["current"]["made_at"] == forecast["made_at"]
    # The forecast made at the level is kept for it (one per level), beside the truth.
    assert [row["level"] for row in view["checked"]] == [1]


def assert_workers(server: ServerProcess, workers: list[list[int]]) -> bool:
    assert server.proc is not None
    children = {p.pid for p in psutil.Process(server.proc.pid).children(recursive=True)}
    assert workers, "no worker named"
    for pid, nice in workers:
        assert pid != server.proc.pid
        assert pid in children, "the runs were not played by the server's own worker"
        assert nice == 19
        assert psutil.Process(pid).nice() == 19
        # Below every nice process too: it runs only on a core nothing else wants.
        assert os.sched_getscheduler(pid) == os.SCHED_IDLE
    # The server itself runs as started (the tests may be run niced): only its workers drop.
    assert psutil.Process(server.proc.pid).nice() < 19
    return True


def test_a_new_what_if_stops_the_one_running_and_the_server_answers_meanwhile(
    director: Api, server: ServerProcess, big: str
) -> None:
    first = director.client.post(
        f"/api/t/{big}/forecast", json={"runs": 1000, "what_if": {"level_minutes": 20}}
    )
    assert first.status_code == 202, first.text
    first_id = first.json()["id"]
    # The first runs come back while the server keeps answering: its loop is free.
    deadline = time.monotonic() + 60
    answered = 0
    while time.monotonic() < deadline:
        assert httpx.get(server.base + "/healthz", timeout=5).status_code == 200
        answered += 1
        state = job(director, big, first_id)
        if state["played"] > 0:
            break
        time.sleep(0.1)
    assert state["state"] == "running", state
    assert answered > 0
    second = director.client.post(
        f"/api/t/{big}/forecast", json={"runs": 50, "what_if": {"close_late_registration": True}}
    )
    assert second.status_code == 202, second.text
    stopped = finished(director, big, first_id)
    assert stopped["state"] == "cancelled"
    assert stopped["played"] < 1000
    done = finished(director, big, second.json()["id"])
    assert done["state"] == "done"
    # A what-if comes with the day as it stands, the same luck run for run.
    assert done["forecast"]["what_if"] == {"close_late_registration": True}
    assert done["baseline"]["what_if"] is None
    assert done["baseline"]["seed"] == done["forecast"]["seed"]
    assert done["forecast"]["entries_expected"] == [0, 0, 0]
    view = director.client.get(f"/api/t/{big}/forecast").json()
    assert view["job"]["id"] == done["id"]


@pytest.mark.parametrize(
    ("ask", "field"),
    [
        ({"what_if": {"level_minutes": 0}}, "what_if.level_minutes"),
        ({"what_if": {"level_minutes": 600}}, "what_if.level_minutes"),
        ({"what_if": {"levels": 9}}, "what_if.levels"),
        ({"what_if": {"levels": 0}}, "what_if.levels"),
        ({"what_if": {"levels": -30}}, "what_if.levels"),
        ({"what_if": {"day_end_at": 1.0}}, "what_if.day_end_at"),
        ({"what_if": {}}, "what_if"),
        ({"what_if": {"levels": 1, "level_minutes": 20}}, "what_if"),
        ({"runs": 5000}, "runs"),
        ({"runs": 1}, "runs"),
        ({"corrections": {"busts_per_table_hour": 0}}, "corrections.busts_per_table_hour"),
        ({"corrections": {"late_entries": -1}}, "corrections.late_entries"),
        ({"what_if": {"minutes": 20}}, "what_if"),
    ],
)
def test_a_bad_ask_is_refused_naming_the_field_and_starts_nothing(
    director: Api, small: str, ask: dict[str, Any], field: str
) -> None:
    before = director.client.get(f"/api/t/{small}/forecast").json()["job"]
    r = director.client.post(f"/api/t/{small}/forecast", json=ask)
    assert 400 <= r.status_code < 500, r.text
    error = r.json()["error"]
    assert error["field"] == field, error
    assert field.rsplit(".", 1)[-1] in error["message"] or field == "what_if"
    after = director.client.get(f"/api/t/{small}/forecast").json()["job"]
    assert (after or {}).get("id") == (before or {}).get("id")


def test_only_the_director_asks_and_the_floor_reads(server: ServerProcess, small: str) -> None:
    floor = httpx.Client(base_url=server.base, headers=sign_in(server, *FLOOR))
    r = floor.post(f"/api/t/{small}/forecast", json={"runs": 10})
    assert r.status_code == 403
    assert floor.get(f"/api/t/{small}/forecast").status_code == 200
    assert httpx.get(f"{server.base}/api/t/{small}/forecast").status_code in (401, 403)
    floor.close()


def test_the_wall_line_is_shown_when_the_director_chooses(
    director: Api, server: ServerProcess, small: str
) -> None:
    wall = f"{server.base}/api/t/{small}/forecast/wall"
    if director.client.get(f"/api/t/{small}/forecast").json()["current"] is None:
        r = director.client.post(f"/api/t/{small}/forecast", json={"runs": 50})
        finished(director, small, r.json()["id"])
    assert httpx.get(wall).json() == {"shown": False}
    r = director.client.put(f"/api/t/{small}/forecast/settings", json={"wall": True})
    assert r.status_code == 200, r.text
    line = httpx.get(wall).json()
    assert line["shown"] is True and line["what"] == "money"
    current = director.client.get(f"/api/t/{small}/forecast").json()["current"]
    assert line["at"] == current["money"]["at"][1]
    # One tap hides it: a setting beside the forecasts, no event in the log.
    seq = int(httpx.head(f"{server.base}/api/t/{small}").headers["floor-seq"])
    director.client.put(f"/api/t/{small}/forecast/settings", json={"wall": False})
    assert httpx.get(wall).json() == {"shown": False}
    assert int(httpx.head(f"{server.base}/api/t/{small}").headers["floor-seq"]) == seq
    bad = director.client.put(f"/api/t/{small}/forecast/settings", json={"dealers_per_table": 0.5})
    assert bad.status_code == 422 and bad.json()["error"]["field"] == "dealers_per_table"


def test_the_export_sets_each_kept_forecast_beside_what_happened(director: Api, small: str) -> None:
    r = director.client.get(f"/api/t/{small}/export/forecasts.csv")
    assert r.status_code == 200
    # Written as every export is (exports.cells): a byte order mark so Excel reads UTF-8.
    assert r.text.startswith("\ufeff")
    lines = r.text.lstrip("\ufeff").strip().splitlines()
    assert lines[0].startswith("level,on_break,made_at,players_left,money_p10,money_p50,money_p90")
    assert lines[1].startswith("1,no,")


async def _written_elsewhere(url: str, tid: str, players: int) -> int:
    """A tournament made and started by another staff process (this test's own store): the
    server under test never loaded it and no screen is open on it. Its first level is cut to
    a few seconds left; the level the server's clock driver changes it to is returned."""
    redis = connect(url)
    try:
        store = Service(RedisLog(redis))
        rules, structure, name = tournament_setup(
            NewTournament(id=tid, name=tid, config="pfp-2014-main-event")
        )
        await store.create(tid, name, rules, structure)
        entries = [{"name": f"Player {i}", "player": f"P{i}"} for i in range(players)]
        for command in (
            {"type": "register_many", "entries": entries},
            {"type": "draw_seats"},
            {"type": "clock_start"},
        ):
            outcome = await store.execute(tid, msgspec.convert(command, Command))
            assert outcome.ok, outcome
        t, _ = await store.tournament(tid)
        assert t.state.clock.ends_at is not None
        left = t.state.clock.ends_at - time.time()
        outcome = await store.execute(tid, ClockAdjust(seconds=-(left - 2)))
        assert outcome.ok, outcome
        return t.state.clock.level + 1
    finally:
        await redis.aclose()


async def _kept(url: str, tid: str) -> set[int]:
    redis = connect(url)
    try:
        return set(await RedisForecasts(redis).kept(tid))
    finally:
        await redis.aclose()


def test_a_level_changed_by_the_clock_gets_its_forecast_with_no_screen_open(
    valkey: EmbeddedServer, server: ServerProcess
) -> None:
    tid = "fc-unwatched"
    level = asyncio.run(_written_elsewhere(valkey.url, tid, 60))
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        kept = asyncio.run(_kept(valkey.url, tid))
        if level in kept:
            break
        time.sleep(0.5)
    # The clock driver saw the level change and told the forecaster, which made and kept the
    # new level's forecast; the first level, which nobody looked at, has none.
    assert kept == {level}
