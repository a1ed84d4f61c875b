"""Tournaments over HTTP: list, create, archive, and the reads (state, players, events)."""

from __future__ import annotations

import asyncio
import logging

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from .. import config as configs
from ..engine.commands import SetCapacity
from ..engine.errors import FloorError
from ..engine.rules import Rules, Structure
from ..protocol import catch_up_message
from ..store.errors import AlreadyExists, NotFound
from ..store.ids import check_tournament_id
from ..store.outcome import Outcome
from . import views
from .answers import answer, answer_kept
from .context import Floor, floor_of, staff, tid_of
from .edges import (
    BadRequest,
    check_numbers,
    decode,
    handle_errors,
    json_response,
    read_body,
    search_query,
)
from .permissions import require_director
from .player_search import index_of
from .redact import shown, view_of
from .tournament_setup import NewTournament, capacity_of, config_keys, tournament_setup
from .views import Message

log = logging.getLogger("floor.server")


@handle_errors
async def list_tournaments(request: Request) -> Response:
    floor = floor_of(request)
    archived = request.query_params.get("archived") in ("1", "true")
    return json_response(await floor.store.summaries(archived=archived))


@handle_errors
async def create_tournament(request: Request) -> Response:
    floor = floor_of(request)
    principal = await staff(request)
    require_director(principal, "creates tournaments")
    body = await read_body(request, floor.settings.max_body)
    # A structure and payout table as large as a body holds are checked as they are read
    # (every row adding up to 100, exactly): 80 ms, on a worker thread.
    spec = await asyncio.to_thread(decode, body, NewTournament, config_keys())
    # A starting stack or rebuy of 2**64 - 1 overflows the snapshots like a stack does.
    check_numbers(spec)
    try:
        tid = check_tournament_id(spec.id)
    except FloorError as e:
        raise BadRequest(e.message, field="id") from None
    rules, structure, name = tournament_setup(spec)
    again = await _created_before(floor, tid, name, rules, structure)
    if again is not None:
        return json_response(again, 201)
    outcome = await floor.store.create(tid, name, rules, structure)
    if (capacity := capacity_of(spec)) is not None:
        # Keyed by the tournament: a retry of the creation sets it once.
        await floor.store.execute(tid, SetCapacity(capacity=capacity), f"capacity:{tid}")
    log.info("tournament created", extra={"tournament": tid, "by": principal.username})
    return json_response(outcome, 201)


async def _created_before(
    floor: Floor, tid: str, name: str, rules: Rules, structure: Structure | None
) -> Outcome | None:
    """The answer to a retry of the request that created ``tid``; None if there is no ``tid``.

    ``store.create`` answers any request for an existing id as a retry of the first one (201,
    ``duplicate``) and lists the tournament again under the new request's name and time: a
    second "create" with other settings created nothing, said it had, and renamed the
    tournament in the list (or listed an archived one as live again). Now other settings are
    refused (409), and a true retry is answered without touching the list.
    """
    try:
        t, _ = await floor.store.tournament(tid)
    except NotFound:
        return None
    s = t.state
    if (s.name, s.rules, s.structure) != (name, rules, structure):
        raise AlreadyExists(
            f"tournament {tid} already exists, with other settings: choose another id",
            field="id",
        )
    # The first request may have written the log and failed before listing it.
    await floor.store.list_again(tid, s.name, s.created_at)
    return Outcome(ok=True, first=1, last=1, duplicate=True)


@handle_errors
async def archive_tournament(request: Request) -> Response:
    """Move a tournament from the list to the archive (``GET /api/tournaments?archived=1``);
    its log, its screens and its backup stay as they are."""
    floor = floor_of(request)
    tid = tid_of(request)
    principal = await staff(request)
    require_director(principal, "archives tournaments")
    summary = await floor.store.archive(tid)
    log.info("tournament archived", extra={"tournament": tid, "by": principal.username})
    return json_response(summary)


@handle_errors
async def get_tournament(request: Request) -> Response:
    """The full state and plan at the current version: the same snapshot a screen of the
    reader's role gets when it connects (the very bytes, built once per version and role,
    and gzipped once when the reader accepts it)."""
    floor = floor_of(request)
    tid = tid_of(request)
    principal, _ = await floor.principal(request)
    t, version = await floor.store.tournament(tid)
    view = view_of(principal, tid)
    snapshot = floor.hub.views.snapshot(tid, t, version).view(view)
    return await _snapshot_response(request, snapshot, version, view)


