"""Lean public screens for ``bench/storm.py``: what ``web/js/conn.js`` does on the wire, many
at once, over raw sockets in a few worker processes (as ``bench/wsload/receivers.py``).

A screen's connect: ``GET <snapshot path>`` with ``Accept-Encoding: gzip`` (the body is
counted, not unpacked: its number comes in the ``Floor-Seq`` header), then the websocket
``<ws path>?packed=1&since=<that number>``, which sends ``hello`` and the batches that bring
it to the current version. A reconnect: the websocket again from the last number held, no
HTTP. A screen closed by the server reconnects after half a second, as a page does.

Each connection has a loopback address of its own (127.1.x.y), as phones on a venue's wifi
have: a limit per address must not see the whole crowd as one client.

Per connection and round the workers keep, in ``time.monotonic_ns()`` (system-wide, so it
compares with the controller's clocks): when it started, when its HTTP answer was read,
when ``hello`` came, the bytes read (HTTP, websocket), and the first ``FRAMES_KEPT`` event
frames after ``hello`` as (from, to, time, websocket bytes so far): from those the
controller tells the catch-up (the frames up to the version current at ``hello``) from the
live batches that follow.

A follower (``follow``: the player each screen follows, by index) is a phone on the follow
feed instead: no HTTP, the websocket ``<ws path>/follow/<player>`` (no query: the feed sends
every part on each connect), live when it holds its first ``follow`` message with all three
parts (``static``, ``room``, ``me``); its handshake is under way until then. That message is
kept (``whole``), so that the baseline can send each receiver the very bytes floor sent.
"""

from __future__ import annotations

import base64
import contextlib
import gc
import hashlib
import multiprocessing as mp
import os
import re
import select
import socket
import struct
import time
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from typing import Any

import msgspec

GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
FRAMES_KEPT = 64
RETRY_DELAY = 0.5
MAX_ATTEMPTS = 8
_LINGER_RST = struct.pack("ii", 1, 0)
_EVENTS = re.compile(rb'"from":(\d+),"to":(\d+)')
_SNAPSHOT_SEQ = re.compile(rb'"seq":(\d+)')
_FLOOR_SEQ = re.compile(rb"(?im)^floor-seq:\s*(\d+)")
_LENGTH = re.compile(rb"(?im)^content-length:\s*(\d+)")
_FOLLOW = b'{"type":"follow"'
_PARTS = {"static", "room", "me"}
_follow_keys = msgspec.json.Decoder(dict[str, msgspec.Raw])


def source_address(i: int) -> str:
    """The loopback address connection ``i`` connects from."""
    return f"127.1.{i // 250}.{i % 250 + 1}"


def screen_index(address: str) -> int:
    """The connection whose ``source_address`` this is."""
    _, _, high, low = address.split(".")
    return int(high) * 250 + int(low) - 1


