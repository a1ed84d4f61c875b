"""The limits on what a stranger can send, against real ``floor serve`` processes.

Three servers on the module's Valkey, each with the limits it is there to show small:

- ``guarded``: a websocket message of 64 KiB at most, a request head of 8 KiB in a second, a
  screen cut off after a second of reading nothing. Its per-address limits are the default
  ones, which leave this machine (the tests' loopback) alone;
- ``strict``: every address limited (``FLOOR_LIMITS_EXEMPT=none``), three websockets an
  address, ten requests at once then two a second. The tests' loopback is a trusted proxy
  here, so each test speaks for an address of its own through ``X-Forwarded-For``;
- ``capped``: three connections an address before any request is read, as uvicorn faces the
  clients directly (no proxy trusted, loopback limited).
"""

from __future__ import annotations

import asyncio
import json
import re
import socket
import time
from collections.abc import Iterator

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from floor.redisdb.embedded import EmbeddedServer
from tests.e2e.conftest import Api, ServerProcess, add_user, sign_in
from tests.e2e.screens import Screen

DIRECTOR = ("boss", "director-secret")
#: The largest message a client may send (the default of FLOOR_MAX_MESSAGE).
MAX_MESSAGE = 64 * 1024


def server(
    valkey: EmbeddedServer, tmp: pytest.TempPathFactory, name: str, **env: str
) -> Iterator[ServerProcess]:
    proc = ServerProcess(valkey.url, tmp.mktemp(f"limits-{name}") / "server.log", **env)
    proc.start()
    try:
        yield proc
    finally:
        proc.stop()


@pytest.fixture(scope="module")
def accounts(valkey: EmbeddedServer) -> None:
    add_user(valkey.url, *DIRECTOR, "director")


@pytest.fixture(scope="module")
def guarded(
    valkey: EmbeddedServer, accounts: None, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServerProcess]:
    yield from server(
        valkey,
        tmp_path_factory,
        "guarded",
        FLOOR_MAX_HEADER="8192",
        FLOOR_REQUEST_TIMEOUT="1",
        FLOOR_WRITE_TIMEOUT="1",
    )


@pytest.fixture(scope="module")
def strict(
    valkey: EmbeddedServer, accounts: None, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServerProcess]:
    yield from server(
        valkey,
        tmp_path_factory,
        "strict",
        FLOOR_LIMITS_EXEMPT="none",
        FLOOR_TRUSTED_PROXIES="127.0.0.1",
        FLOOR_MAX_CONNECTIONS="3",
        FLOOR_RATE_LIMIT="2",
        FLOOR_RATE_BURST="10",
    )


@pytest.fixture(scope="module")
def capped(
    valkey: EmbeddedServer, accounts: None, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServerProcess]:
    yield from server(
        valkey,
        tmp_path_factory,
        "capped",
        FLOOR_LIMITS_EXEMPT="none",
        FLOOR_MAX_CONNECTIONS="3",
        FLOOR_RATE_LIMIT="0",
    )


@pytest.fixture(scope="module")
def director(guarded: ServerProcess) -> Iterator[Api]:
    api = Api(guarded, sign_in(guarded, *DIRECTOR))
    yield api
    api.client.close()


@pytest.fixture(scope="module")
def tournament(director: Api) -> str:
    """A room of 300 players: its snapshot is far more than a small socket buffer holds."""
    director.create("limits", 300)
    return "limits"


_ADDRESSES = iter(range(1, 250))


def stranger() -> dict[str, str]:
    """Headers speaking for a client address of its own (through the trusted loopback)."""
    return {"X-Forwarded-For": f"198.51.100.{next(_ADDRESSES)}"}


def clients(server: ServerProcess) -> int:
    """The screens the server holds, as its metrics say."""
    text = httpx.get(server.base + "/metrics", headers=sign_in(server, *DIRECTOR)).text
    found = re.search(r"^floor_clients (\d+)$", text, re.M)
    assert found, text
    return int(found[1])


def raw(server: ServerProcess) -> socket.socket:
    return socket.create_connection(("127.0.0.1", server.port), timeout=10)


def read_all(sock: socket.socket) -> bytes:
    """What the server sends until it closes the connection (within the socket's timeout)."""
    out = b""
    while chunk := sock.recv(65536):
        out += chunk
    return out


# A websocket message ------------------------------------------------------------------------


def ping(size: int) -> str:
    """A ping message of exactly ``size`` bytes (an unknown field pads it)."""
    head, tail = '{"type":"ping","pad":"', '"}'
    return head + "x" * (size - len(head) - len(tail)) + tail


