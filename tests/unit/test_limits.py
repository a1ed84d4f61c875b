"""The per-address limits' own bookkeeping, and a screen that stops reading on a real socket.

The limits as a running server applies them are in tests/e2e/test_limits.py.
"""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from types import SimpleNamespace

from websockets.protocol import State

from floor.server.fanout import FrameWriter, frame
from floor.server.limits import Buckets, Counts, client_key, exempted, too_many
from floor.server.proxies import networks


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_bucket_gives_its_burst_then_a_token_per_interval_and_says_how_long_to_wait() -> None:
    clock = Clock()
    buckets = Buckets(rate=2.0, burst=5, clock=clock)
    assert [buckets.take("a") for _ in range(5)] == [0.0] * 5
    assert buckets.take("a") == 0.5
    assert buckets.take("b") == 0.0  # each address its own
    clock.now += 0.5
    assert buckets.take("a") == 0.0
    assert buckets.take("a") > 0


def test_an_address_is_forgotten_once_its_bucket_is_full_again() -> None:
    clock = Clock()
    buckets = Buckets(rate=10.0, burst=20, clock=clock)
    for n in range(1000):
        buckets.take(f"10.0.{n // 250}.{n % 250}")
    assert len(buckets) == 1000
    clock.now += 2.5  # 20 tokens at 10 a second: full again
    buckets.take("10.9.9.9")
    assert len(buckets) == 1


def test_a_count_holds_up_to_its_cap_and_forgets_an_address_with_none_open() -> None:
    counts = Counts(2)
    counts.enter("a")
    assert not counts.full("a")
    counts.enter("a")
    assert counts.full("a") and not counts.full("b")
    counts.leave("a")
    counts.leave("a")
    assert len(counts) == 0
    assert not Counts(0).full("a")  # no cap


def test_an_ipv6_address_counts_by_its_64_and_a_mapped_ipv4_as_itself() -> None:
    assert client_key("2001:db8:1:2:aaaa::1") == client_key("2001:db8:1:2:bbbb::9")
    assert client_key("2001:db8:1:2::1") != client_key("2001:db8:1:3::1")
    assert client_key("::ffff:192.0.2.7") == "192.0.2.7"
    assert client_key("not an address") == "not an address"
    exempt = networks(["127.0.0.1/32", "::1/128"])
    assert exempted("127.0.0.1", exempt) and exempted("::1", exempt)
    assert not exempted("127.0.0.2", exempt) and not exempted("testclient", exempt)


def test_a_refusal_says_whole_seconds_to_wait() -> None:
    refusal = too_many(0.2)
    assert refusal.retry_after == 1 and refusal.params == {"seconds": 1}
    assert too_many(2.5).retry_after == 3
    assert refusal.code == "too_many_requests" and refusal.reason == "too_many_requests"


# A screen that stops reading -----------------------------------------------------------------


async def _writer(timeout: float) -> tuple[FrameWriter, socket.socket, asyncio.Transport]:
    ours, theirs = socket.socketpair()
    for s in (ours, theirs):
        s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    loop = asyncio.get_running_loop()
    transport, _ = await loop.create_connection(asyncio.Protocol, sock=ours)
    # What FrameWriter reads of uvicorn's websocket protocol: its state and its transport.
    proto = SimpleNamespace(transport=transport, conn=SimpleNamespace(state=State.OPEN))
    proto.close_sent = False
    return FrameWriter(proto, 1 << 20, timeout), theirs, transport  # type: ignore[return-value]


async def test_a_screen_that_reads_nothing_is_cut_off_after_a_period_without_progress() -> None:
    writer, peer, transport = await _writer(timeout=0.1)
    assert writer.write(frame(b"s" * 200_000))
    for _ in range(100):  # 10 s at most; a period or two of 0.1 s is what it takes
        if transport.is_closing():
            break
        await asyncio.sleep(0.1)
    assert transport.is_closing()
    peer.close()


async def test_a_screen_that_reads_slowly_is_not_cut_off() -> None:
    writer, peer, transport = await _writer(timeout=0.5)
    stop = threading.Event()

    def read_slowly() -> None:
        while not stop.is_set():
            try:
                peer.recv(2048)
            except OSError:
                return
            time.sleep(0.02)

    reader = threading.Thread(target=read_slowly)
    reader.start()
    try:
        assert writer.write(frame(b"s" * 200_000))
        for _ in range(15):
            await asyncio.sleep(0.1)
            assert not transport.is_closing()
            writer.write(frame(b"e" * 100))
    finally:
        stop.set()
        transport.abort()
        reader.join()
        peer.close()


async def test_a_screen_that_took_everything_is_not_watched() -> None:
    writer, peer, transport = await _writer(timeout=0.1)
    assert writer.write(frame(b"small"))
    peer.recv(100)
    await asyncio.sleep(0.35)
    assert not transport.is_closing()
    transport.abort()
    peer.close()
