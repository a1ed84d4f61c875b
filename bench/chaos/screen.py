"""One screen for the chaos soak, joining as ``web/js/conn.js`` does, and recording what it
applied so that the controller can check it exactly against the event log.

It starts from the packed snapshot over HTTP (``GET /api/t/{id}/snapshot``, gzipped), then
follows ``/ws/t/{id}?packed=1&since=<its seq>``, reconnecting with ``since`` (with backoff,
moving on to the next server after three failures). It applies what it receives as
``docs/protocol.md`` tells a page to (events above its own sequence number, in order; a gap
makes it send ``resync``; a snapshot replaces everything). A screen signed in as staff (a
floorperson's phone: ``token``) is shown the staff view, any other the public one (the
wall, a player's phone): both are checked, each against the log as its view shows it.

* a *segment* starts at every snapshot: the snapshot's sequence number ``base`` and the
  digest of its state, unpacked and in a canonical form (``canonical``: keys sorted), then
  every event applied after it, up to ``end``, summed into ``chain`` = sum of
  sha256("<seq>:" + event JSON) mod 2**256. The event JSON is the bytes the server sent
  (for the staff, the bytes stored in the Redis stream; for the public, those bytes as the
  public is shown them); the controller recomputes ``chain`` for ``base+1..end`` with two
  prefix sums, and the state's digest by folding the log to ``base``.
* a *full* screen also folds the events into a ``Tournament`` (like ``tests/e2e/screens.py``);
  a staff one checks the plan sent with every batch against the plan of its own fold; at
  the end each reports digests of its state and plan.
* every screen keeps the last plan it was sent, compared at the end with the plan of the
  log's fold as its view is shown it.

Any snapshot older than what the screen already showed is recorded as a regression.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import random
import time
from collections import Counter
from pathlib import Path
from typing import Any, Literal

import httpx
import msgspec
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from floor.engine.events import Event, LevelChanged
from floor.engine.state import Tournament, TournamentState

MOD = 1 << 256

View = Literal["staff", "public"]


def event_term(seq: int, raw: bytes) -> int:
    """One event's share of a segment's chain: position and content both count."""
    return int.from_bytes(hashlib.sha256(b"%d:" % seq + raw).digest(), "big")


def digest(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()[:32]


_any = msgspec.json.Decoder()


def canonical(raw: bytes | Any) -> bytes:
    """JSON (or a value decoded from it) with every object's keys sorted: a state unpacked
    from a packed snapshot and the engine's own encoding of it compare equal."""
    value = _any.decode(raw) if isinstance(raw, bytes | bytearray | memoryview) else raw
    return msgspec.json.encode(value, order="sorted")


def unpack(state: Any, players: list[dict[str, Any]], defaults: dict[str, Any]) -> Any:
    """A packed snapshot's state whole (``unpack`` in ``web/js/conn.js``): each player the
    defaults with its own fields over them, keyed by id, and seated in its table's
    ``occupants``."""
    whole: dict[str, Any] = {}
    for packed in players:
        p = {**defaults, **packed}
        for key, value in defaults.items():
            if isinstance(value, dict | list) and key not in packed:
                p[key] = msgspec.json.decode(msgspec.json.encode(value))
        whole[p["id"]] = p
        if p.get("table") is not None and p.get("seat") is not None:
            state["tables"][str(p["table"])]["occupants"][str(p["seat"])] = p["id"]
    state["players"] = whole
    return state


def _null() -> msgspec.Raw:
    return msgspec.Raw(b"null")


class RawSeq(msgspec.Struct):
    seq: int
    event: msgspec.Raw


class HelloIn(msgspec.Struct, tag="hello", tag_field="type"):
    heartbeat: float = 10.0
    role: str = "public"


class SnapshotIn(msgspec.Struct, tag="snapshot", tag_field="type"):
    seq: int
    state: msgspec.Raw
    plan: msgspec.Raw = msgspec.field(default_factory=_null)
    packed: bool = False
    players: msgspec.Raw = msgspec.field(default_factory=_null)
    player_defaults: msgspec.Raw = msgspec.field(default_factory=_null)


class EventsIn(msgspec.Struct, tag="events", tag_field="type"):
    from_: int = msgspec.field(name="from")
    to: int = 0
    events: list[RawSeq] = msgspec.field(default_factory=list)
    plan: msgspec.Raw = msgspec.field(default_factory=_null)


class HeartbeatIn(msgspec.Struct, tag="heartbeat", tag_field="type"):
    pass


class OtherIn(msgspec.Struct, tag="error", tag_field="type"):
    error: Any = None


class PongIn(msgspec.Struct, tag="pong", tag_field="type"):
    pass


class ResultIn(msgspec.Struct, tag="result", tag_field="type"):
    pass


