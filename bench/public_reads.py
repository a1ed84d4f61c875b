"""Benchmark: what the reads anyone may make cost, at 10,000 players, before and after.

Issue 14 measured the public reads at 10,000 players: a player search 49-91 ms a keystroke,
``/events?since=0`` 128 ms even when refused, a pot of 370 seats 139 ms and 330 KB, and
``GET /api/t/{id}`` encoded afresh each time. This runs, in one process, the application as
``floor serve`` builds it (``wiring.create_app``) on an embedded Valkey, with a 10,000-player
tournament (Czech and other names with diacritics, a third busted), and times each read
through the whole ASGI application (routing, middleware, the handler, the encoding), beside
what the same read cost before, in the same run:

- the search, a keystroke at a time ("n", "no", "nov"...): before, the linear scan of every
  name (kept below as it was); after, the index (``floor/server/player_search.py``), also
  the index's own building (once per entry into the field, not per version);
- ``/events?since=0``: before, the 5,001 events read from Valkey and then refused; after, the
  refusal from the version;
- a pot of 370 seats: before, its split and answer; after, the 422 that refuses it (a pot of
  9 seats beside it);
- ``GET /api/t/{id}``: the first read of a version (the snapshot built) beside the next ones
  (the same bytes, cached per version and role).

- the open read API (``/api/open/v1``, ``floor/server/routes_open.py``): each document's
  first read of a version (built) and the next ones (kept), and a 304 to its ETag, beside
  the cached snapshot ``GET /api/t/{id}`` measured in the same run (``--only open``: this
  part alone).

    .venv/bin/python bench/public_reads.py [--players 10000] [--repeat 30] [--only open]

Prints medians (and p90) in milliseconds, before and after. It never fails on a timing.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import httpx
import msgspec

from floor.engine import commands as cmd
from floor.engine.calc.pots import PotInput, split_pot
from floor.engine.decide import decide
from floor.engine.events import Event, TournamentCreated
from floor.engine.rulebook import fold
from floor.engine.rules import Rules
from floor.engine.state import Tournament
from floor.protocol import encode_event
from floor.redisdb.embedded import EmbeddedServer
from floor.server.context import Floor
from floor.server.settings import Settings
from floor.server.tools import PotAnswer
from floor.server.views import PlayerFound
from floor.server.wiring import create_app
from floor.store.outcome import Kept
from floor.store.ports import Append, Snapshot, Summary

FIRST = [
    "Jan", "Petr", "Jiří", "Tomáš", "Lukáš", "Ondřej", "Eva", "Jana", "Marie", "Lenka",
    "Zuzana", "Šárka", "Łukasz", "Øystein", "Anna", "Klára", "Radek", "Miloš", "Václav", "Zoë",
]  # fmt: skip
LAST = [
    "Novák", "Svoboda", "Dvořák", "Černý", "Procházka", "Kučera", "Veselý", "Horák", "Němec",
    "Pokorný", "Marek", "Pospíšil", "Hájek", "Král", "Jelínek", "Růžička", "Beneš", "Fiala",
    "Sedláček", "Doležal", "Zeman", "Kolář", "Navrátil", "Čermák", "Smith", "Müller", "García",
]  # fmt: skip
#: What a phone sends as its player's name is typed, and a few whole queries.
KEYSTROKES = ["n", "no", "nov", "nova", "novak", "j", "ja", "jan", "jan n", "jan nov", "zzz"]
RULES = {"game": "holdem", "seats": 10, "final_table": 10}
TID = "bench-reads"


def linear_find(t: Tournament, query: str, limit: int = 20) -> list[PlayerFound]:
    """The search as it was before the index: every name folded and ranked per keystroke."""
    words = fold(query).split()
    if not words:
        return []
    hits = []
    for p in t.state.players.values():
        name = fold(p.name)
        if all(w in name or w == p.id.casefold() for w in words):
            starts = any(part.startswith(words[0]) for part in name.split())
            hits.append((not starts, p.busted, name, p))
    hits.sort(key=lambda h: h[:3])
    plan = t.plan
    out = []
    for *_, p in hits[:limit]:
        move = plan.move_of(p.id)
        out.append(
            PlayerFound(
                id=p.id,
                name=p.name,
                table=p.table,
                seat=p.seat,
                busted=p.busted,
                place=p.bust.place if p.bust else None,
                moving_to=None if move is None else {"table": move.to.table, "seat": move.to.seat},
            )
        )
    return out


_encode = msgspec.json.Encoder().encode


async def timed(repeat: int, run: Callable[[], object]) -> list[float]:
    """Milliseconds per call of ``run`` (awaited when it returns an awaitable)."""
    gc.collect()  # what the run before left is not this run's to collect
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        result = run()
        if isinstance(result, Awaitable):
            await result
        out.append((time.perf_counter() - start) * 1000)
    return out


def shown(ms: list[float]) -> str:
    ordered = sorted(ms)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return f"{statistics.median(ms):8.3f} ms (p90 {p90:7.3f})"


def row(what: str, before: list[float] | None, after: list[float]) -> None:
    left = shown(before) if before is not None else " " * 26
    print(f"  {what:<44} {left}   {shown(after)}", flush=True)


async def set_up(floor: Floor, players: int, seed: int) -> None:
    """The tournament decided here by the engine, command by command, and written to the
    log in large appends (a command at a time took minutes), with a snapshot at the end."""
    rng = random.Random(seed)
    created = TournamentCreated(
        id=TID, name="Bench", rules=msgspec.convert(RULES, Rules), created_at=time.time()
    )
    t = Tournament.create(created)
    events: list[Event] = [created]
    commands: list[cmd.Command] = [
        cmd.Register(name=f"{rng.choice(FIRST)} {rng.choice(LAST)}", player=f"P{i}")
        for i in range(players)
    ]
    commands.append(cmd.DrawSeats())
    commands += [cmd.Bust(player=f"P{i}") for i in rng.sample(range(players), players // 3)]
    for command in commands:
        events += decide(t, command, time.time(), rng)
    encoded = [encode_event(e) for e in events]
    log = floor.store.log
    for version in range(0, len(encoded), 1000):
        chunk = encoded[version : version + 1000]
        last = version + len(chunk)
        done = last == len(encoded)
        await log.append(
            TID,
            Append(
                version=version,
                command_id=f"bulk-{last}",
                events=chunk,
                result=Kept(ok=True, first=version + 1, last=last),
                snapshot=Snapshot(last, t.state) if done else None,
            ),
        )
    await log.list_tournament(Summary(id=TID, name="Bench", created_at=created.created_at))


def pot(seats: int) -> dict[str, object]:
    return {
        "game": "flop",
        "odd_chip_unit": 25,
        "button": 1,
        "contributions": [{"seat": s, "contributed": 100 * s} for s in range(1, seats + 1)],
        "high": [[s] for s in range(seats, 0, -1)],
    }


async def bench(url: str, players: int, repeat: int, seed: int, only: str | None = None) -> None:
    # A public client from an address the limits apply to, with a bucket it never empties:
    # its cost is in the figures, its refusals are not.
    settings = Settings(redis_url=url, log_level="warning", rate_limit=1e9, rate_burst=10**9)
    app = create_app(settings)
    async with app.router.lifespan_context(app):
        floor: Floor = app.state.floor
        start = time.perf_counter()
        await set_up(floor, players, seed)
        print(f"set up {players} players in {time.perf_counter() - start:.0f} s", flush=True)
        await floor.store.tournament(TID)
        # As the server does once it has started: what is loaded stays, and the collector
        # leaves it alone (else a full collection, set off by the baseline's garbage, lands
        # in whichever read comes next).
        gc.collect()
        gc.freeze()
        transport = httpx.ASGITransport(app=app, client=("203.0.113.9", 4000))
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as http:
            if only != "open":
                await run_reads(floor, http, repeat)
            await run_open(floor, http, repeat)


async def run_reads(floor: Floor, http: httpx.AsyncClient, repeat: int) -> None:
    t, version = await floor.store.tournament(TID)
    print(f"\n{len(t.state.players)} players, version {version}; medians of {repeat} runs")
    print(f"  {'read':<44} {'before':<26}   after")

    # The search ----------------------------------------------------------------------------
    from floor.server import player_search

    player_search._INDEXES.clear()
    player_search._FOLDED.clear()
    built = await timed(1, lambda: player_search.PlayerIndex(t))
    rebuilt = await timed(5, lambda: player_search.PlayerIndex(t))
    for q in KEYSTROKES:
        assert [f.id for f in linear_find(t, q)] == [
            f["id"]
            for f in (await http.get(f"/api/t/{TID}/players", params={"q": q})).json()["players"]
        ], q

        def old(q: str = q) -> None:
            _encode(linear_find(t, q))

        async def new(q: str = q) -> None:
            r = await http.get(f"/api/t/{TID}/players", params={"q": q})
            assert r.status_code == 200

        row(f"search {q!r}", await timed(max(3, repeat // 5), old), await timed(repeat, new))
    row("  the index, built (first search of a field)", None, built)
    row("  the index, rebuilt (after an entry)", None, rebuilt)

    # The events since 0 ---------------------------------------------------------------------
    async def old_events() -> None:
        assert await floor.store.events_since(TID, 0, limit=5000) is None

    async def new_events() -> None:
        r = await http.get(f"/api/t/{TID}/events", params={"since": "0"})
        assert r.status_code == 422, r.text

    row(
        "/events?since=0 refused (5,000 at most)",
        await timed(repeat, old_events),
        await timed(repeat, new_events),
    )

    # The pot calculator ---------------------------------------------------------------------
    big = pot(370)
    body = _encode(big)

    def old_pot() -> None:
        split = split_pot(msgspec.convert(big, PotInput))
        old_bytes.append(len(_encode(PotAnswer(pots=split.pots, totals=split.totals))))

    async def new_pot() -> None:
        r = await http.post("/api/pots", content=body, headers={"content-type": "application/json"})
        assert r.status_code == 422, r.text
        new_bytes.append(len(r.content))

    async def table_pot() -> None:
        r = await http.post("/api/pots", json=pot(9))
        assert r.status_code == 200, r.text

    old_bytes: list[int] = []
    new_bytes: list[int] = []
    row(
        "a pot of 370 seats",
        await timed(max(3, repeat // 5), old_pot),
        await timed(repeat, new_pot),
    )
    print(f"  {'  answer bytes':<44} {old_bytes[0]:>11,} B{'':<13}   {new_bytes[0]:>8,} B")
    row("a pot of 9 seats (a table's)", None, await timed(repeat, table_pot))

    # The snapshot ---------------------------------------------------------------------------
    async def snapshot() -> None:
        r = await http.get(f"/api/t/{TID}", headers={"accept-encoding": "identity"})
        assert r.status_code == 200
        sizes.append(len(r.content))

    sizes: list[int] = []
    # A command makes a new version: its first read builds the snapshot.
    await floor.store.execute(TID, cmd.Register(name="Last Entry", player="LAST"), "last")
    first = await timed(1, snapshot)
    row("GET /api/t/{id}: first read of a version", None, first)
    row("GET /api/t/{id}: the next reads (cached)", None, await timed(repeat, snapshot))
    print(f"  {'  bytes (public view)':<44} {'':<26}   {sizes[0]:>8,} B")

    # The other public reads of a tournament ---------------------------------------------------
    for path in ("prizes", "results.csv", "snapshot"):

        async def read(path: str = path) -> None:
            r = await http.get(f"/api/t/{TID}/{path}")
            assert r.status_code == 200, r.text

        row(f"GET /api/t/{{id}}/{path}", None, await timed(repeat, read))


OPEN_READS = ("clock", "field", "seats", "counts", "results", "payouts", "ots.json")


async def run_open(floor: Floor, http: httpx.AsyncClient, repeat: int) -> None:
    """The open read API's cost per read beside the cached snapshot's, at one version."""
    print(f"\nthe open read API; medians of {repeat} runs (gzip asked, as a browser does)")
    print(f"  {'read':<44} {'first of a version':<26}   next reads (kept)")
    gz = {"accept-encoding": "gzip"}
    sizes: dict[str, int] = {}

    async def read(path: str, headers: dict[str, str] = gz, status: int = 200) -> None:
        r = await http.get(path, headers=headers)
        assert r.status_code == status, (path, r.status_code, r.text[:200])
        if status == 200:
            sizes[path] = int(r.headers.get("content-length", len(r.content)))

    async def new_version(n: list[int] = [0]) -> None:  # noqa: B006 (a counter kept across calls)
        n[0] += 1
        await floor.store.execute(
            TID, cmd.Register(name=f"Open {n[0]}", player=f"O{n[0]}"), f"o{n[0]}"
        )

    async def first_and_next(path: str) -> tuple[list[float], list[float]]:
        firsts = []
        for _ in range(max(3, repeat // 10)):
            await new_version()
            firsts += await timed(1, lambda: read(path))
        return firsts, await timed(repeat, lambda: read(path))

    snapshot = f"/api/t/{TID}"
    first, kept = await first_and_next(snapshot)
    row("GET /api/t/{id} (the cached snapshot)", first, kept)
    for name in OPEN_READS:
        first, kept = await first_and_next(f"/api/open/v1/t/{TID}/{name}")
        row(f"GET /api/open/v1/t/{{id}}/{name}", first, kept)
    version = (await floor.store.tournament(TID))[1]
    changes = f"/api/open/v1/t/{TID}/changes?since={max(0, version - 500)}&limit=500"
    first, kept = await first_and_next(changes)
    row("GET .../changes (500 events)", first, kept)
    etag = (await http.get(f"/api/open/v1/t/{TID}/seats", headers=gz)).headers["etag"]
    not_modified = {**gz, "if-none-match": etag}
    row(
        "GET .../seats with its ETag (304)",
        None,
        await timed(repeat, lambda: read(f"/api/open/v1/t/{TID}/seats", not_modified, 304)),
    )
    print("  bytes sent (gzipped):")
    for path, size in sizes.items():
        print(f"    {path.split('/')[-1]:<42} {size:>10,} B")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", choices=["open"], default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        server = EmbeddedServer(Path(tmp), appendfsync="no")
        server.start()
        try:
            asyncio.run(bench(server.url, args.players, args.repeat, args.seed, args.only))
        finally:
            server.stop()


if __name__ == "__main__":
    main()
