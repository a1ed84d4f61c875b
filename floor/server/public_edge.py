"""The public edge (``FLOOR_SERVES=public``) as a boundary: what it serves, and the session
check nginx asks it for.

The edge serves what anybody may read or compute (the pages, a tournament's public view, the
searches, the public exports, the pot calculator) and refuses everything else: sign-in,
pairing, staff accounts, commands, the log export, staff reads. It serves the public as the
public, whatever credentials a request carries: the session cookie and any bearer token are
taken out of the request before a route sees it, so no staff view is ever built on the edge.

nginx sends a request to a staff process only when its session has been checked
(``auth_request`` to ``GET /api/session/check``, answered by every process, the edge first):
200 for a session of a signed-in principal, 401 for anything else (no credentials, a made-up
cookie, an expired token), 503 when the storage cannot say. Sign-in and redeeming a pairing
code are the only requests without a session that nginx sends to the staff; everything else
goes to the edge. Before, nginx sent every request carrying any session cookie to the staff
processes, so a made-up cookie reached them, and the edge itself served sign-in, accounts,
commands and the log export.

``SERVED`` and ``REFUSED`` name every route of ``wiring.routes()`` with its methods: a route
added without a decision fails ``tests/unit/test_public_edge.py``; one the edge is not told to
serve is refused (404 for sign-in and pairing, served by the staff; 401 for the rest, which
need a staff session: a staff screen whose session ended is sent here by nginx, and its
pages take a 401 as "sign in again").
"""

from __future__ import annotations

import hmac
import re
from typing import Final

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route, compile_path
from starlette.types import ASGIApp, Receive, Scope, Send

from ..engine.errors import FloorError
from .context import floor_of
from .edges import error_response, json_response

#: The path nginx asks (``auth_request``) whether a request carries a session.
CHECK_PATH: Final = "/api/session/check"

Rule = tuple[str, frozenset[str]]


def _rule(path: str, *methods: str) -> Rule:
    return path, frozenset(methods or ("GET", "HEAD"))


#: What the edge serves: (route path, methods). Credentials are removed first (see the top).
SERVED: Final[tuple[Rule, ...]] = (
    _rule("/healthz"),
    _rule("/metrics"),  # with FLOOR_METRICS_TOKEN only (see ``PublicOnly``)
    _rule("/api/schema"),
    _rule(CHECK_PATH),
    _rule("/api/me"),  # answers the public principal: a page asks it to know who it is
    _rule("/api/config"),
    _rule("/api/tournaments", "GET"),
    _rule("/api/t/{tid}"),
    _rule("/api/t/{tid}/snapshot"),
    _rule("/api/t/{tid}/players"),
    _rule("/api/t/{tid}/events"),
    _rule("/api/t/{tid}/export/results.csv", "GET"),
    _rule("/api/t/{tid}/export/hendon.csv", "GET"),
    _rule("/api/t/{tid}/export/payouts.csv", "GET"),
    _rule("/api/payouts/standard", "GET"),
    _rule("/print/{tid}", "GET"),
    _rule("/api/t/{tid}/counts"),
    _rule("/api/t/{tid}/counts.csv"),
    _rule("/api/t/{tid}/follow/{player}"),
    _rule("/api/t/{tid}/board"),
    _rule("/api/t/{tid}/prizes", "GET"),
    _rule("/api/t/{tid}/results.csv", "GET"),
    _rule("/api/pots", "POST"),
    # The wall's line of the day forecaster, when the director shows it (a read).
    _rule("/api/t/{tid}/forecast/wall", "GET"),
    _rule("/api/rulebook", "GET"),
    # What a wall shows besides the tournament: its logo, sponsor and layout (``routes_walls``).
    _rule("/api/t/{tid}/wall", "GET"),
    _rule("/api/wall/images/{name}", "GET"),
    _rule("/api/rulebook/{rule}", "GET"),
    # The open read API (``routes_open``): every route of it.
    _rule("/api/open/v1/openapi.json", "GET"),
    _rule("/api/open/v1/tournaments", "GET"),
    _rule("/api/open/v1/t/{tid}/clock", "GET"),
    _rule("/api/open/v1/t/{tid}/field", "GET"),
    _rule("/api/open/v1/t/{tid}/seats", "GET"),
    _rule("/api/open/v1/t/{tid}/counts", "GET"),
    _rule("/api/open/v1/t/{tid}/results", "GET"),
    _rule("/api/open/v1/t/{tid}/payouts", "GET"),
    _rule("/api/open/v1/t/{tid}/changes", "GET"),
    _rule("/api/open/v1/t/{tid}/ots.json", "GET"),
    _rule("/api/open/v1/t/{tid}/chain", "GET"),
    _rule("/api/open/v1/t/{tid}/draws", "GET"),
    _rule("/api/open/v1/t/{tid}/results/signed", "GET"),
    _rule("/.well-known/floor-keys.json", "GET"),
    _rule("/"),
    _rule("/wall/{tid}"),
    _rule("/final/{tid}"),
    _rule("/widget/{tid}"),
    _rule("/check/{tid}"),
    _rule("/floor/{tid}"),
    _rule("/player/{tid}"),
    _rule("/line/{tid}"),
    _rule("/table/{tid}/{table:int}"),
    _rule("/director"),
    _rule("/director/{tid}"),
    _rule("/dealers"),
    _rule("/dealer"),
    _rule("/desk"),
    _rule("/static"),  # the mount: every file below it
    # The installed app (``routes_app``) and a player's phone opting in and out of alerts
    # (``routes_push``: a public write, limited per address and per player).
    _rule("/sw.js", "GET"),
    _rule("/app/player/{tid}/manifest.webmanifest", "GET"),
    _rule("/app/floor/{tid}/manifest.webmanifest", "GET"),
    _rule("/app/table/{tid}/{table:int}/manifest.webmanifest", "GET"),
    _rule("/api/push/key", "GET"),
    _rule("/api/t/{tid}/push/{player}", "PUT", "DELETE"),
    # A person joining a full flight's alternates' line from the code on the wall
    # (``routes_alternates``: a public write, limited per address and one place per name).
    _rule("/api/t/{tid}/alternates", "POST"),
    # A player's digital seat card on their phone (``routes_seat_pass``: limited per address).
    _rule("/api/t/{tid}/seatcard/{player}", "GET"),
    # The public websockets, as public screens (nginx sends /ws/ to the edge's websockets
    # server, FLOOR_WS_PORT; these are for a client that reaches the edge's HTTP port).
    _rule("/ws/t/{tid}", "WEBSOCKET"),
    _rule("/ws/t/{tid}/follow/{player}", "WEBSOCKET"),
)

