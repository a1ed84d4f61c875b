"""Staff sessions on the live servers: sign-in limits a venue can live with, secrets changed
from the console and the command line, and open websockets closed the moment their session
ends, on whichever server process they are connected to.

Two ``floor serve`` processes on one Valkey, trusting 127.0.0.1 as their proxy, so that a
test speaks from any client address it names in ``X-Forwarded-For``.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from floor.redisdb.embedded import EmbeddedServer
from floor.server.signin_limits import FREE_FAILURES, MAX_FAILURES_PER_ADDRESS
from tests.e2e.conftest import ROOT, Api, ServerProcess, add_user
from tests.e2e.screens import Screen

#: The close code of a socket whose session ended (docs/protocol.md).
SIGNED_OUT = 4001


@pytest.fixture(scope="module")
def servers(
    valkey: EmbeddedServer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[list[ServerProcess]]:
    logs = tmp_path_factory.mktemp("e2e-session-logs")
    add_user(valkey.url, "boss", "director-secret", "director")
    procs = [
        ServerProcess(valkey.url, logs / f"server-{i}.log", FLOOR_TRUSTED_PROXIES="127.0.0.1")
        for i in range(2)
    ]
    try:
        for p in procs:
            p.start()
        yield procs
    finally:
        for p in procs:
            p.stop()


def sign_in(
    server: ServerProcess, name: str, secret: str, address: str = "192.0.2.1"
) -> httpx.Response:
    return httpx.post(
        server.base + "/api/signin",
        json={"username": name, "secret": secret},
        headers={"X-Forwarded-For": address},
    )


def token_of(server: ServerProcess, name: str, secret: str) -> str:
    r = sign_in(server, name, secret)
    assert r.status_code == 200, r.text
    token: str = r.json()["token"]
    return token


def new_staff(director: Api, name: str, secret: str, role: str = "floor") -> None:
    r = director.client.post("/api/staff", json={"username": name, "secret": secret, "role": role})
    assert r.status_code == 201, r.text


async def staff_screen(server: ServerProcess, tid: str, token: str, cookie: bool) -> Screen:
    header = (
        {"Cookie": f"floor_session={token}"} if cookie else {"Authorization": f"Bearer {token}"}
    )
    screen = await Screen.open(f"{server.ws}/ws/t/{tid}", additional_headers=header)
    assert screen.hello["role"] == "floor"
    snapshot = await screen.receive()
    assert snapshot["type"] == "snapshot" and snapshot["staff"] is not None
    screen.take(snapshot)
    return screen


async def closed_within(screen: Screen, seconds: float) -> tuple[int | None, list[Any]]:
    """Read until the server closes the socket (at most ``seconds``): its code, and every
    message it was sent meanwhile."""
    seen: list[Any] = []

    async def read() -> None:
        try:
            while True:
                seen.append(json.loads(await screen.ws.recv()))
        except ConnectionClosed:
            pass

    await asyncio.wait_for(read(), seconds)
    return screen.ws.close_code, seen


async def still_open(screen: Screen) -> None:
    """The socket is live: it answers a ping."""
    await screen.ws.send(json.dumps({"type": "ping"}))
    while (await screen.receive())["type"] != "pong":
        pass


# Sockets closed when their session ends ------------------------------------------------------


async def test_a_removed_floor_accounts_sockets_stop_getting_staff_data_within_a_second(
    servers: list[ServerProcess], director: Api
) -> None:
    """A removed account's open socket used to go on receiving special needs."""
    director.create("gone", 12)
    new_staff(director, "leaver", "leaver-secret")
    tokens = [token_of(s, "leaver", "leaver-secret") for s in servers]
    # One socket per server process, by bearer token and by cookie (as the phone has it).
    screens = [
        await staff_screen(servers[0], "gone", tokens[0], cookie=True),
        await staff_screen(servers[1], "gone", tokens[1], cookie=False),
    ]

    r = director.client.delete("/api/staff/leaver")
    assert r.status_code == 200, r.text
    for screen in screens:
        code, _ = await closed_within(screen, 1.0)
        assert code == SIGNED_OUT

    director.ok("gone", {"type": "register", "name": "Wheel Chair", "special_needs": True})
    # Reconnecting with the cookie it had, the phone is a public screen: no special needs.
    again = await Screen.open(
        f"{servers[1].ws}/ws/t/gone", additional_headers={"Cookie": f"floor_session={tokens[0]}"}
    )
    assert again.hello["role"] == "public"
    snapshot = await again.receive()
    assert snapshot["staff"] is None
    assert not any(p["special_needs"] for p in snapshot["state"]["players"].values())
    await again.close()


