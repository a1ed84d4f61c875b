"""The walls' images and named screens over HTTP (``walls``).

- ``GET /api/t/{id}/wall[?screen=name]``: ``{logo, sponsor, screen}``, what a wall shows
  besides the tournament: the URLs of the venue's logo and the event's sponsor (or null) and
  the named screen's layout (null for a wall without a name, or a name not saved). Public.
- ``GET /api/wall/images/{name}``: an image by the name those URLs give (its digest), cached
  for a year. Public.
- ``PUT /api/wall/logo`` and ``PUT /api/t/{id}/wall/sponsor``: the image's bytes as the body
  (PNG, JPEG or WebP, at most ``walls.MOST_IMAGE``); ``DELETE`` takes it down. The director.
- ``GET /api/wall/screens``: ``{screens: {name: layout}}`` (the staff);
  ``PUT /api/wall/screens/{name}`` ``{pages: [{page, seconds}]}`` saves a screen's layout,
  ``DELETE`` forgets it (the director).
"""

from __future__ import annotations

import re

import msgspec
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ..store.errors import NotFound
from ..store.walls_port import WallStorage
from .context import floor_of, staff, tid_of
from .edges import BadQuery, BadRequest, decode, handle_errors, json_response, read_body
from .permissions import require_director, require_floor
from .walls import (
    IMAGE_NAME,
    LAYOUT_KEYS,
    MOST_IMAGE,
    MOST_SCREENS,
    SCREEN_NAME,
    Layout,
    check_layout,
    image_kind,
    image_name,
    media_type,
)

_IMAGE = re.compile(IMAGE_NAME)
_SCREEN = re.compile(SCREEN_NAME)
#: A layout's body: six pages of a few words each.
_MOST_LAYOUT = 4096
_NO_STORE = {"Cache-Control": "no-store"}
#: A year, and never revalidated: the name is the content's digest.
_FOREVER = {"Cache-Control": "public, max-age=31536000, immutable"}


def _walls(request: Request) -> WallStorage:
    return floor_of(request).walls


def _url(name: str | None) -> str | None:
    return None if name is None else f"/api/wall/images/{name}"


def _sponsor(tid: str) -> str:
    return f"sponsor:{tid}"


@handle_errors
async def get_wall(request: Request) -> Response:
    tid = tid_of(request)
    walls = _walls(request)
    name = request.query_params.get("screen")
    unknown = set(request.query_params) - {"screen"}
    if unknown:
        raise BadQuery(f"the wall takes no {min(unknown)}", field=min(unknown))
    if name is not None and not _SCREEN.fullmatch(name):
        raise BadQuery(
            "a screen's name is 1-32 lower-case letters, digits, - and _", field="screen"
        )
    brand = await walls.brand(["logo", _sponsor(tid)])
    saved = await walls.screen(name) if name is not None else None
    return json_response(
        {
            "logo": _url(brand.get("logo")),
            "sponsor": _url(brand.get(_sponsor(tid))),
            "screen": None if saved is None else msgspec.Raw(saved),
        },
        headers=_NO_STORE,
    )


@handle_errors
async def get_image(request: Request) -> Response:
    name = request.path_params["name"]
    if not _IMAGE.fullmatch(name):
        raise NotFound("there is no such image", field="name")
    found = await _walls(request).image(name.split(".")[0])
    if found is None:
        raise NotFound("there is no such image", field="name")
    kind, data = found
    return Response(data, media_type=kind, headers=_FOREVER)


async def _upload(request: Request, slot: str) -> Response:
    data = await read_body(request, MOST_IMAGE)
    kind = image_kind(data)
    name = image_name(data, kind)
    walls = _walls(request)
    await walls.put_image(name.split(".")[0], media_type(kind), data)
    await walls.set_brand(slot, name)
    return json_response({"url": _url(name)}, headers=_NO_STORE)


@handle_errors
async def put_logo(request: Request) -> Response:
    require_director(await staff(request), "sets the venue's logo")
    return await _upload(request, "logo")


@handle_errors
async def delete_logo(request: Request) -> Response:
    require_director(await staff(request), "sets the venue's logo")
    await _walls(request).set_brand("logo", None)
    return json_response({"url": None}, headers=_NO_STORE)


@handle_errors
async def put_sponsor(request: Request) -> Response:
    require_director(await staff(request), "sets the event's sponsor")
    tid = tid_of(request)
    await floor_of(request).store.tournament(tid)
    return await _upload(request, _sponsor(tid))


@handle_errors
async def delete_sponsor(request: Request) -> Response:
    require_director(await staff(request), "sets the event's sponsor")
    tid = tid_of(request)
    await floor_of(request).store.tournament(tid)
    await _walls(request).set_brand(_sponsor(tid), None)
    return json_response({"url": None}, headers=_NO_STORE)


def _screen_name(request: Request) -> str:
    name: str = request.path_params["name"]
    if not _SCREEN.fullmatch(name):
        raise BadRequest(
            "a screen's name is 1-32 lower-case letters, digits, - and _", field="name"
        )
    return name


@handle_errors
async def get_screens(request: Request) -> Response:
    require_floor(await staff(request), "reads the walls' screens")
    saved = await _walls(request).screens()
    screens = {name: msgspec.Raw(data) for name, data in sorted(saved.items())}
    return json_response({"screens": screens}, headers=_NO_STORE)


@handle_errors
async def put_screen(request: Request) -> Response:
    require_director(await staff(request), "names the walls' screens")
    name = _screen_name(request)
    layout = check_layout(decode(await read_body(request, _MOST_LAYOUT), Layout, LAYOUT_KEYS))
    walls = _walls(request)
    saved = await walls.screens()
    if name not in saved and len(saved) >= MOST_SCREENS:
        raise BadRequest(f"a venue names at most {MOST_SCREENS} screens", field="name")
    data = msgspec.json.encode(layout)
    await walls.put_screen(name, data)
    return json_response({"name": name, "screen": msgspec.Raw(data)}, headers=_NO_STORE)


@handle_errors
async def delete_screen(request: Request) -> Response:
    require_director(await staff(request), "names the walls' screens")
    name = _screen_name(request)
    if not await _walls(request).drop_screen(name):
        raise NotFound(f"there is no screen {name}", field="name")
    return json_response({"name": name}, headers=_NO_STORE)


routes: list[BaseRoute] = [
    Route("/api/t/{tid}/wall", get_wall, methods=["GET"]),
    Route("/api/wall/images/{name}", get_image, methods=["GET"]),
    Route("/api/wall/logo", put_logo, methods=["PUT"]),
    Route("/api/wall/logo", delete_logo, methods=["DELETE"]),
    Route("/api/t/{tid}/wall/sponsor", put_sponsor, methods=["PUT"]),
    Route("/api/t/{tid}/wall/sponsor", delete_sponsor, methods=["DELETE"]),
    Route("/api/wall/screens", get_screens, methods=["GET"]),
    Route("/api/wall/screens/{name}", put_screen, methods=["PUT"]),
    Route("/api/wall/screens/{name}", delete_screen, methods=["DELETE"]),
]
