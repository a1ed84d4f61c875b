"""The walls' images and named screens over HTTP (``walls``).

- ``GET /api/t/{id}/wall[?screen=name]``: ``{logo, sponsor, screen}``, what a wall shows
  besides the tournament: the URLs of the venue's logo and the event's sponsor (or null) and
  the named screen's layout (null for a wall without a name, or a name not saved). Public.
- ``GET /api/wall/images/{name}``: an image by the name those URLs give (its digest), cached
  for a year. Public.
- ``PUT /api/wall/logo`` and ``PUT /api/t/{id}/wall/sponsor``: the image's bytes as the body
  (PNG, JPEG or WebP, at most ``walls.MOST_IMAGE``); ``DELETE`` takes it down. The director.
"""

from __future__ import annotations

import re

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ..store.errors import NotFound
from ..store.walls_port import WallStorage
from .context import floor_of, staff, tid_of
from .edges import handle_errors, json_response, read_body
from .permissions import require_director
from .walls import IMAGE_NAME, MOST_IMAGE, image_kind, image_name, media_type

_IMAGE = re.compile(IMAGE_NAME)
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
    brand = await walls.brand(["logo", _sponsor(tid)])
    return json_response(
        {"logo": _url(brand.get("logo")), "sponsor": _url(brand.get(_sponsor(tid)))},
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


routes: list[BaseRoute] = [
    Route("/api/t/{tid}/wall", get_wall, methods=["GET"]),
    Route("/api/wall/images/{name}", get_image, methods=["GET"]),
    Route("/api/wall/logo", put_logo, methods=["PUT"]),
    Route("/api/wall/logo", delete_logo, methods=["DELETE"]),
    Route("/api/t/{tid}/wall/sponsor", put_sponsor, methods=["PUT"]),
    Route("/api/t/{tid}/wall/sponsor", delete_sponsor, methods=["DELETE"]),
]
