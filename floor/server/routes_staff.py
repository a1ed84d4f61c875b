"""Signing in and out, one's own password or PIN, and the staff accounts the director keeps
(their secrets and sign-in delays too), over HTTP."""

from __future__ import annotations

import secrets
import time

import msgspec
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ..engine.errors import refused
from .accounts import KNOWN_FOR, TABLET_PREFIX, Session, check_username
from .context import SESSION_COOKIE, floor_of, staff
from .edges import decode, handle_errors, json_response, read_body
from .permissions import require_director
from .principal import BadAccount, Forbidden, Role, SignedOut

#: Sign-in and account bodies are a few short strings.
MAX_BODY = 4096
#: The cookie naming a browser that signed in before (``accounts``): its sign-ins are
#: counted as its own, never delayed by strangers guessing from its address.
KNOWN_COOKIE = "floor_known"


class SignIn(msgspec.Struct, forbid_unknown_fields=True):
    username: str
    secret: str


class NewStaff(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    username: str
    secret: str
    role: Role
    table: int | None = None
    pin: bool = False


class NewSecret(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """The director sets an account's secret. ``pin`` None: the same kind as before."""

    secret: str
    pin: bool | None = None


class OwnSecret(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """A staff member sets their own secret, proving the current one."""

    current: str
    secret: str
    pin: bool | None = None


def client_of(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def with_session_cookie(request: Request, response: Response, session: Session) -> Response:
    """``response`` carrying the session's cookie (a sign-in, a table screen's pairing)."""
    floor = floor_of(request)
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


def _token(request: Request) -> str | None:
    """The session token a request carries: the bearer token, else the cookie."""
    header = request.headers.get("authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip()
    return request.cookies.get(SESSION_COOKIE)


@handle_errors
async def sign_in(request: Request) -> Response:
    floor = floor_of(request)
    floor.check_origin(request)
    form = decode(await read_body(request, MAX_BODY), SignIn, frozenset({"username", "secret"}))
    browser = request.cookies.get(KNOWN_COOKIE) or secrets.token_urlsafe(32)
    session = await floor.accounts.sign_in(
        form.username, form.secret, client_of(request), browser=browser
    )
    response = with_session_cookie(request, json_response(session), session)
    response.set_cookie(
        KNOWN_COOKIE,
        browser,
        max_age=KNOWN_FOR,
        httponly=True,
        samesite="strict",
        secure=floor.settings.secure_cookies or request.url.scheme == "https",
        path="/api/signin",
    )
    return response


@handle_errors
async def sign_out(request: Request) -> Response:
    floor = floor_of(request)
    # Like every change made with the cookie: another site's page could sign the staff out
    # (a console gone blank at the final table) with a form posting here.
    floor.check_origin(request)
    token = _token(request)
    if token and token.startswith(TABLET_PREFIX):
        await floor.tablets.unpair(token)  # a table screen signing out is unpaired
    elif token:
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
        raise refused(BadAccount, "own_account", {}, field="username")
    await floor.accounts.remove(name)
    return json_response({"ok": True})


@handle_errors
async def change_own_secret(request: Request) -> Response:
    floor = floor_of(request)
    principal = await staff(request)
    token = _token(request)
    if principal.username is None or not token:
        raise SignedOut("sign in to change your password or PIN")
    if principal.role == "dealer_phone":
        # A PIN is tried on a paired table screen alone, never from a dealer's phone.
        raise Forbidden("a dealer changes their PIN at a table screen, not on a phone")
    form = decode(
        await read_body(request, MAX_BODY), OwnSecret, frozenset({"current", "secret", "pin"})
    )
    account = await floor.accounts.change_own_secret(
        token, form.current, form.secret, client_of(request), pin=form.pin
    )
    return json_response(account)


@handle_errors
async def set_secret(request: Request) -> Response:
    floor = floor_of(request)
    principal = await staff(request)
    require_director(principal)
    name = check_username(request.path_params["username"])
    if name == principal.username:
        # Whoever finds the console left open must not take the account over with it.
        raise refused(BadAccount, "own_secret", {}, field="username")
    form = decode(await read_body(request, MAX_BODY), NewSecret, frozenset({"secret", "pin"}))
    return json_response(await floor.accounts.set_secret(name, form.secret, pin=form.pin))


@handle_errors
async def unlock_staff(request: Request) -> Response:
    floor = floor_of(request)
    require_director(await staff(request))
    name = check_username(request.path_params["username"])
    cleared = await floor.accounts.unlock(name)
    return json_response({"ok": True, "cleared": cleared})


routes: list[BaseRoute] = [
    Route("/api/signin", sign_in, methods=["POST"]),
    Route("/api/signout", sign_out, methods=["POST"]),
    Route("/api/me", me),
    Route("/api/me/secret", change_own_secret, methods=["PUT"]),
    Route("/api/staff", list_staff, methods=["GET"]),
    Route("/api/staff", add_staff, methods=["POST"]),
    Route("/api/staff/{username}", remove_staff, methods=["DELETE"]),
    Route("/api/staff/{username}/secret", set_secret, methods=["PUT"]),
    Route("/api/staff/{username}/unlock", unlock_staff, methods=["POST"]),
]
