"""Every route of the application at its worst case: ``PROBES``, one per route.

A probe sends what costs a route the most that it accepts (the 10,000-player rooms of
``worst_rooms``, the largest body, the most entries, the hostile spreadsheets) and what it
must refuse (over each bound: a 4xx naming the field), and checks each answer. The routes
are read from the application (``route_keys``), so a route added without a probe here is
known: ``tests/e2e/test_worst_case.py`` fails for it. ``bench/loop_watchdog.py`` runs the same
probes and prints what each cost the server's event loop.

A probe's key is ``METHOD path`` as the route table has it (``GET /api/t/{tid}``), a
websocket's ``WS path``, and each message a client may send on it ``WS path type``.
"""

from __future__ import annotations

import asyncio
import base64
import itertools
import json
import os
import time
import typing
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from starlette.routing import Mount, Route, WebSocketRoute
from websockets.asyncio.client import ClientConnection, connect

from floor.engine.alternates_model import MAX_LINE
from floor.engine.calc.payout_curve import percents
from floor.engine.read.seat_pass import MOST as SEAT_CODE
from floor.server.push import MAX_BODY as PUSH_BODY
from floor.server.push import MAX_ENDPOINT
from floor.server.routes_push import MOST_TABLES
from floor.server.tablets import MAX_TABLE
from floor.server.walls import MOST_IMAGE as WALL_IMAGE
from floor.server.walls import WallPage
from floor.store.push_port import MOST_PER_OWNER
from tests import hostile_files
from tests.e2e.worst_rooms import DEALERS, FLIGHT, ROOM, SPARE

WALL_PAGES = typing.get_args(WallPage)
#: Generous: on the landed code the shared-strings bomb held the server for 36 s.
TIMEOUT = 180.0
#: The largest body a command or a new tournament may have (FLOOR_MAX_BODY's default).
MAX_BODY = 65_536


@dataclass
class Files:
    """The lists and sheets the import probes send, made once."""

    shared_strings_bomb: bytes = b""
    wide_row: bytes = b""
    zip_bomb: bytes = b""
    dimension_bomb: bytes = b""
    honest_xlsx: bytes = b""
    honest_csv: bytes = b""
    widest_csv: bytes = b""

    @classmethod
    def make(cls) -> Files:
        # 10,000 rows of 64 short cells: every cell a list may bring, about 1.4 MB.
        widest = "".join(
            ";".join([f"Player {i}", f"C{i}", *(f"x{j}" for j in range(62))]) + "\n"
            for i in range(10_000)
        ).encode()
        return cls(
            shared_strings_bomb=hostile_files.shared_strings_bomb(),
            wide_row=hostile_files.wide_row(),
            zip_bomb=hostile_files.zip_bomb(),
            dimension_bomb=hostile_files.dimension_bomb(),
            honest_xlsx=hostile_files.honest_xlsx(),
            honest_csv=hostile_files.honest_csv(),
            widest_csv=widest,
        )


@dataclass
class World:
    """What the probes run against: a server, its staff's tokens, the files."""

    base: str
    director: str
    floor: str
    files: Files
    #: False (the benchmark on code that may not hold): a wrong answer is noted, not raised.
    strict: bool = True
    notes: list[str] = field(default_factory=list)
    ids: itertools.count[int] = field(default_factory=itertools.count)

    @property
    def ws(self) -> str:
        return "ws" + self.base.removeprefix("http")

    def headers(self, who: str | None) -> dict[str, str]:
        token = {"director": self.director, "floor": self.floor}.get(who or "")
        return {"Authorization": f"Bearer {token}"} if token else {}

    def expect(self, r: httpx.Response, status: int, field: str | None = None) -> Any:
        """The answer's JSON, after checking its status (and the field a refusal names)."""
        problem = None
        if r.status_code != status:
            problem = f"{r.status_code} (expected {status}): {r.text[:300]}"
        elif field is not None:
            error = r.json().get("error", {})
            if error.get("field") != field:
                problem = f"{status} names {error.get('field')!r}, not {field!r}: {r.text[:300]}"
        where = f"{r.request.method} {r.request.url.path}"
        if problem is not None:
            if self.strict:
                raise AssertionError(f"{where}: {problem}")
            self.notes.append(f"{where}: {problem}")
            return None
        kind = r.headers.get("content-type", "")
        return r.json() if kind.startswith("application/json") else r.content

    def unique(self, stem: str) -> str:
        return f"{stem}-{next(self.ids)}-{time.monotonic_ns() % 1_000_000}"


Probe = Callable[[World, httpx.AsyncClient], Awaitable[None]]
PROBES: dict[str, Probe] = {}


def probe(*keys: str) -> Callable[[Probe], Probe]:
    def register(run: Probe) -> Probe:
        for key in keys:
            assert key not in PROBES, key
            PROBES[key] = run
        return run

    return register


#: What a client may send on each websocket: the union its messages are decoded as.
def _socket_messages() -> dict[str, Any]:
    from floor.server import routes_follow, websocket

    return {
        "/ws/t/{tid}": websocket.ClientMessage,
        "/ws/t/{tid}/follow/{player}": routes_follow._decoder.type,
    }


def route_keys() -> set[str]:
    """Every route of the application as ``floor serve`` builds it, and every message a
    client may send on its websockets."""
    from floor.server.wiring import routes

    keys = set()
    messages = _socket_messages()
    for route in routes():
        if isinstance(route, Route):
            keys |= {f"{m} {route.path}" for m in (route.methods or {"GET"}) - {"HEAD"}}
        elif isinstance(route, WebSocketRoute):
            keys.add(f"WS {route.path}")
            union = messages.get(route.path)
            if union is None:
                keys.add(f"WS {route.path} (messages unknown: add it to _socket_messages)")
                continue
            for kind in getattr(union, "__args__", (union,)):
                keys.add(f"WS {route.path} {kind.__struct_config__.tag}")
        elif isinstance(route, Mount):
            keys.add(f"GET {route.path}/{{path}}")
        else:
            keys.add(f"{type(route).__name__} {route!r}")
    return keys


# Health, schema, configs -------------------------------------------------------------------


@probe("GET /healthz")
async def _healthz(w: World, http: httpx.AsyncClient) -> None:
    w.expect(await http.get("/healthz"), 200)


@probe("GET /metrics")
async def _metrics(w: World, http: httpx.AsyncClient) -> None:
    w.expect(await http.get("/metrics", headers=w.headers("director")), 200)
    w.expect(await http.get("/metrics"), 401)


@probe("GET /api/schema")
async def _schema(w: World, http: httpx.AsyncClient) -> None:
    for _ in range(3):
        w.expect(await http.get("/api/schema"), 200)


@probe("GET /api/config")
async def _config(w: World, http: httpx.AsyncClient) -> None:
    w.expect(await http.get("/api/config"), 200)


# Tournaments -------------------------------------------------------------------------------


def _largest_tournament(tid: str) -> dict[str, Any]:
    """A new tournament with a structure and payouts as large as a body holds."""
    levels = [
        {"type": "level", "small_blind": 25 * i, "big_blind": 50 * i, "minutes": 20}
        for i in range(1, 201)
    ]
    rows = [{"entries": 2, "percents": [100]}]
    body: dict[str, Any] = {
        "id": tid,
        "name": "A festival's main event",
        "rules": "tda-2024",
        "structure": {
            "name": "largest",
            "starting_stack": 50_000,
            "chips": [25, 100, 500, 1_000, 5_000, 25_000],
            "levels": levels,
            "prize": {"currency": "CZK", "buy_in": 1_000, "payouts": rows},
        },
    }
    places = 10
    while len(json.dumps(body)) < MAX_BODY - 4_000:
        rows.append({"entries": places * 7, "percents": list(percents(places))})
        places += 25
    rows.pop()
    return body


@probe("GET /api/tournaments", "POST /api/tournaments")
async def _tournaments(w: World, http: httpx.AsyncClient) -> None:
    w.expect(await http.get("/api/tournaments"), 200)
    w.expect(await http.get("/api/tournaments", params={"archived": "1"}), 200)
    director = w.headers("director")
    body = _largest_tournament(w.unique("big"))
    w.expect(await http.post("/api/tournaments", json=body, headers=director), 201)
    too_big = b'{"id": "x", "name": "' + b"x" * MAX_BODY + b'"}'
    w.expect(await http.post("/api/tournaments", content=too_big, headers=director), 413, "body")


