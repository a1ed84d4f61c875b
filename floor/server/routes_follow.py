"""Following one player: ``GET /api/t/{id}/follow/{player}`` and ``/ws/t/{id}/follow/{player}``;
the board of seat changes: ``GET /api/t/{id}/board``.

Public, like the player screen: anyone may follow anyone, and is shown what the room is
shown (``engine.follow``). The websocket speaks the screens' protocol (``hello``, heartbeats,
``ping``/``pong``; ``resync`` sends every part again) with ``follow`` messages in place of
snapshots and batches; it takes no commands.
"""

from __future__ import annotations

import time

import msgspec
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..engine.errors import BadValue, FloorError
from ..engine.names import check_player_id
from ..store.errors import NotFound, StoreError
from ..store.ids import check_tournament_id
from .context import floor_of, tid_of
from .edges import handle_errors
from .follow_feed import board_message, whole
from .principal import PUBLIC
from .websocket import (
    INTERNAL,
    POLICY,
    Ping,
    Pong,
    Resync,
    close_reason,
    closed,
    messages,
    opened,
    refuse,
    refuse_origin,
)

_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(Resync | Ping)
#: A player id is a few characters (a card number, a name's initials and a number).
MAX_PLAYER_ID = 64


def player_of(raw: str) -> str:
    if len(raw) > MAX_PLAYER_ID:
        raise BadValue(f"a player id has at most {MAX_PLAYER_ID} characters", field="player")
    return check_player_id(raw)


@handle_errors
async def get_follow(request: Request) -> Response:
    """Every part of the follow message, as the websocket's first message holds them."""
    floor = floor_of(request)
    tid = tid_of(request)
    player = player_of(request.path_params["player"])
    # Asked first: an id that does not exist leaves nothing behind (no feed, no follow).
    t, _ = await floor.store.tournament(tid)
    if player not in t.state.players:
        raise NotFound(f"there is no player {player} in {tid}", field="player")
    t, version = await floor.store.tournament(tid)
    return Response(
        whole(tid, t, version, player),
        media_type="application/json",
        headers={"Cache-Control": "no-store"},
    )


@handle_errors
async def get_board(request: Request) -> Response:
    """The board of seat changes, newest first, for a screen that joins mid-day."""
    tid = tid_of(request)
    t, version = await floor_of(request).store.tournament(tid)
    return Response(
        board_message(tid, t, version),
        media_type="application/json",
        headers={"Cache-Control": "no-store"},
    )


async def follow_endpoint(ws: WebSocket) -> None:
    floor = floor_of(ws)
    try:
        tid = check_tournament_id(ws.path_params["tid"])
        player = player_of(ws.path_params["player"])
    except FloorError as e:
        await ws.close(code=POLICY, reason=close_reason(e.message))
        return
    if await refuse_origin(floor, ws):
        return
    try:
        t, _ = await floor.store.tournament(tid)
        if player not in t.state.players:
            raise NotFound(f"there is no player {player} in {tid}", field="player")
        feed = await floor.follow.feed(tid)
    except FloorError as e:
        await refuse(ws, e)
        return
    client = await opened(floor, ws, tid, PUBLIC)
    try:
        await feed.add(client, player)
        hint = " (this socket takes ping and resync)"
        async for msg in messages(ws, client, _decoder, hint):
            if isinstance(msg, Ping):
                client.push(_encoder.encode(Pong(server_time=time.time())))
            else:
                await feed.resend(client)
    except WebSocketDisconnect:
        pass
    except StoreError as e:
        client.drop(INTERNAL, e.message)
    finally:
        floor.follow.leave(tid, client)
        await closed(client)


routes: list[BaseRoute] = [
    Route("/api/t/{tid}/follow/{player}", get_follow, methods=["GET", "HEAD"]),
    Route("/api/t/{tid}/board", get_board, methods=["GET", "HEAD"]),
    WebSocketRoute("/ws/t/{tid}/follow/{player}", follow_endpoint),
]
