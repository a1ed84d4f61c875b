"""The public edge's websockets, on ``websockets``' own server (``FLOOR_WS_PORT``).

A public edge (``FLOOR_SERVES=public``) runs this server beside uvicorn, in the same process
and event loop, sharing the hub: nginx sends the public ``/ws/`` here. Each handshake cost
about 1.4 ms of CPU in uvicorn, Starlette and the middleware against 0.5 ms in a bare
``websockets`` server (``bench/storm.py``), so a crowd of phones reconnecting after a wifi
blip now costs what the library costs.

The protocol is the screens' (``websocket``, ``routes_follow``; docs/protocol.md): ``hello``,
the batches, ``since``, ``resync``, ``ping``, heartbeats, and the follow feed at
``/ws/t/{id}/follow/{player}``. Two differences, both because every socket here is the
public's: a snapshot is never sent on the socket (``fetch_snapshot`` names the gzipped one over
HTTP instead: see ``hub``), and a command is answered with a refusal (the staff send theirs
to a staff process). The handshake checks what the HTTP side's middleware checks: the
``Host`` (400), the client's address as the trusted proxies tell it, that address's rate and
open sockets (closed with 1013, as before), the origin (closed with 1008 and the reason).

Each socket is written as the hub writes uvicorn's: the frame built once per batch and view,
written to every transport (``fanout.FrameWriter``), a small kernel send buffer, and cut off
when it takes nothing for ``FLOOR_PUBLIC_WRITE_TIMEOUT`` seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import http
import logging
import time
import weakref
from collections.abc import AsyncIterator
from typing import Final, TypeVar
from urllib.parse import parse_qs, unquote, urlsplit

import msgspec
from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response
from websockets.protocol import State

from ..engine.errors import FloorError
from ..protocol import PROTOCOL_VERSION
from ..store.errors import NotFound, StoreError
from ..store.ids import check_tournament_id
from ..store.outcome import ErrorInfo, Outcome
from .context import Floor
from .fanout import FrameWriter, frame
from .limits import TRY_AGAIN_LATER, Buckets, Counts, client_key, exempted, too_many
from .origins import host_allowed, origin_allowed
from .principal import PUBLIC
from .proxies import client_of, networks
from .routes_follow import player_of
from .security import allowed_hosts
from .websocket import (
    BAD_DATA,
    INTERNAL,
    NO_TOURNAMENT,
    POLICY,
    TOO_SLOW,
    ClientMessage,
    CommandMessage,
    Hello,
    Ping,
    Pong,
    Result,
    Resync,
    close_reason,
)

log = logging.getLogger(__name__)
_quiet = logging.getLogger("floor.server.public_ws.connections")
_quiet.setLevel(logging.WARNING)

#: Seconds a close may take before the connection is reset (a phone that stopped reading
#: reads no close frame either).
CLOSE_TIMEOUT: Final = 2.0

_encoder = msgspec.json.Encoder()
_room_decoder = msgspec.json.Decoder(ClientMessage)
_follow_decoder = msgspec.json.Decoder(Resync | Ping)
_NO_COMMANDS: Final = ErrorInfo(
    code="forbidden",
    message="the public edge takes no commands: staff send theirs signed in",
    reason="forbidden",
)


class EdgeClient:
    """One public screen on the edge: the hub's (and the follow feed's) subscriber."""

    internal = False

    __slots__ = ("_closer", "closing", "conn", "frames", "metrics", "pending", "seq", "tid")

    def __init__(self, conn: ServerConnection, tid: str, frames: FrameWriter, floor: Floor) -> None:
        self.conn = conn
        self.tid = tid
        self.frames = frames
        self.metrics = floor.metrics
        self.seq = 0
        self.pending: list[tuple[int, int, bytes]] | None = None
        self.closing: tuple[int, str] | None = None
        self._closer: asyncio.Task[None] | None = None

    def push(self, data: bytes, framed: bytes | None = None) -> bool:
        if self.closing is not None:
            return False
        if self.frames.write(framed if framed is not None else frame(data)):
            return True
        if self.frames.open:
            self.metrics.queue_drops += 1
            self.drop(TOO_SLOW, "too slow: reconnect to resynchronise")
        return False

    def drop(self, code: int, reason: str) -> None:
        if self.closing is not None:
            return
        self.closing = (code, reason)
        self._closer = asyncio.get_running_loop().create_task(self._close(code, reason))

    async def _close(self, code: int, reason: str) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.conn.close(code, close_reason(reason)), CLOSE_TIMEOUT)
        if self.conn.state is not State.CLOSED:
            self.frames.cut_off()


class PublicSockets:
    """The handshake checks and the handler of the edge's websockets server."""

    def __init__(self, floor: Floor) -> None:
        settings = floor.settings
        self.floor = floor
        self.trusted = networks(settings.trusted_proxies)
        self.hosts = allowed_hosts(settings.allowed_hosts, settings.host)
        self.exempt = networks(settings.limits_exempt)
        self.buckets = (
            Buckets(settings.rate_limit, settings.rate_burst) if settings.rate_limit > 0 else None
        )
        self.open = Counts(settings.max_connections)
        self.allowed_origins = settings.allowed_origins
        #: What each connection was found at its handshake (its address, or a refusal).
        self._found: weakref.WeakKeyDictionary[
            ServerConnection, tuple[str, tuple[int, str] | None]
        ] = weakref.WeakKeyDictionary()

    # The handshake -----------------------------------------------------------------------

    def process_request(self, conn: ServerConnection, request: Request) -> Response | None:
        headers = request.headers
        hosts = headers.get_all("Host")
        host = hosts[0] if len(hosts) == 1 else None
        if not host_allowed(host, self.hosts):
            return conn.respond(
                http.HTTPStatus.BAD_REQUEST,
                "this server does not answer to that host name: reach it by a name it is "
                "given (FLOOR_ALLOWED_HOSTS), localhost or its address\n",
            )
        path = urlsplit(request.path).path
        if _route(path) is None:
            return conn.respond(http.HTTPStatus.NOT_FOUND, "no such websocket here\n")
        try:
            peer = conn.remote_address[0] if conn.remote_address else None
        except AttributeError:
            # Gone before its handshake was read to the end (uvloop has no peer to tell).
            return conn.respond(http.HTTPStatus.BAD_REQUEST, "the connection is gone\n")
        told = client_of(peer, _raw(headers), self.trusted) if self.trusted else None
        client = told[0] if told is not None else (peer or "")
        refusal: tuple[int, str] | None = None
        if client and not exempted(client, self.exempt):
            key = client_key(client)
            wait = self.buckets.take(key) if self.buckets is not None else 0.0
            if self.open.full(key):
                refusal = (
                    TRY_AGAIN_LATER,
                    "too many connections from your address: try again later",
                )
            elif wait:
                refusal = (TRY_AGAIN_LATER, too_many(wait).message)
        origins = headers.get_all("Origin")
        if refusal is None and (
            len(origins) > 1
            or not origin_allowed(origins[0] if origins else None, host, self.allowed_origins)
        ):
            refusal = (POLICY, "this origin may not connect")
        self._found[conn] = (client, refusal)
        return None

    # The connection ----------------------------------------------------------------------

    async def handler(self, conn: ServerConnection) -> None:
        client, refusal = self._found.pop(conn, ("", None))
        if refusal is not None:
            await conn.close(*refusal)
            return
        key = client_key(client) if client and not exempted(client, self.exempt) else None
        if key is not None:
            self.open.enter(key)
        try:
            await self._serve(conn)
        finally:
            if key is not None:
                self.open.leave(key)

    async def _serve(self, conn: ServerConnection) -> None:
        floor = self.floor
        split = urlsplit(conn.request.path if conn.request is not None else "")
        route = _route(split.path)
        assert route is not None  # checked at the handshake
        try:
            tid = check_tournament_id(route[0])
            player = player_of(route[1]) if route[1] is not None else None
            t, _ = await floor.store.tournament(tid)
            if player is not None and player not in t.state.players:
                raise NotFound(f"there is no player {player} in {tid}", field="player")
        except FloorError as e:
            code = (
                NO_TOURNAMENT
                if isinstance(e, NotFound)
                else INTERNAL
                if isinstance(e, StoreError)
                else POLICY
            )
            await conn.close(code, close_reason(e.message))
            return
        settings = floor.settings
        frames = FrameWriter.for_connection(
            conn, settings.client_queue * 4096, settings.public_write_timeout
        )
        frames.small_send_buffer()
        screen = EdgeClient(conn, tid, frames, floor)
        screen.push(
            _encoder.encode(
                Hello(
                    tournament=tid,
                    server_time=time.time(),
                    role=PUBLIC.role,
                    version=PROTOCOL_VERSION,
                    heartbeat=settings.heartbeat,
                )
            )
        )
        try:
            if player is None:
                await self._room(conn, screen, split.query)
            else:
                await self._follow(conn, screen, player)
        except ConnectionClosed:
            pass
        except StoreError as e:
            screen.drop(INTERNAL, e.message)
        if screen._closer is not None:
            with contextlib.suppress(Exception):
                await screen._closer

    async def _room(self, conn: ServerConnection, screen: EdgeClient, query: str) -> None:
        hub = self.floor.hub
        since_raw = parse_qs(query).get("since", [""])[-1]
        since = int(since_raw) if since_raw.isascii() and since_raw.isdigit() else None
        packed = parse_qs(query).get("packed", [""])[-1] == "1"
        try:
            await hub.join(screen, since, "public", packed, fetch=True)
            async for msg in _messages(conn, screen, _room_decoder, ""):
                if isinstance(msg, Ping):
                    screen.push(_encoder.encode(Pong(server_time=time.time())))
                elif isinstance(msg, Resync):
                    since = screen.seq if msg.since is None else msg.since
                    hub.resync(screen, None if msg.snapshot else since)
                elif isinstance(msg, CommandMessage):
                    refused = Outcome(ok=False, error=_NO_COMMANDS)
                    screen.push(_encoder.encode(Result(id=msg.id, outcome=refused)))
        finally:
            hub.leave(screen)

    async def _follow(self, conn: ServerConnection, screen: EdgeClient, player: str) -> None:
        feeds = self.floor.follow
        feed = await feeds.feed(screen.tid)
        try:
            await feed.add(screen, player)
            hint = " (this socket takes ping and resync)"
            async for msg in _messages(conn, screen, _follow_decoder, hint):
                if isinstance(msg, Ping):
                    screen.push(_encoder.encode(Pong(server_time=time.time())))
                else:
                    await feed.resend(screen)
        finally:
            feeds.leave(screen.tid, screen)