@probe("GET /api/t/{tid}")
async def _snapshot(w: World, http: httpx.AsyncClient) -> None:
    # Each role's snapshot of the room, whole (2.5 MB) and gzipped.
    for who in (None, "director"):
        for encoding in ("identity", "gzip"):
            r = await http.get(
                f"/api/t/{ROOM}", headers={**w.headers(who), "accept-encoding": encoding}
            )
            w.expect(r, 200)


@probe("GET /api/t/{tid}/snapshot")
async def _start_snapshot(w: World, http: httpx.AsyncClient) -> None:
    for who in (None, "director"):
        w.expect(await http.get(f"/api/t/{ROOM}/snapshot", headers=w.headers(who)), 200)


@probe("GET /api/t/{tid}/players")
async def _players(w: World, http: httpx.AsyncClient) -> None:
    # A letter in half the names, the longest query, and one past it.
    for q in ("a", "n", "jan novák", "x" * 80):
        w.expect(await http.get(f"/api/t/{ROOM}/players", params={"q": q}), 200)
    w.expect(await http.get(f"/api/t/{ROOM}/players", params={"q": "x" * 81}), 422, "q")


@probe("GET /api/t/{tid}/events")
async def _events(w: World, http: httpx.AsyncClient) -> None:
    version = int((await http.head(f"/api/t/{ROOM}/snapshot")).headers["floor-seq"])
    # The most one read answers (5,000 events), each role; then more than that.
    for who in (None, "director"):
        since = str(max(0, version - 4_990))
        r = await http.get(f"/api/t/{ROOM}/events", params={"since": since}, headers=w.headers(who))
        w.expect(r, 200)
    w.expect(await http.get(f"/api/t/{ROOM}/events", params={"since": "0"}), 422, "since")


# The open read API ---------------------------------------------------------------------

_OPEN = "/api/open/v1"


@probe(
    "GET /api/open/v1/t/{tid}/clock",
    "GET /api/open/v1/t/{tid}/field",
    "GET /api/open/v1/t/{tid}/seats",
    "GET /api/open/v1/t/{tid}/counts",
    "GET /api/open/v1/t/{tid}/results",
    "GET /api/open/v1/t/{tid}/payouts",
    "GET /api/open/v1/t/{tid}/ots.json",
)
async def _open_documents(w: World, http: httpx.AsyncClient) -> None:
    # Each document of the 10,000-player room, whole, gzipped, and again by its ETag.
    gzip = {"Accept-Encoding": "gzip"}
    for read in ("clock", "field", "seats", "counts", "results", "payouts", "ots.json"):
        r = await http.get(f"{_OPEN}/t/{ROOM}/{read}", headers=gzip)
        w.expect(r, 200)
        again = {"If-None-Match": r.headers.get("etag", ""), **gzip}
        w.expect(await http.get(f"{_OPEN}/t/{ROOM}/{read}", headers=again), 304)
    # The widget's leaders: the five biggest stacks of the room, and past the most asked.
    w.expect(await http.get(f"{_OPEN}/t/{ROOM}/counts", params={"top": "5"}), 200)
    w.expect(await http.get(f"{_OPEN}/t/{ROOM}/counts", params={"top": "101"}), 400, "top")
    for read in ("seats", "counts"):
        w.expect(await http.get(f"{_OPEN}/t/{ROOM}/{read}", params={"table": "1"}), 200)
        bad = {"table": "10001"}
        w.expect(await http.get(f"{_OPEN}/t/{ROOM}/{read}", params=bad), 400, "table")
    w.expect(await http.get(f"{_OPEN}/t/{ROOM}/clock", params={"x" * 50: "1"}), 400, "x" * 50)


@probe(
    "GET /api/open/v1/t/{tid}/chain",
    "GET /api/open/v1/t/{tid}/results/signed",
    "GET /.well-known/floor-keys.json",
)
async def _open_chain_and_signatures(w: World, http: httpx.AsyncClient) -> None:
    # The chain's head of the 10,000-player room (its whole log walked once, in pages), its
    # results signed, and the keys they are checked against; each again by its ETag.
    for path in (
        f"{_OPEN}/t/{ROOM}/chain",
        f"{_OPEN}/t/{ROOM}/results/signed",
        "/.well-known/floor-keys.json",
    ):
        r = await http.get(path)
        w.expect(r, 200)
        w.expect(await http.get(path, headers={"If-None-Match": r.headers.get("etag", "")}), 304)
    w.expect(await http.get(f"{_OPEN}/t/{ROOM}/chain", params={"after": "1"}), 400, "after")


@probe("GET /api/open/v1/t/{tid}/draws")
async def _open_draws(w: World, http: httpx.AsyncClient) -> None:
    # The room's committed draws, one of its 10,000 players' draw with its seed (a seed up to
    # 255 hashes from its checkpoint), again by its ETag; an id no player has, one too long.
    r = await http.get(f"{_OPEN}/t/{ROOM}/draws")
    w.expect(r, 200)
    w.expect(
        await http.get(
            f"{_OPEN}/t/{ROOM}/draws", headers={"If-None-Match": r.headers.get("etag", "")}
        ),
        304,
    )
    seats = (await http.get(f"{_OPEN}/t/{ROOM}/seats", params={"table": "1"})).json()
    pid = seats["tables"][0]["seats"][0]["player"]
    w.expect(await http.get(f"{_OPEN}/t/{ROOM}/draws", params={"player": pid}), 200)
    w.expect(await http.get(f"{_OPEN}/t/{ROOM}/draws", params={"player": "nobody"}), 400, "player")
    w.expect(await http.get(f"{_OPEN}/t/{ROOM}/draws", params={"player": "p" * 65}), 400, "player")


@probe("GET /api/open/v1/t/{tid}/changes")
async def _open_changes(w: World, http: httpx.AsyncClient) -> None:
    # The largest page from the start (500 events of a 10,000-player registration), the
    # last page, and past the bounds.
    path = f"{_OPEN}/t/{ROOM}/changes"
    page = w.expect(await http.get(path, params={"since": "0", "limit": "500"}), 200)
    if page is not None:
        w.expect(await http.get(path, params={"since": str(page["seq"])}), 200)
    w.expect(await http.get(path, params={"since": "0", "limit": "501"}), 400, "limit")
    w.expect(await http.get(path, params={"since": str(2**60)}), 400, "since")


@probe("GET /api/open/v1/tournaments", "GET /api/open/v1/openapi.json")
async def _open_lists(w: World, http: httpx.AsyncClient) -> None:
    for path in ("tournaments", "openapi.json"):
        r = await http.get(f"{_OPEN}/{path}")
        w.expect(r, 200)
        w.expect(await http.get(f"{_OPEN}/{path}", params={"q": "1"}), 400, "q")


@probe("POST /api/t/{tid}/archive")
async def _archive(w: World, http: httpx.AsyncClient) -> None:
    w.expect(await http.post(f"/api/t/{SPARE}/archive", headers=w.headers("director")), 200)


# Tools ---------------------------------------------------------------------------------


@probe("GET /api/t/{tid}/prizes")
async def _prizes(w: World, http: httpx.AsyncClient) -> None:
    w.expect(await http.get(f"/api/t/{ROOM}/prizes"), 200)


@probe("GET /api/t/{tid}/results.csv")
async def _results(w: World, http: httpx.AsyncClient) -> None:
    w.expect(await http.get(f"/api/t/{ROOM}/results.csv"), 200)


def _pot(seats: int) -> dict[str, Any]:
    return {
        "game": "flop",
        "odd_chip_unit": 25,
        "button": 1,
        "contributions": [{"seat": s, "contributed": 100 * s} for s in range(1, seats + 1)],
        "high": [[s] for s in range(seats, 0, -1)],
    }


@probe("POST /api/pots")
async def _pots(w: World, http: httpx.AsyncClient) -> None:
    w.expect(await http.post("/api/pots", json=_pot(12)), 200)
    w.expect(await http.post("/api/pots", json=_pot(370)), 422, "contributions")


