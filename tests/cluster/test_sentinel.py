"""floor on a Sentinel-managed primary: a failover under load, and the replication guard.

A primary with two replicas and three sentinels (quorum 2, the primary called down after a
second). Replication is asynchronous, so by itself an acknowledged command could be lost
when the primary dies before a replica has it. With ``FLOOR_REDIS_WAIT_REPLICAS=1`` the
store pipelines ``WAIT 1`` behind each append and acknowledges a command only once a replica
holds it; Sentinel promotes the replica with the most data, so an acknowledged command
survives the failover. A command that was not acknowledged (503, or no answer) is resent
with the same command id, as a phone does, and is then either answered from the stored
result or written anew.
"""

from __future__ import annotations

import os
import random
import signal
import time
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest
from redis import Redis

from floor.engine import commands as cmd
from floor.engine.rules import Rules
from floor.protocol import decode_event
from floor.redisdb.connection import connect
from floor.redisdb.keys import Keys
from floor.redisdb.log import RedisLog
from floor.store.errors import Unavailable
from floor.store.service import Service
from tests.cluster.conftest import Sentinels, eventually, follow, send
from tests.e2e.conftest import Api, ServerProcess, add_user, sign_in
from tests.e2e.screens import Screen, as_public, state_json

RULES = msgspec.convert({"game": "holdem", "seats": 9, "final_table": 9}, Rules)


def _version_on(port: int, tid: str) -> int:
    with Redis(port=port, socket_timeout=2) as r:
        return int(r.hget(Keys(tid).meta, "version") or 0)


async def test_a_command_is_acknowledged_only_once_a_replica_holds_it(
    sentinels: Sentinels,
) -> None:
    store = Service(
        RedisLog(connect(sentinels.url), wait_replicas=1, wait_timeout=0.3), rng=random.Random(1)
    )
    try:
        await store.create("guard", "guard", RULES)
        for i in range(20):
            await store.execute("guard", cmd.Register(name=f"Player {i}", player=f"P{i}"), f"r{i}")
        assert (await store.execute("guard", cmd.DrawSeats(), "draw")).ok
        _, version = await store.tournament("guard")
        primary = sentinels.primary_port()
        assert primary is not None
        replicas = [n for n in sentinels.nodes if n.running and n.port != primary]
        # The replicas stopped (as if cut off): the write lands on the primary only...
        for replica in replicas:
            assert replica.pid is not None
            os.kill(replica.pid, signal.SIGSTOP)
        try:
            with pytest.raises(Unavailable, match="0 of 1 replicas confirmed"):
                await store.execute("guard", cmd.Bust(player="P3"), "phone-1:9")
            assert _version_on(primary, "guard") == version + 1
        finally:
            for replica in replicas:
                assert replica.pid is not None
                os.kill(replica.pid, signal.SIGCONT)
        # ...and the phone's resend is acknowledged once a replica has caught up.
        again = await store.execute("guard", cmd.Bust(player="P3"), "phone-1:9")
        assert again.ok and again.duplicate and (again.first, again.last) == (version + 1,) * 2
        for replica in replicas:
            eventually(
                lambda port=replica.port: _version_on(port, "guard") == version + 1,  # type: ignore[misc]
                5,
                "the replicas have the write",
            )
    finally:
        await store.log.redis.aclose()


@pytest.fixture
def server(
    sentinels: Sentinels, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServerProcess]:
    add_user(sentinels.url, "boss", "director-secret", "director")
    proc = ServerProcess(
        sentinels.url,
        tmp_path_factory.mktemp("sentinel-logs") / "server.log",
        FLOOR_REDIS_WAIT_REPLICAS="1",
    )
    try:
        proc.start()
        yield proc
    finally:
        proc.stop()


async def test_the_server_rides_out_a_failover_and_loses_nothing_it_acknowledged(
    sentinels: Sentinels, server: ServerProcess
) -> None:
    director = Api(server, sign_in(server, "boss", "director-secret"))
    tid = "failover"
    director.create(tid, 40)
    screen = await Screen.open(server.ws + f"/ws/t/{tid}")
    screen.take(await screen.receive())
    acked: dict[str, Any] = {}
    failed = 0
    try:
        for n in range(1, 6):
            acked[f"P{n}"], _ = send(director, tid, {"type": "bust", "player": f"P{n}"}, f"b{n}", 5)
        await screen.until(int(director.state(tid)["seq"]))  # type: ignore[call-overload]

        old_primary = sentinels.primary.port
        killed_at = time.monotonic()
        sentinels.primary.kill()
        # Staff keep busting players through the outage; each command is resent (same
        # id) until the server acknowledges it, as the floor phones do.
        for n in range(6, 16):
            bust = {"type": "bust", "player": f"P{n}"}
            acked[f"P{n}"], missed = send(director, tid, bust, f"b{n}", 30)
            failed += len(missed)
        outage = time.monotonic() - killed_at
        assert failed > 0  # there was an outage, and commands were resent through it
        new_primary = sentinels.primary_port()
        assert new_primary in {r.port for r in sentinels.replicas}, new_primary
        assert new_primary != old_primary

        # The screen is given a fresh snapshot when the server's pub/sub comes back (or is
        # dropped, if that failed, and reconnects with its last number) and then follows.
        end = int(director.state(tid)["seq"])  # type: ignore[call-overload]
        screen = await follow(server.ws + f"/ws/t/{tid}", screen, end, timeout=15)
        assert screen.t is not None
        assert state_json(screen.t) == as_public(director.state(tid)["state"])
        # A screen that reconnects with its last number is caught up from the log.
        late = await Screen.open(server.ws + f"/ws/t/{tid}", since=end - 3)
        first = await late.receive()
        # From the batches this server holds (whole, so it may begin before end - 2) or
        # from the log: either way the first event it lacked comes first, nothing is missing.
        assert first["type"] == "events" and first["from"] <= end - 2 <= first["to"], first
        await late.close()

        # Every acknowledged command is in the new primary's log, where it was acknowledged.
        with Redis(port=new_primary, socket_timeout=2) as r:
            log = {
                int(i.split(b"-")[0]): decode_event(f[b"e"])
                for i, f in r.xrange(Keys(tid).events, "-", "+")
            }
        assert sorted(log) == list(range(1, len(log) + 1))
        for player, outcome in acked.items():
            assert outcome["ok"], (player, outcome)
            busted = [log[seq] for seq in range(outcome["first"], outcome["last"] + 1)]
            assert any(getattr(e, "player", None) == player for e in busted), (player, busted)
        store = Service(RedisLog(connect(sentinels.url)))
        try:
            t, version = await store.load(tid)
            assert version == len(log) == end
            assert state_json(t) == director.state(tid)["state"]
        finally:
            await store.log.redis.aclose()
        print(f"\nsentinel failover: {failed} sends refused, {outage:.1f} s for 10 commands")
    finally:
        await screen.close()
        director.client.close()
