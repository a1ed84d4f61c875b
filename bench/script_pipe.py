"""Benchmark: a script through redis-py's client beside the same script on ``ScriptPipe``.

The desk's take makes two script calls to Valkey besides its registration
(``floor/redisdb/desk.py``); the server sends them on a pipelined connection of their own
(``floor/redisdb/pipe.py``). This measures the CPU this process spends per call each way, on
uvloop as the server runs, against an embedded Valkey: ``--calls`` calls ten at once (desks
taking players together) and one at a time. The script is the size of the take's first
read (an HGET and a GET). It prints, never fails the run on a timing.

    .venv/bin/python bench/script_pipe.py [--calls 4000]
"""

from __future__ import annotations

import argparse
import asyncio
import resource
import sys
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import uvloop

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from floor.redisdb.connection import connect
from floor.redisdb.embedded import EmbeddedServer
from floor.redisdb.pipe import Script, ScriptPipe

BODY = "return {redis.call('HGET', KEYS[1], ARGV[1]), redis.call('GET', KEYS[2])}"
KEYS = ["floor:{@house}:desk:entries", "floor:{@house}:desk:settings"]


def cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def measure(one: Callable[[], Awaitable[Any]], calls: int, at_once: int) -> float:
    """The CPU seconds a call, ``at_once`` callers sharing ``calls`` calls."""
    for _ in range(200):
        await one()

    async def caller() -> None:
        for _ in range(calls // at_once):
            await one()

    before = cpu()
    await asyncio.gather(*(caller() for _ in range(at_once)))
    return (cpu() - before) / calls


async def main(url: str, calls: int) -> None:
    client = connect(url)
    registered = client.register_script(BODY)
    pipe = ScriptPipe.for_url(url)
    assert pipe is not None
    script = Script(BODY)
    ways: dict[str, Callable[[], Awaitable[Any]]] = {
        "redis-py": lambda: registered(keys=KEYS, args=["x"]),
        "pipe": lambda: pipe.run(script, KEYS, ["x"]),
    }
    try:
        print(f"{calls} script calls each way, CPU of this process per call (us)")
        print(f"{'':12} {'redis-py':>9} {'pipe':>9} {'ratio':>7}")
        for at_once in (10, 1):
            got = {name: await measure(one, calls, at_once) for name, one in ways.items()}
            ratio = got["redis-py"] / got["pipe"]
            print(
                f"{at_once:>2} at once   {got['redis-py'] * 1e6:9.0f} {got['pipe'] * 1e6:9.0f}"
                f" {ratio:6.1f}x"
            )
    finally:
        await pipe.aclose()
        await client.aclose()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=4000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        valkey = EmbeddedServer(Path(tmp) / "valkey")
        valkey.start()
        try:
            uvloop.run(main(valkey.url, args.calls))
        finally:
            valkey.stop()