@probe("GET /api/rulebook", "GET /api/rulebook/{rule}")
async def _rulebook(w: World, http: httpx.AsyncClient) -> None:
    for params in ({}, {"lang": "cs"}, {"q": "e"}, {"q": "a " * 40}):
        w.expect(await http.get("/api/rulebook", params=params), 200)
    w.expect(await http.get("/api/rulebook", params={"q": "x" * 81}), 422, "q")
    rules = w.expect(await http.get("/api/rulebook"), 200)
    rule = rules["rules"][0]["id"] if rules else "1"
    w.expect(await http.get(f"/api/rulebook/{rule}", params={"lang": "cs"}), 200)


# Files ---------------------------------------------------------------------------------


@probe("POST /api/t/{tid}/import")
async def _import(w: World, http: httpx.AsyncClient) -> None:
    path, director = f"/api/t/{ROOM}/import", w.headers("director")
    f = w.files
    for honest in (f.honest_csv, f.honest_xlsx, f.widest_csv):
        w.expect(await http.post(path, content=honest, headers=director), 200)
    for hostile in (f.shared_strings_bomb, f.wide_row, f.zip_bomb):
        w.expect(await http.post(path, content=hostile, headers=director), 422, "file")
    # Bounded by what it reads: the first 64 columns of the rows there are.
    w.expect(await http.post(path, content=f.dimension_bomb, headers=director), 200)
    more = f.honest_csv + b"".join(b"Late %d;;;\r\n" % i for i in range(2))
    w.expect(await http.post(path, content=more, headers=director), 422, "file")
    too_big = b"Jan Novak\n" * (4 * 1024 * 1024 // 10 + 1)
    w.expect(await http.post(path, content=too_big, headers=director), 413, "body")


@probe(
    "GET /api/t/{tid}/export/results.csv",
    "GET /api/t/{tid}/export/hendon.csv",
    "GET /api/t/{tid}/export/payouts.csv",
)
async def _exports(w: World, http: httpx.AsyncClient) -> None:
    for name in ("results.csv", "hendon.csv", "payouts.csv"):
        w.expect(await http.get(f"/api/t/{ROOM}/export/{name}"), 200)


@probe("GET /api/t/{tid}/export/log")
async def _log(w: World, http: httpx.AsyncClient) -> None:
    w.expect(await http.get(f"/api/t/{FLIGHT}/export/log", headers=w.headers("director")), 200)


@probe("GET /api/t/{tid}/paper", "GET /api/t/{tid}/paper/check")
async def _paper(w: World, http: httpx.AsyncClient) -> None:
    staff = w.headers("floor")
    w.expect(await http.get(f"/api/t/{ROOM}/paper", headers=staff), 200)
    params = {"table": "1", "seat": "1", "code": "ABCD"}
    w.expect(await http.get(f"/api/t/{ROOM}/paper/check", params=params, headers=staff), 200)


@probe("GET /api/payouts/standard")
async def _standard_payouts(w: World, http: httpx.AsyncClient) -> None:
    path = "/api/payouts/standard"
    w.expect(await http.get(path, params={"entries": "1000", "paid": "15"}), 200)
    # The finding: 6.2 s of the loop and 27.8 MB for anyone who asked.
    w.expect(await http.get(path, params={"entries": "100000", "paid": "50"}), 422, "entries")
    w.expect(await http.get(path, params={"entries": "100001"}), 422, "entries")


def _structure_toml(levels: int) -> str:
    lines = ['name = "largest"', "starting_stack = 50000", "chips = [25, 100, 500, 1000]", ""]
    for i in range(1, levels + 1):
        lines += [
            "[[levels]]",
            'type = "level"',
            f"small_blind = {25 * i}",
            f"big_blind = {50 * i}",
            "minutes = 20",
            "",
        ]
    return "\n".join(lines)


@probe("POST /api/structures/parse", "POST /api/structures/toml")
async def _structures(w: World, http: httpx.AsyncClient) -> None:
    director = w.headers("director")
    levels = 1
    while len(_structure_toml(levels * 2)) < 500 * 1024:
        levels *= 2
    text = _structure_toml(levels)
    parsed = w.expect(
        await http.post("/api/structures/parse", content=text.encode(), headers=director), 200
    )
    if parsed is not None:
        r = await http.post("/api/structures/toml", json=parsed, headers=director)
        w.expect(r, 200)
    too_big = b"#" * (512 * 1024 + 1)
    w.expect(
        await http.post("/api/structures/parse", content=too_big, headers=director), 413, "body"
    )


# Flights -------------------------------------------------------------------------------


@probe("GET /api/t/{tid}/bags")
async def _bags(w: World, http: httpx.AsyncClient) -> None:
    w.expect(await http.get(f"/api/t/{FLIGHT}/bags", headers=w.headers("floor")), 200)


@probe("GET /api/t/{tid}/counts", "GET /api/t/{tid}/counts.csv")
async def _counts(w: World, http: httpx.AsyncClient) -> None:
    w.expect(await http.get(f"/api/t/{FLIGHT}/counts"), 200)
    w.expect(await http.get(f"/api/t/{FLIGHT}/counts.csv"), 200)


@probe("POST /api/day2")
async def _day2(w: World, http: httpx.AsyncClient) -> None:
    director = w.headers("director")
    body: dict[str, object] = {"id": w.unique("day2"), "name": "Day 2", "flights": [FLIGHT]}
    r = await http.post("/api/day2", json=body, headers=director)
    if r.status_code != 201:
        # The flight's bags do not add up to its chips (the world bags what it likes): the
        # director's acknowledgement with a reason is the other path, and both are probed.
        w.expect(r, 409, "acknowledge")
        body["acknowledge"] = {"reason": "r" * 500, "flights": [FLIGHT]}
        w.expect(await http.post("/api/day2", json=body, headers=director), 201)


# The day forecaster ---------------------------------------------------------------------------


@probe(
    "GET /api/t/{tid}/forecast",
    "POST /api/t/{tid}/forecast",
    "GET /api/t/{tid}/forecast/jobs/{job}",
    "PUT /api/t/{tid}/forecast/settings",
    "GET /api/t/{tid}/forecast/wall",
    "GET /api/t/{tid}/export/forecasts.csv",
)
async def _forecast(w: World, http: httpx.AsyncClient) -> None:
    """The room of 10,000 read for a forecast of the most runs with a what-if (the read is
    the loop's, the runs the workers'), stopped by a small one; the refusals name the field."""
    director, floor = w.headers("director"), w.headers("floor")
    path = f"/api/t/{ROOM}/forecast"
    most = {"runs": 1_000, "what_if": {"level_minutes": 240}, "corrections": {"late_entries": 0}}
    first = w.expect(await http.post(path, json=most, headers=director), 202)
    for bad, status, name in (
        ({"what_if": {"level_minutes": 0}}, 422, "what_if.level_minutes"),
        ({"runs": 1_001}, 422, "runs"),
        ({"what_if": {"levels": 1, "level_minutes": 20}}, 409, "what_if"),
    ):
        w.expect(await http.post(path, json=bad, headers=director), status, name)
    too_big = b'{"runs": 10, "x": "' + b"x" * 5_000 + b'"}'
    w.expect(await http.post(path, content=too_big, headers=director), 413, "body")
    # A new forecast stops the one running: the last, small, is let finish.
    last = w.expect(await http.post(path, json={"runs": 10}, headers=director), 202)
    jobs = f"{path}/jobs"
    if first is not None:
        w.expect(await http.get(f"{jobs}/{first['id']}", headers=floor), 200)
    w.expect(await http.get(f"{jobs}/{'0' * 32}", headers=floor), 404, "job")
    w.expect(await http.get(f"{jobs}/{'x' * 300}", headers=floor), 422, "job")
    deadline = time.monotonic() + TIMEOUT
    while last is not None and time.monotonic() < deadline:
        job = w.expect(await http.get(f"{jobs}/{last['id']}", headers=floor), 200)
        if job is None or job["state"] != "running":
            break
        await asyncio.sleep(0.5)
    w.expect(await http.get(path, headers=floor), 200)
    w.expect(await http.get(f"/api/t/{ROOM}/export/forecasts.csv", headers=floor), 200)
    settings = {"closing_at": 9_999_999_999, "dealers_per_table": 4, "wall": True}
    w.expect(await http.put(f"{path}/settings", json=settings, headers=director), 200)
    bad_settings = {"dealers_per_table": 0.5}
    w.expect(
        await http.put(f"{path}/settings", json=bad_settings, headers=director),
        422,
        "dealers_per_table",
    )
    w.expect(await http.get(f"{path}/wall"), 200)
    w.expect(await http.put(f"{path}/settings", json={}, headers=director), 200)


# Following one player ------------------------------------------------------------------


@probe("GET /api/t/{tid}/follow/{player}", "GET /api/t/{tid}/board")
async def _follow_reads(w: World, http: httpx.AsyncClient) -> None:
    w.expect(await http.get(f"/api/t/{ROOM}/follow/P1"), 200)
    w.expect(await http.get(f"/api/t/{ROOM}/follow/{'P' * 65}"), 422, "player")
    w.expect(await http.get(f"/api/t/{ROOM}/board"), 200)


async def _until(ws: ClientConnection, kind: str) -> dict[str, Any]:
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
        if message.get("type") == kind:
            return message  # type: ignore[no-any-return]


@probe(
    "WS /ws/t/{tid}/follow/{player}",
    "WS /ws/t/{tid}/follow/{player} resync",
    "WS /ws/t/{tid}/follow/{player} ping",
)
async def _follow_socket(w: World, http: httpx.AsyncClient) -> None:
    async with connect(f"{w.ws}/ws/t/{ROOM}/follow/P2", max_size=None) as ws:
        await _until(ws, "follow")
        await ws.send(json.dumps({"type": "resync"}))
        await _until(ws, "follow")
        await ws.send(json.dumps({"type": "ping"}))
        await _until(ws, "pong")


# The room's websocket --------------------------------------------------------------------


#: A command on every planned move finds none left once an earlier probe carried them out.
_NOTHING_LEFT = ("no_moves_to_call", "no_planned_moves")
_WS = httpx.Request("GET", "ws://websocket/command")


@probe("WS /ws/t/{tid}", "WS /ws/t/{tid} resync", "WS /ws/t/{tid} ping", "WS /ws/t/{tid} command")
async def _socket(w: World, http: httpx.AsyncClient) -> None:
    for packed in ("1", "0"):
        url = f"{w.ws}/ws/t/{ROOM}?packed={packed}"
        async with connect(url, max_size=None, additional_headers=w.headers("director")) as ws:
            await _until(ws, "snapshot")
            await ws.send(json.dumps({"type": "resync", "snapshot": True}))
            await _until(ws, "snapshot")
            await ws.send(json.dumps({"type": "resync", "since": 0}))
            await _until(ws, "snapshot")
            await ws.send(json.dumps({"type": "ping"}))
            await _until(ws, "pong")
            command = {"type": "call_all", "reason": "break"}
            await ws.send(json.dumps({"type": "command", "id": w.unique("ws"), "command": command}))
            result = await _until(ws, "result")
            # Every move of the room called at once: done by the first call, after it
            # nothing is left to call.
            outcome = result["outcome"]
            if not outcome["ok"] and outcome["error"]["reason"] not in _NOTHING_LEFT:
                w.expect(httpx.Response(409, json=result, request=_WS), 200)


# Commands ------------------------------------------------------------------------------


def _entries(stem: str, body: int) -> list[dict[str, Any]]:
    """As many entries as one command's body holds (1,000 at most)."""
    entries: list[dict[str, Any]] = []
    size = 200
    while len(entries) < 1_000:
        entry = {"name": f"Late Entry {len(entries)}", "player": f"{stem}{len(entries)}"}
        entry["country"] = "CZ"
        size += len(json.dumps(entry)) + 2
        if size > body:
            break
        entries.append(entry)
    return entries


@probe("POST /api/t/{tid}/commands", "POST /api/t/{tid}/commands/{kind}")
async def _commands(w: World, http: httpx.AsyncClient) -> None:
    floor = w.headers("director")
    stem = w.unique("L")
    command = {"type": "register_many", "entries": _entries(stem, MAX_BODY - 1_000)}
    body = {"id": w.unique("c"), "command": command}
    w.expect(await http.post(f"/api/t/{ROOM}/commands", json=body, headers=floor), 200)
    for kind in ("call_all", "confirm_all"):
        r = await http.post(
            f"/api/t/{ROOM}/commands/{kind}", json={"reason": "break"}, headers=floor
        )
        if r.status_code != 409 or r.json()["error"]["reason"] not in _NOTHING_LEFT:
            w.expect(r, 200)
    too_big = b'{"command": {"type": "register", "name": "' + b"x" * MAX_BODY + b'"}}'
    r = await http.post(f"/api/t/{ROOM}/commands", content=too_big, headers=floor)
    w.expect(r, 413, "body")


@probe("POST /api/t/{tid}/preview")
async def _preview(w: World, http: httpx.AsyncClient) -> None:
    staff = w.headers("floor")
    snapshot = w.expect(await http.get(f"/api/t/{ROOM}", headers=staff), 200)
    tables = snapshot["state"]["tables"] if snapshot else {}
    seated = max((t["occupants"] for t in tables.values()), key=len, default={})
    busted = [{"player": p, "stack": 1_000 * (i % 3 + 1)} for i, p in enumerate(seated.values())]
    path = f"/api/t/{ROOM}/preview"
    command: dict[str, Any] = {"type": "bust_same_hand", "players": busted}
    w.expect(await http.post(path, json={"command": command}, headers=staff), 200)
    # A list of as many entries as a body holds, decided on a copy: 17 s of the engine.
    entries = _entries(w.unique("V"), MAX_BODY - 1_000)
    command = {"type": "register_many", "entries": entries}
    w.expect(await http.post(path, json={"command": command}, headers=staff), 200)


# Staff and pairing -----------------------------------------------------------------------


@probe(
    "POST /api/signin",
    "POST /api/signout",
    "GET /api/me",
    "PUT /api/me/secret",
    "GET /api/session/check",
)
async def _identity(w: World, http: httpx.AsyncClient) -> None:
    w.expect(await http.get("/api/me", headers=w.headers("director")), 200)
    # nginx asks this before every staff request: a session passes, none and a forged one not.
    w.expect(await http.get("/api/session/check", headers=w.headers("floor")), 200)
    w.expect(await http.get("/api/session/check"), 401)
    forged = {"Authorization": "Bearer " + "x" * 4000}
    w.expect(await http.get("/api/session/check", headers=forged), 401)
    # The largest sign-in body, refused; one past the limit.
    w.expect(await http.post("/api/signin", json={"username": "boss", "secret": "x" * 4000}), 401)
    big = {"username": "boss", "secret": "x" * 5000}
    w.expect(await http.post("/api/signin", json=big), 413, "body")
    name = w.unique("temp")
    director = w.headers("director")
    new = {"username": name, "secret": "a-long-secret", "role": "floor"}
    w.expect(await http.post("/api/staff", json=new, headers=director), 201)
    signed = w.expect(
        await http.post("/api/signin", json={"username": name, "secret": "a-long-secret"}), 200
    )
    token = signed["token"] if signed else ""
    mine = {"Authorization": f"Bearer {token}"}
    change = {"current": "a-long-secret", "secret": "another-long-secret"}
    w.expect(await http.put("/api/me/secret", json=change, headers=mine), 200)
    w.expect(await http.post("/api/signout", headers=mine), 200)


@probe(
    "GET /api/staff",
    "POST /api/staff",
    "DELETE /api/staff/{username}",
    "PUT /api/staff/{username}/secret",
    "POST /api/staff/{username}/unlock",
)
async def _staff(w: World, http: httpx.AsyncClient) -> None:
    director = w.headers("director")
    w.expect(await http.get("/api/staff", headers=director), 200)
    name = w.unique("dealer")
    new = {"username": name, "secret": "1234", "role": "dealer", "pin": True}
    w.expect(await http.post("/api/staff", json=new, headers=director), 201)
    r = await http.put(f"/api/staff/{name}/secret", json={"secret": "98765"}, headers=director)
    w.expect(r, 200)
    w.expect(await http.post(f"/api/staff/{name}/unlock", headers=director), 200)
    w.expect(await http.delete(f"/api/staff/{name}", headers=director), 200)


@probe(
    "POST /api/pairing",
    "POST /api/signin/pair",
    "POST /api/table/signin",
    "POST /api/table/signout",
    "GET /api/tablets",
    "PUT /api/tablets/{device}",
    "DELETE /api/tablets/{device}",
)
async def _tablets(w: World, http: httpx.AsyncClient) -> None:
    """A screen at each of the room's first tables, a dealer signed in on one; the list of
    them all, one moved to another tournament, one ended."""
    director, floor = w.headers("director"), w.headers("floor")
    dealer = {"username": w.unique("dealer"), "secret": "4321", "role": "dealer", "pin": True}
    w.expect(await http.post("/api/staff", json=dealer, headers=director), 201)
    devices = []
    for table in range(1, 11):
        code = w.expect(
            await http.post(
                "/api/pairing", json={"tournament": ROOM, "table": table}, headers=floor
            ),
            201,
        )
        if code is None:
            return
        paired = w.expect(await http.post("/api/signin/pair", json={"code": code["code"]}), 200)
        if paired is None:
            return
        devices.append((paired["principal"]["device"], paired["token"]))
    device, token = devices[0]
    screen = {"Authorization": f"Bearer {token}"}
    form = {"username": dealer["username"], "secret": "4321"}
    w.expect(await http.post("/api/table/signin", json=form, headers=screen), 200)
    w.expect(await http.post("/api/table/signout", headers=screen), 200)
    w.expect(await http.get("/api/tablets", headers=director), 200)
    moved = {"tournament": SPARE, "table": 2}
    w.expect(await http.put(f"/api/tablets/{device}", json=moved, headers=director), 200)
    for device, _ in devices:
        w.expect(await http.delete(f"/api/tablets/{device}", headers=director), 200)
    w.expect(await http.delete("/api/tablets/none-such", headers=director), 404)


# The installed app and its alerts ------------------------------------------------------------


@probe(
    "GET /sw.js",
    "GET /app/player/{tid}/manifest.webmanifest",
    "GET /app/floor/{tid}/manifest.webmanifest",
    "GET /app/table/{tid}/{table:int}/manifest.webmanifest",
)
async def _app(w: World, http: httpx.AsyncClient) -> None:
    w.expect(await http.get("/sw.js"), 200)
    for kind in ("player", "floor"):
        for lang in ("cs", "x" * 200):
            w.expect(await http.get(f"/app/{kind}/{ROOM}/manifest.webmanifest?lang={lang}"), 200)
    w.expect(await http.get(f"/app/table/{ROOM}/{MAX_TABLE}/manifest.webmanifest"), 200)
    for table in (0, MAX_TABLE + 1, int("9" * 4000)):
        r = await http.get(f"/app/table/{ROOM}/{table}/manifest.webmanifest")
        w.expect(r, 422, "table")
    w.expect(await http.get("/app/player/none-such/manifest.webmanifest"), 404)


def _subscription(endpoint_length: int = MAX_ENDPOINT) -> dict[str, Any]:
    """A browser's opt-in with the longest endpoint accepted, at a push service floor posts
    to (never posted to here: the probes stop every subscription they make)."""
    # Each its own: a subscription is known by its endpoint.
    stem = f"https://fcm.googleapis.com/fcm/send/{os.urandom(8).hex()}"
    point = ec.generate_private_key(ec.SECP256R1()).public_key()
    raw = point.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)

    def b64(data: bytes) -> str:
        return base64.urlsafe_b64encode(data).rstrip(b"=").decode()

    return {
        "endpoint": stem + "x" * (endpoint_length - len(stem)),
        "keys": {"p256dh": b64(raw), "auth": b64(os.urandom(16))},
        "lang": "cs",
    }


