"""Every clock fits H:MM:SS (issue 25, defect 2), in real Chromium against real servers.

Main events play levels of 60 to 120 minutes; every screen's clock was sized for MM:SS, and
"1:00:00" at 1080p ran under the wall's table map. With a 90-minute level on the clock, on the
wall, the final table's wall, the player screen, the floor phone and the director's console,
at 1920x1080, 1280x800, 390x844, 3840x2160 and 1366x768, and in the wall's tighter layouts
(a time call, hand-for-hand), and on named screens' layouts with the director's message line
under them (issue 29): the clock's text lies inside its panel and inside the page, and
nothing covers it or lies on it (bounding boxes, and what the browser paints on top). The
table screen shows no level clock (a time call's seconds are said in its notices).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import (
    DIRECTOR,
    FLOOR,
    Api,
    Pages,
    ServerProcess,
    new_tournament,
    occupants,
)

pytestmark = pytest.mark.browser

VIEWPORTS = [(1920, 1080), (1280, 800), (390, 844), (3840, 2160), (1366, 768)]

#: A main event's level: 90 minutes, the clock showing 1:29:5x.
LONG = {
    "name": "main-event",
    "starting_stack": 30_000,
    "chips": [100, 500, 1000],
    "levels": [
        {"type": "level", "small_blind": 100, "big_blind": 200, "minutes": 90},
        {"type": "break", "minutes": 20},
        {"type": "level", "small_blind": 200, "big_blind": 400, "minutes": 120},
    ],
}

#: What is wrong with each clock shown: its text's box (the text's width, the line's height)
#: outside its panel or the page, another element painted over it, another text on it.
FIT = """() => {
  const out = [];
  const visible = (el) => el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true });
  const inside = (a, b) => a.left >= b.left - 0.5 && a.right <= b.right + 0.5
    && a.top >= b.top - 0.5 && a.bottom <= b.bottom + 0.5;
  const meets = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5
    && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  for (const el of document.querySelectorAll(".clock-time, .tc-count")) {
    if (!visible(el)) continue;
    const range = document.createRange();
    range.selectNodeContents(el);
    const across = range.getBoundingClientRect();
    const line = el.getBoundingClientRect();
    const box = { left: across.left, right: across.right, top: line.top, bottom: line.bottom };
    const panel = el.closest(".clock-panel, .time-call") || el.parentElement;
    const p = panel.getBoundingClientRect();
    const left = p.left + panel.clientLeft;
    const top = p.top + panel.clientTop;
    const room = { left, top, right: left + panel.clientWidth, bottom: top + panel.clientHeight };
    const problems = [];
    if (!inside(box, room)) problems.push(`outside its panel: ${JSON.stringify([box, room])}`);
    const page = { left: 0, top: 0, right: document.documentElement.clientWidth,
      bottom: Math.max(innerHeight, document.documentElement.scrollHeight) };
    if (!inside(box, page)) problems.push("outside the page");
    el.scrollIntoView({ block: "center" });
    const now = range.getBoundingClientRect();
    const lineNow = el.getBoundingClientRect();
    for (let i = 1; i < 10; i += 1) {
      for (const f of [0.25, 0.5, 0.75]) {
        const x = now.left + (now.width * i) / 10;
        const y = lineNow.top + lineNow.height * f;
        if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) continue;
        const over = document.elementFromPoint(x, y);
        if (over && !el.contains(over) && !over.contains(el)) {
          problems.push(`covered by ${over.className || over.tagName}`);
        }
      }
    }
    const shown = { left: now.left, right: now.right, top: lineNow.top, bottom: lineNow.bottom };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const parent = n.parentElement;
      if (!n.textContent.trim() || el.contains(n) || !parent) continue;
      if (!visible(parent) || parent.closest(".sr-only")) continue;
      const r = document.createRange();
      r.selectNodeContents(n);
      for (const rect of r.getClientRects()) {
        if (meets(rect, shown)) problems.push(`"${n.textContent.trim().slice(0, 24)}" on it`);
      }
    }
    out.push({ text: el.textContent, problems: [...new Set(problems)] });
  }
  return out;
}"""


def clocks(page: Page) -> list[dict[str, Any]]:
    result: list[dict[str, Any]] = page.evaluate(FIT)
    return result


def open_at(
    pages: Pages,
    server: ServerProcess,
    path: str,
    viewport: tuple[int, int],
    user: tuple[str, str] | None = None,
) -> Page:
    w, h = viewport
    ctx = pages.context(server, size="phone" if w < 600 else "tv", user=user)
    page = ctx.new_page()
    page.on("pageerror", lambda e: pages.errors.append(f"{path}: {e}"))
    page.set_viewport_size({"width": w, "height": h})
    page.goto(path)
    expect(page.locator(".conn").first).to_have_attribute("data-status", "live")
    return page


def assert_fits(page: Page, where: str) -> None:
    # The digits of a 90-minute level, on the server's clock.
    expect(page.locator(".clock-time").first).to_have_text(re.compile(r"^1:[0-5]\d:\d\d$"))
    shown = clocks(page)
    assert shown, f"{where}: no clock"
    bad = [c for c in shown if c["problems"]]
    assert not bad, f"{where}: {bad}"


@pytest.fixture(scope="module")
def long_level(director: Api) -> str:
    tid = "long"
    new_tournament(director, tid, 30, structure=LONG)
    director.ok(tid, {"type": "clock_start"})
    return tid


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=lambda v: f"{v[0]}x{v[1]}")
def test_a_90_minute_level_fits_every_clock_on_every_screen(
    servers: list[ServerProcess], pages: Pages, long_level: str, viewport: tuple[int, int]
) -> None:
    tid = long_level
    screens: list[tuple[str, tuple[str, str] | None]] = [
        (f"/wall/{tid}", None),
        (f"/final/{tid}", None),
        (f"/player/{tid}", None),
        (f"/floor/{tid}", FLOOR),
        (f"/director?t={tid}", DIRECTOR),
    ]
    for path, user in screens:
        page = open_at(pages, servers[0], path, viewport, user)
        assert_fits(page, f"{path} at {viewport}")
        page.context.close()


def test_the_wall_fits_the_clock_in_its_tighter_layouts_too(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    tid = "tight"
    new_tournament(director, tid, 30, structure=LONG)
    director.ok(tid, {"type": "clock_start"})
    seats = occupants(director, tid, 2)
    director.ok(tid, {"type": "call_time", "table": 2, "seat": min(seats), "seconds": 90})
    for viewport in [(1920, 1080), (1366, 768)]:
        wall = open_at(pages, servers[1], f"/wall/{tid}", viewport)
        expect(wall.locator(".time-call")).to_be_visible()
        expect(wall.locator(".wall-left")).to_have_class(re.compile(r"\bcalling\b"))
        assert_fits(wall, f"a time call at {viewport}")
        wall.context.close()
    director.ok(tid, {"type": "end_time_call", "table": 2, "seat": min(seats), "outcome": "acted"})
    director.ok(tid, {"type": "start_hand_for_hand"})
    wall = open_at(pages, servers[1], f"/wall/{tid}", (1920, 1080))
    expect(wall.locator("body")).to_have_class(re.compile(r"\bh4h-on\b"))
    assert_fits(wall, "hand-for-hand")


#: Named screens (issue 29): the layouts a venue saves, each with the director's line shown.
LAYOUTS = {
    "tables-only": [{"page": "tables", "seconds": 30}],
    "charts-prizes": [{"page": "charts", "seconds": 10}, {"page": "prizes", "seconds": 10}],
    "moves-chips": [{"page": "moves", "seconds": 10}, {"page": "chips", "seconds": 10}],
    # A screen that lists the seat draw keeps it up all day over the whole wall, without a
    # clock (as ?pages=seats does): every other page together.
    "five-pages": [
        {"page": p, "seconds": 8} for p in ("tables", "moves", "prizes", "chips", "charts")
    ],
}


def test_every_named_screens_layout_fits_the_clock_beside_the_directors_line(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    tid = "layouts"
    new_tournament(director, tid, 30, structure=LONG)
    director.ok(tid, {"type": "clock_start"})
    director.ok(
        tid,
        {"type": "announce", "text": "Dinner break after this level: 60 minutes, restaurant "
         "on the first floor. Bag your chips before you leave the table."},
    )  # fmt: skip
    for name, layout in LAYOUTS.items():
        r = director.client.put(f"/api/wall/screens/{name}", json={"pages": layout})
        assert r.status_code == 200, r.text
    for name in LAYOUTS:
        for viewport in [(1920, 1080), (1366, 768), (390, 844)]:
            wall = open_at(pages, servers[1], f"/wall/{tid}?screen={name}", viewport)
            expect(wall.locator(".announce-line")).to_be_visible()
            assert_fits(wall, f"the screen {name} at {viewport}")
            wall.context.close()
