"""Signing in and out, and the staff accounts the director keeps, over HTTP."""

from __future__ import annotations

import time

import msgspec
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from .accounts import check_username
from .context import SESSION_COOKIE, floor_of, staff
from .edges import decode, handle_errors, json_response, read_body
from .permissions import require_director
from .principal import BadAccount, Role

#: Sign-in and account bodies are a few short strings.
MAX_BODY = 4096


class SignIn(msgspec.Struct, forbid_unknown_fields=True):
    username: str
    secret: str


class NewStaff(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    username: str
    secret: str
    role: Role
    table: int | None = None
    pin: bool = False


@handle_errors
async def sign_in(request: Request) -> Response:
    floor = floor_of(request)
    floor.check_origin(request)
    form = decode(await read_body(request, MAX_BODY), SignIn, frozenset({"username", "secret"}))
    client = request.client.host if request.client else "unknown"
    session = await floor.accounts.sign_in(form.username, form.secret, client)
    response = json_response(session)
    response.set_cookie(
        SESSION_COOKIE,
        session.token,
        max_age=max(1, int(session.expires_at - time.time())),
        httponly=True,
        samesite="strict",
        # Over HTTPS (also as a trusted proxy's X-Forwarded-Proto says) the cookie is never
        # to travel in clear; the setting forces it for proxies that do not say so.
        secure=floor.settings.secure_cookies or request.url.scheme == "https",
        path="/",
    )
    return response


@handle_errors
async def sign_out(request: Request) -> Response:
    floor = floor_of(request)
    token = request.cookies.get(SESSION_COOKIE)
    header = request.headers.get("authorization", "")
    if header.lower().startswith("bearer "):
        token = header[7:].strip()
    if token:
        await floor.accounts.sign_out(token)
    response = json_response({"ok": True})
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response


@handle_errors
async def me(request: Request) -> Response:
    principal, _ = await floor_of(request).principal(request)
    return json_response(principal)


@handle_errors
async def list_staff(request: Request) -> Response:
    floor = floor_of(request)
    require_director(await staff(request))
    return json_response(await floor.accounts.list())


@handle_errors
async def add_staff(request: Request) -> Response:
    floor = floor_of(request)
    require_director(await staff(request))
    new = decode(
        await read_body(request, MAX_BODY),
        NewStaff,
        frozenset({"username", "secret", "role", "table", "pin"}),
    )
    account = await floor.accounts.add(new.username, new.secret, new.role, new.table, pin=new.pin)
    return json_response(account, 201)


@handle_errors
async def remove_staff(request: Request) -> Response:
    floor = floor_of(request)
    principal = await staff(request)
    require_director(principal)
    name = check_username(request.path_params["username"])
    if name == principal.username:
        # The page would go on as a director it no longer is; another director can do it.
        raise BadAccount(
            "you cannot remove the account you are signed in with: another director can",
            field="username",
            reason="own_account",
        )
    await floor.accounts.remove(name)
    return json_response({"ok": True})


routes: list[BaseRoute] = [
    Route("/api/signin", sign_in, methods=["POST"]),
    Route("/api/signout", sign_out, methods=["POST"]),
    Route("/api/me", me),
    Route("/api/staff", list_staff, methods=["GET"]),
    Route("/api/staff", add_staff, methods=["POST"]),
    Route("/api/staff/{username}", remove_staff, methods=["DELETE"]),
]
