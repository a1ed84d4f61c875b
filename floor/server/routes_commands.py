"""The command API over HTTP: ``POST /api/t/{id}/commands`` and ``.../commands/{type}``."""

from __future__ import annotations

from typing import Any

import msgspec
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ..engine import commands
from ..store.outcome import Outcome
from .commands_service import run_command
from .context import floor_of, staff, tid_of
from .edges import BadRequest, NoSuch, decode, handle_errors, json_response, read_body, status_of


class CommandEnvelope(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """``POST /api/t/{id}/commands``: a command and the id that makes retries safe."""

    command: commands.Command
    id: str | None = None


def outcome_response(outcome: Outcome) -> Response:
    if outcome.ok:
        return json_response(outcome)
    assert outcome.error is not None
    return json_response(outcome, status_of(outcome.error.code))


@handle_errors
async def post_command(request: Request) -> Response:
    """Any command: ``{"id": "...", "command": {"type": "bust", "player": "P12"}}``."""
    floor = floor_of(request)
    tid = tid_of(request)
    principal = await staff(request)
    envelope = decode(await read_body(request, floor.settings.max_body), CommandEnvelope)
    command_id = envelope.id or request.headers.get("idempotency-key")
    outcome = await run_command(floor, tid, principal, envelope.command, command_id)
    return outcome_response(outcome)


_COMMAND_TYPES: dict[str, type[Any]] = {
    str(c.__struct_config__.tag): c for c in commands.Command.__args__
}


@handle_errors
async def post_command_kind(request: Request) -> Response:
    """One command by its type in the path, its fields as the body (``POST .../bust``)."""
    floor = floor_of(request)
    tid = tid_of(request)
    kind = request.path_params["kind"]
    command_type = _COMMAND_TYPES.get(kind)
    if command_type is None:
        known = ", ".join(sorted(_COMMAND_TYPES))
        raise NoSuch(f"there is no command {kind!r}; known: {known}", field="type")
    principal = await staff(request)
    body = await read_body(request, floor.settings.max_body)
    fields = decode(body or b"{}", dict[str, Any])
    if fields.setdefault("type", kind) != kind:
        # A body written for another command must not run as this one with its fields.
        raise BadRequest(
            f"the body's type {fields['type']!r} is not the command {kind!r} of the path",
            field="type",
        )
    command: commands.Command = decode(msgspec.json.encode(fields), commands.Command)  # type: ignore[arg-type]
    command_id = request.headers.get("idempotency-key")
    outcome = await run_command(floor, tid, principal, command, command_id)
    return outcome_response(outcome)


routes: list[BaseRoute] = [
    Route("/api/t/{tid}/commands", post_command, methods=["POST"]),
    Route("/api/t/{tid}/commands/{kind}", post_command_kind, methods=["POST"]),
]
