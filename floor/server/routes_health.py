"""What operators and client authors read: ``/healthz``, ``/metrics`` and ``/api/schema``."""

from __future__ import annotations

import hmac
from collections.abc import Callable
from typing import Any

import msgspec
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import BaseRoute, Route

from ..engine import commands
from ..engine.read import follow
from ..exports.paper import Paper
from ..protocol import EventsIn
from .answers import answer
from .context import floor_of
from .edges import handle_errors, json_response
from .hub import FetchSnapshot, Heartbeat
from .permissions import require_floor
from .principal import SignedOut
from .routes_commands import CommandEnvelope
from .routes_staff import NewStaff, SignIn
from .tournament_setup import NewTournament
from .views import SnapshotOut
from .websocket import ClientMessage, Hello, Pong, Result
from .websocket import ErrorMessage as WsError

#: What the embedded Valkey's watcher last wrote (floor.redisdb.supervisor), set on
#: ``app.state.valkey_state`` by the composition root when floor runs its own Valkey.
ValkeyState = Callable[[], dict[str, object] | None]


async def healthz(request: Request) -> Response:
    """``status``: ``ok`` (200); ``restarting`` (503): floor is restarting its Valkey,
    ``valkey.attempt`` says which try; ``down`` (503): Redis does not answer and nothing here
    restarts it (floor exits soon when it gave up on its own Valkey)."""
    floor = floor_of(request)
    read: ValkeyState | None = getattr(request.app.state, "valkey_state", None)
    valkey = read() if read is not None else None
    shown = {} if valkey is None else {"valkey": valkey}
    try:
        await floor.ping()
    except Exception as e:
        restarting = valkey is not None and valkey.get("state") == "restarting"
        return json_response(
            {
                "ok": False,
                "status": "restarting" if restarting else "down",
                "redis": f"unreachable: {e}",
                **shown,
            },
            503,
        )
    return json_response(
        {
            "ok": True,
            "status": "ok",
            "redis": "ok",
            "serves": floor.settings.serves,
            "clients": floor.hub.clients,
            "clock_lease": floor.clock.holding,
            **shown,
        }
    )


@handle_errors
async def metrics(request: Request) -> Response:
    """Prometheus text, for signed-in staff or a scraper with ``FLOOR_METRICS_TOKEN``.

    It was public: how many screens watch, how many commands and errors, how busy the
    server is, for anyone on the venue network to read.
    """
    floor = floor_of(request)
    if not _metrics_token_sent(request, floor.settings.metrics_token):
        principal, _ = await floor.principal(request)
        if principal.role == "public":
            raise SignedOut(
                "the metrics are for staff: sign in, or send the metrics token "
                "(FLOOR_METRICS_TOKEN) as 'Authorization: Bearer <token>'"
            )
        require_floor(principal, "read the metrics")
    floor.metrics.clients = floor.hub.clients
    floor.metrics.signin_hashes = floor.accounts.hashes
    floor.metrics.followers = floor.follow.followers
    return PlainTextResponse(
        floor.metrics.render(), media_type="text/plain; version=0.0.4; charset=utf-8"
    )


def _metrics_token_sent(request: Request, token: str) -> bool:
    header = request.headers.get("authorization", "")
    if not token or not header.lower().startswith("bearer "):
        return False
    return hmac.compare_digest(header[7:].strip().encode(), token.encode())


async def schema(request: Request) -> Response:
    """JSON Schema of every request body and every websocket message: the same for the
    life of the process, built at its first request (35 ms) and kept."""
    body = answer(floor_of(request).metrics, "schema", None, 0, _build_schema)
    return Response(body, media_type="application/json")


def _build_schema() -> bytes:
    return msgspec.json.encode(api_schema())


#: The types the schema describes, in the order ``api_schema`` names them.
SCHEMA_TYPES: tuple[Any, ...] = (
    commands.Command,
    CommandEnvelope,
    NewTournament,
    NewStaff,
    SignIn,
    ClientMessage,
    Hello | SnapshotOut | FetchSnapshot | EventsIn | Heartbeat | Result | Pong | WsError,
    Paper,
    follow.FollowStatic,
    follow.FollowRoom,
    follow.FollowMe,
)


def api_schema() -> dict[str, object]:
    """JSON Schema of every request body and every websocket message, and of what the
    printables print (``GET /api/t/{id}/paper``).

    ``scripts/protocol_types.py`` writes the screens' types (``web/js/protocol.d.ts``) from it.
    """
    (
        (command, envelope, new, staff, signin, client, server, printed, *parts),
        components,
    ) = msgspec.json.schema_components(SCHEMA_TYPES, ref_template="#/$defs/{name}")
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "floor API",
        "requests": {
            "command": command,
            "command_envelope": envelope,
            "new_tournament": new,
            "new_staff": staff,
            "sign_in": signin,
        },
        "websocket": {
            "client_to_server": client,
            "server_to_client": server,
            # A follow message (/ws/t/{id}/follow/{player}) carries some of these parts.
            "follow_parts": dict(zip(("static", "room", "me"), parts, strict=True)),
        },
        "responses": {"paper": printed},
        "$defs": components,
    }


routes: list[BaseRoute] = [
    Route("/healthz", healthz),
    Route("/metrics", metrics),
    Route("/api/schema", schema),
]