M = TypeVar("M")


async def _messages(
    conn: ServerConnection,
    screen: EdgeClient,
    decoder: msgspec.json.Decoder[M],
    hint: str,
) -> AsyncIterator[M]:
    """What the screen sends, decoded, until it leaves or is closed; bad data closes the
    socket with 1003 and the reason."""
    async for data in conn:
        if screen.closing is not None:
            return
        raw = data.encode() if isinstance(data, str) else data
        try:
            yield decoder.decode(raw)
        except msgspec.MsgspecError as e:
            screen.drop(BAD_DATA, f"bad message{hint}: {e}")
            return
        except RecursionError:
            screen.drop(BAD_DATA, f"bad message{hint}: nested too deeply")
            return


def _route(path: str) -> tuple[str, str | None] | None:
    """(tournament id, followed player or None) of a websocket path, None for another."""
    parts = path.split("/")
    # "", "ws", "t", tid[, "follow", player]
    if len(parts) == 4 and parts[:3] == ["", "ws", "t"] and parts[3]:
        return unquote(parts[3]), None
    room = parts[:3] == ["", "ws", "t"] and bool(parts[3:4] and parts[3])
    if room and len(parts) == 6 and parts[4] == "follow" and parts[5]:
        return unquote(parts[3]), unquote(parts[5])
    return None


