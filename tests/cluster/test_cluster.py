"""floor on a real three-primary Valkey cluster: the store and the staff accounts, then two
`floor serve` processes with screens on both, the clock lease, and a primary lost.

Every key of a tournament carries the hash tag ``{id}``, so a tournament lives on one
primary: its append script, its stream, its command results and its sharded pub/sub
channel. The tests pick tournament ids that land on each of the three primaries, and check
that the cluster agrees.
"""

from __future__ import annotations

import asyncio
import hashlib
import random
import time
from collections.abc import AsyncIterator, Iterator

import httpx
import msgspec
import pytest
import pytest_asyncio
from argon2 import PasswordHasher
from redis import Redis

from floor.engine import commands as cmd
from floor.engine.autopilot import next_step
from floor.engine.rules import Rules
from floor.engine.state import Tournament
from floor.protocol import decode_batch, decode_event
from floor.redisdb.accounts import RedisAccounts
from floor.redisdb.connection import connect, is_cluster
from floor.redisdb.devices import RedisDevices
from floor.redisdb.keys import Keys
from floor.redisdb.log import RedisLog
from floor.redisdb.signouts import RedisSignOuts
from floor.server.accounts import Accounts
from floor.server.principal import BadCredentials, NoSuchAccount, TooManyAttempts
from floor.server.tablets import Tablets
from floor.store.errors import AlreadyExists
from floor.store.service import Service
from tests.cluster.conftest import Cluster, follow, send
from tests.e2e.conftest import Api, ServerProcess, add_user, sign_in
from tests.e2e.screens import Screen, as_public, state_json

RULES = msgspec.convert({"game": "holdem", "seats": 9, "final_table": 9}, Rules)


def encoded(t: Tournament) -> bytes:
    return msgspec.msgpack.encode(t.state)


async def seated(store: Service, tid: str, players: int) -> None:
    await store.create(tid, tid, RULES)
    for i in range(players):
        await store.execute(tid, cmd.Register(name=f"Player {i}", player=f"P{i}"), f"reg-{i}")
    assert (await store.execute(tid, cmd.DrawSeats(), "draw")).ok


@pytest_asyncio.fixture
async def stores(cluster: Cluster) -> AsyncIterator[tuple[Service, Service]]:
    """Two stores, as two processes would hold them, each with its own cluster client."""
    a = Service(RedisLog(connect(cluster.url)), rng=random.Random(1), snapshot_every=20)
    b = Service(RedisLog(connect(cluster.url)), rng=random.Random(2), snapshot_every=20)
    try:
        yield a, b
    finally:
        await a.log.redis.aclose()
        await b.log.redis.aclose()


# The store on a cluster ------------------------------------------------------------------


def test_every_key_of_a_tournament_is_in_one_slot_and_the_ids_cover_every_primary(
    cluster: Cluster,
) -> None:
    tids = cluster.ids_on_every_primary("slots")
    owners = set()
    with Redis(port=cluster.ports[0]) as r:
        for tid in tids:
            k = Keys(tid)
            names = [k.meta, k.events, k.snapshot, k.channel, k.command("phone-1:7")]
            slots = {int(r.execute_command("CLUSTER", "KEYSLOT", n)) for n in names}
            assert len(slots) == 1, (tid, slots)
            owners.add(cluster.owner(k.meta))
    assert owners == set(cluster.primaries())


async def test_the_store_on_a_cluster_creates_executes_reloads_and_replays(
    cluster: Cluster, stores: tuple[Service, Service]
) -> None:
    a, _ = stores
    assert is_cluster(a.log.redis)
    for tid in cluster.ids_on_every_primary("store"):
        await seated(a, tid, 30)
        rng = random.Random(tid)
        for i in range(60):
            t, _ = await a.tournament(tid)
            step = next_step(t, rng)
            if step is None:
                break
            assert (await a.execute(tid, step, f"step-{i}")).ok
        held, version = await a.tournament(tid)
        loaded, loaded_version = await a.load(tid)
        assert (loaded_version, encoded(loaded)) == (version, encoded(held))
        raw = await a.log.redis.xrange(Keys(tid).events, "-", "+")
        assert [int(i.split(b"-")[0]) for i, _ in raw] == list(range(1, version + 1))
        replay = Tournament.fold(decode_event(f[b"e"]) for _, f in raw)
        assert encoded(replay) == encoded(held)
        # Snapshots were taken (every 20 events) and are in the tournament's slot too.
        assert int(await a.log.redis.hget(Keys(tid).meta, "snapshot")) > 0
        # The keys are really on the primary that owns the slot.
        with Redis(port=cluster.owner(Keys(tid).meta)) as node:
            assert node.exists(Keys(tid).meta, Keys(tid).events, Keys(tid).snapshot) == 3
    listed = {s.id for s in await a.summaries()}
    assert set(cluster.ids_on_every_primary("store")) <= listed


