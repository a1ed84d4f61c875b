"""Server settings, all from the environment (listed by ``floor serve --help``).

One place that names every variable, its default and what it is for, so the README, the
deployment files and ``--help`` cannot drift apart.
"""

from __future__ import annotations

import ipaddress
import os
import re
from collections.abc import Mapping
from typing import Final, Literal, TypeVar

import msgspec

MIN_METRICS_TOKEN: Final = 24
#: What a process serves: everything, or the public side only (a public edge).
Serves = Literal["everyone", "public"]
#: A locale: a language of 2-3 letters and an optional region of 2 letters or 3 digits.
_LOCALE: Final = re.compile(r"([A-Za-z]{2,3})(?:-([A-Za-z]{2}|[0-9]{3}))?")
#: A DNS name: dot-separated labels of letters, digits and inner hyphens.
_HOST_NAME: Final = re.compile(r"(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))*")

#: (name, default, meaning) of every environment variable floor reads.
VARIABLES: tuple[tuple[str, str, str], ...] = (
    (
        "REDIS_URL",
        "",
        "Redis 7+ or Valkey 8 to use: redis://, rediss://, unix://, "
        "redis+cluster://host:port,host:port (a cluster), "
        "redis+sentinel://host:port,host:port/service (a Sentinel-watched primary); "
        "unset: floor starts its own Valkey in FLOOR_DATA_DIR",
    ),
    (
        "FLOOR_REDIS_WAIT_REPLICAS",
        "0",
        "replicas that must hold a command's events before it is acknowledged "
        "(WAIT; set it with Sentinel so a failover loses no acknowledged bust-out)",
    ),
    ("FLOOR_DATA_DIR", "var", "where the embedded Valkey keeps its append-only file"),
    ("FLOOR_APPENDFSYNC", "always", "embedded Valkey fsync policy: always, everysec or no"),
    (
        "FLOOR_VALKEY_RESTARTS",
        "5",
        "failed restarts of the embedded Valkey (1 s, 2 s, 4 s... apart) within "
        "FLOOR_VALKEY_RESTART_WINDOW after which floor exits with status 69, "
        "for systemd or docker to restart it",
    ),
    ("FLOOR_VALKEY_RESTART_WINDOW", "120", "seconds over which FLOOR_VALKEY_RESTARTS count"),
    ("FLOOR_HOST", "127.0.0.1", "address to listen on"),
    ("FLOOR_PORT", "8000", "port to listen on"),
    (
        "FLOOR_ALLOWED_ORIGINS",
        "",
        "extra origins (comma-separated) allowed to open websockets "
        "and send commands with a session cookie; the page's own origin always is",
    ),
    (
        "FLOOR_SECURE_COOKIES",
        "0",
        "1: the session cookie is always HTTPS-only (it is anyway for a request over HTTPS)",
    ),
    ("FLOOR_LOG_LEVEL", "info", "debug, info, warning or error; logs are JSON lines on stderr"),
    (
        "FLOOR_CLIENT_QUEUE",
        "512",
        "messages a slow screen may fall behind (as bytes: this times 4 KiB, plus its "
        "largest message, e.g. a snapshot) before it is dropped and resynchronises",
    ),
    ("FLOOR_HEARTBEAT", "10", "seconds between heartbeats to every screen"),
    ("FLOOR_MAX_BODY", "65536", "largest request body accepted, in bytes"),
    (
        "FLOOR_MAX_MESSAGE",
        "65536",
        "largest websocket message a client may send, in bytes (larger: closed with 1009)",
    ),
    ("FLOOR_MAX_HEADER", "32768", "largest request line and headers, in bytes (larger: 431)"),
    (
        "FLOOR_REQUEST_TIMEOUT",
        "10",
        "seconds a request (line, headers, body) may take to arrive from its first byte, "
        "or from the connection for its first request (longer: closed, 408)",
    ),
    (
        "FLOOR_RATE_LIMIT",
        "20",
        "requests (websocket connections included) per second a client address may make, "
        "after a burst of FLOOR_RATE_BURST; past it 429 with Retry-After (1013 for a "
        "websocket); signed-in staff are not held back; 0: no limit",
    ),
    ("FLOOR_RATE_BURST", "100", "requests a client address may make at once (see above)"),
    (
        "FLOOR_MAX_CONNECTIONS",
        "64",
        "open websockets a client address may hold, and as many connections not yet "
        "upgraded (an IPv6 address counts by its /64); past it 1013 or 429; "
        "behind a NAT every phone has one address: raise it; 0: no cap",
    ),
    (
        "FLOOR_LIMITS_EXEMPT",
        "127.0.0.1,::1",
        "client addresses or networks (comma-separated) the per-address limits do not "
        "apply to; the default is this machine (benches, tools); none: no address",
    ),
    (
        "FLOOR_WRITE_TIMEOUT",
        "15",
        "seconds a screen may take no byte of what it was sent before it is dropped",
    ),
    (
        "FLOOR_PUBLIC_WRITE_TIMEOUT",
        "5",
        "the same for a public screen (a player's phone): its socket is also given a small "
        "kernel send buffer, so one that stops reading holds little memory and not for long",
    ),
    (
        "FLOOR_CONFIG_DIR",
        "",
        "folder of rule sets, structures and tournament configs; "
        "unset: the config/ folder shipped with floor",
    ),
    (
        "FLOOR_TRUSTED_PROXIES",
        "",
        "addresses or networks (comma-separated, e.g. 127.0.0.1,10.0.0.0/8) of the proxies "
        "in front of floor: only from them are X-Forwarded-For, X-Real-IP and "
        "X-Forwarded-Proto believed; unset: none is, every client is its own address",
    ),
    (
        "FLOOR_ALLOWED_HOSTS",
        "",
        "host names (comma-separated) browsers may reach floor by, e.g. floor.local; "
        "localhost and IP addresses always may; any other Host is refused with 400",
    ),
    (
        "FLOOR_SERVES",
        "everyone",
        "everyone, or public: a public edge for the players' screens. It serves the public "
        "reads (HTTP, on FLOOR_PORT) and the public websockets (websockets' own server, on "
        "FLOOR_WS_PORT), refuses sign-in, commands and every staff route, and checks "
        "sessions for nginx (deploy/nginx/floor.conf sends it every request without a "
        "checked session); it runs no clock of its own",
    ),
    (
        "FLOOR_WS_PORT",
        "0",
        "with FLOOR_SERVES=public: the port of the public websockets (/ws/); 0: FLOOR_PORT + 1",
    ),
    (
        "FLOOR_TABLET_TTL",
        "86400",
        "seconds a paired table screen lasts from pairing (then it is paired again with a "
        "new code); the director ends one sooner from the console",
    ),
    (
        "FLOOR_LOCALE",
        "en-GB",
        "the venue's locale, a language and a region (cs-CZ, en-GB, de-DE): how every screen "
        "and printable writes numbers and times (a 24-hour clock where the venue keeps one) "
        "and sorts names, whatever language it speaks",
    ),
    (
        "FLOOR_FORECAST_WORKERS",
        "0",
        "worker processes (at the lowest priority) that play the day forecaster's runs in "
        "each staff process; 0: one per core, at most 4",
    ),
    (
        "FLOOR_METRICS_TOKEN",
        "",
        "a secret a scraper sends as 'Authorization: Bearer <token>' to read /metrics; "
        "unset: only signed-in staff read it",
    ),
    # Notifications (floor.server.push_notify): Web Push where the server reaches the internet.
    (
        "FLOOR_PUSH",
        "1",
        "0: send no Web Push (a venue whose server does not reach the internet): phones keep "
        "the in-page alerts, the table screens show the moves",
    ),
    (
        "FLOOR_PUSH_SUBJECT",
        "mailto:floor@localhost",
        "the contact a push service may write to about this server's pushes (VAPID 'sub': "
        "mailto: or https:); Apple's service wants a real one",
    ),
    (
        "FLOOR_PUSH_SERVICES",
        "fcm.googleapis.com,*.push.services.mozilla.com,*.push.apple.com,*.notify.windows.com",
        "the push services a subscription may name (https host names, '*.' for any below; "
        "or whole origins, http://127.0.0.1:9000 for a test's): floor posts to no other",
    ),
    (
        "FLOOR_ALTERNATES_RATE",
        "6",
        "people a client address may put in a flight's alternates' line per minute, from the "
        "code on the wall (as many at once); behind a venue's NAT raise it or name the address "
        "in FLOOR_LIMITS_EXEMPT",
    ),
    (
        "FLOOR_PUSH_RATE",
        "30",
        "opt-ins and stops per minute a client address may send (as many at once); behind a "
        "venue's NAT raise it or name the address in FLOOR_LIMITS_EXEMPT",
    ),
    (
        "FLOOR_VAPID_KEY",
        "",
        "a PEM file with the VAPID private key (P-256) pushes are signed with; unset: one is "
        "made once and kept in Redis for every process",
    ),
    (
        "FLOOR_WIDGET_ANCESTORS",
        "*",
        "the sites that may show the embeddable widget (/widget/ID: the clock and the chip "
        "leaders) in a frame: its frame-ancestors, origins such as https://venue.example "
        "separated by spaces, or * for any, or 'none'; every other page stays 'self'",
    ),
    (
        "FLOOR_SIGNING_KEY",
        "",
        "the venue's Ed25519 key (a PEM made by `floor keys new`), kept outside "
        "FLOOR_DATA_DIR: exports and the results are signed with it; unset: nothing is signed",
    ),
    (
        "FLOOR_SIGNING_KEYS",
        "",
        "the venue's key list, published at /.well-known/floor-keys.json; unset: the "
        "keys.json beside FLOOR_SIGNING_KEY",
    ),
)


