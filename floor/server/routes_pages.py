"""The screens' pages and files (``web/``), and what the router answers by itself (404, 405)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Final

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import PlainTextResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Scope

from ..engine.errors import FloorError
from ..store.ids import check_tournament_id
from .context import floor_of
from .edges import Endpoint, error_response
from .languages import shipped

WEB = Path(__file__).resolve().parents[2] / "web"
#: Pages change with every release: the browser asks again rather than show an old one.
_NO_CACHE = {"Cache-Control": "no-cache"}


class _Files(StaticFiles):
    """The screens' modules, revalidated on every load (a 304 when unchanged): a screen that
    reloads itself after an upgrade (its ``hello`` names another protocol version) must run
    the new modules, not the old ones a browser's heuristic cache would keep for days."""

    def file_response(
        self,
        full_path: str | os.PathLike[str],
        stat_result: os.stat_result,
        scope: Scope,
        status_code: int = 200,
    ) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        response.headers.setdefault("Cache-Control", "no-cache")
        return response


#: Pages as served, by page and locale: read once a process.
_PAGES: dict[tuple[str, str], bytes] = {}
_HTML: Final = b'<html lang="en">'


def page_with_locale(name: str, locale: str) -> bytes:
    """The page ``name`` with the venue's locale and the languages shipped on its root element
    (``web/js/venue.js`` and ``web/js/i18n.js`` read them before anything is shown)."""
    key = (name, locale)
    page = _PAGES.get(key)
    if page is None:
        raw = (WEB / f"{name}.html").read_bytes()
        langs = " ".join(shipped(WEB)).encode()
        page = raw.replace(
            _HTML,
            b'<html lang="en" data-locale="' + locale.encode() + b'" data-langs="' + langs + b'">',
            1,
        )
        _PAGES[key] = page
    return page


def page_response(request: Request, name: str, status_code: int = 200) -> Response:
    """The page ``name`` as served: the venue's locale on it, never cached stale."""
    body = page_with_locale(name, floor_of(request).settings.locale)
    return Response(body, status_code, headers=_NO_CACHE, media_type="text/html")


def _page(name: str) -> Endpoint:
    async def page(request: Request) -> Response:
        return page_response(request, name)

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
        return page_response(request, "index")
    return RedirectResponse("/api/tournaments")


routes: list[BaseRoute] = [
    Route("/", index),
    Route("/wall/{tid}", _page("wall")),
    Route("/final/{tid}", _page("final")),
    # Framed by the sites FLOOR_WIDGET_ANCESTORS names (its policy: ``security``).
    Route("/widget/{tid}", _page("widget")),
    # A player's check of their draw (``engine.fair``), linked from their screen and card.
    Route("/check/{tid}", _page("check")),
    Route("/floor/{tid}", _page("floor")),
    Route("/player/{tid}", _page("player")),
    # A full flight's alternates' line on a phone (the code on the wall opens it).
    Route("/line/{tid}", _page("line")),
    # The table screen: a tablet that belongs to one table.
    Route("/table/{tid}/{table:int}", _page("table")),
    Route("/director", _page("director")),
    # The dealer room's screen, and a dealer's own phone.
    Route("/dealers", _page("dealers")),
    Route("/desk", _page("desk")),
    Route("/dealer", _page("dealer")),
    Route("/director/{tid}", _director_of),
]
if WEB.is_dir():
    _files: ASGIApp = _Files(directory=WEB)
    routes.append(Mount("/static", _files, name="static"))


#: What the router answers by itself: error code and message, by status.
_ROUTER_ERRORS = {
    404: ("not_found", "there is no such endpoint: see docs/protocol.md or GET /api/schema"),
    405: ("method_not_allowed", "this endpoint does not take that method"),
}


async def router_error(request: Request, exc: HTTPException) -> Response:
    """The router's own 404 and 405 (``/api/t/a/b``, ``PUT /api/staff``): under ``/api`` a
    JSON error like every other answer there, not Starlette's plain text."""
    known = _ROUTER_ERRORS.get(exc.status_code)
    path = request.url.path
    typed = exc.status_code == 404 and not path.startswith(("/api/", "/static/", "/ws/"))
    if typed and (WEB / "notfound.html").exists():
        # Somebody typed an address: a page that leads to the start page, not plain text.
        return page_response(request, "notfound", 404)
    if known is None or not path.startswith("/api/"):
        return PlainTextResponse(exc.detail, exc.status_code, headers=exc.headers)
    code, message = known
    return error_response(code, message, headers=dict(exc.headers) if exc.headers else None)
