"""The shipped nginx config (deploy/nginx/floor.conf) in front of two real floor processes.

The config itself is what runs: only the upstream addresses, the listening ports and the
certificate paths are put in for the test. A browser's session (cookie and Origin) and its
screens' websockets go through TLS and the upgrade, a command reaches screens whichever
process takes it, and a process going down is not seen by the staff.
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

import httpx
import pytest
import websockets

from floor.redisdb.embedded import free_port
from tests.e2e.conftest import ROOT, Api, ServerProcess

CONF = ROOT / "deploy" / "nginx" / "floor.conf"


def nginx_binary() -> str:
    found = shutil.which("nginx") or (
        "/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None
    )
    if found is None:
        pytest.fail("no nginx: run scripts/install --tests (Debian's nginx-light)")
    return found


def render(conf: str, upstreams: list[int], http_port: int, https_port: int, certs: Path) -> str:
    """The shipped config with this test's addresses; each line it replaces must be there."""
    swaps = [
        ("server floor1:8000", f"server 127.0.0.1:{upstreams[0]}"),
        ("server floor2:8000", f"server 127.0.0.1:{upstreams[1]}"),
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

    def browser(self) -> httpx.Client:
        """An HTTP client that behaves as a page of the floor does: it sends its Origin."""
        return httpx.Client(
            base_url=self.base, verify=self.tls(), headers={"Origin": self.origin}, timeout=10
        )


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
    players = director.client.get("/api/t/ngx-session/players", params={"q": "Player 1"}).json()
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
    seated = [
        p["id"]
        for p in director.client.get("/api/t/ngx-live/players", params={"q": "Player"}).json()
    ]

    def bust(i: int) -> None:
        r = command(session, "ngx-live", {"type": "bust", "player": seated[i]}, f"ngx-live-{i}")
        assert r.status_code == 200, r.text

    seen = asyncio.run(_watch(nginx, "ngx-live", 6, bust))
    assert len(seen) == 6 and len(tables) >= 3
    # nginx spread the commands over both processes: each logged some of them.
    access = (nginx.work / "access.log").read_text()
    assert access.count("POST /api/t/ngx-live/commands") == 6
    for server in servers:
        assert '"tournament":"ngx-live","command":"bust"' in server.log.read_text()


def test_a_websocket_from_a_foreign_origin_is_refused_through_nginx(nginx: Nginx) -> None:
    async def connect() -> None:
        async with websockets.connect(
            f"wss://{nginx.host}/ws/t/ngx-live",
            ssl=nginx.tls(),
            origin="https://evil.example",  # type: ignore[arg-type]
        ) as ws:
            await ws.recv()

    with pytest.raises((websockets.InvalidStatus, websockets.ConnectionClosed)):
        asyncio.run(connect())


def test_staff_do_not_notice_when_one_process_goes_down(
    nginx: Nginx, session: httpx.Client, director: Api, servers: list[ServerProcess]
) -> None:
    director.create("ngx-failover", 20)
    seated = [
        p["id"]
        for p in director.client.get("/api/t/ngx-failover/players", params={"q": "Player"}).json()
    ]
    servers[1].kill()
    try:
        for i in range(6):
            r = command(
                session, "ngx-failover", {"type": "bust", "player": seated[i]}, f"ngx-fo-{i}"
            )
            assert r.status_code == 200, r.text
    finally:
        servers[1].start()
    players = director.client.get("/api/t/ngx-failover/players", params={"q": "Player"}).json()
    assert {p["id"] for p in players if p["busted"]} == set(seated[:6])
