"""The embeddable widget (``/widget/{id}``) framed by another site, as a venue's website or a
reporter's live page frames it: the clock, the field and the chip leaders read from the open
API; shown in a frame only on the sites ``FLOOR_WIDGET_ANCESTORS`` names, while every other
page of the floor stays unframeable by them."""

from __future__ import annotations

import http.server
import re
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, expect

from floor.redisdb.embedded import free_port
from tests.browser.a11y import axe_violations
from tests.browser.conftest import DIRECTOR, new_tournament
from tests.e2e.conftest import Api, ServerProcess, add_user, sign_in

pytestmark = pytest.mark.browser

TID = "widget-night"
SHOTS = Path("/tmp/floor-widget-shots")


class Site:
    """Another origin (another port), serving one page that frames ``src``."""

    def __init__(self, src: str, port: int | None = None) -> None:
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        page = (
            "<!doctype html><html lang='en'><head><meta charset='utf-8'><title>Venue</title>"
            "</head><body><h1>Tonight at the venue</h1>"
            f"<iframe title='Live' src='{src}' width='380' height='420'></iframe></body></html>"
        ).encode()

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.end_headers()
                self.wfile.write(page)

            def log_message(self, *args: object) -> None:
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture(scope="module")
def venue(valkey: object, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, object]]:
    allowed_port = free_port()
    server = ServerProcess(
        valkey.url,  # type: ignore[attr-defined]
        tmp_path_factory.mktemp("widget") / "serve.log",
        FLOOR_WIDGET_ANCESTORS=f"http://127.0.0.1:{allowed_port}",
    )
    add_user(valkey.url, *DIRECTOR, "director")  # type: ignore[attr-defined]
    server.start()
    api = Api(server, sign_in(server, *DIRECTOR))
    prize = {"currency": "EUR", "buy_in": 100, "payouts": [{"entries": 2, "percents": [60, 40]}]}
    new_tournament(api, TID, 18, prize=prize)
    api.ok(TID, {"type": "clock_start"})
    state = api.state(TID)["state"]
    at_one = [p for p in state["players"].values() if p["table"] == 1]
    stacks = [{"player": p["id"], "stack": 10_000 + 1_000 * i} for i, p in enumerate(at_one)]
    api.ok(TID, {"type": "count_table", "table": 1, "stacks": stacks})
    src = f"{server.base}/widget/{TID}?top=3"
    allowed = Site(src, allowed_port)
    other = Site(src)
    try:
        yield {"server": server, "allowed": allowed, "other": other, "stacks": stacks, "api": api}
    finally:
        allowed.close()
        other.close()
        api.client.close()
        server.stop()


def test_the_widget_shows_the_clock_the_field_and_the_leaders_on_a_site_it_may_be_framed_by(
    browser: Browser, venue: dict[str, object]
) -> None:
    allowed = venue["allowed"]
    assert isinstance(allowed, Site)
    SHOTS.mkdir(exist_ok=True)
    for size, (w, h) in {"tv": (1920, 1080), "phone": (390, 844)}.items():
        ctx = browser.new_context(viewport={"width": w, "height": h}, locale="en-GB")
        errors: list[str] = []
        try:
            page = ctx.new_page()
            page.on("pageerror", lambda e, seen=errors: seen.append(str(e)))
            page.goto(allowed.base)
            frame = page.frame_locator("iframe")
            expect(frame.locator(".w-name")).to_have_text(f"Test {TID}")
            expect(frame.locator(".w-level").first).to_have_text("Level 1")
            expect(frame.locator(".w-time")).to_have_text(re.compile(r"^\d+:\d\d$"))
            expect(frame.locator(".w-meta").first).to_contain_text("18 of 18 left")
            leaders = frame.locator(".w-leaders li")
            expect(leaders).to_have_count(3)
            expect(leaders.first.locator(".w-stack")).to_have_text(f"{10_000 + 1_000 * 8:,}")
            page.screenshot(path=str(SHOTS / f"widget-{size}.png"))
        finally:
            ctx.close()
        assert errors == []


def test_the_widget_on_its_own_passes_axe(browser: Browser, venue: dict[str, object]) -> None:
    server = venue["server"]
    assert isinstance(server, ServerProcess)
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = ctx.new_page()
        page.goto(f"{server.base}/widget/{TID}")
        expect(page.locator(".w-leaders li").first).to_be_visible()
        assert axe_violations(page) == []
    finally:
        ctx.close()


def test_a_site_not_named_cannot_frame_it_and_no_other_page_widens(
    browser: Browser, venue: dict[str, object]
) -> None:
    other, server = venue["other"], venue["server"]
    assert isinstance(other, Site) and isinstance(server, ServerProcess)
    ctx = browser.new_context()
    try:
        page = ctx.new_page()
        page.goto(other.base)
        page.wait_for_timeout(1_000)
        framed = [f for f in page.frames if f is not page.main_frame]
        assert framed, "the frame is there"
        assert framed[0].locator(".w-name").count() == 0
    finally:
        ctx.close()
    widget = httpx.get(f"{server.base}/widget/{TID}")
    assert widget.status_code == 200
    csp = widget.headers["content-security-policy"]
    assert f"frame-ancestors http://127.0.0.1:{venue['allowed'].port}" in csp  # type: ignore[attr-defined]
    assert "x-frame-options" not in widget.headers
    for path in (f"/wall/{TID}", "/director", f"/api/open/v1/t/{TID}/clock"):
        r = httpx.get(server.base + path)
        assert "frame-ancestors 'self'" in r.headers["content-security-policy"], path
        assert r.headers["x-frame-options"] == "SAMEORIGIN", path


def test_a_bad_ancestor_stops_the_server_naming_it(valkey: object, tmp_path: Path) -> None:
    server = ServerProcess(
        valkey.url,  # type: ignore[attr-defined]
        tmp_path / "bad.log",
        FLOOR_WIDGET_ANCESTORS="https://ok.example javascript:alert(1)",
    )
    with pytest.raises(RuntimeError, match="FLOOR_WIDGET_ANCESTORS: 'javascript:alert"):
        server.start()