#: Served by the staff processes to anybody (nginx sends them there): 404 on the edge.
ANONYMOUS_STAFF: Final[tuple[Rule, ...]] = (
    _rule("/api/signin", "POST"),
    _rule("/api/signin/pair", "POST"),
    _rule("/api/dealers/phone", "POST"),
)

#: What needs a staff session: 401 on the edge.
REFUSED: Final[tuple[Rule, ...]] = (
    *ANONYMOUS_STAFF,
    _rule("/api/signout", "POST"),
    _rule("/api/me/secret", "PUT"),
    _rule("/api/staff", "GET", "POST"),
    _rule("/api/staff/{username}", "DELETE"),
    _rule("/api/staff/{username}/secret", "PUT"),
    _rule("/api/staff/{username}/unlock", "POST"),
    _rule("/api/pairing", "POST"),
    # A paired table screen's own: a dealer's PIN, and the director's list of tablets.
    _rule("/api/table/signin", "POST"),
    _rule("/api/table/signout", "POST"),
    _rule("/api/tablets", "GET"),
    _rule("/api/tablets/{device}", "PUT", "DELETE"),
    _rule("/api/tournaments", "POST"),
    _rule("/api/t/{tid}/archive", "POST"),
    _rule("/api/t/{tid}/commands", "POST"),
    _rule("/api/wall/logo", "PUT", "DELETE"),
    _rule("/api/t/{tid}/wall/sponsor", "PUT", "DELETE"),
    _rule("/api/wall/screens", "GET"),
    _rule("/api/wall/screens/{name}", "PUT", "DELETE"),
    _rule("/api/t/{tid}/commands/{kind}", "POST"),
    _rule("/api/t/{tid}/preview", "POST"),
    _rule("/api/t/{tid}/import", "POST"),
    _rule("/api/t/{tid}/export/log", "GET"),
    _rule("/api/t/{tid}/paper", "GET"),
    _rule("/api/t/{tid}/paper/check", "GET"),
    _rule("/api/structures/parse", "POST"),
    _rule("/api/structures/toml", "POST"),
    _rule("/api/t/{tid}/bags"),
    # The day forecaster: the staff's, and played by the staff processes' workers only.
    _rule("/api/t/{tid}/forecast", "GET", "POST"),
    _rule("/api/t/{tid}/forecast/jobs/{job}", "GET"),
    _rule("/api/t/{tid}/forecast/settings", "PUT"),
    _rule("/api/t/{tid}/export/forecasts.csv", "GET"),
    _rule("/api/day2", "POST"),
    # A staff member's alerts, and the floorpersons' sections (``routes_push``).
    _rule("/api/push/staff", "PUT", "DELETE"),
    _rule("/api/t/{tid}/sections", "GET"),
    _rule("/api/t/{tid}/sections/{username}", "PUT"),
    # The dealer room (``routes_dealers``).
    _rule("/api/dealers", "GET"),
    _rule("/api/dealers/commands", "POST"),
    _rule("/api/dealers/people", "POST"),
    _rule("/api/dealers/people/{username}/pin", "PUT"),
    _rule("/api/dealers/downs", "GET"),
    _rule("/api/dealers/downs.csv", "GET"),
    _rule("/api/dealers/table", "GET"),
    _rule("/api/dealers/phone/code", "POST"),
    _rule("/api/dealers/me", "GET"),
    # The front desk and the cashier (``routes_desk``).
    _rule("/api/desk", "GET"),
    _rule("/api/desk/settings", "PUT"),
    _rule("/api/desk/shifts", "POST"),
    _rule("/api/desk/shifts/{sid}", "GET"),
    _rule("/api/desk/shifts/{sid}/close", "POST"),
    _rule("/api/desk/take", "POST"),
    _rule("/api/desk/undo", "POST"),
    _rule("/api/desk/registry", "GET"),
    _rule("/api/desk/registry/{pid}", "GET", "DELETE"),
    _rule("/api/desk/exclusions", "POST"),
    _rule("/api/desk/checks", "GET"),
    _rule("/api/desk/shown/{tid}/{player}", "GET"),
    _rule("/api/desk/cashier/{tid}", "GET"),
    _rule("/api/desk/cashier/{tid}/pay", "POST"),
    _rule("/api/desk/tickets/{tid}", "GET"),
    # A seat card scanned at a table (``routes_seat_pass``): a table screen or the floor.
    _rule("/api/t/{tid}/seatcard/scan", "POST"),
    # The ticket ledger (``routes_tickets``): the staff's.
    _rule("/api/tickets", "GET"),
    _rule("/api/tickets/commands", "POST"),
)

