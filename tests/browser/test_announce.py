"""The director's messages (issue 29, part 1): typed on the console, a line on the wall and
the player screens or the wall's whole screen, cleared with one tap, in the log."""

from __future__ import annotations

import json
import os

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import DIRECTOR, Api, Pages, ServerProcess, new_tournament

pytestmark = pytest.mark.browser

#: What the wall must show readable from five metres (wall_fit.js: 2.5 % of 1080 px).
LEAST_PX = 35


#: On how many lines the word (the first occurrence in the element's text) is laid out.
WORD_LINES = """(e, word) => {
  const node = e.firstChild, at = node.textContent.indexOf(word), r = document.createRange();
  r.setStart(node, at);
  r.setEnd(node, at + word.length);
  return new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size;
}"""


def shot(page: Page, name: str) -> None:
    if os.environ.get("FLOOR_SCREENSHOTS"):
        page.screenshot(path=f"/tmp/floor-announce-{name}.png")


def font_px(page: Page, selector: str) -> float:
    return float(page.eval_on_selector(selector, "e => parseFloat(getComputedStyle(e).fontSize)"))


def test_a_message_typed_on_the_console_reaches_the_wall_and_the_players_and_clears_with_a_tap(
    pages: Pages, servers: list[ServerProcess], director: Api
) -> None:
    tid = "announce1"
    new_tournament(director, tid, 20)
    director.ok(tid, {"type": "clock_start"})
    console = pages.open(servers[0], f"/director?t={tid}", size="desk", user=DIRECTOR)
    wall = pages.open(servers[1], f"/wall/{tid}", size="tv")
    player = pages.open(servers[1], f"/player/{tid}?kiosk=1")
    expect(console.locator("#s-announce")).to_contain_text("No message is shown.")

    # A line: under the clock and the pages, which still fit above it.
    line = "Dinner break after this level: 60 minutes. <b>Not bold</b>"
    console.fill("#announce-text", line)
    console.get_by_role("button", name="Show as a line").click()
    expect(wall.locator(".announce-line")).to_be_visible()
    expect(wall.locator(".announce-line .announce-text")).to_have_text(line)
    assert wall.locator(".announce-line b").count() == 0
    assert font_px(wall, ".announce-line .announce-text") >= LEAST_PX
    expect(wall.locator(".announce-screen")).to_be_hidden()
    clock = wall.locator(".wall-clock").bounding_box()
    band = wall.locator(".announce-line").bounding_box()
    assert clock is not None and band is not None
    assert clock["y"] + clock["height"] <= band["y"] + 1
    assert band["y"] + band["height"] <= 1080 + 1
    expect(player.locator(".player-announce")).to_have_text(line)
    expect(console.locator(".announce-quote")).to_have_text(line)
    console.locator("#s-announce").scroll_into_view_if_needed()
    shot(console, "console-desk")
    shot(wall, "line-tv")
    shot(player, "line-phone")

    # The whole screen replaces the line, large.
    console.fill("#announce-text", "Seats are redrawn\nfind your new seat on the wall")
    console.get_by_role("button", name="Show full screen").click()
    expect(wall.locator(".announce-screen")).to_be_visible()
    expect(wall.locator(".announce-line")).to_be_hidden()
    expect(wall.locator(".announce-screen .announce-text")).to_contain_text("find your new seat")
    assert font_px(wall, ".announce-screen .announce-text") >= 66
    expect(player.locator(".player-announce")).to_contain_text("Seats are redrawn")
    shot(wall, "screen-tv")

    # One tap clears it everywhere; the log holds both messages and the clear.
    console.locator("#announce-clear").click()
    expect(wall.locator(".announce-screen")).to_be_hidden()
    expect(wall.locator(".announce-line")).to_be_hidden()
    expect(player.locator(".player-announce")).to_be_hidden()
    expect(console.locator("#s-announce")).to_contain_text("No message is shown.")
    r = director.client.get(f"/api/t/{tid}/export/log")
    assert r.status_code == 200, r.text
    lines = [json.loads(x) for x in r.text.splitlines()]
    kinds = [x["event"]["type"] for x in lines if "event" in x]
    kinds = [k for k in kinds if k.startswith("announ")]
    assert kinds == ["announced", "announced", "announcement_cleared"]


def test_a_blank_message_is_refused_and_nothing_is_shown(
    pages: Pages, servers: list[ServerProcess], director: Api
) -> None:
    tid = "announce2"
    new_tournament(director, tid, 10)
    r = director.client.post(
        f"/api/t/{tid}/commands", json={"id": "a.1", "command": {"type": "announce", "text": "  "}}
    )
    assert r.status_code == 422, r.text
    assert r.json()["error"]["field"] == "text"
    assert director.state(tid)["state"]["announcement"] is None
    wall = pages.open(servers[0], f"/wall/{tid}", size="tv")
    expect(wall.locator(".announce-line")).to_be_hidden()
    phone = pages.open(servers[0], f"/wall/{tid}", size="phone")
    director.ok(tid, {"type": "announce", "text": "Registration closes in 10 minutes", "full": True})
    expect(phone.locator(".announce-screen")).to_be_visible()
    # Each word whole on a phone: the text is made smaller rather than a word cut.
    text = phone.locator(".announce-screen .announce-text")
    assert text.evaluate(WORD_LINES, "Registration") == 1
    shot(phone, "screen-phone")
    small = pages.open(servers[0], "/director?t=announce2", user=DIRECTOR)
    small.locator("#s-announce").scroll_into_view_if_needed()
    expect(small.locator(".announce-quote")).to_contain_text("Registration closes")
    shot(small, "console-phone")
