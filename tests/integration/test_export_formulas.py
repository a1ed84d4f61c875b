"""No file floor writes for a spreadsheet runs a formula, whatever the names, ids, countries,
notes and bag labels hold: every export route of the app, found from its route tables, is
fed hostile text and every cell it writes is read back.

A route counts as an export when its path says so (``/export/``, ``.csv`` and the like) or
when it answers a spreadsheet (by its type or its file name): a new one is read here by
itself, or fails the test until it is. ``counts.csv`` wrote names and bag labels raw, and
the other exports let the full-width signs through.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import AsyncIterator
from typing import Any

import httpx
import msgspec
import pytest_asyncio
import redis.asyncio as aioredis
from starlette.applications import Starlette
from starlette.routing import BaseRoute, Mount, Route

from floor.engine.house.dealers_commands import SaveDealer, SignIn, SignOut
from floor.engine.prize import PayoutRow, Prize
from floor.engine.rules import Level, Rules, Structure
from floor.exports.cells import text
from floor.server.context import Floor
from floor.server.settings import Settings
from floor.server.wiring import create_app

RULES = msgspec.convert({"game": "holdem", "seats": 10, "final_table": 10}, Rules)
STRUCTURE = Structure(
    name="hostile",
    starting_stack=20_000,
    chips=(100, 500, 1_000),
    levels=tuple(Level(small_blind=100 * n, big_blind=200 * n, minutes=60) for n in range(1, 8)),
    prize=Prize(currency="EUR", buy_in=100, payouts=(PayoutRow(entries=3, percents=(50, 30, 20)),)),
)
SECRET = "director secret 1"

#: What a spreadsheet runs: the signs, after spaces of every kind, and their full-width forms.
HOSTILE = (
    "=1+1",
    "@cmd",
    "+1 (555) 0100",
    "-2+3",
    "\uff1d1+1",
    "\uff0b1",
    "\uff0d1",
    "\uff20cmd",
    "  =1+1",
    "\u3000=1+1",
    "\xa0@x",
    "\t=1+1",
    "\r=1+1",
    ' =HYPERLINK("http://x")',
)

#: Export routes that are not spreadsheets, and why none is read as one.
NOT_SPREADSHEETS = {
    "/api/t/{tid}/export/log": "the log floor import reads back: JSON lines, not cells",
}
#: Spreadsheets whose every cell floor makes itself (numbers, times, yes and no): no text
#: anybody typed reaches them, so there is nothing hostile to feed them; they are still read
#: and checked for formulas like every other.
NO_TYPED_TEXT = {
    "/api/t/{tid}/export/forecasts.csv": "forecasts beside what happened: levels, times, counts",
}

#: What a spreadsheet reads as the start of a formula, once it has skipped white space.
_SIGNS = frozenset("=+-@\t\r\uff1d\uff0b\uff0d\uff20")


def runs_as_formula(cell: str) -> bool:
    """Whether a spreadsheet opening the file runs ``cell`` (this test's own reading)."""
    return cell[:1] in ("\t", "\r") or cell.lstrip()[:1] in _SIGNS


_SPREADSHEET_TYPES = (
    "text/csv",
    "text/tab-separated-values",
    "application/vnd.ms-excel",
    "application/vnd.openxmlformats-officedocument.spreadsheetml",
    "application/vnd.oasis.opendocument.spreadsheet",
)
_EXPORT_PATH = re.compile(r"/export/|\.(csv|tsv|xlsx?|ods)$")
_SPREADSHEET_NAME = re.compile(r'filename="?[^";]*\.(csv|tsv|xlsx?|ods)"?')


def test_a_cell_that_a_spreadsheet_would_run_is_written_as_text() -> None:
    for value in HOSTILE:
        assert runs_as_formula(value), repr(value)
        assert text(value) == "'" + value
        assert not runs_as_formula(text(value))
    for value in ("Novák", "5", "Jan -1", "a=b", "", "  ", "'=kept"):
        assert not runs_as_formula(value) and text(value) == value


def routes(app: Starlette) -> list[tuple[str, frozenset[str]]]:
    """Every HTTP route of ``app``: its path and methods, mounts included."""
    out: list[tuple[str, frozenset[str]]] = []

    def walk(items: list[BaseRoute], prefix: str) -> None:
        for r in items:
            if isinstance(r, Mount):
                walk(list(r.routes or []), prefix + r.path)
            elif isinstance(r, Route):
                out.append((prefix + r.path, frozenset(r.methods or ())))

    walk(list(app.routes), "")
    return out


def params(path: str) -> set[str]:
    return set(re.findall(r"{(\w+)(?::\w+)?}", path))


def spreadsheet(response: httpx.Response) -> bool:
    kind = response.headers.get("content-type", "")
    named = _SPREADSHEET_NAME.search(response.headers.get("content-disposition", ""))
    return kind.startswith(_SPREADSHEET_TYPES) or named is not None


def cells(response: httpx.Response) -> list[str]:
    """Every cell of a CSV (or tab-separated) answer."""
    body = response.content.decode("utf-8-sig")
    dialect = "excel-tab" if "tab-separated" in response.headers["content-type"] else "excel"
    return [c for row in csv.reader(io.StringIO(body, newline=""), dialect) for c in row]


@pytest_asyncio.fixture
async def app(redis: aioredis.Redis, redis_url: str) -> AsyncIterator[Starlette]:
    application = create_app(Settings(redis_url=redis_url, rate_limit=0))
    async with application.router.lifespan_context(application):
        yield application


def client(app: Starlette, token: str | None = None) -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app=app, client=("127.0.0.1", 5000))
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8000", headers=headers)


