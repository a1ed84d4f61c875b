"""Paper and files over HTTP: player lists brought in, files written out, the printables.

    POST /api/t/{id}/import              a player list (CSV, TSV, text or .xlsx) previewed
                                         (?kind=&encoding=&header=auto|yes|no&map=name=0,...)
    GET  /api/t/{id}/export/results.csv  every finisher: place, name, id, country, entries,
                                         the bust-out's time, level and table, the prize
    GET  /api/t/{id}/export/hendon.csv   the paid places as results databases take them
    GET  /api/t/{id}/export/payouts.csv  the payout table, and who finished where
    GET  /api/t/{id}/export/log          the whole log, as ``floor export`` writes it
    GET  /api/t/{id}/paper               what the printables print (staff)
    GET  /api/t/{id}/paper/check         a seat card checked (?table=&seat=&code=)
    GET  /api/payouts/standard           a standard payout table (?entries=&paid=15)
    POST /api/structures/parse           a structure file (TOML) checked as shipped ones are
    POST /api/structures/toml            a structure (JSON) as a structure file
    GET  /print/{id}                     the printables' page

The preview registers nothing: the console sends the entries it lists with ``register_many``
through the command API, a batch at a time. The results and payout files are public like
``/api/t/{id}/prizes``; the log, the paper and the lists are the staff's.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import datetime
from typing import Final, get_args

import msgspec
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from .. import config as configs
from ..backup import export_lines
from ..engine.calc.payout_curve import MOST_PLACES, standard_table, table_places
from ..engine.errors import ConfigError, FloorError, refused
from ..engine.prize import PayoutRow
from ..engine.read.seat_cards import check as check_card
from ..engine.rules import Structure
from ..engine.state import Tournament
from ..exports.paper import paper
from ..exports.results import hendon_csv, payouts_csv, results_csv
from ..exports.structure_file import toml
from ..imports import sheet
from ..imports.preview import build
from .answers import answer
from .context import Floor, floor_of, staff, tid_of
from .edges import BadRequest, TooLarge, decode, handle_errors, json_response, read_body
from .list_reader import read_list
from .permissions import require_director
from .principal import Forbidden, Principal
from .routes_pages import page_response

_encode = msgspec.json.Encoder().encode

#: A list of 10,000 players with a few columns is about 600 KB as CSV (twice that in UTF-16);
#: a sheet is smaller. The same limit stands in the shipped nginx config
#: (``deploy/nginx/floor.conf``, the import's location): a tests reads both.
MAX_LIST: Final = 4 * 1024 * 1024
#: A structure file: levels and a payout table of a few hundred rows.
MAX_STRUCTURE: Final = 512 * 1024
#: A table screen (and a dealer on one) reads no printable: every seat card's check code.
_STAFF: Final = ("director", "floor")


async def _staff_reader(request: Request) -> Principal:
    """A staff member reading (a GET needs no same-site check: it changes nothing)."""
    principal, _ = await floor_of(request).principal(request)
    if principal.role not in _STAFF:
        raise Forbidden("sign in as staff to read this")
    return principal


def _flag(request: Request, name: str, values: tuple[str, ...]) -> str:
    value = request.query_params.get(name, values[0])
    if value not in values:
        raise BadRequest(f"{name} is one of {', '.join(values)}", field=name)
    return value


# Player lists -------------------------------------------------------------------------------


@handle_errors
async def post_import(request: Request) -> Response:
    floor = floor_of(request)
    tid = tid_of(request)
    principal = await staff(request)
    if principal.role not in ("director", "floor"):
        raise Forbidden("the director and the floor register players")
    kind = _flag(request, "kind", get_args(sheet.Kind))
    encoding = _flag(request, "encoding", sheet.ENCODINGS)
    header = _flag(request, "header", ("auto", "yes", "no"))
    mapping = request.query_params.get("map") or None
    data = await _list_body(request)
    try:
        # A sheet, or a list longer than a pasted one, is read by a process of its own.
        rows = await read_list(data, kind, encoding)  # type: ignore[arg-type]
        # The preview asks the rules about every row, as register_many would: at 10,000 rows
        # seconds of the engine, run on a copy of the tournament, on a worker thread.
        t, _ = await floor.store.private_copy(tid)
        header_is = None if header == "auto" else header == "yes"
        now = floor.store.clock()
        preview = await asyncio.to_thread(
            lambda: _encode(build(rows, t, now, header=header_is, mapping=mapping))
        )
    except FloorError as e:
        if isinstance(e, BadRequest):
            raise
        raise e.recast(BadRequest, e.field) from None
    return Response(preview, media_type="application/json")


async def _list_body(request: Request) -> bytes:
    """The list's bytes, at most ``MAX_LIST``: more is refused before it is read."""
    try:
        return await read_body(request, MAX_LIST)
    except TooLarge:
        declared = request.headers.get("content-length", "")
        size = int(declared) if declared.isdigit() else MAX_LIST + 1
        raise refused(
            TooLarge, "import_file_too_large", {"bytes": size, "most": MAX_LIST}, field="body"
        ) from None


