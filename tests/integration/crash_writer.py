"""A writer process for the crash tests: a simulated floor applying commands through the store.

Run from the repository root::

    python -m tests.integration.crash_writer --url unix:///path/valkey.sock --tid crash \
        --seed 7 [--players 300] [--steps N] [--snapshot-every 50]

It creates the tournament (``--players`` registered, then the seats drawn) or continues the
one already in Redis, then applies what the simulated floor does next (``next_step``:
bust-outs, hands, buttons, the plan's moves) until ``--steps`` commands were applied or
there is a winner.

Everything is deterministic given the seed and the state in Redis, so a writer restarted
after a crash carries on where the log ends: the command decided at version ``V`` is drawn
from ``Random(f"{seed}:{V}")`` and has the command id ``s<seed>-v<V>``. A command is only
ever decided once per version, so ids are unique; a retry keeps its id, so the store answers
it with the first result if it was written before the failure.

stdout, one line per acknowledged outcome, flushed at once (a line is printed only after
Redis has answered, so a line means "acknowledged")::

    ack <command id> <ok 0|1> <first seq> <last seq> <duplicate 0|1>

plus ``ready <version>`` once set up and ``finished <version>`` when there is a winner or
``stopped <version>`` after ``--steps``. stderr, one line per failed attempt::

    retry <command id> attempt=<n> took=<seconds> error=<message>

On ``Unavailable`` the same command is retried with the same id, with exponential backoff,
for at most ``--retry-for`` seconds; then the writer gives up with exit status 2. Status 3:
the store refused or ignored a command of the simulated floor (a bug somewhere).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

import msgspec

from floor.engine import commands as cmd
from floor.engine.autopilot import next_step
from floor.engine.commands import Command
from floor.engine.rules import Rules
from floor.redisdb.connection import CALL_TIMEOUT, CONNECT_TIMEOUT, connect
from floor.redisdb.log import RedisLog
from floor.store.errors import NotFound, Unavailable
from floor.store.outcome import Outcome
from floor.store.service import Service

RULES = msgspec.convert({"game": "holdem", "seats": 9, "final_table": 9}, Rules)

T = TypeVar("T")


class GaveUp(Exception):
    pass


def emit(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def complain(line: str) -> None:
    sys.stderr.write(line + "\n")
    sys.stderr.flush()


def ack(cid: str, outcome: Outcome) -> None:
    emit(f"ack {cid} {int(outcome.ok)} {outcome.first} {outcome.last} {int(outcome.duplicate)}")


class Writer:
    def __init__(self, store: Service, tid: str, seed: int, retry_for: float) -> None:
        self.store = store
        self.tid = tid
        self.seed = seed
        self.retry_for = retry_for

    async def retrying(self, cid: str, call: Callable[[], Awaitable[T]]) -> T:
        """``call()`` until Redis answers: same command, same id, backoff 20ms..500ms."""
        deadline = time.monotonic() + self.retry_for
        delay = 0.02
        attempt = 0
        while True:
            attempt += 1
            start = time.monotonic()
            try:
                return await call()
            except Unavailable as e:
                took = time.monotonic() - start
                message = str(e).replace("\n", " ")
                complain(f"retry {cid} attempt={attempt} took={took:.3f} error={message}")
                if time.monotonic() + delay > deadline:
                    raise GaveUp(f"{cid}: Redis still unreachable after {attempt} attempts") from e
                await asyncio.sleep(delay)
                delay = min(delay * 2, 0.5)

    async def execute(self, command: Command, cid: str, decide_seed: str) -> Outcome:
        def attempt() -> Awaitable[Outcome]:
            # The store's own random source (seat draws) is seeded per command too.
            self.store.rng = random.Random(decide_seed)
            return self.store.execute(self.tid, command, cid)

        outcome = await self.retrying(cid, attempt)
        ack(cid, outcome)
        return outcome

    async def set_up(self, players: int) -> None:
        """Create, register and draw, each with a fixed id: repeating it changes nothing."""
        try:
            t, _ = await self.retrying("load", lambda: self.store.tournament(self.tid))
        except NotFound:
            pass
        else:
            if t.state.drawn:
                return
        cid = f"create-{self.tid}"
        outcome = await self.retrying(
            cid, lambda: self.store.create(self.tid, "Crash test", RULES, command_id=cid)
        )
        ack(cid, outcome)
        for i in range(players):
            command = cmd.Register(name=f"Player {i}", player=f"P{i}")
            await self.execute(command, f"reg-{i}", f"{self.seed}:reg:{i}")
        await self.execute(cmd.DrawSeats(), "draw", f"{self.seed}:draw")

    async def play(self, steps: int) -> str:
        for _ in range(steps):
            t, version = await self.retrying("load", lambda: self.store.tournament(self.tid))
            command = next_step(t, random.Random(f"{self.seed}:{version}"))
            if command is None:
                return "finished"
            cid = f"s{self.seed}-v{version}"
            outcome = await self.execute(command, cid, f"{self.seed}:decide:{version}")
            if not outcome.ok or (outcome.events == 0 and not outcome.duplicate):
                complain(f"error {cid} {command!r} gave {outcome!r}")
                raise SystemExit(3)
        return "stopped"


async def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="crash-test writer")
    parser.add_argument("--url", required=True)
    parser.add_argument("--tid", default="crash")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--steps", type=int, default=10**9)
    parser.add_argument("--snapshot-every", type=int, default=50)
    parser.add_argument("--retry-for", type=float, default=30.0)
    parser.add_argument("--connect-timeout", type=float, default=CONNECT_TIMEOUT)
    parser.add_argument("--call-timeout", type=float, default=CALL_TIMEOUT)
    args = parser.parse_args(argv)

    redis = connect(args.url, connect_timeout=args.connect_timeout, call_timeout=args.call_timeout)
    store = Service(RedisLog(redis), snapshot_every=args.snapshot_every)
    writer = Writer(store, args.tid, args.seed, args.retry_for)
    try:
        await writer.set_up(args.players)
        _, version = await writer.retrying("load", lambda: store.tournament(args.tid))
        emit(f"ready {version}")
        how = await writer.play(args.steps)
        _, version = await writer.retrying("load", lambda: store.tournament(args.tid))
        emit(f"{how} {version}")
    except GaveUp as e:
        complain(f"gave up: {e}")
        return 2
    finally:
        await redis.aclose()
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