class Settings(msgspec.Struct, frozen=True, kw_only=True):
    redis_url: str = ""
    data_dir: str = "var"
    appendfsync: str = "always"
    valkey_restarts: int = 5
    valkey_restart_window: float = 120.0
    host: str = "127.0.0.1"
    port: int = 8000
    allowed_origins: tuple[str, ...] = ()
    secure_cookies: bool = False
    log_level: str = "info"
    client_queue: int = 512
    heartbeat: float = 10.0
    max_body: int = 65536
    max_message: int = 65536
    max_header: int = 32768
    request_timeout: float = 10.0
    #: Requests per second and at once per client address (0: no limit; see ``limits``).
    rate_limit: float = 20.0
    rate_burst: int = 100
    max_connections: int = 64
    limits_exempt: tuple[str, ...] = ("127.0.0.1/32", "::1/128")
    write_timeout: float = 15.0
    #: ``write_timeout`` for the public's sockets (see ``fanout.PUBLIC_SEND_BUFFER``).
    public_write_timeout: float = 5.0
    #: Networks whose forwarding headers are believed (see ``proxies``).
    trusted_proxies: tuple[str, ...] = ()
    #: Host names besides localhost and IP addresses (see ``origins.host_allowed``).
    allowed_hosts: tuple[str, ...] = ()
    metrics_token: str = ""
    #: The venue's locale (``FLOOR_LOCALE``): formats and the order of names on the screens.
    locale: str = "en-GB"
    #: Seconds a paired table screen lasts (see ``tablets``).
    tablet_ttl: int = 86400
    #: ``public``: a public edge (see ``FLOOR_SERVES``).
    serves: Serves = "everyone"
    #: The public edge's websocket port (0: ``port`` + 1).
    ws_port: int = 0
    #: The day forecaster's worker processes (0: one per core, at most 4; ``forecast_pool``).
    forecast_workers: int = 0
    #: Web Push (``push_notify``): on, the VAPID contact, the services posted to, the
    #: opt-ins a minute per address, the key's file.
    push: bool = True
    push_subject: str = "mailto:floor@localhost"
    push_services: tuple[str, ...] = ()
    alternates_rate: float = 6.0
    push_rate: float = 30.0
    vapid_key: str = ""
    signing_key: str = ""
    widget_ancestors: str = "*"
    signing_keys: str = ""

    @property
    def public_ws_port(self) -> int:
        return self.ws_port or self.port + 1


