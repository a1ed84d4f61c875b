"""The desk's pipelined scripts on a real Valkey: the same answers as redis-py's, each call
its own answer however many are in flight, a script Valkey forgot loaded again, a refusal
and a lost connection failing closed (the next call connecting again), a server that never
answers failing in the call's time, AUTH and SELECT from the URL."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
import redis.asyncio as aioredis

from floor.redisdb.embedded import EmbeddedServer
from floor.redisdb.pipe import Script, ScriptPipe, pack
from floor.store.errors import Unavailable

ECHO = Script("return {KEYS[1], ARGV[1], tonumber(ARGV[2]), redis.call('GET', KEYS[1]), {}}")
SET = Script("redis.call('SET', KEYS[1], ARGV[1]); return redis.call('INCR', KEYS[2])")
FAILS = Script("return redis.error_reply('ERR no such seat')")


@pytest.fixture
async def pipe(redis: aioredis.Redis, redis_url: str) -> AsyncIterator[ScriptPipe]:
    pipe = ScriptPipe.for_url(redis_url)
    assert pipe is not None
    try:
        yield pipe
    finally:
        await pipe.aclose()


def test_pack_is_resp() -> None:
    assert pack("GET", "k", 12, b"\x00\xff") == (
        b"*4\r\n$3\r\nGET\r\n$1\r\nk\r\n$2\r\n12\r\n$2\r\n\x00\xff\r\n"
    )


def test_only_one_server_over_tcp_or_a_socket_gets_a_pipe() -> None:
    assert ScriptPipe.for_url("redis://127.0.0.1:6379/0") is not None
    assert ScriptPipe.for_url("unix:///run/valkey.sock") is not None
    # TLS, Sentinel's failover and a cluster's slots stay redis-py's.
    for url in (
        "rediss://valkey.example:6380",
        "redis+sentinel://s1:26379,s2:26379/mymaster",
        "redis+cluster://n1:7000,n2:7001",
    ):
        assert ScriptPipe.for_url(url) is None


async def test_answers_are_those_redis_py_gives(redis: aioredis.Redis, pipe: ScriptPipe) -> None:
    await redis.set("k", b"v\x00w")
    keys, args = ["k"], ["a", 7]
    got = await pipe.run(ECHO, keys, args)
    assert got == await redis.eval(ECHO.body, 1, *keys, *args)
    assert got == [b"k", b"a", 7, b"v\x00w", []]
    assert await pipe.run(SET, ["x", "n"], [b"1"]) == 1
    assert await redis.get("x") == b"1"


async def test_many_calls_at_once_each_get_their_own_answer(
    redis: aioredis.Redis, pipe: ScriptPipe
) -> None:
    answers = await asyncio.gather(*(pipe.run(ECHO, [f"k{i}"], [i, i]) for i in range(300)))
    assert [a[1] for a in answers] == [str(i).encode() for i in range(300)]


async def test_a_script_valkey_forgot_is_loaded_again(
    redis: aioredis.Redis, pipe: ScriptPipe
) -> None:
    assert await pipe.run(SET, ["x", "n"], ["a"]) == 1
    await redis.script_flush()
    assert await pipe.run(SET, ["x", "n"], ["b"]) == 2
    assert await redis.script_exists(SET.sha) == [True]


async def test_a_refusal_is_unavailable_and_the_connection_goes_on(pipe: ScriptPipe) -> None:
    with pytest.raises(Unavailable, match="no such seat"):
        await pipe.run(FAILS, [], [])
    assert (await pipe.run(ECHO, ["k"], ["a", 1]))[1] == b"a"


async def test_a_lost_connection_fails_its_calls_and_the_next_connects_again(
    redis: aioredis.Redis, pipe: ScriptPipe
) -> None:
    assert await pipe.run(SET, ["x", "n"], ["a"]) == 1
    # A call waiting on the connection when Valkey drops it: CLIENT PAUSE holds its answer,
    # CLIENT KILL ends every normal connection but this client's.
    await redis.client_pause(2000, all=True)
    waiting = asyncio.ensure_future(pipe.run(SET, ["x", "n"], ["b"]))
    await asyncio.sleep(0.1)
    assert not waiting.done()
    await redis.execute_command("CLIENT", "KILL", "TYPE", "normal", "SKIPME", "yes")
    with pytest.raises(Unavailable):
        await waiting
    await redis.client_unpause()
    assert await pipe.run(SET, ["x", "n"], ["c"]) in (2, 3)
    assert await redis.get("x") in (b"b", b"c")


async def test_a_server_that_never_answers_fails_the_call_in_its_time() -> None:
    # A listening socket that reads and never writes: what a hung server looks like.
    async def silent(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        while await reader.read(1024):
            pass
        writer.close()

    server = await asyncio.start_server(silent, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    pipe = ScriptPipe(f"redis://127.0.0.1:{port}", call_timeout=0.3)
    try:
        loop = asyncio.get_running_loop()
        start = loop.time()
        results = await asyncio.gather(
            *(pipe.run(ECHO, ["k"], ["a", 1]) for _ in range(3)), return_exceptions=True
        )
        assert all(isinstance(r, Unavailable) for r in results), results
        assert 0.25 <= loop.time() - start < 2.0
    finally:
        await pipe.aclose()
        server.close()
        await server.wait_closed()


async def test_nobody_listening_is_unavailable() -> None:
    server = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    server.close()
    await server.wait_closed()
    pipe = ScriptPipe(f"redis://127.0.0.1:{port}")
    with pytest.raises(Unavailable, match="unreachable"):
        await pipe.run(ECHO, ["k"], ["a", 1])


async def test_the_url_s_user_password_and_database_are_used(
    redis: aioredis.Redis, redis_server: EmbeddedServer | None
) -> None:
    if redis_server is None or redis_server.tcp_url is None:
        pytest.skip("needs the embedded server's TCP port")
    await redis.acl_setuser(
        "piper", enabled=True, passwords=["+s3cret"], keys=["*"], commands=["+@all"]
    )
    pipe = ScriptPipe(redis_server.tcp_url.replace("//", "//piper:s3cret@") + "/3")
    wrong = ScriptPipe(redis_server.tcp_url.replace("//", "//piper:wrong@"))
    try:
        assert await pipe.run(SET, ["x", "n"], ["in three"]) == 1
        assert await redis.get("x") is None
        db3 = aioredis.from_url(redis_server.tcp_url + "/3")
        try:
            assert await db3.get("x") == b"in three"
            await db3.flushdb()
        finally:
            await db3.aclose()
        with pytest.raises(Unavailable, match="refused the connection"):
            await wrong.run(SET, ["x", "n"], ["no"])
    finally:
        await pipe.aclose()
        await wrong.aclose()
        await redis.acl_deluser("piper")
