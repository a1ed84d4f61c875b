"""Two flights of one event over HTTP on a real Valkey: each played down and its day ended,
every table bagged (one table's sheet off by 5,000 against its total, flagged, then
corrected with a reason), merged into Day 2 with a player who bagged in both, and Day 2's
seat list found through the player search; then Day 2 played to its winner."""

from __future__ import annotations

import hashlib
import random
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest_asyncio
import redis.asyncio as aioredis
from starlette.applications import Starlette

from floor.backup import Line, export
from floor.engine import chain
from floor.engine.prize import PayoutRow, Prize
from floor.engine.rules import Level, Rules, Structure
from floor.server.context import Floor
from floor.server.settings import Settings
from floor.server.wiring import create_app
from floor.verify import verify

RULES = msgspec.convert({"game": "holdem", "seats": 10, "final_table": 10}, Rules)
STRUCTURE = Structure(
    name="main event",
    starting_stack=20_000,
    chips=(100, 500, 1_000),
    levels=tuple(Level(small_blind=100 * n, big_blind=200 * n, minutes=60) for n in range(1, 8)),
    prize=Prize(
        currency="EUR",
        buy_in=100,
        payouts=(PayoutRow(entries=2, percents=(100,)), PayoutRow(entries=150, percents=(60, 40))),
    ),
)
SECRET = "director secret 1"


@pytest_asyncio.fixture
async def app(redis: aioredis.Redis, redis_url: str) -> AsyncIterator[Starlette]:
    application = create_app(Settings(redis_url=redis_url, rate_limit=0))
    async with application.router.lifespan_context(application):
        yield application


async def director(app: Starlette) -> httpx.AsyncClient:
    floor: Floor = app.state.floor
    await floor.accounts.add("boss", SECRET, "director")
    transport = httpx.ASGITransport(app=app, client=("127.0.0.1", 5000))
    http = httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8000")
    r = await http.post("/api/signin", json={"username": "boss", "secret": SECRET})
    assert r.status_code == 200, r.text
    http.headers["Authorization"] = f"Bearer {r.json()['token']}"
    return http


async def send(http: httpx.AsyncClient, tid: str, command: dict[str, Any], ok: bool = True) -> Any:
    r = await http.post(f"/api/t/{tid}/commands", json={"command": command})
    assert (r.status_code == 200) == ok, r.text
    return r.json()


async def state(http: httpx.AsyncClient, tid: str) -> Any:
    r = await http.get(f"/api/t/{tid}")
    assert r.status_code == 200, r.text
    return r.json()["state"]


