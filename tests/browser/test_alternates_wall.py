"""The wall's alternates panel with a long line, at 1920x1080: eight called to the desk at
once (a wave's worth) and a dozen waiting fit in the wall's left column beside the clock,
none cut off, in type read from five metres (nothing under 1.7rem, as the wall's other
panels).

``FLOOR_SHOTS=dir`` keeps the screenshots (1920x1080 and 390x844) for a person to look at.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

from tests.browser.conftest import Pages
from tests.browser.test_alternates import STRUCTURE
from tests.e2e.conftest import Api, ServerProcess

SHOTS = os.environ.get("FLOOR_SHOTS")

#: Each element of the panel: its box, and what it would need to show whole.
MEASURE = """() => {
  const panel = document.querySelector('.alt-wall');
  const left = document.querySelector('.wall-left');
  const root = parseFloat(getComputedStyle(document.documentElement).fontSize);
  const p = panel.getBoundingClientRect();
  const items = [...panel.querySelectorAll('li, h2, h3, p, figcaption')].map((el) => {
    const r = el.getBoundingClientRect();
    return { text: el.textContent, top: r.top, bottom: r.bottom, right: r.right,
      rem: parseFloat(getComputedStyle(el).fontSize) / root,
      clipped: el.scrollWidth > el.clientWidth + 1 };
  });
  return { panel: { top: p.top, bottom: p.bottom, left: p.left, right: p.right,
    scroll: panel.scrollHeight, client: panel.clientHeight },
    column: left.getBoundingClientRect().bottom, height: innerHeight, items,
    clock: document.querySelector('.wall-clock').getBoundingClientRect().height };
}"""


def shot(page: Page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{SHOTS}/{name}.png")


def test_a_long_line_of_alternates_fits_the_walls_left_column(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    tid = "longline"
    body = {"id": tid, "name": "Long Line", "rules": "tda-2024", "structure": STRUCTURE}
    assert director.client.post("/api/tournaments", json=body).status_code == 201
    capacity = {"seats": 18, "minutes": 60}
    director.ok(tid, {"type": "set_capacity", "capacity": capacity})
    seated = [{"name": f"Seated Player {i}", "player": f"S{i}"} for i in range(18)]
    director.ok(tid, {"type": "register_many", "entries": seated})
    director.ok(tid, {"type": "draw_seats"})
    director.ok(tid, {"type": "clock_start"})
    names = [
        "Alexandra Novotná-Kratochvílová", "Bartholomew Fitzgerald", "Cecílie Dvořáková",
        "Dominik Procházka", "Eliška Svobodová", "František Horák", "Gabriela Němcová",
        "Hynek Kučera", "Ivana Marešová", "Jaroslav Veselý", "Kristýna Pokorná",
        "Ladislav Černý", "Magdaléna Krejčí", "Norbert Hájek", "Olga Růžičková",
        "Přemysl Beneš", "Radka Fialová", "Stanislav Sedláček", "Tereza Zelenková",
        "Urban Kolář",
    ]  # fmt: skip
    entries: list[dict[str, Any]] = [{"name": n} for n in names]
    director.ok(tid, {"type": "register_many", "entries": entries})
    # Eight seats open: the first eight in line are called, each with their time.
    for i in range(8):
        director.ok(tid, {"type": "bust", "player": f"S{i}"})

    wall = pages.open(servers[0], f"/wall/{tid}", size="tv")
    panel = wall.locator(".alt-wall")
    expect(panel.locator(".alt-wall-called")).to_be_visible()
    wall.wait_for_timeout(1500)  # the wall fits its panels as they come (wall_fit.js)
    shot(wall, "alternates-wall-long-1920x1080")
    m: dict[str, Any] = wall.evaluate(MEASURE)
    p = m["panel"]
    # Nothing of the panel below the column or the screen, nothing hidden inside it.
    assert p["bottom"] <= min(m["column"], m["height"]) + 1, m
    assert p["scroll"] <= p["client"] + 1, m
    for item in m["items"]:
        assert p["top"] - 1 <= item["top"] and item["bottom"] <= p["bottom"] + 1, item
        assert not item["clipped"], item
        assert item["rem"] >= 1.7 - 1e-6, item
    # The called come first, in order, each with the time left; those that do not fit are
    # counted: none is lost.
    rows = panel.locator(".alt-wall-called li")
    shown = rows.count()
    assert shown >= 4, m
    for i in range(shown):
        expect(rows.nth(i).locator(".alt-name")).to_have_text(names[i])
        expect(rows.nth(i).locator(".alt-left")).to_have_text(re.compile(r"^\d+:\d\d$"))
    if shown < 8:
        expect(panel.locator(".alt-wall-called .alt-more")).to_have_text(f"and {8 - shown} more")
    expect(panel.locator(".alt-code svg")).to_be_visible()
    # The latest seat changes keep their place under it.
    latest = wall.locator(".wall-latest").bounding_box()
    assert latest is not None and latest["y"] + latest["height"] <= m["column"] + 1, latest
    inside = wall.locator(".wall-latest").evaluate(
        "(el) => [el.lastElementChild.getBoundingClientRect().bottom,"
        " el.getBoundingClientRect().bottom]"
    )
    assert inside[0] <= inside[1] + 1, f"the latest seat changes are cut: {inside}"
    # The clock is still the column's: as large as the time calls leave it.
    assert m["clock"] >= 200, m

    wall.set_viewport_size({"width": 390, "height": 844})
    expect(panel.locator(".alt-wall-called li")).to_have_count(8)
    shot(wall, "alternates-wall-long-390x844")
