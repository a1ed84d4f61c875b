"""Server settings, all from the environment (listed by ``floor serve --help``).

One place that names every variable, its default and what it is for, so the README, the
deployment files and ``--help`` cannot drift apart.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

import msgspec

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
        "FLOOR_CONFIG_DIR",
        "",
        "folder of rule sets, structures and tournament configs; "
        "unset: the config/ folder shipped with floor",
    ),
    (
        "FORWARDED_ALLOW_IPS",
        "127.0.0.1",
        "proxies trusted for X-Forwarded-For/-Proto "
        "(read by uvicorn; '*' inside a container network)",
    ),
)


class Settings(msgspec.Struct, frozen=True, kw_only=True):
    redis_url: str = ""
    data_dir: str = "var"
    appendfsync: str = "always"
    host: str = "127.0.0.1"
    port: int = 8000
    allowed_origins: tuple[str, ...] = ()
    secure_cookies: bool = False
    log_level: str = "info"
    client_queue: int = 512
    heartbeat: float = 10.0
    max_body: int = 65536


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
    )


def describe() -> str:
    """The environment variables, for ``floor serve --help``."""
    width = max(len(n) for n, _, _ in VARIABLES)
    lines = ["environment:"]
    for name, default, meaning in VARIABLES:
        shown = f" (default {default})" if default else ""
        lines.append(f"  {name:<{width}}  {meaning}{shown}")
    return "\n".join(lines)