async def _opt_ins(
    w: World, http: httpx.AsyncClient, url: str, who: str | None, field: str
) -> None:
    """As many phones as one owner holds, one more refused, a body over the bound, an
    endpoint too long and one at an address of the venue's network; then each stopped."""
    headers = w.headers(who)
    subs = [_subscription() for _ in range(MOST_PER_OWNER)]
    for sub in subs:
        w.expect(await http.put(url, json=sub, headers=headers), 201)
    w.expect(await http.put(url, json=_subscription(), headers=headers), 409, field)
    w.expect(
        await http.put(url, json=_subscription(MAX_ENDPOINT + 1), headers=headers), 422, "endpoint"
    )
    venue = {**_subscription(), "endpoint": "http://10.0.0.1:6379/"}
    w.expect(await http.put(url, json=venue, headers=headers), 422, "endpoint")
    big = b'{"endpoint": "' + b"x" * PUSH_BODY + b'"}'
    w.expect(await http.put(url, content=big, headers=headers), 413, "body")
    for sub in subs:
        r = await http.request("DELETE", url, json={"endpoint": sub["endpoint"]}, headers=headers)
        w.expect(r, 200)


@probe("GET /api/push/key")
async def _push_key(w: World, http: httpx.AsyncClient) -> None:
    for _ in range(3):
        w.expect(await http.get("/api/push/key"), 200)


