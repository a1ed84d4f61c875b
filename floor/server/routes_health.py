"""What operators and client authors read: ``/healthz``, ``/metrics`` and ``/api/schema``."""

from __future__ import annotations

import msgspec
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import BaseRoute, Route

from ..engine import commands
from ..protocol import EventsIn
from .context import floor_of
from .edges import json_response
from .hub import Heartbeat
from .routes_commands import CommandEnvelope
from .routes_staff import NewStaff, SignIn
from .tournament_setup import NewTournament
from .views import SnapshotOut
from .websocket import ClientMessage, Hello, Pong, Result
from .websocket import ErrorMessage as WsError


async def healthz(request: Request) -> Response:
    floor = floor_of(request)
    try:
        await floor.ping()
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
    floor = floor_of(request)
    floor.metrics.clients = floor.hub.clients
    return PlainTextResponse(
        floor.metrics.render(), media_type="text/plain; version=0.0.4; charset=utf-8"
    )


async def schema(request: Request) -> Response:
    """JSON Schema of every request body and every websocket message."""
    server_messages = Hello | SnapshotOut | EventsIn | Heartbeat | Result | Pong | WsError
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


routes: list[BaseRoute] = [
    Route("/healthz", healthz),
    Route("/metrics", metrics),
    Route("/api/schema", schema),
]