#: Request headers that carry a session: removed on the edge.
_CREDENTIALS: Final = frozenset({b"cookie", b"authorization"})
_TOKEN: Final = frozenset({b"authorization"})


def _pattern(path: str) -> re.Pattern[str]:
    if path == "/static":
        return re.compile(r"^/static(/.*)?$")
    regex, _, _ = compile_path(path)
    return regex


_SERVED: Final = tuple((_pattern(path), methods) for path, methods in SERVED)
_ANONYMOUS_STAFF: Final = tuple(_pattern(path) for path, _ in ANONYMOUS_STAFF)


def served(method: str, path: str) -> bool:
    """Whether the edge serves ``method`` (``WEBSOCKET`` for a handshake) on ``path``."""
    return any(method in methods and regex.match(path) for regex, methods in _SERVED)


class PublicOnly:
    """ASGI middleware of the public edge: the public's routes, served as the public; the
    rest refused (see the top)."""

    def __init__(self, app: ASGIApp, *, metrics_token: str = "") -> None:
        self.app = app
        self.metrics_token = metrics_token.encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        method = "WEBSOCKET" if kind == "websocket" else scope["method"]
        if not served(method, path):
            await self._refuse(scope, receive, send, method, path)
            return
        if path == CHECK_PATH:
            await self.app(scope, receive, send)
            return
        keep: frozenset[bytes] = frozenset()
        if path == "/metrics":
            if not self._metrics_token(scope):
                response = error_response(
                    "signed_out",
                    "the public edge shows its metrics to a scraper with the metrics token "
                    "(FLOOR_METRICS_TOKEN as 'Authorization: Bearer <token>') only",
                )
                await response(scope, receive, send)
                return
            keep = _TOKEN  # the metrics token, checked: no session
        headers = [(k, v) for k, v in scope["headers"] if k in keep or k not in _CREDENTIALS]
        await self.app({**scope, "headers": headers}, receive, send)

    def _metrics_token(self, scope: Scope) -> bool:
        if not self.metrics_token:
            return False
        for name, value in scope["headers"]:
            if name == b"authorization" and value[:7].lower() == b"bearer ":
                return hmac.compare_digest(value[7:].strip(), self.metrics_token)
        return False

    async def _refuse(
        self, scope: Scope, receive: Receive, send: Send, method: str, path: str
    ) -> None:
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008, "reason": "not served here"})
            return
        if any(regex.match(path) for regex in _ANONYMOUS_STAFF):
            response = error_response(
                "not_found",
                f"{method} {path} is served by the staff processes, not by the public edge "
                "(FLOOR_SERVES=public): reach floor through its nginx",
            )
        else:
            response = error_response(
                "signed_out",
                f"{method} {path} is for signed-in staff, and the public edge "
                "(FLOOR_SERVES=public) serves the public only: sign in (again)",
            )
        await response(scope, receive, send)


async def check_session(request: Request) -> Response:
    """200 when the request carries the session of a signed-in principal, else 401; 503 when
    the storage cannot say. nginx asks it before it sends a request to a staff process."""
    floor = floor_of(request)
    try:
        principal, _ = await floor.principal(request)
    except FloorError as e:
        if e.code == "signed_out":
            principal = None
        else:
            return error_response(e.code, e.message)
    if principal is None or principal.role == "public":
        return error_response("signed_out", "no session: sign in")
    return json_response({"role": principal.role}, headers={"Cache-Control": "no-store"})


routes: list[BaseRoute] = [Route(CHECK_PATH, check_session, methods=["GET", "HEAD"])]