def masked(opcode: int, payload: bytes) -> bytes:
    """A client frame (a pong, a close: short payloads)."""
    key = os.urandom(4)
    n = len(payload)
    head = bytes((0x80 | opcode, 0x80 | n))
    mask = (key * (n // 4 + 1))[:n]
    return head + key + bytes(a ^ b for a, b in zip(payload, mask, strict=True))


@dataclass
class Plan:
    host: str
    port: int
    #: ``GET`` this first (None: straight to the websocket, as a reconnect does).
    snapshot_path: str | None
    ws_path: str
    first: int
    count: int
    concurrency: int
    cpus: set[int] | None
    nice: int | None
    #: The player each screen follows, by global index (None: room screens).
    follow: list[str] | None = None
    #: Where the websockets are, when not on ``port`` (a public edge's FLOOR_WS_PORT).
    ws_port: int | None = None


class _Conn:
    __slots__ = (
        "accept",
        "attempts",
        "behind",
        "buf",
        "closes",
        "cum",
        "early",
        "early_seq",
        "frames",
        "hello_ns",
        "http_bytes",
        "http_ns",
        "idx",
        "live_bytes",
        "live_ns",
        "phase",
        "retry_at",
        "seq",
        "since",
        "snapshots",
        "sock",
        "src",
        "start_ns",
        "whole",
        "ws_bytes",
        "ws_hello_bytes",
    )

    def __init__(self, idx: int) -> None:
        self.idx = idx
        self.src = source_address(idx)
        self.sock: socket.socket | None = None
        self.phase = "idle"
        self.buf = b""
        self.accept = b""
        self.seq = -1
        self.since = -1
        self.attempts = 0
        self.closes: list[int] = []
        self.retry_at = 0.0
        self.new_round(0)

    def new_round(self, now: int) -> None:
        self.start_ns = now
        self.http_ns = 0
        self.hello_ns = 0
        self.http_bytes = 0
        self.ws_bytes = 0
        self.ws_hello_bytes = 0
        self.cum = 0
        self.snapshots = 0
        self.frames: list[tuple[int, int, int, int]] = []
        #: A follower's first ``follow`` message with every part: when, bytes so far, itself.
        self.live_ns = 0
        self.live_bytes = 0
        self.whole: bytes | None = None
        #: Follow messages before the whole one, the highest number among them, and whether
        #: the whole one came with a lower number (older than what was already shown).
        self.early = 0
        self.early_seq = -1
        self.behind = False


class _Worker:
    def __init__(self, plan: Plan, pipe: Connection) -> None:
        self.plan = plan
        self.pipe = pipe
        self.ep = select.epoll()
        self.conns = [_Conn(plan.first + k) for k in range(plan.count)]
        self.by_fd: dict[int, _Conn] = {}
        self.queue: list[_Conn] = []
        self.in_flight = 0
        self.waiting_live = False
        self.use_http = True
        self.stop = False
        self.follow = plan.follow

    # -- starting connections, at most ``concurrency`` handshakes at a time

    def start_round(self, use_http: bool) -> None:
        now = time.monotonic_ns()
        self.use_http = use_http and self.plan.snapshot_path is not None
        for c in self.conns:
            self._close(c)
            c.new_round(now)
            c.attempts = 0
            c.phase = "queued"
        self.queue = list(reversed(self.conns))
        self.in_flight = 0
        self.waiting_live = True
        self._fill()

    def _fill(self) -> None:
        while self.queue and self.in_flight < self.plan.concurrency:
            c = self.queue.pop()
            self.in_flight += 1
            fetch = self.use_http or (c.seq < 0 and self.plan.snapshot_path is not None)
            if fetch and c.http_ns == 0:
                self._dial(c, "http")
            else:
                self._dial(c, "ws")

    def _dial(self, c: _Conn, phase: str) -> None:
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setblocking(False)
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        s.bind((c.src, 0))
        err = s.connect_ex((self.plan.host, self._port(phase)))
        c.sock, c.phase, c.buf = s, phase + "-connecting", b""
        if err not in (0, 115):
            self._failed(c)
            return
        self.by_fd[s.fileno()] = c
        self.ep.register(s.fileno(), select.EPOLLOUT)

    def _port(self, phase: str) -> int:
        if phase.startswith("ws") and self.plan.ws_port is not None:
            return self.plan.ws_port
        return self.plan.port

    def _request(self, c: _Conn) -> bytes:
        host = f"{self.plan.host}:{self._port(c.phase)}"
        if c.phase == "http-connecting":
            return (
                f"GET {self.plan.snapshot_path} HTTP/1.1\r\nHost: {host}\r\n"
                "Accept-Encoding: gzip\r\nConnection: close\r\n\r\n"
            ).encode()
        key = base64.b64encode(os.urandom(16))
        c.accept = base64.b64encode(hashlib.sha1(key + GUID).digest())
        if self.follow is not None:
            target = f"{self.plan.ws_path}/follow/{self.follow[c.idx]}"
        else:
            since = f"&since={c.seq}" if c.seq >= 0 else ""
            target = f"{self.plan.ws_path}?packed=1{since}"
        return (
            f"GET {target} HTTP/1.1\r\nHost: {host}\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key.decode()}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()

    def _close(self, c: _Conn) -> None:
        s, c.sock = c.sock, None
        if s is None:
            return
        with contextlib.suppress(KeyError, OSError, ValueError):
            self.by_fd.pop(s.fileno(), None)
            self.ep.unregister(s.fileno())
        with contextlib.suppress(OSError):
            s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, _LINGER_RST)
        with contextlib.suppress(OSError):
            s.close()

    def _failed(self, c: _Conn, code: int = 0) -> None:
        """Closed or refused: try again a moment later, as a page does."""
        self._close(c)
        if c.phase != "open-live":  # it was among the handshakes under way
            self.in_flight -= 1
        c.closes.append(code)
        c.attempts += 1
        c.phase = "retry" if c.attempts < MAX_ATTEMPTS else "given-up"
        c.retry_at = time.monotonic() + RETRY_DELAY
        self._fill()

    # -- the loop

    def run(self) -> None:
        pipe_fd = self.pipe.fileno()
        self.ep.register(pipe_fd, select.EPOLLIN)
        while not self.stop:
            for fd, ev in self.ep.poll(0.02):
                if fd == pipe_fd:
                    self.command()
                    continue
                c = self.by_fd.get(fd)
                if c is not None:
                    self.event(c, ev)
            now = time.monotonic()
            for c in self.conns:
                if c.phase == "retry" and c.retry_at <= now:
                    c.phase = "queued"
                    self.queue.append(c)
            self._fill()
            self.check_live()
        for c in self.conns:
            self._close(c)

    def event(self, c: _Conn, ev: int) -> None:
        s = c.sock
        assert s is not None
        if c.phase.endswith("-connecting"):
            if s.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR):
                self._failed(c)
                return
            try:
                s.sendall(self._request(c))
            except OSError:
                self._failed(c)
                return
            c.phase = c.phase.replace("connecting", "reading")
            self.ep.modify(s.fileno(), select.EPOLLIN)
            return
        try:
            data = s.recv(262144)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        t = time.monotonic_ns()
        if c.phase == "http-reading":
            self.http(c, data, t)
        elif c.phase == "ws-reading":
            if not data:
                self._failed(c)
                return
            c.ws_bytes += len(data)
            buf = c.buf + data
            end = buf.find(b"\r\n\r\n")
            if end < 0:
                c.buf = buf
                return
            if not buf.startswith(b"HTTP/1.1 101") or c.accept not in buf[:end]:
                self._failed(c, -101)
                return
            c.phase, c.buf = "open", b""
            c.cum = c.ws_bytes - len(buf) + end + 4
            self.frames(c, buf[end + 4 :], t)
        else:
            if not data:
                self._failed(c)
                return
            c.ws_bytes += len(data)
            self.frames(c, data, t)

    def http(self, c: _Conn, data: bytes, t: int) -> None:
        c.buf += data
        head_end = c.buf.find(b"\r\n\r\n")
        if head_end >= 0:
            head = c.buf[:head_end]
            length = _LENGTH.search(head)
            whole = length is not None and len(c.buf) >= head_end + 4 + int(length.group(1))
            if whole or not data:
                if not head.startswith(b"HTTP/1.1 200") or length is None:
                    status = head[9:12]
                    self._failed(c, -int(status) if status.isdigit() else -1)
                    return
                seq = _FLOOR_SEQ.search(head)
                c.http_bytes = len(c.buf)
                c.http_ns = t
                c.seq = int(seq.group(1)) if seq else -1
                c.since = c.seq
                self._close(c)
                self._dial(c, "ws")
                return
        if not data:
            self._failed(c)

    def frames(self, c: _Conn, data: bytes, t: int) -> None:
        buf = c.buf + data if c.buf else data
        n, pos = len(buf), 0
        while n - pos >= 2:
            b1 = buf[pos + 1] & 0x7F
            start = pos + 2
            if b1 == 126:
                if n - pos < 4:
                    break
                b1, start = int.from_bytes(buf[pos + 2 : pos + 4], "big"), pos + 4
            elif b1 == 127:
                if n - pos < 10:
                    break
                b1, start = int.from_bytes(buf[pos + 2 : pos + 10], "big"), pos + 10
            end = start + b1
            if end > n:
                break
            op = buf[pos] & 0x0F
            c.cum += end - pos
            if op in (1, 2):
                # A follower's handshake ends with a whole message: read it all.
                whole = self.follow is not None and c.phase == "open"
                self.message(c, buf[start : end if whole else min(end, start + 160)], t)
                if c.sock is None:
                    return  # closed by the message (fetch_snapshot): the rest is moot
            elif op == 9:
                with contextlib.suppress(OSError):
                    c.sock.send(masked(0xA, buf[start:end]))  # type: ignore[union-attr]
            elif op == 8:
                code = int.from_bytes(buf[start : start + 2], "big") if end - start >= 2 else 0
                c.buf = b""
                self._failed(c, code)
                return
            pos = end
        c.buf = buf[pos:]

    def message(self, c: _Conn, head: bytes, t: int) -> None:
        if head.startswith(b'{"type":"hello"'):
            if c.hello_ns == 0:
                c.hello_ns = t
                c.ws_hello_bytes = c.cum
                if self.follow is None:
                    c.attempts = 0
                    self.in_flight -= 1
                    c.phase = "open-live"
                    self._fill()
            return
        if head.startswith(_FOLLOW):
            if c.phase == "open" and self.follow is not None:
                try:
                    parts = _follow_keys.decode(head).keys()
                except msgspec.DecodeError:
                    return
                m = _SNAPSHOT_SEQ.search(head)
                seq = int(m.group(1)) if m else -1
                if not parts >= _PARTS:
                    # Before the whole message: the protocol has none (a race in the feed).
                    c.early += 1
                    c.early_seq = max(c.early_seq, seq)
                else:
                    if c.live_ns == 0:
                        c.live_ns, c.live_bytes, c.whole = t, c.cum, bytes(head)
                        c.behind = seq < c.early_seq
                    c.attempts = 0
                    self.in_flight -= 1
                    c.phase = "open-live"
                    self._fill()
            return
        if head.startswith(b'{"type":"events"'):
            m = _EVENTS.search(head)
            if m is None:
                return
            first, last = int(m.group(1)), int(m.group(2))
        elif head.startswith(b'{"type":"snapshot"'):
            m = _SNAPSHOT_SEQ.search(head)
            if m is None:
                return
            first, last = 0, int(m.group(1))
            c.snapshots += 1
        elif head.startswith(b'{"type":"fetch_snapshot"'):
            # A public edge sends no snapshot on the socket: read it over HTTP, as a page does
            # (counted as a snapshot), by starting again from the HTTP read.
            c.snapshots += 1
            c.seq, c.http_ns = -1, 0
            c.buf = b""
            self._failed(c, 0)
            return
        else:
            return
        c.seq = max(c.seq, last)
        if len(c.frames) < FRAMES_KEPT:
            c.frames.append((first, last, t, c.cum))

    def check_live(self) -> None:
        if not self.waiting_live:
            return
        if self.follow is not None:
            done = all(c.live_ns or c.phase == "given-up" for c in self.conns)
        else:
            done = all(c.hello_ns or c.phase == "given-up" for c in self.conns)
        if done:
            self.waiting_live = False
            self.pipe.send(("live", None))

    def command(self) -> None:
        while self.pipe.poll():
            msg = self.pipe.recv()
            if msg[0] == "connect":
                self.start_round(use_http=True)
            elif msg[0] == "reconnect":
                self.start_round(use_http=False)
            elif msg[0] == "report":
                self.pipe.send(("report", [self.row(c) for c in self.conns]))
            elif msg[0] == "close":
                self.stop = True

    def row(self, c: _Conn) -> dict[str, Any]:
        return {
            "start": c.start_ns,
            "http": c.http_ns,
            "hello": c.hello_ns,
            "http_bytes": c.http_bytes,
            "ws_hello_bytes": c.ws_hello_bytes,
            "since": c.since,
            "seq": c.seq,
            "snapshots": c.snapshots,
            "closes": list(c.closes),
            "given_up": c.phase == "given-up",
            "frames": list(c.frames),
            "follow": self.follow is not None,
            "live": c.live_ns,
            "live_bytes": c.live_bytes,
            "whole": c.whole,
            "early": c.early,
            "behind": c.behind,
        }


def _worker_main(plan: Plan, pipe: Connection) -> None:
    if plan.cpus:
        os.sched_setaffinity(0, plan.cpus)
    if plan.nice is not None:
        os.setpriority(os.PRIO_PROCESS, 0, plan.nice)
    gc.disable()
    worker = _Worker(plan, pipe)
    worker.run()
    pipe.send(("closed", None))


@dataclass
class Screens:
    """N lean public screens over ``workers`` processes (see the module docstring)."""

    host: str
    port: int
    n: int
    snapshot_path: str | None
    ws_path: str
    workers: int = 2
    concurrency: int = 500
    cpus: set[int] | None = None
    nice: int | None = None
    #: The player each screen follows (``len(follow) == n``): followers, not room screens.
    follow: list[str] | None = None
    #: The first screen's index (its loopback address): screens of another set beside these.
    first: int = 0
    #: Where the websockets are, when not on ``port`` (a public edge's FLOOR_WS_PORT).
    ws_port: int | None = None
    _procs: list[Any] = field(default_factory=list)
    _pipes: list[Connection] = field(default_factory=list)

    def __enter__(self) -> Screens:
        ctx = mp.get_context("spawn")
        base, extra = divmod(self.n, self.workers)
        first = self.first
        # Each worker is sent the players by global index (the screens before ``first``: none).
        follow = None if self.follow is None else [""] * self.first + list(self.follow)
        for k in range(self.workers):
            count = base + (k < extra)
            plan = Plan(
                self.host,
                self.port,
                self.snapshot_path,
                self.ws_path,
                first,
                count,
                max(1, self.concurrency // self.workers),
                self.cpus,
                self.nice,
                follow,
                self.ws_port,
            )
            first += count
            parent, child = ctx.Pipe()
            proc = ctx.Process(target=_worker_main, args=(plan, child), daemon=True)
            proc.start()
            child.close()
            self._procs.append(proc)
            self._pipes.append(parent)
        return self

    def __exit__(self, *exc: object) -> None:
        for p in self._pipes:
            with contextlib.suppress(OSError):
                p.send(("close",))
        for proc in self._procs:
            proc.join(20)
            if proc.is_alive():
                proc.kill()

    def _gather(self, kind: str, timeout: float) -> list[Any]:
        deadline = time.monotonic() + timeout
        got: dict[int, Any] = {}
        while len(got) < len(self._pipes):
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"{len(self._pipes) - len(got)} worker(s) gave no {kind!r}")
            for p in wait([p for k, p in enumerate(self._pipes) if k not in got], left):
                assert isinstance(p, Connection)
                msg = p.recv()
                if msg[0] == kind:
                    got[self._pipes.index(p)] = msg[1]
        return [got[k] for k in range(len(self._pipes))]

    def connect(self, timeout: float = 300.0) -> int:
        """Every screen connects at once; returns (monotonic ns) when the last said hello."""
        for p in self._pipes:
            p.send(("connect",))
        self._gather("live", timeout)
        return time.monotonic_ns()

    def reconnect(self, timeout: float = 300.0) -> int:
        """Every screen drops its connection and reconnects at once, from its number."""
        for p in self._pipes:
            p.send(("reconnect",))
        self._gather("live", timeout)
        return time.monotonic_ns()

    def report(self) -> list[dict[str, Any]]:
        for p in self._pipes:
            p.send(("report",))
        rows: list[dict[str, Any]] = []
        for part in self._gather("report", 60.0):
            rows += part
        return rows