def from_env(env: Mapping[str, str] | None = None) -> Settings:
    env = os.environ if env is None else env

    def get(name: str) -> str:
        default = next(d for n, d, _ in VARIABLES if n == name)
        return env.get(name, "").strip() or default

    def number(name: str, cast: type[int] | type[float]) -> float:
        raw = get(name)
        try:
            return cast(raw)
        except ValueError:
            raise SystemExit(f"{name} must be a number, not {raw!r}") from None

    return Settings(
        redis_url=get("REDIS_URL"),
        data_dir=get("FLOOR_DATA_DIR"),
        appendfsync=get("FLOOR_APPENDFSYNC"),
        valkey_restarts=_at_least(
            "FLOOR_VALKEY_RESTARTS", int(number("FLOOR_VALKEY_RESTARTS", int)), 1
        ),
        valkey_restart_window=_at_least(
            "FLOOR_VALKEY_RESTART_WINDOW", number("FLOOR_VALKEY_RESTART_WINDOW", float), 1.0
        ),
        host=get("FLOOR_HOST"),
        port=int(number("FLOOR_PORT", int)),
        allowed_origins=tuple(
            o.strip() for o in get("FLOOR_ALLOWED_ORIGINS").split(",") if o.strip()
        ),
        secure_cookies=get("FLOOR_SECURE_COOKIES") in ("1", "true", "yes"),
        log_level=get("FLOOR_LOG_LEVEL"),
        client_queue=int(number("FLOOR_CLIENT_QUEUE", int)),
        heartbeat=number("FLOOR_HEARTBEAT", float),
        max_body=int(number("FLOOR_MAX_BODY", int)),
        max_message=_at_least("FLOOR_MAX_MESSAGE", int(number("FLOOR_MAX_MESSAGE", int)), 1024),
        max_header=_at_least("FLOOR_MAX_HEADER", int(number("FLOOR_MAX_HEADER", int)), 1024),
        request_timeout=_at_least(
            "FLOOR_REQUEST_TIMEOUT", number("FLOOR_REQUEST_TIMEOUT", float), 0.1
        ),
        rate_limit=_at_least("FLOOR_RATE_LIMIT", number("FLOOR_RATE_LIMIT", float), 0.0),
        rate_burst=_at_least("FLOOR_RATE_BURST", int(number("FLOOR_RATE_BURST", int)), 1),
        max_connections=_at_least(
            "FLOOR_MAX_CONNECTIONS", int(number("FLOOR_MAX_CONNECTIONS", int)), 0
        ),
        limits_exempt=_exempt(get("FLOOR_LIMITS_EXEMPT")),
        write_timeout=_at_least("FLOOR_WRITE_TIMEOUT", number("FLOOR_WRITE_TIMEOUT", float), 0.1),
        public_write_timeout=_at_least(
            "FLOOR_PUBLIC_WRITE_TIMEOUT", number("FLOOR_PUBLIC_WRITE_TIMEOUT", float), 0.1
        ),
        trusted_proxies=tuple(_network(n) for n in _listed(get("FLOOR_TRUSTED_PROXIES"))),
        allowed_hosts=tuple(_host_name(h) for h in _listed(get("FLOOR_ALLOWED_HOSTS"))),
        metrics_token=_metrics_token(get("FLOOR_METRICS_TOKEN")),
        locale=_locale(get("FLOOR_LOCALE")),
        tablet_ttl=_at_least("FLOOR_TABLET_TTL", int(number("FLOOR_TABLET_TTL", int)), 60),
        serves=_serves(get("FLOOR_SERVES")),
        ws_port=_at_least("FLOOR_WS_PORT", int(number("FLOOR_WS_PORT", int)), 0),
        forecast_workers=_at_least(
            "FLOOR_FORECAST_WORKERS", int(number("FLOOR_FORECAST_WORKERS", int)), 0
        ),
        push=get("FLOOR_PUSH") not in ("0", "false", "no"),
        push_subject=_push_subject(get("FLOOR_PUSH_SUBJECT")),
        push_services=tuple(_listed(get("FLOOR_PUSH_SERVICES").lower())),
        alternates_rate=_at_least(
            "FLOOR_ALTERNATES_RATE", number("FLOOR_ALTERNATES_RATE", float), 1.0
        ),
        push_rate=_at_least("FLOOR_PUSH_RATE", number("FLOOR_PUSH_RATE", float), 1.0),
        vapid_key=get("FLOOR_VAPID_KEY"),
        signing_key=get("FLOOR_SIGNING_KEY"),
        widget_ancestors=_ancestors(get("FLOOR_WIDGET_ANCESTORS")),
        signing_keys=get("FLOOR_SIGNING_KEYS"),
    )


