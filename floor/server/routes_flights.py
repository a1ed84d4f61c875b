"""Flights over HTTP: the end of the day's counts and check, and Day 2 made from the flights.

    GET  /api/t/{id}/bags        the bag sheets and the total-chips check (staff)
    GET  /api/t/{id}/counts      the night's counts, published: every bag, biggest first
    GET  /api/t/{id}/counts.csv  the same as a file
    POST /api/day2               Day 2 of the flights ``{"id", "name", "flights": [ids],
                                 "acknowledge"?: {"reason"}}`` (the director): their survivors
                                 with their bags, redrawn; a flight whose chip check failed
                                 needs the acknowledgement, which Day 2's log keeps

The flight itself (``set_flight``), the end of the day (``end_day``) and each table's sheet
(``bag_table``) are commands, sent through the command API like any other. Day 2 is a new
tournament whose log starts with its tables, its players with their bagged stacks and the
redraw (``engine.day2.first_events``): its screens, its player search and its seat list are
those of any tournament.
"""

from __future__ import annotations

import asyncio
import logging
import random
from typing import Annotated

import msgspec
from msgspec import Meta
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ..engine import bagging, day2
from ..engine.errors import FloorError
from ..engine.events import Event, TournamentCreated
from ..engine.state import Tournament
from ..exports.cells import csv_bytes
from ..store.ids import check_tournament_id
from .answers import answer
from .context import floor_of, staff, tid_of
from .edges import BadRequest, decode, handle_errors, json_response, read_body
from .permissions import require_director
from .principal import Forbidden

log = logging.getLogger("floor.server")
_encode = msgspec.json.Encoder().encode

#: A table screen (and a dealer on one) is no reader of the counts and bags.
_STAFF = ("director", "floor")


class NewDay2(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    id: str
    name: Annotated[str, Meta(min_length=1, max_length=80)]
    flights: Annotated[tuple[str, ...], Meta(min_length=1, max_length=50)]
    #: The director's word (with a reason) for flights whose chip check failed.
    acknowledge: day2.Acknowledgement | None = None


class CountRow(msgspec.Struct, frozen=True, kw_only=True):
    player: str
    name: str
    table: int
    stack: int
    bag: str | None


def counts(t: Tournament) -> list[CountRow]:
    """Every bag of the day, biggest first (equal stacks by player id)."""
    players = t.state.players
    rows = [
        CountRow(
            player=b.player,
            name=players[b.player].name,
            table=sheet.table,
            stack=b.stack,
            bag=b.bag,
        )
        for sheet in t.state.bags.values()
        for b in sheet.bags
    ]
    rows.sort(key=lambda r: (-r.stack, r.player))
    return rows


@handle_errors
async def get_bags(request: Request) -> Response:
    floor = floor_of(request)
    principal, _ = await floor.principal(request)
    if principal.role not in _STAFF:
        raise Forbidden("the bag sheets are the staff's: sign in")
    t, version = await floor.store.tournament(tid_of(request))
    s = t.state
    return json_response(
        {
            "version": version,
            "flight": s.flight,
            "day_ended": s.day_ended,
            "sheets": sorted(s.bags.values(), key=lambda b: b.table),
            "check": bagging.room_check(t),
        }
    )


@handle_errors
async def get_counts(request: Request) -> Response:
    """The night's counts, published: built once per version (``answers``), not for each
    phone that asks (at 10,000 bags a sort and an encoding each time)."""
    floor = floor_of(request)
    t, version = await floor.store.tournament(tid_of(request))
    s = t.state

    def build() -> bytes:
        return _encode(
            {"tournament": s.id, "name": s.name, "day_ended": s.day_ended, "counts": counts(t)}
        )

    body = answer(floor.metrics, "counts", s.id, version, build)
    return Response(body, media_type="application/json")


def _counts_csv(t: Tournament) -> bytes:
    # Names and bag labels are anybody's text: written as cells no spreadsheet runs.
    rows = (
        [i, row.name, row.player, row.table, row.stack, row.bag]
        for i, row in enumerate(counts(t), 1)
    )
    return csv_bytes(["rank", "name", "id", "table", "chips", "bag"], rows)


@handle_errors
async def get_counts_csv(request: Request) -> Response:
    floor = floor_of(request)
    tid = tid_of(request)
    t, version = await floor.store.tournament(tid)
    return Response(
        answer(floor.metrics, "counts.csv", tid, version, lambda: _counts_csv(t)),
        media_type="text/csv; charset=utf-8",
        headers={
            "Content-Disposition": f'attachment; filename="{tid}-counts.csv"',
            "Cache-Control": "no-store",
        },
    )


@handle_errors
async def create_day2(request: Request) -> Response:
    floor = floor_of(request)
    principal = await staff(request)
    require_director(principal, "creates Day 2")
    spec = decode(await read_body(request, floor.settings.max_body), NewDay2)
    try:
        tid = check_tournament_id(spec.id)
    except FloorError as e:
        raise BadRequest(e.message, field="id") from None
    tournaments = []
    for i, fid in enumerate(spec.flights):
        try:
            t, _ = await floor.store.tournament(check_tournament_id(fid))
        except FloorError as e:
            raise BadRequest(e.message, field=f"flights[{i}]") from None
        tournaments.append(t)
    events = {t.state.flight.event if t.state.flight else None for t in tournaments}
    if len(events) > 1:
        raise BadRequest("the flights are of different events", field="flights")
    flights = [day2.flight_of(t) for t in tournaments]
    first = min(tournaments, key=lambda t: t.state.flight.order if t.state.flight else 1)
    rule = first.state.flight.rules.stack_forward if first.state.flight else "best"
    rules, structure = first.state.rules, first.state.structure
    # The redraw of every survivor (thousands): on a worker thread, from the flights' bags.
    plan = await asyncio.to_thread(
        day2.plan, flights, rule, rules, random.SystemRandom(), structure, spec.acknowledge
    )
    step: int | None = None
    if structure is not None:
        # Day 2 starts at the level after the last one any flight played.
        last = max(t.state.day_ended.level for t in tournaments if t.state.day_ended)
        step = day2.resume_step(structure, structure.level_index(last)) if last else None

    # The redraw itself is made in Day 2's creation, from its first committed seed (``fair``):
    # the plan's own draw above only sized it.
    drawn: list[day2.Day2Plan] = []

    def then(created: TournamentCreated, now: float, rng: random.Random) -> list[Event]:
        drawn.append(day2.redrawn(plan, rules, rng))
        return day2.first_events(created, drawn[-1], step, now, by=principal.username)[1:]

    outcome = await floor.store.create(tid, spec.name, rules, structure, then=then)
    t, _ = await floor.store.tournament(tid)
    log.info(
        "day 2 created",
        extra={
            "tournament": tid,
            "flights": list(spec.flights),
            "by": principal.username,
            "checks_failed": [c.flight for c in plan.checks],
            "acknowledged": plan.acknowledged,
        },
    )
    return json_response(
        {
            "outcome": outcome,
            "players": len(plan.players),
            "tables": len(t.state.tables),
            "set_aside": plan.set_aside,
            "entries": plan.entries,
            "chips": plan.chips,
            "pool": plan.pool,
            "checks": plan.checks,
            "acknowledged": plan.acknowledged,
        },
        201,
    )


routes: list[BaseRoute] = [
    Route("/api/t/{tid}/bags", get_bags),
    Route("/api/t/{tid}/counts", get_counts),
    Route("/api/t/{tid}/counts.csv", get_counts_csv),
    Route("/api/day2", create_day2, methods=["POST"]),
]