async def send(http: httpx.AsyncClient, tid: str, command: dict[str, Any]) -> httpx.Response:
    return await http.post(f"/api/t/{tid}/commands", json={"command": command})


async def register_hostile(http: httpx.AsyncClient, tid: str) -> list[str]:
    """Ten players whose names, ids, countries and notes are hostile wherever the rules
    take them (a name loses its leading spaces; an id may not have any); their ids."""
    ids = []
    for i in range(10):
        value = HOSTILE[i % len(HOSTILE)]
        for pid in (value, f"{value}{i}", f"P{i}"):
            command = {
                "type": "register",
                "name": f"{HOSTILE[(i + 3) % len(HOSTILE)]} {i}",
                "player": pid,
                "country": HOSTILE[(i + 5) % len(HOSTILE)],
                "note": HOSTILE[(i + 7) % len(HOSTILE)],
            }
            r = await send(http, tid, command)
            if r.status_code == 200:
                ids.append(pid)
                break
            assert r.status_code in (409, 422), r.text
        else:
            raise AssertionError(f"player {i} could not be registered")
    r = await send(http, tid, {"type": "draw_seats"})
    assert r.status_code == 200, r.text
    return ids


async def hostile_tournaments(app: Starlette, http: httpx.AsyncClient) -> list[str]:
    """A tournament played to its winner (the results, the payouts) and a flight whose day
    ended with every bag labelled (the counts)."""
    floor: Floor = app.state.floor
    await floor.store.create("finished", "Finished", RULES, STRUCTURE)
    ids = await register_hostile(http, "finished")
    for pid in ids[1:]:
        r = await send(http, "finished", {"type": "bust", "player": pid})
        assert r.status_code == 200, r.text

    await floor.store.create("flight", "Day 1A", RULES, STRUCTURE)
    r = await send(http, "flight", {"type": "set_flight", "event": "main", "order": 1})
    assert r.status_code == 200, r.text
    ids = await register_hostile(http, "flight")
    r = await send(http, "flight", {"type": "end_day", "now": True})
    assert r.status_code == 200, r.text
    bags = [
        {"player": pid, "stack": 20_000, "bag": HOSTILE[i % len(HOSTILE)][:18] + str(i)}
        for i, pid in enumerate(ids)
    ]
    r = await send(http, "flight", {"type": "bag_table", "table": 1, "bags": bags})
    assert r.status_code == 200, r.text
    return ["finished", "flight"]


