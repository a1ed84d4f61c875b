"""Self-test of the load generator: frame parser edge cases, then a live run with pings.

1. Feeds ``receivers._Core`` hand-made server frames: 7/16/64-bit lengths, a fragmented
   message, a ping (must be answered with a masked pong carrying the same payload), a stale
   and an unsequenced frame, everything also split at every byte boundary.
2. Starts the baseline server with 0.2 s keepalive pings and a 70 kB snapshot (64-bit length),
   connects 200 clients, waits through several pings (the server drops a client that does not
   answer), then broadcasts a 600-byte and a 20 kB (16-bit length) message.

    python -m bench.wsload.selftest
"""

from __future__ import annotations

import json
import struct
import time
from typing import Any

from bench.wsload.receivers import (
    LoadClients,
    _Core,
    _WorkerConfig,
    encode_frame,
    mask_payload,
)
from bench.wsload.runner import connect_control, event_message, start_server, stop_server


class _Pipe:
    def __init__(self) -> None:
        self.sent: list[Any] = []

    def send(self, msg: Any) -> None:
        self.sent.append(msg)


def _core(n: int = 1, snapshot: bool | bytes = False) -> tuple[_Core, _Pipe]:
    cfg = _WorkerConfig(
        host="127.0.0.1",
        port=1,
        target="/",
        headers=[],
        first=0,
        count=n,
        first_message=None,
        first_message_text=True,
        expect_snapshot=snapshot is not False,
        snapshot_marker=snapshot if isinstance(snapshot, bytes) else None,
        snapshot_seq_key=b'"seq":',
        seq_key=b'"to":',
        backend="epoll",
        concurrency=1,
        cpus=None,
        spin=False,
        nice=None,
    )
    pipe = _Pipe()
    core = _Core(cfg, pipe)  # type: ignore[arg-type]
    for c in core.conns:
        c.open = True
        core.opened += 1
    return core, pipe


def _unmask_client_frame(frame: bytes) -> tuple[int, bytes]:
    assert frame[1] & 0x80, "client frames must be masked"
    ln = frame[1] & 0x7F
    key = frame[2:6]
    return frame[0] & 0x0F, mask_payload(frame[6 : 6 + ln], key)


def check_parser() -> None:
    server = [
        encode_frame(0x1, b'{"to":1,"x":1}', mask=False),
        encode_frame(0x1, b'{"to":2,' + b'"p":"' + b"y" * 300 + b'"}', mask=False),  # 16-bit
        encode_frame(0x2, b'{"to":3,"p":"' + b"z" * 70000 + b'"}', mask=False),  # 64-bit
        encode_frame(0x9, b"ping!", mask=False),
        bytes([0x01, 8]) + b'{"to":4,',  # fragmented: text, FIN=0
        bytes([0x80, 4]) + b'"a":',  # continuation, FIN=1 below is the next one
        bytes([0x80, 2]) + b"1}",
        encode_frame(0x1, b'{"to":2}', mask=False),  # stale
        encode_frame(0x1, b'{"type":"hello"}', mask=False),  # unsequenced
    ]
    # The first continuation above has FIN set; make it FIN=0 so the message has three parts.
    server[5] = bytes([0x00, 4]) + b'"a":'
    stream = b"".join(server)
    for step in (len(stream), 1, 2, 3, 7, 126, 4096):
        core, pipe = _core()
        c = core.conns[0]
        writes: list[bytes] = []
        c.write = writes.append
        for t, i in enumerate(range(0, len(stream), step)):
            core.feed(c, stream[i : i + step], t + 1)
        assert [s for s, _ in c.log] == [1, 2, 3, 4], (step, c.log)
        assert core.stale == 1 and core.unsequenced == 1, (step, core.stale, core.unsequenced)
        assert len(writes) == 1 and _unmask_client_frame(writes[0]) == (0xA, b"ping!"), writes
        core.arm(3)
        assert pipe.sent[-1][0] == "seq" and pipe.sent[-1][1] == 3
    # A snapshot is timed but never sequenced by "to"; its "seq" becomes the connection's.
    core, pipe = _core(snapshot=True)
    c = core.conns[0]
    core.feed(c, encode_frame(0x1, b'{"type":"snapshot","to":99}', mask=False), 5)
    assert c.snap_ns == 5 and c.log == [] and pipe.sent[-1][0] == "ready"
    # With a marker, a hello before the snapshot is skipped (the floor server's order).
    core, pipe = _core(snapshot=b'"type":"snapshot"')
    c = core.conns[0]
    core.feed(c, encode_frame(0x2, b'{"type":"hello","role":"wall"}', mask=False), 1)
    assert c.want_snap and core.preamble == 1 and not pipe.sent
    core.feed(c, encode_frame(0x2, b'{"type":"snapshot","seq":41,"x":{"to":7}}', mask=False), 2)
    assert c.snap_ns == 2 and c.last_seq == 41 and pipe.sent[-1][0] == "ready"
    core.arm(40)  # already there: answered at once, with the snapshot's time
    assert pipe.sent[-1][0] == "seq" and pipe.sent[-1][1] == 40
    # A close frame is echoed (masked) and reported.
    core, pipe = _core()
    c = core.conns[0]
    writes = []
    c.write = writes.append
    core.feed(c, encode_frame(0x8, struct.pack("!H", 1001), mask=False), 1)
    assert _unmask_client_frame(writes[0]) == (0x8, struct.pack("!H", 1001))
    assert pipe.sent[-1][0] == "error"
    print("parser: ok")


def check_live(backend: str, port: int) -> None:
    proc = start_server(
        "bench.wsload.baseline_server",
        ["--ping-interval", "0.2", "--snapshot-bytes", "70000"],
        port,
        0,
    )
    try:
        connect_control(port, proc).close()  # wait until it listens
        with LoadClients(
            f"ws://127.0.0.1:{port}/ws?p={{i}}",
            200,
            workers=2,
            first_message="{}",
            expect_snapshot=True,
            backend=backend,
        ) as clients:
            clients.start()
            time.sleep(1.5)  # several pings; unanswered, the server would close the clients
            ctl = connect_control(port, proc)  # (this blocking client only answers in recv)
            ctl.send(b"?")
            assert json.loads(ctl.recv())["n"] == 200
            for seq, size in ((1, 600), (2, 20000)):
                ctl.send(b"A" + event_message(seq, size))
                got = clients.wait_seq(seq, timeout=10)
                assert len(got.times) == 200
                json.loads(ctl.recv())
            stats = clients.harness_stats()
            assert stats.pongs >= 200, stats
        ctl.close()
    finally:
        stop_server(proc)
    print(
        f"live ({backend}): ok (200 clients, {stats.pongs} pings answered,"
        " 70 kB snapshot, 20 kB message)"
    )


if __name__ == "__main__":
    check_parser()
    check_live("epoll", 9950)
    check_live("uvloop", 9951)