@probe("PUT /api/t/{tid}/push/{player}", "DELETE /api/t/{tid}/push/{player}")
async def _player_push(w: World, http: httpx.AsyncClient) -> None:
    await _opt_ins(w, http, f"/api/t/{ROOM}/push/P3", None, "player")
    w.expect(await http.put(f"/api/t/{ROOM}/push/P999999", json=_subscription()), 404, "player")
    w.expect(await http.put(f"/api/t/{ROOM}/push/{'P' * 65}", json=_subscription()), 422, "player")


@probe("POST /api/t/{tid}/alternates")
async def _alternates(w: World, http: httpx.AsyncClient) -> None:
    """A full flight whose line is filled to its bound by a list (every entry queued), then
    by the wall's code (the engine reads the whole line at each join), past it refused."""
    director, tid = w.headers("director"), w.unique("alt")
    body = {"id": tid, "config": "club-night"}
    w.expect(await http.post("/api/tournaments", json=body, headers=director), 201)
    commands = f"/api/t/{tid}/commands"
    capacity = {"type": "set_capacity", "capacity": {"seats": 2}}
    w.expect(await http.post(commands, json={"command": capacity}, headers=director), 200)
    for name in ("Ann Seated", "Bob Seated"):
        register = {"type": "register", "name": name}
        w.expect(await http.post(commands, json={"command": register}, headers=director), 200)
    entries = _entries(w.unique("Q"), MAX_BODY - 1_000)
    many = {"type": "register_many", "entries": entries}
    w.expect(await http.post(commands, json={"command": many}, headers=director), 200)
    url = f"/api/t/{tid}/alternates"
    for i in range(MAX_LINE - len(entries)):
        w.expect(await http.post(url, json={"name": f"Walk In {i}"}), 201)
    r = await http.post(url, json={"name": "One Too Many"})
    w.expect(r, 409, "name")
    w.expect(await http.post(url, json={"name": "Walk In 0"}), 409, "name")
    w.expect(await http.post(url, json={"name": ""}), 422, "name")
    w.expect(await http.post(url, json={"name": "x" * 81}), 422, "name")
    w.expect(await http.post(url, content=b'{"name": "' + b"x" * 2000 + b'"}'), 413, "body")
    w.expect(await http.post(f"/api/t/{tid}-none/alternates", json={"name": "Ann"}), 404)


@probe("PUT /api/push/staff", "DELETE /api/push/staff")
async def _staff_push(w: World, http: httpx.AsyncClient) -> None:
    await _opt_ins(w, http, "/api/push/staff", "floor", "staff")
    w.expect(await http.put("/api/push/staff", json=_subscription()), 403)


@probe("GET /api/t/{tid}/sections", "PUT /api/t/{tid}/sections/{username}")
async def _sections(w: World, http: httpx.AsyncClient) -> None:
    director, url = w.headers("director"), f"/api/t/{ROOM}/sections"
    most = {"tables": list(range(MAX_TABLE - MOST_TABLES + 1, MAX_TABLE + 1))}
    w.expect(await http.put(f"{url}/fred", json=most, headers=director), 200)
    w.expect(await http.get(url, headers=w.headers("floor")), 200)
    w.expect(await http.get(url), 403)
    over = {"tables": list(range(1, MOST_TABLES + 2))}
    w.expect(await http.put(f"{url}/fred", json=over, headers=director), 422, "tables")
    w.expect(
        await http.put(f"{url}/fred", json={"tables": [MAX_TABLE + 1]}, headers=director),
        422,
        "tables[0]",
    )
    w.expect(
        await http.put(f"{url}/none-such", json={"tables": [1]}, headers=director), 404, "username"
    )
    w.expect(await http.put(f"{url}/fred", json={"tables": [1]}, headers=w.headers("floor")), 403)
    w.expect(await http.put(f"{url}/fred", json={"tables": []}, headers=director), 200)


# The walls' images (``routes_walls``) ---------------------------------------------------------