async def test_signing_out_closes_that_sessions_sockets_and_no_other(
    servers: list[ServerProcess], director: Api
) -> None:
    director.create("signout", 6)
    new_staff(director, "twice", "twice-secret")
    first, second = (token_of(s, "twice", "twice-secret") for s in servers)
    one = await staff_screen(servers[1], "signout", first, cookie=True)
    other = await staff_screen(servers[1], "signout", second, cookie=False)

    r = httpx.post(servers[0].base + "/api/signout", headers={"Authorization": f"Bearer {first}"})
    assert r.status_code == 200, r.text
    code, _ = await closed_within(one, 1.0)
    assert code == SIGNED_OUT
    await still_open(other)
    await other.close()


async def test_a_new_password_of_ones_own_closes_the_other_sessions_sockets(
    servers: list[ServerProcess], director: Api
) -> None:
    director.create("ownpass", 6)
    new_staff(director, "changer", "changer-secret")
    here, there = (token_of(s, "changer", "changer-secret") for s in servers)
    mine = await staff_screen(servers[0], "ownpass", here, cookie=False)
    elsewhere = await staff_screen(servers[1], "ownpass", there, cookie=False)

    r = httpx.put(
        servers[0].base + "/api/me/secret",
        json={"current": "changer-secret", "secret": "changed-secret"},
        headers={"Authorization": f"Bearer {here}"},
    )
    assert r.status_code == 200, r.text
    code, _ = await closed_within(elsewhere, 1.0)
    assert code == SIGNED_OUT
    await still_open(mine)
    assert (
        httpx.get(servers[1].base + "/api/me", headers={"Authorization": f"Bearer {here}"}).json()[
            "username"
        ]
        == "changer"
    )
    assert sign_in(servers[1], "changer", "changed-secret").status_code == 200
    await mine.close()


async def test_the_director_sets_a_password_and_every_socket_of_the_account_closes(
    servers: list[ServerProcess], director: Api
) -> None:
    director.create("setpass", 6)
    new_staff(director, "given", "given-secret")
    token = token_of(servers[1], "given", "given-secret")
    screen = await staff_screen(servers[1], "setpass", token, cookie=False)
    r = director.client.put("/api/staff/given/secret", json={"secret": "a fresh secret"})
    assert r.status_code == 200, r.text
    assert r.json()["username"] == "given"
    code, _ = await closed_within(screen, 1.0)
    assert code == SIGNED_OUT
    assert sign_in(servers[0], "given", "given-secret").status_code == 401
    assert sign_in(servers[0], "given", "a fresh secret").status_code == 200


async def test_floor_user_passwd_closes_the_accounts_sockets_on_the_running_servers(
    servers: list[ServerProcess], director: Api, valkey: EmbeddedServer
) -> None:
    director.create("clipass", 6)
    new_staff(director, "byhand", "byhand-secret")
    screens = [
        await staff_screen(s, "clipass", token_of(s, "byhand", "byhand-secret"), cookie=False)
        for s in servers
    ]
    done = await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "-m", "floor", "user", "passwd", "byhand"],
        input="set by hand now\n",
        cwd=ROOT,
        env={**os.environ, "REDIS_URL": valkey.url},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    for screen in screens:
        code, _ = await closed_within(screen, 1.0)
        assert code == SIGNED_OUT
    assert sign_in(servers[1], "byhand", "set by hand now").status_code == 200


# Sign-in limits ------------------------------------------------------------------------------


