"""Notifications over HTTP: the key a browser subscribes with, a player's phone opting in and
out (public: ``push``), a staff member's (their own session), the floorpersons' sections.

- ``GET /api/push/key``: ``{key, enabled}``, the VAPID public key (base64url) and whether this
  server sends pushes (``FLOOR_PUSH``).
- ``PUT /api/t/{id}/push/{player}`` ``{endpoint, keys: {p256dh, auth}, lang}``: wake this
  browser for what the player must act on; ``DELETE`` with ``{endpoint}``: stop. Anybody
  (the phone following the player), limited per address and per player (``push``).
- ``PUT /api/push/staff`` / ``DELETE /api/push/staff``: the same for the signed-in floor or
  director, for the tables of their section.
- ``GET /api/t/{id}/sections``: ``{sections: {username: [tables]}}`` (the staff);
  ``PUT /api/t/{id}/sections/{username}`` ``{tables}`` (the director).
"""

from __future__ import annotations

import weakref
from typing import Annotated

import msgspec
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ..store.errors import NotFound
from ..store.push_port import Owner
from .context import Floor, floor_of, staff, tid_of
from .edges import BadRequest, decode, handle_errors, json_response, read_body
from .limits import Buckets, client_key, exempted, too_many
from .permissions import require_director, require_floor
from .proxies import Network, networks
from .push import MAX_BODY, OptIn, OptOut, Push
from .routes_follow import player_of
from .routes_staff import client_of
from .tablets import MAX_TABLE

_OPT_IN = frozenset({"endpoint", "keys", "lang", "expirationTime", "p256dh", "auth"})
_NO_STORE = {"Cache-Control": "no-store"}
#: The most tables a section holds.
MOST_TABLES = 500

Table = Annotated[int, msgspec.Meta(ge=1, le=MAX_TABLE)]


class Section(msgspec.Struct, forbid_unknown_fields=True):
    tables: Annotated[list[Table], msgspec.Meta(max_length=MOST_TABLES)]


def _push(floor: Floor) -> Push:
    return floor.push


#: Each process's opt-ins and stops per client address (``FLOOR_PUSH_RATE`` a minute).
_limits: weakref.WeakKeyDictionary[Push, tuple[Buckets, tuple[Network, ...]]] = (
    weakref.WeakKeyDictionary()
)


def _take(push: Push, client: str) -> None:
    """One opt-in or stop from ``client``'s address, refused past its share (429)."""
    held = _limits.get(push)
    if held is None:
        rate = push.settings.push_rate
        held = _limits[push] = (Buckets(rate / 60.0, rate), networks(push.settings.limits_exempt))
    buckets, exempt = held
    if exempted(client, exempt):
        return
    wait = buckets.take(client_key(client))
    if wait:
        raise too_many(wait)


async def _player_owner(request: Request, floor: Floor) -> Owner:
    tid = tid_of(request)
    player = player_of(request.path_params["player"])
    t, _ = await floor.store.tournament(tid)
    if player not in t.state.players:
        raise NotFound(f"there is no player {player} in {tid}", field="player")
    return Owner(tournament=tid, player=player)


@handle_errors
async def push_key(request: Request) -> Response:
    push = _push(floor_of(request))
    key = await push.public_key() if push.enabled else None
    return json_response({"key": key, "enabled": push.enabled}, headers=_NO_STORE)


@handle_errors
async def player_opt_in(request: Request) -> Response:
    floor = floor_of(request)
    floor.check_origin(request)
    push = _push(floor)
    _take(push, client_of(request))
    body = decode(await read_body(request, MAX_BODY), OptIn, _OPT_IN)
    owner = await _player_owner(request, floor)
    held = await push.subscribe(owner, push.subscription(body))
    await push.ready()
    return json_response({"ok": True, "held": held}, 201, headers=_NO_STORE)


@handle_errors
async def player_opt_out(request: Request) -> Response:
    floor = floor_of(request)
    floor.check_origin(request)
    push = _push(floor)
    _take(push, client_of(request))
    body = decode(await read_body(request, MAX_BODY), OptOut, _OPT_IN)
    owner = await _player_owner(request, floor)
    removed = await push.storage.unsubscribe(owner, body.endpoint)
    return json_response({"ok": True, "removed": removed}, headers=_NO_STORE)


async def _staff_owner(request: Request) -> Owner:
    principal = await staff(request)
    require_floor(principal, "is sent the alerts of a section")
    if principal.username is None:
        raise BadRequest("a staff member signs up with an account of their own", field="staff")
    return Owner(staff=principal.username)


@handle_errors
async def staff_opt_in(request: Request) -> Response:
    floor = floor_of(request)
    owner = await _staff_owner(request)
    push = _push(floor)
    body = decode(await read_body(request, MAX_BODY), OptIn, _OPT_IN)
    held = await push.subscribe(owner, push.subscription(body))
    await push.ready()
    return json_response({"ok": True, "held": held}, 201, headers=_NO_STORE)


@handle_errors
async def staff_opt_out(request: Request) -> Response:
    floor = floor_of(request)
    owner = await _staff_owner(request)
    body = decode(await read_body(request, MAX_BODY), OptOut, _OPT_IN)
    removed = await _push(floor).storage.unsubscribe(owner, body.endpoint)
    return json_response({"ok": True, "removed": removed}, headers=_NO_STORE)


@handle_errors
async def get_sections(request: Request) -> Response:
    floor = floor_of(request)
    require_floor(await staff(request), "reads the sections")
    tid = tid_of(request)
    await floor.store.tournament(tid)
    sections = await _push(floor).storage.sections(tid)
    return json_response({"tournament": tid, "sections": sections}, headers=_NO_STORE)


@handle_errors
async def set_section(request: Request) -> Response:
    floor = floor_of(request)
    require_director(await staff(request), "sets the sections")
    tid = tid_of(request)
    name = request.path_params["username"]
    body = decode(await read_body(request, MAX_BODY * 2), Section, frozenset({"tables"}))
    await floor.store.tournament(tid)
    if await floor.accounts.storage.account(name) is None:
        raise NotFound(f"there is no staff account {name}", field="username")
    await _push(floor).storage.set_section(tid, name, body.tables)
    sections = await _push(floor).storage.sections(tid)
    return json_response({"tournament": tid, "sections": sections})


routes: list[BaseRoute] = [
    Route("/api/push/key", push_key, methods=["GET"]),
    Route("/api/push/staff", staff_opt_in, methods=["PUT"]),
    Route("/api/push/staff", staff_opt_out, methods=["DELETE"]),
    Route("/api/t/{tid}/push/{player}", player_opt_in, methods=["PUT"]),
    Route("/api/t/{tid}/push/{player}", player_opt_out, methods=["DELETE"]),
    Route("/api/t/{tid}/sections", get_sections, methods=["GET"]),
    Route("/api/t/{tid}/sections/{username}", set_section, methods=["PUT"]),
]
