"""``floor user passwd`` and ``floor user unlock``: real processes on the test Valkey."""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis.asyncio as aioredis
from argon2 import PasswordHasher

from floor.redisdb.accounts import STAFF, RedisAccounts
from floor.server.accounts import Accounts
from floor.server.principal import BadCredentials, TooManyAttempts
from floor.server.signin_limits import FREE_FAILURES

ROOT = Path(__file__).resolve().parents[2]
IP = "192.0.2.10"


def floor_cli(
    redis_url: str, *args: str, stdin: str | None = "", timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "floor", "user", *args],
        input=stdin,
        cwd=ROOT,
        env={**os.environ, "REDIS_URL": redis_url},
        capture_output=True,
        text=True,
        timeout=timeout,
    )


@pytest.fixture
async def accounts(redis: aioredis.Redis) -> Accounts:
    cheap = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
    made = Accounts(RedisAccounts(redis), hasher=cheap)
    await made.add("dana", "director pass", "director")
    await made.add("floyd", "floor pass", "floor")
    await made.add("dee", "4321", "dealer", pin=True)
    return made


async def test_passwd_sets_a_new_password_and_ends_the_sessions(
    accounts: Accounts, redis_url: str
) -> None:
    old = await accounts.sign_in("floyd", "floor pass", IP)
    done = floor_cli(redis_url, "passwd", "FLOYD", stdin="a new floor pass\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout == "floyd has a new password: their other sessions have ended\n"
    assert "a new floor pass" not in done.stdout + done.stderr
    assert await accounts.principal(old.token) is None
    with pytest.raises(BadCredentials):
        await accounts.sign_in("floyd", "floor pass", IP)
    await accounts.sign_in("floyd", "a new floor pass", IP)


async def test_passwd_keeps_a_dealers_pin_a_pin(accounts: Accounts, redis_url: str) -> None:
    done = floor_cli(redis_url, "passwd", "dee", "--secret-stdin", stdin="975310\n")
    assert done.returncode == 0, done.stderr
    assert "dee has a new PIN" in done.stdout
    held = await accounts.storage.account("dee")
    assert held is not None and held.account.pin
    assert await accounts.hashing.verify(held.account.hash, "975310")


@pytest.mark.parametrize(
    ("args", "stdin", "says"),
    [
        (("passwd", "floyd"), "short\n", "floor: secret: a password is 8 to 256 characters\n"),
        (("passwd", "floyd", "--pin"), "1234\n", "floor: pin: only a dealer at a table signs"),
        (("passwd", "dee"), "12a4\n", "floor: secret: a PIN is 4 to 8 digits\n"),
        (("passwd", "floyd"), "\n", "floor: secret: empty, nothing changed\n"),
        (("passwd", "floyd"), "", "floor: secret: empty, nothing changed\n"),
        (("passwd", "ghost"), "long enough\n", "floor: username: there is no account ghost\n"),
        (("passwd", "not a name"), "long enough\n", "floor: username: a username is 1-32"),
        (("unlock", "ghost"), "", "floor: username: there is no account ghost\n"),
        (("add", "flo", "--role", "floor", "--pin"), "1234\n", "floor: pin: only a dealer"),
        (
            ("add", "dan", "--role", "dealer", "--table", "3", "--pin"),
            "1234\n",
            "floor: table: no account has a table: a dealer signs in on a paired table screen",
        ),
    ],
)
async def test_bad_input_exits_2_with_one_line_and_changes_nothing(
    accounts: Accounts,
    redis: aioredis.Redis,
    redis_url: str,
    args: tuple[str, ...],
    stdin: str,
    says: str,
) -> None:
    before = await redis.hgetall(STAFF)
    done = floor_cli(redis_url, *args, stdin=stdin)
    assert done.returncode == 2, done
    assert done.stderr.startswith(says), done.stderr
    assert done.stderr.count("\n") == 1, done.stderr
    assert await redis.hgetall(STAFF) == before


async def test_unlock_lifts_the_delays_of_an_account(accounts: Accounts, redis_url: str) -> None:
    for _ in range(FREE_FAILURES):
        with pytest.raises(BadCredentials):
            await accounts.sign_in("dana", "wrong password", IP)
    with pytest.raises(TooManyAttempts):
        await accounts.sign_in("dana", "director pass", IP)
    done = floor_cli(redis_url, "unlock", "Dana")
    assert done.returncode == 0, done.stderr
    assert done.stdout == "dana: the sign-in delays from 1 address(es) are lifted\n"
    await accounts.sign_in("dana", "director pass", IP)
    again = floor_cli(redis_url, "unlock", "dana")
    assert again.stdout == "dana: no sign-in was delayed\n"


def _read_until(fd: int, wanted: bytes, timeout: float = 60) -> bytes:
    seen = b""
    deadline = time.monotonic() + timeout
    while wanted not in seen:
        left = deadline - time.monotonic()
        assert left > 0, seen
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            try:
                chunk = os.read(fd, 1024)
            except OSError:  # the child closed the terminal
                break
            if not chunk:
                break
            seen += chunk
    return seen


def at_a_terminal(redis_url: str, entries: list[bytes], last: bytes) -> tuple[int, bytes]:
    """Run ``floor user passwd floyd`` with a terminal of its own, answer each prompt with the
    next of ``entries``, read until ``last``: its exit status and all the terminal showed."""
    pid, fd = os.forkpty()
    if pid == 0:  # the child
        os.chdir(ROOT)
        os.environ["REDIS_URL"] = redis_url
        os.execv(sys.executable, [sys.executable, "-m", "floor", "user", "passwd", "floyd"])
    said = b""
    try:
        for prompt, entry in zip((b"floyd: ", b"again: "), entries, strict=True):
            said += _read_until(fd, prompt)
            os.write(fd, entry + b"\n")
        said += _read_until(fd, last)
    finally:
        _, status = os.waitpid(pid, 0)
        os.close(fd)
    return os.waitstatus_to_exitcode(status), said


async def test_passwd_at_a_terminal_asks_twice_and_never_echoes(
    accounts: Accounts, redis_url: str
) -> None:
    typed = b"typed at the terminal"
    status, said = at_a_terminal(redis_url, [typed, typed], b"sessions have ended")
    assert status == 0, said
    assert b"new password or PIN for floyd: " in said
    assert typed not in said
    await accounts.sign_in("floyd", typed.decode(), IP)


async def test_passwd_at_a_terminal_refuses_two_different_entries(
    accounts: Accounts, redis_url: str
) -> None:
    status, said = at_a_terminal(
        redis_url, [b"first entry here", b"second entry here"], b"nothing changed"
    )
    assert status == 2, said
    assert b"floor: secret: the two entries differ, nothing changed" in said
    await accounts.sign_in("floyd", "floor pass", IP)
