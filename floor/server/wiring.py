"""The composition root: the one server module that picks the storage (Redis or Valkey),
builds this process's parts on it, and assembles the application from the routes.

``create_app()`` is what uvicorn runs (``floor serve``, each worker calls it); the lifespan
builds the ``Floor`` and closes it.
"""

from __future__ import annotations

import gc
import logging
import os
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any

import msgspec
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import HTTPConnection
from starlette.responses import Response
from starlette.routing import BaseRoute, WebSocketRoute

from .. import signing
from ..engine.errors import FloorError
from ..redisdb.accounts import RedisAccounts
from ..redisdb.bus import RedisBus
from ..redisdb.connection import connect, reads_client
from ..redisdb.desk import RedisDesk
from ..redisdb.devices import RedisDevices
from ..redisdb.exclusion import RedisExclusionList
from ..redisdb.forecasts import RedisForecasts
from ..redisdb.house_log import RedisHouseLog
from ..redisdb.lease import RedisLease
from ..redisdb.log import RedisLog
from ..redisdb.pipe import ScriptPipe
from ..redisdb.push import RedisPush
from ..redisdb.seat_pass import RedisSeatPasses
from ..redisdb.seeds import RedisSeeds
from ..redisdb.signouts import RedisSignOuts
from ..redisdb.supervisor import STATE_ENV, read_state
from ..redisdb.walls import RedisWalls
from ..store.house import House
from ..store.service import Service
from . import (
    public_edge,
    public_ws,
    routes_alternates,
    routes_app,
    routes_commands,
    routes_dealers,
    routes_desk,
    routes_files,
    routes_flights,
    routes_follow,
    routes_forecast,
    routes_health,
    routes_open,
    routes_pages,
    routes_pairing,
    routes_preview,
    routes_push,
    routes_seat_pass,
    routes_staff,
    routes_tickets,
    routes_tournaments,
    routes_walls,
    tools,
)
from .accounts import Accounts
from .clock_thread import ClockThread
from .clockdriver import ClockDriver
from .context import Floor
from .dealer_driver import RoomDriver
from .desk import Desk
from .edges import for_error
from .fanout import ExposeProtocol
from .forecast_pool import WorkerPool, workers_for
from .forecasts import Forecasts
from .hub import Hub
from .limits import Limits
from .logs import configure as configure_logs
from .metrics import Metrics
from .proxies import ClientAddress
from .public_edge import PublicOnly
from .push import Push
from .seat_pass import SeatPasses
from .security import Security, allowed_hosts
from .settings import Settings, from_env
from .tablets import Tablets
from .websocket import websocket_endpoint

log = logging.getLogger("floor.server")

#: The collector's thresholds (CPython's are 700, 10, 10): see the lifespan.
GC_THRESHOLDS = (10_000, 10, 10)


def build_floor(settings: Settings) -> Floor:
    """This process's parts, on the Redis or Valkey at ``settings.redis_url``."""
    try:
        signer, signing_keys = signing.configured(
            settings.signing_key, settings.signing_keys, settings.data_dir
        )
    except signing.SigningError as e:
        raise SystemExit(str(e)) from None
    redis = connect(settings.redis_url)
    # Public screens' catch-ups read on a pool of their own: a crowd of them never takes
    # the connections the staff's commands need (floor.server.gate).
    reads = reads_client(settings.redis_url)
    metrics = Metrics()
    bus = RedisBus(redis)
    log = RedisLog(redis)
    store = Service(log, bus=bus, seeds=RedisSeeds(redis))
    house = House(RedisHouseLog(log))
    hub = Hub(store, bus, metrics, heartbeat=settings.heartbeat, public_log=RedisLog(reads))

    # The desk's two calls a take, where the URL allows a connection of their own.
    pipe = ScriptPipe.for_url(settings.redis_url)

    async def close() -> None:
        await reads.aclose()
        await redis.aclose()
        if pipe is not None:
            await pipe.aclose()

    devices = RedisDevices(redis)
    # The exclusion register: the venue's imported list (a live register plugs in here).
    listed = RedisExclusionList(redis)
    accounts = Accounts(RedisAccounts(redis), signouts=RedisSignOuts(redis), devices=devices)
    desk = Desk(RedisDesk(redis, listed, pipe), listed, listed)
    # A public edge plays no forecast: it reads the wall's line.
    forecasts = Forecasts(
        store,
        RedisForecasts(redis),
        hub,
        WorkerPool(workers_for(settings.forecast_workers))
        if settings.serves == "everyone"
        else None,
    )
    return Floor(
        settings=settings,
        metrics=metrics,
        store=store,
        house=house,
        hub=hub,
        accounts=accounts,
        tablets=Tablets(accounts, devices, ttl=settings.tablet_ttl),
        # The driver tells the forecaster of each level change it writes.
        clock=ClockThread(lambda: _clock_driver(settings.redis_url, forecasts.level_changed)),
        forecasts=forecasts,
        push=Push(settings, RedisPush(redis), store),
        desk=desk,
        walls=RedisWalls(redis),
        seat_passes=SeatPasses(RedisSeatPasses(redis), desk),
        ping=redis.ping,
        close=close,
        signer=signer,
        signing_keys=signing_keys,
    )


