"""Who is asking: the client's address (and scheme) as the proxies the operator trusts say.

Behind nginx the peer of every connection is nginx, not the phone. A proxy says who its own
peer was in ``X-Forwarded-For`` (each proxy appends the address it saw) or ``X-Real-IP``, and
whether that peer came over TLS in ``X-Forwarded-Proto``. Anyone can send those headers, so
they are read only when the peer is a proxy named in ``FLOOR_TRUSTED_PROXIES`` (the default
names none), and of ``X-Forwarded-For`` only the part trusted proxies wrote: from the right,
the first address that is not a trusted proxy is the client; what lies left of it the client
wrote itself. The per-address sign-in limit counts that address.

uvicorn's own reading of these headers (``--forwarded-allow-ips``, ``FORWARDED_ALLOW_IPS``)
is off (``floor serve`` runs it with ``proxy_headers=False``): the container image set it to
``*``, and every client could then name a new address per guess and never reach the limit.
"""

from __future__ import annotations

import functools
import ipaddress
from collections.abc import Iterable
from typing import Final

from starlette.types import ASGIApp, Receive, Scope, Send

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network

_FORWARDED_FOR: Final = b"x-forwarded-for"
_REAL_IP: Final = b"x-real-ip"
_FORWARDED_PROTO: Final = b"x-forwarded-proto"
#: The scheme a websocket scope gets for what the proxy was reached by.
_WS_SCHEME: Final = {"http": "ws", "https": "wss"}


def networks(items: Iterable[str]) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(item, strict=False) for item in items)


@functools.lru_cache(maxsize=8192)
def address(text: str) -> Address | None:
    """The address in a forwarding header's entry (``1.2.3.4``, ``[::1]:80``), or None.

    Kept for the addresses last seen: every request asks it several times (the proxy, the
    limits, the exemption), and a storm of phones asks it thousands of times a second."""
    text = text.strip()
    if text.startswith("["):
        text = text[1 : text.find("]")] if "]" in text else ""
    elif text.count(":") == 1:
        text = text.split(":", 1)[0]  # an IPv4 address with a port
    try:
        found = ipaddress.ip_address(text)
    except ValueError:
        return None
    # A dual-stack socket reports IPv4 peers as ::ffff:a.b.c.d; they are the IPv4 address.
    if isinstance(found, ipaddress.IPv6Address) and found.ipv4_mapped is not None:
        return found.ipv4_mapped
    return found


def _trusted(found: Address | None, trusted: tuple[Network, ...]) -> bool:
    return found is not None and any(found in net for net in trusted)


def _values(headers: Iterable[tuple[bytes, bytes]], name: bytes) -> list[str]:
    """Every comma-separated entry of the header ``name``, over all its lines, in order."""
    found: list[str] = []
    for key, value in headers:
        if key.lower() == name:
            found += [v.strip() for v in value.decode("latin-1").split(",") if v.strip()]
    return found


def client_of(
    peer: str | None, headers: Iterable[tuple[bytes, bytes]], trusted: tuple[Network, ...]
) -> tuple[str, str | None] | None:
    """The client's address, and the scheme it used if told (``http``/``https``), as the
    trusted proxies report them; None when the peer is not one (it is the client)."""
    proxy = address(peer) if peer else None
    if proxy is None or not _trusted(proxy, trusted):
        return None
    headers = list(headers)
    client: Address = proxy
    hops = _values(headers, _FORWARDED_FOR)
    if hops:
        for hop in reversed(hops):
            found = address(hop)
            if found is None:
                # A trusted proxy wrote something that is not an address ("unknown"): the
                # last proxy known is as near the client as can be told.
                break
            client = found
            if not _trusted(found, trusted):
                break
    else:
        real = _values(headers, _REAL_IP)
        found = address(real[-1]) if real else None
        if found is not None:
            client = found
    protos = _values(headers, _FORWARDED_PROTO)
    proto = protos[-1].lower() if protos else None
    return str(client), proto if proto in _WS_SCHEME else None


class ClientAddress:
    """ASGI middleware: the scope's ``client`` (and ``scheme``) as trusted proxies say."""

    def __init__(self, app: ASGIApp, *, trusted: tuple[str, ...]) -> None:
        self.app = app
        self.trusted = networks(trusted)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.trusted and scope["type"] in ("http", "websocket"):
            peer = scope.get("client")
            told = client_of(peer[0] if peer else None, scope["headers"], self.trusted)
            if told is not None:
                client, proto = told
                scope = {**scope, "client": (client, 0)}
                if proto is not None:
                    scope["scheme"] = proto if scope["type"] == "http" else _WS_SCHEME[proto]
        await self.app(scope, receive, send)