#: A frame ancestor: any, none, this origin, or a scheme with a host (a leading *. for its
#: subdomains) and a port.
_ANCESTOR: Final = re.compile(
    r"\*|'none'|'self'|https?://(\*\.)?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*(:[0-9]{1,5})?"
)


def _ancestors(raw: str) -> str:
    items = [item for item in re.split(r"[\s,]+", raw) if item]
    for item in items:
        if not _ANCESTOR.fullmatch(item):
            raise SystemExit(
                f"FLOOR_WIDGET_ANCESTORS: {item[:80]!r} is not an origin (https://venue.example), "
                "* or 'none'"
            )
    if "'none'" in items and len(items) > 1:
        raise SystemExit("FLOOR_WIDGET_ANCESTORS: 'none' cannot be given with other origins")
    return " ".join(items) or "'none'"


def _push_subject(raw: str) -> str:
    if not raw.startswith(("mailto:", "https://")):
        raise SystemExit(f"FLOOR_PUSH_SUBJECT must start with mailto: or https://, not {raw!r}")
    return raw


N = TypeVar("N", int, float)


def _at_least(name: str, value: N, least: N) -> N:
    if value < least:
        raise SystemExit(f"{name} must be at least {least}, not {value}")
    return value


def _serves(raw: str) -> Serves:
    match raw.lower():
        case "everyone":
            return "everyone"
        case "public":
            return "public"
    raise SystemExit(f"FLOOR_SERVES must be everyone or public, not {raw!r}")