def _png(size: int) -> bytes:
    """A PNG's signature and header, padded to ``size`` bytes: what the upload reads."""
    head = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06"
    return head + bytes(size - len(head))


@probe(
    "PUT /api/wall/logo",
    "DELETE /api/wall/logo",
    "PUT /api/t/{tid}/wall/sponsor",
    "DELETE /api/t/{tid}/wall/sponsor",
    "GET /api/t/{tid}/wall",
    "GET /api/wall/images/{name}",
)
async def _wall_images(w: World, http: httpx.AsyncClient) -> None:
    """The largest image taken, for the logo and a sponsor; one byte more, an SVG and a
    file of no image type refused naming the body; the image read back by its name."""
    director = w.headers("director")
    most = _png(WALL_IMAGE)
    logo = w.expect(await http.put("/api/wall/logo", content=most, headers=director), 200)
    sponsor = f"/api/t/{ROOM}/wall/sponsor"
    w.expect(await http.put(sponsor, content=most, headers=director), 200)
    for bad, status in (
        (_png(WALL_IMAGE + 1), 413),
        (b"<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>", 422),
        (b"GIF89a" + bytes(100), 422),
        (b"", 422),
    ):
        w.expect(await http.put("/api/wall/logo", content=bad, headers=director), status, "body")
    w.expect(await http.put("/api/wall/logo", content=most, headers=w.headers("floor")), 403)
    w.expect(await http.put("/api/t/none-such/wall/sponsor", content=most, headers=director), 404)
    shown = w.expect(await http.get(f"/api/t/{ROOM}/wall"), 200)
    if logo is not None and shown is not None:
        assert shown["logo"] == logo["url"] and shown["sponsor"] == logo["url"], shown
        w.expect(await http.get(logo["url"]), 200)
    w.expect(await http.get("/api/wall/images/" + "0" * 32 + ".png"), 404, "name")
    w.expect(await http.get("/api/wall/images/logo.svg"), 404, "name")
    w.expect(await http.delete(sponsor, headers=director), 200)
    w.expect(await http.delete("/api/wall/logo", headers=director), 200)


@probe(
    "GET /api/wall/screens",
    "PUT /api/wall/screens/{name}",
    "DELETE /api/wall/screens/{name}",
)
async def _wall_screens(w: World, http: httpx.AsyncClient) -> None:
    """The most pages a screen shows, saved under the longest name and read back by the wall;
    a page twice, a seventh page, a bad name or time and an unknown key refused by name."""
    director = w.headers("director")
    pages = [{"page": p, "seconds": 600} for p in WALL_PAGES]
    name = "a" * 32
    w.expect(
        await http.put(f"/api/wall/screens/{name}", json={"pages": pages}, headers=director), 200
    )
    listed = w.expect(await http.get("/api/wall/screens", headers=w.headers("floor")), 200)
    assert listed is None or name in listed["screens"], listed
    shown = w.expect(await http.get(f"/api/t/{ROOM}/wall?screen={name}"), 200)
    assert shown is None or shown["screen"]["pages"] == pages, shown
    w.expect(await http.get(f"/api/t/{ROOM}/wall?screen=Bad!"), 400, "screen")
    w.expect(await http.get(f"/api/t/{ROOM}/wall?pages=tables"), 400, "pages")
    url = f"/api/wall/screens/{name}"
    for body, named in (
        ({"pages": [*pages, pages[0]]}, "pages"),
        ({"pages": [pages[0], pages[0]]}, "pages[1].page"),
        ({"pages": []}, "pages"),
        ({"pages": [{"page": "tables", "seconds": 3}]}, "pages[0].seconds"),
        ({"pages": [{"page": "menu"}]}, "pages[0].page"),
        ({"pages": [{"page": "tables", "colour": "red"}]}, "pages[0]"),
    ):
        w.expect(await http.put(url, json=body, headers=director), 422, named)
    w.expect(await http.put(url, content=b"x" * 5000, headers=director), 413, "body")
    w.expect(
        await http.put("/api/wall/screens/" + "a" * 33, json={"pages": pages}, headers=director),
        422,
        "name",
    )
    w.expect(await http.put(url, json={"pages": pages}, headers=w.headers("floor")), 403)
    w.expect(await http.get("/api/wall/screens"), 403)
    w.expect(await http.delete(url, headers=director), 200)
    w.expect(await http.delete(url, headers=director), 404, "name")


# The dealer room ---------------------------------------------------------------------------


@probe("GET /api/dealers", "GET /dealers", "GET /dealer")
async def _dealer_room(w: World, http: httpx.AsyncClient) -> None:
    """The room's screen: every dealer of a full room, the room's 1,000 tables and the
    forecast of its pushes (made off the loop, once per version)."""
    director = w.headers("director")
    for _ in range(2):
        w.expect(await http.get("/api/dealers", headers=director), 200)
    w.expect(await http.get("/api/dealers", headers=w.headers("floor")), 403)
    for page in ("/dealers", "/dealer"):
        w.expect(await http.get(page), 200)


@probe("POST /api/dealers/commands")
async def _room_commands(w: World, http: httpx.AsyncClient) -> None:
    """The longest lists a command holds, a dealer replaced at a table of the full room, and
    the refusals naming their field."""
    path, director = "/api/dealers/commands", w.headers("director")

    async def send(command: dict[str, Any]) -> httpx.Response:
        return await http.post(path, json={"command": command}, headers=director)

    every = [f"d{i}" for i in range(DEALERS)]
    w.expect(await send({"type": "set_early_list", "dealers": every}), 200)
    priority = [w.unique("t")[:40] for _ in range(200)]
    settings = {"priority": priority, "early_outs": "list", "reserve": 5_000}
    w.expect(await send({"type": "set_settings", "settings": settings}), 200)
    for mark in ("sick", None):
        w.expect(await send({"type": "mark_dealer", "dealer": "d0", "mark": mark}), 200)
    too_long = [*every, "d4999", "d5000"]
    w.expect(await send({"type": "set_early_list", "dealers": too_long}), 422, "command.dealers")
    w.expect(await send({"type": "clock_in", "dealer": "nobody"}), 409, "dealer")
    w.expect(
        await send({"type": "set_settings", "settings": {"zone": "Mars/Base"}}),
        422,
        "settings.zone",
    )


@probe("POST /api/dealers/people", "PUT /api/dealers/people/{username}/pin")
async def _room_people(w: World, http: httpx.AsyncClient) -> None:
    """The last dealer a full room takes, and the next refused; a new PIN."""
    director = w.headers("director")
    games = ["holdem", "omaha", "stud", "razz", "mixed"]
    first, second = w.unique("last"), w.unique("over")
    new = {"username": first, "name": "N" * 80, "games": games, "pin": "12345678"}
    r = await http.post("/api/dealers/people", json=new, headers=director)
    if r.status_code != 409:  # the room filled by an earlier run
        w.expect(r, 201)
    new["username"] = second
    w.expect(await http.post("/api/dealers/people", json=new, headers=director), 409, "dealer")
    no_pin = {"username": w.unique("nopin"), "name": "No Pin"}
    w.expect(await http.post("/api/dealers/people", json=no_pin, headers=director), 422, "pin")
    pin = f"/api/dealers/people/{second}/pin"
    w.expect(await http.put(pin, json={"pin": "87654321"}, headers=director), 200)
    w.expect(await http.put(pin, json={"pin": "12"}, headers=director), 422, "secret")


@probe("GET /api/dealers/downs", "GET /api/dealers/downs.csv")
async def _room_downs(w: World, http: httpx.AsyncClient) -> None:
    """The pay period of 10,000 downs: as JSON, every row and each dealer's totals as CSV."""
    director = w.headers("director")
    w.expect(await http.get("/api/dealers/downs", headers=director), 200)
    for kind in ("rows", "totals"):
        params = {"kind": kind}
        w.expect(await http.get("/api/dealers/downs.csv", params=params, headers=director), 200)
    bad = {"period": "x" * 200}
    w.expect(await http.get("/api/dealers/downs", params=bad, headers=director), 422, "period")
    odd = {"kind": "all"}
    w.expect(await http.get("/api/dealers/downs.csv", params=odd, headers=director), 422, "kind")