def test_a_stranger_cannot_lock_the_director_out(
    servers: list[ServerProcess], director: Api
) -> None:
    stranger = "198.51.100.77"
    for _ in range(FREE_FAILURES):
        assert sign_in(servers[0], "boss", "not the secret", stranger).status_code == 401
    refused = sign_in(servers[1], "boss", "not the secret", stranger)
    assert refused.status_code == 429
    # The third failure's delay is 2 s from it; a loaded machine may take a second of it
    # before the refusal is written: what is left, whole seconds up, said alike twice.
    wait = int(refused.headers["Retry-After"])
    assert 1 <= wait <= 2
    error = refused.json()["error"]
    assert (error["reason"], error["params"]) == ("signin_wait", {"seconds": wait})
    # The right password from the director's own address, on either process: no delay.
    for server in servers:
        assert sign_in(server, "boss", "director-secret", "203.0.113.10").status_code == 200

    listed = {a["username"]: a for a in director.client.get("/api/staff").json()}
    assert listed["boss"]["sign_in"]["failures"] == FREE_FAILURES
    r = director.client.post("/api/staff/BOSS/unlock")
    assert r.status_code == 200, r.text
    assert r.json() == {"ok": True, "cleared": 1}
    assert sign_in(servers[1], "boss", "not the secret", stranger).status_code == 401


def test_a_venue_nat_keeps_signing_in_past_its_own_typos(
    servers: list[ServerProcess], director: Api
) -> None:
    venue = "198.51.100.200"
    new_staff(director, "nat-floor", "nat-floor-secret")
    for i in range(MAX_FAILURES_PER_ADDRESS // 4):
        assert sign_in(servers[i % 2], f"typo{i % 9}", "wrong password", venue).status_code == 401
    for server in servers:
        assert sign_in(server, "nat-floor", "nat-floor-secret", venue).status_code == 200
        assert sign_in(server, "boss", "director-secret", venue).status_code == 200


# The console's API for secrets -----------------------------------------------------------------


@pytest.fixture(scope="module")
def pinned(director: Api) -> None:
    new_staff(director, "pinned", "pinned-secret")


@pytest.mark.parametrize(
    ("path", "body", "status", "field", "reason"),
    [
        (
            "/api/staff/pinned/secret",
            {"secret": "1234", "pin": True},
            422,
            "pin",
            "pin_dealer_only",
        ),
        ("/api/staff/pinned/secret", {"secret": "short"}, 422, "secret", "bad_account"),
        ("/api/staff/pinned/secret", {"secret": "long enough", "extra": 1}, 422, None, None),
        ("/api/staff/ghost/secret", {"secret": "long enough"}, 404, "username", "no_such_account"),
        ("/api/staff/boss/secret", {"secret": "long enough"}, 422, "username", "own_secret"),
        ("/api/staff/ghost/unlock", None, 404, "username", "no_such_account"),
        ("/api/me/secret", {"current": "nope", "secret": "long enough"}, 422, "current", None),
    ],
)
def test_bad_secret_changes_name_the_field_and_change_nothing(
    servers: list[ServerProcess],
    director: Api,
    pinned: None,
    path: str,
    body: dict[str, Any] | None,
    status: int,
    field: str | None,
    reason: str | None,
) -> None:
    method = "PUT" if path.endswith("/secret") else "POST"
    r = director.client.request(method, path, json=body)
    assert r.status_code == status, r.text
    error = r.json()["error"]
    assert error["field"] == field
    if reason is not None:
        assert error["reason"] == reason
    assert sign_in(servers[0], "pinned", "pinned-secret").status_code == 200
    assert sign_in(servers[0], "boss", "director-secret").status_code == 200


def test_only_the_director_sets_anothers_secret_or_lifts_delays(
    servers: list[ServerProcess], director: Api
) -> None:
    new_staff(director, "plain", "plain-secret")
    floor = {"Authorization": f"Bearer {token_of(servers[0], 'plain', 'plain-secret')}"}
    for method, path, body in (
        ("PUT", "/api/staff/boss/secret", {"secret": "taken over"}),
        ("POST", "/api/staff/boss/unlock", None),
    ):
        r = httpx.request(method, servers[0].base + path, json=body, headers=floor)
        assert r.status_code == 403, r.text
    public = httpx.put(
        servers[0].base + "/api/me/secret", json={"current": "x", "secret": "long enough"}
    )
    assert public.status_code == 401, public.text
    assert sign_in(servers[0], "boss", "director-secret").status_code == 200
