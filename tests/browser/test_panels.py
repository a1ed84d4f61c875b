"""A screen's panel (web/js/mount.js) draws on the connection's events and stops when removed.

The screens are built of panels mounted on the page's one connection; a panel taken off the
page unsubscribes (``Connection.off``), by itself at the next event or when told to stop.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import Api, Pages, ServerProcess, new_tournament

pytestmark = pytest.mark.browser

SETUP = """async () => {
  const { mount } = await import("/static/js/mount.js");
  const conn = window.floorWall.conn;
  const listeners = () => (conn._listeners.change || []).length;
  const el = document.createElement("div");
  document.body.append(el);
  window.panel = { draws: 0, before: listeners(), listeners, el };
  window.panel.stop = mount(el, conn, () => { window.panel.draws += 1; });
  return [window.panel.before, listeners(), window.panel.draws];
}"""


def test_a_mounted_panel_draws_on_each_change_and_unsubscribes_once_removed(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    first = servers[0]
    state = new_tournament(director, "panels", 8)
    wall = pages.open(first, "/wall/panels?pages=tables", size="tv")
    before, during, draws = wall.evaluate(SETUP)
    assert during == before + 1 and draws == 1

    players = list(state["state"]["players"])
    director.ok("panels", {"type": "bust", "player": players[0]})
    wall.wait_for_function("window.panel.draws >= 2")

    # Taken off the page: the next change finds it gone, and it unsubscribes.
    wall.evaluate("window.panel.el.remove()")
    drawn = wall.evaluate("window.panel.draws")
    director.ok("panels", {"type": "bust", "player": players[1]})
    expect(wall.locator(".wall-clock .stat", has_text="Players left").locator("dd")).to_have_text(
        "6 / 8"
    )
    assert wall.evaluate("window.panel.draws") == drawn
    assert wall.evaluate("window.panel.listeners()") == before

    # Stopped by its owner: unsubscribed at once.
    wall.evaluate(SETUP)
    assert wall.evaluate("window.panel.listeners()") == before + 1
    wall.evaluate("window.panel.stop()")
    assert wall.evaluate("window.panel.listeners()") == before


def test_the_chip_leaders_page_of_a_room_nobody_counted_says_no_null(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    """Found by tsc: the page's heading was redrawn with `replaceChildren(heading, null)`,
    which the DOM writes as the text "null" under the heading until somebody is counted."""
    new_tournament(director, "nocounts", 6)
    wall = pages.open(servers[0], "/wall/nocounts")  # a phone: every page in one column
    head = wall.locator(".page-chips .page-head")
    expect(head.locator("h2")).to_have_text("Chip leaders")
    assert "null" not in head.inner_text()