@probe(
    "GET /api/dealers/table",
    "POST /api/dealers/phone/code",
    "POST /api/dealers/phone",
    "GET /api/dealers/me",
)
async def _room_tables(w: World, http: httpx.AsyncClient) -> None:
    """A table of the full room read by the floor and by its screen; a dealer of the room
    signed in there, their phone signed in with the screen's code and reading its dealer."""
    director, floor = w.headers("director"), w.headers("floor")
    table = {"tournament": ROOM, "table": "1"}
    w.expect(await http.get("/api/dealers/table", params=table, headers=floor), 200)
    w.expect(await http.get("/api/dealers/table", params={"tournament": ROOM}, headers=floor), 422)
    # d1 deals in the room (``worst_rooms``): an account of theirs, with a PIN.
    account = {"username": "d1", "secret": "2468", "role": "dealer", "pin": True}
    r = await http.post("/api/staff", json=account, headers=director)
    if r.status_code != 409:  # made by an earlier run
        w.expect(r, 201)
    code = w.expect(
        await http.post("/api/pairing", json={"tournament": ROOM, "table": 1}, headers=floor), 201
    )
    if code is None:
        return
    paired = w.expect(await http.post("/api/signin/pair", json={"code": code["code"]}), 200)
    if paired is None:
        return
    screen = {"Authorization": f"Bearer {paired['token']}"}
    form = {"username": "d1", "secret": "2468"}
    w.expect(await http.post("/api/table/signin", json=form, headers=screen), 200)
    w.expect(await http.get("/api/dealers/table", headers=screen), 200)
    phone_code = w.expect(await http.post("/api/dealers/phone/code", headers=screen), 201)
    w.expect(await http.post("/api/dealers/phone", json={"code": "0" * 200}), 401)
    if phone_code is not None:
        phone = w.expect(
            await http.post("/api/dealers/phone", json={"code": phone_code["code"]}), 200
        )
        if phone is not None:
            mine = {"Authorization": f"Bearer {phone['token']}"}
            w.expect(await http.get("/api/dealers/me", headers=mine), 200)
    w.expect(await http.post("/api/table/signout", headers=screen), 200)
    w.expect(
        await http.delete(f"/api/tablets/{paired['principal']['device']}", headers=director), 200
    )


# Pages -----------------------------------------------------------------------------------


@probe(
    "GET /",
    "GET /wall/{tid}",
    "GET /final/{tid}",
    "GET /widget/{tid}",
    "GET /check/{tid}",
    "GET /floor/{tid}",
    "GET /player/{tid}",
    "GET /line/{tid}",
    "GET /table/{tid}/{table:int}",
    "GET /director",
    "GET /director/{tid}",
    "GET /print/{tid}",
    "GET /static/{path}",
)
async def _pages(w: World, http: httpx.AsyncClient) -> None:
    for path in ("/", "/director", f"/print/{ROOM}", f"/table/{ROOM}/1"):
        w.expect(await http.get(path), 200)
    for page in ("wall", "final", "widget", "check", "floor", "player", "line"):
        w.expect(await http.get(f"/{page}/{ROOM}"), 200)
    w.expect(await http.get(f"/director/{ROOM}"), 307)
    w.expect(await http.get("/static/js/director.js"), 200)


# The ticket ledger ---------------------------------------------------------------------------


@probe("GET /api/tickets", "POST /api/tickets/commands")
async def _tickets(w: World, http: httpx.AsyncClient) -> None:
    """Tickets sold for the 10,000-player room, the whole ledger read back, and the refusals
    naming their field (an unknown tournament, a bad id, a ticket used up)."""
    director, path = w.headers("director"), "/api/tickets/commands"

    async def send(command: dict[str, Any]) -> httpx.Response:
        return await http.post(path, json={"command": command}, headers=director)

    sold = [
        w.expect(await send({"type": "sell_ticket", "target": ROOM, "value": 1100}), 200)["ticket"]
        for _ in range(200)
    ]
    body = w.expect(await http.get("/api/tickets", headers=director), 200)
    assert body["total"] >= 200 and {t["id"] for t in body["tickets"]} >= set(sold)
    w.expect(await http.get("/api/tickets", params={"target": ROOM}, headers=director), 200)
    w.expect(
        await http.get("/api/tickets", params={"target": "../x"}, headers=director),
        422,
        "tournament",
    )
    w.expect(await http.get("/api/tickets", headers=w.headers("floor")), 200)
    w.expect(await send({"type": "refund_ticket", "ticket": sold[0]}), 200)
    w.expect(await send({"type": "refund_ticket", "ticket": sold[0]}), 409, "ticket")
    w.expect(await send({"type": "expire_ticket", "ticket": "none-such"}), 409, "ticket")
    w.expect(await send({"type": "sell_ticket", "target": "none-such", "value": 1}), 404)
    w.expect(await send({"type": "sell_ticket", "target": ROOM, "value": -1}), 422, "command.value")
    w.expect(await send({"type": "expire_ticket", "ticket": "x" * 81}), 422, "command.ticket")
    w.expect(
        await send({"type": "transfer_ticket", "ticket": sold[1], "holder": "P9"}), 409, "ticket"
    )
    w.expect(await http.post(path, content=b"{" * 2000, headers=director), 400)
    w.expect(await http.post(path, content=b" " * 5000, headers=director), 413, "body")


async def run(w: World, key: str) -> None:
    """The probe of ``key``, on a client of its own."""
    async with httpx.AsyncClient(base_url=w.base, timeout=TIMEOUT) as http:
        await PROBES[key](w, http)


# The front desk (``routes_desk``) ---------------------------------------------------------------

#: Rows of the largest exclusion list a probe imports (the Czech RVO holds some 200,000).
DESK_LIST_ROWS = 200_000


def _desk_person(i: int, **over: Any) -> dict[str, Any]:
    identity = {
        "doc_type": "passport",
        "doc_number": f"W{i:08d}",
        "birth_date": "1980-01-01",
        "country": "CZ",
    }
    return {
        "given_names": "G" * 40,
        "surname": f"Worst{i}",
        "language": "cs",
        "consent": True,
        "identity": identity,
        "method": "cash",
        "amount": 10_000_000,
        **over,
    }


@probe("POST /api/desk/exclusions", "GET /api/desk/checks")
async def _desk_list(w: World, http: httpx.AsyncClient) -> None:
    """The largest exclusion list, read off the loop and written whole; one over the body's
    bound refused before it is read; the checks' log at its longest read."""
    director = w.headers("director")
    rows = "".join(
        f"Surname{i},Given{i},19{i % 90 + 10:02d}-01-01,D{i:09d}\n" for i in range(DESK_LIST_ROWS)
    )
    body = ("surname,given_names,birth_date,document_number\n" + rows).encode()
    got = w.expect(await http.post("/api/desk/exclusions", content=body, headers=director), 200)
    if got is not None and got["rows"] != DESK_LIST_ROWS:
        w.notes.append(f"the list read {got['rows']} rows")
    too_big = b"x" * (32 * 1024 * 1024 + 1)
    w.expect(
        await http.post("/api/desk/exclusions", content=too_big, headers=director), 413, "body"
    )
    w.expect(
        await http.post("/api/desk/exclusions", content=b"\xff\xfe", headers=director), 422, "list"
    )
    w.expect(
        await http.post("/api/desk/exclusions", content=b"a,b,c\n", headers=w.headers("floor")), 403
    )
    w.expect(await http.get("/api/desk/checks", headers=director), 200)


