"""The open read API, ``/api/open/v1``: what reporters, the venue's website and other tools
read of a tournament (``docs/open-api.md``), apart from the screens' protocol.

Each answer is a plain JSON document built by the engine's read side (``engine.open_read``)
from the state as the public may see it, once per tournament and sequence number
(``answers``), with its ETag and its gzipped bytes: a read costs what a kept snapshot costs,
and a reader that sends the ETag back (``If-None-Match``) is answered 304 with no body.
The per-address rate limits (``limits``) apply as to any request; the public edge serves
every route here (``public_edge.SERVED``). A query parameter the route does not take, or a
value it cannot use, is answered 400 naming it.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

import msgspec
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ..engine import chain
from ..engine.read import open_draws, open_read
from ..engine.state import Tournament
from ..exports import signed
from ..protocol import decode_event
from .answers import answer
from .answers import held as held_answer
from .context import floor_of, tid_of
from .edges import BadQuery, NoSuch, handle_errors
from .open_answer import (
    DEFAULT_CHANGES,
    MAX_CHANGES,
    MAX_TABLE,
    MAX_TOP,
    PREFIX,
    SITE,
    Built,
    built,
    floor_version,
)
from .open_api import document
from .routes_tournaments import accepts_gzip

_encode = msgspec.json.Encoder().encode


def _matches(header: str, etag: str) -> bool:
    """Whether an ``If-None-Match`` header names ``etag`` (weakly compared, as RFC 9110
    asks for a GET)."""
    for item in header.split(","):
        tag = item.strip()
        if tag == "*" or tag.removeprefix("W/") == etag:
            return True
    return False


def respond(request: Request, doc: Built, seq: int | None) -> Response:
    headers = {
        "ETag": doc.etag,
        # Kept by a reader and asked again with the ETag: a 304 costs no body.
        "Cache-Control": "no-cache",
        "Vary": "Accept-Encoding",
        # Read by any website's script: nothing here needs a credential, none is sent.
        "Access-Control-Allow-Origin": "*",
        "Access-Control-Expose-Headers": "ETag, Floor-Seq",
    }
    if seq is not None:
        headers["Floor-Seq"] = str(seq)
    if _matches(request.headers.get("if-none-match", ""), doc.etag):
        return Response(status_code=304, headers=headers)
    body = doc.body
    if doc.gzipped is not None and accepts_gzip(request.headers.get("accept-encoding", "")):
        body = doc.gzipped
        headers["Content-Encoding"] = "gzip"
    return Response(body, media_type="application/json", headers=headers)


def check_query(request: Request, takes: Collection[str]) -> None:
    for name in request.query_params:
        if name not in takes:
            accepted = ", ".join(sorted(takes)) or "none"
            raise BadQuery(
                f"{name} is not a parameter of this read (it takes: {accepted})", field=name
            )
    for name in takes:
        if len(request.query_params.getlist(name)) > 1:
            raise BadQuery(f"{name} is given more than once", field=name)


def whole_number(request: Request, name: str, low: int, high: int) -> int | None:
    raw = request.query_params.get(name)
    if raw is None:
        return None
    # ASCII digits only ("²" passes str.isdigit() and not int()), and few of them: int() of
    # a long string of digits costs time, and past 4,300 of them raises.
    ok = raw.isascii() and raw.isdigit() and len(raw) <= len(str(high))
    if not ok or not low <= int(raw) <= high:
        raise BadQuery(f"{name} is a whole number from {low} to {high}", field=name)
    return int(raw)


async def _document(
    request: Request,
    kind: str,
    takes: Collection[str],
    build: Callable[[Tournament, int], object],
    key: object = None,
) -> Response:
    check_query(request, takes)
    floor = floor_of(request)
    tid = tid_of(request)
    t, version = await floor.store.tournament(tid)
    doc = answer(
        floor.metrics,
        f"open:{kind}",
        (tid, key),
        version,
        lambda: built(_encode(build(t, version))),
    )
    return respond(request, doc, version)


@handle_errors
async def get_clock(request: Request) -> Response:
    return await _document(request, "clock", (), open_read.clock)


@handle_errors
async def get_field(request: Request) -> Response:
    return await _document(request, "field", (), open_read.field)


@handle_errors
async def get_seats(request: Request) -> Response:
    table = whole_number(request, "table", 1, MAX_TABLE)
    return await _document(
        request, "seats", ("table",), lambda t, v: open_read.seats(t, v, table), key=table
    )


@handle_errors
async def get_counts(request: Request) -> Response:
    table = whole_number(request, "table", 1, MAX_TABLE)
    top = whole_number(request, "top", 1, MAX_TOP)
    return await _document(
        request,
        "counts",
        ("table", "top"),
        lambda t, v: open_read.counts(t, v, table, top),
        key=(table, top),
    )


@handle_errors
async def get_draws(request: Request) -> Response:
    """The committed draws, and for ``player`` the draw that gave their seat and its seed."""
    check_query(request, ("player",))
    floor = floor_of(request)
    tid = tid_of(request)
    pid = request.query_params.get("player")
    if pid is not None and not 1 <= len(pid) <= 64:
        raise BadQuery("player is a player's id (1 to 64 characters)", field="player")
    t, version = await floor.store.tournament(tid)
    p = t.state.players.get(pid) if pid is not None else None
    if pid is not None and p is None:
        raise BadQuery(f"there is no player {pid} in this tournament", field="player")
    seed: tuple[int, bytes] | None = None
    if p is not None and p.draw is not None and floor.store.draws is not None:
        revealed = await floor.store.draws.revealed(tid, p.draw, t)
        seed = None if revealed is None else (p.draw, revealed)
        # Read again after the wait: the answer is built from the state as it is now.
        t, version = await floor.store.tournament(tid)
    doc = answer(
        floor.metrics,
        "open:draws",
        (tid, pid),
        version,
        lambda: built(_encode(open_draws.draws(t, version, pid, seed))),
    )
    return respond(request, doc, version)


@handle_errors
async def get_results(request: Request) -> Response:
    return await _document(request, "results", (), open_read.bust_outs)


@handle_errors
async def get_payouts(request: Request) -> Response:
    return await _document(request, "payouts", (), open_read.payouts)


@handle_errors
async def get_ots(request: Request) -> Response:
    return await _document(request, "ots", (), lambda t, v: open_read.ots(t, SITE, floor_version()))


@handle_errors
async def get_changes(request: Request) -> Response:
    """The public changes after ``since``, ``limit`` events at most (a page: ``to`` says
    where the next begins)."""
    check_query(request, ("since", "limit"))
    if "since" not in request.query_params:
        raise BadQuery("since is required: the sequence number to read after", field="since")
    since = whole_number(request, "since", 0, 2**53)
    limit = whole_number(request, "limit", 1, MAX_CHANGES) or DEFAULT_CHANGES
    assert since is not None
    floor = floor_of(request)
    tid = tid_of(request)
    t, version = await floor.store.tournament(tid)
    if since > version:
        raise BadQuery(f"since is past the tournament's sequence number, {version}", field="since")
    key = (tid, since, limit)
    held = held_answer(floor.metrics, "open:changes", key, version, Built)
    if held is None:
        page = (
            await floor.store.log.read(tid, since, min(limit, version - since))
            if since < version
            else []
        )
        # What was written meanwhile waits for the next read: this answer is the version's.
        t, version = await floor.store.tournament(tid)
        entries = [(seq, data) for seq, data in page if seq <= version]
        last = entries[-1][0] if entries else since
        events = [decode_event(data) for _, data in entries]

        def build() -> Built:
            doc = open_read.OpenChanges(
                tournament=tid,
                seq=version,
                since=since,
                to=last,
                more=last < version,
                changes=open_read.changes(t, since + 1, events),
            )
            return built(_encode(doc))

        held = answer(floor.metrics, "open:changes", key, version, build)
    return respond(request, held, version)


@handle_errors
async def list_tournaments(request: Request) -> Response:
    check_query(request, ())
    floor = floor_of(request)
    listed = [
        {"id": s.id, "name": s.name, "created_at": s.created_at, "status": s.status}
        for s in await floor.store.summaries()
    ]
    return respond(request, built(_encode({"tournaments": listed})), None)


@handle_errors
async def get_openapi(request: Request) -> Response:
    check_query(request, ())
    return respond(request, document(), None)


async def _chain_head(request: Request) -> tuple[Tournament, int, bytes]:
    floor = floor_of(request)
    tid = tid_of(request)
    t, version = await floor.store.tournament(tid)
    return t, version, await floor.chain.head(tid, version)


@handle_errors
async def get_chain(request: Request) -> Response:
    """The head of the tournament's hash chain and the event it follows."""
    check_query(request, ())
    floor = floor_of(request)
    tid = tid_of(request)
    _, version, head = await _chain_head(request)
    doc = answer(
        floor.metrics,
        "open:chain",
        tid,
        version,
        lambda: built(_encode(chain.ChainHead(tid, chain.SPEC, version, head.hex()))),
    )
    return respond(request, doc, version)


