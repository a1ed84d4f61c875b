"""Lean websocket load generator: N client connections over K worker processes.

What it measures: for every connection, the ``time.monotonic_ns()`` at which the first data
frame carrying sequence number ``seq`` (or higher) was fully read. CLOCK_MONOTONIC is
system-wide on Linux, so these times compare directly with a trigger time taken in the
controller and with timestamps a server process reports.

How it stays lean: each worker runs one loop over non-blocking raw sockets (``select.epoll``
directly, or an ``asyncio.Protocol`` on uvloop: ``backend="epoll"|"uvloop"``), does the
HTTP/1.1 upgrade itself (random ``Sec-WebSocket-Key``, checks ``101`` and the accept hash, offers
no extension), and parses server frames with one small parser (unmasked frames, 7/16/64-bit
lengths, text/binary/continuation/ping/close; pings are answered with masked pongs). The
sequence number of a data frame is found with ``bytes.find(seq_key)`` and a digit match, never
a JSON parse: the first ``"to":`` in a frame counts, so it must come before any nested one
(msgspec encodes struct fields in order: keep ``to`` ahead of the events). Frames without it
(heartbeats) are counted, not timed. A snapshot (``expect_snapshot``) is timed, not sequenced;
its ``"seq":N`` becomes the connection's seq. Cyclic GC is off in the workers.

Measured on this 2-core VM (``harness_cost.py``): read+parse is ~5.3 us per frame; with the
worker spinning (``spin=True``, one worker on its own CPU) it keeps up with a 5,000-client
``websockets.broadcast`` (last client read within 0.25 ms (p99) of the server's last write)
and the server pays nothing for waking it (fan-out per client equal to that with the workers
SIGSTOPped). Sleeping workers (epoll or uvloop) cost 8-10 us CPU per frame and add ~1.2 us
per client to the server's fan-out (wake-ups), with tails of a few ms at p99.

Controller API (used by ``runner.py``; meant for the real floor server too)::

    from bench.wsload.receivers import LoadClients, WsClient

    with LoadClients("ws://127.0.0.1:8000/ws/t/T1", 5000, workers=1, cpus={1}, spin=True,
                     headers={"Cookie": "session=s{i}", "Origin": "http://127.0.0.1:8000"},
                     expect_snapshot=b'"type":"snapshot"') as clients:   # hello, then snapshot
        report = clients.start()             # all open and holding their snapshot, or raises
        t0 = time.monotonic_ns(); trigger()  # e.g. the HTTP POST of a bust-out
        clients.arm(seq)                     # after the trigger (a spinning worker shares CPU)
        result = clients.wait_seq(seq)       # every connection has read seq (or later)
        result.last - t0, result.median - t0 # trigger to last / median client, in ns
        clients.harness_stats()              # the receivers' own cost since start/reset

``{i}`` in the URL and in header values is replaced by the connection's global index.
``WsClient`` is a small blocking client (e.g. a control connection, a staff phone).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import gc
import hashlib
import multiprocessing as mp
import os
import re
import resource
import select
import signal
import socket
import statistics
import struct
import time
from array import array
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from typing import Any
from urllib.parse import urlsplit

GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
_DIGITS = re.compile(rb"[ \t]*(\d+)")
_RECV = 65536
_LINGER_RST = struct.pack("ii", 1, 0)

HeaderArg = Mapping[str, str] | Sequence[tuple[str, str]]


# --------------------------------------------------------------------------- frames, handshake


def raise_nofile(want: int = 1 << 20) -> int:
    """Raise RLIMIT_NOFILE's soft limit towards ``want`` (capped by the hard limit)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = min(want, hard) if hard != resource.RLIM_INFINITY else want
    if soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def mask_payload(payload: bytes, key: bytes) -> bytes:
    """XOR ``payload`` with the 4-byte ``key`` (RFC 6455 5.3), via one big-int XOR."""
    n = len(payload)
    if n == 0:
        return b""
    k = (key * (n // 4 + 1))[:n]
    return (int.from_bytes(payload, "big") ^ int.from_bytes(k, "big")).to_bytes(n, "big")


def encode_frame(opcode: int, payload: bytes, *, mask: bool) -> bytes:
    """One FIN frame. Clients must mask (random key); servers must not."""
    n = len(payload)
    b0 = 0x80 | opcode
    mbit = 0x80 if mask else 0
    if n < 126:
        head = bytes((b0, mbit | n))
    elif n < 65536:
        head = bytes((b0, mbit | 126)) + n.to_bytes(2, "big")
    else:
        head = bytes((b0, mbit | 127)) + n.to_bytes(8, "big")
    if not mask:
        return head + payload
    key = os.urandom(4)
    return head + key + mask_payload(payload, key)


def _headers(headers: HeaderArg) -> list[tuple[str, str]]:
    return list(headers.items()) if isinstance(headers, Mapping) else list(headers)


def parse_ws_url(url: str) -> tuple[str, int, str]:
    """``ws://host:port/path?query`` -> (host, port, request target)."""
    parts = urlsplit(url)
    if parts.scheme != "ws":
        raise ValueError(f"only ws:// URLs are supported, not {url!r}")
    host = parts.hostname or "127.0.0.1"
    port = parts.port or 80
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return host, port, target


def handshake_request(
    host: str, port: int, target: str, headers: Iterable[tuple[str, str]] = ()
) -> tuple[bytes, bytes]:
    """The upgrade request (no extensions offered) and the Sec-WebSocket-Accept it expects."""
    key = base64.b64encode(os.urandom(16))
    lines = [
        f"GET {target} HTTP/1.1",
        f"Host: {host}:{port}",
        "Upgrade: websocket",
        "Connection: Upgrade",
        f"Sec-WebSocket-Key: {key.decode()}",
        "Sec-WebSocket-Version: 13",
    ]
    lines += [f"{name}: {value}" for name, value in headers]
    request = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")
    accept = base64.b64encode(hashlib.sha1(key + GUID).digest())
    return request, accept


def check_handshake_response(head: bytes, accept: bytes) -> str | None:
    """None if ``head`` (status line + headers, no blank line) accepts the upgrade, else why."""
    status, _, rest = head.partition(b"\r\n")
    if not status.startswith(b"HTTP/1.1 101"):
        return f"upgrade refused: {status.decode('latin-1', 'replace')}"
    got = None
    for line in rest.split(b"\r\n"):
        name, _, value = line.partition(b":")
        name = name.strip().lower()
        if name == b"sec-websocket-accept":
            got = value.strip()
        elif name == b"sec-websocket-extensions" and value.strip():
            return f"server negotiated an extension we did not offer: {value.strip()!r}"
    if got != accept:
        return f"bad Sec-WebSocket-Accept {got!r}"
    return None


# --------------------------------------------------------------------------- worker side


@dataclass
class _WorkerConfig:
    host: str
    port: int
    target: str
    headers: list[tuple[str, str]]
    first: int  # global index of this worker's first connection
    count: int
    first_message: bytes | None
    first_message_text: bool
    expect_snapshot: bool
    snapshot_marker: bytes | None
    snapshot_seq_key: bytes | None
    seq_key: bytes
    backend: str
    concurrency: int
    cpus: set[int] | None
    spin: bool
    nice: int | None


class _Conn:
    __slots__ = (
        "accept",
        "buf",
        "frag",
        "idx",
        "last_seq",
        "log",
        "open",
        "opened_ns",
        "request",
        "snap_ns",
        "sock",
        "want_snap",
        "write",
    )

    def __init__(self, idx: int, request: bytes, accept: bytes, want_snap: bool) -> None:
        self.idx = idx
        self.request = request
        self.accept = accept
        self.buf = b""
        self.frag: list[bytes] | None = None
        self.open = False
        self.opened_ns = 0
        self.snap_ns = 0
        self.want_snap = want_snap
        self.last_seq = -1
        self.log: list[tuple[int, int]] = []  # (seq, first read time) per sequenced frame
        self.sock: Any = None
        self.write: Any = None


class _Core:
    """Everything both backends share: handshake completion, the frame parser, the pipe."""

    def __init__(self, cfg: _WorkerConfig, pipe: Connection) -> None:
        self.cfg = cfg
        self.pipe = pipe
        self.conns: list[_Conn] = []
        for k in range(cfg.count):
            i = cfg.first + k
            headers = [(n, v.replace("{i}", str(i))) for n, v in cfg.headers]
            request, accept = handshake_request(
                cfg.host, cfg.port, cfg.target.replace("{i}", str(i)), headers
            )
            self.conns.append(_Conn(i, request, accept, cfg.expect_snapshot))
        self.key = cfg.seq_key
        self.klen = len(cfg.seq_key)
        self.snap_marker = cfg.snapshot_marker
        self.snap_seq_key = cfg.snapshot_seq_key
        self.opened = 0
        self.snapshots = 0
        self.ready_sent = False
        self.t_start = time.monotonic_ns()
        self.waiting: int | None = None
        self.have = 0
        self.closed_by_peer = 0
        self.failed: str | None = None
        self.stop = False
        self._reset_stats()

    # -- statistics (the harness's own cost)

    def _reset_stats(self) -> None:
        self.frames = 0
        self.nbytes = 0
        self.reads = 0
        self.unsequenced = 0
        self.stale = 0
        self.preamble = 0
        self.pongs = 0
        self.busy_ns = 0
        self.cpu0 = time.process_time_ns()
        self.wall0 = time.monotonic_ns()

    def stats(self) -> dict[str, int]:
        return {
            "connections": len(self.conns),
            "frames": self.frames,
            "bytes": self.nbytes,
            "reads": self.reads,
            "unsequenced": self.unsequenced,
            "stale": self.stale,
            "preamble": self.preamble,
            "pongs": self.pongs,
            "busy_ns": self.busy_ns,
            "closed_by_peer": self.closed_by_peer,
            "cpu_ns": time.process_time_ns() - self.cpu0,
            "wall_ns": time.monotonic_ns() - self.wall0,
        }

    # -- handshake

    def handshake_bytes(self, c: _Conn, data: bytes, t: int) -> None:
        buf = c.buf + data
        end = buf.find(b"\r\n\r\n")
        if end < 0:
            c.buf = buf
            return
        c.buf = b""
        why = check_handshake_response(buf[:end], c.accept)
        if why is not None:
            self.fail(f"connection {c.idx}: {why}")
            return
        c.open = True
        c.opened_ns = t
        self.opened += 1
        if self.cfg.first_message is not None:
            op = 0x1 if self.cfg.first_message_text else 0x2
            c.write(encode_frame(op, self.cfg.first_message, mask=True))
        rest = buf[end + 4 :]
        if rest:
            self.feed(c, rest, t)
        self.check_ready()

    def check_ready(self) -> None:
        if self.ready_sent or self.opened < len(self.conns):
            return
        if self.cfg.expect_snapshot and self.snapshots < len(self.conns):
            return
        self.ready_sent = True
        info = {
            "elapsed_ns": time.monotonic_ns() - self.t_start,
            "opened_ns": array("q", [c.opened_ns for c in self.conns]).tobytes(),
            "snapshot_ns": array("q", [c.snap_ns for c in self.conns]).tobytes(),
        }
        self._reset_stats()
        self.pipe.send(("ready", info))

    def fail(self, why: str) -> None:
        if self.failed is None:
            self.failed = why
            self.pipe.send(("error", why))

    # -- the hot path: one parser over whatever a read returned

    def feed(self, c: _Conn, data: bytes, t: int) -> None:
        self.reads += 1
        self.nbytes += len(data)
        if c.buf:
            data = c.buf + data
            c.buf = b""
        n = len(data)
        pos = 0
        while n - pos >= 2:
            b1 = data[pos + 1]
            ln = b1 & 0x7F
            if ln < 126:
                start = pos + 2
            elif ln == 126:
                if n - pos < 4:
                    break
                ln = (data[pos + 2] << 8) | data[pos + 3]
                start = pos + 4
            else:
                if n - pos < 10:
                    break
                ln = int.from_bytes(data[pos + 2 : pos + 10], "big")
                start = pos + 10
            if b1 & 0x80:
                self.fail(f"connection {c.idx}: server sent a masked frame")
                return
            end = start + ln
            if end > n:
                break
            b0 = data[pos]
            op = b0 & 0x0F
            if op == 1 or op == 2:
                if b0 & 0x80:
                    self.message(c, data, start, end, t)
                else:
                    c.frag = [data[start:end]]
            elif op == 0:
                if c.frag is not None:
                    c.frag.append(data[start:end])
                    if b0 & 0x80:
                        whole = b"".join(c.frag)
                        c.frag = None
                        self.message(c, whole, 0, len(whole), t)
            elif op == 9:
                self.pongs += 1
                c.write(encode_frame(0xA, data[start:end], mask=True))
            elif op == 8:
                c.write(encode_frame(0x8, data[start : min(end, start + 2)], mask=True))
                self.lost(c)
                return
            pos = end
        if pos < n:
            c.buf = data[pos:]

    def message(self, c: _Conn, data: bytes, start: int, end: int, t: int) -> None:
        self.frames += 1
        if c.want_snap:
            self.snapshot(c, data, start, end, t)
            return
        i = data.find(self.key, start, end)
        if i < 0:
            self.unsequenced += 1
            return
        m = _DIGITS.match(data, i + self.klen, end)
        if m is None:
            self.unsequenced += 1
            return
        seq = int(m.group(1))
        last = c.last_seq
        if seq <= last:
            self.stale += 1
            return
        c.last_seq = seq
        c.log.append((seq, t))
        w = self.waiting
        if w is not None and last < w <= seq:
            self.have += 1
            if self.have == len(self.conns):
                self.answer()

    def snapshot(self, c: _Conn, data: bytes, start: int, end: int, t: int) -> None:
        """A data frame before the snapshot: the snapshot (timed, never an event), or a
        preamble frame (e.g. a hello) when a marker says which frame is the snapshot."""
        if self.snap_marker is not None and data.find(self.snap_marker, start, end) < 0:
            self.preamble += 1
            return
        c.want_snap = False
        c.snap_ns = t
        self.snapshots += 1
        key = self.snap_seq_key
        if key is not None:  # the snapshot's own number: the connection has everything to it
            i = data.find(key, start, end)
            m = _DIGITS.match(data, i + len(key), end) if i >= 0 else None
            if m is not None:
                c.last_seq = int(m.group(1))
                c.log.append((c.last_seq, t))
        if not self.ready_sent:
            self.check_ready()

    def lost(self, c: _Conn) -> None:
        if not c.open:
            if not self.stop:
                self.fail(f"connection {c.idx}: closed during the handshake")
            return
        c.open = False
        if not self.stop:
            self.closed_by_peer += 1
            self.fail(f"connection {c.idx}: closed by the server")
        with contextlib.suppress(OSError):
            if c.sock is not None and hasattr(c.sock, "close"):
                c.sock.close()

    # -- controller commands

    def command(self) -> None:
        while self.pipe.poll():
            msg = self.pipe.recv()
            kind = msg[0]
            if kind == "wait":
                self.arm(msg[1])
            elif kind == "stats":
                self.pipe.send(("stats", self.stats()))
            elif kind == "reset":
                self._reset_stats()
                self.pipe.send(("reset", None))
            elif kind == "close":
                self.stop = True

    def arm(self, seq: int) -> None:
        self.waiting = seq
        self.have = sum(1 for c in self.conns if c.last_seq >= seq)
        if self.have == len(self.conns):
            self.answer()

    def answer(self) -> None:
        seq = self.waiting
        assert seq is not None
        self.waiting = None
        times = array("q")
        for c in self.conns:
            log = c.log
            k = len(log) - 1
            while k > 0 and log[k - 1][0] >= seq:
                k -= 1
            times.append(log[k][1])
            del log[:k]  # entries below seq can never answer a later wait
        self.pipe.send(("seq", seq, times.tobytes()))

    def close_all(self) -> None:
        for c in self.conns:
            c.open = False
            sock = c.sock
            if sock is None:
                continue
            with contextlib.suppress(OSError, AttributeError, RuntimeError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, _LINGER_RST)
            with contextlib.suppress(OSError, AttributeError, RuntimeError):
                sock.close()


def _run_epoll(core: _Core) -> None:
    cfg = core.cfg
    ep = select.epoll()
    by_fd: dict[int, _Conn] = {}
    pipe_fd = core.pipe.fileno()
    ep.register(pipe_fd, select.EPOLLIN)
    pending = iter(core.conns)
    in_flight = 0
    addr = (cfg.host, cfg.port)

    def start_next() -> None:
        nonlocal in_flight
        c = next(pending, None)
        if c is None:
            return
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setblocking(False)
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        c.sock = s
        c.write = s.send
        err = s.connect_ex(addr)
        if err not in (0, 115):  # EINPROGRESS
            core.fail(f"connection {c.idx}: connect failed: {os.strerror(err)}")
            return
        by_fd[s.fileno()] = c
        ep.register(s.fileno(), select.EPOLLOUT)
        in_flight += 1

    for _ in range(cfg.concurrency):
        start_next()

    mono = time.monotonic_ns
    feed = core.feed
    poll = ep.poll
    spin = cfg.spin
    while not core.stop:
        # Spinning (poll(0)) while a seq is awaited keeps this process off the socket wait
        # queues, so the server's writes never pay for waking it up (an IPI, in a VM an exit).
        for fd, ev in poll(0 if spin and core.waiting is not None else 1.0):
            if fd == pipe_fd:
                core.command()
                continue
            c = by_fd.get(fd)
            if c is None:
                continue
            if c.open:
                t0 = mono()
                try:
                    data = c.sock.recv(_RECV)
                except BlockingIOError:
                    continue
                except OSError:
                    data = b""
                if data:
                    feed(c, data, mono())
                    core.busy_ns += mono() - t0
                else:
                    ep.unregister(fd)
                    del by_fd[fd]
                    core.lost(c)
            elif ev & select.EPOLLOUT:  # connected (or failed): send the upgrade request
                err = c.sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
                if err:
                    core.fail(f"connection {c.idx}: connect failed: {os.strerror(err)}")
                    continue
                c.sock.send(c.request)
                ep.modify(fd, select.EPOLLIN)
            else:
                try:
                    data = c.sock.recv(_RECV)
                except BlockingIOError:
                    continue
                except OSError:
                    data = b""
                if not data:
                    ep.unregister(fd)
                    del by_fd[fd]
                    core.lost(c)
                    continue
                core.handshake_bytes(c, data, mono())
                if c.open:
                    in_flight -= 1
                    start_next()
    core.close_all()
    ep.close()


class _Proto(asyncio.Protocol):
    __slots__ = ("c", "core", "feed", "opened")

    def __init__(self, c: _Conn, core: _Core, opened: asyncio.Future[None]) -> None:
        self.c = c
        self.core = core
        self.feed = core.feed
        self.opened = opened

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        tr: Any = transport  # uvloop's TCPTransport is not an asyncio.Transport subclass
        self.c.write = tr.write
        tr.write(self.c.request)
        self.c.sock = _TransportCloser(tr, tr.get_extra_info("socket"))

    def data_received(self, data: bytes) -> None:
        t = time.monotonic_ns()
        c = self.c
        if c.open:
            self.feed(c, data, t)
            self.core.busy_ns += time.monotonic_ns() - t
            return
        self.core.handshake_bytes(c, data, t)
        if c.open and not self.opened.done():
            self.opened.set_result(None)

    def connection_lost(self, exc: Exception | None) -> None:
        self.core.lost(self.c)
        if not self.opened.done():
            self.opened.set_exception(ConnectionError(f"connection {self.c.idx} lost"))


class _TransportCloser:
    """Gives ``close_all`` a socket-like object that resets and aborts an asyncio transport."""

    def __init__(self, transport: Any, sock: Any) -> None:
        self.transport = transport
        self.sock = sock

    def setsockopt(self, *args: Any) -> None:
        self.sock.setsockopt(*args)

    def close(self) -> None:
        self.transport.abort()


def _run_uvloop(core: _Core) -> None:
    import uvloop

    cfg = core.cfg

    async def main() -> None:
        loop = asyncio.get_running_loop()
        done = loop.create_future()

        def on_command() -> None:
            core.command()
            if core.stop and not done.done():
                done.set_result(None)

        loop.add_reader(core.pipe.fileno(), on_command)
        sem = asyncio.Semaphore(cfg.concurrency)

        async def connect(c: _Conn) -> None:
            async with sem:
                opened: asyncio.Future[None] = loop.create_future()
                try:
                    await loop.create_connection(
                        lambda: _Proto(c, core, opened), cfg.host, cfg.port
                    )
                    await opened
                except OSError as e:
                    core.fail(f"connection {c.idx}: {e}")

        await asyncio.gather(*(connect(c) for c in core.conns))
        await done
        loop.remove_reader(core.pipe.fileno())
        core.close_all()

    uvloop.run(main())


def _worker_main(cfg: _WorkerConfig, pipe: Connection) -> None:
    if cfg.cpus:
        os.sched_setaffinity(0, cfg.cpus)
    if cfg.nice is not None:
        os.setpriority(os.PRIO_PROCESS, 0, cfg.nice)
    raise_nofile()
    # No cyclic GC in the workers: a full collection over thousands of connection objects
    # stalls a worker for milliseconds, and the hot path makes no reference cycles.
    gc.disable()
    core = _Core(cfg, pipe)
    if cfg.backend == "uvloop":
        _run_uvloop(core)
    else:
        _run_epoll(core)
    pipe.send(("closed", None))


# --------------------------------------------------------------------------- controller side


@dataclass
class ConnectReport:
    """What ``LoadClients.start`` saw: how long it took, and per-connection times (ns)."""

    n: int
    elapsed_s: float
    opened_ns: list[int]  # monotonic_ns when each connection's 101 was read
    snapshot_ns: list[int]  # monotonic_ns when each first data frame was read (0 if not expected)


@dataclass
class SeqResult:
    """Per-connection first-read times (monotonic_ns) of a frame with seq >= ``seq``."""

    seq: int
    times: list[int] = field(repr=False)

    @property
    def first(self) -> int:
        return min(self.times)

    @property
    def last(self) -> int:
        return max(self.times)

    @property
    def median(self) -> float:
        return statistics.median(self.times)


@dataclass
class HarnessStats:
    """The receivers' own cost since ``start`` (or ``reset_stats``), summed over workers."""

    connections: int
    frames: int
    reads: int
    bytes: int
    cpu_ns: int  # user+system CPU of all workers (includes spinning, if ``spin``)
    busy_ns: int  # wall time inside read+parse of data frames (epoll) / parse only (uvloop)
    wall_ns: int  # longest worker wall time
    unsequenced: int  # data frames without seq_key (heartbeats, ...)
    stale: int  # frames whose seq was not above the connection's last
    pongs: int
    preamble: int = 0  # data frames skipped before the snapshot

    @property
    def cpu_per_frame_ns(self) -> float:
        return self.cpu_ns / self.frames if self.frames else 0.0

    @property
    def busy_per_frame_ns(self) -> float:
        return self.busy_ns / self.frames if self.frames else 0.0


class LoadClients:
    """N websocket client connections spread over ``workers`` processes (see module doc).

    ``url``: ``ws://host:port/path?query``; ``{i}`` is replaced by the connection index, as in
    header values. ``headers``: extra request headers (Cookie, Origin, ...). ``first_message``:
    sent (masked, text unless ``first_message_text=False``) right after the upgrade.
    ``expect_snapshot``: ``True``: the first data frame is a snapshot; bytes (e.g.
    ``b'"type":"snapshot"'``): the first data frame containing them is, and data frames before
    it (a hello) are skipped. ``start`` waits for the snapshot on every connection; a number
    after ``snapshot_seq_key`` in it becomes the connection's seq (so waits for seqs up to the
    snapshot's are already satisfied). ``seq_key``: the bytes before the sequence number in
    event frames; the first occurrence in a frame counts.
    ``cpus``: CPU affinity of the workers. ``backend``: ``"epoll"`` or ``"uvloop"``.
    ``concurrency``: handshakes in flight per worker while connecting. ``spin``: while a seq
    is armed and not yet complete, busy-poll instead of sleeping in epoll_wait (use one
    worker per dedicated CPU: spinners sharing a CPU delay each other). ``nice``: the
    workers' nice value (-20 keeps other processes on a shared machine from preempting them).
    """

    def __init__(
        self,
        url: str,
        n: int,
        *,
        workers: int = 1,
        cpus: Iterable[int] | None = None,
        headers: HeaderArg = (),
        first_message: bytes | str | None = None,
        first_message_text: bool = True,
        expect_snapshot: bool | bytes = False,
        snapshot_seq_key: bytes | None = b'"seq":',
        seq_key: bytes = b'"to":',
        backend: str = "epoll",
        concurrency: int = 64,
        spin: bool = False,
        nice: int | None = None,
        start_method: str = "spawn",
    ) -> None:
        if backend not in ("epoll", "uvloop"):
            raise ValueError(f"unknown backend {backend!r}")
        if spin and backend != "epoll":
            raise ValueError("spin needs backend='epoll'")
        host, port, target = parse_ws_url(url)
        if isinstance(first_message, str):
            first_message = first_message.encode()
        self.n = n
        workers = max(1, min(workers, n))
        self._configs = []
        base, extra = divmod(n, workers)
        first = 0
        for k in range(workers):
            count = base + (1 if k < extra else 0)
            self._configs.append(
                _WorkerConfig(
                    host=host,
                    port=port,
                    target=target,
                    headers=_headers(headers),
                    first=first,
                    count=count,
                    first_message=first_message,
                    first_message_text=first_message_text,
                    expect_snapshot=bool(expect_snapshot),
                    snapshot_marker=expect_snapshot if isinstance(expect_snapshot, bytes) else None,
                    snapshot_seq_key=snapshot_seq_key,
                    seq_key=seq_key,
                    backend=backend,
                    concurrency=concurrency,
                    cpus=set(cpus) if cpus is not None else None,
                    spin=spin,
                    nice=nice,
                )
            )
            first += count
        self._ctx = mp.get_context(start_method)
        self._procs: list[Any] = []
        self._pipes: list[Connection] = []
        self._armed: int | None = None

    def __enter__(self) -> LoadClients:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _gather(self, kind: str, timeout: float) -> list[tuple[Any, ...]]:
        """One ``kind`` reply from every worker; raises on a worker error or timeout."""
        deadline = time.monotonic() + timeout
        replies: dict[int, tuple[Any, ...]] = {}
        index = {id(p): k for k, p in enumerate(self._pipes)}
        while len(replies) < len(self._pipes):
            left = deadline - time.monotonic()
            if left <= 0:
                missing = len(self._pipes) - len(replies)
                raise TimeoutError(f"{missing} worker(s) gave no {kind!r} within {timeout}s")
            for p in wait([p for p in self._pipes if index[id(p)] not in replies], left):
                assert isinstance(p, Connection)
                msg = p.recv()
                if msg[0] == "error":
                    raise RuntimeError(f"load worker: {msg[1]}")
                if msg[0] == kind:
                    replies[index[id(p)]] = msg
        return [replies[k] for k in range(len(self._pipes))]

    def start(self, timeout: float = 120.0) -> ConnectReport:
        """Start the workers; return when every connection is open (and has its snapshot)."""
        t0 = time.monotonic()
        for cfg in self._configs:
            parent, child = self._ctx.Pipe()
            proc = self._ctx.Process(target=_worker_main, args=(cfg, child), daemon=True)
            proc.start()
            child.close()
            self._procs.append(proc)
            self._pipes.append(parent)
        replies = self._gather("ready", timeout)
        opened: list[int] = []
        snaps: list[int] = []
        for _, info in replies:
            opened += array("q", info["opened_ns"]).tolist()
            snaps += array("q", info["snapshot_ns"]).tolist()
        return ConnectReport(self.n, time.monotonic() - t0, opened, snaps)

    def arm(self, seq: int) -> None:
        """Tell the workers which seq to wait for, ahead of the trigger (keeps CPU quiet later)."""
        for p in self._pipes:
            p.send(("wait", seq))
        self._armed = seq

    def wait_seq(self, seq: int, timeout: float = 60.0) -> SeqResult:
        """Block until every connection has read a frame with seq >= ``seq``."""
        if self._armed != seq:
            self.arm(seq)
        self._armed = None
        times: list[int] = []
        for _, _seq, raw in self._gather("seq", timeout):
            times += array("q", raw).tolist()
        return SeqResult(seq, times)

    def harness_stats(self) -> HarnessStats:
        for p in self._pipes:
            p.send(("stats",))
        total: dict[str, int] = {}
        wall = 0
        for _, s in self._gather("stats", 30.0):
            wall = max(wall, s["wall_ns"])
            for k, v in s.items():
                total[k] = total.get(k, 0) + v
        return HarnessStats(
            connections=total["connections"],
            frames=total["frames"],
            reads=total["reads"],
            bytes=total["bytes"],
            cpu_ns=total["cpu_ns"],
            busy_ns=total["busy_ns"],
            wall_ns=wall,
            unsequenced=total["unsequenced"],
            stale=total["stale"],
            preamble=total["preamble"],
            pongs=total["pongs"],
        )

    @property
    def pids(self) -> list[int]:
        return [proc.pid for proc in self._procs]

    def pause(self) -> None:
        """SIGSTOP the workers: the server's writes then never find a reader to wake."""
        for proc in self._procs:
            os.kill(proc.pid, signal.SIGSTOP)

    def resume(self) -> None:
        for proc in self._procs:
            os.kill(proc.pid, signal.SIGCONT)

    def reset_stats(self) -> None:
        for p in self._pipes:
            p.send(("reset",))
        self._gather("reset", 30.0)

    def close(self, timeout: float = 30.0) -> None:
        """Reset every connection (RST, no TIME_WAIT) and stop the workers."""
        for p in self._pipes:
            with contextlib.suppress(OSError):
                p.send(("close",))
        deadline = time.monotonic() + timeout
        for proc in self._procs:
            proc.join(max(0.1, deadline - time.monotonic()))
            if proc.is_alive():
                proc.kill()
                proc.join()
        for p in self._pipes:
            p.close()
        self._procs.clear()
        self._pipes.clear()


class WsClient:
    """A small blocking websocket client (same frame code), e.g. a control connection."""

    def __init__(self, url: str, headers: HeaderArg = (), timeout: float = 10.0) -> None:
        host, port, target = parse_ws_url(url)
        self.sock = socket.create_connection((host, port), timeout=timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        request, accept = handshake_request(host, port, target, _headers(headers))
        self.sock.sendall(request)
        buf = b""
        while b"\r\n\r\n" not in buf:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise ConnectionError("closed during the upgrade")
            buf += chunk
        head, _, self.buf = buf.partition(b"\r\n\r\n")
        why = check_handshake_response(head, accept)
        if why is not None:
            raise ConnectionError(why)

    def send(self, data: bytes | str, *, text: bool = True) -> None:
        self.sock.sendall(self.frame(data, text=text))

    @staticmethod
    def frame(data: bytes | str, *, text: bool = True) -> bytes:
        """A masked frame, to build before taking a timestamp and ``sendall`` after."""
        payload = data.encode() if isinstance(data, str) else data
        return encode_frame(0x1 if text else 0x2, payload, mask=True)

    def _read(self, n: int) -> bytes:
        while len(self.buf) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("closed by the server")
            self.buf += chunk
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def recv(self) -> bytes:
        """The next data message's payload; answers pings, raises on close."""
        parts: list[bytes] = []
        while True:
            b0, b1 = self._read(2)
            ln = b1 & 0x7F
            if ln == 126:
                ln = int.from_bytes(self._read(2), "big")
            elif ln == 127:
                ln = int.from_bytes(self._read(8), "big")
            payload = self._read(ln)
            op = b0 & 0x0F
            if op == 9:
                self.sock.sendall(encode_frame(0xA, payload, mask=True))
            elif op == 8:
                raise ConnectionError(f"closed by the server: {payload!r}")
            elif op in (0, 1, 2):
                parts.append(payload)
                if b0 & 0x80:
                    return b"".join(parts)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.sendall(encode_frame(0x8, struct.pack("!H", 1000), mask=True))
        self.sock.close()
