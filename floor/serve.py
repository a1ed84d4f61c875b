"""``floor serve``: the embedded Valkey (unless REDIS_URL is set) and uvicorn workers."""

from __future__ import annotations

import logging
import os
import signal
from pathlib import Path
from typing import Any

from .redisdb.embedded import EmbeddedServer, running_url, server_for
from .redisdb.supervisor import EXIT_VALKEY_DOWN, STATE_ENV, Supervisor
from .server.logs import configure
from .server.settings import Settings, from_env

log = logging.getLogger("floor")


def redis_for_tools() -> tuple[str, EmbeddedServer | None]:
    """Redis for a command-line tool: REDIS_URL, the running embedded server, or a new one."""
    settings = from_env()
    if settings.redis_url:
        return settings.redis_url, None
    url = running_url(Path(settings.data_dir))
    if url is not None:
        return url, None
    return server_for(os.environ)


def watch(server: EmbeddedServer | None, settings: Settings) -> Supervisor | None:
    """Keep the embedded Valkey (if floor started one) up; see floor.redisdb.supervisor.

    When it cannot be kept up this process is sent SIGTERM: it shuts down as on any
    SIGTERM, and the caller returns ``exit_status(supervisor)`` for its supervisor to see.
    SIGTERM must raise KeyboardInterrupt by then (``signal.default_int_handler``).
    """
    if server is None:
        # A file named by the environment floor was started with is not this server's.
        os.environ.pop(STATE_ENV, None)
        return None
    log.info(
        "started the embedded Valkey",
        extra={"data_dir": str(server.data_dir), "appendfsync": server.appendfsync},
    )
    supervisor = Supervisor(
        server,
        on_give_up=lambda: os.kill(os.getpid(), signal.SIGTERM),
        max_failures=settings.valkey_restarts,
        window=settings.valkey_restart_window,
    )
    supervisor.start()
    # Workers are separate processes: their /healthz reads what the watcher writes there.
    os.environ[STATE_ENV] = str(supervisor.state_path)
    return supervisor


def exit_status(supervisor: Supervisor | None) -> int:
    return EXIT_VALKEY_DOWN if supervisor is not None and supervisor.gave_up else 0


def server_options(settings: Settings) -> dict[str, Any]:
    """uvicorn's options for every way floor faces clients (``floor serve``, ``floor demo``):
    the same limits on what a stranger can send, whichever command started the server."""
    return {
        # uvicorn's httptools protocol with limits on a request's head and on the
        # connections an address holds (floor.server.guard).
        "http": "floor.server.guard:GuardedHttpTools",
        "ws": "websockets-sansio",
        # A bigger message from a client is refused with 1009: none needs more (a
        # command is a few hundred bytes), and each was held whole (16 MiB by default).
        "ws_max_size": settings.max_message,
        "ws_per_message_deflate": False,
        "ws_ping_interval": 20.0,
        "ws_ping_timeout": 20.0,
        "log_config": None,
        # The client's address comes from the proxies in FLOOR_TRUSTED_PROXIES only
        # (floor.server.proxies), never from uvicorn's own list of trusted proxies.
        "proxy_headers": False,
    }


def serve(host: str | None, port: int | None, workers: int) -> int:
    import uvicorn

    settings = from_env()
    configure(settings.log_level)
    url, server = server_for(os.environ) if not settings.redis_url else (settings.redis_url, None)
    # Workers are separate processes: they find Redis (and the host names they answer to,
    # which include the one they listen on) through the environment.
    os.environ["REDIS_URL"] = url
    if host:
        os.environ["FLOOR_HOST"] = host
    if port:
        # A public edge serves its websockets beside this port (FLOOR_WS_PORT).
        os.environ["FLOOR_PORT"] = str(port)
    # uvicorn turns SIGTERM into a graceful shutdown; make sure ours stops Valkey after it.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    supervisor = watch(server, settings)
    where = f"http://{host or settings.host}:{port or settings.port}"
    log.info(f"floor serving on {where}", extra={"workers": workers, "serves": settings.serves})
    try:
        uvicorn.run(
            "floor.server.wiring:create_app",
            factory=True,
            host=host or settings.host,
            port=port or settings.port,
            workers=workers,
            loop="uvloop",
            **server_options(settings),
            timeout_graceful_shutdown=5,
        )
    except KeyboardInterrupt:
        pass
    finally:
        if supervisor is not None:
            supervisor.close()
    return exit_status(supervisor)