# Files out ----------------------------------------------------------------------------------


def _file(data: bytes, name: str, media: str = "text/csv; charset=utf-8") -> Response:
    return Response(
        data,
        media_type=media,
        headers={
            "Content-Disposition": f'attachment; filename="{name}"',
            "Cache-Control": "no-store",
        },
    )


async def _public_file(request: Request, kind: str, write: Callable[[Tournament], bytes]) -> bytes:
    """A file anyone may download, written once per version of the tournament (``answers``):
    at 10,000 players each took milliseconds to write, for every download."""
    floor = floor_of(request)
    tid = tid_of(request)
    t, version = await floor.store.tournament(tid)
    return answer(floor.metrics, kind, tid, version, lambda: write(t))


@handle_errors
async def get_results(request: Request) -> Response:
    data = await _public_file(request, "export/results.csv", results_csv)
    return _file(data, f"{tid_of(request)}-results.csv")


@handle_errors
async def get_hendon(request: Request) -> Response:
    data = await _public_file(request, "export/hendon.csv", hendon_csv)
    return _file(data, f"{tid_of(request)}-results-hendon.csv")


@handle_errors
async def get_payouts(request: Request) -> Response:
    data = await _public_file(request, "export/payouts.csv", payouts_csv)
    return _file(data, f"{tid_of(request)}-payouts.csv")


@handle_errors
async def get_log(request: Request) -> Response:
    """The export ``floor export`` writes, from the console: ``floor import`` reads it back."""
    floor = floor_of(request)
    tid = tid_of(request)
    principal = await _staff_reader(request)
    require_director(principal, "exports the log")
    lines, _ = await export_lines(floor.store, tid, floor.signer)
    day = datetime.now().astimezone().strftime("%Y-%m-%d-%H%M")
    return _file(b"".join(lines), f"{tid}-{day}.floor.jsonl", "application/x-ndjson")


# The printables -----------------------------------------------------------------------------


@handle_errors
async def get_paper(request: Request) -> Response:
    floor = floor_of(request)
    tid = tid_of(request)
    await _staff_reader(request)
    # Every seat card's code of a room of 10,000 (130 ms): on a worker thread, from a copy.
    t, _ = await floor.store.private_copy(tid)
    now = floor.store.clock()
    body = await asyncio.to_thread(lambda: _encode(paper(t, now)))
    return Response(body, media_type="application/json", headers={"Cache-Control": "no-store"})


def _number(request: Request, name: str, least: int, most: int) -> int:
    raw = request.query_params.get(name, "")
    if not (raw.isascii() and raw.isdigit()) or not least <= int(raw) <= most:
        raise BadRequest(f"{name} is a number from {least} to {most}", field=name)
    return int(raw)


@handle_errors
async def get_card_check(request: Request) -> Response:
    floor = floor_of(request)
    tid = tid_of(request)
    await _staff_reader(request)
    table = _number(request, "table", 1, 100_000)
    seat = _number(request, "seat", 1, 12)
    code = request.query_params.get("code", "")
    if not 1 <= len(code) <= 12:
        raise BadRequest("code is the card's code, four letters and digits", field="code")
    t, _ = await floor.store.tournament(tid)
    return json_response(check_card(t, table, seat, code))


async def print_page(request: Request) -> Response:
    tid_of(request)
    return page_response(request, "print")


