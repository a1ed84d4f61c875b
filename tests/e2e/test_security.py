"""What a stranger on the venue network tried, against a real ``floor serve`` (issue 15).

The headers every answer carries, the host names answered (DNS rebinding), the Origin check
of sign-out, who may read ``/metrics``, the close code of a refused websocket Origin, and the
client address of a direct client that claims another in ``X-Forwarded-For``.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect
from websockets.typing import Origin

from floor.redisdb.embedded import EmbeddedServer
from tests.e2e.conftest import Api, ServerProcess, add_user, dealer_on, paired

TOKEN = "metrics-token-for-the-scraper-0123456789"


@pytest.fixture(scope="module")
def servers(
    valkey: EmbeddedServer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[list[ServerProcess]]:
    """One process with a metrics token, started with what the old container image set:
    uvicorn then believed every client's X-Forwarded-For; nothing reads it any more."""
    add_user(valkey.url, "boss", "director-secret", "director")
    add_user(valkey.url, "dana", "4321", "dealer")
    log = tmp_path_factory.mktemp("security-logs") / "server.log"
    server = ServerProcess(valkey.url, log, FLOOR_METRICS_TOKEN=TOKEN, FORWARDED_ALLOW_IPS="*")
    server.start()
    try:
        yield [server]
    finally:
        server.stop()


@pytest.fixture(scope="module")
def server(servers: list[ServerProcess]) -> ServerProcess:
    return servers[0]


def from_address(server: ServerProcess, local: str, **kwargs: object) -> httpx.Client:
    """A client whose connections come from ``local`` (any 127.x address is this machine)."""
    transport = httpx.HTTPTransport(local_address=local)
    return httpx.Client(base_url=server.base, transport=transport, timeout=10, **kwargs)  # type: ignore[arg-type]


def tries_until_limited(client: httpx.Client, tries: int, username: str) -> int | None:
    """Failed sign-ins to one account, each naming a new X-Forwarded-For (and X-Real-IP): the
    try that got 429, or None. The sign-in limits count an account's failures per client
    address, so a client that could name its address would start afresh with every try."""
    for i in range(1, tries + 1):
        r = client.post(
            "/api/signin",
            json={"username": username, "secret": "wrong-guess"},
            headers={"X-Forwarded-For": f"198.51.100.{i}", "X-Real-IP": f"203.0.113.{i}"},
        )
        if r.status_code == 429:
            return i
        assert r.status_code == 401, r.text
    return None


# Headers -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/director",
        "/wall/any",
        "/static/js/conn.js",
        "/static/vendor/chartjs/chart.umd.js",
        "/no/such/page",
        "/api/tournaments",
        "/api/no-such-endpoint",
        "/healthz",
    ],
)
def test_every_answer_carries_the_security_headers(server: ServerProcess, path: str) -> None:
    r = httpx.get(server.base + path)
    assert r.status_code in (200, 404), r.text
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["x-frame-options"] == "SAMEORIGIN"
    assert r.headers["referrer-policy"] == "same-origin"
    csp = r.headers["content-security-policy"]
    assert "frame-ancestors 'self'" in csp
    assert "script-src 'self';" in csp
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp


def test_an_error_answer_carries_them_too(server: ServerProcess) -> None:
    r = httpx.post(server.base + "/api/signin", content=b"{")
    assert r.status_code == 400
    assert r.headers["x-frame-options"] == "SAMEORIGIN"


# Host names ----------------------------------------------------------------------------------


def test_a_rebound_host_name_is_refused_even_with_its_matching_origin(
    server: ServerProcess,
) -> None:
    host = f"evil.example:{server.port}"
    headers = {"Host": host, "Origin": f"http://{host}"}
    tries = [("GET", "/api/tournaments"), ("GET", "/director"), ("POST", "/api/signin")]
    for method, path in tries:
        r = httpx.request(method, server.base + path, headers=headers, json={})
        assert r.status_code == 400, (path, r.text)
        error = r.json()["error"]
        assert error["field"] == "Host"
        assert "'evil.example'" in error["message"] and "FLOOR_ALLOWED_HOSTS" in error["message"]


