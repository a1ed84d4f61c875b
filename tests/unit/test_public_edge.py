"""The public edge's route table: every route of the application is decided, once.

``public_edge.SERVED`` (what the edge serves, as the public) and ``REFUSED`` (what needs a
staff session, or is the staff's to anybody: sign-in and pairing) name every route and
method of ``wiring.routes()``: a route added without a decision fails here rather than being
served to strangers by the edge, or refused where it should not be.
"""

from __future__ import annotations

from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute

from floor.server import public_edge
from floor.server.wiring import routes


def _methods(route: BaseRoute) -> set[str]:
    if isinstance(route, WebSocketRoute):
        return {"WEBSOCKET"}
    if isinstance(route, Route):
        return set(route.methods or ()) - {"HEAD"} or {"GET"}
    return {"GET"}


def _table(rules: tuple[public_edge.Rule, ...]) -> set[tuple[str, str]]:
    return {(path, method) for path, methods in rules for method in methods if method != "HEAD"}


def _app_routes() -> set[tuple[str, str]]:
    found: set[tuple[str, str]] = set()
    for route in routes():
        path = route.path if isinstance(route, Route | WebSocketRoute | Mount) else None
        assert path is not None, route
        found |= {(path, method) for method in _methods(route)}
    return found


def test_every_route_is_served_or_refused_by_the_edge_and_none_is_both() -> None:
    served, refused = _table(public_edge.SERVED), _table(public_edge.REFUSED)
    assert not served & refused
    undecided = _app_routes() - served - refused
    assert not undecided, f"decide in floor/server/public_edge.py: {sorted(undecided)}"
    # And nothing decided that the application does not have (a route renamed).
    assert not (served | refused) - _app_routes()


def test_the_edge_serves_the_public_reads_and_not_the_staff_s() -> None:
    assert public_edge.served("GET", "/api/t/spring/snapshot")
    assert public_edge.served("GET", "/static/js/conn.js")
    assert public_edge.served("WEBSOCKET", "/ws/t/spring/follow/P1")
    assert public_edge.served("POST", "/api/pots")
    assert not public_edge.served("POST", "/api/signin")
    assert not public_edge.served("POST", "/api/t/spring/commands")
    assert not public_edge.served("GET", "/api/t/spring/export/log")
    assert not public_edge.served("GET", "/api/staff")
    assert not public_edge.served("DELETE", "/api/t/spring/snapshot")
    assert not public_edge.served("GET", "/api/t/spring/snapshot/more")