@handle_errors
async def start_snapshot(request: Request) -> Response:
    """What a screen starts from (``web/js/conn.js``): the snapshot packed and gzipped, built
    once for every screen of the reader's role; it may be a few versions old (``Floor-Seq``
    says which), and the websocket opened with ``?since=`` that number brings the screen
    to the current one from the batches the server holds. At 10,000 players 120 KB, where
    the full snapshot is 2.6 MB (222 KB gzipped)."""
    floor = floor_of(request)
    tid = tid_of(request)
    principal, _ = await floor.principal(request)
    t, version = await floor.store.tournament(tid)
    view = view_of(principal, tid)
    seq, views, _ = floor.hub.snapshot_for(tid, t, version, True, view)
    return await _snapshot_response(request, views.view(view), seq, view)


async def _snapshot_response(request: Request, snapshot: Message, seq: int, view: str) -> Response:
    # ``Floor-View``: the service worker keeps the public's snapshot alone (web/sw.js).
    headers = {
        "Vary": "Accept-Encoding",
        "Cache-Control": "no-store",
        "Floor-Seq": str(seq),
        "Floor-View": "public" if view == "public" else "staff",
    }
    if accepts_gzip(request.headers.get("accept-encoding", "")):
        body = await snapshot.gzipped()
        headers["Content-Encoding"] = "gzip"
    else:
        body = snapshot.data
    return Response(body, media_type="application/json", headers=headers)


def accepts_gzip(header: str) -> bool:
    """Whether an ``Accept-Encoding`` header takes gzip (``gzip;q=0`` refuses it)."""
    for item in header.lower().split(","):
        name, _, params = item.partition(";")
        if name.strip() in ("gzip", "*"):
            q = params.strip().removeprefix("q=").strip() if "q=" in params else "1"
            try:
                return float(q) > 0
            except ValueError:
                return False
    return False


@handle_errors
async def find_players(request: Request) -> Response:
    floor = floor_of(request)
    tid = tid_of(request)
    query = search_query(request)
    t, _ = await floor.store.tournament(tid)
    return json_response(views.search_players(t, query, index=index_of(tid, t)))


#: The most events one read answers: a tool pages with a later ``since``.
MAX_EVENTS = 5000


@handle_errors
async def events_since(request: Request) -> Response:
    """The events after ``since`` as stored (a screen that fell behind can also use the
    websocket's resync; this is for tools and exports)."""
    floor = floor_of(request)
    tid = tid_of(request)
    raw = request.query_params.get("since", "0")
    # ASCII digits only: str.isdigit() also passes "²", which int() refuses (a 500 before).
    if not (raw.isascii() and raw.isdigit()):
        raise BadRequest("since is a sequence number", field="since")
    since = int(raw)
    t, version = await floor.store.tournament(tid)
    # Told from the version, before anything is read: reading 5,001 events to refuse them
    # cost 128 ms a request at 10,000 players, for anyone who asked. A since at or past the
    # version has nothing after it (past the largest stream id, asking Redis anyway was a
    # ResponseError, "Invalid stream ID", and a 500).
    if version - since > MAX_EVENTS:
        raise _too_many_events()
    if since >= version:
        return json_response(
            {"type": "events", "tournament": tid, "from": since + 1, "to": since, "events": []}
        )
    principal, _ = await floor.principal(request)
    view = view_of(principal, tid)
    key = (tid, since, view)
    kept = answer_kept(floor.metrics, "events", key, version)
    if kept is not None:
        return Response(kept, media_type="application/json")
    missed = await floor.store.events_since(tid, since, MAX_EVENTS)
    if missed is None:  # written meanwhile
        raise _too_many_events()
    # The events up to the version our copy holds, so that the answer is that version's
    # (built once for it: 30 ms at 10,000 players, for anyone who asked).
    t, version = await floor.store.tournament(tid)
    missed = missed[: version - since]

    def build() -> bytes:
        return shown(view, catch_up_message(tid, since + 1, missed, t))

    return Response(
        answer(floor.metrics, "events", key, version, build), media_type="application/json"
    )


def _too_many_events() -> BadRequest:
    return BadRequest(f"more than {MAX_EVENTS} events: page with a later since", field="since")


async def config_lists(request: Request) -> Response:
    """The shipped rule sets, structures and tournament configs, for the director console."""
    return json_response(
        {
            "rules": sorted(configs.rule_sets()),
            "structures": sorted(configs.structures()),
            "tournaments": sorted(configs.tournaments()),
        }
    )


routes: list[BaseRoute] = [
    Route("/api/config", config_lists),
    Route("/api/tournaments", list_tournaments, methods=["GET"]),
    Route("/api/tournaments", create_tournament, methods=["POST"]),
    Route("/api/t/{tid}", get_tournament),
    Route("/api/t/{tid}/snapshot", start_snapshot),
    Route("/api/t/{tid}/players", find_players),
    Route("/api/t/{tid}/events", events_since),
    Route("/api/t/{tid}/archive", archive_tournament, methods=["POST"]),
]
