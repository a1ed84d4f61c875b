"""Run one broadcast server against N lean clients and time every message.

Shared by ``compare.py`` and ``harness_cost.py``. For one (server, N) pair it starts the server
in its own subprocess (pinned to ``server_cpu``), connects N clients through ``LoadClients``
(workers pinned to ``client_cpus``), opens the ``/control`` websocket, sends ``warmup`` untimed
messages and then ``messages`` timed ones, one at a time, each ~600 bytes of JSON carrying
``"to":seq``. Per message it records, in monotonic nanoseconds:

- ``t0``: the controller's clock just before the trigger frame is written to ``/control``;
- ``start``/``end``: the server's clock when it got the trigger and when its fan-out finished;
- every connection's first-read time of the message (``LoadClients.wait_seq``).

From those: latency to the last client (``last - t0``) and to the median client, server
fan-out (``end - start``, and per client), trigger delivery (``start - t0``), and the
receivers' tail (``last - end``: how long after the server's last write the last client had
read it, the part of the latency the harness can add).
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from bench.wsload.receivers import HarnessStats, LoadClients, WsClient

ROOT = Path(__file__).resolve().parents[2]
SUBSCRIBE = b'{"type":"subscribe","channel":"floor"}'
SNAPSHOT_BYTES = 2000


def event_message(seq: int, size: int = 600) -> bytes:
    """A ~``size``-byte event batch, ``"to"`` first so the receivers find it at once."""
    head = f'{{"to":{seq},"from":{seq - 1},"type":"events","events":['.encode()
    event = (
        b'{"type":"PlayerBusted","player":"P%05d","place":%d,"table":"T%03d","seat":%d,'
        b'"hand":%d,"at":1767225600.25}'
    )
    parts: list[bytes] = []
    k = 0
    while len(head) + sum(map(len, parts)) + len(parts) + 2 < size - 40:
        parts.append(event % (seq * 7 + k, 10000 - seq, k % 500, k % 10, seq))
        k += 1
    body = head + b",".join(parts) + b"]"
    pad = max(0, size - len(body) - 10)
    return body + b',"p":"' + b"-" * pad + b'"}'


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (with 50 samples, p99 is the largest)."""
    s = sorted(values)
    return s[max(0, math.ceil(q / 100 * len(s)) - 1)]


DISTURBED_MS = 0.25
DISTURBED_SHARE = 0.05
SAMPLES = (
    "last_ms",
    "median_ms",
    "fanout_ms",
    "trigger_ms",
    "tail_ms",
    "server_wait_ms",
    "rx_wait_ms",
)


@dataclass
class RunResult:
    label: str
    n: int
    last_ms: list[float] = field(default_factory=list)  # trigger -> last client
    median_ms: list[float] = field(default_factory=list)  # trigger -> median client
    fanout_ms: list[float] = field(default_factory=list)  # server fan-out, whole message
    trigger_ms: list[float] = field(default_factory=list)  # t0 -> server start
    tail_ms: list[float] = field(default_factory=list)  # server end -> last client read
    # Per message: how long the server / the busiest receiver worker sat runnable but not
    # running (/proc/PID/schedstat run_delay): > 0.25 ms means another process took its CPU.
    server_wait_ms: list[float] = field(default_factory=list)
    rx_wait_ms: list[float] = field(default_factory=list)
    connect_s: float = 0.0
    spin: bool = False
    foreign_load: float = 0.0  # % of one CPU used by other processes while measuring
    harness: HarnessStats | None = None
    error: str | None = None

    @property
    def fanout_per_client_us(self) -> list[float]:
        return [f * 1000 / self.n for f in self.fanout_ms]

    def disturbed(self, k: int) -> bool:
        """Was message ``k`` disturbed: did the server (or a spinning receiver worker) wait
        for its CPU longer than 0.25 ms and 5% of the fan-out (or of the latency)?

        Short waits are our own machinery (ksoftirqd running our loopback traffic, wake-up
        latency); a whole scheduler tick (4 ms) is another process. A sleeping receiver's
        run_delay is mostly its own wake-up latency, one per frame: no signal there."""
        if self.server_wait_ms[k] > max(DISTURBED_MS, DISTURBED_SHARE * self.fanout_ms[k]):
            return True
        limit = max(DISTURBED_MS, DISTURBED_SHARE * self.last_ms[k])
        return self.spin and self.rx_wait_ms[k] > limit

    def clean(self) -> RunResult:
        """Only the undisturbed messages (see ``disturbed``)."""
        keep = [k for k in range(len(self.last_ms)) if not self.disturbed(k)]
        out = RunResult(self.label, self.n, connect_s=self.connect_s, spin=self.spin)
        out.foreign_load, out.harness, out.error = self.foreign_load, self.harness, self.error
        for name in SAMPLES:
            values = getattr(self, name)
            getattr(out, name).extend(values[k] for k in keep)
        return out

    def med(self, name: str) -> float:
        return statistics.median(getattr(self, name))

    def p99(self, name: str) -> float:
        return percentile(getattr(self, name), 99)