async def hostile_dealers(app: Starlette) -> None:
    """Dealers with hostile names and ids (a username may start with '-'), each with a down
    at a table of the finished tournament: the downs sheet names them."""
    floor: Floor = app.state.floor
    for i, value in enumerate(HOSTILE[:6]):
        dealer = f"-{i}" if i % 2 else f"d{i}"
        save = SaveDealer(dealer=dealer, name=value, games=("holdem",))
        await floor.dealers.execute(save, f"hostile-dealer-{i}")
        await floor.dealers.execute(
            SignIn(dealer=dealer, tournament="finished", table=1), f"hostile-in-{i}"
        )
    await floor.dealers.execute(SignOut(tournament="finished", table=1), "hostile-out")


async def test_every_export_route_writes_hostile_text_as_cells_no_spreadsheet_runs(
    app: Starlette, redis_url: str
) -> None:
    floor: Floor = app.state.floor
    await floor.accounts.add("boss", SECRET, "director")
    async with client(app) as anonymous:
        r = await anonymous.post("/api/signin", json={"username": "boss", "secret": SECRET})
        assert r.status_code == 200, r.text
        token = r.json()["token"]
    async with client(app, token) as director:
        tids = await hostile_tournaments(app, director)
    await hostile_dealers(app)

    # The public edge has route tables of its own: both are read, the edge as the public.
    edge = create_app(Settings(redis_url=redis_url, rate_limit=0, serves="public"))
    async with edge.router.lifespan_context(edge):
        apps = [(app, token, "staff"), (edge, None, "edge")]
        read: dict[str, set[str]] = {}
        for application, as_who, where in apps:
            async with client(application, as_who) as http:
                for path, methods in routes(application):
                    named = _EXPORT_PATH.search(path) is not None
                    if "GET" not in methods or not params(path) <= {"tid"}:
                        assert not named, (
                            f"{path} ({where}) looks like an export this test cannot read: "
                            "give it a fixture here"
                        )
                        continue
                    for tid in tids:
                        r = await http.get(path.replace("{tid}", tid))
                        if not spreadsheet(r):
                            assert (
                                not named
                                or path in NOT_SPREADSHEETS
                                or r.status_code
                                in (
                                    401,
                                    403,
                                )
                            ), f"{path} ({where}) answered {r.status_code} {r.text[:200]}"
                            continue
                        assert path not in NOT_SPREADSHEETS, f"{path} answers a spreadsheet"
                        written = cells(r)
                        live = [c for c in written if runs_as_formula(c)]
                        assert not live, f"{path} ({where}, {tid}) writes formulas: {live}"
                        read.setdefault(f"{where} {path}", set()).update(
                            c for c in written if c.startswith("'")
                        )

    # Every export read, and each was fed text it had to neutralise (else it proved nothing).
    assert read, "no export route found"
    for route, neutralised in read.items():
        if route.split(" ", 1)[1] in NO_TYPED_TEXT:
            continue
        assert neutralised, f"{route}: none of the hostile text reached it"
    staff_routes = {r.split(" ", 1)[1] for r in read if r.startswith("staff ")}
    assert {
        "/api/t/{tid}/export/results.csv",
        "/api/t/{tid}/export/hendon.csv",
        "/api/t/{tid}/export/payouts.csv",
        "/api/t/{tid}/results.csv",
        "/api/t/{tid}/counts.csv",
        "/api/dealers/downs.csv",
    } <= staff_routes
    # The bag labels as written (spaces and a tab before the sign), the full-width forms.
    counts = read["staff /api/t/{tid}/counts.csv"]
    assert {"'=1+10", "'\uff20cmd7", "'  =1+18", "'\u3000=1+19"} <= counts
    everything = set().union(*read.values())
    assert {"'\uff1d1+1", "'\uff0b1", "'\uff0d1", "'\uff20cmd"} <= everything