def _raw(headers: Headers) -> list[tuple[bytes, bytes]]:
    return [
        (k.lower().encode("latin-1"), v.encode("latin-1", "replace"))
        for k, v in headers.raw_items()
    ]


async def start(floor: Floor) -> Server:
    """The edge's websockets server, listening on ``FLOOR_HOST``:``FLOOR_WS_PORT``."""
    settings = floor.settings
    sockets = PublicSockets(floor)
    server = await serve(
        sockets.handler,
        settings.host,
        settings.public_ws_port,
        process_request=sockets.process_request,
        # The origin is checked in the handler: a refusal closes with 1008 and the reason,
        # which a page can read (an HTTP 403 reaches it as a bare 1006).
        origins=None,
        compression=None,
        server_header=None,
        # The library logs every connection at info: a crowd of phones would flood the log.
        logger=_quiet,
        max_size=settings.max_message,
        open_timeout=settings.request_timeout,
        ping_interval=20.0,
        ping_timeout=20.0,
        close_timeout=CLOSE_TIMEOUT,
        # `floor serve --workers N` on an edge: each worker listens, the kernel spreads them.
        reuse_port=True,
        # A crowd reconnecting at once: asyncio's default of 100 pending connections dropped
        # the rest's SYNs, and they came back 1, 3 and 7 s later (uvicorn's is 2048 too).
        backlog=2048,
    )
    log.info(
        "public websockets serving",
        extra={"host": settings.host, "port": settings.public_ws_port},
    )
    return server


async def stop(server: Server) -> None:
    server.close()
    await server.wait_closed()