def _proc_ticks(pid: int) -> int:
    """utime + stime of one process, in clock ticks (0 if it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0
    return int(fields[11]) + int(fields[12])


def run_delay_ns(pid: int) -> int:
    """Total time ``pid`` has spent runnable but waiting for a CPU (0 if unknown)."""
    try:
        with open(f"/proc/{pid}/schedstat") as f:
            return int(f.read().split()[1])
    except (OSError, IndexError, ValueError):
        return 0


def _busy_ticks() -> list[int]:
    """Per CPU: user + nice + system ticks (irq and softirq time are not charged to tasks)."""
    out = []
    with open("/proc/stat") as f:
        for line in f:
            if line.startswith("cpu") and line[3].isdigit():
                v = line.split()
                out.append(int(v[1]) + int(v[2]) + int(v[3]))
    return out


class ForeignLoad:
    """CPU time used on this machine by processes other than ours, during a measurement.

    The benchmark owns two CPUs' worth of time; anything else running (another engineer's
    benchmark, a test suite) shows up here as a percentage of one CPU.
    """

    def __init__(self, pids: list[int]) -> None:
        self.pids = [os.getpid(), *pids]
        self.hz = os.sysconf("SC_CLK_TCK")
        self.t0 = time.monotonic()
        self.busy0 = sum(_busy_ticks())
        self.mine0 = sum(_proc_ticks(p) for p in self.pids)

    def percent(self) -> float:
        wall = time.monotonic() - self.t0
        busy = sum(_busy_ticks()) - self.busy0
        mine = sum(_proc_ticks(p) for p in self.pids) - self.mine0
        return max(0.0, (busy - mine) / self.hz / wall * 100) if wall > 0 else 0.0


NICE = -20  # favour our processes over whatever else runs on this (shared) machine


def pin_self(cpus: set[int], nice: int | None = NICE) -> None:
    """Pin this process; with ``nice``, favour our whole session over other sessions.

    With ``kernel.sched_autogroup_enabled`` (as here), CPU shares are split between session
    autogroups first, so a process's own nice value only counts inside its session: the
    session's autogroup gets the nice value too. The servers and receiver workers this
    controller starts stay in its session.
    """
    os.sched_setaffinity(0, cpus)
    if nice is None:
        return
    os.setpriority(os.PRIO_PROCESS, 0, nice)
    try:
        with open("/proc/self/autogroup", "w") as f:
            f.write(str(nice))
    except OSError as e:
        print(f"(could not set the session's autogroup nice: {e})")


def start_server(module: str, args: list[str], port: int, cpu: int) -> subprocess.Popen[bytes]:
    cmd = [
        sys.executable,
        "-m",
        module,
        "--port",
        str(port),
        "--cpu",
        str(cpu),
        "--read-first",
        "--snapshot-bytes",
        str(SNAPSHOT_BYTES),
        "--nice",
        str(NICE),
        *args,
    ]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.Popen(cmd, cwd=ROOT, env=env)


def connect_control(port: int, proc: subprocess.Popen[bytes], timeout: float = 20.0) -> WsClient:
    deadline = time.monotonic() + timeout
    while True:
        try:
            return WsClient(f"ws://127.0.0.1:{port}/control", timeout=30.0)
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def run_one(
    label: str,
    module: str,
    server_args: list[str],
    n: int,
    *,
    port: int,
    messages: int = 50,
    warmup: int = 10,
    workers: int = 1,
    backend: str = "epoll",
    spin: bool = True,
    server_cpu: int = 0,
    client_cpus: set[int] | None = None,
    gap_s: float = 0.01,
    paused: bool = False,
) -> RunResult:
    client_cpus = client_cpus if client_cpus is not None else {1}
    result = RunResult(label, n, spin=spin)
    proc = start_server(module, server_args, port, server_cpu)
    ctl: WsClient | None = None
    try:
        ctl = connect_control(port, proc)
        with LoadClients(
            f"ws://127.0.0.1:{port}/ws?player=P{{i}}",
            n,
            workers=workers,
            cpus=client_cpus,
            headers={"Origin": f"http://127.0.0.1:{port}", "Cookie": "floor_session=s{i}"},
            first_message=SUBSCRIBE,
            expect_snapshot=True,
            backend=backend,
            spin=spin,
            nice=NICE,
        ) as clients:
            report = clients.start()
            result.connect_s = report.elapsed_s
            ctl.send(b"?")
            held = json.loads(ctl.recv())["n"]
            if held != n:
                raise RuntimeError(f"server holds {held} connections, expected {n}")
            load: ForeignLoad | None = None
            watched = [proc.pid, *clients.pids]
            for seq in range(1, warmup + messages + 1):
                frame = WsClient.frame(b"A" + event_message(seq))
                waits0 = [run_delay_ns(pid) for pid in watched]
                if paused:
                    clients.pause()
                t0 = time.monotonic_ns()
                ctl.sock.sendall(frame)
                if paused:  # only the server's own fan-out time means anything here
                    rep = json.loads(ctl.recv())
                    clients.resume()
                    got = clients.wait_seq(seq)
                else:
                    clients.arm(seq)  # after the trigger: a spinning worker must not delay it
                    got = clients.wait_seq(seq)
                    rep = json.loads(ctl.recv())
                if rep["n"] != n:
                    raise RuntimeError(f"server sent to {rep['n']} of {n}")
                if seq == warmup:
                    clients.reset_stats()
                    load = ForeignLoad([proc.pid, *clients.pids])
                waits = [
                    (run_delay_ns(pid) - w) / 1e6 for pid, w in zip(watched, waits0, strict=True)
                ]
                if seq > warmup:
                    result.server_wait_ms.append(waits[0])
                    result.rx_wait_ms.append(max(waits[1:]))
                    result.last_ms.append((got.last - t0) / 1e6)
                    result.median_ms.append((got.median - t0) / 1e6)
                    result.fanout_ms.append((rep["end"] - rep["start"]) / 1e6)
                    result.trigger_ms.append((rep["start"] - t0) / 1e6)
                    result.tail_ms.append((got.last - rep["end"]) / 1e6)
                time.sleep(gap_s)
            result.harness = clients.harness_stats()
            if load is not None:
                result.foreign_load = load.percent()
    except (RuntimeError, TimeoutError, OSError) as e:
        result.error = str(e)
    finally:
        if ctl is not None:
            ctl.close()
        stop_server(proc)
    return result


def pool(results: list[RunResult]) -> RunResult:
    """One result holding every round's samples."""
    first = results[0]
    out = RunResult(first.label, first.n, spin=first.spin)
    errors = [r.error for r in results if r.error]
    out.error = "; ".join(errors) if errors else None
    for r in results:
        for name in SAMPLES:
            getattr(out, name).extend(getattr(r, name))
    ok = [r for r in results if r.harness is not None]
    out.connect_s = max(r.connect_s for r in results)
    out.foreign_load = statistics.mean(r.foreign_load for r in results)
    if ok:
        assert ok[0].harness is not None
        h = out.harness = dataclasses.replace(ok[0].harness)
        for r in ok[1:]:
            assert r.harness is not None
            h.frames += r.harness.frames
            h.cpu_ns += r.harness.cpu_ns
            h.busy_ns += r.harness.busy_ns
    return out
