"""The Starlette application: command API, reads, sign-in, websockets, pages, operations.

``create_app()`` builds it; the lifespan owns every client (Redis, the store, the fan-out
hub, the clock driver) and closes them. Routes stay thin: decode, authorize, hand the command
to the store, translate the outcome (see ``edges``).
"""

from __future__ import annotations

import gc
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import msgspec
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import HTTPConnection, Request
from starlette.responses import FileResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from .. import config as configs
from ..engine import commands
from ..engine.errors import ConfigError, FloorError
from ..engine.prize import AddOn, PayoutRow, Prize, Rebuy, ReEntry
from ..engine.rules import Rules, Structure
from ..store.connection import connect
from ..store.keys import check_command_id, check_tournament_id
from ..store.store import AlreadyExists, NotFound, Outcome, Store, Unavailable
from . import auth, edges, tools, views
from .clockdriver import ClockDriver
from .edges import (
    BadRequest,
    check_numbers,
    decode,
    error_response,
    handle_errors,
    json_response,
    read_body,
    search_query,
)
from .fanout import ExposeProtocol
from .hub import Hub
from .logs import configure as configure_logs
from .metrics import Metrics
from .redact import for_role
from .settings import Settings, from_env
from .websocket import ClientMessage, websocket_endpoint

log = logging.getLogger("floor.server")

WEB = Path(__file__).resolve().parents[2] / "web"
SESSION_COOKIE = "floor_session"


