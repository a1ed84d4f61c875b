"""How much of a fan-out figure is the load generator (the harness) itself.

Runs the bare ``websockets.broadcast`` server (pinned to CPU 0) against the lean receivers
(pinned to CPU 1) in several receiver configurations, interleaved over ``--rounds``, and
prints per configuration (over undisturbed messages, as in ``compare.py``):

- ``cpu/frm``: receiver CPU (user+system) per frame, all workers together (not meaningful
  for the spinning or paused configurations) and ``busy/frm``: wall time inside read+parse
  per frame (epoll: ``recv`` + parse; uvloop: parse only, uvloop's own read is not counted);
- ``tail``: the last client's read minus the server's end of fan-out (what the harness adds
  to the latency figure);
- ``fan/cl``: the server's own fan-out time per client, because the receivers can change it:
  on loopback the sender's ``write`` runs the receiving TCP stack and wakes the reader, and
  waking a sleeping reader (an IPI; in a VM, an exit) is charged to the server. The
  ``paused`` configuration SIGSTOPs the workers during each fan-out, so nothing is woken;
- trigger-to-last-client latency; with N=1 this is the "send to one connection" figure.

    python -m bench.wsload.harness_cost [--counts 1,1000,5000] [--messages 50] [--rounds 2]
"""

from __future__ import annotations

import argparse
import itertools
import statistics

from bench.wsload.receivers import raise_nofile
from bench.wsload.runner import RunResult, pin_self, pool, run_one

CONFIGS: list[tuple[str, dict[str, object]]] = [
    ("epoll  K=1 sleep", {"backend": "epoll", "workers": 1, "spin": False}),
    ("epoll  K=1 spin", {"backend": "epoll", "workers": 1, "spin": True}),
    ("epoll  K=2 sleep", {"backend": "epoll", "workers": 2, "spin": False}),
    ("uvloop K=1 sleep", {"backend": "uvloop", "workers": 1, "spin": False}),
    ("uvloop K=2 sleep", {"backend": "uvloop", "workers": 2, "spin": False}),
    # Workers SIGSTOPped during each fan-out: the server's cost with no reader to wake.
    ("epoll  K=1 paused", {"backend": "epoll", "workers": 1, "spin": False, "paused": True}),
]


def row(raw: RunResult) -> str:
    r = raw.clean()
    if r.error or len(r.last_ms) < 2:
        return f"{r.label:<18} {r.n:>5}  ERROR {r.error or 'no undisturbed message'}"
    h = r.harness
    assert h is not None
    plain = "spin" not in r.label and "paused" not in r.label
    cpu = f"{h.cpu_per_frame_ns / 1000:.2f}" if plain else "-"
    return (
        f"{r.label:<18} {r.n:>5} {cpu:>8} {h.busy_per_frame_ns / 1000:>8.2f}"
        f" {r.med('tail_ms'):>8.3f} {r.p99('tail_ms'):>8.3f}"
        f" {statistics.median(r.fanout_per_client_us):>9.2f}"
        f" {r.med('last_ms'):>8.2f} {r.p99('last_ms'):>8.2f} {r.med('trigger_ms'):>8.3f}"
        f" {len(r.last_ms):>4}/{len(raw.last_ms):<4}"
    )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--counts", default="1,1000,5000")
    p.add_argument("--messages", type=int, default=50)
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--port", type=int, default=9300)
    args = p.parse_args()
    raise_nofile()
    pin_self({1})
    counts = [int(x) for x in args.counts.split(",")]
    ports = itertools.count(args.port)
    print(
        "server: bare websockets.broadcast on CPU 0; receivers and controller on CPU 1\n"
        f"{'receivers':<18} {'N':>5} {'cpu/frm':>8} {'busy/frm':>8} {'tail med':>8}"
        f" {'tail p99':>8} {'fan/cl':>9} {'lat med':>8} {'lat p99':>8} {'trig med':>8} kept\n"
        f"{'':<18} {'':>5} {'(us)':>8} {'(us)':>8} {'(ms)':>8} {'(ms)':>8} {'(us)':>9}"
        f" {'(ms)':>8} {'(ms)':>8} {'(ms)':>8}",
        flush=True,
    )
    for n in counts:
        runs: dict[str, list[RunResult]] = {label: [] for label, _ in CONFIGS}
        for rnd in range(args.rounds):
            order = CONFIGS[rnd % len(CONFIGS) :] + CONFIGS[: rnd % len(CONFIGS)]
            for label, cfg in order:
                runs[label].append(
                    run_one(
                        label,
                        "bench.wsload.baseline_server",
                        ["--fanout", "broadcast"],
                        n,
                        port=next(ports),
                        messages=args.messages,
                        **cfg,  # type: ignore[arg-type]
                    )
                )
        for label, _ in CONFIGS:
            print(row(pool(runs[label])), flush=True)


if __name__ == "__main__":
    main()
