"""A screen left open across an upgrade reloads itself when the server speaks another protocol.

The wall and the player's phone stay open for days. When the server they reconnect to greets
them with another protocol version (``hello.version``, ``floor.protocol.PROTOCOL_VERSION``),
their modules were written for other messages: the page loads itself again, once, and takes
the server's modules. A server of the same version is reconnected to without a reload.

This module stops and replaces a server process, so it has servers (and a Valkey) of its own.
"""

from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import Page, expect

from floor.protocol import PROTOCOL_VERSION
from tests.browser.conftest import Api, Pages, ServerProcess, new_tournament

pytestmark = pytest.mark.browser

#: The same server, one protocol version on: what a release that changed a message runs.
UPGRADED = (
    "-c",
    "import floor.protocol as p; p.PROTOCOL_VERSION += 1; "
    "from floor.cli import main; raise SystemExit(main())",
)


def _loads(page: Page) -> list[str]:
    loads: list[str] = []
    page.on("load", lambda p: loads.append(p.url))
    return loads


def test_a_screen_reloads_itself_once_when_the_server_speaks_another_protocol_version(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    first = servers[0]
    new_tournament(director, "upgrade", 8)
    wall = pages.open(first, "/wall/upgrade?pages=tables", size="tv")
    phone = pages.open(first, "/player/upgrade")
    screens = (wall, phone)
    loads = {id(page): _loads(page) for page in screens}
    for page in screens:
        page.evaluate("window.loadedBefore = true")

    # The same version again: the page reconnects and keeps what it holds, no reload.
    first.stop()
    for page in screens:
        expect(page.locator(".conn")).not_to_have_attribute("data-status", "live")
    first.start()
    for page in screens:
        expect(page.locator(".conn")).to_have_attribute("data-status", "live", timeout=20_000)
        assert page.evaluate("window.loadedBefore === true")
        assert loads[id(page)] == []

    # An upgraded server on the same port: it greets with the next version.
    first.stop()
    first.program = UPGRADED
    try:
        first.start()
        for page in screens:
            expect(page.locator(".conn")).to_have_attribute("data-status", "live", timeout=20_000)
            page.wait_for_function("window.loadedBefore === undefined", timeout=20_000)
            expect(page.locator(".conn")).to_have_attribute("data-status", "live")
            kept = page.evaluate("sessionStorage.getItem('floor.reloaded-for')")
            assert kept is not None and f'"version":{PROTOCOL_VERSION + 1}' in kept
        # Its modules are still the old ones (the test serves the same files): greeted again
        # by the new version, the page stays up instead of reloading again and again.
        for page in screens:
            page.evaluate("window.loadedBefore = true")
        first.stop()
        for page in screens:
            expect(page.locator(".conn")).not_to_have_attribute("data-status", "live")
        first.start()
        for page in screens:
            expect(page.locator(".conn")).to_have_attribute("data-status", "live", timeout=20_000)
            assert page.evaluate("window.loadedBefore === true")
            assert len(loads[id(page)]) == 1, loads[id(page)]
    finally:
        first.stop()
        first.program = ("-m", "floor")
        first.start()


def test_the_screens_modules_are_revalidated_on_every_load(
    servers: list[ServerProcess],
) -> None:
    """A reload after an upgrade must run the new modules, not a heuristically cached copy."""
    r = httpx.get(servers[0].base + "/static/js/version.js")
    assert r.status_code == 200
    assert r.headers["cache-control"] == "no-cache"
    assert f"PROTOCOL_VERSION = {PROTOCOL_VERSION};" in r.text
