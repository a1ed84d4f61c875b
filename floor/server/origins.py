"""Which pages may change state: the ``Origin`` and ``Host`` checks of requests and websockets."""

from __future__ import annotations

import ipaddress
from collections.abc import Collection
from typing import Final
from urllib.parse import urlsplit

_DEFAULT_PORTS: Final = {"http": 80, "https": 443}


def _origin_key(origin: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) of an origin ``scheme://host[:port]``, or None if it is not one."""
    try:
        parts = urlsplit(origin.strip().rstrip("/"))
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS or not parts.hostname:
        return None
    if parts.path or parts.query or parts.fragment or "@" in parts.netloc:
        return None
    return scheme, parts.hostname.lower(), _DEFAULT_PORTS[scheme] if port is None else port


def _host_key(host: str) -> tuple[str, int | None] | None:
    """(host, port or None) of a ``Host`` header, or None if it is not one."""
    try:
        parts = urlsplit("//" + host.strip())
        port = parts.port
    except ValueError:
        return None
    if not parts.hostname or parts.path or parts.query or parts.fragment or "@" in parts.netloc:
        return None
    return parts.hostname.lower(), port


def origin_allowed(origin: str | None, host: str | None, allowed: Collection[str]) -> bool:
    """May a request with this ``Origin`` header change state (or open a websocket)?

    Browsers attach cookies to requests that other sites' pages make, and let any page open a
    websocket to any server; the ``Origin`` header, which a page cannot forge, is what tells
    the server which page asks. So a websocket, and a state-changing request authenticated by
    the session cookie, must come from the page's own origin (the ``Host`` the browser sent:
    same host and port) or from an origin the operator allowed (``FLOOR_ALLOWED_ORIGINS``,
    e.g. a display page served elsewhere; no wildcards). Host and port are compared
    case-insensitively, an absent port being the scheme's default. The scheme itself cannot be
    compared with ``Host``, which does not carry it (and behind a TLS proxy the server sees
    plain HTTP for an https page), so ``http://`` and ``https://`` of the server's own host
    and port both pass; nothing else does (``Origin: null`` from sandboxed frames or files,
    other schemes, malformed values).

    No ``Origin`` at all is allowed: browsers send one with every websocket handshake and
    every cross-site POST, so its absence means a program (with a bearer token, or ``curl``)
    that no other site's page can drive with the user's cookie. A page that rebinds its own
    domain to the floor's address (DNS rebinding) passes the ``Host`` comparison but has
    neither the floor's cookie nor a token: it sees what the public sees. The session cookie
    should be ``SameSite=Strict`` as well, a second line for browsers that omit ``Origin``.
    """
    if origin is None:
        return True
    asked = _origin_key(origin)
    if asked is None:
        return False
    scheme, asked_host, asked_port = asked
    own = _host_key(host) if host else None
    if own is not None:
        own_host, own_port = own
        # No port in Host: the browser is on the scheme's default port, as the origin must be.
        port_ok = asked_port == (_DEFAULT_PORTS[scheme] if own_port is None else own_port)
        if own_host == asked_host and port_ok:
            return True
    # The allowed origins are compared whole: scheme too.
    return any(_origin_key(a) == asked for a in allowed)


def host_allowed(host: str | None, allowed: Collection[str]) -> bool:
    """May a request that names this ``Host`` be answered at all?

    DNS rebinding: a page at ``http://evil.example:8000`` points its name at the floor's
    address, and its requests then reach the floor with ``Host: evil.example:8000`` and the
    matching ``Origin``, so they pass the origin check and read the answers. Only ``Host``
    tells them apart: it must be a name the operator listed (``FLOOR_ALLOWED_HOSTS``, lower
    case, no port), ``localhost``, or an IP address (which no one can rebind: a page whose
    origin is an address was served from that address). The port is not compared (proxies
    and port forwarding change it). No ``Host`` at all (HTTP/1.0, a hand-written request)
    is no browser's, and passes.
    """
    if not host:
        return True
    own = _host_key(host)
    if own is None:
        return False
    name = own[0].rstrip(".")
    if name == "localhost" or name in allowed:
        return True
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True