async def play_flight(
    app: Starlette, http: httpx.AsyncClient, tid: str, order: int, entrants: list[str]
) -> None:
    await app.state.floor.store.create(tid, f"Day 1{'AB'[order - 1]}", RULES, STRUCTURE)
    rules = {"last_level": 3, "chip_tolerance": 1_000}
    await send(http, tid, {"type": "set_flight", "event": "main", "order": order, "rules": rules})
    entries = [{"name": f"Player {p}", "player": p} for p in entrants]
    await send(http, tid, {"type": "register_many", "entries": entries})
    await send(http, tid, {"type": "draw_seats"})
    await send(http, tid, {"type": "clock_start"})
    # Half the field busts; the survivors play level 3 out and the day ends there.
    rng = random.Random(order)
    for p in rng.sample(entrants[1:], len(entrants) // 2):  # P0 survives every flight
        await send(http, tid, {"type": "bust", "player": p})
    await send(http, tid, {"type": "clock_level", "to": 2})
    await send(http, tid, {"type": "bag_table", "table": 1, "bags": []}, ok=False)
    await send(http, tid, {"type": "clock_level", "to": 3})
    s = await state(http, tid)
    assert s["day_ended"]["by"] == "last_level" and not s["clock"]["running"]
    refused = await send(http, tid, {"type": "clock_resume"}, ok=False)
    assert refused["error"]["reason"] == "day_ended"


async def bag_all(http: httpx.AsyncClient, tid: str, off_table: int) -> dict[int, list[Any]]:
    """Every table bagged with the room's chips shared out; ``off_table``'s first bag is
    written 5,000 too high against the table's total."""
    s = await state(http, tid)
    survivors = [p for p in s["players"].values() if not p["busted"]]
    total = s["entries"] * STRUCTURE.starting_stack
    share, rest = divmod(total // 100, len(survivors))
    stacks = {p["id"]: share * 100 for p in survivors}
    stacks[survivors[0]["id"]] += rest * 100
    sheets: dict[int, list[Any]] = {}
    for number, table in s["tables"].items():
        seated = [pid for _, pid in sorted(table["occupants"].items(), key=lambda x: int(x[0]))]
        if not seated:
            continue
        bags = [{"player": p, "stack": stacks[p], "bag": f"{tid}-{p}"} for p in seated]
        on_table = sum(b["stack"] for b in bags)
        if int(number) == off_table:
            bags[0] = {**bags[0], "stack": bags[0]["stack"] + 5_000}
        sheets[int(number)] = bags
        command = {"type": "bag_table", "table": int(number), "bags": bags}
        await send(http, tid, {**command, "chips_on_table": on_table})
    return sheets


async def test_two_flights_bagged_checked_and_merged_into_day2(app: Starlette) -> None:
    http = await director(app)
    try:
        await flights_to_day2(app, http)
    finally:
        await http.aclose()


def anybody(app: Starlette) -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app=app, client=("127.0.0.1", 5000))
    return httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8000")


async def flights_to_day2(app: Starlette, http: httpx.AsyncClient) -> None:
    a = [f"P{i}" for i in range(100)]
    b = ["P0", *(f"Q{i}" for i in range(99))]
    await play_flight(app, http, "d1a", 1, a)
    await play_flight(app, http, "d1b", 2, b)
    sheets = {tid: await bag_all(http, tid, off_table=2) for tid in ("d1a", "d1b")}

    r = await http.get("/api/t/d1a/bags")
    assert r.status_code == 200, r.text
    check = r.json()["check"]
    assert (check["difference"], check["flagged"]) == (5_000, True)
    assert [t["table"] for t in check["tables"] if t["flagged"]] == [2]
    assert check["why"] == [{"kind": "table_off", "table": 2, "chips": 5_000, "players": None}]

    # The floor corrects table 2's sheet, saying why: the room adds up.
    fixed = [dict(bag) for bag in sheets["d1a"][2]]
    fixed[0]["stack"] -= 5_000
    command = {"type": "bag_table", "table": 2, "bags": fixed}
    refused = await send(http, "d1a", command, ok=False)
    assert refused["error"]["reason"] == "bags_correction_reason"
    await send(http, "d1a", {**command, "reason": "bag miscounted: recounted"})
    sheets["d1a"][2] = fixed  # what Day 2 must take: the corrected sheet
    check = (await http.get("/api/t/d1a/bags")).json()["check"]
    assert (check["difference"], check["flagged"]) == (0, False)

    # The counts are published: public, biggest first, and as a file.
    async with anybody(app) as public:
        counts = (await public.get("/api/t/d1b/counts")).json()["counts"]
        assert counts[0]["stack"] >= counts[-1]["stack"]
        csv = await public.get("/api/t/d1b/counts.csv")
        assert csv.status_code == 200
        # UTF-8 with its byte order mark, as every CSV floor writes (Excel reads the names).
        assert csv.content.decode("utf-8-sig").startswith("rank,name,id,table,chips,bag")

    # Flight B's table 2 is still 5,000 over (a tolerance of 1,000): Day 2 waits for the
    # director's word, with a reason, which Day 2's log keeps.
    spec = {"id": "day2", "name": "Day 2", "flights": ["d1a", "d1b"]}
    r = await http.post("/api/day2", json=spec)
    assert r.status_code == 409, r.text
    error = r.json()["error"]
    assert error["reason"] == "day2_check_failed" and error["field"] == "acknowledge"
    assert error["params"] == {
        "flight": "d1b",
        "difference": 5_000,
        "tolerance": 1_000,
        "flights": 1,
    }
    blank = {"reason": " ", "flights": ["d1b"]}
    r = await http.post("/api/day2", json={**spec, "acknowledge": blank})
    assert (r.status_code, r.json()["error"]["reason"]) == (409, "day2_ack_reason")
    assert (await http.get("/api/t/day2")).status_code == 404  # nothing made meanwhile
    word = "table 2's first bag recounted after the bags were sealed"
    r = await http.post(
        "/api/day2", json={**spec, "acknowledge": {"reason": word, "flights": ["d1a"]}}
    )
    assert r.json()["error"]["params"]["flight"] == "d1b"  # a word for d1a is none for d1b
    acknowledged = {"reason": word, "flights": ["d1b"]}
    r = await http.post("/api/day2", json={**spec, "acknowledge": acknowledged})
    assert r.status_code == 201, r.text
    made = r.json()
    assert [c["flight"] for c in made["checks"]] == ["d1b"] and made["acknowledged"] == word
    # P0 bagged in both flights: once in Day 2, with the bigger bag (best stack forward).
    assert made["players"] == 50 + 50 - 1
    bags_of_p0 = {
        tid: next(b["stack"] for bags in sheets[tid].values() for b in bags if b["player"] == "P0")
        for tid in ("d1a", "d1b")
    }
    smaller = min(bags_of_p0, key=lambda tid: (bags_of_p0[tid], tid == "d1a"))
    assert [(x["player"], x["flight"]) for x in made["set_aside"]] == [("P0", smaller)]
    assert made["entries"] == 200

    day2 = await state(http, "day2")
    assert day2["entries"] == 200 and day2["clock"]["level"] == 3  # the event's field
    carried = day2["carried"]
    assert (carried["acknowledged"], carried["by"]) == (word, "boss")
    assert [(c["flight"], c["difference"]) for c in carried["checks"]] == [("d1b", 5_000)]
    paper = (await http.get("/api/t/day2/paper")).json()
    assert (paper["acknowledged"], paper["acknowledged_by"]) == (word, "boss")
    assert [c["flight"] for c in paper["checks_failed"]] == ["d1b"]
    # The pool is the flights' together, paid as a field of 200 is (two places, not one).
    assert made["pool"]["pool"] == 20_000
    prizes = (await http.get("/api/t/day2/prizes")).json()["pool"]
    assert (prizes["pool"], len(prizes["places"])) == (20_000, 2)
    bagged = {b["player"]: b["stack"] for bags in sheets["d1b"].values() for b in bags}
    for pid, stack in bagged.items():
        if pid != "P0":
            assert day2["players"][pid]["stack"] == stack
    assert day2["players"]["P0"]["stack"] == max(bags_of_p0.values())
    async with anybody(app) as public:
        found = (await public.get("/api/t/day2/players", params={"q": "Player P0"})).json()
        assert found["total"] >= 1
        hit = next(p for p in found["players"] if p["id"] == "P0")
        assert hit["table"] is not None and hit["seat"] is not None

    # A third flight of a house that allows no flight after a bag: P0 bagged, and is refused;
    # somebody new enters.
    await app.state.floor.store.create("d1c", "Day 1C", RULES, STRUCTURE)
    rules = {"stack_forward": "no_flight_after_bag", "last_level": 3}
    await send(http, "d1c", {"type": "set_flight", "event": "main", "order": 3, "rules": rules})
    refused = await send(http, "d1c", {"type": "register", "name": "P0", "player": "P0"}, ok=False)
    assert refused["error"]["reason"] == "flight_after_bag"
    assert refused["error"]["params"]["player"] == "P0"
    await send(http, "d1c", {"type": "register", "name": "New", "player": "N1"})

    # Day 2 plays to its winner.
    await send(http, "day2", {"type": "clock_start"})
    left = [p for p, v in day2["players"].items() if not v["busted"]]
    for p in left[:-1]:
        await send(http, "day2", {"type": "bust", "player": p})
    final = await state(http, "day2")
    assert final["winner"] == left[-1]
    # Day 2's redraw was its first committed draw: made again from its own log, offline.
    await day2_draws_verify(app)


async def day2_draws_verify(app: Starlette) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "day2.floor"
        await export(app.state.floor.store, "day2", path)
        text = path.read_bytes()
        assert b'"decided":"{\\"type\\":\\"day2_redraw\\"}"' in text
        report = verify(path, None)
        said = "\n".join(report.lines)
        assert not report.failed, said
        assert "ok    the draws (floor-draw/1): " in said, said
        # Two players' seats swapped by a forger who links and digests again: named.
        lines = text.splitlines(keepends=True)
        body = [msgspec.json.decode(x, type=Line) for x in lines[1:-2]]
        raw = [bytes(x.event) for x in body]
        at = next(i for i, data in enumerate(raw) if b'"type":"seats_drawn"' in data)
        drawn = msgspec.json.decode(raw[at])
        a, b = drawn["seats"][0], drawn["seats"][1]
        a["player"], b["player"] = b["player"], a["player"]
        raw[at] = msgspec.json.encode(drawn)
        links = chain.links(chain.genesis("day2"), enumerate(raw, 1))
        out = [lines[0]]
        out += [
            b'{"seq":%d,"event":%s,"link":"%s"}\n' % (n, data, link.link.encode())
            for (n, data), link in zip(enumerate(raw, 1), links, strict=True)
        ]
        out.append(lines[-2])
        digest = hashlib.sha256(b"".join(out)).hexdigest()
        forged = Path(folder) / "forged.floor"
        forged.write_bytes(b"".join(out) + b'{"digest":"sha256:%s"}\n' % digest.encode())
        caught = "\n".join(verify(forged, None).lines)
        assert "FAIL  draw 1 (event" in caught and "(Day 2's redraw)" in caught, caught
        assert f"the committed seed draws table {a['table']}, seat {a['seat']}" in caught or (
            f"the committed seed draws table {b['table']}, seat {b['seat']}" in caught
        ), caught