def _listed(raw: str) -> list[str]:
    return [item.strip() for item in raw.split(",") if item.strip()]


def _network(item: str) -> str:
    """A trusted proxy as a network (an address is its own /32 or /128)."""
    try:
        return str(ipaddress.ip_network(item, strict=False))
    except ValueError:
        raise SystemExit(
            f"FLOOR_TRUSTED_PROXIES: {item!r} is not an IP address or network "
            "(e.g. 127.0.0.1, 172.30.87.0/24, ::1)"
        ) from None


def _exempt(raw: str) -> tuple[str, ...]:
    if raw.lower() == "none":
        return ()
    try:
        return tuple(str(ipaddress.ip_network(item, strict=False)) for item in _listed(raw))
    except ValueError as e:
        raise SystemExit(f"FLOOR_LIMITS_EXEMPT: {e} (e.g. 127.0.0.1, 10.0.0.0/8, ::1)") from None


def _locale(raw: str) -> str:
    """A locale as BCP 47 writes one: a language, and a region where given (``cs-CZ``)."""
    match = _LOCALE.fullmatch(raw.replace("_", "-"))
    if match is None:
        raise SystemExit(
            f"FLOOR_LOCALE must be a language and a region such as cs-CZ, en-GB or de-DE, "
            f"not {raw!r}"
        )
    language, region = match.group(1).lower(), match.group(2)
    return f"{language}-{region.upper()}" if region else language


def _metrics_token(token: str) -> str:
    # Anyone who can reach the server may try tokens: a short one would soon be guessed.
    if token and len(token) < MIN_METRICS_TOKEN:
        raise SystemExit(
            f"FLOOR_METRICS_TOKEN must be at least {MIN_METRICS_TOKEN} characters, "
            f"not {len(token)} (e.g. the output of `openssl rand -hex 24`)"
        )
    return token


def _host_name(item: str) -> str:
    """An allowed host as ``Host`` carries it, without the port: lower case, no final dot."""
    name = item.lower().rstrip(".")
    if not _HOST_NAME.fullmatch(name):
        raise SystemExit(
            f"FLOOR_ALLOWED_HOSTS: {item!r} is not a host name "
            "(a name such as floor.local: no scheme, port or path)"
        )
    return name


def describe() -> str:
    """The environment variables, for ``floor serve --help``."""
    width = max(len(n) for n, _, _ in VARIABLES)
    lines = ["environment:"]
    for name, default, meaning in VARIABLES:
        shown = f" (default {default})" if default else ""
        lines.append(f"  {name:<{width}}  {meaning}{shown}")
    return "\n".join(lines)
