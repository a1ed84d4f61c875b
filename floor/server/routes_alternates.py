"""The alternates' line over HTTP: a person joins it from the code on the wall (public).

- ``POST /api/t/{id}/alternates`` ``{name}``: in line while the flight is full; answers
  ``{alternate, name, place}`` (201), the phone keeps ``alternate`` to find its place in the
  public state. Anybody (the code on the wall), limited per client address
  (``FLOOR_ALTERNATES_RATE`` a minute) and, by the engine, to one place per name.

The staff's side (the capacity, queueing at the desk, seating a called alternate, dropping
one) are commands (``set_capacity``, ``queue_alternate``, ``seat_alternate``,
``drop_alternate``) on the command API.
"""

from __future__ import annotations

import weakref

import msgspec
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ..engine.commands import JoinAlternates, Name
from ..engine.errors import RuleError
from ..engine.names import shown_name
from ..store.ids import check_command_id
from .context import Floor, floor_of, tid_of
from .edges import BadRequest, decode, handle_errors, json_response, read_body
from .limits import Buckets, client_key, exempted, too_many
from .proxies import Network, networks
from .routes_commands import outcome_response
from .routes_staff import client_of

#: The largest body a join may send: one name.
MAX_BODY = 1024
_NO_STORE = {"Cache-Control": "no-store"}


class Join(msgspec.Struct, forbid_unknown_fields=True):
    name: Name


#: Each process's joins per client address (``FLOOR_ALTERNATES_RATE`` a minute).
_limits: weakref.WeakKeyDictionary[Floor, tuple[Buckets, tuple[Network, ...]]] = (
    weakref.WeakKeyDictionary()
)


def _take(floor: Floor, client: str) -> None:
    held = _limits.get(floor)
    if held is None:
        rate = floor.settings.alternates_rate
        held = _limits[floor] = (
            Buckets(rate / 60.0, rate),
            networks(floor.settings.limits_exempt),
        )
    buckets, exempt = held
    if exempted(client, exempt):
        return
    wait = buckets.take(client_key(client))
    if wait:
        raise too_many(wait)


@handle_errors
async def join_alternates(request: Request) -> Response:
    floor = floor_of(request)
    floor.check_origin(request)
    tid = tid_of(request)
    body = decode(await read_body(request, MAX_BODY), Join)
    _take(floor, client_of(request))
    command_id = request.headers.get("idempotency-key")
    if command_id is not None:
        check_command_id(command_id)
    outcome = await floor.store.execute(tid, JoinAlternates(name=body.name), command_id)
    if not outcome.ok:
        return outcome_response(outcome)
    try:
        name = shown_name(body.name).casefold()
    except RuleError as e:  # refused by the engine already; kept for the type checker
        raise BadRequest(e.message, field="name") from None
    t, _ = await floor.store.tournament(tid)
    line = t.state.alternates.line
    for place, a in enumerate(line, 1):
        if a.name.casefold() == name:
            answer = {"alternate": a.id, "name": a.name, "place": place}
            return json_response(answer, 201, headers=_NO_STORE)
    # Called, seated or dropped between the write and this read: in line no more.
    return json_response({"alternate": None, "name": body.name, "place": None}, 201)


routes: list[BaseRoute] = [
    Route("/api/t/{tid}/alternates", join_alternates, methods=["POST"]),
]
