"""The director's messages (issue 29, part 1): typed on the console, a line on the wall and
the player screens or the wall's whole screen, cleared with one tap, in the log."""

from __future__ import annotations

import json
import os
from pathlib import Path

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
    director.ok(
        tid, {"type": "announce", "text": "Registration closes in 10 minutes", "full": True}
    )
    expect(phone.locator(".announce-screen")).to_be_visible()
    # Each word whole on a phone: the text is made smaller rather than a word cut.
    text = phone.locator(".announce-screen .announce-text")
    assert text.evaluate(WORD_LINES, "Registration") == 1
    shot(phone, "screen-phone")
    small = pages.open(servers[0], "/director?t=announce2", user=DIRECTOR)
    small.locator("#s-announce").scroll_into_view_if_needed()
    expect(small.locator(".announce-quote")).to_contain_text("Registration closes")
    shot(small, "console-phone")


def _png(width: int, height: int, rgb: tuple[int, int, int]) -> bytes:
    """A real PNG of one colour (zlib and CRCs as the format says): Chromium draws it."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    row = b"\x00" + bytes(rgb) * width
    raw = zlib.compress(row * height)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", raw) + chunk(b"IEND", b"")


def test_the_logo_and_the_sponsor_uploaded_on_the_console_show_on_the_wall(
    pages: Pages, servers: list[ServerProcess], director: Api, tmp_path: Path
) -> None:
    tid = "announce3"
    new_tournament(director, tid, 12)
    director.ok(tid, {"type": "clock_start"})
    logo, svg = tmp_path / "logo.png", tmp_path / "sponsor.svg"
    logo.write_bytes(_png(400, 120, (200, 30, 40)))
    svg.write_text("<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>")
    console = pages.open(servers[0], f"/director?t={tid}", size="desk", user=DIRECTOR)
    console.set_input_files("#walls-logo-file", str(logo))
    expect(console.locator("#walls-logo img.walls-preview")).to_be_visible()
    # An SVG under an image's name is refused with the server's reason; nothing is shown.
    console.set_input_files("#walls-sponsor-file", str(svg))
    expect(console.locator(".toast-error")).to_contain_text("SVG")
    expect(console.locator("#walls-sponsor img")).to_have_count(0)
    sponsor = tmp_path / "sponsor.png"
    sponsor.write_bytes(_png(300, 100, (20, 160, 60)))
    console.set_input_files("#walls-sponsor-file", str(sponsor))
    expect(console.locator("#walls-sponsor img.walls-preview")).to_be_visible()

    wall = pages.open(servers[1], f"/wall/{tid}", size="tv")
    for cls in ("wall-logo", "wall-sponsor"):
        expect(wall.locator(f"img.{cls}")).to_be_visible()
        wall.wait_for_function(f"() => document.querySelector('img.{cls}').naturalWidth > 0")
    src = wall.locator(".topbar img.wall-logo").get_attribute("src")
    assert src is not None
    r = director.client.get(src)
    assert r.headers["content-type"] == "image/png"
    assert "immutable" in r.headers["cache-control"]
    # The title keeps its room beside the logo (the chain's head makes way for it once the
    # logo has taken its place); the sponsor is under the pages, on screen.
    wall.wait_for_function(
        "() => { const e = document.querySelector('.topbar .title');"
        " return e.scrollWidth <= e.clientWidth; }"
    )
    box = wall.locator("img.wall-sponsor").bounding_box()
    assert box is not None and box["y"] + box["height"] <= 1080
    shot(wall, "brand-tv")
    phone = pages.open(servers[1], f"/wall/{tid}", size="phone")
    expect(phone.locator(".topbar img.wall-logo")).to_be_visible()
    expect(phone.locator("img.wall-sponsor")).to_be_visible()
    shot(phone, "brand-phone")
    console.locator("#s-walls").scroll_into_view_if_needed()
    shot(console, "walls-console")

    # Taken down on the console, gone from the wall at its next read.
    console.locator("#walls-logo").get_by_role("button", name="Take it down").click()
    expect(console.locator("#walls-logo img")).to_have_count(0)
    wall.evaluate("() => window.floorWall.brand.load()")
    expect(wall.locator(".topbar img.wall-logo")).to_be_hidden()


def test_a_named_screen_shows_the_layout_saved_on_the_console_and_follows_a_new_one(
    pages: Pages, servers: list[ServerProcess], director: Api
) -> None:
    tid = "announce4"
    new_tournament(director, tid, 30)
    director.ok(tid, {"type": "clock_start"})
    console = pages.open(servers[0], f"/director?t={tid}", size="desk", user=DIRECTOR)
    console.fill("#screen-name", "bar-left")
    console.select_option("#screen-tables-order", "")
    console.select_option("#screen-charts-order", "1")
    console.fill("#screen-charts-seconds", "7")
    console.select_option("#screen-tables-order", "2")
    console.fill("#screen-tables-seconds", "30")
    console.locator("#screen-save").click()
    expect(console.locator('[data-screen="bar-left"]')).to_contain_text("Charts 7 s → Tables 30 s")
    console.locator("#s-walls").scroll_into_view_if_needed()
    shot(console, "screens-console")

    wall = pages.open(servers[1], f"/wall/{tid}?screen=bar-left", size="tv")
    nav = wall.locator(".page-nav li")
    expect(nav).to_have_count(2)
    expect(nav.nth(0)).to_contain_text("Charts")
    expect(nav.nth(1)).to_contain_text("Tables")
    expect(wall.locator(".page-charts")).to_be_visible()
    # Seven seconds on the charts, then the tables.
    expect(wall.locator(".page-tables")).to_be_visible(timeout=15_000)
    shot(wall, "screen-bar-left")

    # Saved again with one page: the wall that shows it is built again with it.
    r = director.client.put(
        "/api/wall/screens/bar-left", json={"pages": [{"page": "prizes", "seconds": 20}]}
    )
    assert r.status_code == 200, r.text
    wall.evaluate("() => window.floorWall.brand.load()")
    expect(wall.locator(".page-nav li")).to_have_count(1, timeout=15_000)
    expect(wall.locator(".page-nav li").first).to_contain_text("Prizes")
    # A wall without a name keeps every page.
    plain = pages.open(servers[1], f"/wall/{tid}", size="tv")
    assert plain.locator(".page-nav li").count() > 1