class CommandEnvelope(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """``POST /api/t/{id}/commands``: a command and the id that makes retries safe."""

    command: commands.Command
    id: str | None = None


class NewTournament(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """``POST /api/tournaments``: from a shipped tournament config, or rules and structure.

    ``rules`` and ``structure`` are the name of a shipped file or the settings themselves.
    """

    id: str
    name: str | None = None
    config: str | None = None
    rules: str | Rules | None = None
    structure: str | Structure | None = None
    overrides: configs.RuleOverrides | None = None
    #: Buy-in, fee, guarantee, rebuys, add-ons, re-entries and payouts, on top of the
    #: structure (a structure's own ``prize`` is replaced).
    prize: Prize | None = None


class SignIn(msgspec.Struct, forbid_unknown_fields=True):
    username: str
    secret: str


class NewStaff(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    username: str
    secret: str
    role: auth.Role
    table: int | None = None
    pin: bool = False


class Floor:
    """This process's services, created by the lifespan."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.redis = connect(settings.redis_url)
        self.metrics = Metrics()
        self.store = Store(self.redis)
        self.hub = Hub(self.store, self.redis, self.metrics, heartbeat=settings.heartbeat)
        self.accounts = auth.Accounts(self.redis)
        self.clock = ClockDriver(self.store, self.hub, self.redis)
        self.started = time.time()

    async def start(self) -> None:
        await self.hub.start()
        await self.clock.start()

    async def stop(self) -> None:
        await self.clock.stop()
        await self.hub.stop()
        await self.redis.aclose()

    async def principal(self, conn: HTTPConnection) -> tuple[auth.Principal, bool]:
        """Who is asking, and whether they proved it with the session cookie."""
        header = conn.headers.get("authorization", "")
        if header.lower().startswith("bearer "):
            found = await self.accounts.principal(header[7:].strip())
            if found is None:
                raise auth.SignedOut("the token is unknown or expired: sign in again")
            return found, False
        token = conn.cookies.get(SESSION_COOKIE)
        if token:
            found = await self.accounts.principal(token)
            if found is not None:
                return found, True
        return auth.PUBLIC, False

    def check_origin(self, conn: HTTPConnection) -> None:
        if not auth.origin_allowed(
            conn.headers.get("origin"), conn.headers.get("host"), self.settings.allowed_origins
        ):
            raise auth.Forbidden("requests from another site are not accepted")


def _floor(conn: HTTPConnection) -> Floor:
    floor: Floor = conn.app.state.floor
    return floor


async def _staff(request: Request) -> auth.Principal:
    """The signed-in principal for a changing request (cookie requests must be same-site)."""
    floor = _floor(request)
    principal, by_cookie = await floor.principal(request)
    if by_cookie:
        floor.check_origin(request)
    return principal


def _tid(request: Request) -> str:
    return check_tournament_id(request.path_params["tid"])


# Commands ------------------------------------------------------------------------------------


def _outcome_response(outcome: Outcome) -> Response:
    if outcome.ok:
        return json_response(outcome)
    assert outcome.error is not None
    return json_response(outcome, edges.STATUS.get(outcome.error.code, 409))


async def run_command(
    floor: Floor,
    tid: str,
    principal: auth.Principal,
    command: commands.Command,
    command_id: str | None,
) -> Outcome:
    """Authorize and execute one command; the outcome says what it did or why not."""
    if command_id is not None:
        check_command_id(command_id)
    # HTTP and websocket alike: a stack of 2**64 - 1 bricked snapshots.
    check_numbers(command, "command")
    t, _ = await floor.store.tournament(tid)
    auth.authorize(principal, command, t)
    start = time.perf_counter()
    outcome = await floor.store.execute(tid, command, command_id)
    kind = type(command).__struct_config__.tag
    floor.metrics.command(str(kind), "ok" if outcome.ok else "refused")
    log.info(
        "command",
        extra={
            "tournament": tid,
            "command": kind,
            "by": principal.username,
            "ok": outcome.ok,
            "seq": outcome.last if outcome.ok else None,
            "duplicate": outcome.duplicate,
            "error": outcome.error.message if outcome.error else None,
            "ms": round((time.perf_counter() - start) * 1000, 2),
        },
    )
    return outcome


@handle_errors
async def post_command(request: Request) -> Response:
    """Any command: ``{"id": "...", "command": {"type": "bust", "player": "P12"}}``."""
    floor = _floor(request)
    tid = _tid(request)
    principal = await _staff(request)
    envelope = decode(await read_body(request, floor.settings.max_body), CommandEnvelope)
    command_id = envelope.id or request.headers.get("idempotency-key")
    outcome = await run_command(floor, tid, principal, envelope.command, command_id)
    return _outcome_response(outcome)


_COMMAND_TYPES: dict[str, type[Any]] = {
    str(c.__struct_config__.tag): c for c in commands.Command.__args__
}


@handle_errors
async def post_command_kind(request: Request) -> Response:
    """One command by its type in the path, its fields as the body (``POST .../bust``)."""
    floor = _floor(request)
    tid = _tid(request)
    kind = request.path_params["kind"]
    command_type = _COMMAND_TYPES.get(kind)
    if command_type is None:
        known = ", ".join(sorted(_COMMAND_TYPES))
        raise BadRequest(f"there is no command {kind!r}; known: {known}", code="not_found")
    principal = await _staff(request)
    body = await read_body(request, floor.settings.max_body)
    fields = decode(body or b"{}", dict[str, Any])
    if fields.setdefault("type", kind) != kind:
        # A body written for another command must not run as this one with its fields.
        raise BadRequest(
            f"the body's type {fields['type']!r} is not the command {kind!r} of the path",
            code="invalid",
            field="type",
        )
    command: commands.Command = decode(msgspec.json.encode(fields), commands.Command)  # type: ignore[arg-type]
    command_id = request.headers.get("idempotency-key")
    outcome = await run_command(floor, tid, principal, command, command_id)
    return _outcome_response(outcome)


# Tournaments -------------------------------------------------------------------------------


@handle_errors
async def list_tournaments(request: Request) -> Response:
    floor = _floor(request)
    archived = request.query_params.get("archived") in ("1", "true")
    return json_response(await floor.store.summaries(archived=archived))


@handle_errors
async def create_tournament(request: Request) -> Response:
    floor = _floor(request)
    principal = await _staff(request)
    auth.require_director(principal, "creates tournaments")
    spec = decode(await read_body(request, floor.settings.max_body), NewTournament, config_keys())
    # A starting stack or rebuy of 2**64 - 1 overflows the snapshots like a stack does.
    check_numbers(spec)
    try:
        tid = check_tournament_id(spec.id)
    except FloorError as e:
        raise BadRequest(e.message, code="invalid", field="id") from None
    rules, structure, name = _tournament_setup(spec)
    again = await _created_before(floor, tid, name, rules, structure)
    if again is not None:
        return json_response(again, 201)
    outcome = await floor.store.create(tid, name, rules, structure)
    log.info("tournament created", extra={"tournament": tid, "by": principal.username})
    return json_response(outcome, 201)


@handle_errors
async def archive_tournament(request: Request) -> Response:
    """Move a tournament from the list to the archive (``GET /api/tournaments?archived=1``);
    its log, its screens and its backup stay as they are."""
    floor = _floor(request)
    tid = _tid(request)
    principal = await _staff(request)
    auth.require_director(principal, "archives tournaments")
    summary = await floor.store.archive(tid)
    log.info("tournament archived", extra={"tournament": tid, "by": principal.username})
    return json_response(summary)


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


def config_keys() -> frozenset[str]:
    from ..errortext import field_names

    return field_names(
        NewTournament,
        Rules,
        Structure,
        configs.RuleOverrides,
        Prize,
        Rebuy,
        AddOn,
        ReEntry,
        PayoutRow,
    )


def _tournament_setup(spec: NewTournament) -> tuple[Rules, Structure | None, str]:
    structure: Structure | None
    try:
        if spec.config is not None:
            if spec.rules is not None or spec.structure is not None:
                raise BadRequest(
                    "give config, or rules and structure, not both", code="invalid", field="config"
                )
            path = configs.tournaments().get(spec.config)
            if path is None:
                known = ", ".join(sorted(configs.tournaments()))
                raise BadRequest(
                    f"there is no tournament config {spec.config!r}; known: {known}",
                    code="invalid",
                    field="config",
                )
            cfg = configs.load_tournament(path)
            rules, structure = configs.build_tournament(cfg)
            name = spec.name or cfg.name
        else:
            if spec.rules is None:
                raise BadRequest(
                    "give config, or rules (and a structure for the clock)",
                    code="invalid",
                    field="rules",
                )
            rules = (
                configs.resolve_rules(_shipped(spec.rules, configs.rule_sets(), "rules"))
                if isinstance(spec.rules, str)
                else spec.rules
            )
            structure = (
                configs.resolve_structure(
                    _shipped(spec.structure, configs.structures(), "structure")
                )
                if isinstance(spec.structure, str)
                else spec.structure
            )
            name = spec.name or spec.id
        if spec.overrides is not None:
            rules = configs.apply_overrides(rules, spec.overrides)
        if spec.prize is not None:
            if structure is None:
                raise BadRequest(
                    "a prize pool needs a structure (levels and chips)",
                    code="invalid",
                    field="prize",
                )
            structure = configs.with_prize(structure, spec.prize)
    except ConfigError as e:
        raise BadRequest(e.message, code="invalid", field=e.field) from None
    return rules, structure, name


def _shipped(name: str, shipped: dict[str, Path], field: str) -> Path:
    """A shipped rule set or structure named in a request body.

    Only the shipped names: ``config.resolve_rules`` also takes a path to any file, which is
    for the command line. Over HTTP a path let a request read any file the server can (and
    "/dev/zero" read forever); a NUL in it was a 500.
    """
    path = shipped.get(name)
    if path is None:
        known = ", ".join(sorted(shipped))
        raise BadRequest(
            f"there is no shipped {field} {name!r}; known: {known} (or give the settings)",
            code="invalid",
            field=field,
        )
    return path


@handle_errors
async def get_tournament(request: Request) -> Response:
    """The full state and plan: the same snapshot a screen gets when it connects."""
    floor = _floor(request)
    tid = _tid(request)
    principal, _ = await floor.principal(request)
    t, version = await floor.store.tournament(tid)
    return Response(
        for_role(principal.role, views.snapshot(tid, t, version)), media_type="application/json"
    )


@handle_errors
async def find_players(request: Request) -> Response:
    floor = _floor(request)
    tid = _tid(request)
    query = search_query(request)
    t, _ = await floor.store.tournament(tid)
    return json_response(views.find_players(t, query))


#: The largest sequence number a Redis stream id can carry (ids are ``<seq>-0``, 64 bits).
_LAST_SEQ = 2**64 - 1


@handle_errors
async def events_since(request: Request) -> Response:
    """The events after ``since`` as stored (a screen that fell behind can also use the
    websocket's resync; this is for tools and exports)."""
    floor = _floor(request)
    tid = _tid(request)
    raw = request.query_params.get("since", "0")
    # ASCII digits only: str.isdigit() also passes "²", which int() refuses (a 500 before).
    if not (raw.isascii() and raw.isdigit()):
        raise BadRequest("since is a sequence number", code="invalid", field="since")
    since = int(raw)
    t, _ = await floor.store.tournament(tid)
    # A since past the largest stream id has nothing after it; asking Redis for it anyway
    # was a ResponseError ("Invalid stream ID") and a 500.
    missed = [] if since >= _LAST_SEQ else await floor.store.events_since(tid, since, limit=5000)
    if missed is None:
        raise BadRequest(
            "more than 5000 events: page with a later since", code="invalid", field="since"
        )
    from ..protocol import encode_derived, events_message

    if not missed:
        return json_response(
            {"type": "events", "tournament": tid, "from": since + 1, "to": since, "events": []}
        )
    principal, _ = await floor.principal(request)
    return Response(
        for_role(principal.role, events_message(tid, since + 1, missed, encode_derived(t))),
        media_type="application/json",
    )


# Sign-in and staff ------------------------------------------------------------------------


@handle_errors
async def sign_in(request: Request) -> Response:
    floor = _floor(request)
    floor.check_origin(request)
    form = decode(await read_body(request, 4096), SignIn, frozenset({"username", "secret"}))
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
    floor = _floor(request)
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
    principal, _ = await _floor(request).principal(request)
    return json_response(principal)


@handle_errors
async def list_staff(request: Request) -> Response:
    floor = _floor(request)
    auth.require_director(await _staff(request))
    return json_response(await floor.accounts.list())


@handle_errors
async def add_staff(request: Request) -> Response:
    floor = _floor(request)
    auth.require_director(await _staff(request))
    new = decode(
        await read_body(request, 4096),
        NewStaff,
        frozenset({"username", "secret", "role", "table", "pin"}),
    )
    account = await floor.accounts.add(new.username, new.secret, new.role, new.table, pin=new.pin)
    return json_response(account, 201)


@handle_errors
async def remove_staff(request: Request) -> Response:
    floor = _floor(request)
    principal = await _staff(request)
    auth.require_director(principal)
    name = auth.check_username(request.path_params["username"])
    if name == principal.username:
        # The page would go on as a director it no longer is; another director can do it.
        raise auth.BadAccount(
            "you cannot remove the account you are signed in with: another director can",
            field="username",
        )
    await floor.accounts.remove(name)
    return json_response({"ok": True})


# Operations and the schema -----------------------------------------------------------------


async def healthz(request: Request) -> Response:
    floor = _floor(request)
    try:
        await floor.redis.ping()
    except Exception as e:
        return json_response({"ok": False, "redis": f"unreachable: {e}"}, 503)
    return json_response(
        {
            "ok": True,
            "redis": "ok",
            "clients": floor.hub.clients,
            "clock_lease": floor.clock.holding,
        }
    )


async def metrics(request: Request) -> Response:
    floor = _floor(request)
    floor.metrics.clients = floor.hub.clients
    return PlainTextResponse(
        floor.metrics.render(), media_type="text/plain; version=0.0.4; charset=utf-8"
    )


async def schema(request: Request) -> Response:
    """JSON Schema of every request body and every websocket message."""
    from ..protocol import EventsIn
    from .hub import Heartbeat
    from .websocket import ErrorMessage as WsError
    from .websocket import Hello, Pong, Result

    server_messages = Hello | views.SnapshotOut | EventsIn | Heartbeat | Result | Pong | WsError
    (command, envelope, new, staff, signin, client, server), components = (
        msgspec.json.schema_components(
            [
                commands.Command,
                CommandEnvelope,
                NewTournament,
                NewStaff,
                SignIn,
                ClientMessage,
                server_messages,
            ],
            ref_template="#/$defs/{name}",
        )
    )
    return json_response(
        {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": "floor API",
            "requests": {
                "command": command,
                "command_envelope": envelope,
                "new_tournament": new,
                "new_staff": staff,
                "sign_in": signin,
            },
            "websocket": {"client_to_server": client, "server_to_client": server},
            "$defs": components,
        }
    )


async def config_lists(request: Request) -> Response:
    """The shipped rule sets, structures and tournament configs, for the director console."""
    return json_response(
        {
            "rules": sorted(configs.rule_sets()),
            "structures": sorted(configs.structures()),
            "tournaments": sorted(configs.tournaments()),
        }
    )


# Pages ---------------------------------------------------------------------------------------


def _page(name: str) -> Any:
    async def page(request: Request) -> Response:
        return FileResponse(WEB / f"{name}.html", headers={"Cache-Control": "no-cache"})

    return page


async def _director_of(request: Request) -> Response:
    """``/director/<id>`` as the other screens are addressed: the console picks it by ``?t=``."""
    tid = request.path_params["tid"]
    try:
        check_tournament_id(tid)
    except FloorError:
        return RedirectResponse("/director")
    return RedirectResponse(f"/director?t={tid}")


async def index(request: Request) -> Response:
    if (WEB / "index.html").exists():
        return FileResponse(WEB / "index.html", headers={"Cache-Control": "no-cache"})
    return RedirectResponse("/api/tournaments")


# The application -----------------------------------------------------------------------------


def create_app(settings: Settings | None = None) -> Starlette:
    settings = settings or from_env()
    if not settings.redis_url:
        raise SystemExit("REDIS_URL is not set: run `floor serve`, which starts Valkey itself")
    # Each worker of `floor serve --workers N` is a fresh process that builds its app here:
    # without this its logs (commands, errors) would go nowhere.
    configure_logs(settings.log_level)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        floor = Floor(settings)
        app.state.floor = floor
        try:
            await floor.redis.ping()
        except Exception as e:
            log.warning("Redis is not reachable yet", extra={"error": str(e)})
        await floor.start()
        # Everything loaded so far lives as long as the process: keep the collector off it,
        # or a full collection stalls a fan-out to thousands of screens (bench/wsload).
        gc.freeze()
        log.info("floor serving", extra={"redis": _redact(settings.redis_url)})
        try:
            yield
        finally:
            await floor.stop()

    routes = [
        Route("/", index),
        Route("/healthz", healthz),
        Route("/metrics", metrics),
        Route("/api/schema", schema),
        Route("/api/config", config_lists),
        Route("/api/signin", sign_in, methods=["POST"]),
        Route("/api/signout", sign_out, methods=["POST"]),
        Route("/api/me", me),
        Route("/api/staff", list_staff, methods=["GET"]),
        Route("/api/staff", add_staff, methods=["POST"]),
        Route("/api/staff/{username}", remove_staff, methods=["DELETE"]),
        Route("/api/tournaments", list_tournaments, methods=["GET"]),
        Route("/api/tournaments", create_tournament, methods=["POST"]),
        Route("/api/t/{tid}", get_tournament),
        Route("/api/t/{tid}/players", find_players),
        Route("/api/t/{tid}/events", events_since),
        Route("/api/t/{tid}/archive", archive_tournament, methods=["POST"]),
        Route("/api/t/{tid}/commands", post_command, methods=["POST"]),
        Route("/api/t/{tid}/commands/{kind}", post_command_kind, methods=["POST"]),
        WebSocketRoute("/ws/t/{tid}", websocket_endpoint),
        Route("/wall/{tid}", _page("wall")),
        Route("/floor/{tid}", _page("floor")),
        Route("/player/{tid}", _page("player")),
        Route("/director", _page("director")),
        Route("/director/{tid}", _director_of),
        *tools.routes,
    ]
    if WEB.is_dir():
        routes.append(Mount("/static", StaticFiles(directory=WEB), name="static"))
    # Outermost, so that it sees uvicorn's own send: the fan-out writes frames through it.
    app = Starlette(routes=routes, lifespan=lifespan, middleware=[Middleware(ExposeProtocol)])
    app.add_exception_handler(Unavailable, _unavailable)  # type: ignore[arg-type]
    app.add_exception_handler(HTTPException, _http_error)  # type: ignore[arg-type]
    return app


#: What the router answers by itself: error code and message, by status.
_ROUTER_ERRORS = {
    404: ("not_found", "there is no such endpoint: see docs/protocol.md or GET /api/schema"),
    405: ("method_not_allowed", "this endpoint does not take that method"),
}


async def _http_error(request: Request, exc: HTTPException) -> Response:
    """The router's own 404 and 405 (``/api/t/a/b``, ``PUT /api/staff``): under ``/api`` a
    JSON error like every other answer there, not Starlette's plain text."""
    known = _ROUTER_ERRORS.get(exc.status_code)
    path = request.url.path
    if exc.status_code == 404 and not path.startswith(("/api/", "/static/", "/ws/")):
        # Somebody typed an address: a page that leads to the start page, not plain text.
        page = WEB / "notfound.html"
        if page.exists():
            return FileResponse(page, status_code=404, headers={"Cache-Control": "no-cache"})
    if known is None or not path.startswith("/api/"):
        return PlainTextResponse(exc.detail, exc.status_code, headers=exc.headers)
    code, message = known
    return error_response(code, message, headers=dict(exc.headers) if exc.headers else None)


async def _unavailable(request: Request, exc: Unavailable) -> Response:
    return error_response("unavailable", exc.message)


def _redact(url: str) -> str:
    scheme, sep, rest = url.partition("://")
    if "@" in rest:
        rest = "***@" + rest.split("@", 1)[1]
    return scheme + sep + rest
