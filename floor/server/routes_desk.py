"""The front desk and the cashier over HTTP (``desk``; the screen is ``/desk``).

    GET    /api/desk                          the tournaments to sell, the settings, the list's age
    PUT    /api/desk/settings                 the venue's desk settings (the director)
    POST   /api/desk/shifts                   {desk, float}: a shift opened
    GET    /api/desk/shifts/{sid}             the shift's report (takings, voids, refunds)
    POST   /api/desk/shifts/{sid}/close       {counted}: the shift closed, its report
    POST   /api/desk/take                     a player taken: check, registry, seat, sale
    POST   /api/desk/undo                     {id, shift, sale, kind, reason}: a void or refund
    GET    /api/desk/registry?q=              returning players found by name
    GET    /api/desk/registry/{pid}           what the house keeps about a player (access)
    DELETE /api/desk/registry/{pid}           the player's record and identity erased
    POST   /api/desk/exclusions               the exclusion list (CSV), replaced whole (director)
    GET    /api/desk/checks                   the checks' log, newest first (director)
    GET    /api/desk/shown/{tid}/{player}     name, document type and last digits (the dealer's)
    GET    /api/desk/cashier/{tid}            who is to be paid, in order; paid and owed totals
    POST   /api/desk/cashier/{tid}/pay        {player}: marked paid
    GET    /api/desk/tickets/{tid}?player=    the tickets that may pay an entry (the ledger's)

The desk's staff and the director (``permissions.require_desk``); the settings, the list and
the checks' log the director's alone; the dealer's view of a player's document also the
floor's (the table screen's scan of a seat card reads it there: issue 28.4).
"""

from __future__ import annotations

import asyncio
import time
from typing import Annotated

import msgspec
from msgspec import Meta
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ..engine.commands import Command
from ..engine.desk import exclusion
from ..engine.desk import tickets as desk_tickets_of
from ..engine.desk.ledger import Amount, DeskName
from ..engine.desk.settings import DeskSettings
from ..engine.errors import UnknownPlayer, refused
from ..engine.events import Event
from ..engine.house import tickets
from ..engine.house.decide import held_tickets
from ..engine.house.registry import RegistryId
from ..engine.house.tickets_events import UseTicketClaim
from ..engine.state import Tournament
from ..errortext import field_names
from ..protocol import decode_event
from ..store.desk_port import ListInfo
from ..store.errors import NotFound
from ..store.ids import check_command_id, check_tournament_id
from ..store.outcome import Outcome
from .commands_service import run_command
from .context import Floor, floor_of, staff
from .desk import TakeBody, UndoBody
from .edges import BadRequest, decode, handle_errors, json_response, read_body, search_query
from .permissions import require_desk, require_director
from .principal import Forbidden, Principal
from .routes_tickets import row

MAX_BODY = 8 * 1024
#: An imported exclusion list: 32 MB of CSV (some 400,000 people).
MAX_LIST = 32 * 1024 * 1024
_NO_STORE = {"Cache-Control": "no-store"}
#: Named in a refusal of the body; made once, not at every take.
_TAKE_FIELDS = field_names(TakeBody)


