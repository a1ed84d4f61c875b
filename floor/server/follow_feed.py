"""The follow feed: a phone that follows one player is sent that player, the clock and the board.

``/ws/t/{id}/follow/{player}`` sends ``hello``, then one ``follow`` message with every part
(``engine.follow``: ``static``, ``room``, ``me``), then, after each batch, a ``follow`` message
with the parts that changed, and the hub's heartbeats. Nothing of the room's players is sent:
a 10,000-player room costs a follower a few kilobytes to join, not the packed room.

One ``Feed`` per tournament serves all its followers in this process: it follows the
tournament as one of the hub's own subscribers (the public view of each batch), folds the
board, and after a burst of batches builds the shared parts once and each followed player's
part once, however many phones follow them. ``GET /api/t/{id}/follow/{player}`` answers the
same whole message over HTTP.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Final, Protocol

import msgspec

from ..engine.model import PlayerId, TableNo
from ..engine.plan import Halt
from ..engine.read import follow
from ..engine.state import Tournament
from ..protocol import Sequenced
from ..store.service import Service
from .fanout import frame
from .hub import Hub

log = logging.getLogger(__name__)

#: A burst of batches (a bust-out, its moves, a call) goes out as one message, this soon.
COALESCE: Final = 0.02
#: A feed nobody follows any more stays this long (a phone's reconnect finds it warm).
GRACE: Final = 30.0

_encoder = msgspec.json.Encoder()


class _Events(msgspec.Struct, frozen=True):
    """A batch's events alone: the feed works its parts out from the state, not from the
    batch's plan, tables and facts."""

    events: list[Sequenced] = msgspec.field(default_factory=list)


_events = msgspec.json.Decoder(_Events)
_HEARTBEAT: Final = b'{"type":"heartbeat"'


class Sink(Protocol):
    """What a feed writes a follower's messages to (``websocket.WsClient``)."""

    def push(self, data: bytes, framed: bytes | None = None) -> bool: ...

    def drop(self, code: int, reason: str) -> None: ...


class _Follower:
    __slots__ = ("me", "player", "table")

    def __init__(self, player: PlayerId) -> None:
        self.player = player
        #: The ``me`` part last sent (None: nothing sent yet), and the table it holds.
        self.me: bytes | None = None
        self.table: TableNo | None = None

    def took(self, me: follow.FollowMe, data: bytes) -> None:
        self.me = data
        self.table = me.table.number if me.table is not None else None


def message(
    tid: str,
    seq: int,
    static: bytes | None = None,
    room: bytes | None = None,
    me: bytes | None = None,
) -> bytes:
    """A ``follow`` message with the parts given (each already JSON)."""
    out = [b'{"type":"follow","tournament":', _encoder.encode(tid), b',"seq":', str(seq).encode()]
    for name, part in ((b"static", static), (b"room", room), (b"me", me)):
        if part is not None:
            out += [b',"', name, b'":', part]
    out.append(b"}")
    return b"".join(out)


def whole(tid: str, t: Tournament, version: int, player: PlayerId) -> bytes:
    """Every part at ``version``, for one follower."""
    return message(
        tid,
        version,
        _encoder.encode(follow.static(t)),
        _encoder.encode(follow.room(t)),
        _encoder.encode(follow.me(t, player, t.plan.settled())),
    )


def board_message(tid: str, t: Tournament, version: int) -> bytes:
    """``{"tournament", "seq", "board"}``: the whole board (``board.LIMIT`` lines, newest
    first), for a tool that reads the board alone."""
    lines = t.state.board.lines
    return _encoder.encode(
        {"tournament": tid, "seq": version, "board": t.state.board.newest(len(lines))}
    )