def _clock_driver(
    url: str, on_level: Callable[[str], None]
) -> tuple[ClockDriver, Callable[[], Awaitable[None]]]:
    """The clock driver's parts, made on its own thread's loop (``clock_thread``): its own
    connections, and its own copies of the tournaments kept current from the bus."""
    redis = connect(url)
    bus = RedisBus(redis)
    log = RedisLog(redis)
    house = House(RedisHouseLog(log))
    store = Service(log, bus=bus, seeds=RedisSeeds(redis))
    # The dealer room's pushes are written by the lease's holder too, from the same copies
    # of the tournaments (``dealer_driver``).
    room = RoomDriver(store, house)
    driver = ClockDriver(
        store, RedisLease(redis), bus=bus, house=house, room=room, on_level=on_level
    )

    async def close() -> None:
        await bus.close()
        await redis.aclose()

    return driver, close


def routes() -> list[BaseRoute]:
    return [
        *routes_health.routes,
        *public_edge.routes,
        *routes_staff.routes,
        *routes_pairing.routes,
        *routes_dealers.routes,
        *routes_desk.routes,
        *routes_seat_pass.routes,
        *routes_tournaments.routes,
        *routes_commands.routes,
        *routes_preview.routes,
        *routes_files.routes,
        *routes_flights.routes,
        *routes_tickets.routes,
        *routes_follow.routes,
        *routes_forecast.routes,
        *routes_push.routes,
        *routes_alternates.routes,
        *routes_walls.routes,
        *routes_app.routes,
        WebSocketRoute("/ws/t/{tid}", websocket_endpoint),
        *tools.routes,
        *routes_open.routes,
        # Last: the static files are mounted under a prefix that matches anything below it.
        *routes_pages.routes,
    ]


def create_app(settings: Settings | None = None) -> Starlette:
    settings = settings or from_env()
    if not settings.redis_url:
        raise SystemExit("REDIS_URL is not set: run `floor serve`, which starts Valkey itself")
    # Each worker of `floor serve --workers N` is a fresh process that builds its app here:
    # without this its logs (commands, errors) would go nowhere.
    configure_logs(settings.log_level)
    # Starlette types a handler as taking any Exception; each of these takes its own kind.
    handlers: dict[Any, Any] = {FloorError: _floor_error, HTTPException: routes_pages.router_error}
    return Starlette(
        routes=routes(),
        lifespan=_lifespan(settings),
        middleware=[
            # Outermost, so that it sees uvicorn's own send: the fan-out writes frames through it.
            Middleware(ExposeProtocol),
            Middleware(ClientAddress, trusted=settings.trusted_proxies),
            Middleware(
                Security,
                hosts=allowed_hosts(settings.allowed_hosts, settings.host),
                widget_ancestors=settings.widget_ancestors,
            ),
            # Each client address's requests and websockets, by the address told above.
            Middleware(
                Limits,
                rate=settings.rate_limit,
                burst=settings.rate_burst,
                connections=settings.max_connections,
                exempt=settings.limits_exempt,
            ),
            # A public edge serves the public only, as the public (``public_edge``).
            *(
                [Middleware(PublicOnly, metrics_token=settings.metrics_token)]
                if settings.serves == "public"
                else []
            ),
        ],
        exception_handlers=handlers,
    )


def _lifespan(settings: Settings) -> Callable[[Starlette], AbstractAsyncContextManager[None]]:
    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        floor = build_floor(settings)
        app.state.floor = floor
        app.state.valkey_state = _valkey_state()
        try:
            await floor.ping()
        except Exception as e:
            log.warning("Redis is not reachable yet", extra={"error": str(e)})
        await floor.start()
        # Everything loaded so far lives as long as the process: keep the collector off it,
        # or a full collection stalls a fan-out to thousands of screens (bench/wsload).
        gc.freeze()
        # A storm of screens leaves hundreds of thousands of objects for the collector (each
        # connection's protocol objects live on for its ping timer): with the default
        # thresholds a full collection ran every 250 connections or so and stopped the loop
        # for 300 ms each time, staff commands included. Collected less often, 1,000 screens
        # connect in 1.05 s instead of 1.4-1.9 s, on 30% less CPU (bench/storm.py).
        gc.set_threshold(*GC_THRESHOLDS)
        log.info("floor serving", extra={"redis": _without_password(settings.redis_url)})
        # A public edge's websockets: websockets' own server, beside uvicorn (``public_ws``).
        sockets = await public_ws.start(floor) if settings.serves == "public" else None
        try:
            yield
        finally:
            if sockets is not None:
                await public_ws.stop(sockets)
            await floor.stop()

    return lifespan


def _valkey_state() -> routes_health.ValkeyState | None:
    """What the watcher of the embedded Valkey last wrote, when ``floor serve`` (or
    ``floor demo``) runs one: ``/healthz`` tells a Valkey being restarted from one down."""
    path = os.environ.get(STATE_ENV, "").strip()
    if not path:
        return None

    def read() -> dict[str, object] | None:
        state = read_state(Path(path))
        return None if state is None else msgspec.structs.asdict(state)

    return read


async def _floor_error(conn: HTTPConnection, exc: FloorError) -> Response:
    """A domain error no route answered itself (``Unavailable`` on the way in, say): its code
    and status like any other. A websocket answers its own (see ``websocket``)."""
    if conn.scope["type"] != "http":
        raise exc
    return for_error(exc)


def _without_password(url: str) -> str:
    scheme, sep, rest = url.partition("://")
    if "@" in rest:
        rest = "***@" + rest.split("@", 1)[1]
    return scheme + sep + rest