async def test_a_websocket_message_of_64_kib_is_read_and_one_byte_more_is_refused_with_1009(
    guarded: ServerProcess, tournament: str
) -> None:
    screen = await Screen.open(f"{guarded.ws}/ws/t/{tournament}")
    await screen.ws.send(ping(MAX_MESSAGE))
    while (await screen.receive())["type"] != "pong":
        pass
    await screen.ws.send(ping(MAX_MESSAGE + 1))
    with pytest.raises(ConnectionClosed) as closed:
        await read_to_the_close(screen)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009


async def read_to_the_close(screen: Screen) -> None:
    while True:
        await screen.receive()


# A request's head ---------------------------------------------------------------------------


def test_a_header_sent_a_byte_at_a_time_is_cut_off(guarded: ServerProcess) -> None:
    sock = raw(guarded)
    sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
    sock.settimeout(0.1)
    # A byte every 0.1 s, for 20 s at most: the server closes it within FLOOR_REQUEST_TIMEOUT
    # (1 s) of the head's first byte, however it trickles.
    answer, closed = b"", False
    for _ in range(200):
        try:
            chunk = sock.recv(65536)
            answer += chunk
            if not chunk:
                closed = True
                break
            continue
        except TimeoutError:
            pass
        except ConnectionResetError:
            closed = True
            break
        try:
            sock.sendall(b"a")
        except OSError:
            closed = True
            break
    sock.close()
    assert closed, "a head sent a byte at a time is still being read after 20 s"
    assert answer == b"" or answer.startswith(b"HTTP/1.1 408 "), answer


def test_a_head_left_unfinished_is_answered_408(guarded: ServerProcess) -> None:
    sock = raw(guarded)
    sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    answer = read_all(sock)
    sock.close()
    assert answer.startswith(b"HTTP/1.1 408 "), answer
    assert answer.endswith(b"the request took too long to arrive")


def test_a_body_left_unfinished_is_cut_off(guarded: ServerProcess) -> None:
    sock = raw(guarded)
    sock.sendall(
        b"POST /api/pots HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b'Content-Length: 100\r\n\r\n{"game"'
    )
    # Closed within FLOOR_REQUEST_TIMEOUT (a 10 s socket timeout would fail the test).
    assert read_all(sock) == b""
    sock.close()


def test_a_connection_that_sends_nothing_is_closed(guarded: ServerProcess) -> None:
    sock = raw(guarded)
    # Closed without an answer: nothing was asked (a 10 s timeout would fail the test).
    assert read_all(sock) == b""
    sock.close()


def test_a_head_larger_than_the_limit_is_refused_with_431_and_a_smaller_one_is_answered(
    guarded: ServerProcess,
) -> None:
    big = httpx.get(guarded.base + "/healthz", headers={"X-Big": "b" * 9000})
    assert big.status_code == 431
    assert httpx.get(guarded.base + "/healthz", headers={"X-Fine": "f" * 6000}).status_code == 200
    # A head far past the limit is refused as it comes, not read whole first.
    sock = raw(guarded)
    sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Huge: ")
    # What the socket buffers took before the refusal reached us, not 64 MiB.
    assert sent_until_refused(sock, 64 * 2**20) < 16 * 2**20
    sock.close()


def sent_until_refused(sock: socket.socket, most: int) -> int:
    """The bytes sent before the server's refusal stopped the sending (``most``: never)."""
    sent = 0
    try:
        while sent < most:
            sock.sendall(b"h" * 65536)
            sent += 65536
    except (BrokenPipeError, ConnectionResetError):
        return sent
    return most


# A screen that reads nothing ----------------------------------------------------------------