async def test_conflicting_commands_from_two_stores_one_wins_and_retries_are_idempotent(
    cluster: Cluster, stores: tuple[Service, Service]
) -> None:
    a, b = stores
    for tid in cluster.ids_on_every_primary("race"):
        await seated(a, tid, 20)
        await b.tournament(tid)
        results = await asyncio.gather(
            a.execute(tid, cmd.Bust(player="P7"), "floor-a-1"),
            b.execute(tid, cmd.Bust(player="P7"), "floor-b-1"),
        )
        assert sorted(r.ok for r in results) == [False, True]
        refused = next(r for r in results if not r.ok)
        assert refused.error is not None and refused.error.message == "P7 is already out"
        first = await a.execute(tid, cmd.Bust(player="P1"), "phone-7:42")
        again = await b.execute(tid, cmd.Bust(player="P1"), "phone-7:42")
        assert first.ok and not first.duplicate
        assert again.duplicate and (again.first, again.last) == (first.first, first.last)
        _, version = await a.load(tid)
        assert version == first.last
        with pytest.raises(AlreadyExists):
            await b.create(tid, "again", RULES, command_id="another")


async def test_events_since_and_sharded_pubsub_follow_every_primary(
    cluster: Cluster, stores: tuple[Service, Service]
) -> None:
    writer, reader = stores
    tids = cluster.ids_on_every_primary("follow")
    for tid in tids:
        await seated(writer, tid, 20)
        await reader.tournament(tid)
    versions = {tid: (await writer.tournament(tid))[1] for tid in tids}
    pubsub = reader.log.redis.pubsub()
    try:
        for tid in tids:
            await pubsub.ssubscribe(Keys(tid).channel)
        for tid in tids:
            await writer.execute(tid, cmd.Bust(player="P2"), "b-2")
            await writer.execute(tid, cmd.Bust(player="P3"), "b-3")
        got: dict[str, int] = dict.fromkeys(tids, 0)
        deadline = time.monotonic() + 10
        while sum(got.values()) < 2 * len(tids):
            assert time.monotonic() < deadline, f"batches not all published: {got}"
            msg = await pubsub.get_sharded_message(timeout=0.1)
            if msg is None or msg["type"] != "smessage":
                continue
            batch = decode_batch(msg["data"])
            await reader.apply_published(msg["data"])
            got[batch.tournament] += 1
    finally:
        await pubsub.aclose()
    for tid in tids:
        w, wv = await writer.tournament(tid)
        r, rv = await reader.tournament(tid)
        assert (rv, encoded(r)) == (wv, encoded(w))
        missed = await reader.events_since(tid, versions[tid])
        assert missed is not None and len(missed) == wv - versions[tid]
        assert await reader.events_since(tid, 0, limit=5) is None


async def test_staff_accounts_sessions_and_sign_in_limits_work_across_shards(
    cluster: Cluster,
) -> None:
    """The staff hash, each session, each account's session index and each rate-limit
    counter hash to slots of their own: every command and script touches one key, and
    signing everybody out (one DEL per session) spans shards in one pipeline."""
    redis = connect(cluster.url)
    hasher = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
    accounts = Accounts(RedisAccounts(redis), hasher=hasher)
    try:
        await accounts.add("clusterboss", "director-secret", "director")
        await accounts.add("clusterfloor", "floor-secret", "floor")
        sessions = [
            await accounts.sign_in("clusterfloor", "floor-secret", f"10.0.0.{i}") for i in range(8)
        ]
        shards = {
            cluster.owner("floor:session:" + hashlib.sha256(s.token.encode()).hexdigest())
            for s in sessions
        }
        assert len(shards) > 1  # (8 random tokens on one shard of three: 1 in 729)
        for s in sessions:
            principal = await accounts.principal(s.token)
            assert principal is not None and principal.username == "clusterfloor"
        assert await accounts.sign_out_all("clusterfloor") == len(sessions)
        assert all([await accounts.principal(s.token) is None for s in sessions])
        for _ in range(5):
            with pytest.raises(BadCredentials):
                await accounts.sign_in("clusterfloor", "wrong-secret", "10.9.9.9")
        with pytest.raises(TooManyAttempts):
            await accounts.sign_in("clusterfloor", "floor-secret", "10.9.9.9")
        assert await accounts.unlock("clusterfloor") == 1
        await accounts.sign_in("clusterfloor", "floor-secret", "10.9.9.9")
        await accounts.set_secret("clusterfloor", "new-floor-secret")
        with pytest.raises(NoSuchAccount):
            await accounts.remove("nobody")
        await accounts.remove("clusterfloor")
        assert await accounts.get("clusterfloor") is None
        await accounts.add("clusterboss2", "director-secret", "director")
        await accounts.remove("clusterboss")  # another director is left
        # The sign-out feed is one stream key: read and written on whichever shard holds it.
        feed = RedisSignOuts(redis, block=0.2)
        heard = feed.announcements()
        first = asyncio.ensure_future(anext(heard))
        await asyncio.sleep(0.3)
        await feed.announce("clusterfloor")
        assert await asyncio.wait_for(first, 10) == "clusterfloor"
        await heard.aclose()  # type: ignore[attr-defined]
    finally:
        await redis.aclose()