class FetchIn(msgspec.Struct, tag="fetch_snapshot", tag_field="type"):
    """A snapshot is due, to be read over HTTP (``hub.fetch_snapshot``), as conn.js does."""

    seq: int = 0


Message = HelloIn | SnapshotIn | EventsIn | HeartbeatIn | OtherIn | PongIn | ResultIn | FetchIn
_decoder = msgspec.json.Decoder(Message)
_event_decoder = msgspec.json.Decoder(Event)
_encoder = msgspec.json.Encoder()
_dumped: set[str] = set()
#: Canonical digests of the snapshots this process was sent, by the sha256 of their bytes:
#: the screens joining at one version all get the same bytes.
_state_digests: dict[bytes, tuple[str, bytes | None]] = {}


class HttpFailed(Exception):
    """The snapshot over HTTP could not be read (the server is down, or Redis is)."""


class Screen:
    """A screen; ``run()`` keeps it connected until cancelled."""

    def __init__(
        self,
        idx: int,
        servers: list[str],
        tid: str,
        home: int,
        *,
        full: bool = False,
        seed: int = 0,
        dump: Path | None = None,
        token: str | None = None,
        http: httpx.AsyncClient | None = None,
    ) -> None:
        self.idx = idx
        #: The servers' HTTP base URLs (``http://host:port``), in the order tried.
        self.servers = servers
        self.tid = tid
        self.home = home
        self.server = home
        self.full = full
        #: A staff session (a floorperson's phone); None: the public's screen.
        self.token = token
        self.view: View = "staff" if token else "public"
        self.http = http
        #: Where to keep every distinct snapshot state (named by its digest), for diagnosis.
        self.dump = dump
        self.rng = random.Random(f"{seed}:screen:{idx}")
        self.seq = -1  # nothing shown yet
        self.base: int | None = None
        self.base_digest = ""
        self.base_server = home
        self.chain = 0
        self.segments: list[list[Any]] = []
        self.t: Tournament | None = None
        #: The plan last sent (with a snapshot, or a batch ending at ``plan_seq``).
        self.plan_raw = b"null"
        self.plan_seq = -1
        self.heartbeat = 10.0
        self.ws: ClientConnection | None = None
        self.connected = False
        self.last_rx = 0.0
        self.changed = asyncio.Event()
        #: The server asked for the snapshot to be read over HTTP (``fetch_snapshot``).
        self._fetch_due = False
        # What happened, for the summary.
        self.counts: Counter[str] = Counter()
        self.closes: Counter[str] = Counter()
        #: "<code> <reason>" of the closes the server explained (1011, 4008...).
        self.close_reasons: Counter[str] = Counter()
        self.regressions: list[list[int]] = []
        self.errors: list[str] = []
        #: [where, seq, digest of the plan sent, server] of batches whose plan was not the
        #: plan of the fold at their last seq.
        self.plan_mismatches: list[list[Any]] = []
        #: [level, when it was due, when this (full) screen got it], epoch seconds.
        self.level_changes: list[list[Any]] = []

    # -- applying what arrives -------------------------------------------------------------

    def take(self, data: bytes) -> bytes | None:
        """Apply one message; returns a message to send back (a resync) if any."""
        self.last_rx = time.monotonic()
        try:
            msg = _decoder.decode(data)
        except msgspec.DecodeError as e:
            self.counts["unreadable"] += 1
            self._error(f"unreadable message: {e}: {bytes(data[:200])!r}")
            return None
        if isinstance(msg, EventsIn):
            return self._events(msg)
        if isinstance(msg, HeartbeatIn):
            self.counts["heartbeats"] += 1
        elif isinstance(msg, SnapshotIn):
            self._snapshot(msg)
        elif isinstance(msg, FetchIn):
            self.counts["fetch_snapshots"] += 1
            self._fetch_due = True
        elif isinstance(msg, HelloIn):
            self.heartbeat = msg.heartbeat
            self.counts["hellos"] += 1
            if (msg.role != "public") != (self.view == "staff"):
                self.counts["wrong_role"] += 1
                self._error(f"hello as {msg.role!r} on a {self.view} screen")
        elif isinstance(msg, OtherIn):
            self.counts["error_messages"] += 1
            self._error(f"error message: {msg.error}")
        else:
            self.counts["other_messages"] += 1
        return None

    def _state_of(self, msg: SnapshotIn) -> tuple[str, bytes | None]:
        """The canonical digest of a snapshot's state (and, for a screen that folds, the
        state as JSON the engine reads)."""
        key = hashlib.sha256(bytes(msg.state) + bytes(msg.players)).digest()
        known = _state_digests.get(key)
        if known is not None and (known[1] is not None or not self.full):
            return known
        state = _any.decode(msg.state)
        if msg.packed:
            state = unpack(state, _any.decode(msg.players), _any.decode(msg.player_defaults))
        text = canonical(state)
        whole = _encoder.encode(state) if self.full or self.dump is not None else None
        found = (digest(text), whole)
        if len(_state_digests) > 64:
            _state_digests.clear()
        _state_digests[key] = found
        return found

    def _snapshot(self, msg: SnapshotIn) -> None:
        self.counts["snapshots"] += 1
        if self.seq >= 0 and msg.seq < self.seq:
            self.counts["regressions"] += 1
            self.regressions.append([self.seq, msg.seq, self.server])
        if self.base is not None:
            self.segments.append(
                [self.base, self.base_digest, self.seq, self.chain, self.base_server]
            )
        state_digest, whole = self._state_of(msg)
        self.base = msg.seq
        self.base_server = self.server
        self.base_digest = state_digest
        if self.dump is not None and whole is not None and state_digest not in _dumped:
            _dumped.add(state_digest)
            path = self.dump / f"{self.view}-{state_digest}.json"
            if not path.exists():
                tmp = path.with_suffix(f".{os.getpid()}.tmp")
                tmp.write_bytes(whole)
                os.replace(tmp, path)
        self.chain = 0
        self.seq = msg.seq
        self.plan_raw, self.plan_seq = bytes(msg.plan), msg.seq
        if self.full:
            assert whole is not None
            state = msgspec.json.decode(whole, type=TournamentState, strict=False)
            self.t = Tournament(state)
            self._check_plan(msg.plan, f"snapshot {msg.seq}", msg.seq)
        self.changed.set()

    def _events(self, msg: EventsIn) -> bytes | None:
        self.counts["batches"] += 1
        if self.base is None:
            self._error(f"events {msg.from_}..{msg.to} before any snapshot")
            return None
        applied = 0
        for item in msg.events:
            if item.seq <= self.seq:
                self.counts["events_skipped"] += 1
                continue
            if item.seq != self.seq + 1:
                # Missed something: ask for it (the rest of this batch comes again).
                self.counts["gaps"] += 1
                self.counts["resyncs"] += 1
                return _encoder.encode({"type": "resync", "since": self.seq})
            self.chain = (self.chain + event_term(item.seq, item.event)) % MOD
            if self.t is not None:
                event = _event_decoder.decode(item.event)
                self.t.apply(event)
                if isinstance(event, LevelChanged):
                    self.level_changes.append([event.level, event.at, time.time()])
            self.seq = item.seq
            applied += 1
        self.counts["events"] += applied
        if applied:
            if msg.to == self.seq:
                self.plan_raw, self.plan_seq = bytes(msg.plan), msg.to
                if self.t is not None:
                    self._check_plan(msg.plan, f"events {msg.from_}..{msg.to}", msg.to)
            self.changed.set()
        return None

    def _check_plan(self, raw: msgspec.Raw, where: str, seq: int) -> None:
        """A staff screen's plan is its fold's; the public's is only what the floor called
        (``redact``), compared at the end with the log's (its fold has no drawn seats)."""
        assert self.t is not None
        if self.view != "staff":
            return
        mine = _encoder.encode(self.t.plan)
        if bytes(raw) != mine:
            self.counts["plan_mismatches"] += 1
            if len(self.plan_mismatches) < 5:
                self.plan_mismatches.append([where, seq, digest(raw), self.server])

    def _error(self, text: str) -> None:
        if len(self.errors) < 5:
            self.errors.append(text)

    # -- the connection --------------------------------------------------------------------

    def _headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"} if self.token else {}

    async def _fetch(self, base: str) -> None:
        """The packed snapshot over HTTP, gzipped, as a page starts."""
        client = self.http
        if client is None:
            client = self.http = httpx.AsyncClient(timeout=httpx.Timeout(15.0, connect=2.0))
        try:
            r = await client.get(
                f"{base}/api/t/{self.tid}/snapshot",
                headers={"Accept-Encoding": "gzip", **self._headers()},
            )
        except httpx.HTTPError as e:
            raise HttpFailed(type(e).__name__) from None
        if r.status_code != 200:
            raise HttpFailed(f"HTTP {r.status_code}")
        self.counts["http_snapshots"] += 1
        if r.headers.get("content-encoding") == "gzip":
            self.counts["http_snapshots_gzipped"] += 1
        self.take(r.content)

    async def run(self) -> None:
        """Connect, follow, reconnect with ``since`` (with backoff), until cancelled."""
        failures = 0
        while True:
            base = self.servers[self.server]
            progressed = False
            try:
                if self.seq < 0:
                    await self._fetch(base)
                    progressed = True
                url = f"{base.replace('http', 'ws', 1)}/ws/t/{self.tid}?packed=1"
                if self.seq >= 0:
                    url += f"&since={self.seq}"
                async with connect(
                    url,
                    additional_headers=self._headers(),
                    compression=None,
                    max_size=None,
                    ping_interval=None,
                    open_timeout=5,
                    close_timeout=1,
                ) as ws:
                    self.ws = ws
                    self.connected = True
                    self.last_rx = time.monotonic()
                    self.counts["connects"] += 1
                    if self.counts["connects"] > 1:
                        self.counts["reconnects"] += 1
                    if self.seq >= 0:
                        self.counts["connects_with_since"] += 1
                    start_counts = self.counts["snapshots"] + self.counts["batches"]
                    try:
                        async for data in ws:
                            reply = self.take(data)  # type: ignore[arg-type]
                            if reply is not None:
                                await ws.send(reply)
                            if self._fetch_due:
                                # As conn.js: the snapshot over HTTP, then what followed it.
                                self._fetch_due = False
                                await self._fetch(base)
                                resync = {"type": "resync", "since": self.seq}
                                await ws.send(_encoder.encode(resync))
                    finally:
                        progressed = progressed or (
                            self.counts["snapshots"] + self.counts["batches"] > start_counts
                        )
                    self._closed(ws.close_code, ws.close_reason)
            except ConnectionClosed as e:
                if e.rcvd is None:
                    self._closed(1006, None)
                else:
                    self._closed(e.rcvd.code, e.rcvd.reason)
            except HttpFailed as e:
                self.counts["failed_snapshot_reads"] += 1
                self.closes[f"snapshot read: {e}"] += 1
            except (OSError, TimeoutError, InvalidHandshake) as e:
                self.counts["failed_connects"] += 1
                self.closes[type(e).__name__] += 1
            finally:
                self.connected = False
                self.ws = None
            failures = 0 if progressed else failures + 1
            if failures and failures % 3 == 0 and len(self.servers) > 1:
                self.server = (self.server + 1) % len(self.servers)
                self.counts["server_switches"] += 1
            delay = min(2.0, 0.05 * 2 ** min(failures, 6)) * self.rng.uniform(0.5, 1.5)
            await asyncio.sleep(delay)

    def _closed(self, code: int | None, reason: str | None) -> None:
        self.closes[str(code)] += 1
        if code not in (None, 1000, 1001, 1006) and reason:
            self.close_reasons[f"{code} {reason}"] += 1

    def drop(self) -> bool:
        """Cut the connection as a wifi blip would (no close frame); ``run`` reconnects with
        ``since`` at once, as the other screens of a storm do. False if not connected."""
        ws = self.ws
        if ws is None or not self.connected:
            return False
        self.counts["storm_drops"] += 1
        ws.transport.abort()
        return True

    def check_silence(self, now: float) -> None:
        """Three heartbeats heard nothing: the connection is dead, drop it (and reconnect)."""
        ws = self.ws
        if ws is not None and self.connected and now - self.last_rx > 3.5 * self.heartbeat:
            self.counts["silences"] += 1
            self.last_rx = now
            ws.transport.abort()

    async def until(self, seq: int, within: float) -> bool:
        """Wait until this screen shows ``seq`` (or later); False on timeout."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + within
        while self.seq < seq:
            left = deadline - loop.time()
            if left <= 0:
                return False
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), left)
            except TimeoutError:
                return self.seq >= seq
        return True

    # -- the report ------------------------------------------------------------------------

    def report(self) -> dict[str, Any]:
        segments = [[b, d, e, f"{c:064x}", s] for b, d, e, c, s in self.segments]
        if self.base is not None:
            segments.append(
                [self.base, self.base_digest, self.seq, f"{self.chain:064x}", self.base_server]
            )
        full = None
        if self.t is not None:
            full = {
                "state": digest(canonical(_encoder.encode(self.t.state))),
                "plan": digest(_encoder.encode(self.t.plan)),
            }
        return {
            "i": self.idx,
            "view": self.view,
            "seq": self.seq,
            "connected": self.connected,
            "server": self.server,
            "home": self.home,
            "segments": segments,
            "plan": [self.plan_seq, digest(canonical(self.plan_raw))],
            "counts": dict(self.counts),
            "closes": dict(self.closes),
            "close_reasons": dict(self.close_reasons),
            "regressions": self.regressions,
            "errors": self.errors,
            "plan_mismatches": self.plan_mismatches,
            "level_changes": self.level_changes,
            "full": full,
        }


async def watchdog(screens: list[Screen], every: float = 0.5) -> None:
    while True:
        await asyncio.sleep(every)
        now = time.monotonic()
        for s in screens:
            s.check_silence(now)
