"""Pairing a table screen over HTTP (``floor.server.pairing``): the floor asks for a code,
the tablet signs in with it."""

from __future__ import annotations

from typing import Annotated

import msgspec
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from . import pairing
from .context import floor_of, staff
from .edges import decode, handle_errors, json_response, read_body
from .principal import Forbidden
from .routes_staff import MAX_BODY, client_of, with_session_cookie


class PairTable(msgspec.Struct, forbid_unknown_fields=True):
    table: Annotated[int, msgspec.Meta(ge=1, le=100_000)]


class PairCode(msgspec.Struct, forbid_unknown_fields=True):
    code: str


@handle_errors
async def new_code(request: Request) -> Response:
    """``POST /api/pairing {table}``: the floor or the director gets a code for a table."""
    floor = floor_of(request)
    principal = await staff(request)
    if principal.role not in ("floor", "director"):
        raise Forbidden("the floor or the director pairs a table screen")
    body = decode(await read_body(request, MAX_BODY), PairTable, frozenset({"table"}))
    code = await pairing.issue(floor.accounts, body.table, client_of(request))
    return json_response(code, 201)


@handle_errors
async def sign_in_paired(request: Request) -> Response:
    """``POST /api/signin/pair {code}``: the table screen signs in as its table's dealer."""
    floor = floor_of(request)
    floor.check_origin(request)
    body = decode(await read_body(request, MAX_BODY), PairCode, frozenset({"code"}))
    session = await pairing.redeem(floor.accounts, body.code, client_of(request))
    return with_session_cookie(request, json_response(session), session)


routes: list[BaseRoute] = [
    Route("/api/pairing", new_code, methods=["POST"]),
    Route("/api/signin/pair", sign_in_paired, methods=["POST"]),
]
