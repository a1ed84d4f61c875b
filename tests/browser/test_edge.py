"""A player's screen on the public edge (``FLOOR_SERVES=public``): web/js/conn.js in Chromium.

The edge sends no snapshot on a websocket: where one is due it sends ``fetch_snapshot``, and
the page reads the gzipped snapshot over HTTP, then asks the socket for what came after it.
Here the page's first read of the snapshot fails (the network drops it), so it opens the
websocket without ``since``, as it does after such a failure, and must still go live and
follow what the floor does.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Route, expect

from floor.redisdb.embedded import EmbeddedServer
from tests.browser.conftest import Api, Pages, new_tournament
from tests.e2e.conftest import EdgeProcess, ServerProcess, settled

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def edge(
    valkey: EmbeddedServer,
    servers: list[ServerProcess],
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[EdgeProcess]:
    proc = EdgeProcess(valkey.url, tmp_path_factory.mktemp("edge") / "edge.log")
    proc.start()
    try:
        yield proc
    finally:
        proc.stop()


def test_a_screen_on_the_edge_reads_its_snapshot_over_http_when_the_socket_says_so(
    edge: EdgeProcess, director: Api, pages: Pages
) -> None:
    new_tournament(director, "edge-page", 14)
    ctx = pages.context(edge, size="tv")
    reads: list[str] = []

    def first_read_fails(route: Route) -> None:
        reads.append(route.request.url)
        if len(reads) == 1:
            route.abort()
        else:
            route.continue_()

    ctx.route("**/api/t/edge-page/snapshot", first_read_fails)
    page = ctx.new_page()
    page.on("pageerror", lambda e: pages.errors.append(f"edge wall: {e}"))
    page.goto("/wall/edge-page?pages=tables")
    expect(page.locator(".conn").first).to_have_attribute("data-status", "live")
    # The failed read, then the one the socket's fetch_snapshot asked for.
    assert len(reads) == 2
    tile = page.locator('.tile[aria-label^="Table 1,"] .tile-count')
    before = tile.inner_text()
    seated = director.state("edge-page")["state"]["tables"]["1"]["occupants"]  # type: ignore[index]
    player = next(iter(seated.values()))
    last = director.ok("edge-page", {"type": "bust", "player": player})["last"]
    settled(edge, "edge-page", int(last))  # type: ignore[call-overload]
    expect(tile).not_to_have_text(before)
    assert not pages.errors