def test_a_screen_that_stops_reading_is_cut_off(guarded: ServerProcess, tournament: str) -> None:
    before = clients(guarded)
    sock = socket.socket()
    # A small window: the snapshot backs up on the server at once.
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.settimeout(10)
    sock.connect(("127.0.0.1", guarded.port))
    sock.sendall(
        f"GET /ws/t/{tournament} HTTP/1.1\r\nHost: 127.0.0.1:{guarded.port}\r\n"
        "Upgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    assert sock.recv(12).startswith(b"HTTP/1.1 101")
    # Read nothing more: the server must let go of it by itself, FLOOR_WRITE_TIMEOUT (1 s)
    # to twice that after it stops, long before the ping timeout (40 s) would.
    deadline = time.monotonic() + 15
    while clients(guarded) > before:
        assert time.monotonic() < deadline, "the screen that reads nothing is still held"
        time.sleep(0.2)
    # Cut off, not closed politely: what was unsent is dropped.
    with pytest.raises(ConnectionResetError):
        read_all(sock)
    sock.close()


# Per address ----------------------------------------------------------------------------------


async def test_an_address_holds_three_websockets_and_the_fourth_is_told_to_come_back_later(
    strict: ServerProcess, tournament: str
) -> None:
    url = f"{strict.ws}/ws/t/{tournament}"
    headers = stranger()
    screens = [await Screen.open(url, additional_headers=headers) for _ in range(3)]
    refused = await connect(url, compression=None, additional_headers=headers)
    with pytest.raises(ConnectionClosed) as closed:
        await asyncio.wait_for(refused.recv(), 10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
    # Another address is not held back by it, nor is the director from this one.
    other = await Screen.open(url, additional_headers=stranger())
    staff = sign_in(strict, *DIRECTOR)
    boss = await Screen.open(url, additional_headers={**headers, **staff})
    assert boss.hello["role"] == "director"
    # A place freed is a place again (the director's socket holds one too).
    await boss.close()
    await screens[0].close()
    for _ in range(50):
        try:
            again = await Screen.open(url, additional_headers=headers)
            break
        except ConnectionClosed:
            await asyncio.sleep(0.1)  # the server has not seen the close yet
    else:
        pytest.fail("the address got no place back")
    for s in [*screens[1:], other, again]:
        await s.close()
    await refused.close()


def test_an_address_gets_its_burst_then_429_with_retry_after_and_staff_are_not_held_back(
    strict: ServerProcess, tournament: str
) -> None:
    headers = stranger()
    staff = {**headers, **sign_in(strict, *DIRECTOR)}
    with httpx.Client(base_url=strict.base, timeout=10) as http:
        answers = [http.get("/api/tournaments", headers=headers) for _ in range(14)]
        statuses = [r.status_code for r in answers]
        assert statuses[:10] == [200] * 10 and 429 in statuses[10:], statuses
        refused = next(r for r in answers if r.status_code == 429)
        assert int(refused.headers["Retry-After"]) >= 1
        error = refused.json()["error"]
        assert (error["code"], error["reason"]) == ("too_many_requests", "too_many_requests")
        assert error["params"]["seconds"] >= 1
        # The same address signed in is answered, and the health check always is.
        assert http.get(f"/api/t/{tournament}", headers=staff).status_code == 200
        assert http.get("/healthz", headers=headers).status_code == 200
        # Another address has its own bucket.
        assert http.get("/api/tournaments", headers=stranger()).status_code == 200
        # The bucket fills again: two a second.
        time.sleep(1.5)
        assert http.get("/api/tournaments", headers=headers).status_code == 200


def test_an_address_holds_three_connections_before_any_request_is_read(
    capped: ServerProcess,
) -> None:
    idle = [raw(capped) for _ in range(3)]
    fourth = raw(capped)
    answer = read_all(fourth)
    assert answer.startswith(b"HTTP/1.1 429 "), answer
    assert b"too many connections" in answer
    # A connection closed makes room for the next.
    idle.pop().close()
    for _ in range(50):
        sock = raw(capped)
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        if (answer := read_all(sock)).startswith(b"HTTP/1.1 200 "):
            sock.close()
            break
        sock.close()
        time.sleep(0.1)  # the server has not seen the close yet
    else:
        pytest.fail(f"no room after a connection closed: {answer[:80]!r}")
    for sock in [*idle, fourth]:
        sock.close()


# The reads --------------------------------------------------------------------------------------


def test_a_pot_of_more_seats_than_a_table_has_is_refused_naming_the_field(
    guarded: ServerProcess,
) -> None:
    def pot(seats: list[int]) -> httpx.Response:
        body = {
            "game": "flop",
            "odd_chip_unit": 25,
            "button": seats[0],
            "contributions": [{"seat": s, "contributed": 100} for s in seats],
            "high": [seats],
        }
        return httpx.post(guarded.base + "/api/pots", json=body)

    assert pot(list(range(1, 13))).status_code == 200
    many = pot(list(range(1, 371)))
    assert many.status_code == 422
    error = many.json()["error"]
    assert error["field"] == "contributions"
    assert (error["reason"], error["params"]) == ("pot_too_many_seats", {"seats": 370, "most": 12})
    far = pot([1, 2, 13])
    assert far.status_code == 422
    assert far.json()["error"]["field"] == "contributions[2].seat"


def test_events_more_than_a_read_answers_are_refused_and_the_rest_are_read(
    director: Api, tournament: str
) -> None:
    seq = int(director.state(tournament)["seq"])  # type: ignore[call-overload]
    r = director.client.get(f"/api/t/{tournament}/events", params={"since": str(seq - 5)})
    assert r.status_code == 200
    assert [e["seq"] for e in json.loads(r.content)["events"]] == list(range(seq - 4, seq + 1))
    past = director.client.get(f"/api/t/{tournament}/events", params={"since": str(seq + 9)})
    assert past.status_code == 200 and past.json()["events"] == []
