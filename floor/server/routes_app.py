"""The installed app: the service worker and a manifest per page kind.

- ``GET /sw.js``: the service worker (``web/sw.js``), served from the root so that its scope
  covers ``/player/``, ``/floor/`` and ``/table/``. The release's version (a digest of every
  file under ``web/``) and the app shell's files are written into it: a new release is a new
  script, which the browser installs by itself and which drops the old shell.
- ``GET /app/player/{id}/manifest.webmanifest``, ``/app/floor/{id}/...`` and
  ``/app/table/{id}/{n}/...`` (``?lang=cs``): the web app manifest of that page: its name,
  the icons (``web/icons``, made by ``scripts/make_icons.py``), ``start_url`` the page itself,
  ``display: standalone``, the screens' colours.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
from pathlib import Path
from typing import Final

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from .context import floor_of, tid_of
from .edges import BadRequest, Endpoint, handle_errors, json_response
from .languages import shipped
from .routes_pages import WEB
from .tablets import MAX_TABLE

#: The screens' background and their theme colour (``web/css/theme.css``).
BACKGROUND: Final = "#0b0f14"
#: What the app of each page kind is called on a home screen, per language.
NAMES: Final = {
    "player": {
        "en": "My seat",
        "cs": "Moje místo",
        "de": "Mein Platz",
        "pl": "Moje miejsce",
        "es": "Mi asiento",
        "pt-br": "Meu lugar",
        "fr": "Ma place",
        "it": "Il mio posto",
    },
    "floor": {"en": "Floor", "cs": "Floor"},
    "table": {
        "en": "Table {n}",
        "cs": "Stůl {n}",
        "de": "Tisch {n}",
        "pl": "Stół {n}",
        "es": "Mesa {n}",
        "pt-br": "Mesa {n}",
        "fr": "Table {n}",
        "it": "Tavolo {n}",
    },
}
#: The shell's files, precached at install: the pages' scripts, styles, English texts and
#: icons. Another language's texts are cached when a page first asks for them (the worker's
#: cache-first /static/): a phone keeps the one language it reads, not all eight.
_OTHER_LANGUAGE: Final = re.compile(r"js/lang/(?!push-)(?:[a-z]+-)?(?!en\.js)[a-z]{2}(?:-br)?\.js")
_SHELL_DIRS: Final = ("js", "css", "icons")
_SHELL_SUFFIXES: Final = frozenset({".js", ".css", ".png"})


@functools.lru_cache(maxsize=1)
def shell(web: Path = WEB) -> tuple[str, tuple[str, ...]]:
    """The release's version and the shell's paths, read once per process."""
    digest = hashlib.sha256()
    paths: list[str] = []
    for path in sorted(p for p in web.rglob("*") if p.is_file()):
        rel = path.relative_to(web).as_posix()
        digest.update(rel.encode() + b"\0" + path.read_bytes())
        shelled = rel.split("/")[0] in _SHELL_DIRS and path.suffix in _SHELL_SUFFIXES
        if shelled and not _OTHER_LANGUAGE.fullmatch(rel):
            paths.append(f"/static/{rel}")
    return digest.hexdigest()[:16], tuple(paths)


@functools.lru_cache(maxsize=1)
def _script(web: Path = WEB) -> bytes:
    version, paths = shell(web)
    text = (web / "sw.js").read_text(encoding="utf-8")
    text = text.replace('"__FLOOR_VERSION__"', json.dumps(version))
    text = text.replace('["__FLOOR_SHELL__"]', json.dumps(list(paths)))
    push = [f"/static/js/lang/push-{code}.js" for code in shipped(web)]
    text = text.replace('["__FLOOR_PUSH__"]', json.dumps(push))
    return text.encode()


async def service_worker(request: Request) -> Response:
    return Response(
        _script(),
        media_type="text/javascript",
        # Asked again at every page load: a release must reach the phones that day.
        headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"},
    )


def manifest(
    kind: str, tid: str, name: str, lang: str, table: int | None = None
) -> dict[str, object]:
    """The manifest of the ``kind`` page of tournament ``tid`` (named ``name``)."""
    words = NAMES[kind]
    app = words.get(lang, words["en"]).replace("{n}", str(table or ""))
    start = f"/{kind}/{tid}" + (f"/{table}" if table is not None else "")
    icons = [
        {"src": f"/static/icons/{kind}-192.png", "sizes": "192x192", "type": "image/png"},
        {"src": f"/static/icons/{kind}-512.png", "sizes": "512x512", "type": "image/png"},
        {
            "src": f"/static/icons/{kind}-512-maskable.png",
            "sizes": "512x512",
            "type": "image/png",
            "purpose": "maskable",
        },
    ]
    return {
        "id": start,
        "name": f"{app} · {name}",
        "short_name": app,
        "lang": lang,
        "start_url": start,
        "scope": start,
        "display": "standalone",
        "background_color": BACKGROUND,
        "theme_color": BACKGROUND,
        "icons": icons,
    }


def _manifest(kind: str) -> Endpoint:
    @handle_errors
    async def endpoint(request: Request) -> Response:
        tid = tid_of(request)
        t, _ = await floor_of(request).store.tournament(tid)
        lang = request.query_params.get("lang", "en")
        table = request.path_params.get("table")
        if table is not None and not 1 <= table <= MAX_TABLE:
            raise BadRequest(f"must be a table number from 1 to {MAX_TABLE}", field="table")
        data = manifest(kind, tid, t.state.name, lang if lang in shipped(WEB) else "en", table)
        return json_response(
            data, headers={"Content-Type": "application/manifest+json", "Cache-Control": "no-cache"}
        )

    return endpoint


routes: list[BaseRoute] = [
    Route("/sw.js", service_worker, methods=["GET"]),
    Route("/app/player/{tid}/manifest.webmanifest", _manifest("player"), methods=["GET"]),
    Route("/app/floor/{tid}/manifest.webmanifest", _manifest("floor"), methods=["GET"]),
    Route(
        "/app/table/{tid}/{table:int}/manifest.webmanifest",
        _manifest("table"),
        methods=["GET"],
    ),
]