async def test_table_screens_pair_list_move_and_end_across_shards(cluster: Cluster) -> None:
    """Codes, devices, their tokens and the list of them hash to slots of their own: every
    command and script touches one key, and the list reads the devices in one pipeline."""
    redis = connect(cluster.url)
    hasher = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
    devices = RedisDevices(redis)
    accounts = Accounts(RedisAccounts(redis), hasher=hasher, devices=devices)
    tablets = Tablets(accounts, devices)
    try:
        await accounts.add("clusterdealer", "2468", "dealer", pin=True)
        tokens = []
        for table in range(1, 9):
            code = await tablets.issue("cluster-t", table, "floor")
            tokens.append((await tablets.redeem(code.code, "10.0.0.1")).token)
        screens = [await accounts.principal(t) for t in tokens]
        assert [s.table for s in screens if s is not None] == list(range(1, 9))
        listed = await tablets.list()
        assert sorted(t.table for t in listed if t.tournament == "cluster-t") == list(range(1, 9))
        first = screens[0]
        assert first is not None and first.device is not None
        await tablets.sign_in_dealer(first, "clusterdealer", "2468")
        moved = await tablets.move(first.device, "cluster-u", 5)
        assert (moved.tournament, moved.table, moved.dealer) == ("cluster-u", 5, None)
        for screen in screens:
            assert screen is not None and screen.device is not None
            await tablets.revoke(screen.device)
        assert [await accounts.principal(t) for t in tokens] == [None] * 8
    finally:
        await redis.aclose()


# Two floor processes on the cluster ------------------------------------------------------