# Money and structure ------------------------------------------------------------------------


class StandardTable(msgspec.Struct, frozen=True, kw_only=True):
    entries: int
    paid: float
    payouts: tuple[PayoutRow, ...]


#: Standard tables answered lately, encoded, by entries and share paid: anyone may ask.
_TABLES: dict[tuple[int, float], bytes] = {}
_TABLES_MAX: Final = 256


@handle_errors
async def get_standard_payouts(request: Request) -> Response:
    """A standard payout table for fields up to ``entries`` (``engine.payout_curve``), at
    most ``MOST_PLACES`` places in all: paying half of 100,000 entries it was 28 MB, built
    in 6 s on the event loop, for anyone who asked."""
    entries = _number(request, "entries", 2, 100_000)
    raw = request.query_params.get("paid", "15")
    try:
        paid = float(raw)
    except ValueError:
        paid = -1.0
    if not 5 <= paid <= 50:
        raise BadRequest("paid is the share of the field paid, 5 to 50 (%)", field="paid")
    key = (entries, paid)
    body = _TABLES.pop(key, None)
    if body is None:
        places = table_places(entries, paid / 100)
        if places > MOST_PLACES:
            raise _table_too_large(entries, paid, places)
        table = standard_table(entries, paid / 100)
        body = _encode(StandardTable(entries=entries, paid=paid, payouts=table))
        if len(_TABLES) >= _TABLES_MAX:
            del _TABLES[next(iter(_TABLES))]  # the one asked for least lately
    _TABLES[key] = body
    return Response(body, media_type="application/json")


def _table_too_large(entries: int, paid: float, places: int) -> BadRequest:
    # The largest field whose table fits, at this share: what the director can ask instead.
    low, high = 2, entries
    while low < high:
        middle = (low + high + 1) // 2
        if table_places(middle, paid / 100) <= MOST_PLACES:
            low = middle
        else:
            high = middle - 1
    return refused(
        BadRequest,
        "payout_table_too_large",
        {
            "entries": entries,
            "paid": paid,
            "places": places,
            "most": MOST_PLACES,
            "most_entries": low,
        },
        field="entries",
    )


async def _director(request: Request) -> Floor:
    floor = floor_of(request)
    require_director(await staff(request), "edits structures")
    return floor


@handle_errors
async def post_structure_parse(request: Request) -> Response:
    """A structure file brought to the console, checked as the shipped files are."""
    await _director(request)
    data = await read_body(request, MAX_STRUCTURE)
    try:
        # TOML of up to 512 KiB read and checked: 190 ms of Python, on a worker thread.
        structure = await asyncio.to_thread(configs.parse_structure, data, "structure file")
    except ConfigError as e:
        raise BadRequest(e.message, field=e.field) from None
    return json_response(structure)


@handle_errors
async def post_structure_toml(request: Request) -> Response:
    """The structure the console's editor holds, as a structure file to keep."""
    await _director(request)
    data = await read_body(request, MAX_STRUCTURE)
    structure = await asyncio.to_thread(decode, data, Structure)
    name = "".join(c if c.isalnum() or c in "-_" else "-" for c in structure.name) or "structure"
    text = await asyncio.to_thread(toml, structure)
    return _file(text.encode(), f"{name}.toml", "application/toml; charset=utf-8")


routes: list[BaseRoute] = [
    Route("/api/t/{tid}/import", post_import, methods=["POST"]),
    Route("/api/t/{tid}/export/results.csv", get_results, methods=["GET"]),
    Route("/api/t/{tid}/export/hendon.csv", get_hendon, methods=["GET"]),
    Route("/api/t/{tid}/export/payouts.csv", get_payouts, methods=["GET"]),
    Route("/api/t/{tid}/export/log", get_log, methods=["GET"]),
    Route("/api/t/{tid}/paper", get_paper, methods=["GET"]),
    Route("/api/t/{tid}/paper/check", get_card_check, methods=["GET"]),
    Route("/api/payouts/standard", get_standard_payouts, methods=["GET"]),
    Route("/api/structures/parse", post_structure_parse, methods=["POST"]),
    Route("/api/structures/toml", post_structure_toml, methods=["POST"]),
    Route("/print/{tid}", print_page, methods=["GET"]),
]