class Feed:
    """One tournament's followers in this process (a hub subscriber of its own)."""

    #: Not a screen (``hub.Subscriber``): its followers are counted by the feeds.
    internal = True

    def __init__(self, tid: str, store: Service) -> None:
        self.tid = tid
        self.seq = 0
        self.pending: list[tuple[int, int, bytes]] | None = None
        self.store = store
        self.followers: dict[Sink, _Follower] = {}
        #: What the batches since the last message touched (``follow.touched``): only the
        #: followers of those players, or at those tables, are worked out again.
        self._players: set[PlayerId] = set()
        self._tables: set[TableNo] | None = set()
        self._halted: tuple[Halt, ...] = ()
        self._version = -1
        self._static: bytes | None = None
        self._room: bytes | None = None
        self._flush: asyncio.Task[None] | None = None

    # The hub's side ---------------------------------------------------------------------------

    def push(self, data: bytes, framed: bytes | None = None) -> bool:
        if data.startswith(_HEARTBEAT):
            framed = framed if framed is not None else frame(data)
            for sink in list(self.followers):
                sink.push(data, framed)
            return True
        try:
            batch = _events.decode(data)
        except msgspec.MsgspecError:
            return True  # a snapshot (not sent to the hub's own followers) or unknown
        events = [item.event for item in batch.events]
        players, tables = follow.touched(events)
        self._players |= players
        if tables is None or self._tables is None:
            self._tables = None
        else:
            self._tables |= tables
        self._soon()
        return True

    def drop(self, code: int, reason: str) -> None:
        for sink in list(self.followers):
            sink.drop(code, reason)

    # Followers --------------------------------------------------------------------------------

    async def add(self, sink: Sink, player: PlayerId) -> None:
        """Follow ``player`` for ``sink``: every part now, then what changes."""
        follower = self.followers[sink] = _Follower(player)
        await self.resend(sink, follower)

    async def resend(self, sink: Sink, follower: _Follower | None = None) -> None:
        follower = follower or self.followers.get(sink)
        if follower is None:
            return
        t, version = await self.store.tournament(self.tid)
        static, room = self._shared(t, version)
        me = follow.me(t, follower.player, t.plan.settled())
        follower.took(me, _encoder.encode(me))
        sink.push(message(self.tid, version, static, room, follower.me))

    def remove(self, sink: Sink) -> None:
        self.followers.pop(sink, None)

    def close(self) -> None:
        if self._flush is not None:
            self._flush.cancel()

    # Sending what changed ---------------------------------------------------------------------

    def _soon(self) -> None:
        if self._flush is None or self._flush.done():
            self._flush = asyncio.get_running_loop().create_task(self._send_changes())

    async def _send_changes(self) -> None:
        await asyncio.sleep(COALESCE)
        try:
            t, version = await self.store.tournament(self.tid)
            self._send(t, version)
        except Exception:
            # The followers get every part on their next resync or reconnect.
            log.exception("the follow feed could not send", extra={"tournament": self.tid})

    def _send(self, t: Tournament, version: int) -> None:
        if not self.followers:
            # Kept for a phone's return: nothing to build for nobody. The room's part scans
            # the field for its chip leaders, at every batch.
            self._players, self._tables = set(), set()
            return
        before = (self._static, self._room)
        static, room = self._shared(t, version)
        new_static = static if static != before[0] else None
        new_room = room if room != before[1] else None
        settled = t.plan.settled()
        players, tables = self._players, self._tables
        self._players, self._tables = set(), set()
        if tables is not None and settled.halted != self._halted:
            # A halt comes or goes with a bust-out at another table.
            tables |= {h.table for h in set(settled.halted) ^ set(self._halted)}
        self._halted = settled.halted
        mine: dict[PlayerId, tuple[follow.FollowMe, bytes]] = {}
        shared: tuple[bytes, bytes] | None = None
        for sink, follower in list(self.followers.items()):
            if follower.me is None:
                continue  # just joined: its whole message is on the way (``resend``)
            again = follower.player in players or tables is None or follower.table in tables
            if again:
                made = mine.get(follower.player)
                if made is None:
                    me = follow.me(t, follower.player, settled)
                    made = mine[follower.player] = (me, _encoder.encode(me))
                if made[1] != follower.me:
                    follower.took(*made)
                    sink.push(message(self.tid, version, new_static, new_room, made[1]))
                    continue
            if new_static is not None or new_room is not None:
                if shared is None:  # the same for every follower whose player did not change
                    data = message(self.tid, version, new_static, new_room)
                    shared = (data, frame(data))
                sink.push(*shared)

    def _shared(self, t: Tournament, version: int) -> tuple[bytes, bytes]:
        if version != self._version or self._static is None or self._room is None:
            self._static = _encoder.encode(follow.static(t))
            self._room = _encoder.encode(follow.room(t))
            self._version = version
        return self._static, self._room


class Feeds:
    """Every tournament's feed in this process, started on the first follower."""

    def __init__(self, store: Service, hub: Hub, grace: float = GRACE) -> None:
        self.store = store
        self.hub = hub
        self.grace = grace
        self._feeds: dict[str, Feed] = {}
        self._starting: dict[str, asyncio.Future[Feed]] = {}

    @property
    def followers(self) -> int:
        return sum(len(feed.followers) for feed in self._feeds.values())

    async def feed(self, tid: str) -> Feed:
        held = self._feeds.get(tid)
        if held is not None:
            return held
        starting = self._starting.get(tid)
        if starting is None:
            starting = self._starting[tid] = asyncio.ensure_future(self._start(tid))
            starting.add_done_callback(lambda _: self._starting.pop(tid, None))
        return await asyncio.shield(starting)

    async def _start(self, tid: str) -> Feed:
        feed = Feed(tid, self.store)
        await self.hub.join(feed, None, "public")
        self._feeds[tid] = feed
        # A feed started for a read (the board, a follow over HTTP) goes if nobody follows.
        asyncio.get_running_loop().call_later(self.grace, self._close_if_idle, tid)
        return feed

    def leave(self, tid: str, sink: Sink) -> None:
        feed = self._feeds.get(tid)
        if feed is None:
            return
        feed.remove(sink)
        if not feed.followers:
            asyncio.get_running_loop().call_later(self.grace, self._close_if_idle, tid)

    def _close_if_idle(self, tid: str) -> None:
        feed = self._feeds.get(tid)
        if feed is not None and not feed.followers:
            del self._feeds[tid]
            self.hub.leave(feed)
            feed.close()

    def stop(self) -> None:
        for feed in self._feeds.values():
            self.hub.leave(feed)
            feed.close()
        self._feeds.clear()