@probe(
    "GET /api/desk",
    "GET /desk",
    "PUT /api/desk/settings",
    "POST /api/desk/shifts",
    "GET /api/desk/shifts/{sid}",
    "POST /api/desk/shifts/{sid}/close",
    "POST /api/desk/take",
    "POST /api/desk/undo",
)
async def _desk_take(w: World, http: httpx.AsyncClient) -> None:
    """A player taken into the 10,000-player room (the list checked, the seat drawn there, or
    the room's refusal once its registration has closed), a retry of it, a void; the shift's
    report and close; every refusal naming its field."""
    director = w.headers("director")
    w.expect(await http.get("/desk"), 200)
    w.expect(await http.get("/api/desk", headers=director), 200)
    settings = {"retention_days": 3650, "list_max_age_hours": 8760, "min_age": 18, "buy_in": 0}
    w.expect(await http.put("/api/desk/settings", json=settings, headers=director), 200)
    bad = {**settings, "retention_days": 0}
    w.expect(
        await http.put("/api/desk/settings", json=bad, headers=director), 422, "retention_days"
    )
    shift = w.expect(
        await http.post(
            "/api/desk/shifts", json={"desk": "W" * 24, "float": 10_000_000}, headers=director
        ),
        201,
    )
    sid = shift["id"] if shift else "s-000000000000"
    w.expect(
        await http.post("/api/desk/shifts", json={"desk": "x" * 25}, headers=director), 422, "desk"
    )
    cid = w.unique("desk-w")
    body = {"id": cid, "shift": sid, "tournament": ROOM, **_desk_person(1)}
    r = await http.post("/api/desk/take", json=body, headers=director)
    taken = w.expect(r, 201 if r.status_code == 201 else 409)
    if taken is not None and r.status_code == 201:
        w.expect(await http.post("/api/desk/take", json=body, headers=director), 200)
        undo = {"id": w.unique("desk-v"), "shift": sid, "sale": cid, "kind": "void"}
        w.expect(await http.post("/api/desk/undo", json=undo, headers=director), 201)
    over = {**body, "id": w.unique("desk-w"), "amount": 10_000_001}
    w.expect(await http.post("/api/desk/take", json=over, headers=director), 422, "amount")
    long_name = {**body, "id": w.unique("desk-w"), "surname": "S" * 41}
    w.expect(await http.post("/api/desk/take", json=long_name, headers=director), 422, "surname")
    w.expect(await http.post("/api/desk/take", json=body, headers=w.headers("floor")), 403)
    nothing = {"id": w.unique("desk-v"), "shift": sid, "sale": "desk-none", "kind": "refund"}
    w.expect(await http.post("/api/desk/undo", json=nothing, headers=director), 404, "sale")
    w.expect(await http.get(f"/api/desk/shifts/{sid}", headers=director), 200)
    w.expect(await http.get("/api/desk/shifts/" + "s" * 40, headers=director), 422, "shift")
    w.expect(
        await http.post(
            f"/api/desk/shifts/{sid}/close", json={"counted": 10_000_001}, headers=director
        ),
        422,
        "counted",
    )
    w.expect(
        await http.post(f"/api/desk/shifts/{sid}/close", json={"counted": 0}, headers=director), 200
    )


@probe(
    "GET /api/desk/registry",
    "GET /api/desk/registry/{pid}",
    "DELETE /api/desk/registry/{pid}",
    "GET /api/desk/shown/{tid}/{player}",
    "GET /api/desk/cashier/{tid}",
    "POST /api/desk/cashier/{tid}/pay",
)
async def _desk_registry_and_cashier(w: World, http: httpx.AsyncClient) -> None:
    """The registry searched by one letter (a page of it, never all), a record read and
    erased; a document shown in the 10,000-player room; the cashier's list of its 1,500
    paid places, a payment refused for a player not in the money."""
    director = w.headers("director")
    for q in ("w", "worst1", "x" * 80):
        w.expect(await http.get("/api/desk/registry", params={"q": q}, headers=director), 200)
    w.expect(
        await http.get("/api/desk/registry", params={"q": "x" * 81}, headers=director), 422, "q"
    )
    w.expect(await http.get("/api/desk/registry/R0000000000", headers=director), 404, "player")
    w.expect(await http.get("/api/desk/registry/nobody", headers=director), 422, "player")
    w.expect(await http.delete("/api/desk/registry/R0000000000", headers=director), 200)
    w.expect(await http.get(f"/api/desk/shown/{ROOM}/nobody", headers=director), 404, "player")
    w.expect(await http.get(f"/api/desk/cashier/{ROOM}", headers=director), 200)
    w.expect(
        await http.post(
            f"/api/desk/cashier/{ROOM}/pay", json={"player": "nobody"}, headers=director
        ),
        409,
        "player",
    )
    w.expect(
        await http.post(f"/api/desk/cashier/{ROOM}/pay", json={"player": ""}, headers=director),
        422,
        "player",
    )


@probe("GET /api/desk/tickets/{tid}")
async def _desk_tickets(w: World, http: httpx.AsyncClient) -> None:
    """The tickets that pay an entry to the 10,000-player room, looked up in a ledger of 500
    of them (a page, never all), for a new player and a returning one; a buy-in paid with
    one (or the room's refusal once its registration has closed); the refusals naming their
    field."""
    director = w.headers("director")
    sold = [
        w.expect(
            await http.post(
                "/api/tickets/commands",
                json={"command": {"type": "sell_ticket", "target": ROOM, "value": 1100}},
                headers=director,
            ),
            200,
        )
        for _ in range(500)
    ]
    path = f"/api/desk/tickets/{ROOM}"
    found = w.expect(await http.get(path, headers=director), 200)
    if found is not None and len(found) != 50:
        w.notes.append(f"the desk listed {len(found)} tickets")
    w.expect(await http.get(path, params={"player": "R0000000000"}, headers=director), 200)
    w.expect(await http.get(path, params={"player": "P1"}, headers=director), 422, "player")
    w.expect(await http.get("/api/desk/tickets/" + "x" * 80, headers=director), 422)
    w.expect(await http.get(path, headers=w.headers("floor")), 403)
    shift = w.expect(
        await http.post("/api/desk/shifts", json={"desk": "Tickets"}, headers=director), 201
    )
    ticket = sold[-1]["ticket"] if sold[-1] else "none"
    body = {
        "id": w.unique("desk-tk"),
        "shift": shift["id"] if shift else "s-000000000000",
        "tournament": ROOM,
        **_desk_person(2, method="ticket", amount=0, ticket=ticket),
    }
    r = await http.post("/api/desk/take", json=body, headers=director)
    w.expect(r, 201 if r.status_code == 201 else 409)
    wrong = {**body, "id": w.unique("desk-tk"), "method": "card"}
    w.expect(await http.post("/api/desk/take", json=wrong, headers=director), 422, "ticket")


@probe("GET /api/t/{tid}/seatcard/{player}", "POST /api/t/{tid}/seatcard/scan")
async def _seat_card(w: World, http: httpx.AsyncClient) -> None:
    """A player's seat card in the 10,000-player room (the QR code drawn on the server), read
    by the floor's camera: the one scan taken, the second refused; the longest code a scan
    takes, forged, refused naming it, and every bound past it."""
    floor = w.headers("floor")
    card = None
    for i in range(40):
        answer = w.expect(await http.get(f"/api/t/{ROOM}/seatcard/P{i}"), 200)
        card = answer and answer["card"]
        if card:
            break
    assert card is not None or not w.strict, "no seated player among the room's first 40"
    scan = f"/api/t/{ROOM}/seatcard/scan"
    if card:
        body = {"code": card["code"], "table": card["table"]}
        first = w.expect(await http.post(scan, json=body, headers=floor), 200)
        again = w.expect(await http.post(scan, json=body, headers=floor), 200)
        if w.strict:
            # The probes run again on the same server (the bench): the first may be used too.
            assert first["verdict"] in ("ok", "used") and again["verdict"] == "used", again
    w.expect(await http.get(f"/api/t/{ROOM}/seatcard/nobody"), 404, "player")
    w.expect(await http.get(f"/api/t/{ROOM}/seatcard/{'x' * 65}"), 422, "player")
    w.expect(await http.get(f"/api/t/{ROOM}-none/seatcard/P1"), 404)
    longest = "FS1." + "A" * (SEAT_CODE - 8) + ".AAA"
    w.expect(await http.post(scan, json={"code": longest}, headers=floor), 422, "code")
    w.expect(await http.post(scan, json={"code": longest + "A"}, headers=floor), 422, "code")
    w.expect(await http.post(scan, json={"code": ""}, headers=floor), 422, "code")
    w.expect(
        await http.post(scan, json={"code": "FS1.x.y", "table": 0}, headers=floor), 422, "table"
    )
    w.expect(
        await http.post(scan, content=b'{"code": "' + b"x" * 2000 + b'"}', headers=floor),
        413,
        "body",
    )
    w.expect(await http.post(scan, json={"code": "FS1.x.y"}), 403)


def order() -> list[str]:
    """The probes, each once (a probe may cover several keys), in the order written."""
    seen: dict[Probe, str] = {}
    for key, run_ in PROBES.items():
        seen.setdefault(run_, key)
    return list(seen.values())


def covered(key: str) -> list[str]:
    """Every key the probe of ``key`` covers."""
    return [k for k, run_ in PROBES.items() if run_ is PROBES[key]]
