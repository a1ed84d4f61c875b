"""The content security policy in Chromium: every page and view runs under it without one
violation, and a signed-in console cannot be framed by another page (issue 15).

Violations are caught with the page's own ``securitypolicyviolation`` events (installed
before any of its scripts) and Chromium's console messages; a style injected on purpose
shows that they are caught.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from playwright.sync_api import ConsoleMessage, Page, expect

from tests.browser.conftest import (
    DIRECTOR,
    FLOOR,
    Api,
    Pages,
    ServerProcess,
    new_tournament,
    open_table,
    pick_seat,
)

pytestmark = pytest.mark.browser

TID = "csp"
WATCH = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  const where = `${e.sourceFile}:${e.lineNumber}`;
  window.__violations.push(`${e.violatedDirective} ${e.blockedURI} ${where}`);
});
"""


@pytest.fixture(scope="module")
def scene(director: Api) -> None:
    new_tournament(director, TID, 14)
    director.ok(TID, {"type": "clock_start"})
    director.ok(TID, {"type": "bust", "player": "P3"})


class Watched:
    """A page whose CSP violations and console complaints are collected."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.console: list[str] = []
        page.on("console", self._console)

    def _console(self, message: ConsoleMessage) -> None:
        if "Content Security Policy" in message.text or "Refused to" in message.text:
            self.console.append(message.text)

    def violations(self) -> list[str]:
        found: list[str] = self.page.evaluate("window.__violations")
        return found + self.console


def watched(
    pages: Pages, server: ServerProcess, path: str, size: str, user: tuple[str, str] | None
) -> Watched:
    ctx = pages.context(server, size=size, user=user)
    ctx.add_init_script(WATCH)
    page = ctx.new_page()
    page.on("pageerror", lambda e: pages.errors.append(f"{path}: {e}"))
    seen = Watched(page)
    response = page.goto(path)
    assert response is not None
    assert "frame-ancestors 'self'" in response.headers["content-security-policy"], path
    page.wait_for_load_state("networkidle")
    return seen


def floor_views(page: Page) -> Iterator[str]:
    """The floor phone's tabs and tools, each shown once."""
    expect(page.locator(".conn").first).to_have_attribute("data-status", "live")
    yield "moves"
    open_table(page, 1)
    pick_seat(page, 2)
    yield "table"
    page.get_by_role("button", name=re.compile(r"^Search")).click()
    page.get_by_label("Player name").fill("nov")
    expect(page.locator(".result-item").first).to_be_visible()
    yield "search"
    page.get_by_role("button", name=re.compile(r"^Tools")).click()
    page.get_by_role("button", name="Chip race", exact=True).click()
    yield "chip race"
    page.get_by_role("button", name="Pots", exact=True).click()
    yield "pots"
    page.get_by_role("button", name="Rulebook", exact=True).click()
    page.get_by_label("Search the rules").fill("chip")
    expect(page.locator(".rule-item").first).to_be_visible()
    yield "rulebook"
    page.get_by_role("button", name=re.compile(r"^Sent")).click()
    yield "sent"


PAGES = [
    ("start page", "/", "phone", None),
    ("no such page", "/no/such/page", "phone", None),
    ("wall, tables", f"/wall/{TID}?pages=tables", "tv", None),
    ("wall, moves", f"/wall/{TID}?pages=moves", "tv", None),
    ("wall, prizes", f"/wall/{TID}?pages=prizes", "tv", None),
    ("wall, charts (Chart.js)", f"/wall/{TID}?pages=charts", "tv", None),
    ("player screen", f"/player/{TID}", "phone", None),
    ("floor sign-in", f"/floor/{TID}", "phone", None),
    ("director sign-in", "/director", "desk", None),
    ("director console", f"/director?t={TID}", "desk", DIRECTOR),
]


@pytest.mark.parametrize(("name", "path", "size", "user"), PAGES, ids=[p[0] for p in PAGES])
def test_every_page_runs_under_the_policy_without_a_violation(
    scene: None,
    servers: list[ServerProcess],
    pages: Pages,
    name: str,
    path: str,
    size: str,
    user: tuple[str, str] | None,
) -> None:
    seen = watched(pages, servers[0], path, size, user)
    if name == "player screen":
        seen.page.fill("#player-search", "novak")
        expect(seen.page.locator(".result-card").first).to_be_visible()
    if name == "wall, charts (Chart.js)":
        expect(seen.page.locator("canvas").first).to_be_visible()
    if name == "director console":
        expect(seen.page.locator(".director-app")).to_be_visible()
    assert seen.violations() == [], name


def test_every_view_of_the_floor_phone_runs_under_the_policy(
    scene: None, servers: list[ServerProcess], pages: Pages
) -> None:
    seen = watched(pages, servers[0], f"/floor/{TID}", "phone", FLOOR)
    for view in floor_views(seen.page):
        assert seen.violations() == [], view


def test_an_injected_inline_style_is_refused_and_caught(
    servers: list[ServerProcess], pages: Pages
) -> None:
    """The watch itself: what the policy refuses is seen (else a clean run proves nothing)."""
    seen = watched(pages, servers[0], "/", "phone", None)
    seen.page.evaluate(
        "document.head.append(Object.assign(document.createElement('style'), "
        "{textContent: 'body { color: red; }'}))"
    )
    expect(seen.page.locator("body")).not_to_have_css("color", "rgb(255, 0, 0)")
    seen.page.wait_for_function("window.__violations.length > 0")
    assert any("style-src" in v for v in seen.violations())


@pytest.fixture(scope="module")
def other_site() -> Iterator[Callable[[str], str]]:
    """A page server on another port of the same host (same site, another origin): the
    address of a page of it that frames a given address."""
    framed: dict[str, str] = {}

    class Framing(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            target = framed.get(self.path)
            body = f'<!doctype html><title>framing</title><iframe src="{target}"></iframe>'
            self.send_response(200 if target else 404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.end_headers()
            self.wfile.write(body.encode())

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Framing)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()

    def page_framing(target: str) -> str:
        path = f"/framing-{len(framed)}.html"
        framed[path] = target
        return f"http://127.0.0.1:{server.server_port}{path}"

    try:
        yield page_framing
    finally:
        server.shutdown()
        server.server_close()


def test_the_signed_in_console_is_shown_in_no_other_pages_frame(
    servers: list[ServerProcess], pages: Pages, other_site: Callable[[str], str]
) -> None:
    """The finding: a same-site page (another port of the same host) framed the director
    console, signed in: the SameSite=Strict cookie goes to a same-site frame."""
    server = servers[0]
    ctx = pages.context(server, size="desk", user=DIRECTOR)
    page = ctx.new_page()
    page.goto(other_site(f"{server.base}/director"))
    page.wait_for_load_state("load")
    child = page.frames[1]
    assert not child.url.startswith(server.base), child.url
    assert child.locator(".director-app").count() == 0


def test_the_floors_own_pages_may_frame_it(
    servers: list[ServerProcess], pages: Pages, other_site: Callable[[str], str]
) -> None:
    """The control of the test above: a frame that may load shows the signed-in console."""
    server = servers[0]
    ctx = pages.context(server, size="desk", user=DIRECTOR)
    page = ctx.new_page()
    # A frame of the console put into the floor's own start page.
    page.goto(server.base + "/")
    page.evaluate(
        "(src) => document.body.append(Object.assign(document.createElement('iframe'), {src}))",
        f"{server.base}/director",
    )
    expect(page.frame_locator("iframe").locator(".director-app")).to_be_visible()