@pytest.fixture(scope="module")
def servers(
    cluster: Cluster, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[list[ServerProcess]]:
    logs = tmp_path_factory.mktemp("cluster-logs")
    add_user(cluster.url, "boss", "director-secret", "director")
    procs = [ServerProcess(cluster.url, logs / f"server-{i}.log") for i in range(2)]
    try:
        for p in procs:
            p.start()
        yield procs
    finally:
        for p in procs:
            p.stop()


@pytest.fixture(scope="module")
def directors(servers: list[ServerProcess]) -> Iterator[list[Api]]:
    apis = [Api(s, sign_in(s, "boss", "director-secret")) for s in servers]
    yield apis
    for api in apis:
        api.client.close()


def seq_of(api: Api, tid: str) -> int:
    return int(api.state(tid)["seq"])  # type: ignore[call-overload]


def settled(apis: list[Api], tid: str, timeout: float = 5.0) -> int:
    """The sequence number once every process serves the same one (each follows the
    others' writes through pub/sub, so a read right after a write elsewhere may lag)."""
    deadline = time.monotonic() + timeout
    while True:
        seqs = {seq_of(api, tid) for api in apis}
        if len(seqs) == 1:
            return seqs.pop()
        assert time.monotonic() < deadline, f"{tid}: the processes disagree: {seqs}"
        time.sleep(0.02)


async def test_commands_on_either_process_reach_screens_on_both_for_tournaments_on_every_primary(
    cluster: Cluster, servers: list[ServerProcess], directors: list[Api]
) -> None:
    tids = cluster.ids_on_every_primary("live")
    for i, tid in enumerate(tids):
        directors[i % 2].create(tid, 30)
    screens = {
        tid: [await Screen.open(s.ws + f"/ws/t/{tid}") for s in servers for _ in range(2)]
        for tid in tids
    }
    try:
        for group in screens.values():
            for s in group:
                s.take(await s.receive())
        starts = {tid: seq_of(directors[0], tid) for tid in tids}
        # Staff on both processes, interleaved across the three primaries.
        for n, pid in enumerate(("P1", "P2", "P3", "P4")):
            for i, tid in enumerate(tids):
                directors[(n + i) % 2].ok(tid, {"type": "bust", "player": pid})
        for tid in tids:
            end = settled(directors, tid)
            assert end > starts[tid]
            expected = as_public(directors[0].state(tid)["state"])
            for s in screens[tid]:
                await s.until(end)
                assert s.seqs == list(range(starts[tid] + 1, end + 1))
                assert s.t is not None
                assert state_json(s.t) == expected
    finally:
        for group in screens.values():
            for s in group:
                await s.close()
    # Reloading from the cluster (snapshot plus tail) gives the replay of the whole log,
    # and what the processes serve.
    store = Service(RedisLog(connect(cluster.url)))
    try:
        for tid in tids:
            t, version = await store.load(tid)
            raw = await store.log.redis.xrange(Keys(tid).events, "-", "+")
            assert [int(i.split(b"-")[0]) for i, _ in raw] == list(range(1, version + 1))
            replay = Tournament.fold(decode_event(f[b"e"]) for _, f in raw)
            assert encoded(replay) == encoded(t)
            assert version == seq_of(directors[0], tid)
            assert state_json(t) == directors[1].state(tid)["state"]
    finally:
        await store.log.redis.aclose()


async def test_a_delivery_is_prompt_whichever_primary_holds_the_tournament(
    cluster: Cluster, servers: list[ServerProcess], directors: list[Api]
) -> None:
    """A screen following tournaments on all three shards is not held up by the quiet ones."""
    tids = cluster.ids_on_every_primary("prompt")
    for tid in tids:
        directors[0].create(tid, 10)
    screens = [await Screen.open(servers[1].ws + f"/ws/t/{tid}") for tid in tids]
    try:
        for s in screens:
            s.take(await s.receive())
        for tid, s in zip(tids, screens, strict=True):
            for pid in ("P1", "P2"):
                last = int(directors[0].ok(tid, {"type": "bust", "player": pid})["last"])  # type: ignore[call-overload]
                written = time.monotonic()
                await s.until(last, timeout=5)
                assert time.monotonic() - written < 0.5, f"{tid}: slow delivery"
    finally:
        for s in screens:
            await s.close()


def test_exactly_one_process_holds_the_clock_lease(
    servers: list[ServerProcess], directors: list[Api]
) -> None:
    holders = [s for s in servers if httpx.get(s.base + "/healthz").json()["clock_lease"]]
    assert len(holders) == 1


async def test_the_clock_changes_level_by_itself_on_a_cluster_also_after_its_driver_dies(
    cluster: Cluster, servers: list[ServerProcess], directors: list[Api]
) -> None:
    """The lease (a global key, on one shard) picks one driver for every tournament on
    every shard; when that process dies the other takes over within the lease's time."""
    structure = {
        "name": "quick",
        "starting_stack": 1000,
        "chips": [25, 100],
        "levels": [
            {"type": "level", "small_blind": 25, "big_blind": 50, "minutes": 0.02},
            {"type": "level", "small_blind": 50, "big_blind": 100, "minutes": 0.05},
            {"type": "level", "small_blind": 100, "big_blind": 200, "minutes": 5},
        ],
    }
    tids = cluster.ids_on_every_primary("clock")
    for tid in tids:
        r = directors[0].client.post(
            "/api/tournaments",
            json={"id": tid, "name": tid, "rules": "tda-2024", "structure": structure},
        )
        assert r.status_code == 201, r.text
    holder = next(s for s in servers if httpx.get(s.base + "/healthz").json()["clock_lease"])
    survivor = next(s for s in servers if s is not holder)
    api = directors[servers.index(survivor)]
    watchers = [await Screen.open(survivor.ws + f"/ws/t/{tid}") for tid in tids]
    try:
        for w in watchers:
            w.take(await w.receive())
        for tid in tids:
            api.ok(tid, {"type": "clock_start"})
        firsts = [await w.until_event("level_changed", timeout=10, level=1) for w in watchers]
        assert all(f["event"]["by"] == "clock" for f in firsts)
        holder.kill()
        for w, first in zip(watchers, firsts, strict=True):
            second = await w.until_event("level_changed", timeout=15, level=2)
            assert second["event"]["by"] == "clock"
            # Timed from the end of level 1, not from when the new driver took over.
            assert second["event"]["at"] == pytest.approx(first["event"]["ends_at"])
        assert httpx.get(survivor.base + "/healthz").json()["clock_lease"]
        for tid, w in zip(tids, watchers, strict=True):
            await w.until(seq_of(api, tid))
            assert w.t is not None
            assert state_json(w.t) == api.state(tid)["state"]
    finally:
        for w in watchers:
            await w.close()
        if holder.proc is not None and holder.proc.poll() is not None:
            holder.start()  # the module's servers stay two for whatever runs next


# A primary lost ----------------------------------------------------------------------------


async def test_a_primary_lost_its_replica_takes_over_and_both_processes_follow(
    replicated_cluster: Cluster, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Kill the primary of one tournament's shard: the cluster promotes its replica; staff
    on process A resend through the outage; screens on process B (which sends nothing to
    that shard itself) get a fresh snapshot and follow again. The other shards keep going.

    The cluster's replication is asynchronous, and WAIT cannot be used there (see the
    store), so a command acknowledged just before the primary died could be lost; what is
    checked is what the design guarantees: the log has no holes, and the processes, the
    screens and a reload agree on it.
    """
    c = replicated_cluster
    logs = tmp_path_factory.mktemp("replicated-cluster-logs")
    add_user(c.url, "boss", "director-secret", "director")
    procs = [ServerProcess(c.url, logs / f"server-{i}.log") for i in range(2)]
    apis: list[Api] = []
    screens: dict[str, Screen] = {}
    try:
        for p in procs:
            p.start()
        apis = [Api(p, sign_in(p, "boss", "director-secret")) for p in procs]
        a = apis[0]
        tids = c.ids_on_every_primary("lost")
        for tid in tids:
            a.create(tid, 20)
        for tid in tids:
            screens[tid] = await Screen.open(procs[1].ws + f"/ws/t/{tid}")
            screens[tid].take(await screens[tid].receive())
        # Requests also read the staff member's session (a global key, on some shard): kill
        # a primary that holds a tournament but not the session, so that the others are
        # seen to keep going. (Losing the session's shard blocks signed-in requests to
        # every tournament until its replica takes over.)
        token = a.client.headers["Authorization"].removeprefix("Bearer ")
        session_shard = c.owner("floor:session:" + hashlib.sha256(token.encode()).hexdigest())
        victim = next(tid for tid in tids if c.owner(Keys(tid).meta) != session_shard)
        old_primary = c.owner(Keys(victim).meta)
        killed_at = time.monotonic()
        c.node(old_primary).kill()
        others = [tid for tid in tids if tid != victim]
        failed: dict[str, list[str]] = {tid: [] for tid in tids}
        # The other shards first, while the victim's is still down, then round after round.
        for pid in ("P1", "P2", "P3"):
            for tid in [*others, victim]:
                _, missed = send(a, tid, {"type": "bust", "player": pid}, f"{tid}-{pid}", 30)
                failed[tid] += missed
            if pid == "P1":
                assert not any(failed[tid] for tid in others), failed  # they never stopped
        outage = time.monotonic() - killed_at
        assert failed[victim]
        new_primary = c.owner(Keys(victim).meta)
        assert new_primary != old_primary
        for tid in tids:
            end = settled(apis, tid, timeout=10)
            url = procs[1].ws + f"/ws/t/{tid}"
            screens[tid] = await follow(url, screens[tid], end, timeout=15)
            t = screens[tid].t
            assert t is not None
            assert state_json(t) == as_public(a.state(tid)["state"])
        store = Service(RedisLog(connect(c.url)))
        try:
            for tid in tids:
                t, version = await store.load(tid)
                raw = await store.log.redis.xrange(Keys(tid).events, "-", "+")
                assert [int(i.split(b"-")[0]) for i, _ in raw] == list(range(1, version + 1))
                assert encoded(Tournament.fold(decode_event(f[b"e"]) for _, f in raw)) == (
                    encoded(t)
                )
                assert state_json(t) == apis[1].state(tid)["state"]
        finally:
            await store.log.redis.aclose()
        print(f"\ncluster failover: {len(failed[victim])} sends refused, {outage:.1f} s")
    finally:
        for s in screens.values():
            await s.close()
        for api in apis:
            api.client.close()
        for p in procs:
            p.stop()
