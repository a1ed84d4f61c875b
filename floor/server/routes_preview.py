"""``POST /api/t/{id}/preview``: what a command would do, decided on a copy; nothing is written.

The floor phone asks before it sends players out in the same hand: the places and shared
prizes come from the engine's own ``decide``, never from a rule written again in the page.
A command the engine would refuse is answered as that refusal (the same code and status as
``POST .../commands``); the preview is for the staff who may send the command.
"""

from __future__ import annotations

import asyncio

import msgspec
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ..engine import commands
from ..engine.read.preview import preview
from .context import floor_of, staff, tid_of
from .edges import check_numbers, decode, handle_errors, read_body
from .permissions import authorize


class PreviewEnvelope(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """``{"command": {...}}``: the command as it would be sent."""

    command: commands.Command


@handle_errors
async def post_preview(request: Request) -> Response:
    floor = floor_of(request)
    tid = tid_of(request)
    principal = await staff(request)
    envelope = decode(await read_body(request, floor.settings.max_body), PreviewEnvelope)
    check_numbers(envelope.command, "command")
    t, _ = await floor.store.tournament(tid)
    # On the state as it stands, before the next await (it changes in place).
    authorize(principal, envelope.command, t)
    # Decided on a copy of a copy, on a worker thread: the copy of a room of 10,000 takes
    # 100 ms, and a list of a thousand entries 17 s of the engine.
    copy, _ = await floor.store.private_copy(tid)
    now = floor.store.clock()
    body = await asyncio.to_thread(lambda: _encode(preview(copy, envelope.command, now)))
    return Response(body, media_type="application/json")


_encode = msgspec.json.Encoder().encode


routes: list[BaseRoute] = [Route("/api/t/{tid}/preview", post_preview, methods=["POST"])]