def test_localhost_and_the_address_are_answered(server: ServerProcess) -> None:
    for host in (f"localhost:{server.port}", f"127.0.0.1:{server.port}", "127.0.0.1"):
        assert httpx.get(server.base + "/healthz", headers={"Host": host}).status_code == 200


def _handshake(server: ServerProcess, host: str, origin: str) -> bytes:
    """A websocket handshake as written by hand: the Host header is ours to choose."""
    request = (
        f"GET /ws/t/anything HTTP/1.1\r\nHost: {host}\r\nOrigin: {origin}\r\n"
        "Upgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as sock:
        sock.sendall(request.encode())
        return sock.recv(4096)


def test_a_websocket_to_a_rebound_host_name_is_refused_with_400(server: ServerProcess) -> None:
    host = f"evil.example:{server.port}"
    answer = _handshake(server, host, f"http://{host}")
    assert answer.startswith(b"HTTP/1.1 400 "), answer[:200]
    assert b'"field":"Host"' in answer
    # The same handshake with the server's own address is taken.
    own = f"127.0.0.1:{server.port}"
    assert _handshake(server, own, f"http://{own}").startswith(b"HTTP/1.1 101 ")


# Sign-out --------------------------------------------------------------------------------------


def test_another_sites_page_cannot_sign_the_staff_out(server: ServerProcess) -> None:
    with httpx.Client(base_url=server.base, headers={"Origin": server.base}) as browser:
        r = browser.post("/api/signin", json={"username": "boss", "secret": "director-secret"})
        assert r.status_code == 200, r.text
        refused = browser.post("/api/signout", headers={"Origin": "http://evil.example"})
        assert refused.status_code == 403, refused.text
        assert refused.json()["error"]["code"] == "forbidden"
        assert browser.get("/api/me").json()["username"] == "boss"
        # From the page's own origin it signs out.
        assert browser.post("/api/signout").status_code == 200
        browser.cookies.clear()
        assert browser.get("/api/me").json()["role"] == "public"


# Metrics ---------------------------------------------------------------------------------------


def test_metrics_are_for_staff_or_the_token(server: ServerProcess, director: Api) -> None:
    url = server.base + "/metrics"
    public = httpx.get(url)
    assert public.status_code == 401, public.text
    assert "FLOOR_METRICS_TOKEN" in public.json()["error"]["message"]
    assert httpx.get(url, headers={"Authorization": "Bearer " + TOKEN[:-1]}).status_code == 401
    by_token = httpx.get(url, headers={"Authorization": f"Bearer {TOKEN}"})
    assert by_token.status_code == 200 and "floor_clients" in by_token.text
    floor = httpx.get(url, headers=director.client.headers)
    assert floor.status_code == 200 and "floor_clients" in floor.text
    # The finding: a table screen read /metrics; it and its dealer are refused now.
    director.create("metrics", 4)
    screen = paired(server, director, "metrics", 1)
    assert httpx.get(url, headers=screen).status_code == 403
    assert httpx.get(url, headers=dealer_on(server, screen)).status_code == 403


# Websocket Origin ----------------------------------------------------------------------------


def test_a_websocket_from_a_foreign_origin_is_closed_with_1008(
    server: ServerProcess, director: Api
) -> None:
    director.create("sec-origin", 6)
    ws = connect(server.ws + "/ws/t/sec-origin", origin=Origin("http://evil.example"))
    with ws, pytest.raises(ConnectionClosed) as closed:
        ws.recv(timeout=5)
    assert closed.value.rcvd is not None
    assert closed.value.rcvd.code == 1008
    assert closed.value.rcvd.reason == "this origin may not connect"


# Client addresses ------------------------------------------------------------------------------


def test_a_client_naming_other_addresses_is_counted_by_its_own(server: ServerProcess) -> None:
    """The finding: with rotating X-Forwarded-For values, 15 tries never got 429."""
    with from_address(server, "127.0.0.5") as spoofer:
        limited = tries_until_limited(spoofer, 15, "boss")
    assert limited is not None, "15 failed sign-ins from one address were never limited"
    # The limit is that address's: the director signs in from another.
    with from_address(server, "127.0.0.6") as other:
        r = other.post("/api/signin", json={"username": "boss", "secret": "director-secret"})
    assert r.status_code == 200, r.text