class OpenShift(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    desk: DeskName
    float_: Amount = msgspec.field(name="float", default=0)


class CloseShift(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    counted: Amount


class PayBody(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    player: Annotated[str, Meta(min_length=1, max_length=64)]


def _sid(request: Request) -> str:
    sid = str(request.path_params["sid"])
    if not (3 <= len(sid) <= 20 and sid.startswith("s-") and sid[2:].isalnum()):
        raise BadRequest("a shift id is s- and 12 letters or digits", field="shift")
    return sid


def _pid(request: Request) -> str:
    try:
        return msgspec.convert(request.path_params["pid"], RegistryId)
    except msgspec.ValidationError:
        raise BadRequest("a registry id is R and ten hex digits", field="player") from None


class _Tournaments:
    """The desk's way to the tournaments (``desk.Tournaments``): the usual command path, as
    the signed-in principal."""

    def __init__(self, floor: Floor, principal: Principal) -> None:
        self._floor = floor
        self._principal = principal

    async def run(
        self, tid: str, command: Command, command_id: str, decided: list[Event] | None = None
    ) -> Outcome:
        # The desk's account sends no command bare (``permissions.authorize``): its register
        # and unregister go with the floor's right, once the desk's checks have passed.
        sender = self._principal
        if sender.role == "desk":
            sender = msgspec.structs.replace(sender, role="floor")
        return await run_command(self._floor, tid, sender, command, command_id, decided)

    async def read(self, tid: str) -> Tournament:
        t, _ = await self._floor.store.tournament(tid)
        return t

    async def events(self, tid: str, outcome: Outcome) -> list[Event] | None:
        """The events ``outcome`` wrote, from the log (None when they cannot be read)."""
        if outcome.events <= 0:
            return None
        # Exactly the command's events (sequence numbers are the stream's ids).
        page = await self._floor.store.log.read(tid, outcome.first - 1, outcome.events)
        return [decode_event(data) for _, data in page]

    async def ticket_value(self, ticket: str, tid: str, player: str, now: float) -> int:
        state = await self._floor.house.state()
        claim = UseTicketClaim(ticket=ticket, tournament=tid, player=player)
        tickets.may_use(state.tickets, claim, held_tickets(state), now)
        return state.tickets.tickets[ticket].issue.value


def _now() -> float:
    return time.time()


def _age(info: ListInfo | None, now: float) -> dict[str, object] | None:
    if info is None:
        return None
    return {
        "imported_at": info.imported_at,
        "rows": info.rows,
        "by": info.by,
        "age": now - info.imported_at,
    }


@handle_errors
async def overview(request: Request) -> Response:
    floor = floor_of(request)
    require_desk(await staff(request))
    desk = floor.desk
    now = _now()
    tournaments = []
    for summary in await floor.store.summaries():
        t, _ = await floor.store.tournament(summary.id)
        s = t.state
        prize = s.structure.prize if s.structure is not None else None
        tournaments.append(
            {
                "id": s.id,
                "name": s.name,
                "buy_in": None if prize is None else prize.buy_in + prize.fee,
                "currency": None if prize is None else prize.currency,
                "entries": s.entries,
                "drawn": s.drawn,
            }
        )
    return json_response(
        {
            "now": now,
            "settings": await desk.storage.settings(),
            "list": _age(await desk.list_info(), now),
            "tournaments": tournaments,
        },
        headers=_NO_STORE,
    )


@handle_errors
async def put_settings(request: Request) -> Response:
    floor = floor_of(request)
    require_director(await staff(request), "sets the desks' settings")
    body = decode(await read_body(request, MAX_BODY), DeskSettings, field_names(DeskSettings))
    await floor.desk.storage.set_settings(body)
    return json_response(body)


@handle_errors
async def open_shift(request: Request) -> Response:
    floor = floor_of(request)
    principal = await staff(request)
    require_desk(principal)
    body = decode(await read_body(request, MAX_BODY), OpenShift, frozenset({"desk", "float"}))
    shift = await floor.desk.open_shift(principal, body.desk, body.float_, _now())
    return json_response(shift, 201)


@handle_errors
async def shift_report(request: Request) -> Response:
    floor = floor_of(request)
    require_desk(await staff(request))
    return json_response(await floor.desk.report(_sid(request)), headers=_NO_STORE)


@handle_errors
async def close_shift(request: Request) -> Response:
    floor = floor_of(request)
    require_desk(await staff(request))
    sid = _sid(request)
    body = decode(await read_body(request, MAX_BODY), CloseShift, frozenset({"counted"}))
    return json_response(await floor.desk.close(sid, body.counted, _now()))


@handle_errors
async def take(request: Request) -> Response:
    floor = floor_of(request)
    principal = await staff(request)
    require_desk(principal)
    body = decode(await read_body(request, MAX_BODY), TakeBody, _TAKE_FIELDS)
    check_command_id(body.id)
    check_tournament_id(body.tournament)
    taken = await floor.desk.take(_Tournaments(floor, principal), principal, body, _now())
    return json_response(taken, 200 if taken.duplicate else 201)


@handle_errors
async def undo(request: Request) -> Response:
    floor = floor_of(request)
    principal = await staff(request)
    require_desk(principal)
    body = decode(await read_body(request, MAX_BODY), UndoBody, field_names(UndoBody))
    check_command_id(body.id)
    check_command_id(body.sale)
    return json_response(
        await floor.desk.undo(_Tournaments(floor, principal), principal, body, _now()), 201
    )


@handle_errors
async def find(request: Request) -> Response:
    floor = floor_of(request)
    require_desk(await staff(request))
    found = await floor.desk.find(search_query(request))
    return json_response(found, headers=_NO_STORE)


@handle_errors
async def access(request: Request) -> Response:
    floor = floor_of(request)
    require_desk(await staff(request), "read a player's record")
    record, identity = await floor.desk.access(_pid(request))
    if record is None and identity is None:
        raise NotFound("nothing is kept about this player", field="player")
    return json_response({"record": record, "identity": identity}, headers=_NO_STORE)


@handle_errors
async def erase(request: Request) -> Response:
    floor = floor_of(request)
    require_desk(await staff(request), "erase a player's record")
    erased = await floor.desk.storage.erase_player(_pid(request))
    return json_response({"erased": erased})


@handle_errors
async def import_list(request: Request) -> Response:
    floor = floor_of(request)
    principal = await staff(request)
    require_director(principal, "imports the exclusion list")
    raw = await read_body(request, MAX_LIST)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise BadRequest("the list must be UTF-8 CSV", field="list") from None
    # Grows with the list: read off the loop.
    digests, rows, bad = await asyncio.to_thread(exclusion.read_list, text)
    info = ListInfo(imported_at=_now(), rows=rows, by=principal.username or "")
    await floor.desk.lists.replace(digests, info)
    return json_response(
        {"rows": rows, "bad": bad[:20], "bad_rows": len(bad), "imported_at": info.imported_at}
    )


@handle_errors
async def checks(request: Request) -> Response:
    floor = floor_of(request)
    require_director(await staff(request), "reads the exclusion checks' log")
    return json_response(await floor.desk.storage.checks(200), headers=_NO_STORE)


@handle_errors
async def shown(request: Request) -> Response:
    floor = floor_of(request)
    principal = await staff(request)
    tid = check_tournament_id(request.path_params["tid"])
    pid = str(request.path_params["player"])
    if principal.role not in ("director", "floor", "desk"):
        raise Forbidden("only the staff read a player's document")
    t, _ = await floor.store.tournament(tid)
    p = t.state.players.get(pid)
    if p is None:
        raise refused(UnknownPlayer, "player_unknown", {"player": pid}, field="player")
    return json_response(await floor.desk.shown(p.name, pid), headers=_NO_STORE)


@handle_errors
async def cashier(request: Request) -> Response:
    floor = floor_of(request)
    principal = await staff(request)
    require_desk(principal, "run the cashier")
    tid = check_tournament_id(request.path_params["tid"])
    sheet = await floor.desk.cashier(_Tournaments(floor, principal), tid)
    # The slip's document: the dealer's view of it, never the number whole.
    slips = {r.player: await floor.desk.shown(r.name, r.player) for r in sheet.rows}
    return json_response({"sheet": sheet, "shown": slips}, headers=_NO_STORE)


@handle_errors
async def pay(request: Request) -> Response:
    floor = floor_of(request)
    principal = await staff(request)
    require_desk(principal, "run the cashier")
    tid = check_tournament_id(request.path_params["tid"])
    body = decode(await read_body(request, MAX_BODY), PayBody, frozenset({"player"}))
    sheet = await floor.desk.pay(
        _Tournaments(floor, principal), principal, tid, body.player, _now()
    )
    return json_response({"sheet": sheet})


@handle_errors
async def desk_tickets(request: Request) -> Response:
    """The tickets that may pay an entry to ``tid`` for the returning ``player`` (or anyone's
    free tickets for a new one): the ledger's rows, as the console lists them."""
    floor = floor_of(request)
    require_desk(await staff(request), "look tickets up")
    tid = check_tournament_id(request.path_params["tid"])
    raw = request.query_params.get("player")
    player = None
    if raw:
        try:
            player = msgspec.convert(raw, RegistryId)
        except msgspec.ValidationError:
            raise BadRequest("a registry id is R and ten hex digits", field="player") from None
    state = await floor.house.state()
    held = held_tickets(state)
    found = desk_tickets_of.usable(state.tickets, held, tid, player, _now())
    return json_response([row(t, False) for t in found], headers=_NO_STORE)


routes: list[BaseRoute] = [
    Route("/api/desk", overview, methods=["GET"]),
    Route("/api/desk/settings", put_settings, methods=["PUT"]),
    Route("/api/desk/shifts", open_shift, methods=["POST"]),
    Route("/api/desk/shifts/{sid}", shift_report, methods=["GET"]),
    Route("/api/desk/shifts/{sid}/close", close_shift, methods=["POST"]),
    Route("/api/desk/take", take, methods=["POST"]),
    Route("/api/desk/undo", undo, methods=["POST"]),
    Route("/api/desk/registry", find, methods=["GET"]),
    Route("/api/desk/registry/{pid}", access, methods=["GET"]),
    Route("/api/desk/registry/{pid}", erase, methods=["DELETE"]),
    Route("/api/desk/exclusions", import_list, methods=["POST"]),
    Route("/api/desk/checks", checks, methods=["GET"]),
    Route("/api/desk/shown/{tid}/{player}", shown, methods=["GET"]),
    Route("/api/desk/cashier/{tid}", cashier, methods=["GET"]),
    Route("/api/desk/cashier/{tid}/pay", pay, methods=["POST"]),
    Route("/api/desk/tickets/{tid}", desk_tickets, methods=["GET"]),
]
