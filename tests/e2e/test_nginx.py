"""The shipped nginx config (deploy/nginx/floor.conf) in front of two real floor processes.

The config itself is what runs: only the upstream addresses, the listening ports and the
certificate paths are put in for the test. A browser's session (cookie and Origin) and its
screens' websockets go through TLS and the upgrade, a command reaches screens whichever
process takes it, and a process going down is not seen by the staff. The floor processes
trust nginx (127.0.0.1, as on bare metal) and nothing else to say who the client is; test
clients connect from other loopback addresses (127.0.0.3, ...) so that they are not nginx.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import ssl
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from floor.redisdb.embedded import EmbeddedServer, free_port
from tests.e2e.conftest import ROOT, Api, ServerProcess, add_user, settled

CONF = ROOT / "deploy" / "nginx" / "floor.conf"
#: Where nginx connects to the floor processes from: the one proxy they trust.
NGINX_ADDRESS = "127.0.0.1"


def nginx_binary() -> str:
    found = shutil.which("nginx") or (
        "/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None
    )
    if found is None:
        pytest.fail("no nginx: run scripts/install --tests (Debian's nginx-light)")
    return found


def render(conf: str, upstreams: list[int], http_port: int, https_port: int, certs: Path) -> str:
    """The shipped config with this test's addresses (the two staff processes, then the
    public edge); each line it replaces must be there."""
    swaps = [
        ("server floor1:8000", f"server 127.0.0.1:{upstreams[0]}"),
        ("server floor2:8000", f"server 127.0.0.1:{upstreams[1]}"),
        ("server floor-public1:8000", f"server 127.0.0.1:{upstreams[2]}"),
        ("listen 80;", f"listen 127.0.0.1:{http_port};"),
        ("listen 443 ssl;", f"listen 127.0.0.1:{https_port} ssl;"),
        ("/etc/nginx/certs/", f"{certs}/"),
    ]
    for old, new in swaps:
        assert old in conf, f"deploy/nginx/floor.conf no longer has {old!r}: update this test"
        conf = conf.replace(old, new)
    return conf


class Nginx:
    def __init__(self, servers: list[ServerProcess], work: Path) -> None:
        self.binary = nginx_binary()
        self.work = work
        self.http_port, self.https_port = free_port(), free_port()
        self.host = f"localhost:{self.https_port}"
        self.origin = f"https://{self.host}"
        self.base = self.origin
        certs = work / "certs"
        subprocess.run(
            ["sh", str(ROOT / "deploy/nginx/make-cert.sh"), "localhost", str(certs)],
            check=True,
            capture_output=True,
        )
        self.ca = certs / "floor.crt"
        site = render(
            CONF.read_text(),
            [s.port for s in servers],
            self.http_port,
            self.https_port,
            certs,
        )
        (work / "site.conf").write_text(site)
        temp = " ".join(
            f"{kind}_temp_path {work}/{kind};"
            for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
        )
        # Running as root, nginx's workers would become `nobody`, who cannot enter pytest's
        # private temporary folders.
        user = "user root;\n" if os.geteuid() == 0 else ""
        self.conf = work / "nginx.conf"
        self.conf.write_text(
            f"{user}daemon off;\npid {work}/nginx.pid;\nerror_log {work}/error.log info;\n"
            f"events {{}}\nhttp {{\naccess_log {work}/access.log;\n{temp}\n"
            f"include {work}/site.conf;\n}}\n"
        )
        self.proc: subprocess.Popen[bytes] | None = None

    def check(self) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [self.binary, "-t", "-c", str(self.conf), "-p", str(self.work)],
            capture_output=True,
            text=True,
            check=False,
        )

    def start(self) -> None:
        with (self.work / "nginx.out").open("wb") as out:
            self.proc = subprocess.Popen(
                [self.binary, "-c", str(self.conf), "-p", str(self.work)],
                stdout=subprocess.DEVNULL,
                stderr=out,
            )
        deadline = time.monotonic() + 10
        while True:
            try:
                httpx.get(self.base + "/healthz", verify=self.tls(), timeout=1).raise_for_status()
                return
            except httpx.HTTPError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError((self.work / "error.log").read_text()[-2000:]) from None
                time.sleep(0.1)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGQUIT)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)

    def tls(self) -> ssl.SSLContext:
        return ssl.create_default_context(cafile=str(self.ca))

    def browser(self, local: str | None = None) -> httpx.Client:
        """An HTTP client that behaves as a page of the floor does: it sends its Origin
        (from the loopback address ``local``, if given)."""
        return httpx.Client(
            base_url=self.base,
            headers={"Origin": self.origin},
            timeout=10,
            transport=httpx.HTTPTransport(verify=self.tls(), local_address=local),
        )


@pytest.fixture(scope="module")
def servers(
    valkey: EmbeddedServer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[list[ServerProcess]]:
    """The e2e pair for the staff and a public edge, trusting nginx only; started with what
    the old container image set (uvicorn's FORWARDED_ALLOW_IPS=*), to show that nothing
    reads it any more."""
    logs = tmp_path_factory.mktemp("nginx-logs")
    add_user(valkey.url, "boss", "director-secret", "director")
    add_user(valkey.url, "dana", "4321", "dealer")
    add_user(valkey.url, "fred", "floor-secret", "floor")
    procs = [
        ServerProcess(
            valkey.url,
            logs / f"server-{i}.log",
            FLOOR_TRUSTED_PROXIES=NGINX_ADDRESS,
            FORWARDED_ALLOW_IPS="*",
            FLOOR_SERVES="public" if i == 2 else "everyone",
        )
        for i in range(3)
    ]
    try:
        for p in procs:
            p.start()
        yield procs
    finally:
        for p in procs:
            p.stop()


@pytest.fixture(scope="module")
def nginx(
    servers: list[ServerProcess], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Nginx]:
    proxy = Nginx(servers, tmp_path_factory.mktemp("nginx"))
    tested = proxy.check()
    assert tested.returncode == 0, tested.stderr
    proxy.start()
    try:
        yield proxy
    finally:
        proxy.stop()


@pytest.fixture(scope="module")
def session(nginx: Nginx) -> Iterator[httpx.Client]:
    """The director signed in from a browser through nginx: a session cookie, no token."""
    with nginx.browser() as client:
        r = client.post("/api/signin", json={"username": "boss", "secret": "director-secret"})
        assert r.status_code == 200, r.text
        assert "floor_session" in client.cookies
        yield client


def command(client: httpx.Client, tid: str, command: dict[str, object], cid: str) -> httpx.Response:
    return client.post(f"/api/t/{tid}/commands", json={"id": cid, "command": command})


def test_plain_http_is_sent_to_https(nginx: Nginx) -> None:
    r = httpx.get(f"http://127.0.0.1:{nginx.http_port}/wall/x", follow_redirects=False)
    assert r.status_code == 301
    assert r.headers["location"].startswith("https://127.0.0.1/wall/x")


def test_a_browser_session_through_nginx_changes_state_with_its_cookie(
    nginx: Nginx, session: httpx.Client, director: Api
) -> None:
    director.create("ngx-session", 12)
    r = command(session, "ngx-session", {"type": "bust", "player": "P1"}, "ngx-session-1")
    assert r.status_code == 200, r.text
    settled(director.server, "ngx-session", r.json()["last"])  # whichever process wrote it
    players = _found(director, "ngx-session", "Player 1")
    assert [p["busted"] for p in players if p["id"] == "P1"] == [True]


def test_the_session_cookie_is_secure_behind_tls(nginx: Nginx) -> None:
    with nginx.browser() as client:
        r = client.post("/api/signin", json={"username": "fred", "secret": "floor-secret"})
    assert r.status_code == 200, r.text
    cookie = r.headers["set-cookie"].lower()
    assert "secure" in cookie and "httponly" in cookie and "samesite=strict" in cookie


async def _watch(nginx: Nginx, tid: str, busts: int, send: object) -> list[tuple[int, int]]:
    async with websockets.connect(
        f"wss://{nginx.host}/ws/t/{tid}",
        ssl=nginx.tls(),
        origin=nginx.origin,  # type: ignore[arg-type]
    ) as ws:
        assert json.loads(await ws.recv())["type"] == "hello"
        snapshot = json.loads(await ws.recv())
        assert snapshot["type"] == "snapshot"
        seen: list[tuple[int, int]] = []
        last = snapshot["seq"]
        for i in range(busts):
            await asyncio.to_thread(send, i)  # type: ignore[arg-type]
            while True:
                message = json.loads(await asyncio.wait_for(ws.recv(), 5))
                if message["type"] == "events":
                    assert message["from"] == last + 1
                    last = message["to"]
                    seen.append((message["from"], message["to"]))
                    break
        return seen


def test_screens_through_nginx_see_every_command_whichever_process_takes_it(
    nginx: Nginx, session: httpx.Client, director: Api, servers: list[ServerProcess]
) -> None:
    director.create("ngx-live", 30)
    tables = [t["table"] for t in director.state("ngx-live")["tables"]]
    seated = [p["id"] for p in _found(director, "ngx-live", "Player")]

    def bust(i: int) -> None:
        r = command(session, "ngx-live", {"type": "bust", "player": seated[i]}, f"ngx-live-{i}")
        assert r.status_code == 200, r.text

    seen = asyncio.run(_watch(nginx, "ngx-live", 6, bust))
    assert len(seen) == 6 and len(tables) >= 3
    # nginx spread the commands over both staff processes: each logged some of them.
    access = (nginx.work / "access.log").read_text()
    assert access.count("POST /api/t/ngx-live/commands") == 6
    for server in servers[:2]:
        assert '"tournament":"ngx-live","command":"bust"' in server.log.read_text()


def test_a_websocket_from_a_foreign_origin_is_refused_through_nginx(nginx: Nginx) -> None:
    async def connect() -> None:
        async with websockets.connect(
            f"wss://{nginx.host}/ws/t/ngx-live",
            ssl=nginx.tls(),
            origin="https://evil.example",  # type: ignore[arg-type]
        ) as ws:
            await ws.recv()

    with pytest.raises(websockets.ConnectionClosed) as closed:
        asyncio.run(connect())
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008


def wrong_pins(client: httpx.Client, tries: int, name: str = "fred") -> int | None:
    """Wrong passwords for ``name``, each with a new X-Forwarded-For and X-Real-IP: the try
    that got 429, or None. The limits count an account's failures per client address: a
    client that could name its address would start afresh with every try."""
    for i in range(1, tries + 1):
        r = client.post(
            "/api/signin",
            json={"username": name, "secret": "not the password"},
            headers={"X-Forwarded-For": f"198.51.100.{i}", "X-Real-IP": f"203.0.113.{i}"},
        )
        if r.status_code == 429:
            return i
        assert r.status_code == 401, r.text
    return None


def test_rotating_forwarded_for_through_nginx_does_not_escape_the_limit(
    nginx: Nginx, servers: list[ServerProcess]
) -> None:
    """The finding: 15 tries with rotating X-Forwarded-For values never got 429."""
    with nginx.browser(local="127.0.0.4") as guesser:
        assert wrong_pins(guesser, 15) is not None, "nginx let the client choose its address"
    # floor counted the guesser's own address, not nginx's: straight to a floor process
    # from that address the account is held back too ...
    direct = httpx.Client(
        base_url=servers[0].base,
        transport=httpx.HTTPTransport(local_address="127.0.0.4"),
        timeout=10,
    )
    with direct:
        r = direct.post("/api/signin", json={"username": "fred", "secret": "floor-secret"})
    assert r.status_code == 429, r.text
    # ... and through nginx from another address the floor signs in.
    with nginx.browser(local="127.0.0.5") as floor:
        r = floor.post("/api/signin", json={"username": "fred", "secret": "floor-secret"})
    assert r.status_code == 200, r.text


def test_a_client_straight_to_floor_cannot_claim_an_address_or_https(
    servers: list[ServerProcess],
) -> None:
    """Only nginx's forwarding headers are believed: a direct client is its own address."""
    client = httpx.Client(
        base_url=servers[1].base,
        transport=httpx.HTTPTransport(local_address="127.0.0.3"),
        timeout=10,
    )
    with client:
        assert wrong_pins(client, 15, "boss") is not None, "a direct client chose its address"
        r = client.post(
            "/api/signin",
            json={"username": "fred", "secret": "floor-secret"},
            headers={"X-Forwarded-Proto": "https"},
        )
    assert r.status_code == 200, r.text
    # Not over TLS, whatever it said: the cookie is not marked for HTTPS only.
    assert "secure" not in r.headers["set-cookie"].lower()


def test_a_foreign_host_name_through_nginx_is_refused(nginx: Nginx) -> None:
    host = f"evil.example:{nginx.https_port}"
    with nginx.browser() as client:
        r = client.get("/api/me", headers={"Host": host, "Origin": f"https://{host}"})
    assert r.status_code == 400, r.text
    assert r.json()["error"]["field"] == "Host"


def test_pages_through_nginx_carry_the_security_headers(nginx: Nginx) -> None:
    with nginx.browser() as client:
        r = client.get("/director")
    assert r.status_code == 200
    assert "frame-ancestors 'self'" in r.headers["content-security-policy"]
    assert f"wss://{nginx.host}" in r.headers["content-security-policy"]
    assert r.headers["x-frame-options"] == "SAMEORIGIN"
    assert r.headers["x-content-type-options"] == "nosniff"


def test_staff_do_not_notice_when_one_process_goes_down(
    nginx: Nginx, session: httpx.Client, director: Api, servers: list[ServerProcess]
) -> None:
    director.create("ngx-failover", 20)
    seated = [p["id"] for p in _found(director, "ngx-failover", "Player")]
    servers[1].kill()
    try:
        for i in range(6):
            r = command(
                session, "ngx-failover", {"type": "bust", "player": seated[i]}, f"ngx-fo-{i}"
            )
            assert r.status_code == 200, r.text
    finally:
        servers[1].start()
    players = _found(director, "ngx-failover", "Player")
    assert {p["id"] for p in players if p["busted"]} == set(seated[:6])


def _found(director: Api, tid: str, query: str) -> list[dict[str, Any]]:
    """The players a search finds (the first of those it matches)."""
    r = director.client.get(f"/api/t/{tid}/players", params={"q": query})
    assert r.status_code == 200, r.text
    found: list[dict[str, Any]] = r.json()["players"]
    return found


def _health(server: ServerProcess) -> dict[str, object]:
    body: dict[str, object] = httpx.get(server.base + "/healthz", timeout=5).json()
    return body


async def _hello(nginx: Nginx, tid: str, cookie: str | None) -> websockets.ClientConnection:
    """A screen through nginx: a player's phone (no cookie) or a staff phone (its session)."""
    headers = {"Cookie": f"floor_session={cookie}"} if cookie else {}
    ws = await websockets.connect(
        f"wss://{nginx.host}/ws/t/{tid}",
        ssl=nginx.tls(),
        origin=nginx.origin,  # type: ignore[arg-type]
        additional_headers=headers,
    )
    hello = json.loads(await ws.recv())
    assert hello["type"] == "hello"
    return ws


async def test_the_players_screens_go_to_the_public_edge_and_the_staff_to_their_own(
    nginx: Nginx, session: httpx.Client, director: Api, servers: list[ServerProcess]
) -> None:
    director.create("ngx-edge", 12)
    *staff_side, edge = servers
    assert _health(edge)["serves"] == "public"
    # The staff side holds the clock (within a lease's time of a staff process restarting),
    # never the edge, whose ticks would wait behind a crowd of phones.
    deadline = time.monotonic() + 15
    while not any(_health(s)["clock_lease"] for s in staff_side):
        assert time.monotonic() < deadline, "no staff process holds the clock"
        time.sleep(0.1)
    assert _health(edge)["clock_lease"] is False
    before = [_health(s)["clients"] for s in servers]
    player = await _hello(nginx, "ngx-edge", None)
    phone = await _hello(nginx, "ngx-edge", session.cookies["floor_session"])
    try:
        assert json.loads(await player.recv())["staff"] is None
        assert json.loads(await phone.recv())["staff"] is not None
        after = [_health(s)["clients"] for s in servers]
        grown = [int(a) - int(b) for a, b in zip(after, before, strict=True)]  # type: ignore[call-overload]
        assert grown[2] == 1, grown  # the player's phone on the edge
        assert sum(grown[:2]) == 1, grown  # the staff phone on a staff process
        # A player's reads go to the edge too; a command with the session never does.
        with nginx.browser() as stranger:
            assert stranger.get("/api/t/ngx-edge/snapshot").status_code == 200
        r = command(session, "ngx-edge", {"type": "bust", "player": "P1"}, "ngx-edge-1")
        assert r.status_code == 200, r.text
    finally:
        await player.close()
        await phone.close()
    # The command reached the staff side only: the edge logs no command.
    assert '"tournament":"ngx-edge","command":"bust"' not in edge.log.read_text()
    assert any('"tournament":"ngx-edge"' in s.log.read_text() for s in staff_side)


async def test_with_the_edge_down_the_staff_processes_serve_the_public(
    nginx: Nginx, director: Api, servers: list[ServerProcess]
) -> None:
    director.create("ngx-edge-down", 8)
    edge = servers[2]
    edge.kill()
    try:
        with nginx.browser() as stranger:
            r = stranger.get("/api/t/ngx-edge-down/snapshot")
            assert r.status_code == 200, r.text
        player = await _hello(nginx, "ngx-edge-down", None)
        try:
            snapshot = json.loads(await player.recv())
            assert snapshot["type"] == "snapshot" and snapshot["staff"] is None
        finally:
            await player.close()
    finally:
        edge.start()
