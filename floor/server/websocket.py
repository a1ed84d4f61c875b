"""The websocket protocol: a screen follows one tournament, and staff phones send commands.

On connecting to ``/ws/t/{id}[?since=N][&packed=1]`` a screen gets ``hello`` (its role and
the server time, to count the clock down locally), then a ``snapshot`` at a sequence number
(packed with ``packed=1``: see ``views``) and the batches after it, or, with ``since``, the
``events`` it missed, then every batch of ``events`` with the next numbers,
and a ``heartbeat`` every few seconds. A screen that sees a gap sends ``resync``; a phone
sends ``command`` and gets a ``result`` with the same id. Bad data closes the connection
with 1003 and the reason; a screen that falls behind is closed with 4008 and reconnects; a
staff screen whose session ends (signed out, a new password, the account removed) is closed
with 4001 at once, and so is a table screen the director ended or moved to another table.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Callable
from typing import Annotated, TypeVar

import msgspec
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..engine import commands
from ..engine.errors import FloorError
from ..protocol import PROTOCOL_VERSION
from ..store.errors import NotFound, StoreError
from ..store.ids import check_tournament_id
from ..store.outcome import ErrorInfo, Outcome, error_info
from .accounts import device_key
from .commands_service import run_command
from .context import Floor, floor_of
from .fanout import FrameWriter, frame
from .origins import origin_allowed
from .principal import Principal, SignedOut
from .redact import PUBLIC, view_of

log = logging.getLogger(__name__)

M = TypeVar("M")

#: Close codes: 1003 bad data, 1008 policy (origin), 1011 internal, 4004 no such tournament,
#: 4008 too slow (reconnect and resync).
BAD_DATA, POLICY, INTERNAL, NO_TOURNAMENT, TOO_SLOW = 1003, 1008, 1011, 4004, 4008
#: Close code: the session of the staff member behind the socket ended (signed out, a new
#: password, the account removed); reconnecting makes it a public screen.
SIGNED_OUT = 4001


class Resync(msgspec.Struct, frozen=True, tag="resync", tag_field="type"):
    """The screen saw a gap: send what came after ``since`` (or a snapshot). With
    ``snapshot`` its copy no longer folds (an event it does not know): send a snapshot."""

    #: A sequence number, never negative: -2 and below made the catch-up ask Redis for the
    #: stream id "-1-0", which failed, and the screen was closed with 1011 (internal error).
    since: Annotated[int, msgspec.Meta(ge=0)] | None = None
    snapshot: bool = False


class CommandMessage(
    msgspec.Struct, frozen=True, tag="command", tag_field="type", forbid_unknown_fields=True
):
    id: str
    command: commands.Command


class Ping(msgspec.Struct, frozen=True, tag="ping", tag_field="type"):
    pass


ClientMessage = Resync | CommandMessage | Ping


class Hello(msgspec.Struct, frozen=True, kw_only=True, tag="hello", tag_field="type"):
    tournament: str
    server_time: float
    #: Who the socket is for, as this tournament is shown to them: ``public`` also for a
    #: table screen (or a dealer on one) of another tournament.
    role: str
    #: ``floor.protocol.PROTOCOL_VERSION``: a screen of another version reloads itself.
    version: int
    username: str | None = None
    #: A table screen's table (and the dealer's on it).
    table: int | None = None
    #: A table screen's id.
    device: str | None = None
    #: Seconds between heartbeats: three missed ones mean the connection is dead.
    heartbeat: float = 10.0


class Result(msgspec.Struct, frozen=True, kw_only=True, tag="result", tag_field="type"):
    id: str
    outcome: Outcome


class Pong(msgspec.Struct, frozen=True, kw_only=True, tag="pong", tag_field="type"):
    server_time: float


class ErrorMessage(msgspec.Struct, frozen=True, kw_only=True, tag="error", tag_field="type"):
    error: ErrorInfo


ServerMessage = Hello | Result | Pong | ErrorMessage

_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(ClientMessage)

#: The most reason a close frame carries: 125 bytes of payload less the 2 of the code.
MAX_REASON = 123


def close_reason(text: str) -> str:
    """``text`` cut to fit a close frame, counted in bytes of UTF-8 on a character boundary.

    It was cut to 120 characters: a reason quoting a non-ASCII value ("bad message: Invalid
    value 'ééé...'") ran past 123 bytes, the close raised (suppressed in ``write``), and the
    screen saw the connection drop with no code at all (1006) instead of 1003 and the reason.
    """
    return text.encode()[:MAX_REASON].decode(errors="ignore")


class WsClient:
    """One screen, written to without waiting on it.

    Normally each frame is written straight to the connection's transport (``fanout``); a
    screen whose unsent bytes pile up past the limit is closed and resynchronises. Where
    the transport cannot be reached, messages go through a bounded queue and a writer task
    instead. Either way nobody waits on a slow screen.
    """

    #: A screen (see ``Subscriber.internal``).
    internal = False

    __slots__ = (
        "closing",
        "frames",
        "metrics",
        "pending",
        "principal",
        "queue",
        "seq",
        "tid",
        "writer",
        "ws",
    )

    def __init__(
        self,
        ws: WebSocket,
        tid: str,
        principal: Principal,
        size: int,
        frames: FrameWriter | None = None,
    ) -> None:
        self.ws = ws
        self.tid = tid
        self.principal = principal
        self.frames = frames
        self.metrics = floor_of(ws).metrics
        self.seq = 0
        self.pending: list[tuple[int, int, bytes]] | None = None
        self.queue: asyncio.Queue[bytes | tuple[int, str]] = asyncio.Queue(size)
        self.closing: tuple[int, str] | None = None
        self.writer: asyncio.Task[None] | None = None

    def push(self, data: bytes, framed: bytes | None = None) -> bool:
        """Send ``data`` (``framed``: the same, already a websocket frame) without waiting.

        ``data`` is already what this screen's role is shown: the hub builds each view of a
        message once, for all the screens of that view.
        """
        if self.closing is not None:
            return False
        if self.frames is not None:
            if self.frames.write(framed if framed is not None else frame(data)):
                return True
            if self.frames.open:
                self._too_slow()
            return False
        try:
            self.queue.put_nowait(data)
        except asyncio.QueueFull:
            self._too_slow()
            return False
        return True

    def _too_slow(self) -> None:
        self.metrics.queue_drops += 1
        self.drop(TOO_SLOW, "too slow: reconnect to resynchronise")

    def drop(self, code: int, reason: str) -> None:
        if self.closing is not None:
            return
        self.closing = (code, reason)
        # The close goes ahead of whatever is still queued: the screen resyncs anyway.
        while not self.queue.empty():
            self.queue.get_nowait()
        self.queue.put_nowait((code, reason))

    async def write(self) -> None:
        ws = self.ws
        while True:
            item = await self.queue.get()
            if isinstance(item, tuple):
                try:
                    # A screen too slow to read its frames may not read the close either.
                    await asyncio.wait_for(
                        ws.close(code=item[0], reason=close_reason(item[1])), 5.0
                    )
                except Exception:
                    if self.frames is not None:
                        self.frames.cut_off()
                return
            await ws.send_bytes(item)


async def refuse_origin(floor: Floor, ws: WebSocket) -> bool:
    """Close a socket from a foreign origin (True), as docs/protocol.md says: accepted, then
    closed with 1008 and the reason; a handshake refused with 403 reaches the page as a bare
    1006 it cannot tell from a network drop. Nothing is sent before the close."""
    if origin_allowed(
        ws.headers.get("origin"), ws.headers.get("host"), floor.settings.allowed_origins
    ):
        return False
    await ws.accept()
    await ws.close(code=POLICY, reason="this origin may not connect")
    return True


async def refuse(ws: WebSocket, e: FloorError) -> None:
    """Close a socket whose tournament (or player) is not there, or that cannot be served."""
    await ws.accept()
    code = (
        NO_TOURNAMENT
        if isinstance(e, NotFound)
        else INTERNAL
        if isinstance(e, StoreError)
        else POLICY
    )
    await ws.close(code=code, reason=close_reason(e.message))


async def opened(
    floor: Floor, ws: WebSocket, tid: str, principal: Principal, public: bool = False
) -> WsClient:
    """Accept the socket: its client, greeted with ``hello`` (as the public with
    ``public``), its writer running."""
    await ws.accept()
    # Unsent bytes a screen may fall behind by: about the queue's length in messages (plus
    # the largest message it was sent: see FrameWriter); one that takes none of it for
    # FLOOR_WRITE_TIMEOUT seconds is cut off, a public one (anybody) sooner, and it holds
    # little of the kernel's memory meanwhile.
    settings = floor.settings
    frames = FrameWriter.for_scope(
        ws.scope,
        settings.client_queue * 4096,
        settings.public_write_timeout if public else settings.write_timeout,
    )
    if frames is not None and public:
        frames.small_send_buffer()
    client = WsClient(ws, tid, principal, floor.settings.client_queue, frames)
    client.push(
        _encoder.encode(
            Hello(
                tournament=tid,
                server_time=time.time(),
                role="public" if public else principal.role,
                version=PROTOCOL_VERSION,
                username=None if public else principal.username,
                table=None if public else principal.table,
                device=None if public else principal.device,
                heartbeat=floor.settings.heartbeat,
            )
        )
    )
    client.writer = asyncio.create_task(client.write(), name=f"ws-writer-{tid}")
    return client


async def closed(client: WsClient) -> None:
    """Say bye (unless closed already) and let the writer finish."""
    if client.closing is None:
        client.drop(1000, "bye")
    with contextlib.suppress(Exception):
        if client.writer is not None:
            await asyncio.wait_for(client.writer, 2.0)
    if client.writer is not None and not client.writer.done():
        client.writer.cancel()


async def websocket_endpoint(ws: WebSocket) -> None:
    floor = floor_of(ws)
    try:
        tid = check_tournament_id(ws.path_params["tid"])
    except FloorError as e:
        await ws.close(code=POLICY, reason=close_reason(e.message))
        return
    if await refuse_origin(floor, ws):
        return
    since_raw = ws.query_params.get("since")
    # ASCII digits: "²".isdigit() is True but int("²") raises (the handshake was a 500).
    since = int(since_raw) if since_raw and since_raw.isascii() and since_raw.isdigit() else None
    # The screens of web/ read packed snapshots (views.PackedSnapshotOut), a third the size.
    packed = ws.query_params.get("packed") == "1"
    try:
        principal, _ = await floor.principal(ws)
        await floor.store.tournament(tid)
    except FloorError as e:
        await refuse(ws, e)
        return
    view = view_of(principal, tid)
    client = await opened(floor, ws, tid, principal, public=view == PUBLIC)
    unwatch = _watch_session(floor, client)
    seen = None
    if principal.device is not None:
        seen = asyncio.create_task(_note_seen(floor, principal.device), name="tablet-seen")
    try:
        # A public edge's screens read their snapshot over HTTP (see ``hub``).
        edge = floor.settings.serves == "public"
        await floor.hub.join(client, since, view, packed, fetch=edge)
        await _receive(ws, floor, client)
    except WebSocketDisconnect:
        pass
    except StoreError as e:
        client.drop(INTERNAL, e.message)
    finally:
        if seen is not None:
            seen.cancel()
        unwatch()
        floor.hub.leave(client)
        await closed(client)


async def messages(
    ws: WebSocket, client: WsClient, decoder: msgspec.json.Decoder[M], hint: str = ""
) -> AsyncIterator[M]:
    """What the client sends, decoded, until it leaves or is closed; bad data closes the
    socket with 1003 and the reason (``hint``: what this socket takes)."""
    while client.closing is None:
        message = await ws.receive()
        if message["type"] == "websocket.disconnect":
            return
        data = message.get("bytes") or (message.get("text") or "").encode()
        try:
            msg = decoder.decode(data)
        except msgspec.MsgspecError as e:
            client.drop(BAD_DATA, f"bad message{hint}: {e}")
            return
        except RecursionError:
            # JSON nested deeper than msgspec decodes (an unknown field of a ping holding
            # "[[[[...", which it skips recursively) raises RecursionError, not a MsgspecError:
            # it ended the handler with a traceback, and the screen was told 1000 "bye".
            client.drop(BAD_DATA, f"bad message{hint}: nested too deeply")
            return
        yield msg


async def _receive(ws: WebSocket, floor: Floor, client: WsClient) -> None:
    async for msg in messages(ws, client, _decoder):
        if isinstance(msg, Ping):
            client.push(_encoder.encode(Pong(server_time=time.time())))
        elif isinstance(msg, Resync):
            since = client.seq if msg.since is None else msg.since
            floor.hub.resync(client, None if msg.snapshot else since)
        else:
            client.push(await _command(floor, client, msg))


async def _command(floor: Floor, client: WsClient, msg: CommandMessage) -> bytes:
    try:
        principal = await _still_signed_in(floor, client)
        outcome = await run_command(floor, client.tid, principal, msg.command, msg.id)
    except FloorError as e:
        outcome = Outcome(ok=False, error=error_info(e))
    return _encoder.encode(Result(id=msg.id, outcome=outcome))


#: Seconds between two notes that a table screen's socket is still open.
SEEN_EVERY = 60.0


async def _note_seen(floor: Floor, device: str) -> None:
    """A table screen with its socket open is seen: the director's list says so."""
    devices = floor.accounts.devices
    while devices is not None:
        await asyncio.sleep(SEEN_EVERY)
        with contextlib.suppress(FloorError):
            await devices.seen(device, time.time())


#: Checks of sockets' sessions under way (held here: the loop keeps only weak references).
_checks: set[asyncio.Task[None]] = set()


def _watch_session(floor: Floor, client: WsClient) -> Callable[[], None]:
    """Close a staff socket (or a table screen's) as soon as its session ends (the screen
    is ended or moved), in whichever process it was ended: until then it is sent what only
    staff see. Returns the function that stops watching."""
    principal = client.principal
    keys = [k for k in (principal.username, principal.device) if k is not None]
    if principal.device is not None:
        keys[-1] = device_key(principal.device)
    if not keys:
        return lambda: None

    def check() -> None:
        task = asyncio.get_running_loop().create_task(_check_session(floor, client))
        _checks.add(task)
        task.add_done_callback(_checks.discard)

    unwatches = [floor.accounts.watch(key, check) for key in keys]
    # An end heard of after the handshake read the session, but before this watch began.
    check()

    def unwatch() -> None:
        for stop in unwatches:
            stop()

    return unwatch


async def _check_session(floor: Floor, client: WsClient) -> None:
    if client.closing is not None:
        return
    try:
        await _still_signed_in(floor, client)
    except SignedOut as e:
        client.drop(SIGNED_OUT, e.message)
    except FloorError:
        # The storage cannot say now: the next command asks again, and so does the next end
        # of a session heard of.
        pass


async def _still_signed_in(floor: Floor, client: WsClient) -> Principal:
    """The staff member behind this socket, as the sessions say now.

    A socket outlives the check at its handshake: an account removed, a password changed, a
    sign-out or an expired session must end its rights too. Such an end closes the socket at
    once (``_watch_session``); every command asks again as well, for a session that expired.
    """
    before = client.principal
    if before.username is None and before.device is None:
        return before
    now: Principal
    now, _ = await floor.principal(client.ws)
    if before.device is not None:
        # A table screen stays itself while dealers come and go; moved to another table
        # or ended, it is another reader, to be shown another view.
        if (now.device, now.tournament, now.table) != (
            before.device,
            before.tournament,
            before.table,
        ):
            raise SignedOut("this table screen was ended or moved: it starts again")
    elif now.username != before.username:
        raise SignedOut(f"the session of {before.username} has ended: sign in again")
    client.principal = now
    return now
