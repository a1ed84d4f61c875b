"""``floor serve``: the embedded Valkey (unless REDIS_URL is set) and uvicorn workers."""

from __future__ import annotations

import logging
import os
import signal
from pathlib import Path

from .redisdb.embedded import EmbeddedServer, running_url, server_for
from .server.logs import configure
from .server.settings import from_env

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


def serve(host: str | None, port: int | None, workers: int) -> int:
    import uvicorn

    settings = from_env()
    configure(settings.log_level)
    url, server = server_for(os.environ) if not settings.redis_url else (settings.redis_url, None)
    if server is not None:
        log.info(
            "started the embedded Valkey",
            extra={"data_dir": str(server.data_dir), "appendfsync": server.appendfsync},
        )
    # Workers are separate processes: they find Redis through the environment.
    os.environ["REDIS_URL"] = url
    # uvicorn turns SIGTERM into a graceful shutdown; make sure ours stops Valkey after it.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        uvicorn.run(
            "floor.server.wiring:create_app",
            factory=True,
            host=host or settings.host,
            port=port or settings.port,
            workers=workers,
            loop="uvloop",
            http="httptools",
            ws="websockets-sansio",
            ws_per_message_deflate=False,
            ws_ping_interval=20.0,
            ws_ping_timeout=20.0,
            log_config=None,
            proxy_headers=True,
            timeout_graceful_shutdown=5,
        )
    except KeyboardInterrupt:
        pass
    finally:
        if server is not None:
            server.stop()
    return 0
