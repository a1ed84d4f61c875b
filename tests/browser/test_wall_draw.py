"""The seat draw on the wall: 1,300 players of three languages by surname, in pages headed by
their letters, read from five metres, split between two walls, gone when the clock starts."""

from __future__ import annotations

import itertools
import os
import random

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import TOOLS_STRUCTURE, Api, Pages, ServerProcess

pytestmark = pytest.mark.browser

#: 4.2 cm on a 55-inch 1080p panel: what the room reads its name from.
NAME_PX = 66

FIRST = ["Jiří", "Tomáš", "Eva", "Zofia", "Łukasz", "Małgorzata", "Jürgen", "Günther", "Käthe",
         "Ondřej", "Wojciech", "Agnieszka", "Uwe", "Šárka", "Žaneta"]  # fmt: skip
LAST = ["Dvořák", "Černý", "Chalupa", "Řezníček", "Šimek", "Žák", "Nowak", "Wiśniewski",
        "Łukasiewicz", "Śliwa", "Żelazny", "Müller", "Schröder", "Öztürk", "Ärger", "Weiß",
        "Hrubý", "Adámek", "Cibulka", "Zeman"]  # fmt: skip


@pytest.fixture(scope="module")
def drawn(director: Api) -> dict[str, str]:
    """1,300 players registered and drawn, the clock not started: name by player id."""
    tid = "velkelosovani"
    r = director.client.post(
        "/api/tournaments",
        json={
            "id": tid,
            "name": "Velké losování",
            "rules": "tda-2024",
            "structure": TOOLS_STRUCTURE,
            "overrides": {"seats": 10},
        },
    )
    assert r.status_code == 201, r.text
    rng = random.Random(7)
    names = {}
    for i, (first, last) in enumerate(itertools.islice(itertools.cycle(
            itertools.product(FIRST, LAST)), 1300)):  # fmt: skip
        names[f"D{i}"] = f"{first} {last}" if rng.random() < 0.9 else f"{first} Marie {last}"
    entries = [{"player": pid, "name": name} for pid, name in names.items()]
    for start in range(0, len(entries), 500):
        director.ok(tid, {"type": "register_many", "entries": entries[start : start + 500]})
    director.ok(tid, {"type": "draw_seats"})
    return names


def shot(page: Page, name: str) -> None:
    if os.environ.get("FLOOR_SCREENSHOTS"):
        page.screenshot(path=f"/tmp/floor-wall-draw-{name}.png")


def _read_parts(wall: Page) -> list[list[str]]:
    """Every part of the draw as the wall shows it, turned by hand: the names of each."""
    expect(wall.locator(".page-seats")).to_be_visible()
    nav = wall.locator(".page-nav li.current")
    expect(nav).to_contain_text("/")
    total = int(nav.inner_text().rsplit("/", 1)[1])
    parts = []
    for n in range(1, total + 1):
        expect(nav).to_have_text(f"Seat draw {n}/{total}")
        expect(wall.locator(".page-seats .page-of")).to_have_text(f"page {n} of {total}")
        parts.append(wall.locator(".draw-row").evaluate_all(
            "(rows) => rows.map((r) => r.querySelector('.draw-name').textContent)"))  # fmt: skip
        wall.keyboard.press("ArrowRight")
    return parts


def test_the_draw_is_read_from_five_metres_by_surname_in_pages_that_say_which_letters(
    servers: list[ServerProcess], pages: Pages, director: Api, drawn: dict[str, str]
) -> None:
    wall = pages.open(servers[1], "/wall/velkelosovani?draw_rotate=600", size="tv")
    # Before the clock starts, the draw has the wall to itself: no clock column beside it.
    expect(wall.locator(".page-seats")).to_be_visible()
    expect(wall.locator(".wall-left")).to_be_hidden()
    # The other pages have nothing to say yet: the draw alone is in the rotation.
    expect(wall.locator(".page-nav li")).to_have_count(1)
    sizes = wall.locator(".draw-row").evaluate_all(
        "(rows) => rows.map((r) => parseFloat(getComputedStyle(r).fontSize))"
    )
    assert min(sizes) >= NAME_PX, sizes
    clipped = wall.locator(".draw-row").evaluate_all(
        """(rows) => rows.filter((r) => { const b = r.getBoundingClientRect();
             return b.bottom > innerHeight || b.right > innerWidth; }).length"""
    )
    assert clipped == 0
    first_head = wall.locator(".page-seats .draw-range").inner_text()

    parts = _read_parts(wall)
    shown = [name for part in parts for name in part]
    # Everybody once, the surname first as the room looks for it.
    assert sorted(shown) == sorted(
        f"{n.split()[-1]} {' '.join(n.split()[:-1])}" for n in drawn.values()
    )
    assert first_head.startswith("A")
    # Czech and Polish letters stand apart where the venue's alphabet (en-GB) keeps them with
    # their plain twins: Ł and Ś among L and S, Ä and Ö among A and O.
    surnames = [name.split()[0] for name in shown]
    assert surnames.index("Ärger") < surnames.index("Cibulka")
    assert surnames.index("Öztürk") < surnames.index("Řezníček")
    # Within a few minutes at six seconds a page (half that on each of two walls).
    assert len(parts) * 6 <= 6 * 60, len(parts)
    shot(wall, "tv")


def test_two_walls_split_the_alphabet_at_a_letter(
    servers: list[ServerProcess], pages: Pages, drawn: dict[str, str]
) -> None:
    halves, pages_of = [], []
    for n in (1, 2):
        wall = pages.open(servers[1], f"/wall/velkelosovani?draw_rotate=600&split={n}/2",
                          size="tv")  # fmt: skip
        parts = _read_parts(wall)
        pages_of.append(len(parts))
        halves.append([name for part in parts for name in part])
        wall.close()
    assert len(halves[0]) + len(halves[1]) == len(drawn)
    assert not set(halves[0]) & set(halves[1])
    # No surname's letter on both walls, and the shares near even.
    assert halves[0][-1][0] != halves[1][0][0]
    assert abs(len(halves[0]) - len(halves[1])) < len(drawn) / 4
    assert max(pages_of) * 6 <= 3.5 * 60, pages_of


def test_the_draw_gives_way_to_the_clock_when_play_starts(
    servers: list[ServerProcess], pages: Pages, director: Api, drawn: dict[str, str]
) -> None:
    wall = pages.open(servers[1], "/wall/velkelosovani", size="tv")
    expect(wall.locator(".page-seats")).to_be_visible()
    phone = pages.open(servers[1], "/wall/velkelosovani", size="phone")
    expect(phone.locator(".page-seats")).to_be_visible()
    # On a phone the draw comes first, before the map.
    tops = [phone.locator(sel).bounding_box() for sel in (".page-seats", ".page-tables")]
    assert tops[0] and tops[1] and tops[0]["y"] < tops[1]["y"], tops
    shot(phone, "phone")
    director.ok("velkelosovani", {"type": "clock_start"})
    expect(wall.locator(".page-seats")).to_be_hidden()
    expect(wall.locator(".wall-left")).to_be_visible()
    expect(wall.locator(".page-tables")).to_be_visible()
    expect(phone.locator(".page-seats")).to_be_hidden()
    # A wall kept for the draw keeps it all day.
    kept = pages.open(servers[1], "/wall/velkelosovani?pages=seats", size="tv")
    expect(kept.locator(".page-seats")).to_be_visible()
    expect(kept.locator(".draw-row").first).to_be_visible()
