"""Table screens over HTTP (``floor.server.tablets``): the floor asks for a pairing code, the
screen pairs with it, a dealer signs in on the screen, the director lists, moves and ends
the screens."""

from __future__ import annotations

from typing import Annotated

import msgspec
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ..store.ids import check_tournament_id
from . import routes_dealers
from .context import Floor, floor_of, staff
from .edges import decode, handle_errors, json_response, read_body
from .permissions import require_director, require_floor
from .principal import Forbidden, Principal
from .routes_staff import MAX_BODY, SignIn, client_of, with_session_cookie
from .tablets import MAX_TABLE

Table = Annotated[int, msgspec.Meta(ge=1, le=MAX_TABLE)]


class PairTable(msgspec.Struct, forbid_unknown_fields=True):
    tournament: str
    table: Table


class PairCode(msgspec.Struct, forbid_unknown_fields=True):
    code: str


class MoveTablet(msgspec.Struct, forbid_unknown_fields=True):
    tournament: str
    table: Table


async def _existing(floor: Floor, tournament: str) -> str:
    """The id of a tournament there is (``NotFound``, a 404 naming it, otherwise)."""
    tid = check_tournament_id(tournament)
    await floor.store.tournament(tid)
    return tid


@handle_errors
async def new_code(request: Request) -> Response:
    """``POST /api/pairing {tournament, table}``: the floor or the director gets a code."""
    floor = floor_of(request)
    principal = await staff(request)
    require_floor(principal, "pair a table screen")
    body = decode(await read_body(request, MAX_BODY), PairTable, frozenset({"tournament", "table"}))
    tid = await _existing(floor, body.tournament)
    issuer = principal.username or "staff"
    return json_response(await floor.tablets.issue(tid, body.table, issuer), 201)


@handle_errors
async def sign_in_paired(request: Request) -> Response:
    """``POST /api/signin/pair {code}``: a screen becomes a device of the code's table."""
    floor = floor_of(request)
    floor.check_origin(request)
    body = decode(await read_body(request, MAX_BODY), PairCode, frozenset({"code"}))
    session = await floor.tablets.redeem(body.code, client_of(request))
    return with_session_cookie(request, json_response(session), session)


async def _screen(request: Request) -> Principal:
    principal = await staff(request)
    if principal.device is None:
        raise Forbidden(
            "a dealer signs in on a paired table screen: pair this screen with a code "
            "from the floor first"
        )
    return principal


@handle_errors
async def dealer_sign_in(request: Request) -> Response:
    """``POST /api/table/signin {username, secret}``: a dealer signs in on this table
    screen, for its table of its tournament (the only place a dealer's PIN is tried)."""
    floor = floor_of(request)
    screen = await _screen(request)
    form = decode(await read_body(request, MAX_BODY), SignIn, frozenset({"username", "secret"}))
    principal = await floor.tablets.sign_in_dealer(screen, form.username, form.secret)
    await routes_dealers.signed_in(request, principal)  # the down starts
    return json_response({"principal": principal})


@handle_errors
async def dealer_sign_out(request: Request) -> Response:
    """``POST /api/table/signout``: the dealer on this table screen signs out (the screen
    stays paired)."""
    floor = floor_of(request)
    screen = await _screen(request)
    signed_out = await floor.tablets.sign_out_dealer(screen)
    if screen.role == "dealer":
        await routes_dealers.signed_out(request, screen)  # the down ends
    return json_response({"principal": signed_out})


@handle_errors
async def list_tablets(request: Request) -> Response:
    """``GET /api/tablets``: the paired table screens, for the director."""
    floor = floor_of(request)
    require_director(await staff(request), "lists the table screens")
    return json_response(await floor.tablets.list())


@handle_errors
async def move_tablet(request: Request) -> Response:
    """``PUT /api/tablets/{device} {tournament, table}``: the screen belongs to another
    table now, of this tournament or another, without pairing it again."""
    floor = floor_of(request)
    require_director(await staff(request), "moves a table screen")
    body = decode(
        await read_body(request, MAX_BODY), MoveTablet, frozenset({"tournament", "table"})
    )
    tid = await _existing(floor, body.tournament)
    moved = await floor.tablets.move(request.path_params["device"], tid, body.table)
    return json_response(moved)


@handle_errors
async def revoke_tablet(request: Request) -> Response:
    """``DELETE /api/tablets/{device}``: the screen is ended, its sockets closed at once."""
    floor = floor_of(request)
    require_director(await staff(request), "ends a table screen")
    await floor.tablets.revoke(request.path_params["device"])
    return json_response({"ok": True})


routes: list[BaseRoute] = [
    Route("/api/pairing", new_code, methods=["POST"]),
    Route("/api/signin/pair", sign_in_paired, methods=["POST"]),
    Route("/api/table/signin", dealer_sign_in, methods=["POST"]),
    Route("/api/table/signout", dealer_sign_out, methods=["POST"]),
    Route("/api/tablets", list_tablets, methods=["GET"]),
    Route("/api/tablets/{device}", move_tablet, methods=["PUT"]),
    Route("/api/tablets/{device}", revoke_tablet, methods=["DELETE"]),
]
