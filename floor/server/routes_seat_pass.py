"""The digital seat card over HTTP (issue 28.4; the rules in ``floor.engine.read.seat_pass``).

    GET  /api/t/{tid}/seatcard/{player}  the player's card: {card: {table, seat, code, qr}}
                                         ({card: null} while unseated). Public (the player's
                                         phone, once they have found themselves), limited
                                         per client address.
    POST /api/t/{tid}/seatcard/scan      {code, table?}: a card read by a camera. A table
                                         screen (its own table, a dealer signed in or not) or
                                         the floor and the director (``table`` the one they
                                         stand at, or none); limited per screen or account.
                                         Answers the verdict (ok, other_table, void, used),
                                         the player's seat now and, for ``ok`` alone, the
                                         name and the document's type and last digits.

The card holds nothing the room does not see (name, table, seat): the dealer's check is the
document in the player's hand against the desk's record, which only a scan reads.
"""

from __future__ import annotations

import time
import weakref
from typing import Annotated, Final

import msgspec
from msgspec import Meta
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ..engine.errors import UnknownPlayer, refused
from ..engine.read.seat_pass import MOST
from .context import Floor, floor_of, staff, tid_of
from .edges import BadRequest, decode, handle_errors, json_response, read_body
from .limits import Buckets, client_key, exempted, too_many
from .principal import Forbidden, Principal
from .proxies import Network, networks
from .routes_staff import client_of

MAX_BODY: Final = 1024
_NO_STORE: Final = {"Cache-Control": "no-store"}
#: A phone's cards a minute per client address (a venue's Wi-Fi puts many behind one).
CARDS_A_MINUTE: Final = 120.0
#: Scans a minute per table screen or account: a dealer scans a table's players in a minute.
SCANS_A_MINUTE: Final = 30.0


class ScanBody(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    code: Annotated[str, Meta(min_length=1, max_length=MOST)]
    #: The table a floorperson stands at (a table screen's is its own).
    table: Annotated[int, Meta(ge=1, le=10_000)] | None = None


_limits: weakref.WeakKeyDictionary[Floor, tuple[Buckets, Buckets, tuple[Network, ...]]] = (
    weakref.WeakKeyDictionary()
)


def _held(floor: Floor) -> tuple[Buckets, Buckets, tuple[Network, ...]]:
    held = _limits.get(floor)
    if held is None:
        held = _limits[floor] = (
            Buckets(CARDS_A_MINUTE / 60.0, CARDS_A_MINUTE / 2),
            Buckets(SCANS_A_MINUTE / 60.0, SCANS_A_MINUTE / 2),
            networks(floor.settings.limits_exempt),
        )
    return held


def _take_card(floor: Floor, client: str) -> None:
    cards, _, exempt = _held(floor)
    if exempted(client, exempt):
        return
    wait = cards.take(client_key(client))
    if wait:
        raise too_many(wait)


def _take_scan(floor: Floor, principal: Principal) -> None:
    # Per screen or account, not per address: the staff's phones share the venue's.
    _, scans, _ = _held(floor)
    wait = scans.take(principal.device or principal.username or principal.role)
    if wait:
        raise too_many(wait)


def _player(request: Request) -> str:
    pid = str(request.path_params["player"])
    if not 1 <= len(pid) <= 64:
        raise BadRequest("a player id is 1 to 64 characters", field="player")
    return pid


@handle_errors
async def card(request: Request) -> Response:
    floor = floor_of(request)
    tid = tid_of(request)
    pid = _player(request)
    _take_card(floor, client_of(request))
    t, _ = await floor.store.tournament(tid)
    if pid not in t.state.players:
        raise refused(UnknownPlayer, "player_unknown", {"player": pid}, field="player")
    return json_response({"card": await floor.seat_passes.card(t, pid)}, headers=_NO_STORE)


@handle_errors
async def scan(request: Request) -> Response:
    floor = floor_of(request)
    principal = await staff(request)
    if not (principal.at_table or principal.role in ("director", "floor")):
        raise Forbidden("only a table screen, the floor and the director scan seat cards")
    tid = tid_of(request)
    if principal.at_table and principal.tournament != tid:
        raise Forbidden("this table screen belongs to another tournament")
    body = decode(await read_body(request, MAX_BODY), ScanBody, frozenset({"code", "table"}))
    _take_scan(floor, principal)
    t, _ = await floor.store.tournament(tid)
    answer = await floor.seat_passes.scan(t, body.code, principal, body.table, time.time())
    return json_response(answer, headers=_NO_STORE)


routes: list[BaseRoute] = [
    Route("/api/t/{tid}/seatcard/scan", scan, methods=["POST"]),
    Route("/api/t/{tid}/seatcard/{player}", card, methods=["GET"]),
]