@handle_errors
async def get_signed_results(request: Request) -> Response:
    """The results and the payout table with the venue's signature (``exports.signed``)."""
    check_query(request, ())
    floor = floor_of(request)
    signer = floor.signer
    if signer is None:
        raise NoSuch("this venue signs nothing: its server has no signing key (FLOOR_SIGNING_KEY)")
    tid = tid_of(request)
    t, version, head = await _chain_head(request)
    doc = answer(
        floor.metrics,
        "open:signed",
        tid,
        version,
        lambda: built(signed.signed(signed.document(t, tid, version, head), signer)),
    )
    return respond(request, doc, version)


@handle_errors
async def get_keys(request: Request) -> Response:
    """The venue's key list (``floor.signing``): what anyone checks a signature against."""
    check_query(request, ())
    keys = floor_of(request).signing_keys
    if keys is None:
        raise NoSuch("this venue publishes no signing keys: its server has none")
    return respond(request, built(_encode(keys)), None)


routes: list[BaseRoute] = [
    Route("/.well-known/floor-keys.json", get_keys, methods=["GET"]),
    Route(f"{PREFIX}/t/{{tid}}/chain", get_chain, methods=["GET"]),
    Route(f"{PREFIX}/t/{{tid}}/draws", get_draws, methods=["GET"]),
    Route(f"{PREFIX}/t/{{tid}}/results/signed", get_signed_results, methods=["GET"]),
    Route(f"{PREFIX}/openapi.json", get_openapi, methods=["GET"]),
    Route(f"{PREFIX}/tournaments", list_tournaments, methods=["GET"]),
    Route(f"{PREFIX}/t/{{tid}}/clock", get_clock, methods=["GET"]),
    Route(f"{PREFIX}/t/{{tid}}/field", get_field, methods=["GET"]),
    Route(f"{PREFIX}/t/{{tid}}/seats", get_seats, methods=["GET"]),
    Route(f"{PREFIX}/t/{{tid}}/counts", get_counts, methods=["GET"]),
    Route(f"{PREFIX}/t/{{tid}}/results", get_results, methods=["GET"]),
    Route(f"{PREFIX}/t/{{tid}}/payouts", get_payouts, methods=["GET"]),
    Route(f"{PREFIX}/t/{{tid}}/changes", get_changes, methods=["GET"]),
    Route(f"{PREFIX}/t/{{tid}}/ots.json", get_ots, methods=["GET"]),
]
