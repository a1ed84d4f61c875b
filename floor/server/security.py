"""What every answer carries for the browser's protection, and the ``Host`` names answered.

Every HTTP answer (pages, files, the API, errors) gets:

- ``Content-Security-Policy``: scripts, styles, images and connections from this server only,
  and ``frame-ancestors 'self'``. A signed-in director console framed by another page (one
  on another port of the same host is same-site, and the ``SameSite=Strict`` cookie goes
  with it) could be clicked through by that page; now it is not shown in a frame at all.
  The pages hold no inline script; the two inline ``<style>`` blocks (the start page, the
  not-found page) are allowed by their hashes, computed from ``web/`` at start-up, so a page
  edited there keeps working and an injected style does not.
- ``X-Frame-Options: SAMEORIGIN``, the same for browsers older than ``frame-ancestors``.
- The embeddable widget (``/widget/...``) alone may be framed by other sites: those
  ``FLOOR_WIDGET_ANCESTORS`` names are its ``frame-ancestors``, and it carries no
  ``X-Frame-Options`` (which cannot name them). It reads the open API and sends nothing.
- ``X-Content-Type-Options: nosniff``: a file is what its type says, never run as a script.
- ``Referrer-Policy: same-origin``: tournament ids and screens' addresses stay here.

A request whose ``Host`` is not allowed (``origins.host_allowed``: DNS rebinding) is refused
with 400 before any route runs, the websocket handshake too.
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Collection
from pathlib import Path
from typing import Final

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .edges import error_response
from .origins import host_allowed
from .routes_pages import WEB

#: Inline ``<style>`` blocks of the pages: each is allowed by the hash of its exact text.
_STYLE: Final = re.compile(r"<style>(.*?)</style>", re.DOTALL)
#: A ``Host`` value safe to repeat inside the policy (it is checked before, not trusted).
_HOST_VALUE: Final = re.compile(r"[A-Za-z0-9.:\[\]-]{1,300}")
#: Addresses a server given as its listening address cannot be reached by.
_WILDCARDS: Final = {"", "0.0.0.0", "::", "[::]"}


def style_hashes(web: Path = WEB) -> tuple[str, ...]:
    """The CSP source of every inline style block in the pages of ``web``."""
    found: set[str] = set()
    for page in sorted(web.glob("*.html")) if web.is_dir() else []:
        for block in _STYLE.findall(page.read_text(encoding="utf-8")):
            digest = hashlib.sha256(block.encode()).digest()
            found.add(f"'sha256-{base64.b64encode(digest).decode()}'")
    return tuple(sorted(found))


def policy(host: str | None, styles: Collection[str], ancestors: str = "'self'") -> str:
    """The ``Content-Security-Policy`` of an answer to a request for ``host`` (``ancestors``:
    who may frame it)."""
    # 'self' covers ws:// and wss:// of the page's own host in CSP 3; older Safari reads
    # 'self' as http(s) only, so the websocket addresses are named as well.
    sockets = f" ws://{host} wss://{host}" if host and _HOST_VALUE.fullmatch(host) else ""
    return "; ".join(
        [
            "default-src 'self'",
            "script-src 'self'",
            " ".join(["style-src 'self'", *styles]),
            # The pages' icon is the empty "data:," (no request for /favicon.ico).
            "img-src 'self' data:",
            f"connect-src 'self'{sockets}",
            "object-src 'none'",
            "base-uri 'none'",
            "form-action 'self'",
            f"frame-ancestors {ancestors}",
        ]
    )


_FIXED: Final = (
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"SAMEORIGIN"),
    (b"referrer-policy", b"same-origin"),
)


#: The headers of an answer other sites may frame: all but X-Frame-Options.
_UNFRAMED: Final[tuple[tuple[bytes, bytes], ...]] = (
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
)
#: The embeddable widget's pages: framed by the sites ``FLOOR_WIDGET_ANCESTORS`` names.
WIDGET: Final = "/widget/"


def allowed_hosts(names: Collection[str], listening: str) -> frozenset[str]:
    """The host names answered: the operator's, and the one floor listens on if a name."""
    own = listening.strip().lower().rstrip(".")
    return frozenset(names) | ({own} if own not in _WILDCARDS else set())


class Security:
    """ASGI middleware: the ``Host`` check, and the headers above on every HTTP answer."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        hosts: Collection[str],
        web: Path = WEB,
        widget_ancestors: str = "*",
    ) -> None:
        self.app = app
        self.hosts = frozenset(hosts)
        self.styles = style_hashes(web)
        #: Who may frame the embeddable widget (``FLOOR_WIDGET_ANCESTORS``); every other
        #: answer, itself only.
        self.widget_ancestors = widget_ancestors

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        host = Headers(scope=scope).get("host")
        allowed = host_allowed(host, self.hosts)
        if scope["type"] == "http":
            widget = str(scope.get("path", "")).startswith(WIDGET)
            send = self._with_headers(
                send, host if allowed else None, self.widget_ancestors if widget else None
            )
        if allowed:
            await self.app(scope, receive, send)
        else:
            await _refuse(scope, receive, send, host or "")

    def _with_headers(self, send: Send, host: str | None, ancestors: str | None) -> Send:
        """``ancestors``: who may frame the answer, where others than itself may (the
        widget): its policy says so, and X-Frame-Options, which cannot, is left out."""
        csp = policy(host, self.styles, ancestors or "'self'").encode()
        fixed = _FIXED if ancestors is None else _UNFRAMED
        extra = [*fixed, (b"content-security-policy", csp)]

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {key.lower() for key, _ in headers}
                headers += [(k, v) for k, v in extra if k not in present]
                message = {**message, "headers": headers}
            await send(message)

        return send_with_headers


async def _refuse(scope: Scope, receive: Receive, send: Send, host: str) -> None:
    name = host.rsplit(":", 1)[0] if host.count(":") == 1 else host
    response = error_response(
        "malformed",
        f"this server does not answer to the host name {name[:100]!r}: reach it by a name "
        "it is given (FLOOR_ALLOWED_HOSTS), localhost or its address",
        "Host",
    )
    if scope["type"] == "http" or "websocket.http.response" in (scope.get("extensions") or {}):
        await response(scope, receive, send)
    else:
        # Without the denial-response extension a handshake can only be closed (a 403).
        await send({"type": "websocket.close", "code": 1008, "reason": "host not allowed"})
